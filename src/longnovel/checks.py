"""``doctor`` and ``plan``: check the setup, and estimate LLM spending before a run."""

from __future__ import annotations

from pathlib import Path

from longnovel.errors import LongnovelError

LLM_STAGES = ["arbitrate", "inject"]


def doctor_rows(pipeline) -> list[dict]:
    """Checks of tokenizer, corpus paths, API keys, and one tiny request per model."""
    config = pipeline.config
    rows = [{"check": "config", "status": "ok", "detail": f"{len(config.models)} model(s)"}]
    try:
        from longnovel.tokenizer import load_tokenizer

        tokenizer = load_tokenizer(config.tokenizer)
        rows.append({"check": "tokenizer", "status": "ok", "detail": tokenizer.name})
    except LongnovelError as exc:
        rows.append({"check": "tokenizer", "status": "error", "detail": str(exc)})
    for source in config.corpus:
        found = Path(source.path).exists()
        rows.append({"check": f"corpus {source.path}", "status": "ok" if found else "error",
                     "detail": source.format if found else "path not found"})
    if config.models:
        from longnovel.llm import run_doctor

        for row in run_doctor(config.models):
            detail = f"{row['provider']}:{row['model']} key {row['key']}"
            if row["key"] == "missing":
                detail = f"{row['provider']}:{row['model']} {row['status']}"
            elif row["latency_s"] is not None:
                detail += f", {row['latency_s']:.2f}s"
            if row["status"] != "ok" and row["key"] != "missing":
                detail += f": {row['status']} (endpoint {row['endpoint']})"
            rows.append({"check": f"model {row['name']}",
                         "status": "ok" if row["status"] == "ok" else "error", "detail": detail})
    return rows


def plan_rows(config, run_dir: Path, tiers: dict[str, int]) -> list[dict]:
    """Requests, tokens and cost per LLM stage and model, from the windows in ``run_dir``."""
    from longnovel.llm import estimate
    from longnovel.stages.base import StageContext
    from longnovel.state import stage_module
    from longnovel.tokenizer import load_tokenizer

    planned = []
    for name in LLM_STAGES:
        module = stage_module(name)
        ctx = StageContext(config, run_dir, tiers, False, stage=name)
        planned.extend(module.plan_requests(ctx))
    return estimate(planned, config.models, load_tokenizer(config.tokenizer))


ESTIMATE_COLUMNS = ["stage", "model", "requests", "prompt_tokens", "completion_tokens", "cost",
                    "mode"]


def estimate_table(rows: list[dict]) -> str:
    """Spending estimates per stage and model (batch mode at the batch rate), with a total
    row."""
    total = {"stage": "total", "model": "", "mode": "",
             "requests": sum(r["requests"] for r in rows),
             "prompt_tokens": sum(r["prompt_tokens"] for r in rows),
             "completion_tokens": sum(r["completion_tokens"] for r in rows),
             "cost": round(sum(r["cost"] for r in rows), 4)}
    return table([*rows, total], ESTIMATE_COLUMNS)


def table(rows: list[dict], headers: list[str], cell=str) -> str:
    """A plain aligned text table; ``cell`` formats each value."""
    cells = [[cell(r.get(h, "")) for h in headers] for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h)
              for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells]
    return "\n".join(lines)
