"""Helpers shared by the tests: corpus and config builders, the fake OpenAI-compatible server,
and the scripted models and configs of the LLM, arbitration and evaluation tests. Fixtures that
use them are in tests/conftest.py."""
