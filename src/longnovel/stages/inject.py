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
from longnovel.injection.assign import reassign
from longnovel.injection.entities import EntityExtractor
from longnovel.stages.base import StageContext, StageResult
from longnovel.taxonomy import TYPE_IDS

NAME = "inject"
READS = ["expand/windows.parquet", "ingest/units.parquet"]
CODE_VERSION = "21"

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
    if config.inject.verify:
        used.add(config.inject.verify)
    section["models"] = {m: config.models[m].fingerprint_fields() for m in sorted(used)}
    if used:  # the prompts matter only when a model is asked
        from longnovel.templates import prompts_digest

        section["prompts"] = prompts_digest("inject_")
    return section


def run(ctx: StageContext) -> StageResult:
    windows = _windows(ctx)
    inject = ctx.config.inject
    runner = ctx.llm_runner() if _uses_model(inject) else None
    writer = ctx.writer("injections.parquet", INJECTIONS, 128)
    try:
        by_unit, entity_failures = _unit_entities(ctx, windows, runner)
        ctx.writer("entities.parquet", ENTITIES, 1024).write_rows(
            {"book_id": book, "unit_index": index, **e}
            for (book, index), found in by_unit.items() for e in found)
        engine = Engine(ctx, WindowEntities(by_unit, windows), runner,
                        book_vocabularies(ctx.iter_batches("ingest/units.parquet",
                                                           ["book_id", "language", "summary"],
                                                           batch_size=1024), windows))
        rows = _run_in_chunks(engine, _jobs(windows, ctx.config), writer,
                              chunk=None if runner is not None else RULES_CHUNK_JOBS)
        rows += _light(_rebalance(engine, windows, rows, inject.type_list()), writer)
        usage = runner.usage() if runner else {}
        failures = dict(runner.failures()) if runner else {}
    finally:
        if runner is not None:
            runner.close()
    for reason, n in entity_failures.items():
        failures[reason] = failures.get(reason, 0) + n
    return _result(windows, rows, by_unit, usage, failures, engine.verified, inject.type_list())


RULES_CHUNK_JOBS = 512  # jobs the rules generator runs (and writes) at a time
_LIGHT = ("window_id", "tier", "language", "type", "valid", "reject_reason")


def _run_in_chunks(engine: Engine, jobs: list, writer, chunk: int | None) -> list[dict]:
    """Run ``jobs`` a chunk at a time (all at once with a model: one round of requests, one
    batch), writing every row as it comes; returns the rows without their summaries (what
    balancing and the counts need), so memory does not grow with the corpus."""
    size = chunk or max(1, len(jobs))
    light: list[dict] = []
    for start in range(0, len(jobs), size):
        light += _light(engine.run(jobs[start : start + size]), writer)
    return light


def _light(rows: list[dict], writer) -> list[dict]:
    writer.write_rows(rows)
    return [{k: r[k] for k in _LIGHT} for r in rows]


class WindowEntities:
    """A window's entities, merged from its units' on first use and kept for the last few
    windows only (all windows' merged lists of a large corpus would not fit in memory)."""

    KEEP = 64

    def __init__(self, by_unit: dict, windows: list[dict]):
        from collections import OrderedDict

        self.by_unit = by_unit
        self.units = {w["window_id"]: _units_of(w) for w in windows}
        self._recent: OrderedDict = OrderedDict()

    def __getitem__(self, window_id: str) -> list[dict]:
        found = self._recent.get(window_id)
        if found is None:
            found = merge_entities([self.by_unit[u] for u in self.units[window_id]])
            self._recent[window_id] = found
            if len(self._recent) > self.KEEP:
                self._recent.popitem(last=False)
        else:
            self._recent.move_to_end(window_id)
        return found


def _windows(ctx: StageContext) -> list[dict]:
    rows = ctx.windows(["window_id", "tier", "language", "book_id", "unit_start", "unit_end",
                        "reference_summary"])
    return sorted(rows, key=lambda r: r["window_id"])


def _articles(ctx: StageContext, window_ids: set[str]) -> dict[str, str]:
    """The articles of ``window_ids`` only, read batch by batch (never the whole column)."""
    import pyarrow.parquet as pq

    path = "expand/windows.parquet"  # declared in READS
    out: dict[str, str] = {}
    with pq.ParquetFile(ctx.run_dir / path) as handle:
        for batch in handle.iter_batches(columns=["window_id", "article"], batch_size=64):
            for window_id, article in zip(batch.column(0).to_pylist(),
                                          batch.column(1).to_pylist()):
                if window_id in window_ids:
                    out[window_id] = article
    return out


