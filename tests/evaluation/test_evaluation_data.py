"""evaluate --data on a file in the official release format, end to end on the fake server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers.evaluation import (
    RELEASE_SAMPLE,
    TYPES_BY_ID,
    data_config,
    detector,
    gold_of,
    release_rows,
    write_jsonl,
)
from typer.testing import CliRunner

from longnovel.cli import app
from longnovel.evaluation.datasets import dataset_name

runner = CliRunner()
FINDS = {"number", "temporal"}  # the scripted detector finds these types, misses the others


def finder(rows, garble_id: str | None = None):
    """Replies naming the gold types of number and temporal samples, 5 otherwise."""
    def reply(messages):
        row = gold_of(messages, rows)
        if row["id"] == garble_id:
            return "The summary is, on the whole, a summary."
        found = [t for t in TYPES_BY_ID.get(row["id"], []) if t in FINDS]
        if found:
            return json.dumps({"reason": "x", "score": 1, "hallucination_types": found})
        return '{"reason": "fine", "score": 5}'
    return reply


def evaluate(config, *extra):
    return runner.invoke(app, ["evaluate", "-c", str(config), "-m", "judge", "--data",
                               str(RELEASE_SAMPLE), "--no-progress", *extra])


def metrics_of(config, run="judge"):
    folder = config.parent / "run/evaluate" / dataset_name(RELEASE_SAMPLE) / run
    return json.loads((folder / "metrics.json").read_text(encoding="utf-8"))


def test_release_file_runs_end_to_end_with_per_tier_metrics(tmp_path, llm_server):
    config = data_config(tmp_path, detector(llm_server))
    rows = release_rows()
    llm_server.reply = finder(rows, garble_id="rel-en-2-1")
    result = evaluate(config)
    assert result.exit_code == 0, result.output
    assert "'Tone Drift' (1)" in result.output  # the unmapped gold type name, counted
    metrics = metrics_of(config)
    assert metrics["tiers"] == ["short", "long"] and metrics["samples"] == 12
    assert metrics["unmapped_types"] == {"Tone Drift": 1}
    short, long = metrics["runs"][0]["short"], metrics["runs"][0]["long"]
    # short: two windows; number (zh, en) and temporal (zh) found, 3 other types missed
    assert {k: short["strict"][k] for k in ("tp", "fn", "tn", "fp")} == \
        {"tp": 3, "fn": 3, "tn": 2, "fp": 0}
    assert short["strict"]["balanced_accuracy"] == 0.75 and short["failures"] == 0
    # long: the temporal sample's reply is garbled; the causal and fabrication ones missed
    assert long["failures"] == 1
    assert {k: long["usable"][k] for k in ("tp", "fn", "tn", "fp")} == \
        {"tp": 0, "fn": 2, "tn": 1, "fp": 0}
    assert long["strict"]["fn"] == 3 and long["strict"]["accuracy"] == 0.25
    recall = metrics["summary"]["all"]["type_recall"]["strict"]
    assert recall["number"]["mean"] == 1.0 and recall["temporal"]["mean"] == 0.5
    assert recall["fabrication"] == {"mean": 0.0, "std": 0.0, "support": 2}
    pairs = metrics["pair_accuracy"]
    assert pairs["pairing"] == "label" and pairs["pairs"] == 9
    assert pairs["by_tier"]["short"]["strict"]["mean"] == round((3 + 3 * 0.5) / 6, 4)
    # long: two ties (5 and 5) and the garbled pair, lost under strict, left out otherwise
    assert pairs["by_tier"]["long"]["strict"]["mean"] == round((0.5 + 0.5 + 0) / 3, 4)
    assert pairs["by_tier"]["long"]["usable"]["mean"] == 0.5
    assert metrics["data"]["kind"] == "file" and len(metrics["data"]["sha256"]) == 64
    assert "short/zh" in result.stdout and "long/en" in result.stdout


def test_each_prompt_and_order_is_its_own_cached_run(tmp_path, llm_server):
    config = data_config(tmp_path, detector(llm_server))
    llm_server.reply = finder(release_rows())
    for extra in ([], ["--order", "summary-first"], ["--prompt", "cot", "--order",
                                                       "summary-first"]):
        assert evaluate(config, *extra).exit_code == 0
    assert llm_server.count() == 3 * 12
    folders = sorted(p.name for p in (config.parent / "run/evaluate").glob("*/*"))
    assert folders == ["judge", "judge+cot+summary-first", "judge+summary-first"]
    firsts = [r["body"]["messages"][1]["content"] for r in llm_server.requests[12:24]]
    assert all(u.startswith(("Summary:\n", "摘要：\n")) for u in firsts)
    row = release_rows()[1]
    assert f"Summary:\n{row['summary']}\n\nArticle:\n{row['article']}" in firsts or \
        f"摘要：\n{row['summary']}\n\n原文：\n{row['article']}" in firsts
    assert metrics_of(config, "judge+summary-first")["order"] == "summary-first"
    for extra in ([], ["--order", "summary-first"]):
        assert evaluate(config, *extra).exit_code == 0
    assert llm_server.count() == 3 * 12  # re-runs come from the cache


def test_a_one_class_file_warns_and_reports_null(tmp_path, llm_server):
    config = data_config(tmp_path, detector(llm_server))
    humans = write_jsonl(tmp_path / "humans.jsonl",
                         [r for r in release_rows() if r["id"].endswith("-0")])
    llm_server.reply = lambda messages: '{"score": 5}'
    result = runner.invoke(app, ["evaluate", "-c", str(config), "-m", "judge", "--data",
                                 str(humans), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "warning: all: all 3 samples are consistent; balanced accuracy is null" in result.output
    assert "null" in result.stdout.split("\n")[3]  # the headline's `all` row


def test_bad_file_is_one_line_and_exit_1(tmp_path, llm_server):
    config = data_config(tmp_path, detector(llm_server))
    rows = release_rows()
    rows[4]["output"] = "score: 2"
    bad = write_jsonl(tmp_path / "bad.jsonl", rows)
    result = runner.invoke(app, ["evaluate", "-c", str(config), "-m", "judge", "--data", str(bad)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == \
        [f"error: {bad}: line 5: output is not JSON: 'score: 2'"]
    assert llm_server.count() == 0


def test_dry_run_on_a_file_sends_nothing(tmp_path, llm_server):
    config = data_config(tmp_path, detector(llm_server))
    result = evaluate(config, "--dry-run", "--repeats", "3", "-t", "long")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].split()[:3] == ["evaluate", "judge", "12"]
    assert llm_server.count() == 0


def test_bad_file_as_a_real_subprocess(tmp_path, llm_server):
    config = data_config(tmp_path, detector(llm_server))
    rows = release_rows()
    del rows[0]["instruction"]
    bad = write_jsonl(tmp_path / "bad.jsonl", rows)
    longnovel = str(Path(sys.executable).parent / "longnovel")
    done = subprocess.run([longnovel, "evaluate", "-c", str(config), "-m", "judge", "--data",
                           str(bad)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == f"error: {bad}: line 1: missing field(s) instruction " \
        "(the release format needs id, language, article, summary, instruction, input, output)"
