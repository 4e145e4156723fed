"""The offline, deterministic ``rules`` generator: one rule module per type, seeded choice."""

from __future__ import annotations

import bisect
import hashlib
import random
from collections import Counter, OrderedDict
from collections.abc import Collection
from dataclasses import replace

from longnovel.injection.candidate import Candidate, Edit, NotApplicable
from longnovel.injection.ledger import Counts, Ledger, change
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
from longnovel.injection.text import all_capitals, changed_parts
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
# Of this many places (the first that pass the checks, taken from the sub-types in turn, in
# their seeded order) the one that keeps the run's ledger closest to zero is taken: what every
# edit brings in ("does not", "declined", 回绝, a sentence more) is what an article-free
# classifier learns, and what is brought in as often as it is taken out tells nothing.
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

    def __init__(self, seed: int, vocabularies: dict | None = None):
        self.seed = seed
        self._drafts: OrderedDict = OrderedDict()  # the last summaries' drafts, for every type
        self.subtype_counts: dict[tuple[str, str], Counter] = {}  # (language, type) -> uses
        # what the edits so far did to the summaries' n-gram profile (see ledger.py)
        self.ledger = Ledger()
        # book -> the words of its unit summaries (``Vocabulary``), from the caller that knows
        # them: stand-ins are then drawn from the words the book's writer uses
        self.vocabularies: dict[str, object] = vocabularies or {}

    def generate(self, summary: str, language: str, entities: list[dict], type_id: str,
                 attempt: int = 0, tried: Collection[str] = (),
                 book: str = "") -> Candidate | NotApplicable:
        """``tried``: the rewritten summaries of this job's earlier attempts, not offered again
        while the sub-type has another place (the ledger reorders the places between
        attempts, so an attempt's index alone no longer keeps them apart). ``book``: the book
        the summary belongs to, whose sums in the ledger the edit is balanced against."""
        if type_id not in RULE_MODULES:
            raise ValueError(f"unknown hallucination type {type_id!r}")
        draft = self._draft(summary, language, entities, self.vocabularies.get(book))
        if not draft.sentences:
            return NotApplicable(type_id, "empty summary")
        key = (book, language, type_id)  # the sums of the ledger this job is balanced against
        edit = self._pick(draft, type_id, attempt, tried, key, region=True)
        if edit is None and len(draft.sentences) > REGION_SENTENCES:
            edit = self._pick(draft, type_id, attempt, tried, key, region=False)
        if edit is None:
            if self._capped(language, type_id):
                return NotApplicable(type_id, f"{_NOT_APPLICABLE[type_id]} that keeps its "
                                     f"sub-types within {BALANCE_SLACK} of each other")
            return NotApplicable(type_id, _NOT_APPLICABLE[type_id])
        trace = (key, edit.subtype, self._delta(draft, edit))
        self._record(*trace, sign=1)
        return Candidate(type_id, edit.subtype, summary, edit.apply(summary),
                         edit.original_span, edit.hallucinated_span, GENERATOR_NAME, trace)

    def withdraw(self, outcome) -> None:
        """Take a candidate that will not be used (rejected by the validator or the verifier)
        back out of the run state that ``generate`` recorded it in; anything else (a
        ``NotApplicable``, another generator's candidate, one already withdrawn) is left be."""
        trace = getattr(outcome, "trace", None)
        if trace is not None:
            self._record(*trace, sign=-1)
            outcome.trace = None

    def _record(self, key: tuple, subtype: str, delta: dict, sign: int) -> None:
        _, language, type_id = key
        if type_id in BALANCED_TYPES:
            self.subtype_counts.setdefault((language, type_id), Counter())[subtype] += sign
        self.ledger.record(key, delta, sign)

    def _pick(self, draft: Draft, type_id: str, attempt: int, tried: Collection[str],
              key: tuple, region: bool) -> Edit | None:
        """The edit for this attempt, looked for in the type's region of the summary (or in
        all of it), checked against the whole summary."""
        part, offset = self._region(draft, type_id) if region else (draft, 0)
        edits = part.memo(("edits", type_id), lambda: _unique(RULE_MODULES[type_id].edits(part)))
        used = self.subtype_counts.get((draft.language, type_id)) \
            if type_id in BALANCED_TYPES else None
        capped = self._capped(draft.language, type_id)

        def final(e: Edit) -> Edit:  # the edit as it would be made to the whole summary
            return draft.memo(("final", e.subtype, e.start + offset, e.end + offset, e.text),
                              lambda: restyled(draft, e.shifted(offset)))

        edit = seeded_choice(edits, self.seed, type_id, draft.summary, attempt,
                             accept=lambda e: e.subtype not in capped and acceptable(
                                 draft, final(e)),
                             used=used,
                             rank=(lambda e: self.ledger.cost(key, self._delta(draft, final(e))))
                             if self.ledger.holds(key) else None,
                             avoid=(lambda e: final(e).apply(draft.summary) in tried)
                             if tried else None)
        return final(edit) if edit else None

    def _delta(self, draft: Draft, edit: Edit) -> dict[str, float]:
        """The ledger's view of ``edit`` (kept per draft: places are ranked more than once)."""
        counts = draft.memo("ngram_counts", lambda: Counts(draft.summary))
        return draft.memo(("delta", edit.start, edit.end, edit.text),
                          lambda: change(counts, edit.start, edit.end, edit.text))

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

    def _draft(self, summary: str, language: str, entities: list[dict],
               vocabulary=None) -> Draft:
        """One draft per summary, entity list and vocabulary, shared by the eight types and the
        attempts (its memo keeps what the rule modules computed)."""
        key = (summary, language, id(entities), id(vocabulary))
        hit = self._drafts.get(key)
        if hit is not None and hit[0] is entities:
            self._drafts.move_to_end(key)
            return hit[1]
        draft = Draft(summary, language, list(entities), vocabulary)
        self._drafts[key] = (entities, draft)  # the list is held, so its id is not reused
        if len(self._drafts) > 32:
            self._drafts.popitem(last=False)
        return draft


