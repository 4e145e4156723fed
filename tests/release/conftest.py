"""A built run of the fixture corpus, made once per session; tests work on copies of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from builders import REPO


def release_config(tmp: Path, run_dir: Path, **overrides) -> Path:
    """configs/fixture.yaml with absolute corpus paths and run dir and cache inside ``tmp``."""
    data = yaml.safe_load((REPO / "configs/fixture.yaml").read_text(encoding="utf-8"))
    for source in data["corpus"]:
        source["path"] = str(REPO / source["path"])
    data.update(run_dir=str(run_dir), cache=str(tmp / "cache.sqlite"), **overrides)
    path = tmp / "config.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def build(config: Path, **kwargs) -> None:
    from longnovel.config import load_config
    from longnovel.pipeline import Pipeline

    Pipeline(load_config(config), progress=False).build(log=lambda m: None, **kwargs)


@pytest.fixture(scope="session")
def built_fixture(tmp_path_factory) -> Path:
    """The run directory of one fixture build (read-only: copy it before changing anything)."""
    tmp = tmp_path_factory.mktemp("fixture-build")
    config = release_config(tmp, tmp / "run")
    build(config)
    return tmp / "run"


@pytest.fixture
def fixture_run(built_fixture, tmp_path):
    """(config path, run dir): a private copy of the fixture build, with its own config."""
    run_dir = tmp_path / "run"
    shutil.copytree(built_fixture, run_dir)
    (run_dir / "run.json").unlink(missing_ok=True)

    def make(**overrides) -> Path:
        return release_config(tmp_path, run_dir, **overrides)

    return make, run_dir
