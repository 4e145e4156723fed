"""The offline, deterministic ``rules`` generator: one rule module per type, seeded choice."""

from __future__ import annotations

import hashlib
import random

from longnovel.injection.candidate import Candidate, Edit, NotApplicable
from longnovel.injection.ops import (
    causal,
    entity,
    event,
    fabrication,
    number,
    polarity,
    relation,
    temporal,
)
from longnovel.injection.ops.base import Draft
from longnovel.injection.wordcheck import acceptable

GENERATOR_NAME = "rules"
_MODULES = {"entity": entity, "number": number, "relation": relation, "polarity": polarity,
            "event": event, "temporal": temporal, "causal": causal, "fabrication": fabrication}
_NOT_APPLICABLE = {
    "entity": "no pronoun with a known antecedent, no pair of characters, no swappable name",
    "number": "no number, date or time expression",
    "relation": "no relationship or kinship word",
    "polarity": "no negatable or negated statement",
    "event": "no action or outcome from the contrast lexicon",
    "temporal": "fewer than two ordered event sentences",
    "causal": "no sequential pair of events or cause-effect pair",
    "fabrication": "no named character to attach an invented event to",
}


class RulesGenerator:
    """Rewrites a summary with one hallucination of a given type, deterministically.

    The same (seed, summary, type, attempt) always gives the same candidate; another attempt
    moves to another sub-type and then to another sentence."""

    def __init__(self, seed: int):
        self.seed = seed

    def generate(self, summary: str, language: str, entities: list[dict], type_id: str,
                 attempt: int = 0) -> Candidate | NotApplicable:
        if type_id not in _MODULES:
            raise ValueError(f"unknown hallucination type {type_id!r}")
        draft = Draft(summary, language, list(entities))
        if not draft.sentences:
            return NotApplicable(type_id, "empty summary")
        edits = _unique(_MODULES[type_id].edits(draft))
        edit = seeded_choice(edits, self.seed, type_id, summary, attempt,
                             accept=lambda e: acceptable(draft, e))
        if edit is None:
            return NotApplicable(type_id, _NOT_APPLICABLE[type_id])
        return Candidate(type_id, edit.subtype, summary, edit.apply(summary),
                         edit.original_span, edit.hallucinated_span, GENERATOR_NAME)


def seeded_choice(options: list, seed: int, type_id: str, summary: str, attempt: int,
                  accept=None):
    """The option (anything with a ``subtype``) to use on this attempt, or None: sub-types in
    a seeded order, cycled by attempt; within one, a seeded order of places. Shared by the
    rules and the LLM generator, so both try the same places in the same order.

    ``accept`` (an option -> bool check) is asked lazily: of each sub-type only until one
    option passes, and of the chosen sub-type's places, so a summary with thousands of
    possible edits costs a few checks, not thousands."""
    accept = accept or (lambda option: True)
    rng = random.Random(_digest(seed, type_id, summary))
    by_subtype: dict[str, list] = {}
    for option in options:
        by_subtype.setdefault(option.subtype, []).append(option)
    order = sorted(by_subtype)
    rng.shuffle(order)
    for subtype in order:
        rng.shuffle(by_subtype[subtype])
    order = [subtype for subtype in order if any(accept(o) for o in by_subtype[subtype])]
    if not order:
        return None
    wanted, places = attempt // len(order), []
    for option in by_subtype[order[attempt % len(order)]]:
        if accept(option):
            if len(places) == wanted:
                return option
            places.append(option)
    return places[wanted % len(places)]


def _unique(edits: list[Edit]) -> list[Edit]:
    seen, out = set(), []
    for edit in edits:
        key = (edit.subtype, edit.start, edit.end, edit.text)
        if key not in seen:
            seen.add(key)
            out.append(edit)
    return out


def _digest(*parts) -> int:
    text = "\x00".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
