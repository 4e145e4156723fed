"""Relative paths in a config resolve against the config file's folder, so a project runs the
same from any folder; the embedded default is found without --config and writes under the
current folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml
from helpers.builders import REPO
from typer.testing import CliRunner

from longnovel.cli import app
from longnovel.config import embedded_config, is_embedded, load_config

runner = CliRunner()
SAMPLE = REPO / "src/longnovel/project/data/raw/sample"
RELEASE_SAMPLE = REPO / "tests/data/release_sample.jsonl"


def detector(server) -> dict:
    return {"judge": {"provider": "openai", "model": "judge-1", "base_url": server.base_url,
                      "api_key_env": "LN_TEST_EVAL_KEY", "max_retries": 0,
                      "context_window": 200000}}


def files_under(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def project(root: Path, **extra) -> Path:
    """A project with a relative corpus, run dir and cache: ``root/conf/longnovel.yaml``."""
    shutil.copytree(SAMPLE / "en", root / "novels" / "en")
    config = {"run_dir": "../runs/main", "cache": "../cache/llm.sqlite",
              "corpus": [{"path": "../novels/en", "format": "dir", "language": "en"}],
              "tiers": {"T": 8000}, "window": {"below": 2000, "above": 2000, "max_per_tier": 2},
              **extra}
    path = root / "conf" / "longnovel.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def test_relative_paths_resolve_against_the_config_folder(tmp_path, monkeypatch):
    config = project(tmp_path / "proj")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    loaded = load_config(config)
    assert loaded.run_dir == str(tmp_path / "proj/runs/main")
    assert loaded.cache == str(tmp_path / "proj/cache/llm.sqlite")
    assert loaded.corpus[0].path == str(tmp_path / "proj/novels/en")
    assert loaded.as_written()["run_dir"] == "../runs/main"
    assert loaded.as_written()["corpus"][0]["path"] == "../novels/en"
    # --run-dir is the user's own typing: relative to the current folder
    assert load_config(config, "mine").run_dir == str(elsewhere / "mine")


def test_a_moved_project_built_from_a_third_folder_writes_only_inside_itself(tmp_path,
                                                                             monkeypatch):
    first = project(tmp_path / "proj")
    moved = tmp_path / "moved"
    shutil.copytree(tmp_path / "proj", moved)
    third = tmp_path / "third"
    third.mkdir()
    monkeypatch.chdir(third)
    config = moved / "conf" / "longnovel.yaml"
    result = runner.invoke(app, ["build", "-c", str(config), "--until", "export",
                                 "--no-progress"])
    assert result.exit_code == 0, result.output
    assert files_under(third) == []
    assert (moved / "runs/main/export/T/test.parquet").is_file() or \
        (moved / "runs/main/export/T/valid.parquet").is_file()
    assert not (tmp_path / "proj/runs").exists() and first.is_file()
    status = runner.invoke(app, ["status", "-c", str(config)])
    assert f"run dir: {moved / 'runs/main'}" in status.output
    assert f"cache:   {moved / 'cache/llm.sqlite'}" in status.output
    assert f"corpus:  {moved / 'novels/en'} (dir, en)" in status.output


def test_evaluate_from_another_folder_hits_the_same_cache(tmp_path, monkeypatch, llm_server):
    monkeypatch.setenv("LN_TEST_EVAL_KEY", "sk-test")
    config = project(tmp_path / "proj", models=detector(llm_server))
    args = ["evaluate", "-c", str(config), "-m", "judge", "--data", str(RELEASE_SAMPLE),
            "--no-progress"]
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        monkeypatch.chdir(tmp_path / folder)
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert files_under(tmp_path / folder) == []
        if folder == "a":
            sent = llm_server.count()
            assert sent > 0
    assert llm_server.count() == sent  # the second folder's run was served from the cache
    assert (tmp_path / "proj/cache/llm.sqlite").is_file()


def test_the_embedded_default_is_used_without_config_and_writes_here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    loaded = load_config()
    assert loaded.file.resolve() == embedded_config().resolve()
    assert loaded.run_dir == str(tmp_path / "data/processed/default")
    assert loaded.cache == str(tmp_path / "data/cache/llm.sqlite")
    assert all(Path(s.path).is_dir() for s in loaded.corpus)
    assert is_embedded(REPO / "configs/default.yaml")  # the repository's link to it
    status = runner.invoke(app, ["status"])
    assert status.exit_code == 0 and "the embedded default" in status.output
    assert files_under(tmp_path) == []


def test_a_config_in_the_current_folder_comes_before_the_embedded_default(tmp_path,
                                                                          monkeypatch):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs/default.yaml").write_text(yaml.safe_dump(
        {"run_dir": "r", "corpus": [{"path": "c", "format": "dir", "language": "en"}]}))
    monkeypatch.chdir(tmp_path)
    assert load_config().run_dir == str(tmp_path / "configs/r")
    (tmp_path / "longnovel.yaml").write_text(yaml.safe_dump(
        {"run_dir": "r", "corpus": [{"path": "c", "format": "dir", "language": "en"}]}))
    assert load_config().run_dir == str(tmp_path / "r")


def test_the_dataset_card_shows_paths_as_written(tmp_path, monkeypatch):
    config = project(tmp_path / "proj")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["build", "-c", str(config), "--no-progress"])
    assert result.exit_code == 0, result.output
    card = (tmp_path / "proj/runs/main/export/README.md").read_text(encoding="utf-8")
    assert "run_dir: ../runs/main" in card and "path: ../novels/en" in card
    assert str(tmp_path) not in card
