"""Fixtures of the evaluation tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def eval_key(monkeypatch):
    monkeypatch.setenv("LN_TEST_EVAL_KEY", "sk-test")
