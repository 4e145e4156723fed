"""evaluate against the local OpenAI-compatible server: exact metrics, repeats, cache, plan."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from longnovel.cli import app
from longnovel.evaluate import detection_metrics, parse_judgment

runner = CliRunner()


def model(server, provider="openai"):
    return {"judge": {"provider": provider, "model": "judge-1", "base_url": server.base_url,
                      "api_key_env": "LN_TEST_EVAL_KEY", "max_retries": 0,
                      "context_window": 200000}}


def exported(run_dir, split="test"):
    return [r for f in sorted(run_dir.glob(f"export/*/{split}.parquet"))
            for r in pq.read_table(f).to_pylist()]


def scripted(rows):
    """A server reply per sample input: wrong for every third sample (by export order),
    unparseable for the first XS2 sample; the expected metrics computed independently."""
    by_input = {r["input"]: (i, r) for i, r in enumerate(rows)}
    garbled = next(i for i, r in enumerate(rows) if r["tier"] == "XS2")

    def reply(messages):
        i, row = by_input[messages[-1]["content"]]
        if i == garbled:
            return "I cannot tell."
        wrong = i % 3 == 0
        if (row["score"] < 3) != wrong:
            types = row["hallucination_types"] or ["fabrication"]
            return "```json\n" + json.dumps({"score": "2", "hallucination_types": types,
                                              "reason": "x"}) + "\n```"
        return '{"score": 5, "reason": "fine",}'

    answered = [(r, i % 3 == 0) for i, r in enumerate(rows) if i != garbled]
    tp = sum(r["score"] < 3 and not w for r, w in answered)
    fn = sum(r["score"] < 3 and w for r, w in answered)
    tn = sum(r["score"] >= 3 and not w for r, w in answered)
    fp = sum(r["score"] >= 3 and w for r, w in answered)
    predicted = [(2 if (r["score"] < 3) != w else 5) for r, w in answered]
    mae = sum(abs(r["score"] - p) for (r, _), p in zip(answered, predicted)) / len(answered)
    return reply, {"tp": tp, "fn": fn, "tn": tn, "fp": fp, "mae": mae, "failures": 1}


def test_evaluate_writes_exact_metrics(fixture_run, llm_server, monkeypatch):
    monkeypatch.setenv("LN_TEST_EVAL_KEY", "sk-test")
    make, run_dir = fixture_run
    config = make(models=model(llm_server))
    rows = exported(run_dir)
    llm_server.reply, want = scripted(rows)
    result = runner.invoke(app, ["evaluate", "-c", str(config), "--model", "judge",
                                 "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "balanced_accuracy" in result.stdout and "XS2/zh" in result.stdout
    metrics = json.loads((run_dir / "evaluate/judge/metrics.json").read_text())
    overall = metrics["runs"][0]["all"]
    tp, fn, tn, fp = want["tp"], want["fn"], want["tn"], want["fp"]
    assert {k: overall[k] for k in ("tp", "fn", "tn", "fp", "failures")} == \
        {"tp": tp, "fn": fn, "tn": tn, "fp": fp, "failures": 1}
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    assert overall["accuracy"] == round((tp + tn) / (tp + tn + fp + fn), 4)
    assert overall["precision"] == round(precision, 4) and overall["recall"] == round(recall, 4)
    assert overall["f1"] == pytest.approx(2 * precision * recall / (precision + recall), abs=2e-4)
    assert overall["balanced_accuracy"] == pytest.approx((recall + tn / (tn + fp)) / 2, abs=2e-4)
    assert overall["score_mae"] == round(want["mae"], 4)
    assert metrics["summary"]["all"]["f1"]["mean"] == overall["f1"]
    assert set(metrics["summary"]) >= {"all", "XS", "XS2", "XS/en", "XS/zh"}
    assert metrics["usage"]["judge"]["requests"] == len(rows)
    assert metrics["failures_by_reason"] == {"no_score": 1}
    assert (run_dir / "evaluate/judge/heatmap.png").read_bytes()[:4] == b"\x89PNG"
    lines = (run_dir / "evaluate/judge/predictions.jsonl").read_text().splitlines()
    assert len(lines) == len(rows) and "I cannot tell." in "".join(lines)


def test_repeats_are_distinct_cached_requests(fixture_run, llm_server, monkeypatch):
    monkeypatch.setenv("LN_TEST_EVAL_KEY", "sk-test")
    make, run_dir = fixture_run
    config = make(models=model(llm_server))
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
    assert {"\n\n摘要：\n" in r["body"]["messages"][1]["content"]
            for r in llm_server.requests} == {True, False}  # both languages were asked
    metrics = json.loads((run_dir / "evaluate/judge/metrics.json").read_text())
    assert metrics["repeats"] == 3 and len(metrics["runs"]) == 3
    assert metrics["summary"]["XS"]["accuracy"]["std"] == 0.0
    assert metrics["summary"]["XS"]["type_recall"]["temporal"]["mean"] == 1.0
    assert "±" in result.stdout
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and llm_server.count() == 3 * n  # all from the cache


def test_plan_and_dry_run_cover_evaluate(fixture_run, llm_server):
    make, run_dir = fixture_run
    config = make(models=model(llm_server))
    n = len(exported(run_dir))
    result = runner.invoke(app, ["plan", "-c", str(config), "--model", "judge", "--json",
                                 "--no-progress"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout[result.stdout.index("["):])
    assert [(r["stage"], r["requests"]) for r in rows] == [("evaluate", n)]
    dry = runner.invoke(app, ["evaluate", "-c", str(config), "-m", "judge", "--repeats", "2",
                              "--dry-run"])
    assert dry.exit_code == 0 and str(2 * n) in dry.stdout and llm_server.count() == 0


def test_unknown_model_is_a_one_line_error(fixture_run):
    make, _ = fixture_run
    result = runner.invoke(app, ["evaluate", "-c", str(make()), "--model", "nope"])
    assert result.exit_code == 1 and "nope" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("text, score, types", [
    ('{"score": 1, "hallucination_types": ["Fictional Event", "时间错误"]}', 1,
     ["fabrication", "number"]),
    ("Let me think {not json}. Final:\n{\"score\": 2, \"types\": \"entity, 关系错误\"}", 2,
     ["entity", "relation"]),
    ('<think>hmm</think>{"score": 4.0, "hallucination_types": ["entity"]}', 4, []),
    ("Score: 3 because it generalizes.", 3, []),
    ('{"score": 2, "hallucination_types": ["weird"]}', 2, ["unknown"]),
])
def test_replies_are_parsed_leniently(text, score, types):
    pred = parse_judgment(text)
    assert (pred.score, pred.types, pred.error) == (score, types, None)


def test_unusable_replies_are_failures_not_errors():
    assert parse_judgment("no idea").error == "no_score"
    assert parse_judgment('{"score": 9}').error == "bad_score"
    gold = [{"score": 5, "hallucination_types": []}]
    metrics = detection_metrics(gold, [parse_judgment("no idea")])
    assert metrics["failures"] == 1 and metrics["answered"] == 0 and metrics["f1"] == 0.0
