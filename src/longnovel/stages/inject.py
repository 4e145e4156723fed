"""Stage inject: entity-referenced hallucination injection (DESIGN.md section 11).

For every window: entities of its units (lexical or an LLM, extracted once per unit and shared by
every tier, merged per window), a balanced set of types,
and for each type one injected summary from the rules generator or an LLM, validated at the
sentence level and retried up to ``inject.max_retries`` times. Every (window, type) gets a row;
a type that does not apply or a candidate that never validates is kept with its reason.
"""

from __future__ import annotations

from collections import Counter

import pyarrow as pa

from longnovel.config import LOCAL_EXTRACTORS, Config
from longnovel.stages.base import StageContext, StageResult
from longnovel.taxonomy import TYPE_IDS

NAME = "inject"
READS = ["expand/windows.parquet", "ingest/units.parquet"]
CODE_VERSION = 178

INJECTIONS = pa.schema(
    [(name, pa.string()) for name in (
        "window_id", "tier", "language", "type", "subtype", "original_summary", "summary",
        "original_span", "hallucinated_span", "generator")]
    + [("valid", pa.bool_()), ("reject_reason", pa.string()), ("reason", pa.string()),
       ("evidence", pa.string()), ("evidence_start", pa.int64()), ("evidence_end", pa.int64())])
ENTITIES = pa.schema([("book_id", pa.string()), ("unit_index", pa.int64()),
                      ("name", pa.string()), ("type", pa.string()), ("count", pa.int64())])
UNITS = "ingest/units.parquet"
WINDOWS = "expand/windows.parquet"


def config_section(config: Config, state=None) -> dict:
    section = {"inject": config.inject.model_dump(), "seed": config.seed}
    used = {m for m in (config.inject.generator, config.inject.entities)
            if m not in ("rules", *LOCAL_EXTRACTORS)}
    if config.inject.verify:
        used.add(config.inject.verify)
    if config.inject.entities == "spacy":  # another pipeline, other entities
        from longnovel.injection.nlp.en.ner import pipeline_name

        section["ner"] = pipeline_name()
    section["models"] = {m: config.models[m].fingerprint_fields() for m in sorted(used)}
    if used:  # the prompts matter only when a model is asked
        from longnovel.templates import prompts_digest

        section["prompts"] = prompts_digest("inject_")
    return section



def run(ctx: StageContext) -> StageResult:
    from longnovel.injection import engine as eng
    from longnovel.injection.entities import WindowEntities, unit_entities, wanted_units
    from longnovel.workers import kept_pool

    windows = _windows(ctx)
    inject, seed = ctx.config.inject, ctx.config.seed
    runner = ctx.llm_runner() if _uses_model(inject) else None
    writer = ctx.writer("injections.parquet", INJECTIONS, 128)
    try:
        by_unit, entity_failures = unit_entities(inject.entities, _unit_batches(ctx),
                                                 wanted_units(windows), runner, _workers(ctx))
        ctx.writer("entities.parquet", ENTITIES, 1024).write_rows(
            {"book_id": book, "unit_index": index, **e}
            for (book, index), found in by_unit.items() for e in found)
        vocabularies, summaries = eng.book_vocabularies(ctx.iter_batches(
            UNITS, ["book_id", "unit_index", "language", "summary"], batch_size=1024), windows)
        entities = WindowEntities(by_unit, windows)
        rows, verified, rejected = [], {}, {}
        with kept_pool(_book_workers(ctx, runner)) as pool:  # one pool for every tier
            for tier in sorted({w["tier"] for w in windows}):
                # each tier, and with the rules each book of it, has an engine of its own:
                # nothing a generator remembers crosses tiers or books, so a tier's samples
                # are the same whatever else is built, and books can run in parallel
                mine = [w for w in windows if w["tier"] == tier]
                jobs = eng.jobs(mine, inject, seed)
                engine = eng.Engine(inject, seed, entities, runner, vocabularies, summaries,
                                    articles=lambda ids: _articles(ctx, ids),
                                    progress=ctx.progress)
                if inject.generator == "rules":
                    found = _by_book(ctx, jobs, entities, vocabularies, summaries, runner,
                                     writer.write_rows, rejected, verified, pool)
                else:
                    found = eng.run_in_chunks(engine, jobs, writer.write_rows, chunk=None)
                rows += found + eng.light_rows(
                    eng.rebalance(engine, mine, found, inject.type_list()), writer.write_rows)
                _add(verified, engine.verified)
                _add(rejected, engine.rejected, engine.rules.refused)
        usage = runner.usage() if runner else {}
        failures = dict(runner.failures()) if runner else {}
    finally:
        if runner is not None:
            runner.close()
    for reason, n in entity_failures.items():
        failures[reason] = failures.get(reason, 0) + n
    return _result(windows, rows, usage, failures, verified, rejected, inject.type_list())


def _by_book(ctx: StageContext, jobs, entities, vocabularies, summaries, runner, write,
             rejected: dict, verified: dict, pool=None) -> list[dict]:
    """The rules' rows of ``jobs``, a book at a time, over ``workers`` processes (one with a
    verifying model; ``pool``: the stage's ``kept_pool``): each book's articles read once, as
    the windows file streams by."""
    from longnovel.injection.books import BookRunner, book_works
    from longnovel.injection.engine import light_rows
    from longnovel.injection.generators.rules.generator import (
        BALANCE_REASON,
        balanced_across_books,
        held_back,
    )
    from longnovel.workers import ordered_map

    works = book_works(jobs, entities, vocabularies, summaries, _stream_articles(ctx))
    run = BookRunner(ctx.config.inject, ctx.config.seed, runner)
    workers = _book_workers(ctx, runner)
    found: list[dict] = []
    held: list[dict] = []
    books = len({window["book_id"] for window, _ in jobs})
    for result in ctx.progress(ordered_map(run, works, workers, pool=pool), desc="inject",
                               total=books):
        now, later = held_back(result.rows)
        found += light_rows(now, write)
        held += later
        _add(rejected, result.rejected, result.refused)
        _add(verified, result.verified)
    held, dropped = balanced_across_books(held)  # sub-types balanced over the tier's books
    _add(rejected, {t: Counter({BALANCE_REASON: n}) for t, n in dropped.items()})
    return found + light_rows(held, write)


