"""Runners sharing one cache file never pay twice: requests in flight elsewhere are awaited."""

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml
from helpers.arbitration import arbitration_config, total_requests
from helpers.fake_llm import hang, status
from helpers.llm import make_runner, model_config, requests
from typer.testing import CliRunner

from longnovel.cli import app
from longnovel.llm import LLMRunner
from longnovel.llm.cache import CachedReply, ReplyCache, request_key
from longnovel.llm.leases import Leases, process_runs
from longnovel.llm.types import ModelAccessError

CHILD = Path(__file__).resolve().parents[1] / "helpers" / "lease_child.py"


def start_child(server, cache: Path, n: int, concurrency: int, go: Path) -> subprocess.Popen:
    path = os.pathsep.join(filter(None, [str(CHILD.parents[1]), os.environ.get("PYTHONPATH")]))
    child = subprocess.Popen(
        [sys.executable, str(CHILD), server.base_url, str(cache), str(n), str(concurrency),
         str(go)],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": path})
    assert child.stdout.readline().strip() == "ready"
    return child


def finish(child: subprocess.Popen) -> dict:
    out, _ = child.communicate(timeout=120)
    assert child.returncode == 0
    return json.loads(out.strip().splitlines()[-1])


def lease_rows(cache: Path) -> list[tuple]:
    with sqlite3.connect(cache) as db:
        return db.execute("SELECT key, pid FROM leases").fetchall()


def test_two_processes_sharing_a_cache_send_each_prompt_once(llm_server, tmp_path):
    llm_server.latency = 0.2
    cache, go, n = tmp_path / "cache.sqlite", tmp_path / "go", 12
    children = [start_child(llm_server, cache, n, 2, go) for _ in range(2)]
    go.touch()
    reports = [finish(child) for child in children]
    assert [r["ok"] for r in reports] == [n, n]
    # every prompt sent once, by one of them; the other took it from the cache
    assert llm_server.count() == n and len(set(llm_server.answered)) == n
    assert sum(r["requests"] for r in reports) == n
    assert [r["requests"] + r["cache_hits"] for r in reports] == [n, n]
    assert lease_rows(cache) == []


def test_the_leases_of_a_killed_process_are_taken_over_at_once(llm_server, tmp_path):
    cache, go, n = tmp_path / "cache.sqlite", tmp_path / "go", 4
    llm_server.enqueue(hang(60), hang(60))  # the first process's two requests never come back
    go.touch()
    owner = start_child(llm_server, cache, n, 2, go)
    deadline = time.monotonic() + 60
    while llm_server.count() < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert llm_server.count() == 2
    held = lease_rows(cache)
    assert len(held) == 2 and {pid for _, pid in held} == {owner.pid}
    owner.send_signal(signal.SIGKILL)
    owner.wait(timeout=10)
    assert not process_runs(owner.pid)
    # the leases would last an hour: only the owner's death lets the next process send them
    report = finish(start_child(llm_server, cache, n, 2, go))
    assert report == {"ok": n, "requests": n, "cache_hits": 0}
    assert llm_server.count() == 2 + n and lease_rows(cache) == []


def foreign_lease(cache_path: Path, key: str, pid: int, host: str, expires_at: float) -> None:
    with sqlite3.connect(cache_path) as db:
        db.execute("INSERT INTO leases (key, owner, pid, host, expires_at) VALUES (?,?,?,?,?)",
                   (key, "someone-else", pid, host, expires_at))


def await_notice(capsys, thread: threading.Thread) -> str:
    """The runner's line saying it awaits another's request (so it is waiting now)."""
    seen = ""
    deadline = time.monotonic() + 60
    while "in flight" not in seen and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
        seen += capsys.readouterr().err
    [line] = [x for x in seen.splitlines() if "in flight" in x]
    return line


def run_in_thread(runner, batch) -> tuple[threading.Thread, list]:
    box: list = []
    thread = threading.Thread(target=lambda: box.append(runner.run(batch)))
    thread.start()
    return thread, box


def test_a_request_in_flight_in_a_live_process_is_awaited_not_sent(
    llm_server, tmp_path, word_tokenizer, capsys
):
    [request] = requests(1)
    cache_path = tmp_path / "cache.sqlite"
    key = request_key(model_config(llm_server, "openai"), request.messages)
    Leases(ReplyCache(cache_path)).cache.close()  # creates the table
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        foreign_lease(cache_path, key, sleeper.pid, socket.gethostname(), time.time() + 3600)
        models = {"m": model_config(llm_server, "openai")}
        with LLMRunner(models, cache_path, word_tokenizer, "test", progress=False,
                       lease_poll_s=0.02) as runner:
            thread, box = run_in_thread(runner, [request])
            line = await_notice(capsys, thread)
            time.sleep(0.2)  # a few polls more
            assert thread.is_alive() and llm_server.count() == 0  # still waiting
            other = ReplyCache(cache_path)  # the other process answers, then lets go
            other.put(key, models["m"], CachedReply("answered elsewhere", 4, 2, "stop", 0))
            with other.locked() as db:
                db.execute("DELETE FROM leases")
                db.commit()
            other.close()
            thread.join(timeout=30)
            [result] = box[0]
            assert (result.text, result.cached) == ("answered elsewhere", True)
            assert runner.usage()["m"]["requests"] == 0
    finally:
        sleeper.kill()
        sleeper.wait()
    assert llm_server.count() == 0
    assert f"pid {sleeper.pid}" in line and "awaited, not sent again" in line


def test_an_expired_lease_of_another_host_is_taken_over(llm_server, tmp_path, word_tokenizer):
    batch = requests(2)
    cache_path = tmp_path / "cache.sqlite"
    Leases(ReplyCache(cache_path)).cache.close()
    config = model_config(llm_server, "openai")
    for request, expires in zip(batch, (time.time() - 1, time.time() + 0.5), strict=True):
        foreign_lease(cache_path, request_key(config, request.messages), 1, "elsewhere", expires)
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer) as runner:
        runner.lease_poll_s = 0.05
        results = runner.run(batch)
    assert all(r.ok and not r.cached for r in results) and llm_server.count() == 2
    assert lease_rows(cache_path) == []


