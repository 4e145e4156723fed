"""``longnovel stats``: counts, length and score distributions, judge agreement, and plots.

Reads the exported Parquet files (and arbitration's labels and manifest when present) and
writes ``<run_dir>/stats/stats.json`` with three PNG plots beside it. This is a report, not a
stage: ``export/stats.json`` (the card's counts) stays export's own file, and re-running
``stats`` simply replaces this folder's files.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

from longnovel.release.card import export_stats
from longnovel.release.review import exported_rows
from longnovel.state import atomic_write_bytes, read_manifest

FOLDER = "stats"
PLOTS = {
    "types_per_tier": "types_per_tier.png",
    "article_tokens_per_tier": "article_tokens_per_tier.png",
    "score_per_source": "score_per_source.png",
}


def describe(values: list[int]) -> dict:
    """count, min, mean, median, p10, p90 and max of a list of numbers."""
    if not values:
        return {"count": 0}
    ordered = sorted(values)

    def pct(q: float) -> int:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {"count": len(ordered), "min": ordered[0], "mean": round(statistics.fmean(ordered), 1),
            "median": statistics.median(ordered), "p10": pct(0.1), "p90": pct(0.9),
            "max": ordered[-1]}


def _grouped(rows: list[dict], key: str, values: list[int]) -> dict[str, dict]:
    groups: dict[str, list[int]] = {}
    for row, value in zip(rows, values, strict=True):
        groups.setdefault(row[key], []).append(value)
    return {name: describe(vals) for name, vals in sorted(groups.items())}


def subtype_counts(rows: list[dict]) -> dict[str, int]:
    """Hallucinated samples per ``type/subtype`` (``type`` alone when there is no sub-type)."""
    counts: Counter = Counter()
    for row in rows:
        for type_id in row["hallucination_types"]:
            counts[f"{type_id}/{row['subtype']}" if row["subtype"] else type_id] += 1
    return dict(sorted(counts.items()))


def score_distribution(rows: list[dict]) -> dict[str, dict[str, int]]:
    """Samples per score, overall and per source."""
    result: dict[str, Counter] = {"all": Counter()}
    for row in rows:
        for key in ("all", row["source"]):
            result.setdefault(key, Counter())[str(row["score"])] += 1
    return {k: dict(sorted(v.items())) for k, v in result.items()}


def judge_agreement(run_dir: Path) -> dict | None:
    """Agreement between arbitration judges: what arbitrate's manifest reports and the mean
    of the ``agreement`` column of its labels; None when arbitration labelled nothing."""
    manifest = read_manifest(run_dir, "arbitrate") or {}
    reported = {k: v for k, v in manifest.items() if "agreement" in k.lower()}
    labels_path = run_dir / "arbitrate" / "labels.parquet"
    values: list[float] = []
    if labels_path.is_file():
        table = pq.read_table(labels_path)
        if "agreement" in table.column_names:
            values = [v for v in table.column("agreement").to_pylist() if v is not None]
    if not reported and not values:
        return None
    return {"from_manifest": reported, "labels": len(values),
            "mean_agreement": round(statistics.fmean(values), 4) if values else None}


def _selected_rows(run_dir: Path, tiers: list[str] | None) -> list[dict]:
    rows = exported_rows(run_dir)
    return [r for r in rows if r["tier"] in tiers] if tiers else rows


def _stats_of(rows: list[dict], run_dir: Path, tokenizer, tiers: list[str] | None) -> dict:
    """Everything ``stats.json`` holds, from the exported ``rows`` of ``run_dir``; ``tiers``
    limits and orders the tiers (default: every exported tier, sorted)."""
    summary_tokens = tokenizer.count_batch([r["summary"] for r in rows]) if rows else []
    stats = export_stats(rows)
    present = {r["tier"] for r in rows}
    stats["tiers"] = [t for t in tiers or sorted(present) if t in present]
    stats["by_subtype"] = subtype_counts(rows)
    stats["by_tier_source_label"] = {
        tier: dict(Counter(f"{r['source']}/{r['label']}" for r in rows if r["tier"] == tier))
        for tier in sorted(present)}
    stats["article_tokens"] = {"all": describe([r["n_tokens"] for r in rows]),
                               "by_tier": _grouped(rows, "tier", [r["n_tokens"] for r in rows])}
    stats["summary_tokens"] = {"all": describe(summary_tokens),
                               "by_tier": _grouped(rows, "tier", summary_tokens),
                               "by_source": _grouped(rows, "source", summary_tokens),
                               "tokenizer": getattr(tokenizer, "name", "")}
    stats["scores"] = score_distribution(rows)
    stats["type_balance"] = type_balance(rows)
    stats["judge_agreement"] = judge_agreement(run_dir)
    return stats


def type_balance(rows: list[dict]) -> dict[str, dict]:
    """Injection samples per type in each ``tier/language``, with max, min and max/min over
    the types present (``inject`` reassigns rejected types to keep these within one)."""
    from longnovel.taxonomy import TYPE_IDS

    out = {}
    for key in sorted({f"{r['tier']}/{r['language']}" for r in rows}):
        counts = Counter(t for r in rows if r["source"] == "injection"
                         and f"{r['tier']}/{r['language']}" == key
                         for t in r["hallucination_types"])
        if not counts:
            continue
        present = {t: counts[t] for t in TYPE_IDS if counts[t]}
        top, bottom = max(present.values()), min(present.values())
        out[key] = {"types": present, "max": top, "min": bottom,
                    "max_over_min": round(top / bottom, 3)}
    return out


def pyplot():
    """``matplotlib.pyplot`` on the Agg backend (no display needed), imported on first use."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig, path: Path) -> None:
    """Write ``fig`` as a PNG to ``path`` atomically and close it."""
    import io

    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=110)
    pyplot().close(fig)
    atomic_write_bytes(path, buffer.getvalue())


