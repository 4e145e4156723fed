"""The offline, deterministic ``rules`` generator: one rule module per type (``base``), seeded
choice (``choice``), checked edits (``wordcheck``) balanced by the run's ledger (``ledger``)."""

from __future__ import annotations

import bisect
import random
import re
from collections import Counter, OrderedDict
from collections.abc import Collection
from dataclasses import replace

from longnovel.injection.candidate import Candidate, Edit, NotApplicable
from longnovel.injection.generators.rules.base import RULE_MODULES
from longnovel.injection.generators.rules.choice import digest, seeded_choice
from longnovel.injection.generators.rules.draft import PRONOUN_GENDER, Draft
from longnovel.injection.generators.rules.ledger import Counts, Ledger, change
from longnovel.injection.generators.rules.wordcheck import fault
from longnovel.injection.nlp.script import is_traditional, to_traditional
from longnovel.injection.nlp.text import all_capitals, changed_parts
from longnovel.taxonomy import TYPES

GENERATOR_NAME = "rules"
# Types whose sub-types undo each other (polarity: negate / affirm): a generator that mostly
# adds negations teaches a classifier that "not"/没有 means injected. Their sub-type used least
# so far (per book) goes first wherever a summary offers both.
BALANCED_TYPES = frozenset({"polarity"})  # negate / affirm
# ... and a sub-type this many uses ahead of the least used one is not used again until the
# other catches up: summaries that state few negations can otherwise only gain them, and "the
# summary with one more 'not' is the injected one" answers the pair without the article.
BALANCE_SLACK = 2
REGION_SENTENCES = 40  # sentences of a long summary the rules look at for one type
BALANCE_REASON = "sub_type_balance"
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
        # (book, language, type) -> uses of each sub-type of a balanced type
        self.subtype_counts: dict[tuple[str, str, str], Counter] = {}
        # type -> places refused by ``wordcheck.fault``, by reason
        self.refused: dict[str, Counter] = {}
        # what the edits so far did to the summaries' n-gram profile (see ledger.py)
        self.ledger = Ledger()
        # book -> the words of its unit summaries (``Vocabulary``), from the caller that knows
        # them: stand-ins are then drawn from the words the book's writer uses
        self.vocabularies: dict[str, object] = vocabularies or {}

    def generate(self, summary: str, language: str, entities: list[dict], type_id: str,
                 attempt: int = 0, tried: Collection[str] = (),
                 book: str = "", outside: tuple = (),
                 unit_starts: tuple[int, ...] | None = None) -> Candidate | NotApplicable:
        """``tried``: the rewritten summaries of this job's earlier attempts, not offered again
        while the sub-type has another place (the ledger reorders the places between
        attempts, so an attempt's index alone no longer keeps them apart). ``book``: the book
        the summary belongs to, whose sums in the ledger the edit is balanced against;
        ``outside``: (earlier?, unit summary) of the book's units the window does not cover,
        where invented content comes from; ``unit_starts``: where each unit summary after the
        first starts in ``summary`` (unknown: at its blank lines)."""
        if type_id not in RULE_MODULES:
            raise ValueError(f"unknown hallucination type {type_id!r}")
        draft = self._draft(summary, language, entities, self.vocabularies.get(book), outside,
                            unit_starts)
        if not draft.sentences:
            return NotApplicable(type_id, "empty summary")
        key = (book, language, type_id)  # the sums of the ledger this job is balanced against
        edit = self._pick(draft, type_id, attempt, tried, key, region=True)
        if edit is None and len(draft.sentences) > REGION_SENTENCES:
            edit = self._pick(draft, type_id, attempt, tried, key, region=False)
        if edit is None:
            if self._capped(key):
                return NotApplicable(type_id, f"{_NOT_APPLICABLE[type_id]} that keeps its "
                                     f"sub-types within {BALANCE_SLACK} of each other")
            return NotApplicable(type_id, self._why_none(draft, type_id))
        trace = (key, edit.subtype, self._delta(draft, edit))
        self._record(*trace, sign=1)
        return Candidate(type_id, edit.subtype, summary, edit.apply(summary),
                         edit.original_span, edit.hallucinated_span, GENERATOR_NAME, trace)

    def _why_none(self, draft: Draft, type_id: str) -> str:
        """The type's reason for no edit, with what the rule module refused most often where
        it keeps that account (``refusal``), or that its edits all failed the checks."""
        reason = _NOT_APPLICABLE[type_id]
        part = self._region(draft, type_id)[0]
        if part.memo(("edits", type_id), list):
            return f"{reason} (no edit left that passes the checks)"
        refusal = getattr(RULE_MODULES[type_id], "refusal", None)
        return f"{reason} ({refusal(part)})" if refusal else reason

    def withdraw(self, outcome) -> None:
        """Take a candidate that will not be used (rejected by the validator or the verifier)
        back out of the run state that ``generate`` recorded it in; anything else (a
        ``NotApplicable``, another generator's candidate, one already withdrawn) is left be."""
        trace = getattr(outcome, "trace", None)
        if trace is not None:
            self._record(*trace, sign=-1)
            outcome.trace = None

    def _record(self, key: tuple, subtype: str, delta: dict, sign: int) -> None:
        if key[2] in BALANCED_TYPES:
            self.subtype_counts.setdefault(key, Counter())[subtype] += sign
        self.ledger.record(key, delta, sign)

    def _pick(self, draft: Draft, type_id: str, attempt: int, tried: Collection[str],
              key: tuple, region: bool) -> Edit | None:
        """The edit for this attempt, looked for in the type's region of the summary (or in
        all of it), checked against the whole summary."""
        part, offset = self._region(draft, type_id) if region else (draft, 0)
        edits = part.memo(("edits", type_id), lambda: _preferred(type_id, part))
        used = self.subtype_counts.get(key) \
            if type_id in BALANCED_TYPES else None
        capped = self._capped(key)

        def final(e: Edit) -> Edit:  # the edit as it would be made to the whole summary
            return draft.memo(("final", e.subtype, e.start + offset, e.end + offset, e.text),
                              lambda: restyled(draft, e.shifted(offset)))

        def accept(e: Edit) -> bool:
            if e.subtype in capped:
                return False
            reason = fault(draft, final(e))
            if reason is not None:  # counted by reason (the manifest's rejected_candidates)
                self.refused.setdefault(type_id, Counter())[reason.split(":")[0]] += 1
            return reason is None

        edit = seeded_choice(edits, self.seed, type_id, draft.summary, attempt,
                             accept=accept, used=used,
                             prefer=getattr(RULE_MODULES[type_id], "PREFERRED_SUBTYPES", ()),
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

    def _capped(self, key: tuple) -> set[str]:
        """The sub-types of a balanced type that are ``BALANCE_SLACK`` uses ahead of another."""
        type_id = key[2]
        if type_id not in BALANCED_TYPES:
            return set()
        used = self.subtype_counts.get(key, Counter())
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
            first = random.Random(digest(self.seed, type_id, draft.summary, "region")).randrange(
                n - REGION_SENTENCES + 1)
            start, end = draft.spans[first][0], draft.spans[first + REGION_SENTENCES - 1][1]
            units = None if draft.unit_starts is None else tuple(
                u - start for u in draft.unit_starts if start < u < end)
            around = draft.summary[:start] + "\n" + draft.summary[end:]
            edges = (first == 0, first + REGION_SENTENCES == n)
            return Draft(draft.summary[start:end], draft.language, draft.entities,
                         draft.vocabulary, draft.outside, units, around, edges), start

        return draft.memo(("region", type_id), cut)

    def _draft(self, summary: str, language: str, entities: list[dict],
               vocabulary=None, outside: tuple = (),
               unit_starts: tuple[int, ...] | None = None) -> Draft:
        """One draft per summary, entity list, vocabulary and rest of the book, shared by the
        eight types and the attempts (its memo keeps what the rule modules computed)."""
        key = (summary, language, id(entities), id(vocabulary), outside, unit_starts)
        hit = self._drafts.get(key)
        if hit is not None and hit[0] is entities:
            self._drafts.move_to_end(key)
            return hit[1]
        draft = Draft(summary, language, list(entities), vocabulary, outside, unit_starts)
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




def _unique(edits: list[Edit]) -> list[Edit]:
    seen, out = set(), []
    for edit in edits:
        key = (edit.subtype, edit.start, edit.end, edit.text)
        if key not in seen:
            seen.add(key)
            out.append(edit)
    return out


def _preferred(type_id: str, draft: Draft) -> list[Edit]:
    """The type's edits of ``draft``, narrowed to those its module prefers where it says
    (``preferred``: event takes a stand-in out where it can)."""
    module = RULE_MODULES[type_id]
    edits = _unique(module.edits(draft))
    narrow = getattr(module, "preferred", None)
    return narrow(draft, edits) if narrow else edits


def held_back(rows: list[dict]) -> tuple[list[dict], list[dict]]:
    """``rows`` split into those to write now and the valid rows that go one of two opposite
    ways (``direction``), held until the tier's books are all done (``balanced_across_books``)."""
    later = [r for r in rows if r["valid"] and direction(r) is not None]
    return [r for r in rows if not (r["valid"] and direction(r) is not None)], later


# The two ways an edit of these kinds can go, each undoing the other: a negation added or
# taken out; a pronoun made a name or a name made a pronoun (which lowers or raises the count
# of pronouns: on the prose corpus 24 of 26 pronoun edits went one way, and pair-LR read
# them at 0.92 by that count alone)
_WAYS = {"polarity": ("negate", "affirm"), "entity": ("to_name", "to_pronoun")}
_PRONOUNS = {"en": re.compile(r"(?i)\b(?:{})\b".format("|".join(
                 sorted(w for w in PRONOUN_GENDER if w.isascii())))),
             "zh": re.compile("[{}]".format("".join(
                 sorted(w for w in PRONOUN_GENDER if not w.isascii()))))}


def direction(row: dict) -> str | None:
    """Which of its type's two opposite ways an edit goes (``_WAYS``), or None for an edit
    of a kind that has none."""
    if row["type"] == "polarity":
        return row["subtype"]
    if row["type"] == "entity" and row["subtype"] == "pronoun":
        pronouns = _PRONOUNS["zh" if row["language"] == "zh" else "en"]
        fewer = len(pronouns.findall(row["hallucinated_span"])) < \
            len(pronouns.findall(row["original_span"]))
        return "to_name" if fewer else "to_pronoun"
    return None


def balanced_across_books(rows: list[dict]) -> tuple[list[dict], Counter]:
    """A tier's valid rows that go one of two opposite ways (``direction``), from all its
    books, with each language's two ways of a type kept within ``BALANCE_SLACK`` of each
    other: the surplus of a way (chosen by a digest of the window, the same in every build)
    is rejected as ``BALANCE_REASON``. Each book keeps polarity's slack on its own (books run
    apart); over books whose summaries hold almost no negation to take out, two negations
    ahead per book and tier added up to 11 negations against 1 affirmation on the prose
    corpus, and the summary with one more negator answered the pair. Returns the rows and
    the rejections per type."""
    rows = [dict(r) for r in rows]
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault((r["language"], r["type"]), []).append(r)
    dropped: Counter = Counter()
    for (_, type_id), members in sorted(groups.items()):
        by_way: dict[str, list[dict]] = {way: [] for way in _WAYS[type_id]}
        for r in members:
            by_way[direction(r)].append(r)
        least = min(len(found) for found in by_way.values())
        for way, found in sorted(by_way.items()):
            surplus = len(found) - least - BALANCE_SLACK
            for r in sorted(found, key=lambda r: digest(BALANCE_REASON, r["window_id"]))[
                    :max(surplus, 0)]:
                r.update(valid=False, reason="", evidence="", evidence_start=-1,
                         evidence_end=-1, reject_reason=f"{BALANCE_REASON}: {way} more "
                         f"than {BALANCE_SLACK} ahead over the tier's books")
                dropped[type_id] += 1
    return rows, dropped
