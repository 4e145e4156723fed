"""The rules generator never writes the defects found by hand on real novels: a broken
contraction ("won't" -> "lost't"), a presupposing clause turned into a non-sequitur ("When he
turns back, he heads to the hotel"), a relation swapped inside the summary writer's commentary
("high school cousins going to college"), an edit inside a quotation, a non-word."""

from __future__ import annotations

import re

from longnovel.injection.candidate import Edit, NotApplicable
from longnovel.injection.generators.rules.draft import Draft
from longnovel.injection.generators.rules.generator import RulesGenerator
from longnovel.injection.generators.rules.wordcheck import acceptable
from longnovel.injection.nlp.commentary import is_commentary

PEOPLE = [{"name": n, "type": "person", "count": 3} for n in ("Carton", "Darnay", "Lucie")]
TYPES = ("entity", "number", "relation", "polarity", "event", "temporal", "causal", "fabrication")


def all_candidates(summary: str, type_id: str, language: str = "en", entities=PEOPLE,
                   outside: tuple = ()) -> list:
    generator = RulesGenerator(13)
    out = []
    for attempt in range(30):
        candidate = generator.generate(summary, language, entities, type_id, attempt,
                                       outside=outside)
        if isinstance(candidate, NotApplicable):
            return out
        out.append(candidate)
    return out


def test_a_contraction_is_never_broken():
    summary = "Carton won't like his choice. Darnay won the case in the end."
    hallucinated = {c.hallucinated_span for c in all_candidates(summary, "event")}
    assert "Darnay lost the case in the end." in hallucinated
    assert not any("lost't" in s or re.search(r"\w+['’]t\b", s) and "won't" not in s
                   for s in hallucinated)


def test_a_clause_taking_its_event_as_given_is_not_reversed():
    summary = "When he arrives, he heads to the hotel. Carton arrives at the inn."
    hallucinated = {c.hallucinated_span for c in all_candidates(summary, "event")}
    assert "When he turns back, he heads to the hotel." not in hallucinated
    assert hallucinated == {"Carton turns back at the inn."}  # the writer never says "fail"


def test_commentary_is_never_edited():
    commentary = "The novel follows four high school friends going to college."
    summary = f"{commentary} Carton writes to his friend Darnay. Lucie refuses the offer."
    assert is_commentary(commentary, "en")
    for type_id in TYPES:
        for candidate in all_candidates(summary, type_id):
            assert commentary in candidate.summary, (type_id, candidate.summary)
            assert "high school cousins" not in candidate.summary
            assert not is_commentary(candidate.hallucinated_span, "en")
    relations = {c.hallucinated_span for c in all_candidates(summary, "relation")}
    # (not "half-brother": a friend's gender is not known)
    assert relations == {"Carton writes to his cousin Darnay.",
                         "Carton writes to his relative Darnay."}


def test_zh_commentary_is_never_edited():
    summary = "本章写顾青禾的朋友进城。顾青禾答应了韩石。"
    entities = [{"name": "顾青禾", "type": "person", "count": 3},
                {"name": "韩石", "type": "person", "count": 2}]
    edited = set()
    for type_id in TYPES:
        for candidate in all_candidates(summary, type_id, "zh", entities):
            assert candidate.summary.startswith("本章写顾青禾的朋友进城。"), candidate.summary
            edited.add(type_id)
    assert edited == {"entity", "event"}  # the sentence after the commentary is edited


def test_nothing_inside_a_quotation_is_changed():
    summary = 'Carton tells Lucie, "I won the wager and I will not go back." Darnay won the race.'
    made = {c.hallucinated_span for type_id in ("event", "polarity", "relation", "number")
            for c in all_candidates(summary, type_id)
            if '"I won the wager and I will not go back."' in c.summary}
    # the same "won" outside the quotation is edited; the quotation's words never are
    assert made == {"Darnay lost the race."}


def test_a_fixed_template_is_not_the_invented_content():
    summary = ("Carton walks to the bank because it is late. Lucie meets Darnay at the gate."
               "\n\nCarton burns the letter in the fire. Lucie hides the key from Darnay.")
    outside = ((True, "Lucie sells her silver ring at the market."),
               (False, "Darnay sails to the coast with Carton. Darnay fears the sea "
                       "and its cold storms."))
    # invented content is the book's own (the units outside the window), not a template
    assert {(c.subtype, c.hallucinated_span) for c in all_candidates(
        summary, "fabrication", outside=outside)} == {
        ("repeat", "Lucie sells her silver ring at the market."),
        ("continue", "Darnay sails to the coast with Carton."),
        ("psychology", "Darnay fears the sea and its cold storms.")}
    causes = {c.hallucinated_span for c in all_candidates(summary, "causal")}
    assert "Carton burns the letter in the fire because Lucie meets Darnay at the gate." in causes
    assert not any(s.startswith("Because of this, ") for s in causes), causes


