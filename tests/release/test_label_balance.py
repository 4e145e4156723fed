"""export.mix: balanced (the default): as many consistent as hallucinated samples per tier and
language, the smaller label kept whole."""

from __future__ import annotations

import random
from collections import Counter

from longnovel.config import ExportConfig
from longnovel.release.samples import apply_mix


def rows():
    out = []
    for language in ("en", "zh"):
        for book in ("b1", "b2"):
            out.append({"language": language, "book_id": book, "source": "human",
                        "label": "consistent", "hallucination_types": []})
            for t in ("entity", "number", "polarity", "event"):
                out.append({"language": language, "book_id": book, "source": "injection",
                            "label": "hallucinated", "hallucination_types": [t]})
    return out


def test_balanced_is_the_default_and_matches_labels_per_language():
    assert ExportConfig().mix == "balanced"
    samples = rows()
    picked = apply_mix(samples, "balanced", None, random.Random(1))
    counts = Counter((r["language"], r["label"]) for r in picked)
    assert counts == {("en", "consistent"): 2, ("en", "hallucinated"): 2,
                      ("zh", "consistent"): 2, ("zh", "hallucinated"): 2}
    assert [r for r in picked if r["source"] == "human"] == \
        [r for r in samples if r["source"] == "human"]  # every human sample kept, in order
    hallucinated = [r for r in picked if r["label"] == "hallucinated" and r["language"] == "en"]
    assert len({r["book_id"] for r in hallucinated}) == 2  # spread over books
    assert apply_mix(samples, "balanced", None, random.Random(1)) == picked
    capped = apply_mix(samples, "balanced", 4, random.Random(1))
    assert Counter((r["language"], r["label"]) for r in capped) == {
        ("en", "consistent"): 1, ("en", "hallucinated"): 1,
        ("zh", "consistent"): 1, ("zh", "hallucinated"): 1}
