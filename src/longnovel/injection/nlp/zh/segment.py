"""jieba's words and part-of-speech tags of Chinese sentences, cached."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=16384)
def words(sentence: str) -> tuple[str, ...]:
    """jieba's words of one sentence (cached: a unit's summary is in a window of every tier,
    and each window's draft asks again)."""
    import jieba

    jieba.setLogLevel(60)
    return tuple(jieba.cut(sentence))


@lru_cache(maxsize=4096)
def tagged_words(sentence: str) -> tuple[tuple[str, str], ...]:
    """jieba's (word, tag) pairs of a sentence (cached: every attempt and tier asks again)."""
    import jieba
    import jieba.posseg as pseg

    jieba.setLogLevel(60)
    return tuple((t.word, t.flag) for t in pseg.cut(sentence))


def warm() -> None:
    """Load jieba's dictionary and tagger now (forked workers then inherit them)."""
    import jieba
    import jieba.posseg as pseg

    jieba.setLogLevel(60)
    list(pseg.cut("预热"))
