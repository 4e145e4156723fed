"""What a run's edits have done so far to the surface of the summaries, so that the next edit
can undo it instead of adding to it.

An article-free classifier (``longnovel audit``: character 1-4-grams, sublinear tf-idf, a
linear model) tells an injected summary from its original by what edits change on average:
a word that edits bring in more often than they take it out ("does not", "failed", 回绝), or
text they add (a longer summary weighs less on its common characters once its vector is
normalised). A linear model reads only such average changes. The ledger keeps their running
sum in the classifier's own terms: each n-gram's change of sublinear count (``1 + ln c``)
over the summary's vector norm, and the relative change of that norm (the length signal).

Of the places a rule may edit, the one that brings the sums closest to zero is taken: greedy
moment matching ("herding"). Over a run, each n-gram is then brought in about as much as it
is taken out and summaries are lengthened about as much as shortened, wherever the summaries
offer both. The sums are kept per book, language and type: see ``Ledger``.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import chain, repeat
from operator import add, mul

MIN_N, MAX_N = 1, 4  # character n-grams MIN_N..MAX_N, as the audit's classifier reads
# Squared norm of a summary's whole sublinear 1-4-gram vector (the one the classifier
# normalises) per character: fit on real synopses (2.34 * len ** 0.48, within 1%), so the
# norm is known without counting every n-gram.
NORM_PER_CHAR = 5.4
LENGTH = "\x00length"  # the feature holding the relative change of the vector norm
# Normalising shrinks the whole vector, along the direction summaries share (the cosine of two
# summaries' vectors is about 0.5): the length change counts as one feature of this weight.
LENGTH_WEIGHT = 0.7


def _gram_lists(text: str) -> tuple:
    """Character 1..4-grams of ``text``, in order of length then place (each longer gram is
    a shorter one plus a character: no slicing or joining of tuples)."""
    two = list(map(add, text, text[1:]))
    three = list(map(add, two, text[2:]))
    return text, two, three, map(add, three, text[3:])


def _grams(text: str) -> Counter:
    """Character 1..4-grams of ``text`` with their counts."""
    return Counter(chain(*_gram_lists(text)))


class Counts:
    """Occurrences of n-grams in one summary (overlapping, as an n-gram counter counts them),
    counted in one pass on first use: a draft's summary serves eight types and their places,
    hundreds of look-ups."""

    def __init__(self, summary: str):
        self.summary = summary
        self._all: Counter | None = None

    def table(self) -> Counter:
        if self._all is None:
            self._all = _grams(self.summary)
        return self._all

    def __getitem__(self, gram: str) -> int:
        return self.table().get(gram, 0)


def change(counts: Counts, start: int, end: int, text: str) -> dict[str, float]:
    """What replacing ``summary[start:end]`` by ``text`` does to the summary's normalised
    n-gram vector: per n-gram, its change of sublinear count over the vector norm, and under
    ``LENGTH`` the relative change of the norm."""
    summary = counts.summary
    old = summary[start:end]
    same = _common_prefix(old, text)
    start, text, old = start + same, text[same:], old[same:]
    same = _common_prefix(old[::-1], text[::-1])
    if same:
        end, text = end - same, text[: len(text) - same]
    lo, hi = max(0, start - MAX_N + 1), min(len(summary), end + MAX_N - 1)
    diff: dict[str, int] = {}
    get = diff.get
    for gram in chain(*_gram_lists(summary[lo:start] + text + summary[end:hi])):
        diff[gram] = get(gram, 0) + 1
    for gram in chain(*_gram_lists(summary[lo:hi])):
        diff[gram] = get(gram, 0) - 1
    norm2 = NORM_PER_CHAR * max(len(summary), 1)
    scale = 1.0 / math.sqrt(norm2)
    known = counts.table().get
    out: dict[str, float] = {}
    grown = 0.0
    for gram, moved in diff.items():
        if moved:
            count = known(gram, 0)
            before, after = _sublinear(count), _sublinear(count + moved)
            out[gram] = (after - before) * scale
            grown += after * after - before * before
    out[LENGTH] = LENGTH_WEIGHT * grown / (2.0 * norm2)
    return out


_SUBLINEAR = [0.0] + [1.0 + math.log(c) for c in range(1, 4096)]


def _sublinear(count: int) -> float:
    """``1 + ln count`` (0 for none), from a table for the counts an n-gram mostly has."""
    if count < 4096:
        return _SUBLINEAR[count] if count > 0 else 0.0
    return 1.0 + math.log(count)


def _common_prefix(a: str, b: str) -> int:
    """Length of the common prefix of ``a`` and ``b`` (by halving: slices compare in C)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


class Ledger:
    """Running sums of the changes kept, per (book, language, type): a book's names and its
    writer's words are balanced within the book itself, and the sums over a tier's books,
    each balanced, are balanced too. Nothing crosses books, so books can be injected apart
    (in parallel) and give the same rows."""

    def __init__(self):
        self.sums: dict[tuple, Counter] = {}

    def holds(self, key: tuple) -> bool:
        """Has anything been recorded for ``key``? (Before that, every place is as good as
        another and the rules keep their seeded order.)"""
        return bool(self.sums.get(key))

    def cost(self, key: tuple, delta: dict[str, float]) -> float:
        """How much farther from zero the sums of ``key`` = (book, language, type) get with
        ``delta`` (``|S + d|^2 - |S|^2``, negative when it undoes earlier edits)."""
        values = delta.values()
        square = sum(map(mul, values, values))
        sums = self.sums.get(key)
        dot = sum(map(mul, map(sums.get, delta, repeat(0.0)), values)) if sums else 0.0
        return 2.0 * dot + square

    def record(self, key: tuple, delta: dict[str, float], sign: int = 1) -> None:
        """Add ``delta`` to the sums of ``key`` (``sign=-1`` takes it back out)."""
        sums = self.sums.setdefault(key, Counter())
        for gram, value in delta.items():
            sums[gram] += sign * value
