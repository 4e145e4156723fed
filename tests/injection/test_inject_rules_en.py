"""The rules generator on hand-written English summaries: every sub-type, the exact change."""

from __future__ import annotations

import pytest
from helpers_injection import candidate_of

from longnovel.injection.candidate import NotApplicable
from longnovel.injection.generators.rules.generator import RulesGenerator

PRONOUN = "Wren walks to the shop. She refuses the offer."
CASES = [
    # (type, subtype, summary, original sentence, hallucinated sentence)
    ("entity", "pronoun", PRONOUN, "She refuses the offer.", "Jory refuses the offer."),
    ("entity", "role_swap", "Orrin scolds Wren at the tower.",
     "Orrin scolds Wren at the tower.", "Wren scolds Orrin at the tower."),
    ("entity", "mismatch", "Mabry stays in Harrowmere for the winter.",
     "Mabry stays in Harrowmere for the winter.", "Mabry stays in Port Callow for the winter."),
    ("number", "quantity", "Mabry stays with her brother for 20 nights.",
     "Mabry stays with her brother for 20 nights.",
     "Mabry stays with her brother for 14 nights."),
    ("number", "time", "The hearing is held on Tuesday at the Guildhall.",
     "The hearing is held on Tuesday at the Guildhall.",
     "The hearing is held on Friday at the Guildhall."),
    ("relation", "replace", "Wren travels north with her aunt.",
     "Wren travels north with her aunt.", "Wren travels north with her mother."),
    ("relation", "invent", "Wren writes to her neighbour.",
     "Wren writes to her neighbour.", "Wren writes to her cousin."),
    # (a negation is added or taken out only where the writer negates elsewhere too)
    ("polarity", "negate", "Mabry could see the harbour. Wren did not say anything.",
     "Mabry could see the harbour.", "Mabry could not see the harbour."),
    ("polarity", "affirm", "Mabry did not go to the feast. Wren did not say anything.",
     "Mabry did not go to the feast.", "Mabry went to the feast."),
    ("event", "verb", "Wren kisses the captain.",
     "Wren kisses the captain.", "Wren slaps the captain."),
    ("event", "outcome", "In the end, the clockmaker is released.",
     "In the end, the clockmaker is released.", "In the end, the clockmaker is detained."),
    ("causal", "invent", ("Wren sells eleven clocks at the market because the winter is near. "
                          "Mabry falls ill at the shop. Then the family arrives."),
     "Mabry falls ill at the shop. Then the family arrives.",
     "Because Mabry falls ill at the shop, the family arrives."),
    ("causal", "invert", "Mabry cries because the letter is cruel.",
     "Mabry cries because the letter is cruel.", "The letter is cruel because Mabry cries."),
    ("causal", "replace", ("Jory tells a long story about his debts. Mabry visits Harrowmere. "
                           "Wren cries because the letter is cruel."),
     "Wren cries because the letter is cruel.",
     "Wren cries because Jory tells a long story about his debts."),
]


@pytest.mark.parametrize("type_id,subtype,summary,original,hallucinated", CASES)
def test_exact_change(en_entities, type_id, subtype, summary, original, hallucinated):
    cand = candidate_of(summary, "en", en_entities, type_id, subtype)
    assert cand.original_span == original
    assert cand.hallucinated_span == hallucinated
    assert cand.summary == summary.replace(original, hallucinated)
    assert cand.generator == "rules"


def test_pronoun_never_becomes_an_earlier_character(en_entities):
    summary = "Orrin meets Wren. She laughs at him. He leaves."
    pronoun = []
    for attempt in range(6):
        cand = RulesGenerator(1).generate(summary, "en", en_entities, "entity", attempt)
        if cand.subtype == "pronoun":
            pronoun.append(cand.hallucinated_span)
    assert pronoun
    assert not any("Orrin" in span or "Wren" in span for span in pronoun), pronoun


def test_symmetric_sentence_is_not_role_swapped(en_entities):
    # no conjunction between the names: only "together" keeps them from being swapped
    summary = "Orrin meets Wren and they talk together."
    subtypes = {RulesGenerator(1).generate(summary, "en", en_entities, "entity", k).subtype
                for k in range(6)}
    assert subtypes == {"mismatch"}


def test_temporal_swap_keeps_the_connective(en_entities):
    summary = "Mabry falls ill at the shop. Then Wren walks over the wet sand."
    cand = candidate_of(summary, "en", en_entities, "temporal", "swap")
    assert cand.summary == "Wren walks over the wet sand. Then Mabry falls ill at the shop."
    assert cand.original_span == summary
    assert cand.hallucinated_span == cand.summary


def test_moved_sentence_start_is_lower_cased_unless_a_name(en_entities):
    summary = "Using the old map, Wren finds the cave. Then the tide comes in over the rocks."
    cand = candidate_of(summary, "en", en_entities, "temporal", "swap")
    assert cand.summary == ("The tide comes in over the rocks. "
                            "Then using the old map, Wren finds the cave.")
    # a clause with a comma is never made the cause ("because using the old map, ...")
    out = RulesGenerator(1).generate(summary, "en", en_entities, "causal")
    assert isinstance(out, NotApplicable)


