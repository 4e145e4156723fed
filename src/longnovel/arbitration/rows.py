"""The rows of ``summaries.parquet`` and ``judgments.parquet``: which summaries each judge
judges, and a row from each runner result (a failed request is a row with ``ok = false``, its
error and raw reply). No I/O."""

from __future__ import annotations

import json

from longnovel.arbitration.judgment import judgment_fields
from longnovel.arbitration.prompts import clean_summary


def summary_row(window: dict, model: str, result) -> dict:
    """The summary row of ``model``'s reply about ``window``."""
    summary = clean_summary(result.text) if result.ok else ""
    error = result.error or ("" if summary else "empty")
    ok = not error
    return {"window_id": window["window_id"], "tier": window["tier"], "model": model,
            "summary": summary, "usage": json.dumps(result.usage, sort_keys=True), "ok": ok,
            "error": error, "raw": "" if ok else result.raw,
            "finish_reason": result.finish_reason or ""}


def judgment_jobs(windows: list[dict], summaries: list[dict], judges: list[str]):
    """(window, summary row, judge) for every usable summary and every judge but its author."""
    by_window: dict[str, list[dict]] = {}
    for row in summaries:
        if row["ok"]:
            by_window.setdefault(row["window_id"], []).append(row)
    return [(w, s, judge) for w in windows for judge in judges
            for s in by_window.get(w["window_id"], []) if s["model"] != judge]


def judgment_row(window: dict, summary: dict, judge: str, result) -> dict:
    """The judgment row of ``judge``'s reply about ``summary`` (a summary row)."""
    row = {"window_id": window["window_id"], "summary_model": summary["model"],
           "judge_model": judge, "score": None, "hallucination_types": [], "reason": "",
           "raw": result.raw, "ok": bool(result.ok), "unknown_types": [],
           "error": result.error or ""}
    if result.ok:
        row.update(judgment_fields(result.parsed))
    return row
