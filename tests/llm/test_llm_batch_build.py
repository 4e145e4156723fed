"""Whole builds with every model in batch mode: arbitrate (summaries, then judgments) and inject
(entities, then generation rounds) through the fake files + batches API of two servers, one
reached through the openai SDK and one through the zhipuai SDK."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from helpers.builders import english_units, write_config, write_dir_book
from helpers.fake_llm import FakeLLM
from typer.testing import CliRunner

from longnovel.cli import app

LONGNOVEL = str(Path(sys.executable).parent / "longnovel")
PROVIDERS = {"a": "openai", "b": "zhipuai"}
SUMMARY = re.compile(r"<summary>\n(.*?)\n</summary>", re.DOTALL)
cli = CliRunner()


def scripted(messages: list[dict]) -> str:
    """Replies for every prompt of arbitrate and inject."""
    user = messages[-1]["content"]
    if "named entities" in user or "命名实体" in user:
        name = "ferry" if "ferry" in user else "渡口"
        return json.dumps({"entities": [{"name": name, "type": "place", "count": 2}]},
                          ensure_ascii=False)
    text = re.search(r"<text>(.*?)</text>", user, re.DOTALL)
    if text is not None:  # the LLM generator: one sentence rewritten, a number changed
        changed = re.sub(r"\d+", lambda m: str(int(m.group()) + 7), text.group(1), count=1)
        return json.dumps({"sentence": changed + (" Then it rained." if changed ==
                                                  text.group(1) else "")}, ensure_ascii=False)
    if "Task: rewrite the summary" in user or "任务：改写这段摘要" in user:
        summary = SUMMARY.search(user).group(1)
        first = re.split(r"(?<=[.。])\s*", summary)[0]
        changed = re.sub(r"\d+", lambda m: str(int(m.group()) + 7), first, count=1)
        return json.dumps({"subtype": "quantity", "original_sentence": first,
                           "hallucinated_sentence": changed,
                           "summary": summary.replace(first, changed, 1)}, ensure_ascii=False)
    if SUMMARY.search(user):  # a judge
        return json.dumps({"score": 4, "hallucination_types": [], "reason": "consistent"})
    return f"The ferry crossed the river ({len(user)} characters read)."


@pytest.fixture
def servers():
    started = {name: FakeLLM().start() for name in PROVIDERS}
    for server in started.values():
        server.reply = scripted
    yield started
    for server in started.values():
        server.stop()


def batch_config(tmp: Path, servers: dict) -> Path:
    write_dir_book(tmp / "en", "ferry", english_units(4))
    zh = {i: (f"第{i}章。他们在渡口等了三天。\n\n“船什么时候来？”她问。" * 3,
              f"第{i}段摘要：渡船来了{i}次。") for i in range(1, 4)}
    write_dir_book(tmp / "zh", "dukou", zh)
    corpus = [{"path": str(tmp / "en"), "format": "dir", "language": "en"},
              {"path": str(tmp / "zh"), "format": "dir", "language": "zh"}]
    models = {name: {"provider": provider, "model": f"fake-{name}",
                     "base_url": servers[name].base_url, "max_retries": 2, "timeout_s": 10,
                     "mode": "batch", "batch_poll_s": 0.05}
              for name, provider in PROVIDERS.items()}
    return write_config(tmp, corpus, models=models,
                        arbitrate={"summarizers": ["a", "b"], "judges": ["a", "b"],
                                   "max_windows_per_tier": 4},
                        inject={"generator": "a", "entities": "b", "types_per_window": 2})


def invoke(*args: str) -> str:
    quiet = ["--no-progress"] if args[0] in ("build", "plan") else []
    result = cli.invoke(app, [*args, *quiet])
    assert result.exit_code == 0, result.output
    return result.output


def live_requests(servers) -> int:
    return sum(server.count() for server in servers.values())


def submitted(servers) -> Counter:
    return Counter((name, cid) for name, s in servers.items() for cid in s.submitted())


def status_json(config: Path) -> dict:
    rows = json.loads(invoke("status", "-c", str(config), "--json"))
    return {row["stage"]: row for row in rows}


def test_a_build_in_batch_mode_sends_no_live_request_and_a_rerun_sends_nothing(
        servers, tmp_path):
    config = batch_config(tmp_path, servers)
    invoke("build", "-c", str(config))
    rows = status_json(config)
    assert rows["arbitrate"]["state"] == rows["inject"]["state"] == "fresh"
    assert live_requests(servers) == 0
    batches = {name: len(s.batches) for name, s in servers.items()}
    # arbitrate: a summaries round and a judgments round; inject: b's entities, a's rounds
    assert batches["a"] >= 3 and batches["b"] >= 3
    assert max(submitted(servers).values()) == 1  # nothing was submitted twice
    assert all(not row["pending_batches"] for row in rows.values())
    assert rows["arbitrate"]["tokens"] > 0 and rows["inject"]["tokens"] > 0

    plan = json.loads(invoke("plan", "-c", str(config), "--json"))
    assert {(row["stage"], row["model"], row["mode"]) for row in plan} >= {
        ("arbitrate", "a", "batch"), ("arbitrate", "b", "batch")}

    calls = {name: len(s.batch_calls) for name, s in servers.items()}
    invoke("build", "-c", str(config), "--force")  # re-runs every stage: all from the cache
    assert {name: len(s.batch_calls) for name, s in servers.items()} == calls
    assert live_requests(servers) == 0


def test_a_build_killed_with_batches_pending_resumes_them(servers, tmp_path):
    config = batch_config(tmp_path, servers)
    for server in servers.values():
        server.batch_polls = 10**9  # batches stay in progress while the child runs
    child = subprocess.Popen([LONGNOVEL, "build", "-c", str(config), "--no-progress"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env={**os.environ})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(
            s.batches and all(b["polls"] >= 2 for b in s.batches.values())
            for s in servers.values()):
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL
    before = submitted(servers)
    assert {name for name, _ in before} == {"a", "b"}

    pending = status_json(config)["arbitrate"]["pending_batches"]
    assert {m: p["requests"] for m, p in pending.items()} == {
        name: sum(1 for n, _ in before if n == name) for name in PROVIDERS}
    assert "pending batches of arbitrate: a 1 batch(es)" in invoke("status", "-c", str(config))

    for server in servers.values():
        server.batch_polls = 2
    invoke("build", "-c", str(config))
    after = submitted(servers)
    assert max(after.values()) == 1  # no request submitted before the kill was submitted again
    assert set(before) < set(after) and live_requests(servers) == 0
    rows = status_json(config)
    assert rows["arbitrate"]["state"] == rows["inject"]["state"] == "fresh"
    assert all(not row["pending_batches"] for row in rows.values())

    calls = {name: len(s.batch_calls) for name, s in servers.items()}
    invoke("build", "-c", str(config))
    assert {name: len(s.batch_calls) for name, s in servers.items()} == calls
