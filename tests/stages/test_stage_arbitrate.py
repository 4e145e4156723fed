"""The arbitrate stage end to end: three scripted models on local servers, through the CLI."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from helpers.arbitration import ARTICLE, arbitration_config, total_requests
from typer.testing import CliRunner

from longnovel.arbitration.prompts import shared_prefix
from longnovel.cli import app
from longnovel.config import load_config
from longnovel.pipeline import Pipeline
from longnovel.stages import arbitrate
from longnovel.stages.base import StageContext

cli = CliRunner()
MODELS = ["a", "b", "c"]
SECRETS = {name: f"sk-arbitrate-secret-{name}-0123456789" for name in MODELS}
KEY_ENV = {name: f"LONGNOVEL_ARB_KEY_{name.upper()}" for name in MODELS}


def invoke(*args: str):
    result = cli.invoke(app, [*args, "--no-progress"])
    assert result.exit_code == 0, result.output
    return result


def read(run: Path, name: str) -> list[dict]:
    return pq.read_table(run / "arbitrate" / name).to_pylist()


@pytest.fixture
def built(servers, tmp_path, monkeypatch):
    """A full build with keys in the environment; returns (config path, run dir)."""
    for name in MODELS:
        monkeypatch.setenv(KEY_ENV[name], SECRETS[name])
    config = arbitration_config(tmp_path, servers, key_env=KEY_ENV)
    invoke("build", "-c", str(config))
    return config, tmp_path / "run"


def test_three_files_every_summary_judged_by_the_two_others(built):
    _, run = built
    windows = {w["window_id"]: w for w in pq.read_table(run / "expand/windows.parquet").to_pylist()}
    summaries, judgments, labels = (read(run, f) for f in
                                    ("summaries.parquet", "judgments.parquet", "labels.parquet"))
    chosen = {s["window_id"] for s in summaries}
    assert len(chosen) == 6 and {windows[w]["language"] for w in chosen} == {"en", "zh"}
    assert Counter(s["window_id"] for s in summaries) == {w: 3 for w in chosen}
    assert all(s["ok"] and s["summary"].startswith(f"Summary by {s['model']}") for s in summaries)
    assert not any("<think>" in s["summary"] for s in summaries)
    assert all(j["judge_model"] != j["summary_model"] for j in judgments)
    judged_by = Counter((j["window_id"], j["summary_model"]) for j in judgments)
    assert judged_by == {(s["window_id"], s["model"]): 2 for s in summaries}
    assert {(j["window_id"], j["summary_model"], j["judge_model"]) for j in judgments} == {
        (w, s, judge) for w in chosen for s in MODELS for judge in MODELS if judge != s}
    assert all(j["ok"] and j["raw"] for j in judgments)
    assert len(labels) == len(summaries)
    for name, schema in (("summaries.parquet", arbitrate.SUMMARIES),
                         ("judgments.parquet", arbitrate.JUDGMENTS),
                         ("labels.parquet", arbitrate.LABELS)):
        assert pq.read_schema(run / "arbitrate" / name).equals(schema, check_metadata=False)


def test_scripted_judgments_give_the_expected_labels(built):
    _, run = built
    labels = {row["summary_model"]: row for row in read(run, "labels.parquet")}
    a, b, c = labels["a"], labels["b"], labels["c"]
    assert (a["label"], a["score"], a["hallucination_types"], a["agreement"]) == (
        "hallucinated", 1, ["entity"], 1.0)
    assert a["reason"] == "b on a: checked."
    assert (b["label"], b["score"], b["hallucination_types"]) == ("consistent", 4, [])
    assert (c["label"], c["score"], c["agreement"]) == ("disputed", 3, 0.5)
    judgments = read(run, "judgments.parquet")
    by_pair = {(j["judge_model"], j["summary_model"]): j for j in judgments}
    assert by_pair[("b", "a")]["hallucination_types"] == ["entity", "event"]
    assert by_pair[("c", "a")]["hallucination_types"] == ["entity", "fabrication"]
    assert by_pair[("c", "b")]["hallucination_types"] == []
    assert by_pair[("a", "c")]["hallucination_types"] == ["number", "unknown"]
    assert by_pair[("a", "c")]["unknown_types"] == ["misattribution"]
    assert "<think>" in by_pair[("b", "a")]["raw"]


def test_manifest_usage_failures_and_agreement(built):
    _, run = built
    manifest = json.loads((run / "arbitrate/manifest.json").read_text(encoding="utf-8"))
    assert manifest["failures"] == {} and manifest["dropped"] == {"not_selected": 7}
    assert set(manifest["usage"]) == set(MODELS)
    assert all(u["requests"] == 6 + 12 for u in manifest["usage"].values())
    assert manifest["labels"] == {"consistent": 6, "disputed": 6, "hallucinated": 6}
    pairs = {tuple(p["judges"]): p for p in manifest["agreement"]["pairs"]}
    assert set(pairs) == {("a", "b"), ("a", "c"), ("b", "c")}
    assert pairs[("a", "b")]["n"] == 6 and pairs[("a", "b")]["label_agreement"] == 0.0
    assert pairs[("b", "c")]["n"] == 6 and pairs[("b", "c")]["label_agreement"] == 1.0
    assert pairs[("b", "c")]["types_jaccard"] == pytest.approx(1 / 3, abs=1e-4)


def test_rerun_and_force_send_no_request(built, servers):
    config, run = built
    sent = total_requests(servers)
    labels = read(run, "labels.parquet")
    result = invoke("build", "-c", str(config))
    assert "arbitrate: fresh, skipped" in result.output
    invoke("arbitrate", "-c", str(config), "--force")
    assert total_requests(servers) == sent
    assert read(run, "labels.parquet") == labels
    manifest = json.loads((run / "arbitrate/manifest.json").read_text(encoding="utf-8"))
    assert all(u["requests"] == 0 and u["cache_hits"] == 18 for u in manifest["usage"].values())


def test_requests_of_a_model_about_a_window_share_the_article_prefix(built, servers):
    _, run = built
    windows = {w["article"].strip(): w for w in
               pq.read_table(run / "expand/windows.parquet").to_pylist()}
    for name, server in servers.items():
        per_window = Counter()
        for request in server.requests:
            system, user = (m["content"] for m in request["body"]["messages"])
            window = windows[ARTICLE.search(user).group(1)]
            want_system, want_start = shared_prefix(window["article"], window["language"])
            assert system == want_system and user.startswith(want_start), name
            per_window[window["window_id"]] += 1
        assert set(per_window.values()) == {3}, name  # its summary and two judgments


def test_keys_are_sent_but_never_written(built, servers, tmp_path):
    for name, server in servers.items():
        assert server.requests, name
        assert all(SECRETS[name] in r["headers"]["authorization"] for r in server.requests)
    files = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert any(path.suffix == ".parquet" for path in files)  # the build's own files
    for path in files:
        data = path.read_bytes()
        assert not any(s.encode() in data for s in SECRETS.values()), path


def test_export_holds_the_undisputed_labels(built):
    _, run = built
    samples = [row for path in (run / "export").rglob("*.parquet")
               for row in pq.read_table(path).to_pylist() if row["source"] == "arbitration"]
    labels = [row for row in read(run, "labels.parquet") if row["label"] != "disputed"]
    assert sorted((s["generator"], s["summary"], s["score"], s["label"]) for s in samples) == \
        sorted((r["summary_model"], r["summary"], r["score"], r["label"]) for r in labels)
    assert {s["generator"] for s in samples} == {"a", "b"}
    hallucinated = [s for s in samples if s["label"] == "hallucinated"]
    assert hallucinated and all(s["hallucination_types"] == ["entity"] for s in hallucinated)
    assert all(json.loads(s["output"])["score"] == s["score"] for s in samples)


def test_plan_counts_both_rounds(built):
    config, run = built
    pipeline = Pipeline(load_config(config), progress=False)
    ctx = StageContext(pipeline.config, run, None, False, stage="arbitrate")
    planned = arbitrate.plan_requests(ctx)
    assert Counter(p.model for p in planned) == {m: 6 + 12 for m in MODELS}
    summaries = [p for p in planned if "<summary>" not in p.messages[1]["content"]]
    assert len(summaries) == 18 and all(p.expected_completion_tokens > 0 for p in summaries)
    judgments = [p for p in planned if "<summary>" in p.messages[1]["content"]]
    assert all(p.expected_completion_tokens == arbitrate.JUDGMENT_COMPLETION_TOKENS
               for p in judgments)


def test_stats_report_the_judges_agreement(built):
    config, run = built
    result = cli.invoke(app, ["stats", "-c", str(config)])
    assert result.exit_code == 0, result.output
    agreement = json.loads((run / "stats/stats.json").read_text(encoding="utf-8"))[
        "judge_agreement"]
    # scripted: a's and b's summaries have both judges on one side, c's are split 1:1
    assert agreement["labels"] == 18 and agreement["mean_agreement"] == round(15 / 18, 4)
    reported = agreement["from_manifest"]["agreement"]
    assert reported["mean_label_agreement"] == agreement["mean_agreement"]
    assert {tuple(p["judges"]) for p in reported["pairs"]} == {("a", "b"), ("a", "c"), ("b", "c")}
