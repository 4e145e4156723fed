"""Stage arbitrate: LLM summaries, cross-model judgments and aggregated labels (DESIGN.md §10).

Two rounds of requests through the LLM runner. First every model in ``arbitrate.summarizers``
summarizes every selected window; then every judge in ``arbitrate.judges`` judges every other
model's summary of that window. Requests carry ``group = window_id`` so each model gets one
window's requests together, and the prompts start with the article (see
``longnovel.arbitration.prompts``), so a prefix-caching server prefills each article once per
model. Bad replies are rows with ``ok = false`` and the raw text, counted in the manifest.

Without summarizers configured the stage writes the three files empty and says so, and the
rest of the pipeline runs on human and injected samples.
"""

from __future__ import annotations

import random

import pyarrow as pa

from longnovel.arbitration.labels import failures, figures, label_rows
from longnovel.arbitration.rows import judgment_jobs, judgment_row, summary_row
from longnovel.config import Config
from longnovel.stages.base import StageContext, StageResult

NAME = "arbitrate"
READS = ["expand/windows.parquet"]
CODE_VERSION = "3"

JUDGMENT_COMPLETION_TOKENS = 200  # plan estimate of a judgment reply (score, types, a reason)
WINDOW_COLUMNS = ["window_id", "tier", "language", "book_id", "n_tokens", "article",
                  "reference_summary"]

SUMMARIES = pa.schema([("window_id", pa.string()), ("tier", pa.string()), ("model", pa.string()),
                       ("summary", pa.string()), ("usage", pa.string()), ("ok", pa.bool_()),
                       ("error", pa.string()), ("raw", pa.string()),
                       ("finish_reason", pa.string())])
JUDGMENTS = pa.schema([("window_id", pa.string()), ("summary_model", pa.string()),
                       ("judge_model", pa.string()), ("score", pa.int64()),
                       ("hallucination_types", pa.list_(pa.string())), ("reason", pa.string()),
                       ("raw", pa.string()), ("ok", pa.bool_()),
                       ("unknown_types", pa.list_(pa.string())), ("error", pa.string())])
LABELS = pa.schema([("window_id", pa.string()), ("tier", pa.string()),
                    ("summary_model", pa.string()), ("summary", pa.string()),
                    ("label", pa.string()), ("score", pa.int64()),
                    ("hallucination_types", pa.list_(pa.string())), ("reason", pa.string()),
                    ("agreement", pa.float64()), ("n_judgments", pa.int64()),
                    ("n_judges", pa.int64())])


def config_section(config: Config, state=None) -> dict:
    from longnovel.templates import prompts_digest

    section = config.arbitrate.model_dump()
    used = set(config.arbitrate.summarizers) | set(config.arbitrate.judges)
    section["models"] = {m: config.models[m].fingerprint_fields() for m in sorted(used)}
    section["seed"] = config.seed
    section["prompts"] = prompts_digest("arbitrate_")
    return section


def run(ctx: StageContext) -> StageResult:
    table = ctx.read("expand/windows.parquet", WINDOW_COLUMNS, tiers=ctx.selected_tiers())
    arbitrate = ctx.config.arbitrate
    if not arbitrate.summarizers:
        empty = {"summaries.parquet": SUMMARIES.empty_table(),
                 "judgments.parquet": JUDGMENTS.empty_table(),
                 "labels.parquet": LABELS.empty_table()}
        return StageResult(tables=empty, rows_in=table.num_rows, rows_out=0,
                           extra={"note": "no summarizers configured: arbitration skipped"})
    windows, not_selected = select_windows(ctx, table)
    runner = ctx.llm_runner()
    try:
        summaries = summaries_round(ctx, windows, runner)
        judgments = judgments_round(ctx, windows, summaries, runner)
        usage = runner.usage()
    finally:
        runner.close()
    labels = label_rows(summaries, judgments, arbitrate.judges, arbitrate.rule)
    return _result(windows, not_selected, summaries, judgments, labels, usage, arbitrate.rule)


# --- windows ------------------------------------------------------------------------------------

def select_windows(ctx: StageContext, table: pa.Table) -> tuple[list[dict], int]:
    """The windows of the selected tiers, at most ``max_windows_per_tier`` per tier (sampled
    with the seed, spread across books); and how many were left out."""
    from longnovel.windows import sample_spread

    tiers = ctx.selected_tiers()
    rows = [r for r in table.select(WINDOW_COLUMNS).to_pylist() if r["tier"] in tiers]
    cap = ctx.config.arbitrate.max_windows_per_tier
    chosen: list[dict] = []
    for tier in dict.fromkeys(r["tier"] for r in rows):
        by_book: dict[str, list[dict]] = {}
        for row in (r for r in rows if r["tier"] == tier):
            by_book.setdefault(row["book_id"], []).append(row)
        rng = random.Random(f"{ctx.config.seed}:arbitrate:{tier}")
        chosen.extend(sample_spread(by_book, cap, rng))
    return chosen, len(rows) - len(chosen)


# --- round 1: summaries -------------------------------------------------------------------------

def summary_requests(windows: list[dict], summarizers: list[str]) -> list:
    """One request per (window, summarizer), grouped by window."""
    from longnovel.arbitration.prompts import summary_prompt
    from longnovel.llm import Request

    requests = []
    for w in windows:
        messages = summary_prompt(w["article"], w["reference_summary"], w["language"]).messages()
        requests += [Request(key=f"summary/{w['window_id']}/{model}", model=model,
                             messages=messages, group=w["window_id"]) for model in summarizers]
    return requests


