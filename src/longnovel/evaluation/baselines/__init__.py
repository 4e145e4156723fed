"""Built-in detectors, usable wherever a model name is: ``--model baseline:NAME``.

- ``baseline:random``: a seeded coin; the floor every detector must clear.
- ``baseline:summary-only``: an article-free classifier (word and character n-gram tf-idf,
  logistic regression) that reads only the summary; the benchmark's shortcut floor.
- ``baseline:lexical``: each summary sentence aligned with BM25 to its best-supported
  passages of the article; a summary whose least-supported sentence falls below a calibrated
  threshold is flagged.

No server, key or request: they run in-process. The learned two fit on the export's other
non-test splits when those hold both labels, else out of fold over the evaluated samples (see
``training``), and say which in the run's ``metrics.json``.
"""

from __future__ import annotations

import json

from longnovel.errors import LongnovelError
from longnovel.evaluation.baselines.training import fit_folds
from longnovel.evaluation.parsing import Prediction

PREFIX = "baseline:"
NAMES = ("random", "summary-only", "lexical")
DESCRIPTIONS = {
    "random": "seeded random score 0-5 per sample (and a random type when below 3)",
    "summary-only": "tf-idf word 1-2-grams + char 2-5-grams of the summary alone, logistic "
                    "regression",
    "lexical": "BM25 alignment of each summary sentence to the article; the least-supported "
               "sentence's IDF-weighted term coverage against a calibrated threshold",
}


def is_baseline(name: str) -> bool:
    return name.startswith(PREFIX)


def check_name(name: str) -> str:
    """The baseline's short name; an unknown one is a user error listing the built-in ones."""
    kind = name.removeprefix(PREFIX)
    if kind not in NAMES:
        known = ", ".join(PREFIX + n for n in NAMES)
        raise LongnovelError(f"--model {name}: no such built-in detector (built in: {known})")
    return kind


def _detector(kind: str, seed: int):
    if kind == "summary-only":
        from longnovel.evaluation.baselines.summary_only import SummaryOnly

        return SummaryOnly(seed)
    from longnovel.evaluation.baselines.lexical import Lexical

    return Lexical()


def predict(name: str, rows: list[dict], extra: list[dict], repeats: int, seed: int,
            progress: bool = False) -> tuple[list[list[Prediction]], dict]:
    """Predictions per repeat and row, and what the detector did (for ``metrics.json``).

    ``extra``: labelled samples of other splits a learned detector may fit on. Only the random
    baseline varies between repeats; the others are deterministic."""
    kind = check_name(name)
    info = {"name": name, "method": DESCRIPTIONS[kind]}
    if kind == "random":
        from longnovel.evaluation.baselines.chance import predict_random

        return [predict_random(rows, seed, r) for r in range(repeats)], {**info, "seed": seed}
    detector = _detector(kind, seed)
    detector.prepare(rows + extra, progress)
    preds: list[Prediction] = [Prediction(error="untrained")] * len(rows)
    folds, fitted_on = fit_folds(rows, extra)
    for fold in folds:
        state = detector.fit(fold.train)
        if state is None:
            continue
        predicted = detector.predict(state, [rows[i] for i in fold.test])
        for i, pred in zip(fold.test, predicted, strict=True):
            preds[i] = pred
    for i, pred in enumerate(preds):
        if pred.error:
            preds[i] = Prediction(error="untrained", raw=json.dumps(
                {"baseline": name, "why": "no training samples of both labels"}))
    return [preds] * repeats, {**info, "fitted_on": fitted_on}
