"""The disk's faults are one clear line (issue 21 items 4-6): a full disk, a read-only run
directory or cache folder, and names that cannot be files each stop with one line naming the
path and the fix, exit 1; no temporary file outlives a failed stage; release files follow the
umask.

A full disk is a file-size limit (RLIMIT_FSIZE, any user) and, as root, a tiny tmpfs; a
read-only folder is a read-only bind mount as root (in a private mount namespace, ``unshare
-m``) and ``chmod`` otherwise. What needs what is skipped cleanly when it is not available."""

from __future__ import annotations

import json
import os
import resource
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers.builders import REPO, english_units, write_config, write_dir_book, write_jsonl
from typer.testing import CliRunner

from longnovel.cli import app

runner = CliRunner()
ROOT = os.geteuid() == 0


def can_unshare() -> bool:
    if not ROOT or not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k none /mnt"],
                           capture_output=True)
    return probe.returncode == 0


UNSHARE = can_unshare()


def project(tmp: Path, books: int = 2, units: int = 10, **overrides) -> Path:
    for i in range(books):
        write_dir_book(tmp / "en", f"book{i}", english_units(units, words=60))
    overrides.setdefault("inject", {"types_per_window": 2})
    return write_config(tmp, [{"path": str(tmp / "en"), "format": "dir", "language": "en"}],
                        **overrides)


def longnovel(*args: str) -> list[str]:
    return [sys.executable, "-m", "longnovel.cli", *args]


def run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=600, **kwargs)


def one_error_line(done: subprocess.CompletedProcess, *needles: str) -> str:
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, done.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def temp_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob(".*.tmp"))


def with_readonly(folder: Path, argv: list[str]) -> subprocess.CompletedProcess:
    """Run ``argv`` while ``folder`` is read-only."""
    if ROOT:
        if not UNSHARE:
            pytest.skip("read-only folders for root need unshare -m and bind mounts")
        script = 'mount --bind -o ro "$1" "$1" && shift && exec "$@"'
        return run(["unshare", "-m", "sh", "-c", script, "sh", str(folder), *argv])
    modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")]}
    for path in modes:
        path.chmod(stat.S_IMODE(modes[path]) & ~0o222)
    try:
        return run(argv)
    finally:
        for path, mode in modes.items():
            path.chmod(stat.S_IMODE(mode))


# --- a full disk -------------------------------------------------------------------------------

def limit_file_size(limit: int):
    def apply():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_full_disk_is_one_line_naming_the_file_and_leaves_no_temp_file(tmp_path):
    config = project(tmp_path, books=3, units=30)
    done = run(longnovel("build", "-c", str(config), "--no-progress"),
               preexec_fn=limit_file_size(9_000))
    line = one_error_line(done, str(tmp_path / "run"), "cannot write", "free space")
    assert "File too large" in line
    assert temp_files(tmp_path / "run") == []
    assert ".parquet" in line  # the file being written, not just a folder
    assert not (tmp_path / "run" / "export" / "manifest.json").exists()
    done = run(longnovel("build", "-c", str(config), "--no-progress"))
    assert done.returncode == 0, done.stderr  # the next build runs normally


@pytest.mark.skipif(not UNSHARE, reason="a tmpfs needs root and unshare -m")
def test_a_really_full_tmpfs_gives_no_space_left(tmp_path):
    config = project(tmp_path, books=3, units=30)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    script = ('mount -t tmpfs -o size=40k none "$1" && shift && "$@"; code=$?; '
              f'ls -A -R "{run_dir}" | grep -c "\\.tmp$"; exit $code')
    done = run(["unshare", "-m", "sh", "-c", script, "sh", str(run_dir),
                *longnovel("build", "-c", str(config), "--no-progress")])
    one_error_line(done, str(run_dir), "No space left on device", "free space")
    assert done.stdout.strip().splitlines()[-1] == "0"  # no temp file inside the tmpfs


# --- read-only folders ---------------------------------------------------------------------------

def test_a_read_only_run_dir_with_every_stage_fresh_is_one_line(tmp_path):
    config = project(tmp_path)
    run_dir = tmp_path / "run"
    assert run(longnovel("build", "-c", str(config), "--no-progress")).returncode == 0
    done = with_readonly(run_dir, longnovel("build", "-c", str(config), "--no-progress"))
    one_error_line(done, str(run_dir), "not writable", "--run-dir")
    done = with_readonly(run_dir, longnovel("status", "-c", str(config)))
    assert done.returncode == 0, done.stderr  # reading needs no write


