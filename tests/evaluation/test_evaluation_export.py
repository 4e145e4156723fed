"""evaluate over a run's export against the local OpenAI-compatible server: exact metrics in
both modes, repeats, grouping by article, the garbling detector, plan and dry run."""

from __future__ import annotations

import hashlib
import itertools
import json

import pyarrow.parquet as pq
import pytest
from helpers.evaluation import detector
from typer.testing import CliRunner

from longnovel.cli import app

runner = CliRunner()
OUT = "evaluate/export-test"


def exported(run_dir, split="test"):
    return [r for f in sorted(run_dir.glob(f"export/*/{split}.parquet"))
            for r in pq.read_table(f).to_pylist()]


def right(row) -> bool:
    """A fixed 80% of samples (by id) are judged right."""
    return hashlib.sha256(row["id"].encode()).digest()[0] % 5 != 0


def verdict(row, correct: bool) -> str:
    if (row["score"] < 3) == correct:
        types = row["hallucination_types"] or ["fabrication"]
        return "```json\n" + json.dumps({"score": "2", "hallucination_types": types}) + "\n```"
    return '{"score": 5, "reason": "fine",}'


def scripted(rows):
    """A reply per sample input: wrong for every third sample (export order), unparseable for
    the first XS2 sample; the expected counts computed independently."""
    by_input = {r["input"]: (i, r) for i, r in enumerate(rows)}
    garbled = next(i for i, r in enumerate(rows) if r["tier"] == "XS2")

    def reply(messages):
        i, row = by_input[messages[-1]["content"]]
        return "I cannot tell." if i == garbled else verdict(row, i % 3 != 0)

    answered = [(r, i % 3 == 0) for i, r in enumerate(rows) if i != garbled]
    want = {"tp": sum(r["score"] < 3 and not w for r, w in answered),
            "fn": sum(r["score"] < 3 and w for r, w in answered),
            "tn": sum(r["score"] >= 3 and not w for r, w in answered),
            "fp": sum(r["score"] >= 3 and w for r, w in answered)}
    predicted = [(2 if (r["score"] < 3) != w else 5) for r, w in answered]
    errors = [abs(r["score"] - p) for (r, _), p in zip(answered, predicted, strict=True)]
    mae = sum(errors) / len(answered)
    return reply, want, mae, rows[garbled]


