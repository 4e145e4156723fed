"""A baseline's suspicion (0-1, higher = more likely hallucinated) as a rubric score 0-5."""

from __future__ import annotations


def score_of(suspicion: float, threshold: float) -> int:
    """Above ``threshold``: 2, 1 or 0 by how far towards 1; at or below: 3, 4 or 5 by how far
    towards 0. So the label follows the threshold and the score still ranks samples (pair
    accuracy) within each label."""
    if suspicion > threshold:
        share = (suspicion - threshold) / (1 - threshold) if threshold < 1 else 1.0
        return 2 - min(2, int(3 * share))
    share = (threshold - suspicion) / threshold if threshold > 0 else 1.0
    return 3 + min(2, int(3 * share))


def best_threshold(suspicions: list[float], hallucinated: list[bool]) -> float:
    """The cut between two neighbouring suspicion values that maximizes balanced accuracy on
    labelled samples holding both labels (ties: the lowest cut); flagged means above the cut."""
    import numpy as np

    order = np.argsort(suspicions, kind="stable")
    values = np.asarray(suspicions, dtype=float)[order]
    truth = np.asarray(hallucinated, dtype=bool)[order]
    negatives_below = np.concatenate([[0], np.cumsum(~truth)])  # among the first k
    positives_from = truth.sum() - np.concatenate([[0], np.cumsum(truth)])  # among the rest
    starts = np.concatenate([[0], np.flatnonzero(np.diff(values) > 0) + 1])
    balanced = (positives_from[starts] / truth.sum()
                + negatives_below[starts] / (~truth).sum()) / 2
    k = int(starts[int(np.argmax(balanced))])
    return float(values[0] - 1e-9) if k == 0 else float((values[k - 1] + values[k]) / 2)
