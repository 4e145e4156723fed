"""Fixtures of the LLM layer's tests: the fake server and a cheap tokenizer."""

from __future__ import annotations

import pytest
from fake_llm import llm_server  # noqa: F401
from llm_helpers import WordTokenizer


@pytest.fixture
def word_tokenizer():
    return WordTokenizer()
