"""Shared helpers of the evaluation tests: the release-format fixture and configs."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from helpers.builders import REPO

RELEASE_SAMPLE = REPO / "tests/data/release_sample.jsonl"
# the fixture's articles count 125 and 149 (short) and 197 (long) Qwen3 tokens
FIXTURE_TIERS = {"tiers": {"short": 130, "long": 200}, "window": {"below": 10, "above": 20}}
TYPES_BY_ID = {
    "rel-zh-1-1": ["number"], "rel-zh-1-2": ["temporal"], "rel-zh-1-3": ["fabrication"],
    "rel-en-1-1": ["number"], "rel-en-1-2": ["relation"], "rel-en-1-3": ["polarity"],
    "rel-en-2-1": ["temporal"], "rel-en-2-2": ["causal"], "rel-en-2-3": ["fabrication", "unknown"],
}


class WordTokenizer:
    """Counts words: a predictable stand-in for the Qwen3 tokenizer."""

    def count_batch(self, texts: list[str]) -> list[int]:
        return [len(t.split()) for t in texts]


def release_rows() -> list[dict]:
    return [json.loads(line) for line in RELEASE_SAMPLE.read_text(encoding="utf-8").splitlines()]


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def detector(server, name: str = "judge", model_id: str = "judge-1", **extra) -> dict:
    """A model entry for the fake server (one request at a time unless told otherwise)."""
    return {name: {"provider": "openai", "model": model_id, "base_url": server.base_url,
                   "api_key_env": "LN_TEST_EVAL_KEY", "max_retries": 0,
                   "context_window": 200000, "max_concurrency": 1, **extra}}


def data_config(tmp: Path, models: dict) -> Path:
    """A config for ``--data`` runs: the fixture tiers, run dir and cache in ``tmp``."""
    config = {"run_dir": str(tmp / "run"), "cache": str(tmp / "cache.sqlite"),
              "corpus": [{"path": str(REPO / "data/raw/sample/zh"), "format": "dir",
                          "language": "zh"}],
              "models": models, **FIXTURE_TIERS}
    path = tmp / "config.yaml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


def gold_of(messages: list[dict], rows: list[dict]) -> dict:
    """The release row a request is about (by its summary, in either order)."""
    user = messages[-1]["content"]
    return next(r for r in rows if r["input"] == user or
                (r["summary"] in user and user.index(r["summary"]) < user.index(r["article"])))
