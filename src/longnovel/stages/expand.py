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
CODE_VERSION = "3"

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
    """A maximal run of consecutive kept units of one book."""

    book_id: str
    title: str
    language: str
    indices: list[int]
    texts: list[str]
    summaries: list[str]
    lengths: object  # callable (j, k) -> exact token count


def load_runs(ctx: StageContext) -> list[Run]:
    units = ctx.read("ingest/units.parquet").to_pydict()
    order = range(len(units["book_id"]))
    keyed = groupby(order, key=lambda i: (units["book_id"][i], units["run"][i]))
    runs = [_make_run(units, list(rows)) for _, rows in keyed]
    tokenizer = ctx.tokenizer
    if tokenizer.joins_are_local:
        all_texts = [t for r in runs for t in r.texts]
        joins = iter(tokenizer.join_corrections(all_texts))
        counts = iter(units["n_tokens"])
        for r in runs:
            n = len(r.texts)
            r.lengths = RunLengths([next(counts) for _ in range(n)], [next(joins) for _ in range(n)])
    else:
        for r in runs:
            r.lengths = _direct_lengths(tokenizer, r.texts)
    return runs


def _make_run(units: dict, rows: list[int]) -> Run:
    first = rows[0]
    return Run(units["book_id"][first], units["title"][first], units["language"][first],
               [units["unit_index"][i] for i in rows], [units["text"][i] for i in rows],
               [units["summary"][i] for i in rows], None)


def _direct_lengths(tokenizer, texts: list[str]):
    """Exact lengths by tokenizing each candidate (tokenizers whose joins are not local)."""
    memo: dict[tuple[int, int], int] = {}

    def length(j: int, k: int) -> int:
        if (j, k) not in memo:
            memo[(j, k)] = tokenizer.count(JOIN.join(texts[j : k + 1]))
        return memo[(j, k)]

    return length


def window_row(tier: str, target: int, run: Run, span: Span) -> dict:
    start, end = run.indices[span.start], run.indices[span.end]
    return {
        "window_id": f"{tier}:{run.book_id}:{start}-{end}", "tier": tier,
        "target_tokens": target, "language": run.language, "book_id": run.book_id,
        "title": run.title, "unit_start": start, "unit_end": end,
        "n_units": span.end - span.start + 1, "n_tokens": span.n_tokens,
        "article": JOIN.join(run.texts[span.start : span.end + 1]),
        "reference_summary": JOIN.join(run.summaries[span.start : span.end + 1]),
    }


def tier_windows(ctx: StageContext, runs: list[Run], tier: str, target: int) -> list[dict]:
    """All windows of one tier, capped per book and per tier with the seed."""
    window = ctx.config.window
    low, high = target - window.below, target + window.above
    by_book: dict[str, list[tuple[Run, Span]]] = {}
    for run in runs:
        for span in slide(len(run.texts), run.lengths, low, high):
            by_book.setdefault(run.book_id, []).append((run, span))
    rng = random.Random(f"{ctx.config.seed}:{tier}")
    if window.max_per_book is not None:
        by_book = {b: sample_spread({b: items}, window.max_per_book, rng)
                   for b, items in by_book.items()}
    chosen = sample_spread(by_book, window.max_per_tier, rng)
    return [window_row(tier, target, run, span) for run, span in chosen]


def run(ctx: StageContext) -> StageResult:
    runs = load_runs(ctx)
    rows: list[dict] = []
    per_tier: dict[str, int] = {}
    languages = sorted({source.language for source in ctx.config.corpus})
    per_language: dict[str, dict[str, int]] = {}
    notes: list[str] = []
    for tier, target in ctx.progress(ctx.selected_tiers().items(), desc="expand"):
        windows = tier_windows(ctx, runs, tier, target)
        per_tier[tier] = len(windows)
        counts = {lang: sum(w["language"] == lang for w in windows) for lang in languages}
        per_language[tier] = counts
        notes += [empty_tier_note(ctx, runs, tier, target, lang)
                  for lang, n in counts.items() if n == 0]
        rows.extend(windows)
    table = pa.Table.from_pylist(rows, schema=SCHEMA)
    n_units = sum(len(r.texts) for r in runs)
    return StageResult(tables={"windows.parquet": table}, rows_in=n_units,
                       rows_out=table.num_rows, notes=notes,
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
    longest = max(candidates, key=lambda r: r.lengths(0, len(r.texts) - 1))
    total = longest.lengths(0, len(longest.texts) - 1)
    span = f"{longest.book_id} units {longest.indices[0]}-{longest.indices[-1]}"
    if any(slide(len(r.texts), r.lengths, low, high) for r in candidates):
        return f"{where}: its windows were all left out by window.max_per_tier/max_per_book"
    if total < low:
        return (f"{where}: the longest run of consecutive kept units is {total} tokens "
                f"({span}); add units, or lower the tier's target")
    return (f"{where}: no stretch of consecutive units lands inside the range (the longest "
            f"run, {span}, has {total} tokens); widen window.below/above")
