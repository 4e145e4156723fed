"""Metrics against scikit-learn, strict vs usable-only, intervals, pair accuracy, one-class
groups."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, balanced_accuracy_score, f1_score, precision_score

from longnovel.evaluation import metrics as m
from longnovel.evaluation.bootstrap import confidence_intervals
from longnovel.evaluation.parsing import Prediction
from longnovel.evaluation.report import build_metrics, outcomes


def random_run(n=200, repeats=2, fail=0.3, right=0.75, seed=0):
    """Gold rows and predictions: right on ``right`` of samples, unusable on ``fail``."""
    rng = np.random.default_rng(seed)
    gold = rng.choice([5, 2], size=n, p=[0.4, 0.6])
    rows = [{"id": str(i), "tier": "S" if i % 2 else "M", "language": "en", "n_tokens": 100 + i % 2,
             "score": int(g), "hallucination_types": ["entity"] if g < 3 else [],
             "window": f"w{i // 4}", "source": None} for i, g in enumerate(gold)]
    preds = []
    for _ in range(repeats):
        run = []
        for g in gold:
            if rng.random() < fail:
                run.append(Prediction(error="no_score", raw="?"))
                continue
            good = rng.random() < right
            score = int(g if good else (2 if g >= 3 else 5))
            run.append(Prediction(score=score, types=["entity"] if score < 3 else []))
        preds.append(run)
    return rows, preds


def sklearn_scores(gold, preds, strict):
    """The reference: usable-only drops failures, strict predicts the wrong class for them."""
    y_true, y_pred = [], []
    for g, p in zip(gold, preds, strict=True):
        truth = g < 3
        if p.usable:
            y_true.append(truth)
            y_pred.append(p.score < 3)
        elif strict:
            y_true.append(truth)
            y_pred.append(not truth)
    return {"accuracy": accuracy_score(y_true, y_pred),
            "balanced_accuracy": balanced_accuracy_score(y_true, y_pred),
            "precision": precision_score(y_true, y_pred, zero_division=0),
            "f1": f1_score(y_true, y_pred)}


@pytest.mark.parametrize("strict", [False, True])
def test_metrics_match_scikit_learn(strict):
    rows, preds = random_run()
    o = outcomes(rows, preds)
    ours = m.metrics(o, strict)
    for r, run in enumerate(preds):
        want = sklearn_scores([row["score"] for row in rows], run, strict)
        for name, value in want.items():
            assert ours[name][r] == pytest.approx(value, abs=1e-12), (name, r)


def test_strict_is_below_usable_only_and_mae_counts_failures_worst():
    rows, preds = random_run(fail=0.3)
    o = outcomes(rows, preds)
    usable, strict = m.metrics(o, False), m.metrics(o, True)
    for name in ("accuracy", "balanced_accuracy", "f1"):
        assert (strict[name] < usable[name]).all(), name
    gold = o.gold_score
    worst = np.maximum(gold, 5 - gold)
    want = np.where(o.usable, np.abs(o.pred_score - gold), worst).mean(-1)
    assert strict["score_mae"] == pytest.approx(want)
    assert (strict["score_mae"] > usable["score_mae"]).all()


def test_undefined_values_are_nan_never_flattering():
    truth = np.array([False] * 13)  # 13 consistent samples, nothing to find
    guess = np.zeros((1, 13), dtype=bool)
    usable = np.ones((1, 13), dtype=bool)
    c = m.counts(truth, guess, usable, strict=True)
    r = m.rates(c)
    assert r["accuracy"][0] == 1.0 and r["specificity"][0] == 1.0
    for name in ("balanced_accuracy", "recall", "precision", "f1"):
        assert np.isnan(r[name][0]), name


def test_one_class_group_gets_null_balanced_accuracy_and_a_warning():
    rows, preds = random_run(n=40, repeats=1, fail=0.0)
    rows = [dict(r, score=5, hallucination_types=[]) for r in rows]  # all consistent
    report = build_metrics(rows, preds, ["M", "S"], resamples=200, seed=1)
    overall = report["summary"]["all"]
    assert overall["strict"]["balanced_accuracy"] == {"mean": None, "std": None, "ci": None}
    assert overall["usable"]["balanced_accuracy"]["mean"] is None
    assert overall["strict"]["accuracy"]["mean"] is not None
    assert report["warnings"][0] == ("all: all 40 samples are consistent; balanced accuracy is "
                                     "null (it needs both classes)")
    # one line per group, and the one on intervals over fewer than 30 samples (M, S: 20 each)
    assert len(report["warnings"]) == len(report["summary"]) + 1
    assert report["warnings"][-1].startswith("95% intervals over fewer than 30 samples are "
                                             "rough") and "M (n=20), M/en (n=20)" in \
        report["warnings"][-1] and "all (n=" not in report["warnings"][-1]


def test_usable_replies_of_one_class_warn_separately():
    rows = [{"id": str(i), "tier": "S", "language": "en", "n_tokens": 1, "window": "w",
             "score": s, "hallucination_types": [], "source": None} for i, s in enumerate([5, 2])]
    preds = [[Prediction(score=5), Prediction(error="no_score")]]
    report = build_metrics(rows, preds, ["S"], resamples=50, seed=1)
    assert report["summary"]["all"]["strict"]["balanced_accuracy"]["mean"] == 0.5
    assert report["summary"]["all"]["usable"]["balanced_accuracy"]["mean"] is None
    assert "usable-only balanced accuracy is null" in report["warnings"][0]
    assert "0 of" not in " ".join(report["warnings"])  # one reply was usable


def test_bootstrap_is_seeded_and_holds_the_estimate():
    rows, preds = random_run(n=150, repeats=3)
    o = outcomes(rows, preds)
    first = confidence_intervals(o, 500, seed=7, label="all")
    assert first == confidence_intervals(o, 500, seed=7, label="all")
    assert first != confidence_intervals(o, 500, seed=8, label="all")
    for mode in m.MODES:
        point = m.metrics(o, mode == "strict")
        for name, (low, high) in first[mode].items():
            assert low <= point[name].mean() <= high, (mode, name)
            assert 0 < high - low < 0.5


def test_garbled_replies_widen_the_intervals():
    clean = outcomes(*random_run(n=150, fail=0.0, seed=3))
    rows, preds = random_run(n=150, fail=0.0, seed=3)
    rng = np.random.default_rng(0)
    garbled = [[Prediction(error="no_score") if rng.random() < 0.3 else p for p in run]
               for run in preds]
    noisy = outcomes(rows, garbled)
    for mode in m.MODES:
        a = confidence_intervals(clean, 1000, 1, "all")[mode]
        b = confidence_intervals(noisy, 1000, 1, "all")[mode]
        for name in a:
            assert b[name][1] - b[name][0] > a[name][1] - a[name][0], (mode, name)


def test_repeats_are_averaged_before_the_interval():
    rows, preds = random_run(n=100, repeats=1, fail=0.1)
    single = confidence_intervals(outcomes(rows, preds), 400, 5, "all")
    doubled = confidence_intervals(outcomes(rows, preds * 2), 400, 5, "all")
    assert single == doubled  # identical repeats are not extra samples


def test_pair_accuracy_counts_ties_half_and_strict_counts_failures_lost():
    rows = [{"id": k, "tier": "S", "language": "en", "n_tokens": 1, "window": w, "score": s,
             "hallucination_types": t, "source": src}
            for k, w, s, t, src in [("h1", "a", 5, [], "human"), ("i1", "a", 2, ["entity"],
                                    "injection"), ("i2", "a", 2, ["number"], "injection"),
                                    ("x", "a", 2, ["event"], "arbitration"),
                                    ("h2", "b", 5, [], "human"), ("i3", "b", 2, ["entity"],
                                    "injection")]]
    scores = {"h1": 5, "i1": 2, "i2": 5, "x": 0, "h2": None, "i3": 1}
    preds = [[Prediction(score=scores[r["id"]]) if scores[r["id"]] is not None
              else Prediction(error="no_score") for r in rows]]
    pairs = build_metrics(rows, preds, ["S"], resamples=0, seed=1)["pair_accuracy"]
    assert pairs["pairing"] == "source" and pairs["pairs"] == 3  # arbitration is not paired
    assert pairs["all"]["usable"]["mean"] == 0.75  # (1 + 0.5) / 2 usable pairs
    assert pairs["all"]["strict"]["mean"] == 0.5  # (1 + 0.5 + 0) / 3
    assert pairs["by_type"]["entity"]["strict"]["mean"] == 0.5
    assert pairs["by_type"]["number"]["usable"]["mean"] == 0.5
    assert pairs["by_tier_type"]["S"]["entity"]["pairs"] == 2


def test_type_recall_needs_the_type_named():
    rows, preds = random_run(n=60, repeats=1, fail=0.2)
    preds[0] = [Prediction(score=p.score, types=["number"]) if p.usable and p.score < 3 else p
                for p in preds[0]]
    report = build_metrics(rows, preds, ["M", "S"], resamples=0, seed=1)
    recall = report["summary"]["all"]["type_recall"]
    assert recall["strict"]["entity"]["mean"] == 0.0 and recall["usable"]["entity"]["mean"] == 0.0
    assert recall["strict"]["entity"]["support"] == sum(r["score"] < 3 for r in rows)
