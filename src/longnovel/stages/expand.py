"""Stage expand: windows of consecutive units at each tier's target length (DESIGN.md section 7)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import groupby

import pyarrow as pa

from longnovel.config import Config
from longnovel.stages.base import StageContext, StageResult
from longnovel.tokenizer import JOIN
from longnovel.windows import RunLengths, Span, sample_spread, slide

NAME = "expand"
READS = ["ingest/units.parquet"]
CODE_VERSION = "5"
ROW_GROUP = 64  # windows per Parquet row group (an XL article is ~100k tokens)

SCHEMA = pa.schema([
    ("window_id", pa.string()), ("tier", pa.string()), ("target_tokens", pa.int64()),
    ("language", pa.string()), ("book_id", pa.string()), ("title", pa.string()),
    ("unit_start", pa.int64()), ("unit_end", pa.int64()), ("n_units", pa.int64()),
    ("n_tokens", pa.int64()), ("article", pa.string()), ("reference_summary", pa.string()),
])


def config_section(config: Config, state) -> dict:
    """The window policy, the seed and the tokenizer; the selected tiers' targets are added by
    ``longnovel.state``."""
    from longnovel.tokenizer import tokenizer_identity

    return {"window": config.window.model_dump(), "seed": config.seed,
            "tokenizer": tokenizer_identity(config.tokenizer)}


@dataclass
class Run:
    """A maximal run of consecutive kept units of one book (``n`` units). Texts are not kept:
    windows are chosen from the lengths alone and their articles built in a second pass over
    the units, book by book."""

    book_id: str
    title: str
    language: str
    run_id: int  # the ``run`` column of ingest/units.parquet
    indices: list[int]
    n: int
    lengths: object  # callable (j, k) -> exact token count


LIGHT = ["book_id", "title", "language", "unit_index", "run", "n_tokens", "join_correction"]
TEXTS = ["book_id", "run", "text", "summary"]


def iter_books(ctx: StageContext, columns: list[str]):
    """``(book_id, {column: values})`` of ``ingest/units.parquet``, one book at a time (ingest
    writes each book's units together), so only the largest book is ever held."""
    book, rows = None, {name: [] for name in columns}
    for batch in ctx.iter_batches("ingest/units.parquet", columns, batch_size=256):
        values = batch.to_pydict()
        for i, book_id in enumerate(values["book_id"]):
            if book_id != book and book is not None:
                yield book, rows
                rows = {name: [] for name in columns}
            book = book_id
            for name in columns:
                rows[name].append(values[name][i])
    if book is not None:
        yield book, rows


def load_runs(ctx: StageContext) -> list[Run]:
    """Every run of the corpus with its exact lengths, read book by book."""
    tokenizer = ctx.tokenizer
    runs: list[Run] = []
    local = tokenizer.joins_are_local  # then ingest counted each unit's join correction
    for _, units in iter_books(ctx, LIGHT if local else LIGHT + ["text"]):
        keyed = groupby(range(len(units["run"])), key=lambda i: units["run"][i])
        for run_id, rows in keyed:
            rows = list(rows)
            if local:
                lengths = RunLengths([units["n_tokens"][i] for i in rows],
                                     [units["join_correction"][i] for i in rows])
            else:
                lengths = _direct_lengths(tokenizer, [units["text"][i] for i in rows])
            first = rows[0]
            runs.append(Run(units["book_id"][first], units["title"][first],
                            units["language"][first], run_id,
                            [units["unit_index"][i] for i in rows],
                            len(rows), lengths))
    return runs


def _direct_lengths(tokenizer, texts: list[str]):
    """Exact lengths by tokenizing each candidate (tokenizers whose joins are not local)."""
    memo: dict[tuple[int, int], int] = {}

    def length(j: int, k: int) -> int:
        if (j, k) not in memo:
            memo[(j, k)] = tokenizer.count(JOIN.join(texts[j : k + 1]))
        return memo[(j, k)]

    return length


def window_row(tier: str, target: int, run: Run, span: Span, texts: list[str],
               summaries: list[str]) -> dict:
    """The row of one window; ``texts`` and ``summaries`` are its run's units'."""
    start, end = run.indices[span.start], run.indices[span.end]
    return {
        "window_id": f"{tier}:{run.book_id}:{start}-{end}", "tier": tier,
        "target_tokens": target, "language": run.language, "book_id": run.book_id,
        "title": run.title, "unit_start": start, "unit_end": end,
        "n_units": span.end - span.start + 1, "n_tokens": span.n_tokens,
        "article": JOIN.join(texts[span.start : span.end + 1]),
        "reference_summary": JOIN.join(summaries[span.start : span.end + 1]),
    }


def tier_windows(ctx: StageContext, runs: list[Run], tier: str, target: int
                 ) -> list[tuple[Run, Span]]:
    """All windows of one tier (runs and spans), capped per book and per tier with the seed,
    in file order."""
    window = ctx.config.window
    low, high = target - window.below, target + window.above
    by_book: dict[str, list[tuple[Run, Span]]] = {}
    for run in runs:
        for span in slide(run.n, run.lengths, low, high):
            by_book.setdefault(run.book_id, []).append((run, span))
    rng = random.Random(f"{ctx.config.seed}:{tier}")
    if window.max_per_book is not None:
        by_book = {b: sample_spread({b: items}, window.max_per_book, rng)
                   for b, items in by_book.items()}
    return sample_spread(by_book, window.max_per_tier, rng)


def write_tier(ctx: StageContext, writer, tier: str, target: int,
               chosen: list[tuple[Run, Span]]) -> None:
    """Build and write one tier's window rows, reading the texts of the books it uses."""
    wanted: dict[str, dict[int, list]] = {}
    for run, span in chosen:
        wanted.setdefault(run.book_id, {}).setdefault(id(run), []).append((run, span))
    for book, units in iter_books(ctx, TEXTS):
        if book not in wanted:
            continue
        for items in wanted[book].values():
            run = items[0][0]
            first = units["run"].index(run.run_id)
            texts = units["text"][first : first + run.n]
            summaries = units["summary"][first : first + run.n]
            writer.write_rows(window_row(tier, target, run, span, texts, summaries)
                              for _, span in items)


def run(ctx: StageContext) -> StageResult:
    runs = load_runs(ctx)
    writer = ctx.writer("windows.parquet", SCHEMA, ROW_GROUP)
    per_tier: dict[str, int] = {}
    languages = sorted({source.language for source in ctx.config.corpus})
    per_language: dict[str, dict[str, int]] = {}
    notes: list[str] = []
    for tier, target in ctx.progress(ctx.selected_tiers().items(), desc="expand"):
        windows = tier_windows(ctx, runs, tier, target)
        per_tier[tier] = len(windows)
        counts = {lang: sum(r.language == lang for r, _ in windows) for lang in languages}
        per_language[tier] = counts
        notes += [empty_tier_note(ctx, runs, tier, target, lang)
                  for lang, n in counts.items() if n == 0]
        write_tier(ctx, writer, tier, target, windows)
    n_units = sum(r.n for r in runs)
    return StageResult(rows_in=n_units, rows_out=sum(per_tier.values()), notes=notes,
                       extra={"windows_per_tier": per_tier,
                              "windows_per_tier_language": per_language})


def empty_tier_note(ctx: StageContext, runs: list[Run], tier: str, target: int,
                    language: str) -> str:
    """Why a tier has no window in a language: the longest run of consecutive kept units
    against the tier's range."""
    low, high = target - ctx.config.window.below, target + ctx.config.window.above
    where = f"tier {tier} ({low}-{high} tokens) has no {language} window"
    candidates = [r for r in runs if r.language == language]
    if not candidates:
        return f"{where}: the corpus has no kept {language} unit"
    longest = max(candidates, key=lambda r: r.lengths(0, r.n - 1))
    total = longest.lengths(0, longest.n - 1)
    span = f"{longest.book_id} units {longest.indices[0]}-{longest.indices[-1]}"
    if any(slide(r.n, r.lengths, low, high) for r in candidates):
        return f"{where}: its windows were all left out by window.max_per_tier/max_per_book"
    if total < low:
        return (f"{where}: the longest run of consecutive kept units is {total} tokens "
                f"({span}); add units, or lower the tier's target")
    return (f"{where}: no stretch of consecutive units lands inside the range (the longest "
            f"run, {span}, has {total} tokens); widen window.below/above")