def test_a_failed_owner_lets_the_waiter_send_and_a_stopped_run_lets_go(
    llm_server, tmp_path, word_tokenizer, capsys
):
    [request] = requests(1)
    cache_path = tmp_path / "cache.sqlite"
    leases = Leases(ReplyCache(cache_path))
    key = request_key(model_config(llm_server, "openai"), request.messages)
    assert leases.claim(key) is None  # another runner of this process holds it, then fails
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer) as runner:
        runner.lease_poll_s = 0.02
        thread, box = run_in_thread(runner, [request])
        assert f"pid {os.getpid()}" in await_notice(capsys, thread)
        assert llm_server.count() == 0
        leases.release(key)  # no reply stored: the waiter sends it itself
        thread.join(timeout=30)
    assert box[0][0].ok and llm_server.count() == 1
    leases.release_all()
    leases.cache.close()
    llm_server.reply = lambda messages: status(401)
    with (make_runner(llm_server, tmp_path, "openai", word_tokenizer) as runner,
          pytest.raises(ModelAccessError)):
        runner.run(requests(5, prefix="refused"))
    assert lease_rows(cache_path) == []


def test_two_builds_sharing_a_cache_pay_once_for_arbitrate(servers, tmp_path):
    """The issue's case: two run directories, one cache file, `arbitrate` run at once (without
    leases: 108 requests for 54 prompts)."""
    configs = []
    for name in ("one", "two"):
        path = arbitration_config(tmp_path / name, servers)
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data["cache"] = str(tmp_path / "shared.sqlite")
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        configs.append(path)
    for path in configs:  # ingest and expand first, so both reach arbitrate together
        result = CliRunner().invoke(app, ["build", "-c", str(path), "--until", "expand",
                                          "--no-progress"])
        assert result.exit_code == 0, result.output
    for server in servers.values():
        server.latency = 0.5
    command = [sys.executable, "-c", "from longnovel.cli import app; app()", "arbitrate"]
    builds = [subprocess.Popen([*command, "-c", str(path), "--no-progress"], text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
              for path in configs]
    outputs = [build.communicate(timeout=300) for build in builds]
    assert [build.returncode for build in builds] == [0, 0], outputs
    with sqlite3.connect(tmp_path / "shared.sqlite") as db:
        distinct = db.execute("SELECT COUNT(*) FROM replies").fetchone()[0]
    assert distinct == 6 * 3 + 6 * 3 * 2  # 6 windows: 3 summaries each, each judged twice
    assert total_requests(servers) == distinct  # not up to twice that
    assert any("awaited, not sent again" in err for _, err in outputs)
    runs = [path.parent / "run" / "arbitrate" / "labels.parquet" for path in configs]
    assert runs[0].read_bytes() == runs[1].read_bytes()
