"""What a learned baseline fits on, per language.

1. The export's other splits (never ``test``) when the evaluated data is an export and they
   hold both labels in that language: one fit, every evaluated sample predicted by it.
2. Otherwise out of fold over the evaluated samples: up to 5 folds grouped by book when the
   language has two books or more, else by window (a window's human summary and its injected
   copies always stay on one side), so no prediction comes from a model that saw its sample,
   its book (or at least its window).
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_FOLDS = 5


@dataclass
class Fold:
    """Samples to fit on, and the indices of the evaluated rows to predict with that fit."""

    train: list[dict]
    test: list[int]


def both_labels(rows: list[dict]) -> bool:
    return len({row["score"] < 3 for row in rows}) == 2


def grouping(rows: list[dict]) -> tuple[str, list[str]]:
    """("book", book ids) when the rows come from two books or more, else ("window", ids)."""
    books = [row.get("book_id") for row in rows]
    if None not in books and len(set(books)) >= 2:
        return "book", books
    return "window", [row["window"] for row in rows]


def fit_folds(rows: list[dict], extra: list[dict]) -> tuple[list[Fold], dict[str, str]]:
    """The folds of every language and, per language, what the fits were made on."""
    folds: list[Fold] = []
    fitted_on: dict[str, str] = {}
    for language in sorted({row["language"] for row in rows}):
        index = [i for i, row in enumerate(rows) if row["language"] == language]
        pool = [row for row in extra if row["language"] == language]
        if both_labels(pool):
            folds.append(Fold(pool, index))
            fitted_on[language] = f"the export's other split(s): {len(pool)} samples"
            continue
        made, how = _out_of_fold(rows, index)
        folds += made
        fitted_on[language] = how
    return folds, fitted_on


def _out_of_fold(rows: list[dict], index: list[int]) -> tuple[list[Fold], str]:
    from sklearn.model_selection import GroupKFold

    by, groups = grouping([rows[i] for i in index])
    n = min(MAX_FOLDS, len(set(groups)))
    if n < 2:
        return [], f"nothing: one {by} only, no sample to fit on"
    folds = [Fold([rows[index[j]] for j in train], [index[j] for j in test])
             for train, test in GroupKFold(n_splits=n).split(index, groups=groups)]
    return folds, f"out of fold: {n} folds grouped by {by}"
