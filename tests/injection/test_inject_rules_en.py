"""The rules generator on hand-written English summaries: every sub-type, the exact change."""

from __future__ import annotations

import pytest
from helpers.injection import assert_exact_change, candidate_of, fabrications

from longnovel.injection.candidate import NotApplicable
from longnovel.injection.generators.rules.generator import RulesGenerator

CASES = [
    # (type, subtype, summary, original sentence, hallucinated sentence)
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
    ("causal", "invert", "Mabry cries because the letter is cruel.",
     "Mabry cries because the letter is cruel.", "The letter is cruel because Mabry cries."),
]


@pytest.mark.parametrize("type_id,subtype,summary,original,hallucinated", CASES)
def test_exact_change(en_entities, type_id, subtype, summary, original, hallucinated):
    assert_exact_change(candidate_of(summary, "en", en_entities, type_id, subtype),
                        summary, original, hallucinated)


def test_a_replaced_cause_is_an_event_of_another_part_of_the_book(en_entities):
    # The wrong cause is told outside the window, of one of its characters: no sentence of
    # this summary is retold, and of the candidates the one nearest the writer's cause in
    # length is taken (the long one would give the edit away by its length alone).
    summary = ("Jory tells a long story about his debts.\n\nMabry visits Harrowmere. "
               "Wren cries because the letter is cruel.")
    outside = ((False, "Mabry sells the clock to a stranger at the fair in the town square "
                       "for far less than it is worth to anyone."),
               (False, "Jory loses the key."), (True, "Mabry tells a long story about debts."))
    cand = candidate_of(summary, "en", en_entities, "causal", "replace", outside=outside)
    assert cand.hallucinated_span == "Wren cries because Jory loses the key."
    assert cand.original_span == "Wren cries because the letter is cruel."


def test_no_cause_is_borrowed_from_the_summary_itself_or_without_the_rest_of_the_book(
        en_entities):
    summary = ("Jory tells a long story about his debts.\n\nMabry visits Harrowmere. "
               "Wren cries because the letter is cruel.")
    for outside in ((), ((True, "Jory tells a long story about his debts."),)):
        subtypes = {RulesGenerator(1).generate(summary, "en", en_entities, "causal", k,
                                               outside=outside).subtype for k in range(8)}
        assert "replace" not in subtypes, outside


def test_pronoun_never_becomes_whom_it_finds_nor_someone_from_elsewhere(monkeypatch):
    """A he or she is made another character of its gender whom the summary named before it
    in the scene: never the one it finds (the last of its gender named before it), never
    one the summary does not name (Jory, whom only the book knows)."""
    from longnovel.injection.generators.rules import entity

    monkeypatch.setattr(entity, "KEEP_TO_NAME", (1, 1))  # every pronoun-to-name edit offered
    people = [{"name": n, "type": "person", "count": 5, "gender": g}
              for n, g in (("Wren", "f"), ("Orrin", "m"), ("Mabry", "f"), ("Jory", "m"))]
    summary = ("Mabry meets Orrin at the gate.\n\nWren waits at the shop. She laughs at him. "
               "He leaves.")
    pronoun = set()
    for attempt in range(8):
        cand = RulesGenerator(1).generate(summary, "en", people, "entity", attempt)
        if not isinstance(cand, NotApplicable) and cand.subtype == "pronoun":
            pronoun.add(cand.hallucinated_span)
    assert pronoun == {"Mabry laughs at him."}, pronoun


def test_symmetric_sentence_is_not_role_swapped(en_entities):
    # no conjunction between the names: only "together" keeps them from being swapped
    summary = "Mabry and Jory wait at the shop. Orrin meets Wren and they talk together."
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
    # the writer opens a paragraph (a unit's summary) with "So"
    summary = ("Mabry falls ill at the shop and stays in bed.\n\nSo Wren walks to Harrowmere "
               "for the doctor.\n\nThen the family arrives from Port Callow with a cart of "
               "coal. Wren waits.")
    invented = candidate_of(summary, "en", en_entities, "causal", "invent")
    assert invented.hallucinated_span == \
        "So the family arrives from Port Callow with a cart of coal."


