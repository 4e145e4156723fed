"""Fixtures of the arbitration tests: one scripted local server per model."""

from __future__ import annotations

import pytest
from arbitration_helpers import PROVIDERS, ScriptedModel
from fake_llm import FakeLLM


@pytest.fixture
def servers():
    """One FakeLLM per model, each answering as its ScriptedModel ("b" thinks aloud)."""
    started = {name: FakeLLM().start() for name in PROVIDERS}
    for name, server in started.items():
        server.reply = ScriptedModel(name, think=name == "b")
    yield started
    for server in started.values():
        server.stop()
