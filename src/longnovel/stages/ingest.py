"""Stage ingest: read the corpus sources, tokenize each unit once, apply the length policy."""

from __future__ import annotations

import hashlib

import pyarrow as pa

from longnovel.config import Config
from longnovel.corpus import RawUnit, read_source
from longnovel.errors import InputError
from longnovel.stages.base import StageContext, StageResult

NAME = "ingest"
UPSTREAM: list[str] = []
READS: list[str] = []
WRITES = ["units.parquet"]
CODE_VERSION = "1"

SCHEMA = pa.schema([
    ("book_id", pa.string()), ("title", pa.string()), ("language", pa.string()),
    ("unit_index", pa.int64()), ("text", pa.string()), ("summary", pa.string()),
    ("n_tokens", pa.int64()), ("n_summary_tokens", pa.int64()), ("source", pa.string()),
    ("sha256", pa.string()), ("run", pa.int64()),
])


def config_section(config: Config) -> dict:
    """Fingerprint inputs: sources (with file stats), length policy and tokenizer."""
    from longnovel.corpus.snapshot import corpus_snapshot

    return {
        "corpus": [s.model_dump() for s in config.corpus],
        "snapshot": corpus_snapshot(config.corpus),
        "units": config.units.model_dump(),
        "tokenizer": config.tokenizer,
    }


def read_corpus(ctx: StageContext, skipped: dict) -> tuple[list[RawUnit], list[str]]:
    """All units of all sources, with each unit's language; a book in two sources is an error."""
    units: list[RawUnit] = []
    languages: list[str] = []
    owner: dict[str, str] = {}
    for source in ctx.config.corpus:
        for unit in ctx.progress(read_source(source, skipped), desc=f"read {source.path}"):
            if owner.setdefault(unit.book_id, source.path) != source.path:
                raise InputError(f"{source.path}: book '{unit.book_id}' also appears in "
                                 f"{owner[unit.book_id]}; book ids must be unique")
            units.append(unit)
            languages.append(source.language)
    return units, languages


def apply_length_policy(units: list[RawUnit], counts: list[int], config: Config
                        ) -> tuple[list[int], list[int], dict[str, int]]:
    """Indices of kept units, their run numbers (a dropped unit ends a run), drops by reason."""
    lo, hi = config.units.min_tokens, config.units.max_tokens
    keep_all = config.units.out_of_range == "keep"
    kept, runs, dropped = [], [], {}
    run, previous_book, broken = -1, None, True
    for i, (unit, n) in enumerate(zip(units, counts)):
        reason = "too_short" if n < lo else "too_long" if n > hi else None
        if unit.book_id != previous_book:
            previous_book, broken = unit.book_id, True
        if reason and not keep_all:
            dropped[reason] = dropped.get(reason, 0) + 1
            broken = True
            continue
        if broken:
            run, broken = run + 1, False
        kept.append(i)
        runs.append(run)
    return kept, runs, dropped


def run(ctx: StageContext) -> StageResult:
    skipped: dict[str, int] = {}
    units, languages = read_corpus(ctx, skipped)
    if not units:
        raise InputError("corpus: no units found in any source")
    tokenizer = ctx.tokenizer
    def bar(starts):
        return ctx.progress(starts, desc="tokenize units", total=len(starts))

    counts = tokenizer.count_batch([u.text for u in units], progress=bar)
    kept, runs, dropped = apply_length_policy(units, counts, ctx.config)
    summary_counts = tokenizer.count_batch([units[i].summary for i in kept])
    rows = {name: [] for name in SCHEMA.names}
    for i, run_id, n_summary in zip(kept, runs, summary_counts):
        unit = units[i]
        for name, value in (
            ("book_id", unit.book_id), ("title", unit.title), ("language", languages[i]),
            ("unit_index", unit.unit_index), ("text", unit.text), ("summary", unit.summary),
            ("n_tokens", counts[i]), ("n_summary_tokens", n_summary), ("source", unit.source),
            ("sha256", hashlib.sha256(unit.text.encode("utf-8")).hexdigest()), ("run", run_id),
        ):
            rows[name].append(value)
    table = pa.table(rows, schema=SCHEMA)
    return StageResult(
        tables={"units.parquet": table}, rows_in=len(units) + sum(skipped.values()),
        rows_out=table.num_rows, dropped={**dropped, **skipped},
        extra={"books": len({u.book_id for u in units}), "tokens": int(sum(counts))},
    )
