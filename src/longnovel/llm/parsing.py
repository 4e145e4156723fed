"""Lenient parsing of model replies: <think> blocks, code fences, broken JSON, schema checks."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ValidationError

THINK_BLOCK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
THINK_CLOSE = re.compile(r"</think>", re.IGNORECASE)
THINK_OPEN = re.compile(r"<think>", re.IGNORECASE)
FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)


class ReplyError(ValueError):
    """A reply that cannot be used; ``reason`` is ``empty``, ``bad_json`` or ``schema``."""

    def __init__(self, reason: str, message: str):
        self.reason = reason
        super().__init__(message)


def strip_think(text: str) -> str:
    """Remove reasoning blocks, including an unclosed one and a close tag without its opening.

    Qwen3 chat templates may put ``<think>`` in the prompt, so a reply can start mid-thought
    and only carry ``</think>``; everything before the last close tag is reasoning then.
    """
    text = THINK_BLOCK.sub("", text)
    closes = list(THINK_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end() :]
    opening = THINK_OPEN.search(text)
    if opening:
        text = text[: opening.start()]
    return text.strip()


def json_candidate(text: str) -> str:
    """The part of a reply most likely to hold the JSON value."""
    fenced = FENCE.search(text)
    if fenced:
        return fenced.group(1).strip()
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if not starts:
        return text
    start = min(starts)
    end = max(text.rfind("}"), text.rfind("]"))
    return text[start : end + 1] if end > start else text[start:]


def load_json_lenient(text: str) -> Any:
    """Parse JSON from a reply, repairing trailing commas, quotes and truncation."""
    import json_repair

    candidate = json_candidate(strip_think(text))
    if not candidate.strip():
        raise ReplyError("empty", "the reply is empty")
    value = json_repair.loads(candidate)
    if not isinstance(value, (dict, list)):
        raise ReplyError("bad_json", "no JSON object found in the reply")
    return value


def parse_json_reply(text: str, schema: Any = None) -> Any:
    """Parse a reply into ``schema`` (a pydantic model), a ``dict``, or any JSON value (None).

    Raises ReplyError with reason ``empty``, ``bad_json`` or ``schema``.
    """
    value = load_json_lenient(text)
    if schema is None:
        return value
    if schema is dict:
        if not isinstance(value, dict):
            raise ReplyError("schema", "expected a JSON object")
        return value
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
        value = value[0]
    return validate(value, schema)


def validate(value: Any, schema: type[BaseModel]) -> BaseModel:
    """Validate a parsed JSON value against a pydantic model."""
    try:
        return schema.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "reply"
        raise ReplyError("schema", f"{where}: {first.get('msg', 'invalid')}") from exc
