"""``baseline:random``: a seeded random judgment per sample."""

from __future__ import annotations

import json
import random

from longnovel.evaluation.parsing import Prediction
from longnovel.taxonomy import TYPE_IDS


def predict_random(rows: list[dict], seed: int, repeat: int) -> list[Prediction]:
    """A score drawn uniformly from 0-5 (so half the samples are flagged) and, below 3, one
    type drawn from the eight. Each draw is seeded by the seed, the repeat and the sample's
    id: the same sample gets the same judgment whatever else is evaluated with it."""
    preds = []
    for row in rows:
        rng = random.Random(f"{seed}:{repeat}:{row['id']}")
        score = rng.randint(0, 5)
        types = [rng.choice(TYPE_IDS)] if score < 3 else []
        raw = json.dumps({"baseline": "random", "seed": seed, "repeat": repeat})
        preds.append(Prediction(score=score, types=types, raw=raw))
    return preds