def restyled(draft: Draft, edit: Edit) -> Edit:
    """``edit`` written like the text around it: the new words of an all-capitals sentence in
    capitals (chapter headings, "HIS MASTER" -> "HIS FATHER", not "HIS Father"), and the new
    characters of a summary in traditional characters in traditional ones (the lexicons and
    jieba are simplified: 表兄 in a 繁體 summary gives the change away)."""
    convert = None
    if draft.zh:
        if draft.memo("traditional", lambda: is_traditional(draft.summary)):
            convert = to_traditional
    elif _in_capitals(draft, edit):
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


def _in_capitals(draft: Draft, edit: Edit) -> bool:
    """Is the text an edit replaces written in capitals? For an added sentence: are its
    neighbours on both sides (a sentence added after a heading such as "LETTER LII." is not
    written in capitals unless the text that follows it is too)?"""
    if edit.end > edit.start:
        return all_capitals(draft.summary[edit.start : edit.end])
    ends = draft.memo("sentence_ends", lambda: [end for _, end in draft.spans])
    after = bisect.bisect_left(ends, edit.start + 1)  # the first sentence ending past it
    neighbours = [i for i in (after - 1, after) if 0 <= i < len(ends)]
    return bool(neighbours) and all(
        draft.memo(("capitals", i), lambda i=i: all_capitals(draft.sentences[i]))
        for i in neighbours)


def seeded_choice(options: list, seed: int, type_id: str, summary: str, attempt: int,
                  accept=None, used: Counter | None = None, rank=None, avoid=None):
    """The option (anything with a ``subtype``) to use on this attempt, or None: sub-types in
    a seeded order, cycled by attempt; within one, a seeded order of places. Shared by the
    rules and the LLM generator, so both try the same places in the same order.

    ``accept`` (an option -> bool check) is asked lazily: of each sub-type only until one
    option passes, and of the chosen sub-type's places, so a summary with thousands of
    possible edits costs a few checks, not thousands.

    ``used`` (sub-type -> times chosen so far) puts the least used sub-types first, the seeded
    order breaking ties. Without ``rank``, a later attempt takes a later sub-type, then a later
    place. With ``rank`` (an option -> number), the first ``FLOW_PLACES`` places that pass,
    taken from the sub-types in turn, are ranked together, lowest first, the seeded order
    breaking ties: on the first attempt from every sub-type (the least used ones only, with
    ``used``), on a later one from the attempt's sub-type. The lowest not to ``avoid`` (an
    option -> bool check: an earlier attempt's) is the choice, or a repeat when every place
    is avoided."""
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
    if rank:
        if attempt:
            order = [order[attempt % len(order)]]
        elif used:
            order = [s for s in order if used[s] == used[order[0]]]
        return _ranked(order, by_subtype, accept, rank, avoid, attempt)
    wanted, places = attempt // len(order), []
    for option in by_subtype[order[attempt % len(order)]]:
        if accept(option):
            if len(places) == wanted:
                return option
            places.append(option)
    return places[wanted % len(places)]


def _ranked(order: list[str], by_subtype: dict, accept, rank, avoid, attempt: int):
    """The lowest ranked of the first ``FLOW_PLACES`` passing places not to ``avoid``, taken
    from the sub-types of ``order`` in turn (the first place of each, then the second, ...);
    when every passing place is to be avoided, the attempt's turn among them."""
    fresh, places = [], []
    queues = [iter(by_subtype[subtype]) for subtype in order]
    while queues and len(fresh) < FLOW_PLACES:
        for queue in list(queues):
            option = next((o for o in queue if accept(o)), None)
            if option is None:
                queues.remove(queue)
                continue
            places.append(option)
            if not (avoid and avoid(option)):
                fresh.append(option)
                if len(fresh) == FLOW_PLACES:
                    break
    if len(fresh) == 1:
        return fresh[0]  # nothing to rank it against
    if fresh:
        return min(fresh, key=rank)  # min keeps the first of equals: the seeded order
    return places[attempt % len(places)]


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
