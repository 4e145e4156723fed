"""Helpers of the arbitration tests: three scripted models (one reached through the zhipuai
SDK), a small two-language corpus and its config."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from helpers.builders import english_units, write_config, write_dir_book

# provider of each model; "b" goes through the zhipuai SDK
PROVIDERS = {"a": "openai", "b": "zhipuai", "c": "openai"}
# (judge, author) -> (score, types); every other pair scores 4
SCRIPT = {
    ("b", "a"): (1, ["Entity error", "事件错误"]),
    ("c", "a"): (2, ["entity", "Fictional Event"]),
    ("a", "b"): (4, []),
    ("c", "b"): (5, ["entity"]),  # types given with a score >= 3 are dropped
    ("a", "c"): (2, ["number", "misattribution"]),
    ("b", "c"): (4, []),
}
ARTICLE = re.compile(r"<article>\n(.*?)\n</article>", re.DOTALL)
SUMMARY = re.compile(r"<summary>\n(.*?)\n</summary>", re.DOTALL)
AUTHOR = re.compile(r"^Summary by (\w+)")


def scripted_summary(model: str, article: str) -> str:
    digest = hashlib.sha256(article.encode("utf-8")).hexdigest()[:8]
    return f"Summary by {model} of article {digest}: the ferry crossed the river."


class ScriptedModel:
    """A model's replies: a unique summary per window, and judgments from SCRIPT."""

    def __init__(self, name: str, think: bool = False):
        self.name = name
        self.think = think

    def __call__(self, messages: list[dict]) -> str:
        user = messages[-1]["content"]
        checked = SUMMARY.search(user)
        if checked is None:
            reply = scripted_summary(self.name, ARTICLE.search(user).group(1))
        else:
            found = AUTHOR.match(checked.group(1))
            author = found.group(1) if found else "?"
            unscripted = (4, []) if found else (0, ["fabrication"])  # garbled: unrelated
            score, types = SCRIPT.get((self.name, author), unscripted)
            reply = json.dumps({"score": score, "hallucination_types": types,
                                "reason": f"{self.name} on {author}: checked."})
        return f"<think>\nLet me read it.\n</think>\n\n{reply}" if self.think else reply


def total_requests(servers: dict) -> int:
    return sum(server.count() for server in servers.values())


def write_corpus(tmp: Path) -> list[dict]:
    """8 English and 5 Chinese one-unit windows (tier T = 60 tokens)."""
    write_dir_book(tmp / "en", "ferry", english_units(8))
    zh = {i: (f"第{i}章。他们在渡口等了三天。\n\n“船什么时候来？”她问。" * 3,
              f"第{i}段摘要：渡船来了{i}次。") for i in range(1, 6)}
    write_dir_book(tmp / "zh", "dukou", zh)
    return [{"path": str(tmp / "en"), "format": "dir", "language": "en"},
            {"path": str(tmp / "zh"), "format": "dir", "language": "zh"}]


def model_entries(servers: dict, key_env: dict | None = None, **settings) -> dict:
    entries = {}
    for name, server in servers.items():
        entries[name] = {"provider": PROVIDERS[name], "model": f"fake-{name}",
                         "base_url": server.base_url, "max_concurrency": 2, "timeout_s": 10,
                         "max_retries": 2, **settings}
        if key_env:
            entries[name]["api_key_env"] = key_env[name]
    return entries


def arbitration_config(tmp: Path, servers: dict, key_env=None, arbitrate=None, **settings) -> Path:
    names = sorted(servers)
    section = {"summarizers": names, "judges": names, "use_reference": True,
               "rule": "majority", "max_windows_per_tier": 6, **(arbitrate or {})}
    return write_config(tmp, write_corpus(tmp), models=model_entries(servers, key_env, **settings),
                        arbitrate=section,
                        inject={"types_per_window": 1},
                        export={"mix": None})  # every sample, to check labels against samples
