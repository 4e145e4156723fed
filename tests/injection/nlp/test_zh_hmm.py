"""jieba's HMMs decoded by ``hmm`` must give jieba's own paths: every word, tag, name and edit
of the Chinese pipeline is built on them."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from longnovel.injection.nlp.zh import hmm, segment

SAMPLE = Path(segment.__file__).parents[3] / "project" / "data" / "raw" / "sample" / "zh"
HAN_RUN = re.compile("[\u4e00-\u9fd5]+")


def _sample_text() -> str:
    files = sorted(SAMPLE.rglob("*.txt"))
    assert len(files) > 20
    return "\n".join(path.read_text(encoding="utf-8") for path in files)


@pytest.fixture(scope="module")
def jieba_tagger():
    """jieba's own tagger decoder, put back in place for the duration of a test."""
    import jieba.posseg

    own = importlib.import_module("jieba.posseg.viterbi").viterbi
    kept = jieba.posseg.viterbi
    yield own
    jieba.posseg.viterbi = kept


def test_words_of_a_run_are_jiebas():
    from jieba import finalseg

    runs = sorted(set(HAN_RUN.findall(_sample_text())))
    runs += ["常在这庵里住着", "碪声碎妾心", "賈寶玉聽了忙問", "好", "顾青禾沈小满石湾渡口"]
    assert len(runs) > 1000
    for run in runs:
        assert hmm.hmm_words(run) == list(finalseg.cut(run)), run


def test_words_of_random_runs_are_jiebas():
    """Runs of any characters of jieba's range, many of them absent from the model's tables
    (every state then scores alike and the ties decide), split as jieba splits them."""
    import random

    from jieba import finalseg

    rnd = random.Random(23)
    alphabet = [chr(c) for c in range(0x4E00, 0x9FD6)]
    common = sorted(set("".join(HAN_RUN.findall(_sample_text())[:300])))  # the sample's
    for _ in range(3000):
        pool = common if rnd.random() < 0.5 else alphabet
        run = "".join(rnd.choice(pool) for _ in range(rnd.randint(1, 14)))
        assert hmm.hmm_words(run) == list(finalseg.cut(run)), run


def test_the_tagger_decodes_as_jieba_does(jieba_tagger):
    import jieba.posseg as pseg

    sentences = [s for s in re.split("[。！？\n]", _sample_text()) if s.strip()][:400]
    sentences += ["碪声碎妾心，寒衣未寄。", "AT&T公司的C++程序员来了100%的人。", "賈寶玉聽了"]
    pseg.viterbi = jieba_tagger
    theirs = [[(p.word, p.flag) for p in pseg.cut(s)] for s in sentences]
    hmm.install()
    ours = [[(p.word, p.flag) for p in pseg.cut(s)] for s in sentences]
    assert ours == theirs
    # and the scores themselves, run by run, on the runs jieba hands its tagger
    from jieba.posseg import char_state_tab_P, emit_P, start_P, trans_P

    for run in sorted(set(HAN_RUN.findall("".join(sentences))))[:300]:
        assert hmm.tagger_viterbi(run, char_state_tab_P, start_P, trans_P, emit_P) == \
            jieba_tagger(run, char_state_tab_P, start_P, trans_P, emit_P), run


def test_the_shipped_dictionary_routes_as_jiebas_own():
    """jieba-rs's own copy of jieba's dictionary, loaded natively, finds the same routes as
    jieba's dict.txt added word by word."""
    import jieba
    import rjieba

    segment._jieba()
    shipped = segment._route_finder(jieba, rjieba)
    by_word = segment._route_finder(jieba, rjieba, shipped=False)
    blocks = HAN_RUN.findall(_sample_text())
    assert len(blocks) > 1000
    assert [shipped.cut(b, False) for b in blocks] == [by_word.cut(b, False) for b in blocks]


def test_the_shipped_dictionary_is_the_one_loaded_while_jieba_keeps_its_own():
    """(The test above would pass were the shipped copy never used.) With jieba's default
    dictionary the route finder is jieba-rs's own, no word added; with another, word by
    word."""
    import jieba

    class FakeJieba:
        added = 0

        @classmethod
        def empty(cls):
            return cls()

        def add_word(self, *_):
            FakeJieba.added += 1

    class FakeRjieba:
        Jieba = FakeJieba

    segment._jieba()
    assert isinstance(segment._route_finder(jieba, FakeRjieba), FakeJieba)
    assert FakeJieba.added == 0
    segment._route_finder(jieba, FakeRjieba, shipped=False)
    assert FakeJieba.added > 300_000
