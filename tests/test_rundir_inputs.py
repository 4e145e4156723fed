"""Freshness rests on the bytes a stage read, not on what an upstream manifest says; `status
--verify` finds a flipped byte; the release ships its checksums (issue 21 item 3)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from helpers.builders import english_units, write_config, write_dir_book
from typer.testing import CliRunner

from longnovel.cli import app

runner = CliRunner()


def project(tmp: Path) -> Path:
    for book in ("ferry", "mill"):
        write_dir_book(tmp / "en", book, english_units(10))
    return write_config(tmp, [{"path": str(tmp / "en"), "format": "dir", "language": "en"}],
                        inject={"types_per_window": 2}, export={"mix": None})


def cli(*args: str, code: int = 0):
    result = runner.invoke(app, [*args])
    assert result.exit_code == code, result.output
    return result


def injected_summaries(run_dir: Path) -> set[str]:
    return {r["summary"] for path in (run_dir / "export" / "T").glob("*.parquet")
            for r in pq.read_table(path).to_pylist() if r["source"] == "injection"}


def states(config: Path) -> dict[str, str]:
    rows = json.loads(cli("status", "-c", str(config), "--json").output)
    return {r["stage"]: r["state"] for r in rows}


def test_an_export_built_from_edited_injections_is_stale_until_rebuilt(tmp_path):
    config = project(tmp_path)
    run_dir = tmp_path / "run"
    cli("build", "-c", str(config), "--no-progress")
    true_summaries = injected_summaries(run_dir)
    assert true_summaries
    path = run_dir / "inject" / "injections.parquet"
    table = pq.read_table(path)
    summaries, valid = table.column("summary").to_pylist(), table.column("valid").to_pylist()
    edited = [s + " EDITED" if v else s for s, v in zip(summaries, valid, strict=True)]
    pq.write_table(table.set_column(table.schema.get_field_index("summary"), "summary",
                                    pa.array(edited)), path)
    cli("export", "-c", str(config), "--no-progress")
    assert all(s.endswith(" EDITED") for s in injected_summaries(run_dir))

    result = cli("build", "-c", str(config), "--no-progress")
    assert "inject: stale" in result.output and "export: stale" in result.output, result.output
    assert injected_summaries(run_dir) == true_summaries
    assert set(states(config).values()) == {"fresh"}
    manifest = json.loads((run_dir / "export" / "manifest.json").read_text())
    recorded = manifest["tiers"]["T"]["inputs"]["inject/injections.parquet"]
    from longnovel.state import parquet_tier_digests

    assert recorded == parquet_tier_digests(path)["T"]


def test_status_verify_finds_a_flipped_byte_with_the_same_size_and_time(tmp_path):
    config = project(tmp_path)
    run_dir = tmp_path / "run"
    cli("build", "-c", str(config), "--no-progress")
    assert "0 differ" in cli("status", "-c", str(config), "--verify").output
    release = run_dir / "export" / "T" / "test.parquet"
    stat = release.stat()
    data = bytearray(release.read_bytes())
    data[len(data) // 2] ^= 0x01
    release.write_bytes(bytes(data))
    os.utime(release, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert states(config)["export"] == "fresh"  # size and time alone cannot tell
    result = cli("status", "-c", str(config), "--verify", code=1)
    lines = [line for line in result.output.splitlines() if "differs from" in line]
    assert len(lines) == 1 and str(release) in lines[0]
    assert states(config)["export"] == "stale"
    assert "export" in cli("build", "-c", str(config), "--no-progress").output
    assert "0 differ" in cli("status", "-c", str(config), "--verify").output


def test_each_tier_folder_ships_sha256sums_that_sha256sum_accepts(tmp_path):
    config = project(tmp_path)
    cli("build", "-c", str(config), "--no-progress")
    folder = tmp_path / "run" / "export" / "T"
    lines = (folder / "SHA256SUMS").read_text().splitlines()
    files = sorted(p.name for p in folder.glob("*.parquet"))
    assert [line.split("  ", 1)[1] for line in lines] == files
    for line in lines:
        digest, name = line.split("  ", 1)
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest
    if shutil.which("sha256sum"):
        import subprocess

        done = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=folder,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
