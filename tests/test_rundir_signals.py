"""A build killed at any moment leaves no process, lock or temporary file behind (issue 21)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.builders import REPO, release_config

from longnovel.state import sha256_file

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


def _proc_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state) of every process."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        table[int(entry.name)] = (int(fields[1]), fields[0])
    return table


def descendants(pid: int) -> set[int]:
    table = _proc_table()
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for child, (ppid, _) in table.items():
            if ppid == parent and child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pids: set[int]) -> set[int]:
    """The pids still running (zombies waiting for a reaper do not count)."""
    table = _proc_table()
    return {pid for pid in pids if pid in table and table[pid][1] != "Z"}


def start_build(config: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "longnovel.cli", "build", "-c", str(config),
                             "--no-progress"], cwd=REPO, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def kill_when(build: subprocess.Popen, sig: int, ready, timeout: float = 120) -> set[int]:
    """Send ``sig`` to ``build`` once ``ready()`` holds; return its descendants at that time
    (None when the build ended first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and build.poll() is None:
        if ready():
            children = descendants(build.pid)
            build.send_signal(sig)
            build.wait(timeout=60)
            return children
        time.sleep(0.02)
    build.wait(timeout=60)
    return None


def wait_gone(pids: set[int], seconds: float = 15) -> set[int]:
    deadline = time.monotonic() + seconds
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive(pids)


def temp_files(run_dir: Path) -> list[Path]:
    return [p for p in run_dir.rglob("*") if p.name.endswith(".tmp")]


def release_digests(run_dir: Path) -> dict[str, str]:
    folder = run_dir / "export"
    return {p.relative_to(folder).as_posix(): sha256_file(p)
            for p in sorted(folder.rglob("*.parquet"))}


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_build_killed_while_entity_workers_run_leaves_no_process_and_no_lock(
        tmp_path, built_fixture, sig):
    config = release_config(tmp_path, tmp_path / "run")
    build = start_build(config)
    children = kill_when(build, sig, lambda: descendants(build.pid))
    if children is None:
        pytest.skip("inject ran without a process pool here (one CPU)")
    assert not wait_gone(children), "pool workers outlived the killed build"
    if sig == signal.SIGTERM:
        assert build.returncode == 143, (children, build.stderr.read())
        assert "terminated" in build.stderr.read()
        assert not temp_files(tmp_path / "run")  # removed on the way out
    again = subprocess.run([sys.executable, "-m", "longnovel.cli", "build", "-c", str(config),
                            "--no-progress"], cwd=REPO, capture_output=True, text=True,
                           timeout=600, check=False)
    assert again.returncode == 0, again.stderr
    assert "in use by" not in again.stderr
    assert not temp_files(tmp_path / "run")
    assert release_digests(tmp_path / "run") == release_digests(built_fixture)


@pytest.mark.parametrize(("sig", "after"), [(signal.SIGTERM, "ingest"),
                                            (signal.SIGKILL, "expand")])
def test_a_build_killed_between_or_inside_stages_resumes_to_the_same_release(
        tmp_path, built_fixture, sig, after):
    """Killed while the stage after ``after`` starts: the next build ends with no temp file
    and a release byte-identical to an uninterrupted build's."""
    run_dir = tmp_path / "run"
    config = release_config(tmp_path, run_dir)
    build = start_build(config)
    kill_when(build, sig, lambda: (run_dir / after / "manifest.json").exists())
    again = subprocess.run([sys.executable, "-m", "longnovel.cli", "build", "-c", str(config),
                            "--no-progress"], cwd=REPO, capture_output=True, text=True,
                           timeout=600, check=False)
    assert again.returncode == 0, again.stderr
    assert not temp_files(run_dir)
    assert release_digests(run_dir) == release_digests(built_fixture)


FORKING_HOLDER = """
import os, sys, time
from longnovel.state import RunLock
lock = RunLock(sys.argv[1], command="holder").acquire()
child = os.fork()
if child == 0:
    time.sleep(60)
    os._exit(0)
print(child, flush=True)
time.sleep(60)
"""


def test_a_lock_dies_with_its_holder_even_when_a_forked_child_lives_on(tmp_path):
    from longnovel.state import RunLock

    holder = subprocess.Popen([sys.executable, "-c", FORKING_HOLDER, str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)
    child = int(holder.stdout.readline())
    try:
        with pytest.raises(Exception, match=f"in use by process {holder.pid}"):
            RunLock(tmp_path).acquire()
        holder.kill()
        holder.wait()
        assert alive({child})  # the child still runs, and holds nothing
        RunLock(tmp_path).acquire().release()
    finally:
        os.kill(child, signal.SIGKILL)


SWALLOWED = """
import os, signal, sys, time
from longnovel.cli import Terminated, _sigterm_unwinds

class Finalized:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGTERM)  # the handler runs here, inside __del__
        time.sleep(0.2)

with _sigterm_unwinds():
    try:
        Finalized()
        for _ in range(100):
            time.sleep(0.05)
        print("ran on")
    except Terminated:
        print("terminated")
"""


def test_sigterm_during_a_finalizer_still_stops_the_command():
    done = subprocess.run([sys.executable, "-c", SWALLOWED], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.strip() == "terminated", done.stdout + done.stderr
    assert "Exception ignored" not in done.stderr
