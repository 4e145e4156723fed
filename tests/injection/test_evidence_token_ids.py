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


def test_scores_with_sentences_without_content_words():
    """A sentence without a content word is bm25s's empty token, as on the strings."""
    article = "“好。”\n他走进青砚镇，沈小满在石湾渡口等他。\n“是。”\n青砚镇的人都认得沈小满。"
    index = ArticleIndex(article, "zh")
    assert [len(t) for t in index.terms].count(0) == 2
    plain = bm25s.BM25()
    plain.index([sorted(t) or [""] for t in index.terms], show_progress=False)
    for query in (["青砚"], ["沈小", "小满"], ["渡口", "青砚", "镇的"]):
        assert np.array_equal(index._bm25.get_scores(query), plain.get_scores(query))


@pytest.mark.parametrize("language", ["zh", "en"])
def test_weights_are_the_idf_of_the_sentence_counts(language):
    """A word's weight, worked out when asked, is ln((n + 1) / (sentences with it + 0.5)),
    bit for bit, and a word the article lacks weighs ln((n + 1) / 0.5)."""
    import math
    from collections import Counter

    article = "\n\n".join(_units(language)[:2])
    index = ArticleIndex(article, language)
    n = len(index.spans)
    counts = Counter(t for terms in index.terms for t in terms)
    assert len(counts) > 200
    for word, count in counts.items():
        assert index.weight(word) == math.log((n + 1) / (count + 0.5))
        assert index.weight(word) == index.weight(word)  # (asked again: kept)
    assert index.weight("no such word") == math.log((n + 1) / 0.5)
    assert index.idf == {w: math.log((n + 1) / (c + 0.5)) for w, c in counts.items()}


def test_chinese_terms_are_the_character_pairs():
    """The pairs of each run of Chinese characters, those of two function characters left
    out, as the slices of the run by index gave them."""
    from longnovel.injection.evidence import _ZH_FUNCTION, _ZH_RUN, content_terms
    from longnovel.injection.nlp.script import to_simplified

    for text in _units("zh")[:4] + ["他的了是青砚镇，了的", "賈寶玉聽了", "好", ""]:
        expected = []
        for run in _ZH_RUN.findall(to_simplified(text)):
            expected += [run[i:i + 2] for i in range(len(run) - 1)
                         if not (run[i] in _ZH_FUNCTION and run[i + 1] in _ZH_FUNCTION)]
        assert content_terms(text, "zh") == expected
