"""Helpers shared by the tests: corpus and config builders, the fake OpenAI-compatible server,
the scripted models and configs of the LLM, arbitration and evaluation tests, and the windows,
stage context and model stand-ins of the injection tests (no test imports another test
module). Fixtures that use them are in tests/conftest.py."""
