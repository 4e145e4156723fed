"""Shared entity lists for the injection tests, and the fake LLM server fixture."""

from __future__ import annotations

import pytest
from fake_llm import llm_server  # noqa: F401


def _entities(pairs):
    return [{"name": n, "type": t, "count": 5} for n, t in pairs]


@pytest.fixture
def en_entities():
    return _entities([("Elizabeth", "person"), ("Darcy", "person"), ("Jane", "person"),
                      ("Wickham", "person"), ("Pemberley", "place"), ("London", "place")])


@pytest.fixture
def zh_entities():
    return _entities([("宝玉", "person"), ("黛玉", "person"), ("袭人", "person"),
                      ("贾政", "person"), ("扬州", "place"), ("苏州", "place")])