def book_vocabularies(batches, windows: list[dict]) -> dict:
    """book -> the ``Vocabulary`` of its unit summaries, for the books some window is of;
    ``batches``: record batches of ``book_id, language, summary`` (``ingest/units.parquet``)."""
    from longnovel.injection.text import Vocabulary

    books = {w["book_id"] for w in windows}
    out: dict = {}
    for batch in batches:
        for book, language, summary in zip(*(c.to_pylist() for c in batch.columns),
                                           strict=True):
            if book in books:
                out.setdefault(book, Vocabulary(language == "zh")).add(summary)
    return out


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
    return inject.generator != "rules" or inject.entities != "lexical" or bool(inject.verify)


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
    if ctx.config.inject.entities == "lexical":
        return _lexical_unit_entities(ctx, windows), Counter()
    units = _unit_texts(ctx, windows)
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


def _lexical_unit_entities(ctx: StageContext, windows: list[dict]) -> dict:
    """Lexical entities of every unit some window covers, reading the units a row batch at a
    time (their texts are never all in memory) and extracting on one process pool."""
    wanted = {u for w in windows for u in _units_of(w)}
    columns = ["book_id", "unit_index", "language", "text"]
    out: dict = {}
    with EntityExtractor() as extract:
        for batch in ctx.iter_batches("ingest/units.parquet", columns, batch_size=256):
            keys, texts = [], []
            for book, index, language, text in zip(*(batch.column(c).to_pylist()
                                                     for c in columns), strict=True):
                if (book, index) in wanted:
                    keys.append((book, index))
                    texts.append((text, language))
            if keys:
                out.update(zip(keys, extract(texts)))
    return dict(sorted(out.items()))


def _entity_requests(units: dict, model: str, schema=None) -> list:
    from longnovel.injection.llm_entities import entity_messages
    from longnovel.llm import Request

    return [Request(key=f"entities/{book}/{index}", model=model,
                    messages=entity_messages(text, language), schema=schema,
                    group=f"{book}/{index}")
            for (book, index), (text, language) in units.items()]


# --- generation, validation, verification -------------------------------------------------

class Engine:
    """Runs (window, type) jobs: rounds of generation (the rules or an LLM), validation and,
    with ``inject.verify``, verification; every job still rejected is tried again, with the
    reason, up to ``inject.max_retries`` times. ``verified`` counts checks per type."""

    VERIFY_WINDOWS = 32  # windows whose articles are in memory at once

    def __init__(self, ctx: StageContext, entities: dict, runner,
                 vocabularies: dict | None = None):
        self.ctx, self.entities, self.runner = ctx, entities, runner
        self.inject = ctx.config.inject
        self.rules = RulesGenerator(ctx.config.seed, vocabularies)
        self.verified: dict[str, Counter] = {}

    def run(self, jobs: list[tuple[dict, str]]) -> list[dict]:
        """One row per job: its last outcome and reason."""
        last: dict[int, tuple[object, str | None]] = {}
        tried: dict[int, list[str]] = {}  # the rules' rejected candidates, not offered again
        pending = list(range(len(jobs)))
        for attempt in range(self.inject.max_retries + 1):
            if not pending:
                break
            previous = [last[k][1] if k in last else None for k in pending]
            outcomes = self._generate([jobs[k] for k in pending], attempt, previous,
                                      [tried.get(k, ()) for k in pending])
            for k, outcome in zip(pending, outcomes):
                last[k] = outcome
                if self.inject.generator == "rules" and isinstance(outcome[0], Candidate):
                    tried.setdefault(k, []).append(outcome[0].summary)
            if self.inject.verify:
                self._verify(jobs, last, [k for k in pending if last[k][1] is None], attempt)
            pending = [k for k in pending if last[k][1] is not None
                       and not isinstance(last[k][0], NotApplicable)]
        return [_row(window, type_id, *last[k]) for k, (window, type_id) in enumerate(jobs)]

    def _generate(self, jobs, attempt: int, previous: list,
                  tried: list) -> list[tuple[object, str | None]]:
        if self.inject.generator == "rules":
            out = []
            for (window, type_id), before in zip(
                    self.ctx.progress(jobs, desc="inject", total=len(jobs)), tried):
                outcome = self.rules.generate(window["reference_summary"], window["language"],
                                              self.entities[window["window_id"]], type_id,
                                              attempt, before, window["book_id"])
                reason = _reject_reason(outcome, window["language"])
                if reason is not None:
                    self.rules.withdraw(outcome)
                out.append((outcome, reason))
            return out
        return self._llm_generate(jobs, attempt, previous)

    def _llm_generate(self, jobs, attempt: int, previous: list) -> list:
        from longnovel.injection.llm_generator import build_messages, choose_target
        from longnovel.llm import Request

        model, seed = self.inject.generator, self.ctx.config.seed
        out: list = [None] * len(jobs)
        asked, requests = [], []
        for i, ((window, type_id), rejected) in enumerate(zip(jobs, previous)):
            summary, language = window["reference_summary"], window["language"]
            entities = self.entities[window["window_id"]]
            target = choose_target(summary, language, entities, type_id, seed, attempt)
            if isinstance(target, NotApplicable):
                out[i] = (target, _reject_reason(target, language))
                continue
            asked.append((i, target))
            requests.append(Request(
                key=f"{window['window_id']}/{type_id}/{attempt}", model=model,
                messages=build_messages(summary, language, entities, target, rejected),
                group=window["window_id"]))  # no schema: reply_from_result reads any reply
        for (i, target), result in zip(asked, self.runner.run(requests)):
            out[i] = _judge_reply(jobs[i][0], target, result, model)
        return out

    def _verify(self, jobs, last: dict, valid: list[int], attempt: int) -> None:
        """Ask the judge about each valid candidate, a few windows (and articles) at a time."""
        by_window: dict[str, list[int]] = {}
        for k in valid:
            by_window.setdefault(jobs[k][0]["window_id"], []).append(k)
        ids = sorted(by_window)
        for start in range(0, len(ids), self.VERIFY_WINDOWS):
            chunk = ids[start : start + self.VERIFY_WINDOWS]
            articles = _articles(self.ctx, set(chunk))
            ks = [k for window_id in chunk for k in by_window[window_id]]
            requests = [_verify_request(jobs[k], last[k][0], articles, self.inject.verify,
                                        attempt) for k in ks]
            from longnovel.injection.verify import verdict

            for k, result in zip(ks, self.runner.run(requests)):
                reason = verdict(result)
                counter = self.verified.setdefault(jobs[k][1], Counter())
                counter["checked"] += 1
                counter[reason or "accepted"] += 1
                if reason is not None:
                    self.rules.withdraw(last[k][0])
                last[k] = (last[k][0], reason)


