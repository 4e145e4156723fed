"""Edits a fluent reader of the summary would not notice (issue 24): each defect read in the
rules' output on real summaries, held on a crafted sentence by its exact output or refusal."""

from __future__ import annotations

import string

import pytest

from longnovel.injection.candidate import NotApplicable
from longnovel.injection.generators.rules.draft import Draft
from longnovel.injection.generators.rules.generator import RulesGenerator
from longnovel.injection.nlp.text import Vocabulary
from longnovel.injection.validate import validate

EN_PEOPLE = [{"name": n, "type": "person", "count": 3}
             for n in ("Wren", "Orrin", "Mabry", "Henry", "Pell", "Amsel Vale")] + [
    {"name": "Edda", "type": "person", "count": 3, "gender": "f"}]
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
    summary = ("当夜三更，小满发现谱房的铜锁没有扣上，便进了谱房。"
               "他在东墙离地两尺高处摸到一块松动的砖。")
    assert spans(summary, "temporal", "zh") == []
    # the connective stays, but the moved sentence still leans on the one before
    summary = "第二天，小满和青禾押着刁五下山。顾衡山把刁五关在县学里。随后，他们去了临川府。"
    assert spans(summary, "temporal", "zh") == []
    summary = "第二天，小满和青禾押着刁五下山。顾衡山把刁五关在县学里。随后，青禾去了临川府。"
    assert "顾衡山把刁五关在县学里。第二天，小满和青禾押着刁五下山。" in spans(
        summary, "temporal", "zh")


def test_no_swap_hands_what_the_next_sentence_takes_up_to_the_other_sentence():
    # "He comes to a six foot drop" took up Claney's run; after the swap it would follow
    # McIvers (seed 4939's reading)
    summary = ("Claney's Bug loses a wheel on the ridge road. McIvers waves from the crest to "
               "get the pilot's attention. He comes to a six foot drop that his vehicle cannot "
               "pass over.")
    assert spans(summary, "temporal") == []
    summary = ("Claney's Bug loses a wheel on the ridge road. McIvers waves from the crest to "
               "get the pilot's attention. Claney comes to a six foot drop that his vehicle "
               "cannot pass over.")
    assert ("McIvers waves from the crest to get the pilot's attention. Claney's Bug loses a "
            "wheel on the ridge road.") in spans(summary, "temporal")
    # "her" is Edda, named before the pair: moved behind Mabry's sentence, it would read as
    # Mabry (seed 4939's reading: "Penelope scarcely credits her", the nurse, after Minerva)
    summary = ("Wren runs up the stairs to Edda's room. The news of the stranger astonishes "
               "her greatly. Mabry sends the boy down to the quay.")
    assert not any(s.startswith("Mabry") for s in spans(summary, "temporal"))
    summary = ("Wren runs up the stairs to Edda's room. The news of the stranger astonishes "
               "the old woman. Mabry sends the boy down to the quay.")
    assert ("Mabry sends the boy down to the quay. The news of the stranger astonishes the "
            "old woman.") in spans(summary, "temporal")


def test_a_sentence_pointing_back_is_not_moved_behind_the_next():
    summary = "This angered Orrin, who left the tower at once. Mabry walked home along the quay."
    assert spans(summary, "temporal") == []


def test_a_kept_connective_never_doubles_the_moved_sentences_time():
    summary = ("On the ninth, Wren rang the bell at the tower. "
               "Then Orrin came down the stairs to the quay.")
    assert spans(summary, "temporal") == []