def test_an_invented_cause_joins_the_last_event_of_one_unit_to_the_first_of_the_next(
        en_entities):
    summary = ("Wren sells eleven clocks at the market because the winter is near. Mabry falls "
               "ill at the shop.\n\nThen the family arrives. Wren waits.")
    cand = candidate_of(summary, "en", en_entities, "causal", "invent")
    assert cand.hallucinated_span == "The family arrives because Mabry falls ill at the shop."
    assert cand.summary == ("Wren sells eleven clocks at the market because the winter is near. "
                            "The family arrives because Mabry falls ill at the shop.\n\n"
                            "Wren waits.")


def test_no_invented_cause_between_two_paragraphs_of_one_units_summary(en_entities):
    """A unit's summary may have paragraphs of its own (every SQuALITY retelling, every
    summary of the sample): the blank line between them is no unit's end, and joining them
    made "two steps of one scene" a cause and effect ("the water is piped to the saloon, so
    Harvey and Joe head back to the bar", one story's summary). Told where the units start,
    only the true boundary is offered."""
    first = ("Wren sells eleven clocks at the market because the winter is near. Mabry falls "
             "ill at the shop.")
    second = "Then the family arrives. Wren waits."
    summary = f"{first}\n\n{second}"
    one_unit = [RulesGenerator(13).generate(summary, "en", en_entities, "causal", attempt,
                                            unit_starts=())
                for attempt in range(10)]
    assert not any(getattr(c, "subtype", None) == "invent" for c in one_unit)
    two_units = [RulesGenerator(13).generate(summary, "en", en_entities, "causal", attempt,
                                             unit_starts=(len(first) + 2,))
                 for attempt in range(10)]
    assert any(getattr(c, "subtype", None) == "invent" for c in two_units)


def test_unit_starts_are_where_the_books_unit_summaries_meet():
    from longnovel.injection.engine import book_parts

    summaries = {"b": [(3, "C one.\n\nC two."), (1, "A."), (2, "B b."), (4, "D.")]}
    window = {"book_id": "b", "unit_start": 1, "unit_end": 3,
              "reference_summary": "A.\n\nB b.\n\nC one.\n\nC two."}
    assert book_parts(window, summaries) == (((False, "D."),), (4, 10))
    # a reference summary the unit summaries do not make up: not known
    assert book_parts(dict(window, reference_summary="A. B b. C one."), summaries)[1] is None


@pytest.mark.parametrize("writers,joined", [
    ("Because the winter is near, Wren sells eleven clocks at the market.",
     "Because Mabry falls ill at the shop, the family arrives."),
    ("The winter is near, so Wren sells eleven clocks at the market.",
     "Mabry falls ill at the shop, so the family arrives."),
])
def test_an_invented_cause_takes_the_form_the_writer_writes(en_entities, writers, joined):
    # a sentence opening "Because" from a writer who never opens one so is the edit's own word
    summary = (f"{writers} Mabry falls ill at the shop.\n\nThen the family arrives. Wren waits.")
    cand = candidate_of(summary, "en", en_entities, "causal", "invent")
    assert cand.hallucinated_span == joined


def test_no_invented_cause_between_two_steps_of_one_unit(en_entities):
    """"Her grapnel caught on the fifth throw, so they raised the anchor": two steps of one
    scene are often truly cause and effect, and the sample would not be a hallucination."""
    summary = ("Wren sells eleven clocks at the market because the winter is near. Mabry falls "
               "ill at the shop.{} Then the family arrives. Wren waits.")

    def subtypes(text):
        return {RulesGenerator(13).generate(text, "en", en_entities, "causal", attempt).subtype
                for attempt in range(6)}

    assert subtypes(summary.format("")) == {"invert"}  # the writer's own "because" only
    # the same two sentences told by two units' summaries: there the cause is invented
    assert "invent" in subtypes(summary.format("\n\n"))


OUTSIDE = ((True, "Mabry sells her clocks at the winter fair."),
           (False, "Wren sails to Port Callow with the captain. Wren fears the sea and its "
                   "winter storms."))
SUMMARY = ("Wren reads by the fire. Mabry arrives at the shop in the rain after a long ride. "
           "The weather stays cold and wet all week. Wren waits.")


