"""Stage ingest: read the corpus sources, tokenize each unit once, apply the length policy."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pyarrow as pa

from longnovel.config import Config
from longnovel.corpus import RawUnit, book_metadata, read_source
from longnovel.corpus.units import apply_unit_policy
from longnovel.errors import InputError
from longnovel.stages.base import StageContext, StageResult
from longnovel.tokenizer import corrections_of, join_probes, last_line

NAME = "ingest"
READS: list[str] = []
CODE_VERSION = "5"  # 5: books.json
ROW_GROUP = 128

SCHEMA = pa.schema([
    ("book_id", pa.string()), ("title", pa.string()), ("language", pa.string()),
    ("unit_index", pa.int64()), ("text", pa.string()), ("summary", pa.string()),
    ("n_tokens", pa.int64()), ("n_summary_tokens", pa.int64()), ("source", pa.string()),
    ("sha256", pa.string()), ("run", pa.int64()), ("join_correction", pa.int64()),
])


def config_section(config: Config, state) -> dict:
    """Fingerprint inputs: each source's settings and content digest (not its location or
    timestamps), the unit policy and the tokenizer's identity."""
    from longnovel.state import tree_digest
    from longnovel.tokenizer import tokenizer_identity

    sources = [{**s.model_dump(exclude={"path"}),
                "content": tree_digest(Path(s.path), state.digests)} for s in config.corpus]
    return {"corpus": sources, "units": config.units.model_dump(),
            "tokenizer": tokenizer_identity(config.tokenizer)}


def read_books(ctx: StageContext, skipped: dict, ignored: list[str] | None = None,
               metadata: dict | None = None):
    """``(units, language)`` of each book in turn (consecutive units with one book id), source
    by source, so only one book is held at a time; a book in two sources is an error. Each
    book's title, language and book.yaml licence go into ``metadata`` (books.json)."""
    from itertools import groupby

    owner: dict[str, str] = {}
    for source in ctx.config.corpus:
        units_of_source = read_source(source, skipped, ctx.config.units.missing_summary,
                                      ignored)
        for book_id, units in groupby(units_of_source, key=lambda unit: unit.book_id):
            if owner.setdefault(book_id, source.path) != source.path:
                raise InputError(f"{source.path}: book '{book_id}' also appears in "
                                 f"{owner[book_id]}; book ids must be unique")
            units = list(units)
            if metadata is not None:
                metadata[book_id] = book_metadata(source, book_id, units[0].title)
            yield units, source.language


def count_tokens(ctx: StageContext, texts: list[str], origins: list[str], desc: str):
    """Token counts of ``texts`` in batches; a text the tokenizer rejects is a user error
    naming the unit it came from (a tokenizer that cannot be loaded is the config's error,
    raised before any text is blamed)."""
    def bar(starts):
        return ctx.progress(starts, desc=desc, total=len(starts))

    tokenizer = ctx.tokenizer
    try:
        return tokenizer.count_batch(texts, progress=bar)
    except Exception:
        for text, origin in zip(texts, origins, strict=True):
            try:
                tokenizer.count(text)
            except Exception as exc:  # noqa: BLE001
                raise InputError(f"{origin}: the tokenizer rejects this text: "
                                 f"{str(exc).splitlines()[0][:200]}") from None
        raise


# Qwen3's longest token spans 128 characters (bytes of its byte-level vocabulary); twice that
# leaves room for normalization. A unit longer than this many characters per allowed token
# cannot fit ``units.max_tokens`` and is dropped as too long without being tokenized.
CHARS_PER_TOKEN_BOUND = 256


def longest_token(tokenizer) -> int:
    """Characters of the tokenizer's longest vocabulary entry (added tokens included)."""
    try:
        vocab = tokenizer.backend.get_vocab(with_added_tokens=True)
    except Exception:  # noqa: BLE001 - a backend without it: no bound
        return 0
    return max((len(token) for token in vocab), default=0)


def too_long_to_count(ctx: StageContext) -> int | None:
    """The character count above which a unit is surely above ``units.max_tokens`` (None
    when units outside the range are kept, or no bound is known)."""
    units = ctx.config.units
    if units.out_of_range != "drop":
        return None
    longest = longest_token(ctx.tokenizer)
    if not longest:
        return None
    return max(CHARS_PER_TOKEN_BOUND, 2 * longest) * units.max_tokens


