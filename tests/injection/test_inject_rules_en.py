"""The rules generator on hand-written English summaries: every sub-type, the exact change."""

from __future__ import annotations

import pytest
from helpers_injection import candidate_of

from longnovel.injection import NotApplicable, RulesGenerator

PRONOUN = "Elizabeth walks to the house. She refuses the offer."
CASES = [
    # (type, subtype, summary, original sentence, hallucinated sentence)
    ("entity", "pronoun", PRONOUN, "She refuses the offer.", "Darcy refuses the offer."),
    ("entity", "role_swap", "Darcy insults Elizabeth at the ball.",
     "Darcy insults Elizabeth at the ball.", "Elizabeth insults Darcy at the ball."),
    ("entity", "mismatch", "Jane stays in London for the winter.",
     "Jane stays in London for the winter.", "Jane stays in Pemberley for the winter."),
    ("number", "quantity", "Jane stays with her sister for 20 nights.",
     "Jane stays with her sister for 20 nights.", "Jane stays with her sister for 26 nights."),
    ("number", "time", "The ball is held on Tuesday at the house.",
     "The ball is held on Tuesday at the house.", "The ball is held on Friday at the house."),
    ("relation", "replace", "Elizabeth travels north with her aunt.",
     "Elizabeth travels north with her aunt.", "Elizabeth travels north with her mother."),
    ("relation", "invent", "Elizabeth writes to her neighbour.",
     "Elizabeth writes to her neighbour.", "Elizabeth writes to her cousin."),
    ("polarity", "negate", "Jane could see the garden.",
     "Jane could see the garden.", "Jane could not see the garden."),
    ("polarity", "affirm", "Jane did not go to the ball.",
     "Jane did not go to the ball.", "Jane went to the ball."),
    ("event", "verb", "Elizabeth kisses the child.",
     "Elizabeth kisses the child.", "Elizabeth slaps the child."),
    ("event", "outcome", "In the end, the prisoner is released.",
     "In the end, the prisoner is released.", "In the end, the prisoner is detained."),
    ("causal", "invent", "Jane falls ill at the house. Then the family arrives.",
     "Then the family arrives.", "Because of this, the family arrives."),
    ("causal", "invert", "Jane cries because the letter is cruel.",
     "Jane cries because the letter is cruel.", "The letter is cruel because Jane cries."),
]


@pytest.mark.parametrize("type_id,subtype,summary,original,hallucinated", CASES)
def test_exact_change(en_entities, type_id, subtype, summary, original, hallucinated):
    cand = candidate_of(summary, "en", en_entities, type_id, subtype)
    assert cand.original_span == original
    assert cand.hallucinated_span == hallucinated
    assert cand.summary == summary.replace(original, hallucinated)
    assert cand.generator == "rules"


def test_pronoun_never_becomes_an_earlier_character(en_entities):
    summary = "Darcy meets Elizabeth. She laughs at him. He leaves."
    for attempt in range(6):
        cand = RulesGenerator(1).generate(summary, "en", en_entities, "entity", attempt)
        if cand.subtype == "pronoun":
            assert "Darcy" not in cand.hallucinated_span.replace("Darcy meets", "")
            assert "Elizabeth" not in cand.hallucinated_span


def test_symmetric_sentence_is_not_role_swapped(en_entities):
    out = RulesGenerator(1).generate("Darcy and Elizabeth dine together.", "en", en_entities,
                                     "entity", 0)
    assert getattr(out, "subtype", None) != "role_swap"


def test_temporal_swap_keeps_the_connective(en_entities):
    summary = "Jane falls ill at the house. Then Elizabeth walks over the muddy fields."
    cand = candidate_of(summary, "en", en_entities, "temporal", "swap")
    assert cand.summary == "Elizabeth walks over the muddy fields. Then Jane falls ill at the house."
    assert cand.original_span == summary
    assert cand.hallucinated_span == cand.summary


def test_causal_replace_uses_another_event(en_entities):
    summary = ("Wickham tells a long story about his past. Jane visits London. "
               "Elizabeth cries because the letter is cruel.")
    cand = candidate_of(summary, "en", en_entities, "causal", "replace")
    assert cand.hallucinated_span == ("Elizabeth cries because wickham tells a long story about "
                                      "his past.") or "because Wickham tells" in cand.summary


def test_fabrication_subtypes_add_one_sentence(en_entities):
    summary = ("Jane arrives at the house in the rain after a long ride. The weather stays cold "
               "and wet all week. Elizabeth reads by the fire and waits for news of her sister.")
    repeat = candidate_of(summary, "en", en_entities, "fabrication", "repeat")
    retold = "Later, Jane arrives at the house in the rain after a long ride."
    assert repeat.hallucinated_span == retold
    assert repeat.summary == summary + " " + retold
    assert repeat.original_span == ""
    for subtype in ("psychology", "continue"):
        cand = candidate_of(summary, "en", en_entities, "fabrication", subtype)
        assert cand.summary.startswith(summary.split(". ")[0])
        assert len(cand.summary) > len(summary)
        assert any(n in cand.hallucinated_span for n in ("Jane", "Elizabeth"))
    psychology = candidate_of(summary, "en", en_entities, "fabrication", "psychology")
    assert psychology.hallucinated_span in {
        t.format(name=n) for n in ("Jane", "Elizabeth")
        for t in __import__("longnovel.injection.lexicon", fromlist=["x"]).EN_REACTIONS}


@pytest.mark.parametrize("type_id,summary", [
    ("number", "Jane walks to the house."),
    ("temporal", "Jane walks to the house."),
    ("causal", "Jane walks to the house."),
    ("relation", "Jane walks to the house."),
])
def test_not_applicable(en_entities, type_id, summary):
    out = RulesGenerator(1).generate(summary, "en", en_entities, type_id)
    assert isinstance(out, NotApplicable) and out.type == type_id and out.reason


def test_deterministic_and_attempts_differ(en_entities):
    summary = ("Elizabeth visits Jane in London. She did not expect to see Darcy. "
               "Two days later her aunt takes her to Pemberley.")
    a = [RulesGenerator(5).generate(summary, "en", en_entities, "entity", k) for k in range(3)]
    b = [RulesGenerator(5).generate(summary, "en", en_entities, "entity", k) for k in range(3)]
    assert a == b
    assert len({c.summary for c in a}) > 1
