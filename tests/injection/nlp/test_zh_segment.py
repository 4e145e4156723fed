"""The Chinese words come from jieba-rs's dictionary route and jieba's own HMM: they must be
jieba's words exactly, offsets included, or every name, place and edit built on them moves."""

from __future__ import annotations

import builtins
from pathlib import Path

import pytest

from longnovel.injection.nlp.zh import segment

SAMPLE = Path(segment.__file__).parents[3] / "project" / "data" / "raw" / "sample" / "zh"

# Where a port of jieba splits otherwise: a run of single characters near a tie in the HMM
# (jieba-rs: 常在), letters, digits and dashes among the characters (2007|-|1|-|12), a
# character missing from the HMM's tables (碪), traditional characters, an invented name and
# place that only the HMM finds, blank lines and full-width punctuation.
TRICKY = [
    "所以常在这庵里住着，弟兄们常在大衙门口等他。",
    "时间:2007-1-12 23:10，AT&T公司的C++程序员来了100%的人。",
    "碪声碎妾心，寒衣未寄。",
    "賈寶玉聽了，忙問：「這是什麼緣故？」",
    "顾青禾走进青砚镇，沈小满在石湾渡口等她。\n\n  　　第二日天未亮，两人又上路了。",
    "他说：“好。”她也不说话，只是笑。……唉！",
    "",
]


def _jieba_spans(text: str) -> list[tuple[int, int]]:
    import jieba

    return [(start, end) for _, start, end in jieba.tokenize(text)]


@pytest.mark.parametrize("text", TRICKY)
def test_the_spans_are_jiebas(text):
    assert segment.word_spans(text) == _jieba_spans(text)


def test_the_sample_chapters_segment_as_jieba_does():
    files = sorted(SAMPLE.rglob("*.txt"))
    assert len(files) > 20
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert segment.word_spans(text) == _jieba_spans(text), path.name


def test_the_route_is_taken_by_jieba_rs():
    """The fast path is the one in use (an environment without rjieba falls back silently, and
    this test says so)."""
    assert isinstance(getattr(segment._cut(), "__self__", None), segment._Segmenter)


def test_without_rjieba_jieba_itself(monkeypatch):
    real_import = builtins.__import__

    def no_rjieba(name, *args, **kwargs):
        if name == "rjieba":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_rjieba)
    segment._cut.cache_clear()
    try:
        cut = segment._cut()
        assert not isinstance(getattr(cut, "__self__", None), segment._Segmenter)
        text = TRICKY[0]
        assert [w for w in cut(text)] == [text[a:b] for a, b in _jieba_spans(text)]
    finally:
        segment._cut.cache_clear()
