"""``ArticleIndex`` hands bm25s its sentences as token ids instead of strings (faster): the
scores must be those of bm25s indexing the strings itself, to the last bit, or passages move."""

from __future__ import annotations

from pathlib import Path

import bm25s
import numpy as np
import pytest

from longnovel.injection.evidence import ArticleIndex

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "raw" / "sample"


def _units(language: str) -> list[str]:
    paths = sorted((SAMPLE / language).glob("*/*.txt"))
    return [p.read_text(encoding="utf-8") for p in paths if not p.name.endswith(".summary.txt")]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_scores_are_those_of_bm25s_on_the_strings(language):
    article = "\n\n".join(_units(language)[:3])
    index = ArticleIndex(article, language)
    plain = bm25s.BM25()
    plain.index([sorted(t) or [""] for t in index.terms], show_progress=False)
    words = sorted(index.idf)
    assert len(words) > 200
    for k in range(0, len(words) - 5, 7):
        query = words[k : k + 1 + k % 5]
        assert np.array_equal(index._bm25.get_scores(query), plain.get_scores(query))
