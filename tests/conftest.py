"""Shared fixtures. The local OpenAI-compatible test server lives in fake_llm.py."""
