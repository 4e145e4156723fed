"""The rule modules, one per hallucination type, and what each offers the generator."""

from __future__ import annotations

from typing import Protocol

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules import (
    causal,
    entity,
    event,
    fabrication,
    number,
    polarity,
    relation,
    temporal,
)
from longnovel.injection.generators.rules.draft import Draft


class TypeRule(Protocol):
    """A rule module: every edit of its type that ``draft`` allows, with its sub-type (the
    generator checks, ranks and chooses among them)."""

    def edits(self, draft: Draft) -> list[Edit]: ...


RULE_MODULES: dict[str, TypeRule] = {
    "entity": entity, "number": number, "relation": relation, "polarity": polarity,
    "event": event, "temporal": temporal, "causal": causal, "fabrication": fabrication}
