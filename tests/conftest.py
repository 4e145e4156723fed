"""Shared fixtures: the local OpenAI-compatible test servers (helpers/fake_llm.py) and the
builds several test files read (the fixture corpus, the embedded default), each made once for
the whole test run however many pytest-xdist workers ask for it; tests that change a run work
on copies of it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.arbitration import PROVIDERS, ScriptedModel
from helpers.builders import REPO, build, default_config, release_config
from helpers.fake_llm import FakeLLM


@pytest.fixture
def llm_server():
    """A started FakeLLM, stopped after the test."""
    server = FakeLLM().start()
    yield server
    server.stop()


@pytest.fixture
def servers():
    """One FakeLLM per arbitration model, each answering as its ScriptedModel ("b" thinks
    aloud)."""
    started = {name: FakeLLM().start() for name in PROVIDERS}
    for name, server in started.items():
        server.reply = ScriptedModel(name, think=name == "b")
    yield started
    for server in started.values():
        server.stop()


@pytest.fixture(scope="session")
def shared_tmp(tmp_path_factory) -> Path:
    """A folder every pytest-xdist worker of this test run shares (under xdist each worker has
    a base temp of its own, inside one folder of the run)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def build_once(shared: Path, name: str, make) -> Path:
    """``shared/name``, filled by ``make(folder)`` in the first worker to ask for it; the
    others wait for that worker and use its folder (read-only)."""
    from filelock import FileLock

    folder, done = shared / name, shared / f"{name}.done"
    with FileLock(str(shared / f"{name}.lock")):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


LONGNOVEL = str(Path(sys.executable).parent / "longnovel")


@pytest.fixture(scope="session")
def built_fixture(shared_tmp) -> Path:
    """The run directory of one fixture build, made once for the whole test run by the
    installed command, ``longnovel build --config configs/fixture.yaml --run-dir DIR`` from the
    repository, its stderr kept beside it as ``build.stderr`` (read-only: copy it before
    changing anything)."""
    def make(folder: Path) -> None:
        done = subprocess.run([LONGNOVEL, "build", "--config", "configs/fixture.yaml",
                               "--run-dir", str(folder / "run")], cwd=REPO,
                              capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode == 0, done.stderr
        (folder / "build.stderr").write_text(done.stderr, encoding="utf-8")

    return build_once(shared_tmp, "fixture-build", make) / "run"


@pytest.fixture(scope="session")
def default_build(shared_tmp) -> tuple[Path, Path]:
    """(config, run dir) of one build of the embedded default (every tier, both languages;
    books on two worker processes), made once for the whole test run (read-only)."""
    def make(folder: Path) -> None:
        build(default_config(folder, folder / "run", workers=2))

    folder = build_once(shared_tmp, "default-build", make)
    return folder / "run.yaml", folder / "run"


@pytest.fixture(scope="session")
def default_xl_alone(shared_tmp) -> Path:
    """The run directory of ``longnovel build --tier XL --run-dir DIR`` on the embedded default
    (no config named), run as a real subprocess from the repository, made once (read-only)."""
    def make(folder: Path) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "longnovel.cli", "build", "--tier", "XL", "--run-dir",
             str(folder / "run"), "--no-progress"], cwd=REPO, capture_output=True, text=True,
            timeout=600, check=False)
        assert done.returncode == 0, done.stderr

    return build_once(shared_tmp, "default-xl", make) / "run"


@pytest.fixture
def fixture_run(built_fixture, tmp_path):
    """(config path, run dir): a private copy of the fixture build, with its own config."""
    run_dir = tmp_path / "run"
    shutil.copytree(built_fixture, run_dir)
    (run_dir / "run.json").unlink(missing_ok=True)

    def make(**overrides) -> Path:
        return release_config(tmp_path, run_dir, **overrides)

    return make, run_dir