def test_a_non_word_is_refused():
    draft = Draft("Carton won the case.", "en", PEOPLE)
    bad = Edit("outcome", 0, 20, "Carton lostt the case.", "Carton won the case.",
               "Carton lostt the case.")
    good = Edit("outcome", 0, 20, "Carton lost the case.", "Carton won the case.",
                "Carton lost the case.")
    assert not acceptable(draft, bad) and acceptable(draft, good)


def test_new_words_in_an_all_capitals_heading_are_capitals():
    """"HIS MASTER" -> "HIS Father" gave the change away in chapter headings."""
    summary = ("IN WHICH SANCHO PANZA TALKS WITH HIS FATHER ABOUT THE TWO GIANTS. "
               "THE KNIGHT RIDES TO THE INN WITH HIS SQUIRE.")
    for type_id in ("relation", "number"):
        found = all_candidates(summary, type_id, entities=[])
        assert found, type_id
        for candidate in found:
            letters = [c for c in candidate.hallucinated_span if c.isalpha()]
            assert all(c.isupper() for c in letters), candidate.hallucinated_span
            assert candidate.hallucinated_span in candidate.summary


def test_new_characters_in_a_traditional_summary_are_traditional():
    """The lexicons are simplified: 表兄 or 不会 in a 繁體 summary gave the change away."""
    from longnovel.injection.nlp.script import is_traditional, to_traditional

    summary = "吳繼之在書房裏會見朋友，兩人談了一夜。第二天他們騎馬進城，見到了他的師父。"
    assert is_traditional(summary)
    found = [c for t in ("relation", "polarity") for c in all_candidates(summary, t, "zh", [])]
    assert found
    for candidate in found:
        # no character of the new sentence is a simplified form of a traditional one
        assert to_traditional(candidate.hallucinated_span) == candidate.hallucinated_span


def test_a_verbs_complement_is_not_an_event():
    """揪了回来 (brought back) became 揪了失踪 ("brought disappeared") on the sample."""
    summary = "卜大顺从渡口逃走，被周大有揪了回来。"
    found = all_candidates(summary, "event", "zh", [])
    assert found and not any("揪了" in c.hallucinated_span and "回来" not in c.hallucinated_span
                             for c in found)
    # an intended escape (想逃走) is no outcome either: never 想从渡口被抓住
    assert all_candidates("卜大顺想从渡口逃走，被周大有揪了回来。", "event", "zh", []) == []


def test_the_lexicon_knows_the_words_lemminflect_lacks_and_no_misspelling():
    from longnovel.injection.nlp.words import first_nonword, is_english_word

    for word in ("against", "during", "despite", "reflection", "galleries", "county", "lost"):
        assert is_english_word(word), word
    for word in ("opportely", "lostt", "wery", "recieved", "lost't"):
        assert not is_english_word(word), word
    assert first_nonword("Darnay opportely won't go.", "Darnay wins.") == "opportely"
    assert first_nonword("Carton lost't like it.", "Carton won't like it.") == "lost't"
    assert first_nonword("Opportely, Darnay's friend won't go.", "Darnay wins.") is None


def test_invented_content_comes_from_the_windows_neighbours():
    # Drawn from the whole book, a few striking sentences filled every window's fabrication
    # rows; each window borrows from the two units just before and just after it instead.
    summary = ("Carton walks to the bank. Darnay meets Lucie at the gate.\n\n"
               "Carton burns the letter in the fire. Lucie hides the key under the stone.")
    far = ["Carton sells his watch to a sailor.", "Darnay buries a box in the garden.",
           "Lucie paints the old mill by the river."]
    near = ["Darnay rides to Dover with a lantern.", "Lucie plants roses near the wall.",
            "Carton sings at the tavern all night.", "Darnay fears the sea."]
    outside = ((True, far[0]), (True, far[1]), (True, near[0]), (True, near[1]),
               (False, near[2]), (False, near[3]), (False, far[2]))
    borrowed = {c.hallucinated_span for c in all_candidates(summary, "fabrication",
                                                            outside=outside)}
    assert borrowed & set(near), borrowed
    assert not borrowed & set(far), borrowed
