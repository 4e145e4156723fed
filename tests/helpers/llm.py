"""Shared helpers of the LLM tests."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from longnovel.llm import LLMRunner, ModelConfig, Request

PROVIDERS = ["openai", "zhipuai"]


class WordTokenizer:
    """Counts words: a fast, predictable stand-in for the Qwen3 tokenizer."""

    def count(self, text: str) -> int:
        return len(text.split())

    def count_batch(self, texts: list[str]) -> list[int]:
        return [len(t.split()) for t in texts]


class Judgment(BaseModel):
    """A small schema like the judges' replies."""

    score: int = Field(ge=0, le=5)
    reason: str


def model_config(server, provider: str, **overrides) -> ModelConfig:
    settings = {
        "provider": provider,
        "model": "fake-model",
        "base_url": server.base_url,
        "max_concurrency": 4,
        "timeout_s": 5.0,
        "max_retries": 3,
    }
    settings.update(overrides)
    return ModelConfig(**settings)


def make_runner(server, tmp_path: Path, provider: str, tokenizer, **overrides) -> LLMRunner:
    models = {"m": model_config(server, provider, **overrides)}
    return LLMRunner(
        models,
        tmp_path / "cache.sqlite",
        tokenizer,
        "test",
        progress=False,
        retry_initial_s=0.01,
        retry_max_s=0.05,
    )


def requests(n: int, schema=None, prefix: str = "prompt", group_size: int = 1) -> list[Request]:
    return [
        Request(
            key=f"r{i}",
            model="m",
            schema=schema,
            group=f"g{i // group_size}",
            messages=[{"role": "user", "content": f"{prefix} number {i}"}],
        )
        for i in range(n)
    ]
