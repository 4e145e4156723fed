"""Detection metrics on arrays, twice: over usable replies, and strict.

Positive class: hallucinated (gold score below 3). *Usable-only* metrics leave out the replies
without a usable score; *strict* ones count such a reply as wrong (a failed reply on a
hallucinated sample is a false negative, on a consistent one a false positive), so a detector
that fails on hard inputs cannot look better for it.

Arrays have the samples on the last axis; leading axes (repeats, bootstrap resamples) are kept,
so one call scores every repeat of every resample. Undefined values are NaN: accuracy without
samples, recall without hallucinated samples, specificity without consistent ones, balanced
accuracy unless both classes are present, F1 without hallucinated samples. Precision is 0.0
when nothing is predicted hallucinated although hallucinated samples exist.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MODES = ("usable", "strict")
WORST = 5  # the top of the score scale: a failed reply's strict absolute error is the worst


@dataclass
class Outcomes:
    """Gold labels of n samples and a detector's answers over R repeats.

    ``truth`` (n,) gold hallucinated; ``guess`` (R, n) predicted hallucinated; ``usable`` (R, n)
    the reply had a usable score; ``gold_score`` (n,); ``pred_score`` (R, n), NaN where failed.
    """

    truth: np.ndarray
    guess: np.ndarray
    usable: np.ndarray
    gold_score: np.ndarray
    pred_score: np.ndarray

    def take(self, index: np.ndarray) -> Outcomes:
        """The outcomes of the samples at ``index`` (any shape: (n,) or (B, n))."""
        return Outcomes(self.truth[index], self.guess[:, index], self.usable[:, index],
                        self.gold_score[index], self.pred_score[:, index])


def counts(truth, guess, usable, strict: bool) -> dict[str, np.ndarray]:
    """Confusion counts over the last axis; strict counts a failed reply as wrong."""
    answered = guess & usable
    missed = ~guess & usable
    tp = (truth & answered).sum(-1)
    fn = (truth & missed).sum(-1)
    tn = (~truth & missed).sum(-1)
    fp = (~truth & answered).sum(-1)
    if strict:
        fn = fn + (truth & ~usable).sum(-1)
        fp = fp + (~truth & ~usable).sum(-1)
    return {"tp": tp, "fn": fn, "tn": tn, "fp": fp}


def _divide(num, den) -> np.ndarray:
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def rates(c: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Accuracy, balanced accuracy, precision, recall, specificity and F1 from counts."""
    tp, fn, tn, fp = c["tp"], c["fn"], c["tn"], c["fp"]
    positives = tp + fn
    recall = _divide(tp, positives)
    specificity = _divide(tn, tn + fp)
    precision = np.where(positives > 0, np.nan_to_num(_divide(tp, tp + fp)), np.nan)
    return {
        "accuracy": _divide(tp + tn, positives + tn + fp),
        "balanced_accuracy": (recall + specificity) / 2,
        "precision": precision,
        "recall": recall,
        "specificity": specificity,
        "f1": np.where(positives > 0, _divide(2 * tp, 2 * tp + fp + fn), np.nan),
    }


def score_mae(o: Outcomes, strict: bool) -> np.ndarray:
    """Mean absolute score error; strict gives a failed reply the worst error for its gold."""
    error = np.abs(o.pred_score - o.gold_score)
    if not strict:
        return _divide(np.where(o.usable, error, 0).sum(-1), o.usable.sum(-1))
    worst = np.maximum(o.gold_score, WORST - o.gold_score)
    return np.where(o.usable, error, worst).mean(-1) if o.truth.shape[-1] else np.nan


def metrics(o: Outcomes, strict: bool) -> dict[str, np.ndarray]:
    """Counts, rates and score MAE per repeat (arrays of shape (R,) or (R, B))."""
    c = counts(o.truth, o.guess, o.usable, strict)
    return {**c, **rates(c), "score_mae": score_mae(o, strict)}


def type_recall(o: Outcomes, gold_has: np.ndarray, pred_has: np.ndarray,
                strict: bool) -> np.ndarray:
    """Per repeat: share of hallucinated samples of a type detected *and* named that type.

    ``gold_has`` (n,) the sample's gold types include it; ``pred_has`` (R, n) the reply names it.
    Usable-only divides by the usable replies among them, strict by all of them.
    """
    support = o.truth & gold_has
    hits = (o.usable & o.guess & pred_has & support).sum(-1)
    if strict:
        return _divide(hits, np.broadcast_to(support.sum(-1), hits.shape))
    return _divide(hits, (o.usable & support).sum(-1))


def pair_values(scores: np.ndarray, usable: np.ndarray, human: np.ndarray,
                injected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per repeat and pair: 1 if the injected sample scores strictly lower, 0.5 on a tie, else
    0; and whether both replies were usable. ``human``/``injected`` are row indices per pair."""
    low, high = scores[:, injected], scores[:, human]
    value = np.where(low < high, 1.0, np.where(low == high, 0.5, 0.0))
    both = usable[:, human] & usable[:, injected]
    return np.where(both, value, 0.0), both


def pair_accuracy(values: np.ndarray, both: np.ndarray, strict: bool) -> np.ndarray:
    """Mean pair value per repeat; strict counts a pair with a failed reply as lost."""
    if strict:
        return _divide(values.sum(-1), np.full(values.shape[:-1], values.shape[-1]))
    return _divide(values.sum(-1), both.sum(-1))
