"""compare over evaluated runs: the leaderboard (Markdown, JSON), the heatmap, the length plot."""

from __future__ import annotations

import json

from helpers.evaluation import (
    RELEASE_SAMPLE,
    TYPES_BY_ID,
    data_config,
    detector,
    gold_of,
    release_rows,
)
from typer.testing import CliRunner

from longnovel.cli import app
from longnovel.evaluation.datasets import dataset_name

runner = CliRunner()


def perfect_or_blind(rows):
    """judge-a names every gold judgment; judge-b calls everything consistent."""
    def reply(messages):
        row = gold_of(messages, rows)
        types = TYPES_BY_ID.get(row["id"])
        return json.dumps({"score": 2, "hallucination_types": types}) if types else \
            '{"score": 5}'
    return reply


def test_compare_ranks_two_models_and_writes_every_file(tmp_path, llm_server):
    models = {**detector(llm_server, "good", "judge-a"), **detector(llm_server, "blind", "b")}
    config = data_config(tmp_path, models)
    reply = perfect_or_blind(release_rows())
    llm_server.reply = lambda messages: '{"score": 5}'
    base = ["evaluate", "-c", str(config), "--data", str(RELEASE_SAMPLE), "--no-progress"]
    assert runner.invoke(app, [*base, "-m", "blind"]).exit_code == 0
    llm_server.reply = reply
    assert runner.invoke(app, [*base, "-m", "good"]).exit_code == 0
    result = runner.invoke(app, ["compare", "-c", str(config), "--data", str(RELEASE_SAMPLE)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "run/compare" / dataset_name(RELEASE_SAMPLE)
    for name in ("heatmap.png", "length.png"):
        assert (folder / name).read_bytes()[:4] == b"\x89PNG"
    board = json.loads((folder / "leaderboard.json").read_text(encoding="utf-8"))
    assert [r["run"] for r in board["runs"]] == ["good", "blind"] and board["tiers"] == \
        ["short", "long"]
    good, blind = board["runs"]
    assert good["balanced_accuracy"]["all"]["mean"] == 1.0
    assert blind["balanced_accuracy"]["all"]["mean"] == 0.5
    assert blind["balanced_accuracy"]["long"]["ci"] == [0.5, 0.5]
    assert good["type_recall"]["causal"]["mean"] == 1.0 and good["type_recall"]["entity"] is None
    assert blind["pair_accuracy"]["mean"] == 0.5 and good["failure_rate"]["mean"] == 0.0
    markdown = (folder / "leaderboard.md").read_text(encoding="utf-8")
    assert markdown.strip() in result.stdout
    assert "| 1 | good | 12 | 0.0% | 1.000 [1.000, 1.000] |" in markdown
    assert "| blind |  | 0.000 | 0.000 | 0.000 |" in markdown  # no entity sample: blank
    only = runner.invoke(app, ["compare", "-c", str(config), "--data", str(RELEASE_SAMPLE),
                               "-m", "blind"])
    assert only.exit_code == 0 and "| good |" not in only.stdout


def test_compare_without_runs_is_a_clear_error(tmp_path, llm_server):
    config = data_config(tmp_path, detector(llm_server))
    result = runner.invoke(app, ["compare", "-c", str(config)])
    assert result.exit_code == 1 and "no evaluated runs" in result.output
    assert "Traceback" not in result.output
