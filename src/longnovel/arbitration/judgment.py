"""A judge's reply: the schema the runner validates against, and the judgment row it becomes."""

from __future__ import annotations

import math
import re
from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator, model_validator

from longnovel.taxonomy import HALLUCINATED_BELOW, normalize_types, split_type_names

_FIRST_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def round_half_down(value: float) -> int:
    """``value`` rounded to an integer, halves going down (2.5 -> 2)."""
    return math.ceil(value - 0.5)


class JudgeReply(BaseModel):
    """The JSON object a judge is asked for, read leniently (aliases, strings, stray fields)."""

    model_config = ConfigDict(extra="ignore")

    score: int = Field(ge=0, le=5)
    hallucination_types: list[str] = Field(
        default_factory=list,
        validation_alias=AliasChoices("hallucination_types", "types", "hallucinations",
                                      "hallucination_type"))
    reason: str = Field("", validation_alias=AliasChoices("reason", "explanation", "rationale"))

    @field_validator("score", mode="before")
    @classmethod
    def _score_number(cls, value: Any) -> Any:
        """Accept ``"2"``, ``"2/5"``, ``2.0``; a fraction is rounded half down."""
        if isinstance(value, str):
            found = _FIRST_NUMBER.search(value)
            value = found.group(0) if found else value
        try:
            return round_half_down(float(value))
        except (TypeError, ValueError):
            return value

    @field_validator("hallucination_types", mode="before")
    @classmethod
    def _type_list(cls, value: Any) -> Any:
        if value is None:
            return []
        if isinstance(value, str):
            return split_type_names(value)
        if isinstance(value, list):
            return [_type_name(item) for item in value if _type_name(item)]
        return value

    @field_validator("reason", mode="before")
    @classmethod
    def _reason_text(cls, value: Any) -> Any:
        return "" if value is None else str(value)

    @model_validator(mode="after")
    def _usable_as_gold(self):
        """A judgment becomes a gold label: it needs a reason, and a hallucinated score needs
        the types it found (otherwise the release invariant could not hold)."""
        if not self.reason.strip():
            raise ValueError("the judgment gives no reason")
        if self.score < HALLUCINATED_BELOW and not self.hallucination_types:
            raise ValueError("a score below 3 names no hallucination type")
        return self


def _type_name(item: Any) -> str:
    """A type entry as text; ``{"type": "entity", ...}`` objects give their type."""
    if isinstance(item, dict):
        item = item.get("type") or item.get("id") or item.get("name") or ""
    return str(item).strip()


def judgment_fields(reply: JudgeReply) -> dict:
    """Score, type ids (only below 3; unmappable names kept as ``unknown`` plus their raw text)
    and reason of a parsed reply."""
    types: list[str] = []
    unknown: list[str] = []
    if reply.score < HALLUCINATED_BELOW:
        types, unknown = normalize_types(reply.hallucination_types)
    return {"score": reply.score, "hallucination_types": types, "unknown_types": unknown,
            "reason": reply.reason.strip()}