@pytest.mark.parametrize("fault", ["read-only", "full"])
def test_a_read_only_or_full_cache_folder_is_one_line_naming_the_cache(servers, tmp_path,
                                                                       fault):
    from helpers.arbitration import arbitration_config

    config = arbitration_config(tmp_path, servers)
    cache_dir = tmp_path / "cachedir"
    cache_dir.mkdir()
    data = yaml.safe_load(config.read_text())
    data["cache"] = str(cache_dir / "llm.sqlite")
    config.write_text(yaml.safe_dump(data))
    argv = longnovel("build", "-c", str(config), "--no-progress")
    if fault == "read-only":
        done = with_readonly(cache_dir, argv)
    else:
        if not UNSHARE:
            pytest.skip("a full folder needs a tmpfs: root and unshare -m")
        script = 'mount -t tmpfs -o size=12k none "$1" && shift && exec "$@"'
        done = run(["unshare", "-m", "sh", "-c", script, "sh", str(cache_dir), *argv])
    one_error_line(done, str(cache_dir), "cache")
    assert temp_files(tmp_path / "run") == []


# --- names that cannot be files, numbers that cannot be stored ---------------------------------

@pytest.mark.parametrize(("key", "value", "needle"), [
    ("tiers", {"a/b": 60}, "tier name 'a/b'"),
    ("tiers", {"..": 60}, "tier name '..'"),
    ("export", {"splits": {"a/b": 1.0}}, "split name 'a/b'"),
])
def test_a_tier_or_split_that_cannot_name_a_file_is_refused(tmp_path, key, value, needle):
    config = project(tmp_path, **{key: value})
    result = runner.invoke(app, ["build", "-c", str(config), "--no-progress"])
    assert result.exit_code == 1, result.output
    assert needle in result.output and str(config) in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "run").exists()


def test_a_unit_number_too_large_for_the_column_is_one_line(tmp_path):
    rows = [{"book_id": "b", "unit_index": 10**29, "text": "Some text here.",
             "summary": "A summary."}]
    path = write_jsonl(tmp_path / "units.jsonl", rows)
    config = write_config(tmp_path, [{"path": str(path), "format": "table", "language": "en"}])
    result = runner.invoke(app, ["build", "-c", str(config), "--no-progress"])
    assert result.exit_code == 1, result.output
    assert f"{path}:line 1" in result.output and "too large" in result.output
    assert "Traceback" not in result.output


# --- temporary files and permissions ------------------------------------------------------------

def test_a_stage_sweeps_the_temp_files_a_killed_run_left_in_the_release_folder(tmp_path):
    config = project(tmp_path)
    assert runner.invoke(app, ["build", "-c", str(config), "--no-progress"]).exit_code == 0
    left = [tmp_path / "run" / "export" / "T" / ".test.parquet.x1y2.tmp",
            tmp_path / "run" / "export" / ".README.md.abc.tmp"]
    for path in left:
        path.write_bytes(b"half a file")
    result = runner.invoke(app, ["export", "-c", str(config), "--force", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert temp_files(tmp_path / "run") == []


@pytest.mark.parametrize("umask", [0o022, 0o002])
def test_release_files_follow_the_umask(tmp_path, umask):
    config = project(tmp_path)
    previous = os.umask(umask)
    try:
        result = runner.invoke(app, ["build", "-c", str(config), "--no-progress"])
    finally:
        os.umask(previous)
    assert result.exit_code == 0, result.output
    expected = 0o666 & ~umask
    export = tmp_path / "run" / "export"
    files = [p for p in export.rglob("*") if p.is_file()]
    assert any(p.name == "test.parquet" for p in files) and any(p.name == "SHA256SUMS"
                                                               for p in files)
    modes = {p.relative_to(export).as_posix(): oct(stat.S_IMODE(p.stat().st_mode))
             for p in files}
    assert set(modes.values()) == {oct(expected)}, modes
    manifest = json.loads((export / "manifest.json").read_text())
    assert manifest["outputs"]
