"""Failures are a state: partial builds, re-sent requests, fatal statuses, truncated replies."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
from helpers.arbitration import ScriptedModel, arbitration_config, total_requests
from helpers.fake_llm import status
from typer.testing import CliRunner

from longnovel.cli import app

runner = CliRunner()


def build(config, *extra):
    return runner.invoke(app, ["build", "-c", str(config), "--no-progress", *extra])


def stage_states(config) -> dict[str, str]:
    result = runner.invoke(app, ["status", "-c", str(config), "--json"])
    return {row["stage"]: row["state"] for row in json.loads(result.output)}


def test_an_outage_leaves_arbitrate_partial_and_the_next_build_sends_only_the_failed(
        servers, tmp_path):
    config = arbitration_config(tmp_path, servers, max_retries=0)
    servers["b"].reply = lambda messages: status(503)  # b is down for the first build
    first = build(config)
    assert first.exit_code == 3, first.output
    assert "arbitrate: partial" in first.output and "http_503" in first.output
    states = stage_states(config)
    assert states["arbitrate"] == "partial"
    assert states["export"] == "fresh"  # later stages ran on what exists
    manifest = json.loads((tmp_path / "run/arbitrate/manifest.json").read_text())
    failed = manifest["unanswered"]
    assert failed == sum(manifest["failures"].values()) and failed > 0
    before = {name: s.count() for name, s in servers.items()}

    servers["b"].reply = ScriptedModel("b")  # b is back
    second = build(config)
    assert second.exit_code == 0, second.output
    manifest = json.loads((tmp_path / "run/arbitrate/manifest.json").read_text())
    assert manifest["failures"] == {} and manifest["unanswered"] == 0
    # b re-sends exactly its failed requests (its summaries and its judgments of a's and c's);
    # a and c add only their judgments of b's new summaries, one per window each
    assert servers["b"].count() - before["b"] == failed
    windows = len(pq.read_table(tmp_path / "run/arbitrate/labels.parquet")) // 3
    assert servers["a"].count() - before["a"] == windows
    assert servers["c"].count() - before["c"] == windows
    assert set(stage_states(config).values()) == {"fresh"}
    sent = total_requests(servers)
    assert build(config).exit_code == 0 and total_requests(servers) == sent


def test_accept_failures_makes_a_partial_stage_final(servers, tmp_path):
    config = arbitration_config(tmp_path, servers, max_retries=0)
    servers["c"].reply = lambda messages: status(500)
    assert build(config).exit_code == 3
    sent = total_requests(servers)
    accepted = build(config, "--accept-failures")
    assert accepted.exit_code == 0, accepted.output
    assert "failures accepted" in accepted.output and total_requests(servers) == sent
    assert stage_states(config)["arbitrate"] == "fresh"
    assert build(config).exit_code == 0 and total_requests(servers) == sent


def test_a_revoked_key_stops_the_build_within_a_few_requests(servers, tmp_path):
    config = arbitration_config(tmp_path, servers, max_retries=0)
    servers["a"].reply = lambda messages: status(401)
    result = build(config)
    assert result.exit_code == 1
    assert "model 'a'" in result.output and "HTTP 401" in result.output
    assert "Traceback" not in result.output
    assert servers["a"].count() <= 2  # max_concurrency of the test models
    assert not (tmp_path / "run/arbitrate/manifest.json").exists()


def test_a_truncated_summary_is_a_failure_and_never_a_gold_sample(servers, tmp_path):
    config = arbitration_config(tmp_path, servers)
    servers["a"].finish = lambda messages: "length"  # a's replies all stop at max_tokens
    result = build(config)
    assert result.exit_code == 0, result.output  # a truncation is final, not partial
    summaries = pq.read_table(tmp_path / "run/arbitrate/summaries.parquet").to_pylist()
    from_a = [s for s in summaries if s["model"] == "a"]
    assert from_a and all(not s["ok"] and s["error"] == "truncated" for s in from_a)
    labels = pq.read_table(tmp_path / "run/arbitrate/labels.parquet").to_pylist()
    assert labels and all(label["summary_model"] != "a" for label in labels)
    rows = [r for f in (tmp_path / "run/export").glob("*/*.parquet")
            for r in pq.read_table(f).to_pylist()]
    assert not any(r["source"] == "arbitration" and r["generator"] == "a" for r in rows)


def test_the_release_invariant_holds_on_a_build_with_arbitration(servers, tmp_path):
    config = arbitration_config(tmp_path, servers)
    assert build(config).exit_code == 0
    rows = [r for f in (tmp_path / "run/export").glob("*/*.parquet")
            for r in pq.read_table(f).to_pylist()]
    sources = {r["source"] for r in rows}
    assert sources == {"human", "arbitration", "injection"}
    for r in rows:
        output = json.loads(r["output"])
        assert bool(r["hallucination_types"]) == (r["score"] < 3), r
        assert (r["label"] == "hallucinated") == (r["score"] < 3)
        assert output["score"] == r["score"] and output["reason"].strip()
        assert output.get("hallucination_types", []) == list(r["hallucination_types"])
