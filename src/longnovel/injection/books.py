"""Rules injection a book at a time: the rules generator's state (its ledger, the polarity
sub-type balance) is kept per book, so the books of a tier are independent and can run in
parallel processes (``workers.ordered_map``) with the rows one process would give. No I/O:
the caller hands in each book's jobs, entities, summaries and articles."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass


@dataclass
class BookWork:
    """What one book's jobs need (sent to a worker process, so plain data)."""

    book: str
    jobs: list[tuple[dict, str]]  # (window, type), the windows of one tier
    entities: dict[str, list[dict]]  # window id -> its entities
    vocabulary: object  # the ``Vocabulary`` of the book's unit summaries
    summaries: list[tuple[int, str]]  # (unit index, unit summary) of the whole book
    articles: dict[str, str]  # window id -> article


@dataclass
class BookResult:
    rows: list[dict]
    rejected: dict[str, Counter]  # type -> rejected candidates by reason
    refused: dict[str, Counter]  # type -> places the rules refused, by reason
    verified: dict[str, Counter]  # type -> the verifier's verdicts


def run_book(inject, seed: int, work: BookWork, runner=None) -> BookResult:
    """The rows of one book's jobs, from an engine of its own (``runner``: the verifying
    model's, in this process only)."""
    from longnovel.injection.engine import Engine

    engine = Engine(inject, seed, work.entities, runner, {work.book: work.vocabulary},
                    {work.book: work.summaries},
                    articles=lambda ids: {i: work.articles[i] for i in ids if i in work.articles})
    rows = engine.run(work.jobs)
    return BookResult(rows, engine.rejected, engine.rules.refused, engine.verified)


class BookRunner:
    """``run_book`` with the config's inject section and seed bound (picklable without a
    runner)."""

    def __init__(self, inject, seed: int, runner=None):
        self.inject, self.seed, self.runner = inject, seed, runner

    def __call__(self, work: BookWork) -> BookResult:
        return run_book(self.inject, self.seed, work, self.runner)


def book_works(jobs: list[tuple[dict, str]], entities, vocabularies: dict, summaries: dict,
               articles):
    """One ``BookWork`` per book of ``jobs``, in the order ``articles`` completes them;
    ``articles``: (window id, article) pairs of at least the jobs' windows, streamed (a book
    is handed on as soon as all its windows' articles have come, so memory holds about one
    book's articles)."""
    by_book: dict[str, list[tuple[dict, str]]] = {}
    for window, type_id in jobs:
        by_book.setdefault(window["book_id"], []).append((window, type_id))
    book_of = {window["window_id"]: window["book_id"] for window, _ in jobs}
    wanted = {book: {w["window_id"] for w, _ in mine} for book, mine in by_book.items()}
    got: dict[str, dict[str, str]] = {}

    def work(book: str) -> BookWork:
        mine = by_book.pop(book)
        return BookWork(book, mine, {w["window_id"]: entities[w["window_id"]] for w, _ in mine},
                        vocabularies.get(book), summaries.get(book, []), got.pop(book, {}))

    for window_id, article in articles:
        book = book_of.get(window_id)
        if book is None or book not in by_book:
            continue
        got.setdefault(book, {})[window_id] = article
        if len(got[book]) == len(wanted[book]):
            yield work(book)
    for book in sorted(by_book):  # a window whose article never came: run without it
        yield work(book)