def run(ctx: StageContext) -> StageResult:
    skipped: dict[str, int] = {}
    ignored: list[str] = []
    writer = ctx.writer("units.parquet", SCHEMA, ROW_GROUP)
    totals = {"units": 0, "kept": 0, "tokens": 0}
    dropped: dict[str, int] = {}
    gaps: list[dict] = []
    books: set[str] = set()
    metadata: dict[str, dict] = {}
    next_run = 0
    for units, language, counts, summary_counts, kept in _counted_books(
            ctx, ctx.progress(read_books(ctx, skipped, ignored, metadata),
                              desc="ingest")):
        books.add(units[0].book_id)
        writer.write_rows(_row(units[i], language, counts[i], n_summary, next_run + run_id,
                               correction)
                          for i, run_id, (n_summary, correction) in zip(
                              kept.indices, kept.runs, summary_counts, strict=True))
        next_run += len(set(kept.runs))
        totals["units"] += len(units)
        totals["kept"] += len(kept.indices)
        totals["tokens"] += int(sum(counts))
        for reason, n in kept.dropped.items():
            dropped[reason] = dropped.get(reason, 0) + n
        gaps += kept.gaps
    if not totals["units"]:
        raise InputError("corpus: no units found in any source")
    notes = [ignored_note(ignored)] if ignored else []
    if ignored:
        skipped["not_a_unit_file"] = len(ignored)
    return StageResult(
        files={"books.json": json.dumps(metadata, indent=2, ensure_ascii=False) + "\n"},
        rows_in=totals["units"] + sum(skipped.values()), rows_out=totals["kept"],
        dropped={**dropped, **skipped}, notes=notes,
        extra={"books": len(books), "tokens": totals["tokens"], "gaps": len(gaps),
               "gap_details": gaps[:100]},
    )


def ignored_note(paths: list[str], shown: int = 5) -> str:
    """One line counting and naming the files of dir corpora that are not unit files."""
    names = ", ".join(paths[:shown]) + (f" and {len(paths) - shown} more" if len(paths) > shown
                                        else "")
    return (f"{len(paths)} file(s) in book folders are not named NNN.txt or NNN.summary.txt "
            f"and were not read: {names}")


BATCH_UNITS = 512  # units tokenized in one batch: several small books share one


def _counted_books(ctx: StageContext, books):
    """(units, language, text counts, kept summaries' counts, kept) per book, in book order,
    tokenizing a few books' texts (then their kept summaries) in one batch: the tokenizer
    spreads a batch over the cores, and one small book per batch would leave cores idle. At
    most about ``BATCH_UNITS`` units are held at once."""
    group: list[tuple[list, str]] = []
    for book in books:
        group.append(book)
        if sum(len(units) for units, _ in group) >= BATCH_UNITS:
            yield from _count_group(ctx, group)
            group = []
    if group:
        yield from _count_group(ctx, group)


def _count_group(ctx: StageContext, group: list[tuple[list, str]]):
    units = [u for book, _ in group for u in book]
    counts = _bounded_counts(ctx, units)
    per_book, at = [], 0
    for book, language in group:
        book_counts = counts[at : at + len(book)]
        at += len(book)
        per_book.append((book, language, book_counts,
                         apply_unit_policy(book, book_counts, ctx.config)))
    kept_units = [book[i] for book, _, _, kept in per_book for i in kept.indices]
    texts = [u.summary for u in kept_units]
    tails = [last_line(u.text) for u in kept_units] if ctx.tokenizer.joins_are_local else []
    # the summaries and the kept units' last lines (with and without the join), in one batch:
    # expand's window lengths need count(text + JOIN) - count(text) of every unit
    counted = count_tokens(ctx, texts + join_probes(tails),
                           [u.origin for u in kept_units] * (3 if tails else 1),
                           "tokenize summaries")
    n = len(kept_units)
    summaries = counted[:n]
    corrections = corrections_of(counted[n:]) if tails else [None] * n
    at = 0
    for book, language, book_counts, kept in per_book:
        end = at + len(kept.indices)
        pairs = list(zip(summaries[at:end], corrections[at:end], strict=True))
        yield book, language, book_counts, pairs, kept
        at = end


def _bounded_counts(ctx: StageContext, units: list[RawUnit]) -> list[int]:
    """Token counts of the units' texts; a text too long to fit ``units.max_tokens`` whatever
    its tokens (see ``too_long_to_count``) is not tokenized and counts as max_tokens + 1."""
    bound = too_long_to_count(ctx)
    long = {i for i, u in enumerate(units) if bound is not None and len(u.text) > bound}
    short = [i for i in range(len(units)) if i not in long]
    counted = count_tokens(ctx, [units[i].text for i in short], [units[i].origin for i in short],
                           "tokenize units") if short else []
    counts = [ctx.config.units.max_tokens + 1] * len(units)
    for i, n in zip(short, counted, strict=True):
        counts[i] = n
    return counts


def _row(unit: RawUnit, language: str, n_tokens: int, n_summary: int, run_id: int,
         correction: int | None) -> dict:
    return {"book_id": unit.book_id, "title": unit.title, "language": language,
            "unit_index": unit.unit_index, "text": unit.text, "summary": unit.summary,
            "n_tokens": n_tokens, "n_summary_tokens": n_summary, "source": unit.source,
            "sha256": hashlib.sha256(unit.text.encode("utf-8")).hexdigest(), "run": run_id,
            "join_correction": correction}