def _book_workers(ctx: StageContext, runner) -> int:
    """Processes for the rules' books: one with a model (its runner lives here)."""
    if runner is not None or ctx.config.inject.generator != "rules":
        return 1
    return _workers(ctx)


def _workers(ctx: StageContext) -> int:
    import os

    return getattr(ctx.config, "workers", None) or len(os.sched_getaffinity(0))


def _add(total: dict, *counts: dict) -> None:
    for found in counts:
        for key, counter in found.items():
            total.setdefault(key, Counter()).update(counter)


def _stream_articles(ctx: StageContext):
    for batch in ctx.iter_batches(WINDOWS, ["window_id", "article"], batch_size=32):
        yield from zip(batch.column(0).to_pylist(), batch.column(1).to_pylist(), strict=True)


def _windows(ctx: StageContext) -> list[dict]:
    rows = ctx.windows(["window_id", "tier", "language", "book_id", "unit_start", "unit_end",
                        "reference_summary"])
    return sorted(rows, key=lambda r: r["window_id"])


def _articles(ctx: StageContext, window_ids: set[str]) -> dict[str, str]:
    """The articles of ``window_ids`` only, read batch by batch (never the whole column)."""
    out: dict[str, str] = {}
    for batch in ctx.iter_batches(WINDOWS, ["window_id", "article"], batch_size=64):
        ids, texts = batch.column(0).to_pylist(), batch.column(1).to_pylist()
        for window_id, article in zip(ids, texts, strict=True):
            if window_id in window_ids:
                out[window_id] = article
    return out


def _unit_batches(ctx: StageContext):
    from longnovel.injection.entities import UNIT_COLUMNS

    return ctx.iter_batches(UNITS, UNIT_COLUMNS, batch_size=256)


def _unit_texts(ctx: StageContext, windows: list[dict]) -> dict:
    """(text, language) of every unit some selected window covers, read once."""
    from longnovel.injection.entities import unit_texts, wanted_units

    return unit_texts(_unit_batches(ctx), wanted_units(windows))


def _uses_model(inject) -> bool:
    return (inject.generator != "rules" or inject.entities not in LOCAL_EXTRACTORS
            or bool(inject.verify))



def _result(windows, rows, usage, failures, verified, rejected, types) -> StageResult:
    from longnovel.injection.engine import balance

    dropped = Counter(r["reject_reason"].split(":")[0] for r in rows if not r["valid"])
    valid = Counter(f"{r['language']}/{r['type']}" for r in rows if r["valid"])
    extra = {"rows": len(rows), "valid_by_language_type": dict(sorted(valid.items())),
             "balance": balance(rows, types),
             # every rejected candidate (each attempt's), by type and reason
             "rejected_candidates": {t: dict(sorted(c.items())) for t, c in rejected.items() if c}}
    if verified:
        extra["verify"] = {t: {**dict(sorted(c.items())),
                               "acceptance": round(c["accepted"] / c["checked"], 3)}
                           for t, c in sorted(verified.items(), key=lambda i: TYPE_IDS.index(i[0]))}
    return StageResult(
        rows_in=len(windows), rows_out=sum(1 for r in rows if r["valid"]),
        dropped=dict(sorted(dropped.items())), failures=dict(sorted(failures.items())),
        usage=usage, extra=extra, row_group_size=128)



def plan_requests(ctx: StageContext) -> list:
    """The first-round requests this stage would send (for ``longnovel plan``): entities,
    generation and, with ``inject.verify``, one verification per job whose first candidate
    passes the validator (the rules generator's) or could (an LLM's). Sends nothing."""
    from longnovel.injection import engine as eng
    from longnovel.injection.entities import extract_many, units_of
    from longnovel.injection.nlp.entities import merge_entities
    from longnovel.llm import PlannedRequest

    inject, seed = ctx.config.inject, ctx.config.seed
    if not _uses_model(inject):
        return []
    windows = _windows(ctx)
    units = _unit_texts(ctx, windows)
    planned = []
    if inject.entities not in LOCAL_EXTRACTORS:
        from longnovel.injection.generators.llm.entities import entity_requests

        planned += [PlannedRequest("inject", r.model, r.messages, 300)
                    for r in entity_requests(units, inject.entities)]
    by_unit = dict(zip(units, extract_many(list(units.values()), _workers(ctx)), strict=True))
    entities = {w["window_id"]: merge_entities([by_unit[u] for u in units_of(w)])
                for w in windows}
    jobs = eng.jobs(windows, inject, seed)
    firsts = eng.first_candidates(jobs, entities, inject.generator, seed)
    if inject.generator != "rules":
        planned += eng.planned_generations(jobs, firsts, entities, inject.generator,
                                           ctx.tokenizer.count)
    if inject.verify:
        planned += eng.planned_verifications(jobs, firsts, inject.verify,
                                             lambda ids: _articles(ctx, ids))
    return planned
