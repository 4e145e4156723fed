"""Shared fixtures: the local OpenAI-compatible test servers (helpers/fake_llm.py) and a built
run of the fixture corpus, made once per session; tests work on copies of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers.arbitration import PROVIDERS, ScriptedModel
from helpers.builders import build, release_config
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
