"""`--run-dir` never takes over a folder that is not a run directory (issue 21 item 7)."""

from __future__ import annotations

from pathlib import Path

from helpers.builders import english_units, write_config, write_dir_book
from typer.testing import CliRunner

from longnovel.cli import app

runner = CliRunner()


def project(tmp: Path) -> Path:
    write_dir_book(tmp / "en", "ferry", english_units(6))
    return write_config(tmp, [{"path": str(tmp / "en"), "format": "dir", "language": "en"}],
                        inject={"types_per_window": 2})


def build(config: Path, run_dir: Path, *extra: str):
    return runner.invoke(app, ["build", "-c", str(config), "--run-dir", str(run_dir),
                               "--no-progress", *extra])


def test_a_foreign_non_empty_folder_is_refused_naming_it(tmp_path):
    config = project(tmp_path)
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "holiday.jpg").write_bytes(b"not ours")
    (folder / "export").mkdir()  # a folder named like a stage, without a manifest
    before = sorted(p.name for p in folder.rglob("*"))
    for command in (["build"], ["ingest"]):
        result = runner.invoke(app, [*command, "-c", str(config), "--run-dir", str(folder),
                                     "--no-progress"])
        assert result.exit_code == 1, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and str(folder) in lines[0], result.output
        assert "holiday.jpg" in lines[0] and "--force-run-dir" in lines[0]
    assert sorted(p.name for p in folder.rglob("*")) == before  # nothing written


def test_force_run_dir_builds_there_and_keeps_the_other_files(tmp_path):
    config = project(tmp_path)
    folder = tmp_path / "shared"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    result = build(config, folder, "--force-run-dir")
    assert result.exit_code == 0, result.output
    assert (folder / "notes.txt").read_text() == "mine"
    assert (folder / "export" / "manifest.json").is_file()
    assert build(config, folder).exit_code == 0  # a run directory now: no flag needed


def test_an_empty_or_new_folder_and_an_existing_run_dir_need_no_flag(tmp_path):
    config = project(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert build(config, empty).exit_code == 0
    assert build(config, tmp_path / "new" / "run").exit_code == 0
    (empty / "run.json").unlink()  # a run directory made before run.json: its manifests count
    assert build(config, empty).exit_code == 0
