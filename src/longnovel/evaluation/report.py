"""The metrics report of one evaluated run: per group, both modes, intervals, pair accuracy.

Groups: ``all``, each tier, and each tier/language. Every metric is given over usable replies
(``usable``) and strict (``strict``: a reply without a usable score counts as wrong), as the
mean and sample standard deviation over repeats, with a 95% bootstrap interval for accuracy,
balanced accuracy and F1.

Pair accuracy (NoCha-style): for every window with a human sample and injected samples, each
(human, injected) pair scores 1 when the detector gives the injected summary a strictly lower
score, 0.5 on a tie, else 0. With a ``source`` column, pairs are (``human``, ``injection``)
samples; without one (the official release), (consistent, hallucinated) gold labels of the same
article. Usable-only leaves out pairs with a failed reply; strict counts them as lost.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter

import numpy as np

from longnovel.evaluation import metrics as m
from longnovel.evaluation.bootstrap import confidence_intervals
from longnovel.evaluation.parsing import Prediction
from longnovel.taxonomy import TYPE_IDS, is_hallucinated

SCALARS = ("accuracy", "balanced_accuracy", "precision", "recall", "specificity", "f1",
           "score_mae")
COUNTS = ("tp", "fn", "tn", "fp")


def _value(x) -> float | None:
    x = float(x)
    return None if math.isnan(x) else round(x, 4)


def spread(values) -> dict:
    """Mean and sample standard deviation over repeats of the defined values (None if none)."""
    defined = [v for v in (_value(x) for x in values) if v is not None]
    if not defined:
        return {"mean": None, "std": None}
    std = statistics.stdev(defined) if len(defined) > 1 else 0.0
    return {"mean": round(statistics.fmean(defined), 4), "std": round(std, 4)}


def outcomes(rows: list[dict], preds: list[list[Prediction]]) -> m.Outcomes:
    """Arrays of the gold labels and the replies (``preds[repeat][row]``)."""
    gold = np.array([r["score"] for r in rows], dtype=float)
    scores = np.array([[p.score if p.usable else np.nan for p in run] for run in preds],
                      dtype=float).reshape(len(preds), len(rows))
    usable = ~np.isnan(scores)
    return m.Outcomes(truth=gold < 3, guess=usable & (np.nan_to_num(scores, nan=5) < 3),
                      usable=usable, gold_score=gold, pred_score=scores)


def type_masks(rows: list[dict], preds: list[list[Prediction]]) -> dict[str, tuple]:
    """Per type id: (gold names it (n,), reply names it (R, n))."""
    return {t: (np.array([t in r["hallucination_types"] for r in rows], dtype=bool),
                np.array([[t in p.types for p in run] for run in preds],
                         dtype=bool).reshape(len(preds), len(rows)))
            for t in TYPE_IDS}


def group_members(rows: list[dict], tiers: list[str]) -> dict[str, np.ndarray]:
    """Row indices of ``all``, each tier (shortest first) and each tier/language."""
    groups: dict[str, list[int]] = {"all": list(range(len(rows)))}
    for tier in tiers:
        groups[tier] = [i for i, r in enumerate(rows) if r["tier"] == tier]
        for language in sorted({rows[i]["language"] for i in groups[tier]}):
            groups[f"{tier}/{language}"] = [i for i in groups[tier]
                                            if rows[i]["language"] == language]
    return {k: np.array(v, dtype=int) for k, v in groups.items()}


# -- one group --------------------------------------------------------------------------------


def _per_repeat(o: m.Outcomes) -> list[dict]:
    """Each repeat's counts and metrics in both modes."""
    scored = {mode: m.metrics(o, strict=mode == "strict") for mode in m.MODES}
    runs = []
    for r in range(o.guess.shape[0]):
        entry = {"failures": int((~o.usable[r]).sum())}
        for mode, values in scored.items():
            entry[mode] = {**{k: int(values[k][r]) for k in COUNTS},
                           **{k: _value(values[k][r]) for k in SCALARS}}
        runs.append(entry)
    return runs


def _type_recall(o: m.Outcomes, masks: dict[str, tuple]) -> dict[str, dict]:
    result: dict[str, dict] = {mode: {} for mode in m.MODES}
    for t, (gold_has, pred_has) in masks.items():
        support = int((o.truth & gold_has).sum())
        if not support:
            continue
        for mode in m.MODES:
            values = m.type_recall(o, gold_has, pred_has, strict=mode == "strict")
            result[mode][t] = {**spread(values), "support": support}
    return result


def summarize_group(o: m.Outcomes, masks: dict, runs: list[dict], intervals: dict,
                    tokens: float) -> dict:
    """A group's summary: sizes, failure rate, both modes with intervals, per-type recall."""
    n = int(o.truth.shape[0])
    entry = {"n": n, "hallucinated": int(o.truth.sum()), "consistent": int((~o.truth).sum()),
             "tokens_mean": round(tokens, 1),
             "failure_rate": spread([run["failures"] / n if n else math.nan for run in runs])}
    for mode in m.MODES:
        entry[mode] = {k: spread([run[mode][k] if run[mode][k] is not None else math.nan
                                  for run in runs]) for k in SCALARS}
        for k, ci in intervals[mode].items():
            entry[mode][k]["ci"] = ci
    entry["type_recall"] = _type_recall(o, masks)
    return entry


SMALL_N = 30  # below this many samples a bootstrap interval is a rough hint at best