def add_prompt_hints(requests: list, windows: list[dict], ctx: StageContext) -> list:
    """Give each request about a window its prompt's token count without tokenizing the
    article again: the window's ``n_tokens`` plus the rest of the prompt (a request's
    ``group`` is its window id). The rest is bounded by its UTF-8 bytes, and counted with the
    tokenizer only where the bound matters: the prompt might not fit the model's context
    window, or the model has a tokens-per-minute limit. So a run whose prompts fit easily
    never loads the tokenizer."""
    from longnovel.llm.tokens import count_prompts, prompt_token_bound

    by_id = {w["window_id"]: w for w in windows}
    bare = [[{**m, "content": m["content"].replace(by_id[r.group]["article"], "", 1)}
             for m in r.messages] for r in requests]
    hints = [by_id[r.group]["n_tokens"] + prompt_token_bound(b)
             for r, b in zip(requests, bare, strict=True)]
    models = ctx.config.models
    exact = [k for k, r in enumerate(requests)
             if models[r.model].tokens_per_minute
             or hints[k] + models[r.model].max_tokens > models[r.model].context_window]
    counts = count_prompts([bare[k] for k in exact], ctx.tokenizer) if exact else []
    for k, count in zip(exact, counts, strict=True):
        hints[k] = by_id[requests[k].group]["n_tokens"] + count
    counted = set(exact)
    for k, request in enumerate(requests):
        request.prompt_tokens_hint, request.prompt_hint_exact = hints[k], k in counted
    return requests


def summaries_round(ctx: StageContext, windows: list[dict], runner) -> list[dict]:
    """Every summarizer's summary of every window, as summary rows (failed ones ``ok=False``)."""
    summarizers = ctx.config.arbitrate.summarizers
    requests = add_prompt_hints(summary_requests(windows, summarizers), windows, ctx)
    results = runner.run(requests)
    jobs = [(w, model) for w in windows for model in summarizers]
    return [summary_row(w, model, result)
            for (w, model), result in zip(jobs, results, strict=True)]


# --- round 2: judgments -------------------------------------------------------------------------

def judgment_request(window: dict, summary: str, summary_model: str, judge: str,
                     use_reference: bool):
    from longnovel.arbitration.judgment import JudgeReply
    from longnovel.arbitration.prompts import judge_prompt
    from longnovel.llm import Request

    reference = window["reference_summary"] if use_reference else None
    prompt = judge_prompt(window["article"], summary, window["language"], reference)
    return Request(key=f"judgment/{window['window_id']}/{summary_model}/{judge}", model=judge,
                   messages=prompt.messages(), schema=JudgeReply, group=window["window_id"])


def judgments_round(ctx: StageContext, windows, summaries, runner) -> list[dict]:
    """Every usable summary judged by every judge except its author."""
    arbitrate = ctx.config.arbitrate
    jobs = judgment_jobs(windows, summaries, arbitrate.judges)
    requests = [judgment_request(w, s["summary"], s["model"], judge, arbitrate.use_reference)
                for w, s, judge in jobs]
    results = runner.run(add_prompt_hints(requests, windows, ctx))
    return [judgment_row(w, s, judge, result)
            for (w, s, judge), result in zip(jobs, results, strict=True)]


# --- result -------------------------------------------------------------------------------------

def _result(windows, not_selected, summaries, judgments, labels, usage, rule) -> StageResult:
    tables = {"summaries.parquet": pa.Table.from_pylist(summaries, schema=SUMMARIES),
              "judgments.parquet": pa.Table.from_pylist(judgments, schema=JUDGMENTS),
              "labels.parquet": pa.Table.from_pylist(labels, schema=LABELS)}
    return StageResult(tables=tables, rows_in=len(windows) + not_selected, rows_out=len(labels),
                       dropped={"not_selected": not_selected} if not_selected else {},
                       failures=failures(summaries, judgments), usage=usage,
                       extra=figures(windows, summaries, judgments, labels, rule))


# --- plan ---------------------------------------------------------------------------------------

def plan_requests(ctx: StageContext) -> list:
    """The requests this stage would send (for ``longnovel plan``); sends nothing.

    The summaries round is exact. The judgments round does not exist yet, so each summary is
    stood in for by the window's reference summary, which is the length summaries aim at.
    """
    from longnovel.llm import PlannedRequest

    arbitrate = ctx.config.arbitrate
    if not arbitrate.summarizers:
        return []
    windows, _ = select_windows(ctx, ctx.read("expand/windows.parquet", WINDOW_COLUMNS,
                                              tiers=ctx.selected_tiers()))
    lengths = ctx.tokenizer.count_batch([w["reference_summary"] for w in windows])
    planned = [PlannedRequest(NAME, r.model, r.messages, n)
               for r, n in zip(summary_requests(windows, arbitrate.summarizers),
                               (n for n in lengths for _ in arbitrate.summarizers), strict=True)]
    stand_ins = [{"ok": True, "window_id": w["window_id"], "model": m,
                  "summary": w["reference_summary"]}
                 for w in windows for m in arbitrate.summarizers]
    for w, s, judge in judgment_jobs(windows, stand_ins, arbitrate.judges):
        request = judgment_request(w, s["summary"], s["model"], judge, arbitrate.use_reference)
        planned.append(PlannedRequest(NAME, judge, request.messages, JUDGMENT_COMPLETION_TOKENS))
    return planned
