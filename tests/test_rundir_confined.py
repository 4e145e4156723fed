"""No manifest content makes a command read, write or delete outside the run directory (issue 21
item 2): a run directory received from someone else is untrusted input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers.builders import english_units, write_config, write_dir_book
from typer.testing import CliRunner

from longnovel.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A built rules-only run directory (copied per test)."""
    tmp = tmp_path_factory.mktemp("confined")
    write_dir_book(tmp / "en", "ferry", english_units(8))
    config = write_config(tmp, [{"path": str(tmp / "en"), "format": "dir", "language": "en"}],
                          inject={"types_per_window": 2})
    result = runner.invoke(app, ["build", "-c", str(config), "--no-progress"])
    assert result.exit_code == 0, result.output
    return tmp


def copy_project(built: Path, tmp: Path) -> Path:
    import shutil

    shutil.copytree(built, tmp / "p", symlinks=True)
    data = (tmp / "p" / "config.yaml").read_text().replace(str(built), str(tmp / "p"))
    (tmp / "p" / "config.yaml").write_text(data)
    (tmp / "p" / "run" / "run.json").unlink()  # the copy's config claims it afresh
    return tmp / "p" / "config.yaml"


def edit_outputs(manifest: Path, rel: str) -> None:
    data = json.loads(manifest.read_text())
    data["outputs"][rel] = "0" * 64
    manifest.write_text(json.dumps(data))


def victim(tmp: Path) -> Path:
    path = tmp / "victim" / "victim.txt"
    path.parent.mkdir()
    path.write_text("keep me")
    return path


def refused(result, manifest: Path) -> str:
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and str(manifest) in lines[0], result.output
    assert "Traceback" not in result.output
    return lines[0]


@pytest.mark.parametrize("kind", ["dotdot", "absolute", "link"])
def test_a_manifest_naming_a_path_outside_is_refused_and_nothing_is_deleted(built, tmp_path,
                                                                            kind):
    config = copy_project(built, tmp_path)
    run_dir = tmp_path / "p" / "run"
    target = victim(tmp_path)
    manifest = run_dir / "export" / "manifest.json"
    if kind == "dotdot":
        rel = os.path.relpath(target, run_dir / "export")
        assert rel.startswith("..")
    elif kind == "absolute":
        rel = str(target)
    else:
        (run_dir / "export" / "escape").symlink_to(target.parent)
        rel = "escape/victim.txt"
    edit_outputs(manifest, rel)
    # make the stage re-run, which deletes outputs its old manifest names and the new one lacks
    (run_dir / "export" / "stats.json").write_text("edited")
    line = refused(runner.invoke(app, ["build", "-c", str(config), "--no-progress"]), manifest)
    assert repr(rel) in line
    assert target.read_text() == "keep me"
    line = refused(runner.invoke(app, ["status", "-c", str(config)]), manifest)
    assert target.read_text() == "keep me"
    target.chmod(0o000)  # status must not even try to read it
    try:
        refused(runner.invoke(app, ["status", "-c", str(config), "--json"]), manifest)
    finally:
        target.chmod(0o600)


def test_a_linked_manifest_or_stage_folder_is_refused(built, tmp_path):
    config = copy_project(built, tmp_path)
    run_dir = tmp_path / "p" / "run"
    outside = tmp_path / "outside"
    (run_dir / "inject").rename(outside)
    (run_dir / "inject").symlink_to(outside)
    result = runner.invoke(app, ["build", "-c", str(config), "--no-progress"])
    assert result.exit_code == 1 and "must not be a link" in result.output
    assert str(run_dir / "inject") in result.output
    (run_dir / "inject").unlink()
    outside.rename(run_dir / "inject")
    manifest = run_dir / "expand" / "manifest.json"
    manifest.rename(tmp_path / "elsewhere.json")
    manifest.symlink_to(tmp_path / "elsewhere.json")
    refused(runner.invoke(app, ["status", "-c", str(config)]), manifest)
    assert (tmp_path / "elsewhere.json").is_file()
