"""The offline, deterministic ``rules`` generator: one rule module per type, seeded choice."""

from __future__ import annotations

import hashlib
import random
from collections import Counter, OrderedDict
from collections.abc import Collection
from dataclasses import replace

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
from longnovel.injection.script import is_traditional, to_traditional
from longnovel.injection.text import all_capitals, changed_parts, word_change
from longnovel.injection.wordcheck import acceptable
from longnovel.taxonomy import TYPES

GENERATOR_NAME = "rules"
# Types whose sub-types undo each other (polarity: negate / affirm): a generator that mostly
# adds negations teaches a classifier that "not"/没有 means injected. Their sub-type used least
# so far (per language) goes first wherever a summary offers both.
BALANCED_TYPES = frozenset({"polarity"})  # negate / affirm
# ... and a sub-type this many uses ahead of the least used one is not used again until the
# other catches up: summaries that state few negations can otherwise only gain them, and "the
# summary with one more 'not' is the injected one" answers the pair without the article.
BALANCE_SLACK = 2
# Within a sub-type, of this many places (the first that pass the checks, in the seeded order)
# the one whose words keep the run's word flow most even goes first: a word every edit brings
# in ("declined", 回绝, "aunt") is what an article-free classifier learns, and one brought in
# as often as it is taken out tells nothing.
FLOW_PLACES = 8
REGION_SENTENCES = 40  # sentences of a long summary the rules look at for one type
RULE_MODULES = {"entity": entity, "number": number, "relation": relation, "polarity": polarity,
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
        self._drafts: OrderedDict = OrderedDict()  # the last summaries' drafts, for every type
        self.subtype_counts: dict[tuple[str, str], Counter] = {}  # (language, type) -> uses
        # (language, type) -> word -> times brought in minus times taken out, so far
        self.word_flow: dict[tuple[str, str], Counter] = {}

    def generate(self, summary: str, language: str, entities: list[dict], type_id: str,
                 attempt: int = 0, tried: Collection[str] = ()) -> Candidate | NotApplicable:
        """``tried``: the rewritten summaries of this job's earlier attempts, not offered again
        while the sub-type has another place (the word flow reorders the places between
        attempts, so an attempt's index alone no longer keeps them apart)."""
        if type_id not in RULE_MODULES:
            raise ValueError(f"unknown hallucination type {type_id!r}")
        draft = self._draft(summary, language, entities)
        if not draft.sentences:
            return NotApplicable(type_id, "empty summary")
        edit = self._pick(draft, type_id, attempt, tried, region=True)
        if edit is None and len(draft.sentences) > REGION_SENTENCES:
            edit = self._pick(draft, type_id, attempt, tried, region=False)
        if edit is None:
            if self._capped(language, type_id):
                return NotApplicable(type_id, f"{_NOT_APPLICABLE[type_id]} that keeps its "
                                     f"sub-types within {BALANCE_SLACK} of each other")
            return NotApplicable(type_id, _NOT_APPLICABLE[type_id])
        if type_id in BALANCED_TYPES:
            self.subtype_counts.setdefault((language, type_id), Counter())[edit.subtype] += 1
        removed, added = _edit_words(draft, edit)
        flow = self.word_flow.setdefault((language, type_id), Counter())
        flow.update(added)
        flow.subtract(removed)
        return Candidate(type_id, edit.subtype, summary, edit.apply(summary),
                         edit.original_span, edit.hallucinated_span, GENERATOR_NAME)

    def _pick(self, draft: Draft, type_id: str, attempt: int, tried: Collection[str],
              region: bool) -> Edit | None:
        """The edit for this attempt, looked for in the type's region of the summary (or in
        all of it), checked against the whole summary."""
        part, offset = self._region(draft, type_id) if region else (draft, 0)
        edits = part.memo(("edits", type_id), lambda: _unique(RULE_MODULES[type_id].edits(part)))
        used = self.subtype_counts.get((draft.language, type_id)) \
            if type_id in BALANCED_TYPES else None
        capped = self._capped(draft.language, type_id)
        flow = self.word_flow.get((draft.language, type_id))
        edit = seeded_choice(edits, self.seed, type_id, draft.summary, attempt,
                             accept=lambda e: e.subtype not in capped and acceptable(
                                 draft, restyled(draft, e.shifted(offset))),
                             used=used,
                             rank=(lambda e: _flow_cost(flow, *_edit_words(part, e))) if flow
                             else None,
                             avoid=(lambda e: restyled(draft, e.shifted(offset)).apply(
                                 draft.summary) in tried) if tried else None)
        return restyled(draft, edit.shifted(offset)) if edit else None

    def _capped(self, language: str, type_id: str) -> set[str]:
        """The sub-types of a balanced type that are ``BALANCE_SLACK`` uses ahead of another."""
        if type_id not in BALANCED_TYPES:
            return set()
        used = self.subtype_counts.get((language, type_id), Counter())
        subtypes = TYPES[type_id]["subtypes"]
        least = min(used[s] for s in subtypes)
        return {s for s in subtypes if used[s] - least >= BALANCE_SLACK}

    def _region(self, draft: Draft, type_id: str) -> tuple[Draft, int]:
        """A seeded run of ``REGION_SENTENCES`` sentences of a long summary, as a draft of its
        own, and its offset (the whole draft when the summary is shorter). Only one edit is
        wanted, and the rule modules' work grows with a summary's sentences (some with their
        square): a 100k-token window's summary has 500 sentences or more."""
        n = len(draft.sentences)
        if n <= REGION_SENTENCES:
            return draft, 0

        def cut() -> tuple[Draft, int]:
            first = random.Random(_digest(self.seed, type_id, draft.summary, "region")).randrange(
                n - REGION_SENTENCES + 1)
            start, end = draft.spans[first][0], draft.spans[first + REGION_SENTENCES - 1][1]
            return Draft(draft.summary[start:end], draft.language, draft.entities), start

        return draft.memo(("region", type_id), cut)

    def _draft(self, summary: str, language: str, entities: list[dict]) -> Draft:
        """One draft per summary and entity list, shared by the eight types and the attempts
        (its memo keeps what the rule modules computed)."""
        key = (summary, language, id(entities))
        hit = self._drafts.get(key)
        if hit is not None and hit[0] is entities:
            self._drafts.move_to_end(key)
            return hit[1]
        draft = Draft(summary, language, list(entities))
        self._drafts[key] = (entities, draft)  # the list is held, so its id is not reused
        if len(self._drafts) > 32:
            self._drafts.popitem(last=False)
        return draft


def restyled(draft: Draft, edit: Edit) -> Edit:
    """``edit`` written like the text around it: the new words of an all-capitals sentence in
    capitals (chapter headings, "HIS MASTER" -> "HIS FATHER", not "HIS Father"), and the new
    characters of a summary in traditional characters in traditional ones (the lexicons and
    jieba are simplified: 表兄 in a 繁體 summary gives the change away)."""
    old = draft.summary[edit.start : edit.end] or _sentence_before(draft, edit.start)
    convert = None
    if draft.zh:
        if draft.memo("traditional", lambda: is_traditional(draft.summary)):
            convert = to_traditional
    elif all_capitals(old):
        convert = str.upper
    if convert is None:
        return edit
    replaced = draft.summary[edit.start : edit.end]
    a, _, b = changed_parts(replaced, edit.text)
    new_part = convert(edit.text[a:b])
    if len(new_part) != b - a or new_part == edit.text[a:b]:
        return edit
    text = edit.text[:a] + new_part + edit.text[b:]
    at = edit.text.find(edit.hallucinated_span) if edit.hallucinated_span else -1
    span = text[at : at + len(edit.hallucinated_span)] if at >= 0 else edit.hallucinated_span
    return replace(edit, text=text, hallucinated_span=span)


def _sentence_before(draft: Draft, position: int) -> str:
    before = [s for (start, end), s in zip(draft.spans, draft.sentences) if end <= position]
    return before[-1] if before else ""


def _edit_words(draft: Draft, edit: Edit) -> tuple[list[str], list[str]]:
    """(removed, added) words of ``edit`` to ``draft``'s summary."""
    return word_change(draft.summary[edit.start : edit.end], edit.text, draft.zh)


def _flow_cost(flow: Counter, removed: list[str], added: list[str]) -> int:
    """How much less even the word flow gets: the words brought in that earlier edits brought
    in, less those taken out that earlier edits brought in."""
    return sum(flow[w] for w in added) - sum(flow[w] for w in removed)


def seeded_choice(options: list, seed: int, type_id: str, summary: str, attempt: int,
                  accept=None, used: Counter | None = None, rank=None, avoid=None):
    """The option (anything with a ``subtype``) to use on this attempt, or None: sub-types in
    a seeded order, cycled by attempt; within one, a seeded order of places. Shared by the
    rules and the LLM generator, so both try the same places in the same order.

    ``accept`` (an option -> bool check) is asked lazily: of each sub-type only until one
    option passes, and of the chosen sub-type's places, so a summary with thousands of
    possible edits costs a few checks, not thousands.

    ``used`` (sub-type -> times chosen so far) puts the least used sub-types first, the seeded
    order breaking ties. ``rank`` (an option -> number) orders the first ``FLOW_PLACES`` places
    that pass, lowest first, the seeded order breaking ties; the lowest not to ``avoid`` (an
    option -> bool check: an earlier attempt's) is the choice. Without ``used``, ``rank`` also
    orders the sub-types, by their first place. Without ``rank``, a later attempt takes a later
    place."""
    accept = accept or (lambda option: True)
    rng = random.Random(_digest(seed, type_id, summary))
    by_subtype: dict[str, list] = {}
    for option in options:
        by_subtype.setdefault(option.subtype, []).append(option)
    order = sorted(by_subtype)
    rng.shuffle(order)
    for subtype in order:
        rng.shuffle(by_subtype[subtype])
    first = {}
    for subtype in order:
        first[subtype] = next((o for o in by_subtype[subtype] if accept(o)), None)
    order = [subtype for subtype in order if first[subtype] is not None]
    if not order:
        return None
    if used:
        order.sort(key=lambda subtype: used[subtype])  # stable: ties keep the seeded order
    elif rank:  # the sub-type whose first place keeps the word flow most even goes first
        order.sort(key=lambda subtype: rank(first[subtype]))
    wanted, places = attempt // len(order), []
    if rank:
        fresh = []
        for option in by_subtype[order[attempt % len(order)]]:
            if accept(option):
                places.append(option)
                if not (avoid and avoid(option)):
                    fresh.append(option)
                    if len(fresh) == FLOW_PLACES:
                        break
        return min(fresh, key=rank) if fresh else places[wanted % len(places)]
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