def _verify_request(job, candidate, articles: dict, model: str, attempt: int):
    from longnovel.injection.verify import VerifyReply, verify_messages
    from longnovel.llm import Request

    window, type_id = job
    return Request(key=f"verify/{window['window_id']}/{type_id}/{attempt}", model=model,
                   messages=verify_messages(articles[window["window_id"]], candidate,
                                            window["language"]),
                   schema=VerifyReply, group=window["window_id"])


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


def _judge_reply(window: dict, target, result, model: str) -> tuple[object, str | None]:
    from longnovel.injection.llm_generator import (
        blanked,
        candidate_fault,
        reply_from_result,
        splice_reply,
    )

    source = window["reference_summary"][target.start:target.end] or target.anchor
    # a plain-text answer is taken as the sentence; an added one need only name something,
    # and the words for a blank need share none
    if blanked(window["reference_summary"], target) is not None:
        source = ""
    reply = reply_from_result(result, source, 0.0 if target.insertion else 0.2)
    if reply is None:
        return None, f"llm_{result.error or 'empty'}"
    try:
        outcome = splice_reply(window["reference_summary"], window["language"], target,
                               reply, model)
    except ValueError:
        return None, "llm_schema"
    return outcome, (_reject_reason(outcome, window["language"])
                     or candidate_fault(window["reference_summary"], window["language"],
                                        target, outcome))


# --- balance after rejection ------------------------------------------------------------------

