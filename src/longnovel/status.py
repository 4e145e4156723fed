"""The ``status`` table: one row per stage."""

from __future__ import annotations

from longnovel.state import STAGES, read_manifest


def _usage_totals(usage: dict) -> tuple[int, float]:
    tokens = sum(int(m.get("prompt_tokens", 0)) + int(m.get("completion_tokens", 0))
                 for m in usage.values())
    cost = sum(float(m.get("cost", 0.0)) for m in usage.values())
    return tokens, cost


def status_rows(pipeline) -> list[dict]:
    """State (and why), rows, failures by reason, LLM tokens and cost, finish time, and the
    batches not yet collected (``{model: {batches, requests}}``) of models in batch mode."""
    from longnovel.llm.batch_store import pending_counts, store_path

    pending = pending_counts(store_path(pipeline.run_dir))
    rows = []
    for name in STAGES:
        manifest = read_manifest(pipeline.run_dir, name) or {}
        tokens, cost = _usage_totals(manifest.get("usage") or {})
        status = pipeline.status(name)
        failures = manifest.get("failures") or {}
        rows.append({
            "stage": name, "state": status.state, "why": status.reason,
            "rows_in": manifest.get("rows_in"), "rows_out": manifest.get("rows_out"),
            "failures": sum(failures.values()), "failures_by_reason": failures,
            "unanswered": manifest.get("unanswered", 0),
            "tokens": tokens, "cost": round(float(cost), 4),
            "finished_at": manifest.get("finished_at", ""),
            "pending_batches": pending.get(name, {}),
        })
    return rows


def card_line(pipeline) -> str:
    """Where the dataset card stands (the release step after export, see
    ``longnovel.release.publish``)."""
    from longnovel.release.publish import CARD, card_state

    state = card_state(pipeline.run_dir, pipeline.config)
    hint = {"fresh": "", "stale": " (`longnovel build` rewrites it)",
            "missing": " (written after export)"}[state]
    return f"dataset card {CARD}: {state}{hint}"


def paths_lines(config) -> str:
    """Where the config reads and writes, each path resolved (relative paths in a config are
    taken from the config file's folder)."""
    from longnovel.config import available_cores, is_embedded

    paths = config.resolved_paths()
    where = paths["config"] or "(built in code)"
    if config.file and is_embedded(config.file):
        where += " (the embedded default: run dir and cache under the current folder)"
    lines = [f"config:  {where}",
             f"run dir: {paths['run_dir']}", f"cache:   {paths['cache']}"]
    lines += [f"corpus:  {source.path} ({source.format}, {source.language})"
              for source in config.corpus]
    if config.tokenizer != "qwen3":
        lines.append(f"tokenizer: {config.tokenizer}")
    lines.append(f"workers: {config.workers} (cores available: {available_cores()})")
    return "\n".join(lines)


def tier_rows(pipeline) -> list[dict]:
    """Windows and exported samples per selected tier and language, zeros included."""
    expand = (read_manifest(pipeline.run_dir, "expand") or {}).get("windows_per_tier_language")
    languages = sorted({s.language for s in pipeline.config.corpus})
    rows = []
    for tier in pipeline.selected_tiers():
        for language in languages:
            rows.append({"tier": tier, "language": language,
                         "windows": ((expand or {}).get(tier) or {}).get(language, 0),
                         "samples": _exported(pipeline.run_dir, tier, language)})
    return rows


def _exported(run_dir, tier: str, language: str) -> int:
    import json

    try:
        stats = json.loads((run_dir / "export" / "stats.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    return int(((stats.get("by_tier_language") or {}).get(tier) or {}).get(language, 0))


def status_table(rows: list[dict]) -> str:
    from longnovel.checks import table

    shown = [{**row, "failures": _failures_cell(row)} for row in rows]
    text = table(shown, ["stage", "state", "why", "rows_in", "rows_out", "failures", "tokens",
                         "cost", "finished_at"], cell=_cell)
    return "\n".join([text, *_pending_lines(rows)])


def _pending_lines(rows: list[dict]) -> list[str]:
    """One line per stage with batches not yet collected (the next build polls them)."""
    lines = []
    for row in rows:
        pending = row.get("pending_batches") or {}
        if pending:
            models = ", ".join(f"{model} {p['batches']} batch(es), {p['requests']} request(s)"
                               for model, p in sorted(pending.items()))
            lines.append(f"pending batches of {row['stage']}: {models}")
    return lines


def _failures_cell(row: dict) -> str:
    if not row["failures"]:
        return "0"
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(row["failures_by_reason"].items()))
    return f"{row['failures']} ({reasons})"


def _cell(value) -> str:
    if value is None or value == "":
        return "-"
    if isinstance(value, float):
        return f"${value:.4f}"
    return str(value)
