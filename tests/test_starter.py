"""`longnovel init DIR`: a starter project that builds from any folder and holds a copy of the
embedded default's settings and sample corpus."""

from __future__ import annotations

from typer.testing import CliRunner

from longnovel.cli import app
from longnovel.config import embedded_config, embedded_project, load_config

runner = CliRunner()


def relative_files(folder) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_init_copies_the_embedded_project_with_its_own_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["init", "proj"])
    assert result.exit_code == 0, result.output
    project = tmp_path / "proj"
    assert relative_files(project) == [f for f in relative_files(embedded_project())
                                       if "__pycache__" not in f]
    own, embedded = load_config(project / "longnovel.yaml"), load_config(embedded_config())
    assert own.as_written() == embedded.as_written()  # the same settings, as written
    assert own.run_dir == str(project / "data/processed/default")
    assert own.corpus[0].path == str(project / "data/raw/sample/zh")
    text = (project / "longnovel.yaml").read_text(encoding="utf-8")
    assert text.startswith("# A longnovel project, written by `longnovel init`")
    assert "embedded default" not in text.split("\n\n")[0]
    readme = (project / "README.md").read_text(encoding="utf-8")
    assert "data/raw/mine/en/<book_id>/001.summary.txt" in readme


def test_init_refuses_a_folder_with_files_and_accepts_an_empty_one(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    result = runner.invoke(app, ["init", str(tmp_path / "full")])
    assert result.exit_code == 1
    assert result.output.strip() == (f"error: {tmp_path / 'full'}: already exists and is not "
                                     "empty; pick a new folder")
    assert relative_files(tmp_path / "full") == ["notes.txt"]
    (tmp_path / "empty").mkdir()
    assert runner.invoke(app, ["init", str(tmp_path / "empty")]).exit_code == 0
    assert (tmp_path / "empty" / "longnovel.yaml").is_file()


def test_an_initialised_project_builds_from_a_third_folder(tmp_path, monkeypatch):
    assert runner.invoke(app, ["init", str(tmp_path / "proj")]).exit_code == 0
    (tmp_path / "third").mkdir()
    monkeypatch.chdir(tmp_path / "third")
    result = runner.invoke(app, ["build", "-c", str(tmp_path / "proj/longnovel.yaml"),
                                 "--tier", "S", "--until", "expand", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "proj/data/processed/default/expand/windows.parquet").is_file()
    assert list((tmp_path / "third").iterdir()) == []
