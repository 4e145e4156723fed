"""95% bootstrap confidence intervals, seeded, resampling samples.

Each resample draws n samples with replacement; every repeat is scored on the same draw and
the repeats are averaged first, so the interval is that of the repeat-averaged metric (repeats
are not extra samples). Resamples where a metric is undefined (balanced accuracy on a draw with
one class) are left out; the interval is null when no resample defines it.
"""

from __future__ import annotations

import zlib

import numpy as np

from longnovel.evaluation.metrics import MODES, Outcomes, metrics

CI_METRICS = ("accuracy", "balanced_accuracy", "f1")
LEVEL = 0.95
CHUNK = 200  # resamples scored at once, to bound memory on large groups


def _resampled(o: Outcomes, resamples: int, rng) -> dict[str, dict[str, np.ndarray]]:
    """Per mode and metric: the repeat-averaged value of every resample."""
    n = o.truth.shape[0]
    values: dict[str, dict[str, list]] = {m: {k: [] for k in CI_METRICS} for m in MODES}
    for start in range(0, resamples, CHUNK):
        index = rng.integers(0, n, size=(min(CHUNK, resamples - start), n))
        sample = o.take(index)
        for mode in MODES:
            scored = metrics(sample, strict=mode == "strict")
            for name in CI_METRICS:
                values[mode][name].append(scored[name].mean(axis=0))
    return {m: {k: np.concatenate(v) for k, v in d.items()} for m, d in values.items()}


def _interval(values: np.ndarray) -> list[float] | None:
    defined = values[~np.isnan(values)]
    if not len(defined):
        return None
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(defined, [tail, 100 - tail])
    return [round(float(low), 4), round(float(high), 4)]


def confidence_intervals(o: Outcomes, resamples: int, seed: int,
                         label: str) -> dict[str, dict[str, list[float] | None]]:
    """Per mode (usable, strict) and metric (accuracy, balanced accuracy, F1): [low, high].

    The generator is seeded by ``seed`` and the group's ``label``, so a group's interval does
    not depend on which other groups were computed before it.
    """
    if resamples < 1 or not o.truth.shape[0]:
        return {m: dict.fromkeys(CI_METRICS) for m in MODES}
    rng = np.random.default_rng([seed, zlib.crc32(label.encode("utf-8"))])
    values = _resampled(o, resamples, rng)
    return {m: {k: _interval(values[m][k]) for k in CI_METRICS} for m in MODES}
