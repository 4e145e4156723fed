"""Shared fixtures. The local OpenAI-compatible test server lives in fake_llm.py."""

from fake_llm import llm_server  # noqa: F401
