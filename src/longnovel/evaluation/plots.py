"""Figures of evaluated runs (matplotlib, imported on first use)."""

from __future__ import annotations

import math
from pathlib import Path

from longnovel.taxonomy import TYPE_IDS

NAN = float("nan")


def _recall(summary_entry: dict, type_id: str) -> float:
    value = summary_entry["type_recall"]["strict"].get(type_id, {}).get("mean")
    return NAN if value is None else value


def heatmap(cells: list[list[float]], rows: list[str], title: str, path: Path) -> None:
    """Rows x the 8 types, values 0-1 written in the cells; blank where undefined."""
    from longnovel.stats import pyplot, save_figure

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 1.4 + 0.5 * max(1, len(rows))))
    image = ax.imshow(cells or [[NAN] * len(TYPE_IDS)], vmin=0, vmax=1, cmap="viridis",
                      aspect="auto")
    ax.set_xticks(range(len(TYPE_IDS)), TYPE_IDS, rotation=30, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    for y, row in enumerate(cells):
        for x, value in enumerate(row):
            if not math.isnan(value):
                ax.text(x, y, f"{value:.2f}", ha="center", va="center", fontsize=8, color="w")
    ax.set_title(title)
    fig.colorbar(image, ax=ax)
    save_figure(fig, path)


def plot_run_heatmap(report: dict, path: Path) -> None:
    """One run: tiers x types, strict per-type recall (blank: no such hallucinated samples)."""
    tiers = report["tiers"]
    cells = [[_recall(report["summary"][t], k) for k in TYPE_IDS] for t in tiers]
    heatmap(cells, tiers, f"{report['run']}: per-type recall, strict ({report['dataset']})", path)


def plot_models_heatmap(reports: list[dict], path: Path) -> None:
    """Runs x types: strict per-type recall over all tiers."""
    cells = [[_recall(r["summary"]["all"], k) for k in TYPE_IDS] for r in reports]
    heatmap(cells, [r["run"] for r in reports], "per-type recall, strict (all tiers)", path)


def plot_length(reports: list[dict], path: Path) -> None:
    """Strict balanced accuracy (95% interval as error bars) against mean article tokens per
    tier, one line per run: how detection changes with context length."""
    from longnovel.stats import pyplot, save_figure

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for report in reports:
        points = [(report["summary"][t]["tokens_mean"], report["summary"][t]["strict"]
                   ["balanced_accuracy"], t) for t in report["tiers"]]
        points = [(x, e, t) for x, e, t in points if e["mean"] is not None]
        if not points:
            continue
        xs, ys = [p[0] for p in points], [p[1]["mean"] for p in points]
        errors = [[y - (p[1]["ci"] or [y, y])[0] for p, y in zip(points, ys, strict=True)],
                  [(p[1]["ci"] or [y, y])[1] - y for p, y in zip(points, ys, strict=True)]]
        ax.errorbar(xs, ys, yerr=errors, marker="o", capsize=3, label=report["run"])
        for x, y, (_, _, tier) in zip(xs, ys, points, strict=True):
            ax.annotate(tier, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
    ax.set_xscale("log")
    ticks = sorted({r["summary"][t]["tokens_mean"] for r in reports for t in r["tiers"]})
    ax.set_xticks(ticks, [f"{x:,.0f}" for x in ticks])
    ax.minorticks_off()
    ax.set_xlabel("article tokens (tier mean)")
    ax.set_ylabel("balanced accuracy, strict")
    ax.set_ylim(0, 1)
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)
    ax.set_title("detection vs context length")
    save_figure(fig, path)