def _rebalance(engine: Engine, windows: list[dict], rows: list[dict],
               types: list[str]) -> list[dict]:
    """Extra jobs for the slots that final rejections left, pass after pass, so each tier and
    language ends with its types within one of each other wherever the corpus allows."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for w in windows:
        groups.setdefault((w["tier"], w["language"]), []).append(w)
    by_id = {w["window_id"]: w for w in windows}
    free = Counter((r["tier"], r["language"]) for r in rows if not r["valid"])
    failed = {key: [r["window_id"] for r in rows
                    if not r["valid"] and (r["tier"], r["language"]) == key] for key in groups}
    extra: list[dict] = []
    for _ in range(len(types)):
        jobs = []
        for key, members in sorted(groups.items()):
            seen = [(r["window_id"], r["type"], r["valid"]) for r in rows + extra
                    if (r["tier"], r["language"]) == key]
            planned = reassign([w["window_id"] for w in members], seen, types, free[key],
                               failed[key])
            failed[key] = failed[key][len(planned):]
            jobs += [(by_id[window_id], type_id) for window_id, type_id in planned]
        if not jobs:
            break
        new = engine.run(jobs)
        for row in new:
            if row["valid"]:
                free[(row["tier"], row["language"])] -= 1
        extra += new
    return extra


def balance(rows: list[dict], types: list[str]) -> dict[str, dict]:
    """Valid injections per type in each ``tier/language``, with max, min and max/min."""
    out = {}
    for key in sorted({f"{r['tier']}/{r['language']}" for r in rows}):
        counts = {t: 0 for t in types}
        for r in rows:
            if r["valid"] and f"{r['tier']}/{r['language']}" == key and r["type"] in counts:
                counts[r["type"]] += 1
        top, bottom = max(counts.values()), min(counts.values())
        out[key] = {"types": counts, "max": top, "min": bottom,
                    "max_over_min": round(top / bottom, 3) if bottom else None}
    return out


# --- result -----------------------------------------------------------------------------------

def _result(windows, rows, by_unit, usage, failures, verified, types) -> StageResult:
    dropped = Counter(r["reject_reason"].split(":")[0] for r in rows if not r["valid"])
    valid = Counter(f"{r['language']}/{r['type']}" for r in rows if r["valid"])
    extra = {"rows": len(rows), "valid_by_language_type": dict(sorted(valid.items())),
             "balance": balance(rows, types)}
    if verified:
        extra["verify"] = {t: {**dict(sorted(c.items())),
                               "acceptance": round(c["accepted"] / c["checked"], 3)}
                           for t, c in sorted(verified.items(), key=lambda i: TYPE_IDS.index(i[0]))}
    return StageResult(
        rows_in=len(windows), rows_out=sum(1 for r in rows if r["valid"]),
        dropped=dict(sorted(dropped.items())), failures=dict(sorted(failures.items())),
        usage=usage, extra=extra, row_group_size=128)


# --- plan ---------------------------------------------------------------------------------------

def plan_requests(ctx: StageContext) -> list:
    """The first-round requests this stage would send (for ``longnovel plan``): entities,
    generation and, with ``inject.verify``, one verification per job whose first candidate
    passes the validator (the rules generator's) or could (an LLM's). Sends nothing."""
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
    by_unit = dict(zip(units, extract_many(list(units.values()))))
    entities = {w["window_id"]: merge_entities([by_unit[u] for u in _units_of(w)])
                for w in windows}
    jobs = _jobs(windows, ctx.config)
    firsts = _first_candidates(ctx, jobs, entities)
    if inject.generator != "rules":
        from longnovel.injection.llm_generator import build_messages

        for (w, _type_id), (target, _) in zip(jobs, firsts):
            if isinstance(target, NotApplicable):
                continue
            messages = build_messages(w["reference_summary"], w["language"],
                                      entities[w["window_id"]], target, None)
            span = w["reference_summary"][target.start:target.end] or target.anchor
            planned.append(PlannedRequest("inject", inject.generator, messages,
                                          ctx.tokenizer.count(span) * 2 + 20))
    if inject.verify:
        planned += _planned_verifications(ctx, jobs, firsts)
    return planned


def _first_candidates(ctx: StageContext, jobs, entities: dict) -> list[tuple[object, object]]:
    """(target or outcome, candidate to verify) of each job's first attempt, sending nothing:
    an LLM's candidate is stood in for by the rules generator's."""
    from longnovel.injection.llm_generator import choose_target

    rules = RulesGenerator(ctx.config.seed)
    out = []
    for w, type_id in jobs:
        summary, language = w["reference_summary"], w["language"]
        outcome = rules.generate(summary, language, entities[w["window_id"]], type_id, 0)
        ok = outcome if _reject_reason(outcome, language) is None else None
        if ctx.config.inject.generator == "rules":
            out.append((outcome, ok))
        else:
            target = choose_target(summary, language, entities[w["window_id"]], type_id,
                                   ctx.config.seed, 0)
            asked = not isinstance(target, NotApplicable) and isinstance(outcome, Candidate)
            out.append((target, outcome if asked else None))
    return out


def _planned_verifications(ctx: StageContext, jobs, firsts) -> list:
    from longnovel.injection.verify import verify_messages
    from longnovel.llm import PlannedRequest

    wanted = {w["window_id"] for (w, _), (_, c) in zip(jobs, firsts) if c is not None}
    articles = _articles(ctx, wanted)  # the plan reads only the articles it needs
    return [PlannedRequest("inject", ctx.config.inject.verify,
                           verify_messages(articles[w["window_id"]], c, w["language"]), 30)
            for (w, _), (_, c) in zip(jobs, firsts) if c is not None]