def plot_types_per_tier(stats: dict, path: Path) -> None:
    """Stacked bars: hallucinated samples per tier, one colour per type."""
    plt = pyplot()
    by_tier = stats["by_tier_type"]
    tiers = stats["tiers"]
    types = sorted({t for counts in by_tier.values() for t in counts})
    fig, ax = plt.subplots(figsize=(7, 4))
    bottom = [0] * len(tiers)
    for type_id in types:
        heights = [by_tier.get(tier, {}).get(type_id, 0) for tier in tiers]
        ax.bar(tiers, heights, bottom=bottom, label=type_id)
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    ax.set(xlabel="tier", ylabel="samples", title="Hallucination types per tier")
    if types:
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1, 1))
    save_figure(fig, path)


def plot_article_tokens(rows_by_tier: dict[str, list[int]], path: Path) -> None:
    """Box plot of article length (tokens) per tier."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    tiers = list(rows_by_tier)
    if tiers:
        ax.boxplot([rows_by_tier[t] for t in tiers])
        ax.set_xticks(range(1, len(tiers) + 1), tiers)
    ax.set(xlabel="tier", ylabel="article tokens", title="Article length per tier")
    save_figure(fig, path)


def plot_scores(stats: dict, path: Path) -> None:
    """Grouped bars: samples per gold score (0-5), one group per source."""
    plt = pyplot()
    sources = [s for s in stats["scores"] if s != "all"]
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / max(1, len(sources))
    for i, source in enumerate(sources):
        counts = stats["scores"][source]
        ax.bar([s + i * width for s in range(6)], [counts.get(str(s), 0) for s in range(6)],
               width=width, label=source)
    ax.set_xticks([s + 0.4 - width / 2 for s in range(6)], [str(s) for s in range(6)])
    ax.set(xlabel="gold score", ylabel="samples", title="Score distribution per source")
    if sources:
        ax.legend(fontsize=8)
    save_figure(fig, path)


def write_stats(run_dir: Path, tokenizer, tiers: list[str] | None = None) -> tuple[Path, dict]:
    """Compute the stats, write ``stats.json`` and the plots; return the folder and stats."""
    run_dir = Path(run_dir)
    folder = run_dir / FOLDER
    rows = _selected_rows(run_dir, tiers)
    stats = _stats_of(rows, run_dir, tokenizer, tiers)
    lengths: dict[str, list[int]] = {tier: [] for tier in stats["tiers"]}
    for row in rows:
        lengths[row["tier"]].append(row["n_tokens"])
    plot_types_per_tier(stats, folder / PLOTS["types_per_tier"])
    plot_article_tokens(lengths, folder / PLOTS["article_tokens_per_tier"])
    plot_scores(stats, folder / PLOTS["score_per_source"])
    stats["plots"] = dict(PLOTS)
    text = json.dumps(stats, indent=2, ensure_ascii=False) + "\n"
    atomic_write_bytes(folder / "stats.json", text.encode("utf-8"))
    return folder, stats
