"""The generators of injected candidates: ``rules`` (offline) and ``llm``."""
