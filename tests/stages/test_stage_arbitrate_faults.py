"""Bad replies, failing servers, and a stage killed mid-way then resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter

import pyarrow.parquet as pq
from helpers.arbitration import SUMMARY, ScriptedModel, arbitration_config, total_requests
from helpers.fake_llm import GARBLED

from longnovel.config import load_config
from longnovel.llm import LLMRunner
from longnovel.pipeline import Pipeline
from longnovel.stages import arbitrate
from longnovel.stages.base import StageContext

WINDOWS = 6  # max_windows_per_tier in the test config
CONCURRENCY = 2
EXPECTED = WINDOWS * 3 * 3  # each model: a summary and two judgments per window


def stage_ctx(config_path) -> StageContext:
    """A context after ingest and expand, whose runner retries after 10 ms instead of 1 s."""
    config = load_config(config_path)
    pipeline = Pipeline(config, progress=False)
    pipeline.build(until="expand", log=lambda _: None)
    ctx = StageContext(config, pipeline.run_dir, None, False, stage="arbitrate")
    ctx.llm_runner = lambda: LLMRunner(config.models, config.cache, ctx.tokenizer, "arbitrate",
                                       progress=False, retry_initial_s=0.01, retry_max_s=0.02)
    return ctx


def rows(result, name: str) -> list[dict]:
    return result.tables[name].to_pylist()


def build_killed_midway(servers, config) -> None:
    """Run ``longnovel build`` in a child process and SIGKILL it once the servers have answered
    half of arbitrate's requests (or after 40 s); the child must die by the kill."""
    child = subprocess.Popen(
        [sys.executable, "-m", "longnovel.cli", "build", "-c", str(config), "--no-progress"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    deadline = time.monotonic() + 40
    while (sum(len(s.answered) for s in servers.values()) < EXPECTED // 2
           and time.monotonic() < deadline):
        time.sleep(0.005)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL


def test_garbled_judgments_are_kept_counted_and_outvoted(servers, tmp_path):
    scripted = ScriptedModel("c")
    servers["c"].reply = lambda m: GARBLED if SUMMARY.search(m[-1]["content"]) else scripted(m)
    result = arbitrate.run(stage_ctx(arbitration_config(tmp_path, servers)))
    judgments = rows(result, "judgments.parquet")
    bad = [j for j in judgments if j["judge_model"] == "c"]
    assert len(bad) == 2 * WINDOWS
    assert all(not j["ok"] and j["raw"] == GARBLED and j["score"] is None for j in bad)
    assert result.failures == {"judgment_bad_json": 2 * WINDOWS}
    assert servers["c"].count() == WINDOWS + 2 * 2 * WINDOWS  # each bad reply asked twice
    labels = {row["summary_model"]: row for row in rows(result, "labels.parquet")}
    # a's summaries: only b's judgment (score 1) is usable, so its types stand alone
    assert (labels["a"]["label"], labels["a"]["hallucination_types"]) == (
        "hallucinated", ["entity", "event"])
    assert labels["a"]["n_judgments"] == 1 and labels["a"]["n_judges"] == 2
    assert labels["b"]["label"] == "consistent"


def test_failing_and_garbling_servers_never_stop_the_stage(servers, tmp_path):
    for seed, server in enumerate(servers.values()):
        server.chaos(fail=0.2, garble=0.1, seed=seed)
    ctx = stage_ctx(arbitration_config(tmp_path, servers, max_retries=0,
                                       arbitrate={"max_windows_per_tier": None}))
    result = arbitrate.run(ctx)
    summaries, judgments = rows(result, "summaries.parquet"), rows(result, "judgments.parquet")
    labels = rows(result, "labels.parquet")
    failed = Counter(f"summary_{s['error']}" for s in summaries if not s["ok"])
    failed.update(f"judgment_{j['error']}" for j in judgments if not j["ok"])
    assert result.failures and result.failures == dict(failed)
    assert all(row["raw"] for row in summaries + judgments if not row["ok"])
    assert len(labels) == sum(s["ok"] for s in summaries) and len(summaries) == 13 * 3
    assert sum(u["failures"] for u in result.usage.values()) == sum(failed.values())
    for server in servers.values():
        server.chaos()
    sent = sum(server.count() for server in servers.values())
    again = arbitrate.run(ctx)
    # HTTP failures were never cached, so they are sent again and now succeed; a garbled judgment
    # was already asked twice, so its recorded failure is served from the cache
    garbled = {k: v for k, v in result.failures.items() if k.endswith(("bad_json", "schema"))}
    assert again.failures == garbled
    http = {k: n for k, n in result.failures.items() if k not in garbled}
    lost_summaries = sum(n for k, n in http.items() if k.startswith("summary_"))
    lost_judgments = sum(n for k, n in http.items() if k.startswith("judgment_"))
    # each recovered summary is now also judged by the two other models
    assert sum(server.count() for server in servers.values()) - sent == (
        3 * lost_summaries + lost_judgments)
    before = sum(server.count() for server in servers.values())
    arbitrate.run(ctx)  # a re-run of the finished stage sends no request
    assert sum(server.count() for server in servers.values()) == before


def test_sigkill_mid_stage_then_rerun_completes(servers, tmp_path):
    for server in servers.values():
        server.latency = 0.1
    config = arbitration_config(tmp_path, servers, max_concurrency=CONCURRENCY)
    build_killed_midway(servers, config)
    answered = {name: list(s.answered) for name, s in servers.items()}
    assert EXPECTED // 2 <= sum(map(len, answered.values())) < EXPECTED
    assert not (tmp_path / "run/arbitrate/labels.parquet").exists()
    sent_before = {name: s.count() for name, s in servers.items()}

    ran = Pipeline(load_config(config), progress=False).build(log=lambda _: None).ran
    assert ran[0] == "arbitrate"  # ingest and expand had finished before the kill
    labels = pq.read_table(tmp_path / "run/arbitrate/labels.parquet").to_pylist()
    assert len(labels) == WINDOWS * 3
    for name, server in servers.items():
        resent = [r["body"]["messages"][-1]["content"] for r in server.requests[sent_before[name]:]]
        paid_twice = set(answered[name]) & set(resent)
        assert len(paid_twice) <= CONCURRENCY, name
        assert len(answered[name]) + len(resent) - len(paid_twice) == 3 * WINDOWS, name
    assert total_requests(servers) <= EXPECTED + 3 * CONCURRENCY


def test_sigkill_under_failures_and_garbled_replies_then_resume(servers, tmp_path):
    """20% failing requests, 10% garbled replies, a SIGKILL mid-way: the resumed stage finishes
    and pays again for at most one concurrency's worth of answers per model."""
    for seed, server in enumerate(servers.values()):
        server.latency = 0.1
        server.chaos(fail=0.2, garble=0.1, seed=seed)
    config = arbitration_config(tmp_path, servers, max_concurrency=CONCURRENCY, max_retries=1)
    build_killed_midway(servers, config)
    answered = {name: set(s.answered) for name, s in servers.items()}
    answered_count = {name: len(s.answered) for name, s in servers.items()}

    Pipeline(load_config(config), progress=False).build(log=lambda _: None)
    manifest = json.loads((tmp_path / "run/arbitrate/manifest.json").read_text())
    assert (tmp_path / "run/export/manifest.json").is_file()
    judgments = pq.read_table(tmp_path / "run/arbitrate/judgments.parquet").to_pylist()
    assert all(j["raw"] for j in judgments if not j["ok"])
    assert sum(manifest["failures"].values()) >= sum(not j["ok"] for j in judgments)
    for name, server in servers.items():
        after = server.answered[answered_count[name]:]
        assert len(answered[name] & set(after)) <= CONCURRENCY, name