def test_a_pronoun_whose_person_only_the_other_sentence_names_keeps_the_order():
    summary = ("Warden-Mayor Tabitha Oakes, who was sixty, chaired it. "
               "On the twenty-first, Wren had given her Orrin's letter and the book.")
    assert spans(summary, "temporal") == []  # "her" is Oakes
    summary = "Wren found the moon wheel in the loft. Then Orrin came down the stairs to his quay."
    assert spans(summary, "temporal") == [
        "Orrin came down the stairs to his quay. Then Wren found the moon wheel in the loft."]


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
    from longnovel.injection.generators.rules import number

    draft = Draft("周大有召集了一百零八位船夫。", "zh", [])
    assert sorted(e.text for e in number.edits(draft)) == sorted([
        "周大有召集了一百六十二位船夫。", "周大有召集了五十四位船夫。",
        "周大有召集了八十六位船夫。"])
    # the rules take a lowered count first where there is one
    assert spans("周大有召集了一百零八位船夫。", "number", "zh") == [
        "周大有召集了五十四位船夫。", "周大有召集了八十六位船夫。"]


def test_a_time_word_comes_from_the_books_summaries_and_never_doubles_a_neighbour():
    summary = "She came back on the morning of the twentieth."
    assert spans(summary, "number", vocabulary=_book_vocabulary("dawn")) == []
    assert spans(summary, "number", vocabulary=_book_vocabulary("evening")) == [
        "She came back on the evening of the twentieth."]
    made = spans("They left at noon and rode until dawn.", "number",
                 vocabulary=_book_vocabulary("dusk", "noon", "dawn"))
    assert made == ["They left at dusk and rode until dawn.",
                    "They left at noon and rode until dusk."]  # never "until noon"


# --- event -----------------------------------------------------------------------------------

@pytest.mark.parametrize("summary", [
    "Henry nursed him back to health at the mill.",  # not "abandoned him back to health"
    "But they'll have helped bring it about by the spring.",  # not "followed bring it about"
    "Survived, he finds himself in prison at the port.",  # not "Died, he finds himself"
    "Ned then sent word that Kestrel Point had bark for the fever.",  # not "carried word"
    "Jory helped to carry the box to the shop.",  # not "followed to carry"
    "Wren embraced him at the gate of the yard.",  # not "pushed away him"
    "Jory came toward them, and he laughed at himself.",  # not "shouted at himself"
])
def test_an_event_verb_keeps_its_complement_or_is_left_alone(summary):
    assert spans(summary, "event") == []


def test_an_event_verb_used_as_an_adjective_is_left_alone():
    made = spans("The two hundred and sixteen saved sacks were sold to the granary.", "event")
    assert made == ["The two hundred and sixteen saved sacks were lent to the granary."]


@pytest.mark.parametrize("summary,made", [
    ("Orrin invited him to dine at the tower.", ["Orrin warned him to dine at the tower."]),
    # after "has", the new verb's participle by lemminflect ("rode" -> "ridden")
    ("Mabry has walked to the mill with Pell.", ["Mabry has ridden to the mill with Pell."]),
    ("Corra had bought a new cable at the chandler's.", [
        "Corra had borrowed a new cable at the chandler's.",
        "Corra had rented a new cable at the chandler's.",
        "Corra had stolen a new cable at the chandler's."]),
])
def test_an_event_verb_takes_a_complement_the_new_verb_takes_too(summary, made):
    assert spans(summary, "event") == made


# --- relation --------------------------------------------------------------------------------

@pytest.mark.parametrize("summary", [
    "Aunt Mabry and Rosalind Vell kept their ledgers in the lamp-oil hut.",
    "Mother Mabry was upstairs at the feast with the guests.",
    "Wren asked Brother Jonathan for the key to the tower.",
    "The guide (a tale of two sisters at sea) says little of Wren.",
])
def test_no_relation_word_swapped_in_a_name_an_aside_or_onto_itself(summary):
    assert spans(summary, "relation") == []


def test_no_relation_word_brought_into_a_sentence_that_has_it():
    made = spans("他怕父亲把纸铺给了弟弟，才急着分家。", "relation", "zh")
    assert made and not any(s.count("父亲") > 1 or s.count("弟弟") > 1 for s in made), made


def test_a_relation_stand_in_is_the_books_own_word():
    summary = "Wren travels north with her aunt."
    assert spans(summary, "relation", vocabulary=_book_vocabulary("mother")) == [
        "Wren travels north with her mother."]  # not "stepmother" nor "friend"
    assert spans(summary, "relation", vocabulary=_book_vocabulary()) == []