def test_fabrication_tells_a_sentence_from_the_rest_of_the_book(en_entities):
    """No retelling of the summary itself (the longest repeated sentence gave fabrication
    away 0.87 of the time): an event an earlier part of the book tells (``repeat``), one a
    later part tells (``continue``), a feeling (``psychology``), after a sentence about the
    same character."""
    made = fabrications(SUMMARY, "en", en_entities, OUTSIDE)
    assert {subtype: c.summary for subtype, c in made.items()} == {
        # at the window's edge: what the book told earlier after the first sentence
        "repeat": SUMMARY.replace("fire.", "fire. Mabry sells her clocks at the winter fair."),
        "continue": SUMMARY + " Wren sails to Port Callow with the captain.",
        "psychology": SUMMARY + " Wren fears the sea and its winter storms."}
    assert all(c.original_span == "" for c in made.values())
    # (Port Callow is a name of the window, which its article gives; a name the window never
    # meets is not brought in: the next test)


@pytest.mark.parametrize("refused,borrowed", [
    # the sentences that pass the donor checks are the plain ones: added among longer ones, a
    # terse one ("Milo refused and ran.") stands out; one shorter than the summary's own at
    # their lower quartile is not borrowed
    ("Wren naps at noon.", "Wren naps at noon in the warm back room."),
    # "Wren noted the high water ... on the twelfth", added to the night of the twentieth
    # (sample, seed 4131): a date from elsewhere in the book is another time
    ("Wren mends the tide bell on the twelfth of the month.",
     "Wren mends the tide bell in the cold back room."),
])
def test_an_invention_is_no_terser_than_the_writer_and_of_no_other_date(en_entities, refused,
                                                                         borrowed):
    assert isinstance(RulesGenerator(13).generate(SUMMARY, "en", en_entities, "fabrication",
                                                  outside=((False, refused),)), NotApplicable)
    made = candidate_of(SUMMARY, "en", en_entities, "fabrication", "continue",
                        outside=((False, borrowed),))
    assert made.hallucinated_span == borrowed


@pytest.mark.parametrize("donor,borrowed", [
    ("Wren climbs the tower until she can see the whole harbour.", True),  # she is Wren
    ("Wren climbs the tower until he can see the whole harbour.", False),  # he: who?
    ("Wren climbs the tower with Orrin until she can see the whole harbour.", False),
])
def test_a_borrowed_sentence_may_say_she_of_the_woman_it_opens_with(en_entities, donor,
                                                                     borrowed):
    """Writers use pronouns in most sentences; borrowed sentences without any read as another
    hand's. A "she" that can only be the woman the sentence opens with points at no one of
    the donor's paragraph."""
    people = [dict(e, gender="f") if e["name"] == "Wren" else e for e in en_entities]
    made = RulesGenerator(13).generate(SUMMARY, "en", people, "fabrication",
                                       outside=((False, donor),))
    assert (not isinstance(made, NotApplicable) and made.hallucinated_span == donor) == \
        borrowed, made


def test_an_invention_names_no_one_the_window_never_meets(en_entities):
    """"Retief and Hoshick eat and discuss ...", Hoshick arriving chapters later, added to a
    window that never meets him (read by hand, seed 2514)."""
    outside = ((False, "Wren dines with Hoshick at the Skerry Light. Wren sails to Harrowmere "
                       "with the captain."),)
    made = candidate_of(SUMMARY, "en", en_entities, "fabrication", "continue",
                        outside=outside)
    assert made.hallucinated_span == "Wren sails to Harrowmere with the captain."
    alone = ((False, "Wren dines with Hoshick at the Skerry Light."),)
    assert isinstance(RulesGenerator(13).generate(SUMMARY, "en", en_entities, "fabrication",
                                                  outside=alone), NotApplicable)


