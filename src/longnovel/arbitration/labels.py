"""From judgments to labels: one aggregated label per usable summary, the failures by round and
the figures arbitrate records in its manifest. No I/O: rows in, rows and counts out."""

from __future__ import annotations

from collections import Counter

from longnovel.arbitration.aggregate import Vote, aggregate, pairwise_agreement


def label_rows(summaries: list[dict], judgments: list[dict], judges: list[str],
               rule: str) -> list[dict]:
    """One aggregated label per usable summary (votes in the config's order of judges)."""
    votes: dict[tuple[str, str], list[Vote]] = {}
    order = {judge: i for i, judge in enumerate(judges)}
    for j in sorted(judgments, key=lambda j: order.get(j["judge_model"], len(order))):
        if j["ok"]:
            votes.setdefault((j["window_id"], j["summary_model"]), []).append(
                Vote(j["judge_model"], j["score"], tuple(j["hallucination_types"]), j["reason"]))
    rows = []
    for s in (s for s in summaries if s["ok"]):
        expected = sum(1 for judge in judges if judge != s["model"])
        verdict = aggregate(votes.get((s["window_id"], s["model"]), []), rule, expected)
        rows.append({"window_id": s["window_id"], "tier": s["tier"], "summary_model": s["model"],
                     "summary": s["summary"], "label": verdict.label, "score": verdict.score,
                     "hallucination_types": verdict.types, "reason": verdict.reason,
                     "agreement": verdict.agreement, "n_judgments": verdict.n_judgments,
                     "n_judges": expected})
    return rows


def failures(summaries: list[dict], judgments: list[dict]) -> dict[str, int]:
    """Failed requests by round and reason (transport errors and unusable replies alike)."""
    counts = Counter(f"summary_{s['error']}" for s in summaries if not s["ok"])
    counts.update(f"judgment_{j['error']}" for j in judgments if not j["ok"])
    return dict(sorted(counts.items()))


def figures(windows: list[dict], summaries: list[dict], judgments: list[dict],
            labels: list[dict], rule: str) -> dict:
    """Windows, requests asked and usable per round, labels (per tier too) and agreement."""
    by_tier: dict[str, Counter] = {}
    for row in labels:
        by_tier.setdefault(row["tier"], Counter())[row["label"]] += 1
    shares = [row["agreement"] for row in labels if row["agreement"] is not None]
    return {
        "rule": rule,
        "windows": len(windows),
        "summaries": {"requested": len(summaries), "ok": sum(s["ok"] for s in summaries)},
        "judgments": {"requested": len(judgments), "ok": sum(j["ok"] for j in judgments)},
        "labels": dict(sorted(Counter(row["label"] for row in labels).items())),
        "labels_by_tier": {t: dict(sorted(c.items())) for t, c in by_tier.items()},
        "agreement": {"mean_label_agreement": round(sum(shares) / len(shares), 4)
                      if shares else None, "pairs": pairwise_agreement(judgments)},
    }
