"""The length-expansion window algorithm (DESIGN.md section 7), independent of any I/O."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate


@dataclass(frozen=True)
class Span:
    """Units ``start..end`` (positions within one run, inclusive) and their exact token count."""

    start: int
    end: int
    n_tokens: int


class RunLengths:
    """Exact token counts of joined units ``j..k`` of one run, from per-unit numbers.

    ``counts[i]`` is the token count of unit i alone and ``joins[i]`` the extra tokens that
    appending the "\\n\\n" separator to unit i costs; see ``longnovel.tokenizer``.
    """

    def __init__(self, counts: list[int], joins: list[int]):
        self._count_prefix = [0, *accumulate(counts)]
        self._join_prefix = [0, *accumulate(joins)]

    def __call__(self, j: int, k: int) -> int:
        units = self._count_prefix[k + 1] - self._count_prefix[j]
        return units + self._join_prefix[k] - self._join_prefix[j]


def slide(n_units: int, length: Callable[[int, int], int], low: int, high: int) -> list[Span]:
    """Non-overlapping windows of consecutive units whose length lies in [low, high].

    Extend while too short, emit when inside the range and restart after the window, shrink
    from the left when too long.
    """
    spans: list[Span] = []
    j = k = 0
    while j < n_units:
        n = length(j, k)
        if n < low:
            if k + 1 >= n_units:
                break
            k += 1
        elif n <= high:
            spans.append(Span(j, k, n))
            j = k = k + 1
        else:
            j += 1
            k = max(k, j)
    return spans


def sample_spread(items_by_book: dict[str, list], cap: int | None, rng: random.Random) -> list:
    """Up to ``cap`` items, taken round-robin over books in random order (all when cap is None).

    Each book's items are shuffled first, so the choice within a book is random too; the result
    keeps the original order (by book, then position).
    """
    if cap is None:
        return [item for items in items_by_book.values() for item in items]
    queues = {book: rng.sample(items, len(items)) for book, items in items_by_book.items()}
    books = sorted(queues)
    rng.shuffle(books)
    chosen: set[int] = set()
    while len(chosen) < cap and any(queues[b] for b in books):
        for book in books:
            if queues[book] and len(chosen) < cap:
                chosen.add(id(queues[book].pop()))
    return [item for items in items_by_book.values() for item in items if id(item) in chosen]