def test_a_relation_stand_in_keeps_the_persons_gender_and_generation():
    # a friend's gender is not known: never "mother"
    assert spans("Bettany begged her friend to tell the truth.", "relation",
                 vocabulary=_book_vocabulary("mother", "cousin")) == [
        "Bettany begged her cousin to tell the truth."]
    # Edda is a woman: her cousin may be a friend, not a brother
    assert spans("Wren walked home with her cousin Edda after the fair.", "relation") == [
        "Wren walked home with her friend Edda after the fair."]
    # a thirteen-year-old cousin is no aunt; her uncle may be another uncle
    # (the module's edits)
    from longnovel.injection.generators.rules import relation

    summary = "七月初九，舅舅周大有带十三岁的表妹周杏儿来。"
    draft = Draft(summary, "zh", [{"name": "周大有", "type": "person", "count": 3},
                                  {"name": "周杏儿", "type": "person", "count": 3}])
    made = sorted({e.text for e in relation.edits(draft)})
    assert "七月初九，舅舅周大有带十三岁的姑姑周杏儿来。" not in made
    assert spans(summary, "relation", "zh") and set(spans(summary, "relation", "zh")) <= set(made)
    assert made == sorted([
        "七月初九，伯父周大有带十三岁的表妹周杏儿来。",
        "七月初九，叔叔周大有带十三岁的表妹周杏儿来。",
        "七月初九，姨父周大有带十三岁的表妹周杏儿来。",
        "七月初九，舅舅周大有带十三岁的亲妹妹周杏儿来。",
        "七月初九，舅舅周大有带十三岁的堂妹周杏儿来。",
        "七月初九，舅舅周大有带十三岁的朋友周杏儿来。",
        "七月初九，舅舅周大有带十三岁的表姐周杏儿来。"])
    # a son stays of his generation: a nephew or a stepson, never a father
    assert spans("Her son Pell climbed a drainpipe into the office.", "relation") == [
        "Her nephew Pell climbed a drainpipe into the office.",
        "Her stepson Pell climbed a drainpipe into the office."]


# --- polarity --------------------------------------------------------------------------------

@pytest.mark.parametrize("summary", [
    # "would sit until spring" says another thing badly
    "The bridge had fallen, so the coast court would not sit until spring. Wren did not go.",
    # a reason in the conditional explains the negation: "could ring ... it would have told"
    "Wren could not ring the tide-bell, because it would have told the ships. Pell did not go.",
])
def test_a_negation_bound_to_its_sense_is_not_taken_out(summary):
    assert spans(summary, "polarity") == [summary.split(". ")[1]
                                          .replace(" did not go.", " went.")]


def test_no_negation_that_reads_as_not_only():
    assert spans("Pell said the policy was only nine days old. Wren did not go.",
                 "polarity") == ["Pell did not say the policy was only nine days old."]


def test_no_negation_inside_a_question_word_or_relative_clause():
    summary = ("Pell then admitted that Milo had feared what Vell would do. Wren did not go. "
               "The man held up two plates, which he said were found under the bench.")
    assert "Vell would not do" not in " ".join(spans(summary, "polarity"))
    assert not any("he never said" in s or "he did not say" in s
                   for s in spans(summary, "polarity"))


@pytest.mark.parametrize("summary,made", [
    # the writer's "failed to": the verb keeps its tense ("makes" -> "fails to make")
    ("Ralph makes one last appointment. Wren failed to see him.",
     ["Ralph fails to make one last appointment."]),
    # "did not" + base form, and back to the irregular past by lemminflect
    ("Oliver rode to London. Monks did not say anything.", ["Oliver did not ride to London."]),
    ("Mabry did not go to the feast. Wren did not wave.",
     ["Mabry went to the feast.", "Wren waved."]),
])
def test_negation_by_lemminflect_in_the_writers_own_forms(summary, made):
    assert spans(summary, "polarity") == made
