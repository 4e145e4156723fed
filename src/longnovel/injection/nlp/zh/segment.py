"""jieba's words and part-of-speech tags of Chinese text.

Words are jieba's own (accurate mode, HMM on: ``jieba.cut``), found faster: ``rjieba`` (jieba-rs)
loaded with jieba's dictionary finds the dictionary route of each run of Chinese characters, and
jieba's own HMM splits the runs of single characters the dictionary leaves, as ``jieba.cut``
does. jieba-rs's HMM is not used: its scores differ from jieba's in the last digits, which
splits near-ties the other way (常在 against 常|在). Without rjieba, ``jieba.cut`` itself.
Both HMMs (the word splitter's and ``jieba.posseg``'s tagger) are decoded by ``hmm``: jieba's
models and routes, found faster.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import accumulate, groupby

_PURE_HAN = re.compile("[\u4e00-\u9fd5]+")  # jieba's Chinese range, without its word characters


@lru_cache(maxsize=16384)
def words(sentence: str) -> tuple[str, ...]:
    """jieba's words of one sentence (cached: a unit's summary is in a window of every tier,
    and each window's draft asks again)."""
    return tuple(_cut()(sentence))


def word_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of jieba's words of ``text``, as ``jieba.tokenize`` gives them."""
    ends = list(accumulate(map(len, _cut()(text))))
    return list(zip([0, *ends], ends, strict=False))  # (the last end starts nothing)


@lru_cache(maxsize=4096)
def tagged_words(sentence: str) -> tuple[tuple[str, str], ...]:
    """jieba's (word, tag) pairs of a sentence (cached: every attempt and tier asks again)."""
    return tuple((t.word, t.flag) for t in _tagger().cut(sentence))


def is_idiom(text: str) -> bool:
    """Is ``text`` (simplified) a four-character entry of jieba's dictionary: a set phrase
    such as 半夜三更 or 三心二意, whose numerals and time words are no facts to change?"""
    return len(text) == 4 and bool(_jieba().dt.FREQ.get(text))


def warm() -> None:
    """Load jieba's dictionary, the segmenter and the tagger now (forked workers then inherit
    them)."""
    _cut()
    list(_tagger().cut("预热"))


def _jieba():
    import jieba

    jieba.setLogLevel(60)
    jieba.dt.check_initialized()
    return jieba


@lru_cache(maxsize=1)
def _tagger():
    """``jieba.posseg``, its tagger decoded by ``hmm.tagger_viterbi``."""
    import jieba.posseg as pseg

    from longnovel.injection.nlp.zh import hmm

    _jieba()
    hmm.install()
    return pseg


@lru_cache(maxsize=1)
def _cut() -> Callable[[str], Iterable[str]]:
    jieba = _jieba()
    try:
        import rjieba
    except ImportError:
        return jieba.dt.cut
    return _Segmenter(jieba, rjieba).cut


def _route_finder(jieba, rjieba, shipped: bool = True):
    """A jieba-rs segmenter with jieba's dictionary: the one jieba-rs ships (jieba's own
    dict.txt, every word and frequency, loaded natively in a tenth of the time) while jieba
    keeps its default; else the dictionary jieba was given, word by word."""
    if shipped and jieba.dt.dictionary == jieba.DEFAULT_DICT:
        return rjieba.Jieba()
    route = rjieba.Jieba.empty()
    with jieba.dt.get_dict_file() as lines:
        for line in lines:
            word, freq, *tag = line.decode("utf-8").split()
            route.add_word(word, int(freq), tag[0] if tag else None)
    return route


class _Segmenter:
    """``jieba.cut`` (accurate mode, HMM on), the dictionary route taken by jieba-rs."""

    def __init__(self, jieba, rjieba):
        from longnovel.injection.nlp.zh.hmm import hmm_words

        self._freq = jieba.dt.FREQ
        self._re_han, self._re_skip = jieba.re_han_default, jieba.re_skip_default
        self._python_cut = jieba.dt.cut
        self._hmm = lru_cache(maxsize=1 << 16)(lambda run: tuple(hmm_words(run)))
        self._route = _route_finder(jieba, rjieba)

    def cut(self, text: str) -> list[str]:
        """The words of ``text`` (a list: built in one pass, without a generator per level)."""
        out: list[str] = []
        for block in self._re_han.split(text):
            if not block:
                continue
            if _PURE_HAN.fullmatch(block):
                self._cut_han(block, out)
            elif self._re_han.match(block):  # letters and digits among the characters: rare
                out.extend(self._python_cut(block))
            else:
                for part in self._re_skip.split(block):
                    if self._re_skip.match(part):
                        out.append(part)
                    else:
                        out.extend(part)
        return out

    def _cut_han(self, block: str, out: list[str]) -> None:
        """Words of the route; a run of single characters that is not itself a word goes
        to the HMM (jieba's ``__cut_DAG``)."""
        for length, words in groupby(self._route.cut(block, False), len):
            if length == 1:
                self._single_run("".join(words), out)
            else:
                out.extend(words)

    def _single_run(self, run: str, out: list[str]) -> None:
        if len(run) == 1:
            out.append(run)
        elif not self._freq.get(run):
            out.extend(self._hmm(run))
        else:
            out.extend(run)
