"""Text tables of a run's report: the strict headline and the usable-only detail."""

from __future__ import annotations

from longnovel.checks import table

HEADLINE = ["group", "n", "failed", "accuracy", "balanced_accuracy", "f1", "pair_accuracy"]
DETAIL = ["group", "answered", "accuracy", "balanced_accuracy", "precision", "recall", "f1",
          "score_mae"]


def cell(entry: dict | None, repeats: int = 1) -> str:
    """``mean[±std] [low, high]``; ``null`` when undefined, empty when absent."""
    if entry is None:
        return ""
    if entry["mean"] is None:
        return "null"
    text = f"{entry['mean']:.3f}"
    if repeats > 1:
        text += f"±{entry['std']:.3f}"
    if entry.get("ci"):
        low, high = entry["ci"]
        text += f" [{low:.3f}, {high:.3f}]"
    return text


def _pair_cell(report: dict, group: str) -> dict | None:
    pairs = report["pair_accuracy"]
    entry = pairs.get("all") if group == "all" else pairs.get("by_tier", {}).get(group)
    return entry["strict"] if entry else None


def headline_table(report: dict) -> str:
    """Strict metrics (a failed reply counts as wrong) with 95% intervals and failure rate."""
    rows = []
    for group, entry in report["summary"].items():
        failed = entry["failure_rate"]["mean"]
        rows.append({"group": group, "n": entry["n"],
                     "failed": "" if failed is None else f"{failed:.1%}",
                     **{k: cell(entry["strict"][k], report["repeats"]) for k in HEADLINE[3:6]},
                     "pair_accuracy": cell(_pair_cell(report, group), report["repeats"])})
    return table(rows, HEADLINE)


def detail_table(report: dict) -> str:
    """Metrics over the usable replies only."""
    rows = []
    for group, entry in report["summary"].items():
        failed = entry["failure_rate"]["mean"] or 0.0
        rows.append({"group": group, "answered": f"{round(entry['n'] * (1 - failed), 2):g}",
                     **{k: cell(entry["usable"][k], report["repeats"]) for k in DETAIL[2:]}})
    return table(rows, DETAIL)


def metrics_table(report: dict) -> str:
    """Both tables with their titles."""
    return ("strict (a reply without a usable score counts as wrong), 95% bootstrap intervals:\n"
            + headline_table(report)
            + "\n\nusable replies only:\n" + detail_table(report))
