"""The ``status`` table: one row per stage."""

from __future__ import annotations

from longnovel.pipeline import STAGES, read_manifest


def _usage_totals(usage: dict) -> tuple[int, float]:
    tokens = sum(int(m.get("prompt_tokens", 0)) + int(m.get("completion_tokens", 0))
                 for m in usage.values())
    cost = sum(float(m.get("cost", 0.0)) for m in usage.values())
    return tokens, cost


def status_rows(pipeline) -> list[dict]:
    """State, rows, failures, LLM tokens and cost, and finish time of each stage."""
    rows = []
    for name in STAGES:
        manifest = read_manifest(pipeline.run_dir, name) or {}
        tokens, cost = _usage_totals(manifest.get("usage") or {})
        rows.append({
            "stage": name, "state": pipeline.state(name),
            "rows_in": manifest.get("rows_in"), "rows_out": manifest.get("rows_out"),
            "failures": sum((manifest.get("failures") or {}).values()),
            "tokens": tokens, "cost": round(float(cost), 4),
            "finished_at": manifest.get("finished_at", ""),
        })
    return rows


def status_table(rows: list[dict]) -> str:
    from longnovel.checks import table

    return table(rows, ["stage", "state", "rows_in", "rows_out", "failures", "tokens", "cost",
                        "finished_at"], cell=_cell)


def _cell(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"${value:.4f}"
    return str(value)