def test_causal_invent_uses_the_writers_own_connective(en_entities):
    summary = ("Mabry falls ill at the shop and stays in bed. So Wren walks to Harrowmere for "
               "the doctor. Then the family arrives from Port Callow with a cart of coal.")
    invented = candidate_of(summary, "en", en_entities, "causal", "invent")
    assert invented.hallucinated_span == "So the family arrives from Port Callow with a cart of coal."


def test_fabrication_subtypes_add_one_sentence_in_the_summarys_own_words(en_entities):
    summary = ("Mabry arrives at the shop in the rain after a long ride. The weather stays cold "
               "and wet all week. Wren reads by the fire and fears the worst.")
    repeat = candidate_of(summary, "en", en_entities, "fabrication", "repeat")
    retold = "Mabry arrives at the shop in the rain after a long ride."
    assert repeat.hallucinated_span == retold and repeat.original_span == ""
    assert repeat.summary == summary + " " + retold
    cont = candidate_of(summary, "en", en_entities, "fabrication", "continue")
    # Mabry's event told of Wren, after Wren's sentence
    assert cont.hallucinated_span == "Wren arrives at the shop in the rain after a long ride."
    assert cont.summary == summary + " " + cont.hallucinated_span
    psychology = candidate_of(summary, "en", en_entities, "fabrication", "psychology")
    assert psychology.hallucinated_span == "Mabry reads by the fire and fears the worst."
    assert psychology.summary.startswith(summary.split(". ")[0] + ". Mabry reads")


@pytest.mark.parametrize("sentence,retold", [
    ("Mabry calls a council, in which it is resolved to send Wren home.", "Mabry calls a council."),
    ("Mabry, going out to see the harbour, meets her brother.",
     "Mabry, going out to see the harbour, meets her brother."),  # nothing before the comma
    ("Mabry waits, and Wren sells the clocks.", "Mabry waits, and Wren sells the clocks."),
    ("Mabry begins the story of her voyage: how the ship was lost.",
     "Mabry begins the story of her voyage."),
])
def test_a_retold_event_is_told_shortly(en_entities, sentence, retold):
    """A summary that holds a long sentence twice is found by its repetition alone (real
    synopses: summary level 0.67, sentence level 0.40): an event told again is told by its
    main clause, when that clause stands as an event of its own."""
    summary = f"{sentence} The weather stays cold all week. Wren reads by the fire."
    repeat = candidate_of(summary, "en", en_entities, "fabrication", "repeat")
    assert repeat.hallucinated_span == retold


def test_a_break_after_a_full_stop_is_no_clause_end():
    """Clarissa's contents: "From the same.--Has had ..." retold up to "--" gave "same.."."""
    from longnovel.injection.generators.rules.fabrication import _main_clause

    sentence = "Mabry to Mr. Vale.--Has had a visit from the two sisters."
    assert _main_clause(sentence, False, "Mabry") == sentence
    assert _main_clause("Mabry calls a council, in which it is resolved.", False, "Mabry") == \
        "Mabry calls a council."
    assert _main_clause("顾衡山在谱房撞见韩石，认定是他偷的。", True, "顾衡山") == "顾衡山在谱房撞见韩石。"


def test_repeat_drops_the_date_and_takes_the_writers_opener(en_entities):
    summary = ("On the fifth of Ashmonth, Wren sells eleven clocks. The weather stays cold "
               "all week. Later, Mabry waits for news of her brother.")
    repeat = candidate_of(summary, "en", en_entities, "fabrication", "repeat")
    assert repeat.hallucinated_span == "Later, Wren sells eleven clocks."


@pytest.mark.parametrize("type_id,summary", [
    ("number", "Mabry walks to the shop."),
    ("temporal", "Mabry walks to the shop."),
    ("causal", "Mabry walks to the shop."),
    ("relation", "Mabry walks to the shop."),
])
def test_not_applicable(en_entities, type_id, summary):
    out = RulesGenerator(1).generate(summary, "en", en_entities, type_id)
    assert isinstance(out, NotApplicable) and out.type == type_id and out.reason


def test_deterministic_and_attempts_differ(en_entities):
    summary = ("Wren visits Mabry in Harrowmere. She did not expect to see Orrin. "
               "Two days later her aunt takes her to Port Callow.")
    a = [RulesGenerator(5).generate(summary, "en", en_entities, "entity", k) for k in range(3)]
    b = [RulesGenerator(5).generate(summary, "en", en_entities, "entity", k) for k in range(3)]
    assert a == b
    assert len({c.summary for c in a}) > 1


def test_negation_is_kept_where_the_sentence_only_reads_negated(en_entities):
    """'did not tell anyone' cannot lose its 'not': 'told anyone' is not English."""
    summary = "Wren did not tell anyone about the key. Pell did not sleep."
    cand = candidate_of(summary, "en", en_entities, "polarity", "affirm")
    assert cand.original_span == "Pell did not sleep."
    assert cand.hallucinated_span == "Pell slept."
    for attempt in range(4):
        only = RulesGenerator(1).generate("Wren did not tell anyone about the key.", "en",
                                          en_entities, "polarity", attempt)
        assert isinstance(only, NotApplicable) or only.subtype == "negate"