def test_evaluate_writes_exact_metrics_in_both_modes(fixture_run, llm_server):
    make, run_dir = fixture_run
    config = make(models=detector(llm_server, max_concurrency=4))
    rows = exported(run_dir)
    llm_server.reply, want, mae, garbled = scripted(rows)
    result = runner.invoke(app, ["evaluate", "-c", str(config), "--model", "judge",
                                 "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "balanced_accuracy" in result.stdout and "XS2/zh" in result.stdout
    metrics = json.loads((run_dir / OUT / "judge/metrics.json").read_text())
    usable = metrics["runs"][0]["all"]["usable"]
    assert {k: usable[k] for k in want} == want and metrics["runs"][0]["all"]["failures"] == 1
    tp, fn, tn, fp = want["tp"], want["fn"], want["tn"], want["fp"]
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    assert usable["accuracy"] == round((tp + tn) / (tp + tn + fp + fn), 4)
    assert usable["precision"] == round(precision, 4) and usable["recall"] == round(recall, 4)
    assert usable["f1"] == pytest.approx(2 * precision * recall / (precision + recall), abs=2e-4)
    assert usable["balanced_accuracy"] == pytest.approx((recall + tn / (tn + fp)) / 2, abs=2e-4)
    assert usable["score_mae"] == round(mae, 4)
    # strict: the failed reply on a (gold) sample counts as the wrong class
    strict = metrics["runs"][0]["all"]["strict"]
    missed = "fn" if garbled["score"] < 3 else "fp"
    assert strict == {**strict, **want, missed: want[missed] + 1}
    assert strict["accuracy"] == round((tp + tn) / len(rows), 4)
    summary = metrics["summary"]["all"]
    assert summary["usable"]["f1"]["mean"] == usable["f1"]
    assert summary["failure_rate"]["mean"] == round(1 / len(rows), 4)
    assert set(metrics["summary"]) >= {"all", "XS", "XS2", "XS/en", "XS/zh"}
    assert list(metrics["summary"])[:2] == ["all", "XS"]  # shortest tier first
    assert metrics["usage"]["judge"]["requests"] == len(rows)
    assert metrics["totals"]["prompt_tokens"] > 0 and metrics["totals"]["cache_hits"] == 0
    assert metrics["failures_by_reason"] == {"no_score": 1}
    assert metrics["pair_accuracy"]["pairing"] == "source"
    assert metrics["data"]["kind"] == "export" and metrics["data"]["fingerprint"]
    assert (run_dir / OUT / "judge/heatmap.png").read_bytes()[:4] == b"\x89PNG"
    lines = (run_dir / OUT / "judge/predictions.jsonl").read_text().splitlines()
    assert len(lines) == len(rows) and "I cannot tell." in "".join(lines)
    again = runner.invoke(app, ["evaluate", "-c", str(config), "-m", "judge", "--no-progress"])
    assert again.exit_code == 0 and llm_server.count() == len(rows)
    cached = json.loads((run_dir / OUT / "judge/metrics.json").read_text())["totals"]
    assert cached["cache_hits"] == len(rows) and cached["requests"] == 0


def article_of(body: dict) -> str:
    user = body["messages"][1]["content"]
    return user.split("\n\n摘要：\n")[0].split("\n\nSummary:\n")[0]


def test_requests_go_out_grouped_by_article(fixture_run, llm_server):
    make, run_dir = fixture_run
    config = make(models=detector(llm_server))
    rows = exported(run_dir)
    windows = len({r["article"] for r in rows})
    llm_server.reply = lambda messages: '{"score": 5}'
    result = runner.invoke(app, ["evaluate", "-c", str(config), "-m", "judge", "--repeats", "2",
                                 "--no-progress"])
    assert result.exit_code == 0, result.output
    for seed in (None, 1):  # each repeat, in the order its requests arrived
        sent = [article_of(r["body"]) for r in llm_server.requests if r["body"].get("seed") == seed]
        assert len(sent) == len(rows)
        # one block per window: the article changes only between blocks
        assert sum(a != b for a, b in itertools.pairwise(sent)) == windows - 1
    export_order = [r["article"] for r in rows]
    assert sum(a != b for a, b in itertools.pairwise(export_order)) > windows - 1


def test_a_garbling_detector_scores_lower_strict_with_wider_intervals(fixture_run, llm_server):
    make, run_dir = fixture_run
    config = make(models={**detector(llm_server, "clean", "judge-clean"),
                          **detector(llm_server, "garbling", "judge-garbling")})
    rows = {r["input"]: r for r in exported(run_dir)}
    llm_server.reply = lambda messages: verdict(rows[messages[-1]["content"]],
                                                right(rows[messages[-1]["content"]]))
    assert runner.invoke(app, ["evaluate", "-c", str(config), "-m", "clean",
                               "--no-progress"]).exit_code == 0
    llm_server.chaos(garble=0.3, seed=4)
    result = runner.invoke(app, ["evaluate", "-c", str(config), "-m", "garbling",
                                 "--no-progress"])
    assert result.exit_code == 0, result.output
    clean, noisy = (json.loads((run_dir / OUT / name / "metrics.json").read_text())
                    ["summary"]["all"] for name in ("clean", "garbling"))
    assert 0.2 <= noisy["failure_rate"]["mean"] <= 0.4 and clean["failure_rate"]["mean"] == 0
    headline = result.stdout.split("usable replies only")[0]
    all_row = headline.splitlines()[3]
    assert all_row.startswith("all") and f"{noisy['failure_rate']['mean']:.1%}" in all_row
    for name in ("accuracy", "balanced_accuracy", "f1"):
        assert noisy["strict"][name]["mean"] < noisy["usable"][name]["mean"], name
        width = {k: e["strict"][name]["ci"][1] - e["strict"][name]["ci"][0]
                 for k, e in (("clean", clean), ("noisy", noisy))}
        assert width["noisy"] > width["clean"], name
    assert clean["strict"] == clean["usable"]  # no failure: both modes agree


def test_repeats_are_distinct_cached_requests(fixture_run, llm_server):
    make, run_dir = fixture_run
    config = make(models=detector(llm_server, max_concurrency=4))
    n = len([r for r in exported(run_dir) if r["tier"] == "XS"])
    llm_server.reply = lambda messages: '{"score": 2, "hallucination_types": ["时序错乱"]}'
    args = ["evaluate", "-c", str(config), "-m", "judge", "-t", "XS", "--repeats", "3",
            "--prompt", "cot", "--no-progress"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert llm_server.count() == 3 * n
    seeds = sorted({r["body"].get("seed") for r in llm_server.requests}, key=str)
    assert seeds == [1, 2, None]
    cot = {"en": "sentence by sentence", "zh": "逐步分析"}  # each language's reasoning request
    for request in llm_server.requests:
        system, user = (m["content"] for m in request["body"]["messages"])
        assert cot["zh" if "\n\n摘要：\n" in user else "en"] in system
    metrics = json.loads((run_dir / OUT / "judge+cot/metrics.json").read_text())
    assert metrics["repeats"] == 3 and len(metrics["runs"]) == 3
    assert metrics["summary"]["XS"]["strict"]["accuracy"]["std"] == 0.0
    assert metrics["summary"]["XS"]["type_recall"]["strict"]["temporal"]["mean"] == 1.0
    assert "±" in result.stdout
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and llm_server.count() == 3 * n  # all from the cache


def test_plan_and_dry_run_cover_every_mode(fixture_run, llm_server):
    make, run_dir = fixture_run
    config = make(models={**detector(llm_server), **detector(llm_server, "other", "o-1")})
    n = len(exported(run_dir))
    result = runner.invoke(app, ["plan", "-c", str(config), "--model", "judge", "--json",
                                 "--no-progress"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout[result.stdout.index("["):])
    assert [(r["stage"], r["requests"]) for r in rows] == [("evaluate", n)]
    plain = rows[0]
    dry = runner.invoke(app, ["evaluate", "-c", str(config), "-m", "judge", "-m", "other",
                              "--repeats", "2", "--prompt", "cot", "--order", "summary-first",
                              "--dry-run"])
    assert dry.exit_code == 0, dry.output
    lines = {line.split()[1]: line.split() for line in dry.stdout.splitlines()[1:3]}
    assert lines["judge"][2] == lines["other"][2] == str(2 * n)
    assert int(lines["judge"][3]) > 2 * plain["prompt_tokens"]  # the reasoning request added
    assert llm_server.count() == 0 and not (run_dir / "evaluate").exists()


def test_unknown_model_or_mode_is_a_clear_error(fixture_run):
    make, _ = fixture_run
    result = runner.invoke(app, ["evaluate", "-c", str(make()), "--model", "nope"])
    assert result.exit_code == 1 and "nope" in result.output and "Traceback" not in result.output
    result = runner.invoke(app, ["evaluate", "-c", str(make()), "-m", "x", "--order", "middle"])
    assert result.exit_code == 2 and "article-first" in result.output