def group_warning(label: str, entry: dict) -> str | None:
    """One line when a group's balanced accuracy is null, saying why."""
    if entry["strict"]["balanced_accuracy"]["mean"] is None:
        only = "hallucinated" if entry["hallucinated"] else "consistent"
        return (f"{label}: all {entry['n']} samples are {only}; balanced accuracy is null "
                "(it needs both classes)")
    if entry["failure_rate"]["mean"] == 1.0:
        return None  # said once for the whole run (usable_warning)
    if entry["usable"]["balanced_accuracy"]["mean"] is None:
        return (f"{label}: the usable replies cover one class only; usable-only balanced "
                "accuracy is null")
    return None


def usable_warning(preds: list[list[Prediction]]) -> str | None:
    """One plain line when not a single reply could be used."""
    replies = [p for run in preds for p in run]
    if not replies or any(p.usable for p in replies):
        return None
    reasons = Counter(p.error for p in replies)
    named = ", ".join(f"{reason} {n}" for reason, n in reasons.most_common())
    return (f"0 of {len(replies)} replies are usable ({named}): strict metrics count every "
            "sample as missed, usable-only metrics are null; the raw replies are in "
            "predictions.jsonl")


def small_sample_warning(summary: dict) -> str | None:
    """One line naming the groups whose 95% intervals rest on fewer than ``SMALL_N``
    samples."""
    small = [f"{label} (n={entry['n']})" for label, entry in summary.items()
             if entry["n"] < SMALL_N and entry["strict"]["accuracy"].get("ci")]
    if not small:
        return None
    return (f"95% intervals over fewer than {SMALL_N} samples are rough (a bootstrap over so "
            f"few samples understates the uncertainty): {', '.join(small)}")


# -- pair accuracy ----------------------------------------------------------------------------


def pairs(rows: list[dict]) -> tuple[list[tuple[int, int]], str]:
    """(human index, injected index) of every pair in a window, and the pairing used."""
    by_source = any(r.get("source") for r in rows)
    windows: dict[str, tuple[list[int], list[int]]] = {}
    for i, row in enumerate(rows):
        if by_source:
            side = {"human": 0, "injection": 1}.get(row.get("source"))
        else:
            side = 1 if is_hallucinated(row["score"]) else 0
        if side is not None:
            windows.setdefault(row["window"], ([], []))[side].append(i)
    found = [(h, j) for humans, injected in windows.values() for h in humans for j in injected]
    return found, "source" if by_source else "label"


def _pair_entry(values: np.ndarray, both: np.ndarray, chosen: list[int]) -> dict:
    pick = np.array(chosen, dtype=int)
    entry = {"pairs": len(chosen)}
    for mode in m.MODES:
        entry[mode] = spread(m.pair_accuracy(values[:, pick], both[:, pick], mode == "strict"))
    return entry


def pair_report(rows: list[dict], o: m.Outcomes, tiers: list[str]) -> dict:
    """Pair accuracy for all pairs, per tier, per type of the injected sample, per tier x type."""
    found, pairing = pairs(rows)
    report: dict = {"pairing": pairing, "pairs": len(found)}
    if not found:
        return report
    human, injected = (np.array(side, dtype=int) for side in zip(*found, strict=True))
    values, both = m.pair_values(o.pred_score, o.usable, human, injected)
    keys = [(rows[j]["tier"], rows[j]["hallucination_types"]) for _, j in found]
    report["all"] = _pair_entry(values, both, list(range(len(found))))
    report["by_tier"], report["by_type"], report["by_tier_type"] = {}, {}, {}
    for tier in tiers:
        chosen = [k for k, (t, _) in enumerate(keys) if t == tier]
        if chosen:
            report["by_tier"][tier] = _pair_entry(values, both, chosen)
    for type_id in TYPE_IDS:
        chosen = [k for k, (_, types) in enumerate(keys) if type_id in types]
        if chosen:
            report["by_type"][type_id] = _pair_entry(values, both, chosen)
        for tier in tiers:
            cell = [k for k in chosen if keys[k][0] == tier]
            if cell:
                report["by_tier_type"].setdefault(tier, {})[type_id] = \
                    _pair_entry(values, both, cell)
    return report


# -- the whole run ----------------------------------------------------------------------------


def build_metrics(rows: list[dict], preds: list[list[Prediction]], tiers: list[str],
                  resamples: int, seed: int) -> dict:
    """``summary``, ``runs``, ``pair_accuracy`` and ``warnings`` of one evaluated run."""
    o, masks = outcomes(rows, preds), type_masks(rows, preds)
    summary, runs, warnings = {}, [{} for _ in preds], []
    for label, index in group_members(rows, tiers).items():
        part = o.take(index)
        per_repeat = _per_repeat(part)
        intervals = confidence_intervals(part, resamples, seed, label)
        tokens = statistics.fmean(rows[i]["n_tokens"] for i in index) if len(index) else 0.0
        part_masks = {t: (g[index], p[:, index]) for t, (g, p) in masks.items()}
        summary[label] = summarize_group(part, part_masks, per_repeat, intervals, tokens)
        for r, entry in enumerate(per_repeat):
            runs[r][label] = entry
        warning = group_warning(label, summary[label])
        if warning:
            warnings.append(warning)
    warnings = [w for w in [usable_warning(preds), *warnings, small_sample_warning(summary)]
                if w]
    return {"summary": summary, "runs": runs, "pair_accuracy": pair_report(rows, o, tiers),
            "warnings": warnings}