@pytest.mark.parametrize("donor", [
    "He sails to the Skerry Light.",  # who?
    "Wren sails there again.",  # where, again after what?
    "Wren urged her to tell the truth.",  # urged whom?
    'Wren says "I will go" to the captain.',  # a quotation
    "Wren reads by the fire all week long.",  # what the summary already tells
    "Wren to Mabry.--Describes the storm.",  # a letter heading, out of its place
])
def test_a_sentence_that_points_elsewhere_or_retells_is_not_borrowed(en_entities, donor):
    out = RulesGenerator(13).generate(SUMMARY, "en", en_entities, "fabrication",
                                      outside=((False, donor),))
    assert isinstance(out, NotApplicable)


def test_a_frame_the_writer_repeats_is_no_event_to_borrow(en_entities):
    """"Ulysses narrates his story", written in several parts of the book, is true of
    every window where he narrates: no invented content."""
    frame = ((False, "Wren narrates her long story."),
             (False, "Orrin listens. Wren narrates her long story."))
    out = RulesGenerator(13).generate(SUMMARY, "en", en_entities, "fabrication", outside=frame)
    assert isinstance(out, NotApplicable)
    once = RulesGenerator(13).generate(SUMMARY, "en", en_entities, "fabrication",
                                       outside=frame[:1])
    assert "Wren narrates her long story." in once.summary


def test_no_fabrication_without_the_rest_of_the_book(en_entities):
    assert isinstance(RulesGenerator(13).generate(SUMMARY, "en", en_entities, "fabrication"),
                      NotApplicable)


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
    # alone, the sentence offers nothing: its "not" stays, and it is the writer's only one
    # (a negation is added only beside another: test_negations_keep_company)
    alone = [RulesGenerator(1).generate("Wren did not tell anyone about the key.", "en",
                                        en_entities, "polarity", attempt) for attempt in range(4)]
    assert {out.reason for out in alone} == {"no negatable or negated statement"}


def test_no_invert_of_a_clause_that_points_back(en_entities):
    """"The whereabouts of the Qornt have been unknown ... because this is surprising"."""
    summary = "This is surprising because the whereabouts of the Qornt have been unknown."
    out = RulesGenerator(13).generate(summary, "en", en_entities, "causal")
    assert out.reason == "no sequential pair of events or cause-effect pair"
    # beside a plain cause, only that one is inverted
    beside = f"{summary} Wren stays home because the storm is loud."
    inverted = {RulesGenerator(13).generate(beside, "en", en_entities, "causal", attempt)
                .hallucinated_span for attempt in range(4)}
    assert inverted == {"The storm is loud because Wren stays home."}
    # nor one whose second clause names its subject by a pronoun: "She is ill because Wren
    # stays home" puts the pronoun before the name
    alone = RulesGenerator(13).generate("Wren stays home because she is ill. Orrin reads.",
                                        "en", en_entities, "causal")
    assert "She is ill because" not in getattr(alone, "summary", "")


@pytest.mark.parametrize("seed", range(12))
def test_a_negation_is_taken_out_where_the_summary_offers_one(en_entities, seed):
    # Plain statements outnumber negated ones in any summary: were the direction left to a
    # coin, negations would be added far more often than taken out, and "the summary with one
    # more 'not' is the injected one" would answer the pair without the article.
    summary = ("Wren is at the market. Mabry is not at the shop. Orrin is at the bell. "
               "Jory is with the clock. Wren is not tired.")
    cand = RulesGenerator(seed).generate(summary, "en", en_entities, "polarity", 0)
    assert cand.subtype == "affirm", cand
    assert cand.hallucinated_span in ("Mabry is at the shop.", "Wren is tired.")


@pytest.mark.parametrize("summary,back", [
    ("Wren refused to go with Orrin. Mabry agreed to stay at the shop.",
     "Wren agreed to go with Orrin."),
    ("Orrin agrees to sell the clock. Jory slapped Wren at the ferry.",
     "Jory kissed Wren at the ferry."),
])
def test_an_event_edit_takes_a_stand_in_out_where_the_summary_has_one(en_entities, summary, back):
    # writers write "agreed" far more often than "refused": the way back is the rarer place,
    # taken whenever a summary offers it, so that edits do not only bring the stand-ins in
    spans = {RulesGenerator(seed).generate(summary, "en", en_entities, "event", 0)
             .hallucinated_span for seed in range(8)}
    assert spans == {back}
