"""Edits a fluent reader of the summary would not notice (issue 24): each defect read in the
rules' output on real summaries, held on a crafted sentence by its exact output or refusal."""

from __future__ import annotations

import string

import pytest

from longnovel.injection.candidate import NotApplicable
from longnovel.injection.generators.rules.generator import RulesGenerator
from longnovel.injection.nlp.text import Vocabulary
from longnovel.injection.validate import validate

EN_PEOPLE = [{"name": n, "type": "person", "count": 3}
             for n in ("Wren", "Orrin", "Mabry", "Henry", "Edda", "Pell", "Amsel Vale")]
ZH_PEOPLE = [{"name": n, "type": "person", "count": 3}
             for n in ("小满", "青禾", "韩石", "顾衡山", "孟阿福", "周杏儿")]


def spans(summary: str, type_id: str, language: str = "en", vocabulary=None) -> list[str]:
    """Every hallucinated span the rules offer for ``type_id`` (all attempts), sorted."""
    out = []
    people = ZH_PEOPLE if language == "zh" else EN_PEOPLE
    vocabularies = {"b": vocabulary} if vocabulary is not None else None
    for attempt in range(40):
        generator = RulesGenerator(13, vocabularies)
        candidate = generator.generate(summary, language, people, type_id, attempt, book="b")
        if isinstance(candidate, NotApplicable):
            break
        assert validate(candidate, language) is None, candidate
        out.append(candidate.hallucinated_span)
    return sorted(set(out))


# --- temporal --------------------------------------------------------------------------------

def test_a_sentence_opening_with_a_pronoun_is_not_moved_ahead_of_its_antecedent():
    summary = ("Using the workbook of Amsel Vale, Wren found the moon wheel. "
               "It was bright new brass, while every other wheel was green and grey with salt.")
    assert spans(summary, "temporal") == []
    summary = "当夜三更，小满发现谱房的铜锁没有扣上，便进了谱房。他在东墙离地两尺高处摸到一块松动的砖。"
    assert spans(summary, "temporal", "zh") == []
    # the connective stays, but the moved sentence still leans on the one before
    summary = "第二天，小满和青禾押着刁五下山。顾衡山把刁五关在县学里。随后，他们去了临川府。"
    assert spans(summary, "temporal", "zh") == [
        "顾衡山把刁五关在县学里。第二天，小满和青禾押着刁五下山。"]


def test_a_sentence_pointing_back_is_not_moved_behind_the_next():
    summary = "This angered Orrin, who left the tower at once. Mabry walked home along the quay."
    assert spans(summary, "temporal") == []


def test_a_kept_connective_never_doubles_the_moved_sentences_time():
    summary = ("On the ninth, Wren rang the bell at the tower. "
               "Then Orrin came down the stairs to the quay.")
    assert spans(summary, "temporal") == []


def test_a_plain_pair_is_still_swapped():
    summary = "Wren found the moon wheel in the loft. Then Orrin came down the stairs to the quay."
    assert spans(summary, "temporal") == [
        "Orrin came down the stairs to the quay. Then Wren found the moon wheel in the loft."]


# --- number ----------------------------------------------------------------------------------

def _book_vocabulary(*words: str) -> Vocabulary:
    """A book's summaries that use ``words`` and enough others to judge the writer by."""
    vocabulary = Vocabulary(zh=False)
    letters = string.ascii_lowercase
    vocabulary.add(" ".join(a + b for a in letters for b in letters) + " " + " ".join(words))
    assert vocabulary.enough
    return vocabulary


@pytest.mark.parametrize("summary", [
    "After sharing a drink or two together, Wren and Orrin left the inn by the back door.",
    "One day, one of the men came at once; no one knew, and at first the two struggled.",
    "Wren waited ten or so minutes, then two or three more, and thanked him a hundred times.",
    "Chapter Seven tells how Orrin walked to Seven Dials with Wren.",
    "有一天，他三五天后带回两三个人，走了千里路。",
])
def test_a_vague_or_idiomatic_number_is_left_alone(summary):
    assert spans(summary, "number", "zh" if "天" in summary else "en") == []


def test_a_number_in_words_is_changed_whole_and_written_as_the_writer_writes():
    assert spans("Corra had two hundred and sixteen sacks of salt in the barge's hold.",
                 "number") == [
        "Corra had one hundred and eight sacks of salt in the barge's hold.",
        "Corra had two hundred and eighty-one sacks of salt in the barge's hold.",
        "Corra had two hundred and fifty-nine sacks of salt in the barge's hold."]
    made = spans("By the end of the winter he kept one thousand one hundred sheep on the hill "
                 "farm above the town.", "number", vocabulary=_book_vocabulary())
    assert made == [
        "By the end of the winter he kept eight hundred sheep on the hill farm above the town.",
        "By the end of the winter he kept one thousand six hundred sheep on the hill farm "
        "above the town.",
        "By the end of the winter he kept six hundred sheep on the hill farm above the town."]


def test_an_age_stays_an_age_of_that_stage_of_life_with_its_article():
    assert spans("Corra was an eleven-year-old girl.", "number") == [
        "Corra was a fifteen-year-old girl.", "Corra was a five-year-old girl.",
        "Corra was a seventeen-year-old girl."]


def test_chinese_numerals_through_cn2an():
    assert spans("周大有召集了一百零八位船夫。", "number", "zh") == [
        "周大有召集了一百六十二位船夫。", "周大有召集了五十四位船夫。", "周大有召集了八十六位船夫。"]


def test_a_time_word_comes_from_the_books_summaries_and_never_doubles_a_neighbour():
    summary = "She came back on the morning of the twentieth."
    assert spans(summary, "number", vocabulary=_book_vocabulary("dawn")) == []
    assert spans(summary, "number", vocabulary=_book_vocabulary("evening")) == [
        "She came back on the evening of the twentieth."]
    made = spans("They left at noon and rode until dawn.", "number",
                 vocabulary=_book_vocabulary("dusk", "noon", "dawn"))
    assert made == ["They left at dusk and rode until dawn.",
                    "They left at noon and rode until dusk."]  # never "until noon"
