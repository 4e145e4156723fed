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

from longnovel.config import Config
from longnovel.injection import (
    Candidate,
    NotApplicable,
    RulesGenerator,
    assign_types,
    extract_entities,
    extract_many,
    merge_entities,
    validate,
)
from longnovel.stages.base import StageContext, StageResult
from longnovel.taxonomy import TYPE_IDS

NAME = "inject"
READS = ["expand/windows.parquet", "ingest/units.parquet"]
CODE_VERSION = "4"

INJECTIONS = pa.schema(
    [(name, pa.string()) for name in (
        "window_id", "tier", "language", "type", "subtype", "original_summary", "summary",
        "original_span", "hallucinated_span", "generator")]
    + [("valid", pa.bool_()), ("reject_reason", pa.string())])
ENTITIES = pa.schema([("book_id", pa.string()), ("unit_index", pa.int64()),
                      ("name", pa.string()), ("type", pa.string()), ("count", pa.int64())])
Unit = tuple[str, int]  # (book_id, unit_index)


def config_section(config: Config, state=None) -> dict:
    section = {"inject": config.inject.model_dump(), "seed": config.seed}
    used = {m for m in (config.inject.generator, config.inject.entities)
            if m not in ("rules", "lexical")}
    section["models"] = {m: config.models[m].fingerprint_fields() for m in sorted(used)}
    if used:  # the prompts matter only when a model is asked
        from longnovel.templates import prompts_digest

        section["prompts"] = prompts_digest("inject_")
    return section


def run(ctx: StageContext) -> StageResult:
    windows = _windows(ctx)
    inject = ctx.config.inject
    runner = ctx.llm_runner() if _uses_model(inject) else None
    try:
        by_unit, entity_failures = _unit_entities(ctx, windows, runner)
        entities = {w["window_id"]: merge_entities([by_unit[u] for u in _units_of(w)])
                    for w in windows}
        jobs = _jobs(windows, ctx.config)
        if inject.generator == "rules":  # the runner may serve the entities only
            rows = _rules_rows(ctx, jobs, entities)
        else:
            rows = _llm_rows(ctx, jobs, entities, runner)
        usage = runner.usage() if runner else {}
        failures = dict(runner.failures()) if runner else {}
    finally:
        if runner is not None:
            runner.close()
    for reason, n in entity_failures.items():
        failures[reason] = failures.get(reason, 0) + n
    return _result(windows, rows, by_unit, usage, failures)


def _windows(ctx: StageContext) -> list[dict]:
    rows = ctx.windows(["window_id", "tier", "language", "book_id", "unit_start", "unit_end",
                        "reference_summary"])
    return sorted(rows, key=lambda r: r["window_id"])


def _units_of(window: dict) -> list[Unit]:
    return [(window["book_id"], i) for i in range(window["unit_start"], window["unit_end"] + 1)]


def _unit_texts(ctx: StageContext, windows: list[dict]) -> dict[Unit, tuple[str, str]]:
    """(text, language) of every unit some selected window covers, read once."""
    wanted = {u for w in windows for u in _units_of(w)}
    table = ctx.read("ingest/units.parquet", ["book_id", "unit_index", "language", "text"])
    units = {}
    for row in table.to_pylist():
        key = (row["book_id"], row["unit_index"])
        if key in wanted:
            units[key] = (row["text"], row["language"])
    return dict(sorted(units.items()))


def _uses_model(inject) -> bool:
    return inject.generator != "rules" or inject.entities != "lexical"


def _jobs(windows: list[dict], config: Config) -> list[tuple[dict, str]]:
    """(window, type) for every window and each of its assigned types, in taxonomy order."""
    inject = config.inject
    assigned = assign_types([(w["window_id"], w["tier"], w["language"]) for w in windows],
                            inject.type_list(), inject.types_per_window, config.seed)
    return [(w, t) for w in windows for t in sorted(assigned[w["window_id"]], key=TYPE_IDS.index)]


# --- entities ---------------------------------------------------------------------------------

def _unit_entities(ctx: StageContext, windows: list[dict], runner) -> tuple[dict, Counter]:
    """Entities per unit, extracted once however many windows and tiers share the unit; a
    failed LLM extraction falls back to the lexical one."""
    units = _unit_texts(ctx, windows)
    if ctx.config.inject.entities == "lexical":
        return dict(zip(units, extract_many(list(units.values())))), Counter()
    from longnovel.injection.llm_entities import EntityReply, entities_from_reply

    model = ctx.config.inject.entities
    requests = _entity_requests(units, model, EntityReply)
    failures: Counter = Counter()
    out = {}
    for (key, (text, language)), result in zip(units.items(), runner.run(requests)):
        found = entities_from_reply(result.parsed, text) if result.ok else []
        if not found:
            failures[f"entities_{result.error or 'empty'}"] += 1
            found = extract_entities(text, language)
        out[key] = found
    return out, failures


def _entity_requests(units: dict, model: str, schema=None) -> list:
    from longnovel.injection.llm_entities import entity_messages
    from longnovel.llm import Request

    return [Request(key=f"entities/{book}/{index}", model=model,
                    messages=entity_messages(text, language), schema=schema,
                    group=f"{book}/{index}")
            for (book, index), (text, language) in units.items()]


# --- rules generator --------------------------------------------------------------------------

