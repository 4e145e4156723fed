"""The installed ``longnovel`` command as a real subprocess on configs/fixture.yaml."""

import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
from helpers.builders import REPO

LONGNOVEL = str(Path(sys.executable).parent / "longnovel")


def run(*args, cwd=REPO):
    return subprocess.run([LONGNOVEL, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, check=False)


def test_fixture_build_then_rerun_is_a_no_op(built_fixture):
    """The first build is the shared one (conftest: the same command, run once per test run);
    the second, on its run directory, must change nothing."""
    run_dir = built_fixture
    first = (run_dir.parent / "build.stderr").read_text(encoding="utf-8")
    assert "\r" not in first  # no progress bars into a pipe
    assert [line.split(":")[0] for line in first.splitlines()] == [
        "ingest", "expand", "arbitrate", "inject", "export", "release"], first
    files = sorted((run_dir / "export").glob("*/*.parquet"))
    assert files, first
    rows = [r for f in files for r in pq.read_table(f).to_pylist()]
    assert {r["language"] for r in rows} == {"zh", "en"}
    assert {r["source"] for r in rows} >= {"human", "injection"}
    assert json.loads((run_dir / "export" / "stats.json").read_text())["samples"] == len(rows)
    def outputs():
        return {p: p.stat().st_mtime_ns for p in run_dir.rglob("*")
                if p.is_file() and p.name != ".lock"}

    mtimes = outputs()
    second = run("build", "--config", "configs/fixture.yaml", "--run-dir", str(run_dir))
    assert second.returncode == 0
    assert second.stderr.count("fresh, skipped") == 5
    assert outputs() == mtimes
    status = run("status", "--config", "configs/fixture.yaml", "--run-dir", str(run_dir))
    assert status.returncode == 0 and status.stdout.count("fresh") == 6  # 5 stages, the card
    assert "dataset card export/README.md: fresh" in status.stdout


def test_user_error_is_one_line_without_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("corpus: []\ntiers: {S: 16000}\nmystery: 1\n")
    result = run("build", "--config", str(bad))
    assert result.returncode == 1
    assert result.stderr.strip() == f"error: {bad}:3: unknown key 'mystery'"
    debug = run("build", "--config", str(bad), "--debug")
    assert debug.returncode == 1 and "Traceback" in debug.stderr


def test_help_is_fast_and_lists_the_commands():
    result = run("--help")
    assert result.returncode == 0
    for command in ("build", "ingest", "expand", "arbitrate", "inject", "export", "status",
                    "plan", "doctor"):
        assert command in result.stdout
    heavy = subprocess.run(
        [sys.executable, "-c", ("import sys, longnovel.cli; "
                                "print(sorted(m for m in ('openai', 'zhipuai', 'transformers', "
                                "'matplotlib', 'pyarrow', 'jieba') if m in sys.modules))")],
        capture_output=True, text=True, check=True)
    assert heavy.stdout.strip() == "[]"
