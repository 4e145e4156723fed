"""``longnovel compare``: a leaderboard and figures over runs already evaluated on one dataset.

Reads ``<run_dir>/evaluate/<dataset>/*/metrics.json`` and writes
``<run_dir>/compare/<dataset>/``: ``leaderboard.md`` and ``leaderboard.json`` (strict balanced
accuracy overall and per tier with 95% intervals, failure rate, pair accuracy, per-type
recall), ``heatmap.png`` (runs x types) and ``length.png`` (balanced accuracy against tier
length, one line per run). Runs are ranked by strict balanced accuracy over all samples.
"""

from __future__ import annotations

import json
from pathlib import Path

from longnovel.errors import LongnovelError
from longnovel.evaluation.run import dataset_dir
from longnovel.evaluation.tables import cell
from longnovel.taxonomy import TYPE_IDS

FOLDER = "compare"


def load_runs(run_dir: Path, dataset: str, models: list[str] | None = None) -> list[dict]:
    """The metrics of every run evaluated on ``dataset`` (of ``models`` when given)."""
    folder = dataset_dir(run_dir, dataset)
    reports = [json.loads(p.read_text(encoding="utf-8"))
               for p in sorted(folder.glob("*/metrics.json"))]
    if models:
        missing = sorted(set(models) - {r["model"] for r in reports})
        if missing:
            raise LongnovelError(f"{folder}: no evaluated run of model(s) {missing}; run "
                                 "`longnovel evaluate --model NAME` with the same data first")
        reports = [r for r in reports if r["model"] in models]
    if not reports:
        raise LongnovelError(f"{folder}: no evaluated runs; run `longnovel evaluate` first")
    return reports


def _strict_ba(report: dict, group: str) -> dict | None:
    entry = report["summary"].get(group)
    return entry["strict"]["balanced_accuracy"] if entry else None


def _rank_key(report: dict) -> tuple:
    mean = _strict_ba(report, "all")["mean"]
    return (mean is None, -(mean or 0.0), report["run"])


def all_tiers(reports: list[dict]) -> list[str]:
    """Every tier of the runs, shortest articles first."""
    tokens = {t: r["summary"][t]["tokens_mean"] for r in reports for t in r["tiers"]}
    return sorted(tokens, key=lambda t: (tokens[t], t))


def leaderboard(reports: list[dict]) -> dict:
    """The ranked runs with the numbers the tables show."""
    tiers = all_tiers(reports)
    rows = []
    for rank, report in enumerate(sorted(reports, key=_rank_key), 1):
        pair = report["pair_accuracy"].get("all")
        rows.append({
            "rank": rank, "run": report["run"], "model": report["model"],
            "prompt": report["prompt"], "order": report["order"],
            "repeats": report["repeats"], "samples": report["samples"],
            "failure_rate": report["summary"]["all"]["failure_rate"],
            "balanced_accuracy": {g: _strict_ba(report, g) for g in ["all", *tiers]},
            "pair_accuracy": pair["strict"] if pair else None,
            "type_recall": {t: report["summary"]["all"]["type_recall"]["strict"].get(t)
                            for t in TYPE_IDS},
            "data": report["data"],
        })
    sizes = {g: max((r["summary"][g]["n"] for r in reports if g in r["summary"]), default=0)
             for g in ["all", *tiers]}
    return {"dataset": reports[0]["dataset"], "tiers": tiers, "metric": "strict",
            "sizes": sizes, "runs": rows}


def _md_table(headers: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def _samples_note(board: dict) -> str:
    differ = {json.dumps(r["data"], sort_keys=True) for r in board["runs"]}
    counts = {r["samples"] for r in board["runs"]}
    if len(differ) > 1 or len(counts) > 1:
        return "\n\nNote: the runs were evaluated on different samples; compare with care.\n"
    return "\n"


def _small_note(board: dict) -> str:
    from longnovel.evaluation.report import SMALL_N

    small = [f"{g} (n={n})" for g, n in board.get("sizes", {}).items() if n < SMALL_N]
    if not small:
        return ""
    return (f"\nNote: intervals over fewer than {SMALL_N} samples are rough: "
            f"{', '.join(small)}.\n")


def leaderboard_markdown(board: dict) -> str:
    """The leaderboard and the per-type recall table as Markdown."""
    tiers = board["tiers"]
    main = [[str(r["rank"]), r["run"], str(r["samples"]),
             "" if r["failure_rate"]["mean"] is None else f"{r['failure_rate']['mean']:.1%}",
             *(cell(r["balanced_accuracy"][g], r["repeats"]) for g in ["all", *tiers]),
             cell(r["pair_accuracy"], r["repeats"])] for r in board["runs"]]
    headers = ["rank", "run", "samples", "failed", "balanced acc. (all)", *tiers, "pair acc."]
    types = [[r["run"], *(cell(r["type_recall"][t]) for t in TYPE_IDS)] for r in board["runs"]]
    return (f"# Leaderboard: {board['dataset']}\n\n"
            "Strict metrics: a reply without a usable score counts as wrong. Balanced accuracy "
            "with its 95% bootstrap interval.\n\n" + _md_table(headers, main)
            + "\n\n## Per-type recall (strict, all tiers)\n\n"
            + _md_table(["run", *TYPE_IDS], types) + _samples_note(board) + _small_note(board))


def write_comparison(run_dir: Path, reports: list[dict]) -> tuple[Path, str]:
    """Write the leaderboard (Markdown, JSON) and both figures; returns (folder, Markdown)."""
    from longnovel.evaluation.plots import plot_length, plot_models_heatmap
    from longnovel.state import atomic_write_bytes

    board = leaderboard(reports)
    folder = Path(run_dir) / FOLDER / board["dataset"]
    markdown = leaderboard_markdown(board)
    atomic_write_bytes(folder / "leaderboard.md", markdown.encode("utf-8"))
    text = json.dumps(board, indent=2, ensure_ascii=False) + "\n"
    atomic_write_bytes(folder / "leaderboard.json", text.encode("utf-8"))
    ranked = sorted(reports, key=_rank_key)
    plot_models_heatmap(ranked, folder / "heatmap.png")
    plot_length(ranked, folder / "length.png")
    return folder, markdown