def _rules_rows(ctx: StageContext, jobs, entities: dict) -> list[dict]:
    generator = RulesGenerator(ctx.config.seed)
    retries = ctx.config.inject.max_retries
    rows = []
    for window, type_id in ctx.progress(jobs, desc="inject", total=len(jobs)):
        summary, language = window["reference_summary"], window["language"]
        for attempt in range(retries + 1):
            outcome = generator.generate(summary, language, entities[window["window_id"]],
                                         type_id, attempt)
            reason = _reject_reason(outcome, language)
            if reason is None or isinstance(outcome, NotApplicable):
                break
        rows.append(_row(window, type_id, outcome, reason))
    return rows


def _reject_reason(outcome: Candidate | NotApplicable, language: str) -> str | None:
    if isinstance(outcome, NotApplicable):
        return f"not_applicable: {outcome.reason}"
    return validate(outcome, language)


def _row(window: dict, type_id: str, outcome, reason: str | None) -> dict:
    row = {"window_id": window["window_id"], "tier": window["tier"],
           "language": window["language"], "type": type_id, "subtype": "",
           "original_summary": window["reference_summary"], "summary": "",
           "original_span": "", "hallucinated_span": "", "generator": "",
           "valid": reason is None, "reject_reason": reason or ""}
    if isinstance(outcome, Candidate):
        row.update(subtype=outcome.subtype, summary=outcome.summary,
                   original_span=outcome.original_span,
                   hallucinated_span=outcome.hallucinated_span, generator=outcome.generator)
    return row


# --- LLM generator ----------------------------------------------------------------------------

def _llm_rows(ctx: StageContext, jobs, entities: dict, runner) -> list[dict]:
    """Rounds of requests: every job still rejected is re-asked, with the reason, up to
    ``max_retries`` times; a job's last outcome becomes its row."""
    from longnovel.injection.llm_generator import InjectionReply, build_messages
    from longnovel.llm import Request

    model = ctx.config.inject.generator
    last: dict[int, tuple[object, str | None]] = {}
    pending = list(range(len(jobs)))
    for attempt in range(ctx.config.inject.max_retries + 1):
        if not pending:
            break
        requests = []
        for k in pending:
            window, type_id = jobs[k]
            rejected = last[k][1] if k in last else None
            messages = build_messages(window["reference_summary"], window["language"],
                                      entities[window["window_id"]], type_id, rejected)
            requests.append(Request(key=f"{window['window_id']}/{type_id}/{attempt}",
                                    model=model, messages=messages, schema=InjectionReply,
                                    group=window["window_id"]))
        for k, result in zip(pending, runner.run(requests)):
            last[k] = _judge_reply(jobs[k], result, model)
        pending = [k for k in pending if last[k][1] is not None
                   and not isinstance(last[k][0], NotApplicable)]
    return [_row(window, type_id, *last[k]) for k, (window, type_id) in enumerate(jobs)]


def _judge_reply(job, result, model: str) -> tuple[object, str | None]:
    from longnovel.injection.llm_generator import candidate_from_reply

    window, type_id = job
    if not result.ok:
        return None, f"llm_{result.error or 'failed'}"
    outcome = candidate_from_reply(result.parsed, window["reference_summary"], type_id, model)
    return outcome, _reject_reason(outcome, window["language"])


# --- result -----------------------------------------------------------------------------------

def _result(windows, rows, by_unit, usage, failures) -> StageResult:
    entity_rows = [{"book_id": book, "unit_index": index, **e}
                   for (book, index), found in by_unit.items() for e in found]
    dropped = Counter(r["reject_reason"].split(":")[0] for r in rows if not r["valid"])
    valid = Counter(f"{r['language']}/{r['type']}" for r in rows if r["valid"])
    return StageResult(
        tables={"injections.parquet": pa.Table.from_pylist(rows, schema=INJECTIONS),
                "entities.parquet": pa.Table.from_pylist(entity_rows, schema=ENTITIES)},
        rows_in=len(windows), rows_out=sum(1 for r in rows if r["valid"]),
        dropped=dict(sorted(dropped.items())), failures=dict(sorted(failures.items())),
        usage=usage, extra={"rows": len(rows), "valid_by_language_type": dict(sorted(valid.items()))},
        row_group_size=128)


# --- plan ---------------------------------------------------------------------------------------

def plan_requests(ctx: StageContext) -> list:
    """The first-round requests this stage would send (for ``longnovel plan``); sends nothing."""
    from longnovel.llm import PlannedRequest

    inject = ctx.config.inject
    if not _uses_model(inject):
        return []
    windows = _windows(ctx)
    units = _unit_texts(ctx, windows)
    planned = []
    if inject.entities != "lexical":
        planned += [PlannedRequest("inject", r.model, r.messages, 300)
                    for r in _entity_requests(units, inject.entities)]
    if inject.generator != "rules":
        from longnovel.injection.llm_generator import build_messages

        lengths = dict(zip([w["window_id"] for w in windows], ctx.tokenizer.count_batch(
            [w["reference_summary"] for w in windows])))
        by_unit = dict(zip(units, extract_many(list(units.values()))))
        entities = {w["window_id"]: merge_entities([by_unit[u] for u in _units_of(w)])
                    for w in windows}
        for w, type_id in _jobs(windows, ctx.config):
            messages = build_messages(w["reference_summary"], w["language"],
                                      entities[w["window_id"]], type_id, None)
            planned.append(PlannedRequest("inject", inject.generator, messages,
                                          lengths[w["window_id"]] + 120))
    return planned
