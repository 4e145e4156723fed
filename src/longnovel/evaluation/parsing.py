"""Detector replies: a score 0-5 and hallucination types, parsed leniently.

A reply is read as JSON (code fences, ``<think>`` blocks and broken JSON repaired; the last
object holding a ``score`` when reasoning comes first), else a ``score`` found in the text. A
reply without a usable score is a failure, kept with its raw text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from longnovel.taxonomy import is_hallucinated, normalize_types, split_type_names

SCORE_IN_TEXT = re.compile(r"score\W{0,5}([0-5])\b", re.IGNORECASE)
LAST_OBJECT = re.compile(r"\{[^{}]*\}", re.DOTALL)


@dataclass
class Prediction:
    """A parsed detector reply; ``error`` names why it could not be used."""

    score: int | None = None
    types: list[str] = field(default_factory=list)
    error: str | None = None
    raw: str = ""

    @property
    def usable(self) -> bool:
        return self.error is None


def _json_object(text: str) -> dict | None:
    from longnovel.llm import ReplyError, parse_json_reply, strip_think

    try:
        value = parse_json_reply(text, dict)
        if "score" in value:
            return value
    except ReplyError:
        pass
    for block in reversed(LAST_OBJECT.findall(strip_think(text))):  # reasoning, then JSON
        try:
            value = parse_json_reply(block, dict)
        except ReplyError:
            continue
        if "score" in value:
            return value
    return None


def parse_score(value) -> int | None:
    """An integer score 0-5 from a number or a text holding one; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return round(value) if 0 <= value <= 5 else None
    found = re.search(r"-?\d+(?:\.\d+)?", str(value))
    return parse_score(float(found.group())) if found else None


def type_names(value) -> list[str]:
    """The raw type names of a list, or of a text listing them ("entity, 时序错乱")."""
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    return [name for item in items for name in split_type_names(str(item))]


def parse_types(value) -> tuple[list[str], list[str]]:
    """Type ids (``unknown`` for names that do not map) and the raw names that did not map."""
    return normalize_types(type_names(value))


def parse_judgment(text: str) -> Prediction:
    """Score and types from a detector reply, leniently; types only when the score is below 3."""
    obj = _json_object(text)
    if obj is None:
        found = SCORE_IN_TEXT.search(text)
        if not found:
            return Prediction(error="no_score", raw=text)
        return Prediction(score=int(found.group(1)), raw=text)
    score = parse_score(obj.get("score"))
    if score is None:
        return Prediction(error="bad_score", raw=text)
    named = obj.get("hallucination_types", obj.get("types"))
    types = parse_types(named)[0] if is_hallucinated(score) else []
    return Prediction(score=score, types=types, raw=text)
