"""Prompt templates: ``longnovel/prompts/<lang>/<name>.txt``, one per task and language."""

from __future__ import annotations

import hashlib
import re
from functools import cache
from importlib import resources


def prompt_language(language: str) -> str:
    """The template folder of a language: zh, or en for everything else."""
    return "zh" if language == "zh" else "en"


@cache
def load_prompt(name: str, language: str) -> str:
    """The text of ``prompts/<lang>/<name>.txt`` (read once), without trailing whitespace."""
    path = resources.files("longnovel") / "prompts" / prompt_language(language) / f"{name}.txt"
    return path.read_text(encoding="utf-8").rstrip()


def prompts_digest(prefix: str) -> str:
    """A hash of every template whose name starts with ``prefix``, in both languages, so that
    editing a prompt makes the stages that send it stale."""
    digest = hashlib.sha256()
    root = resources.files("longnovel") / "prompts"
    for language in ("en", "zh"):
        names = sorted(p.name for p in (root / language).iterdir()
                       if p.name.startswith(prefix) and p.name.endswith(".txt"))
        for name in names:
            digest.update(f"{language}/{name}\0".encode())
            digest.update((root / language / name).read_bytes())
    return digest.hexdigest()[:16]


def escape_tags(text: str, names: tuple[str, ...]) -> str:
    """``text`` to paste between a prompt's ``<name>`` tags, with any tag of those names inside
    it (``</summary>``, ``< Summary >``) written ``&lt;/summary>``: pasted text can then neither
    close its block nor open another. Text without such tags is returned unchanged."""
    pattern = _tag_pattern(names)
    return pattern.sub(lambda m: f"&lt;{m.group(1)}{m.group(2)}", text)


@cache
def _tag_pattern(names: tuple[str, ...]) -> re.Pattern:
    alternatives = "|".join(re.escape(name) for name in names)
    return re.compile(rf"<\s*(/?)\s*({alternatives})(?![\w-])", re.IGNORECASE)
