"""Shared entity lists for the injection tests (the fake LLM server is in tests/conftest)."""

from __future__ import annotations

import pytest


def _entities(pairs):
    return [{"name": n, "type": t, "count": 5} for n, t in pairs]


@pytest.fixture
def en_entities():
    return _entities([("Wren", "person"), ("Orrin", "person"), ("Mabry", "person"),
                      ("Jory", "person"), ("Port Callow", "place"), ("Harrowmere", "place")])


@pytest.fixture
def zh_entities():
    return _entities([("小满", "person"), ("青禾", "person"), ("韩石", "person"),
                      ("顾衡山", "person"), ("临川府", "place"), ("青砚镇", "place")])
