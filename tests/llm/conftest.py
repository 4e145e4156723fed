"""Fixtures of the LLM layer's tests: a cheap tokenizer (the fake server is in tests/conftest)."""

from __future__ import annotations

import pytest
from helpers.llm import WordTokenizer


@pytest.fixture
def word_tokenizer():
    return WordTokenizer()
