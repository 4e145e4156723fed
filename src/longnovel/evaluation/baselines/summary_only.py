"""``baseline:summary-only``: judge a summary without reading its article.

Word 1-2-grams and character 2-5-grams (tf-idf, sublinear) of the summary feed a logistic
regression (balanced class weights) for hallucinated against consistent, and, when the
training samples name two types or more, a second one for the type. What it gets right, it
gets from how injected summaries read, not from the book: the benchmark's shortcut floor.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from longnovel.evaluation.baselines.scale import score_of
from longnovel.evaluation.baselines.training import both_labels
from longnovel.evaluation.parsing import Prediction

THRESHOLD = 0.5


@dataclass
class Fitted:
    label_model: object
    type_model: object | None
    only_type: str | None


def _features():
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.pipeline import FeatureUnion

    return FeatureUnion([
        ("words", TfidfVectorizer(analyzer="word", ngram_range=(1, 2), sublinear_tf=True,
                                  token_pattern=r"(?u)\b\w+\b")),
        ("chars", TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True,
                                  lowercase=False)),
    ])


def _classifier(seed: int):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    return make_pipeline(_features(), LogisticRegression(
        C=4.0, max_iter=2000, class_weight="balanced", random_state=seed))


class SummaryOnly:
    """Fits on labelled samples' summaries; predicts from a summary alone."""

    def __init__(self, seed: int):
        self.seed = seed

    def prepare(self, rows: list[dict], progress: bool = False) -> None:
        """Nothing to compute ahead: the summaries are the features."""

    def fit(self, rows: list[dict]) -> Fitted | None:
        if not both_labels(rows):
            return None
        labels = [row["score"] < 3 for row in rows]
        label_model = _classifier(self.seed).fit([row["summary"] for row in rows], labels)
        flagged = [row for row in rows if row["score"] < 3 and row["hallucination_types"]]
        types = [row["hallucination_types"][0] for row in flagged]
        if len(set(types)) >= 2:
            type_model = _classifier(self.seed).fit([row["summary"] for row in flagged], types)
            return Fitted(label_model, type_model, None)
        return Fitted(label_model, None, types[0] if types else None)

    def predict(self, fitted: Fitted, rows: list[dict]) -> list[Prediction]:
        summaries = [row["summary"] for row in rows]
        classes = list(fitted.label_model.classes_)
        chances = fitted.label_model.predict_proba(summaries)[:, classes.index(True)]
        types = (fitted.type_model.predict(summaries) if fitted.type_model is not None
                 else [fitted.only_type] * len(rows))
        preds = []
        for chance, type_id in zip(chances, types, strict=True):
            score = score_of(float(chance), THRESHOLD)
            raw = json.dumps({"baseline": "summary-only",
                              "p_hallucinated": round(float(chance), 4)})
            named = [str(type_id)] if score < 3 and type_id else []
            preds.append(Prediction(score=score, types=named, raw=raw))
        return preds
