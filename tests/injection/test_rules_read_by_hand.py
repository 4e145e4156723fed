"""Defects found by reading exported injections of real summaries by hand (issue 24): each
test holds one kind, on sentences of the same shape as the rows that showed it."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from longnovel.injection.candidate import NotApplicable
from longnovel.injection.generators.rules.generator import RulesGenerator
from longnovel.injection.validate import validate

PEOPLE = [{"name": n, "type": "person", "count": 5, "gender": g} for n, g in (
    ("Lovelace", "m"), ("Belford", "m"), ("Mr. Hickman", "m"), ("Mr. Lovelace", "m"),
    ("Clarissa", "f"), ("Hannah", "f"), ("Bertrand", "m"), ("Giosefo", "m"),
    ("Menelaus", "m"), ("Dolly Hervey", "f"))]


def offered(summary: str, type_id: str, entities=PEOPLE, outside: tuple = ()) -> list[str]:
    """Every valid hallucinated span the rules offer for ``type_id`` over 30 attempts
    (``outside``: the book's other unit summaries)."""
    out = set()
    for attempt in range(30):
        found = RulesGenerator(13).generate(summary, "en", entities, type_id, attempt,
                                            outside=outside)
        if isinstance(found, NotApplicable):
            break
        if validate(found, "en") is None:
            out.add(found.hallucinated_span)
    return sorted(out)


def test_a_stand_in_never_repeats_a_name_the_sentence_holds():
    """A title-typed name ("Mr. Hickman") swapped for another ("Mr. Lovelace") where the sentence
    opens "Lovelace to Belford": the old code offered "an interview with Mr. Lovelace"."""
    entities = [{"name": "Lovelace", "type": "person", "count": 5},
                {"name": "Belford", "type": "person", "count": 5},
                {"name": "Mr. Hickman", "type": "title", "count": 5},
                {"name": "Mr. Lovelace", "type": "title", "count": 5}]
    made = offered("Lovelace to Belford.--Has an interview with Mr. Hickman. Belford writes.",
                   "entity", entities)
    assert made and not any("with Mr. Lovelace" in m for m in made), made


def test_no_name_for_a_pronoun_inside_his_own():
    made = offered("Bertrand leaves Florence. Giosefo reareth for his own a child of the "
                   "lady.", "entity")
    assert not any("own" in m and "his own" not in m for m in made), made


@pytest.mark.parametrize("sentence", [
    "Two men consorting together, one lieth with the wife of his comrade, and the other is "
    "shut up in a chest.",
    "The Greeks took from thence two beautiful captives, Chryseis and Briseis.",
    "He has three sons, Tom, Dick and Harry, who all go to sea.",
])
def test_a_number_the_sentence_states_again_is_not_changed(sentence):
    assert offered(sentence + " Clarissa writes a long letter.", "number") == []


def test_a_number_stated_once_is_still_changed():
    made = offered("The Greeks took two beautiful captives from the town. Clarissa writes.",
                   "number")
    assert made and all("captives" in m and "two" not in m for m in made), made


def test_an_aunt_addressed_by_her_surname_stays_a_form_of_address():
    summary = "Clarissa writes to her aunt Hervey. Dolly Hervey weeps for her."
    made = offered(summary, "relation")
    assert not any(w in m for m in made for w in ("mother Hervey", "wife Hervey",
                                                  "sister Hervey", "daughter Hervey"))


@pytest.mark.parametrize("sentence,never", [
    ("Lively, says he, must be the style of a man in distress rather than that of one who "
     "is at ease, than a relation of dangers surmounted can be.", "cannot be"),
    ("Lovelace showeth her where he is buried, and she weepeth.", "is not buried"),
    ("Miss Montague writes with the particulars of all that has happened to the lady.",
     "has not happened"),
    ("Pietro telleth her of one Arcolano, with whom he was to have supped that night.",
     "have not supped"),
])
def test_no_negation_in_a_comparison_or_a_where_clause(sentence, never):
    # the writer negates elsewhere, so a negation may be added (the rules add none otherwise)
    summary = sentence + " Clarissa does not weep. She does not speak, and never eats."
    made = offered(summary, "polarity")
    assert made and not any(never in m for m in made), made


@pytest.mark.parametrize("sentence,never", [
    ("Menelaus defends his body from the enemy, and Euphorbus is slain.", "attacks his body"),
    ("Clarissa accepts of three guineas from Hannah.", "of three"),
    ("Clarissa hopes she has escaped with her honour.", "caught with her honour"),
    ("What follows upon it is told by Belford.", "upon it is"),
])
def test_a_verb_put_in_keeps_its_complement(sentence, never):
    made = offered(sentence, "event")
    assert not any(never in m for m in made), made


@pytest.mark.parametrize("second", [
    "What passes upon it, and after it, is told at length.",
    "Therewithal they come to words in the hall.",
    "Did she ever, she asks, make him any promises?",  # two questions have no order in time
    "Observations on female friendships.",  # a topic, not an event
])
def test_a_sentence_that_points_back_does_not_go_first(second):
    summary = "Clarissa has an affecting conversation with her mother. " + second
    assert offered(summary, "temporal") == []


def _judged_against(article: str, type_id: str, subtype: str, summary: str, original: str,
                    edited: str) -> tuple[dict, int]:
    """The engine's row for one fixed candidate (``original`` -> ``edited`` in ``summary``)
    read against ``article``, and how often it was rejected as possibly true (two attempts)."""
    from longnovel.injection import engine as eng
    from longnovel.injection.candidate import Candidate

    class Fixed(RulesGenerator):
        def generate(self, *args, **kwargs):
            return Candidate(type_id, subtype, summary, summary.replace(original, edited),
                             original, edited, "rules")

    class inject:  # the config's inject section
        generator, verify, max_retries = "rules", None, 1

    window = {"window_id": "w", "tier": "S", "language": "en", "book_id": "b",
              "reference_summary": summary}
    engine = eng.Engine(inject, 13, {"w": PEOPLE}, None, articles=lambda ids: {"w": article})
    engine.rules = Fixed(13)
    return engine.run([(window, type_id)])[0], engine.rejected[type_id]["may_be_true"]


@pytest.mark.parametrize("name,valid", [("Giosefo", False), ("Hannah", True)])
def test_a_name_the_article_gives_where_the_sentence_rests_may_be_the_referent(name, valid):
    """"one how he may be loved and the other how he may amend his wife": the article's
    passage names Giosefo, the husband, so "how Giosefo may amend" may be true: rejected;
    a name the article does not give there stays a valid pronoun error."""
    summary = ("Menelaus walks to the city. Two young men seek counsel of Solomon, and the "
               "other asks how he may amend his froward wife.")
    article = ("Menelaus walked to the city gate at dawn. Two young men came to Solomon for "
               "counsel. Giosefo asked how he might amend his froward wife, who was "
               "the most stubborn woman alive. Solomon sent him to Goosebridge.")
    original = "Two young men seek counsel of Solomon, and the other asks how he may amend " \
               "his froward wife."
    row, rejected = _judged_against(article, "entity", "pronoun", summary, original,
                                    original.replace("how he", f"how {name}"))
    assert row["valid"] is valid, row["reject_reason"]
    assert (rejected == 2) is not valid


STUDY_PEOPLE = [{"name": n, "type": "person", "count": 5} for n in (
    "Johnson", "Caldwell", "Strike", "Gorman", "Jon", "Steel-Blue", "Bbula", "Bbulas", "Larhgan",
    "Skkiru", "Molly", "Elb")]


@pytest.mark.parametrize("sentence", [
    "Strike was no longer trustworthy in Admiral Gorman's eyes, so he banished him to Venus.",
    "The Ship's Cook is the most vital man on a spacer because he turns offal into eatables.",
])
def test_no_invert_that_puts_a_pronoun_before_its_name(sentence):
    made = offered(sentence + " Elb walks home.", "causal")
    assert not any(m.startswith(("He ", "he ")) or ", so Strike" in m for m in made), made


@pytest.mark.parametrize("sentence,never", [
    ("Caldwell rushes next to Johnson and informs Johnson that Vee knows the man.",
     "Johnson rushes next to Caldwell"),
    ("Once outside, the Steel-Blue explains to Jon that the metal is soft.", "the Jon"),
])
def test_a_role_swap_leaves_no_name_behind(sentence, never):
    made = offered(sentence + " Molly walks home.", "entity", STUDY_PEOPLE)
    assert not any(never in m for m in made), made


def test_no_stand_in_that_is_a_near_form_of_a_name_present():
    """"Bbula" is not in the entity list; "Bbulas" is: the old code offered "Bbula defends
    his choices, and Bbulas agrees"."""
    entities = [{"name": n, "type": "person", "count": 5} for n in ("Larhgan", "Bbulas", "Elb")]
    made = offered("Elb walks home. Bbula defends his choices, and Larhgan agrees.", "entity",
                   entities)
    assert "Bbula defends his choices, and Elb agrees." in made
    assert not any("Bbulas agrees" in m for m in made), made


def test_a_relation_word_the_sentence_tells_again_is_not_replaced():
    made = offered("His wife Molly has left, and the house looks wife-deserted. Elb waits.",
                   "relation", STUDY_PEOPLE)
    assert not any("Molly has left" in m for m in made), made


def test_no_negation_taken_out_of_a_concession():
    summary = ("Although beggars are not allowed to wear shoes, Skkiru puts some on anyway. "
               "Elb does not care, and Molly does not see it. Elb is at the gate.")
    made = offered(summary, "polarity", STUDY_PEOPLE)
    assert made and not any("beggars are allowed" in m for m in made), made


def test_a_sentence_as_it_turns_out_does_not_go_first():
    summary = ("Strike insults the ship's designer, Harlan Hendricks. As it turns out, "
               "Hendricks is her father, and she vows to prove him wrong.")
    assert offered(summary, "temporal", STUDY_PEOPLE) == []


# Each kind of failure a reading by hand found, as (summary, type, a span the rules must never
# offer): the readings' rows, in sentences of the same shape.
FOUND_BY_HAND = [
    # fifteenth reading (the readers' examples at 4d9604d): one finds a thing, one does not
    # refuse to
    ("Hannah refuses to eat. When the warrior tries to strike Belford, he finds that the boy is "
     "unharmed.", "polarity", "refuses to find"),
    # fourth reading
    ("He carrieth off Iphigenia and Cassandra, with whom the twain flee, where the two ladies "
     "become their wives. Clarissa walks home.", "number", "three ladies"),
    ("Wishes her uncle Harlowe to be sounded, as to a reconciliation. Mr. John Harlowe is "
     "silent.", "relation", "father Harlowe"),
    ("The Captain offers Morgan his liberty, which he refuses to accept. Morgan is sent back. "
     "Belford refuses to go.", "polarity", "refuses to offer"),
    ("Whiffle sends for me--his surgeon arrives, prescribes for him, and puts him to bed. "
     "Clarissa walks home.", "event", "surgeon turns back,"),
    ("The poor man abuses the gentlemen of the faculty. Belford censures some of them for their "
     "greediness.", "temporal", "Belford censures some of them for their greediness. The"),
    # sixth reading
    # an idiom of verb, object and participle
    ("He doesn't want to hear it, but Hannah sends him flying through the air.", "event",
     "brings him flying"),
    # no one is someone's stranger
    ("Belford meets a stranger at the inn. Lovelace's wife is on the phone.", "relation",
     "Lovelace's stranger"),
    # "because" put after an effect with a clause of its own explains the wrong clause
    ("Hannah writes to Belford because she is lonely. Belford reads the letter.\n\n"
     "Lovelace sets out for the town, although he knows it is late. Clarissa waits.",
     "causal", "late because"),
    # seventh reading
    # a negation on a word negative by its prefix is a figure of speech, not a denial
    ("Hannah does not wait. The sun begins to rise, but there is so much fog that it is "
     "impossible to see.", "polarity", "not impossible"),
    ("Hannah does not wait. The two of them are displeased, and Belford stands up.", "polarity",
     "not displeased"),
    # an outcome the sentence takes as given, in a clause of time
    ("Belford asks Hannah to read to him from the book before he dies, and she obliges.",
     "event", "before he survives"),
    ("Lovelace watches the men leave in their vehicle as he dies.", "event", "as he survives"),
    # eighth reading
    # a statement given with its own cause or effect: turned over, it contradicts them
    ("Hannah does not wait. Belford cannot travel because of his busted suit, and Lovelace "
     "stays behind with him.", "polarity", "can travel because"),
    ("Hannah does not wait. The units could not handle the heat, causing discomfort among the "
     "crew.", "polarity", "could handle the heat"),
    ("Hannah does not wait. He repeated the word, and so the people call him Noork.", "polarity",
     "repeat the word, and so"),
    # after a modal the negation goes with the modal: "may not have made"
    ("Hannah does not wait. It corrects any mistakes it may have made.", "polarity",
     "have not made"),
    # a report traded with its reason: "a cansin has never been seen because Belford tells ..."
    ("Belford emphatically tells Hannah that it is impossible because a cansin has never been "
     "seen.", "causal", "because Belford emphatically tells"),
    # ninth reading
    ("Hannah does not wait. Belford explains that he does not care much for playing.",
     "polarity", "cares much"),
    ("He lies down to sleep, and soon everyone follows after him.", "event", "avoids after"),
    # tenth reading
    # the sentence states the relation from the other side too
    ("As it turns out, Hannah is his daughter, and she vows to prove all those who doubted her "
     "father wrong.", "relation", "his niece"),
    # "brings X with him" is no "sends X with him"
    ("Belford brings his men with him to calm the crowd.", "event", "sends his men with him"),
    # twelfth reading
    ("Belford explains that he and his future wife must leave now.", "relation", "future sister"),
    ("Hannah does not wait. Belford explains that the aliens they encountered earlier were "
     "friendly.", "polarity", "they did not encounter"),
    ("After the meeting, Lovelace invites Belford to a reception later that day.", "event",
     "warns Belford to a reception"),
    # thirteenth reading
    # "even" lives under the negation: no "Mr. Lexington evens have to deal with much mail"
    ("Hannah does not wait. Belford does not even have to deal with much mail at all.",
     "polarity", "evens"),
    # "On this third day" points at the days the sentence before told of
    ("The experts took a three-day break from questioning Belford to look at the machine. On "
     "this third day, Belford escaped from the tower.", "temporal", "escaped from the tower. The"),
]


@pytest.mark.parametrize("summary,type_id,never", FOUND_BY_HAND)
def test_a_kind_found_by_hand_is_never_offered(summary, type_id, never):
    made = offered(summary, type_id)
    assert not any(never in m for m in made), made


@pytest.mark.parametrize("summary,type_id,never", [
    ("He heads to the armory to pick up two weapons: a pistol, and a switchblade. Elb waits.",
     "number", "weapons:"),
    ("Elizabeth discovers that she has been accepted into the society. Elb waits.", "event",
     "into the society"),
])
def test_fifth_reading(summary, type_id, never):
    made = offered(summary, type_id, STUDY_PEOPLE)
    assert not any(never in m and m not in summary for m in made), made


def test_a_person_named_after_a_month_keeps_the_name():
    made = offered("Max, June's boyfriend and a doctor, tests Pat on May 3. Elb waits.",
                   "number", STUDY_PEOPLE)
    assert made and all("June's boyfriend" in m for m in made), made


def test_a_verb_with_to_keeps_its_infinitive():
    """"Beamish agrees to the terms of the contract" became "Beamish refuses to the terms":
    "agrees to" before a noun is no "agrees to <verb>"."""
    made = offered("Belford agrees to the terms of the contract and leaves Hannah.", "event")
    assert not any("to the terms" in m and "agrees" not in m for m in made), made
    made = offered("Belford agrees to go with Hannah to the town.", "event")
    assert "Belford refuses to go with Hannah to the town." in made, made


def test_a_replaced_cause_leaves_no_pronoun_pointing_into_it():
    """"He tells Retief that Boge is a troublemaker, so all the agencies are trying to appease
    her" lost Boge to a borrowed cause and kept "her"."""
    summary = ("Lovelace writes to Belford.\n\nHannah says Clarissa is ill, so the family is "
               "trying to help her. Belford waits.")
    made = offered(summary, "causal", PEOPLE, ((False, "Lovelace buys a horse at the fair."),))
    assert not any("buys a horse at the fair, so" in m for m in made), made


@pytest.mark.parametrize("summary,never", [
    # the writer speaking of the book is no cause, nor an effect
    ("Hannah writes to Belford because she is lonely. The story ends with Lovelace taking a "
     "picture of Clarissa.\n\nBelford hears the familiar sounds of the ship. Hannah waits.",
     "because the story"),
    ("Hannah is lonely, so she writes to Belford. Belford sees a narrow ledge.\n\nThe story "
     "introduces Lovelace, husband to Clarissa. Hannah waits.", "so the story"),
    # a fact about a name is no effect
    ("Hannah writes to Belford. So Belford leaves.\n\nBelford sees a narrow ledge.\n\nThe person "
     "from the town is named Lovelace. Hannah waits.", "So the person"),
])
def test_an_invented_cause_joins_two_events(summary, never):
    made = offered(summary, "causal")
    assert not any(never.lower() in m.lower() for m in made), made


def test_no_negating_verb_before_an_infinitive_and_no_fail_the_writer_never_writes():
    """"Asa manages to kill the Slider" became "Asa refuses to manage to kill the Slider";
    "Chief Callahan arrives" became "fails to arrive" in summaries that never say "fail"."""
    made = offered("Hannah refuses to eat. Kershaw breaks a leg, and Belford manages to kill "
                   "the Slider.", "polarity")
    assert not any("to manage to" in m for m in made), made
    made = offered("Belford arrives to see what caused the problem.", "event")
    assert not any("fail" in m for m in made), made


def test_an_invented_cause_does_not_name_its_subject_twice():
    summary = ("Hannah writes to Belford because she is lonely. Belford is skeptical and does not "
               "agree to the treatment.\n\nBelford begins to feel a migraine. Hannah waits.")
    made = offered(summary, "causal")
    assert not any("migraine because Belford" in m for m in made), made


def test_sending_and_bringing_are_no_change_of_event():
    """Seed 4838's reading: "POSAT sends Bill ... three identical forms in the mail" ->
    "brings", a letter "sent" -> "brought": to a reader the same event, and about 41 of three
    runs' valid event rows. The pair is gone from the lexicon; another event of the same
    summary still changes."""
    made = offered("Hannah brings Belford to the doctor, and Molly sends Johnson a letter. "
                   "Belford accepts the gift.", "event", STUDY_PEOPLE)
    assert not any("Hannah sends" in m or "Molly brings" in m for m in made), made
    assert any("Belford refuses the gift" in m for m in made), made


def test_a_word_the_writer_writes_in_lower_case_is_no_name():
    """"because All of the survivors are underground": a sentence break the splitter missed
    put "All" inside a sentence, and the inverted cause kept its capital."""
    from longnovel.injection.generators.rules.draft import Draft

    draft = Draft("Belford waits; All of them leave. Hannah knows all of it.", "en", PEOPLE)
    assert draft.lower_first("All of the survivors are underground.").startswith("all of")


@pytest.mark.parametrize("summary,type_id,never", [
    # an "instead" that answers the negation
    ("Hannah does not wait. Belford reveals that the race had not died out; instead, they had "
     "moved to another world.", "polarity", "had died out"),
    # part of a longer name joined by "and"
    ("Belford has an interview at the Taft National Bank and Trust Company. Hannah works at "
     "the Lantern Street Office.", "entity", "Bank and Lantern"),
])
def test_eleventh_reading(summary, type_id, never):
    entities = PEOPLE + [{"name": "Trust Company", "type": "org", "count": 3},
                         {"name": "Lantern Street Office", "type": "org", "count": 3}]
    made = offered(summary, type_id, entities)
    assert not any(never in m for m in made), made


def test_a_sentence_opener_loses_its_capital_after_a_connective():
    """"Thus, Prior to landing, the stewardess announces ...": a word that opens a sentence
    as a preposition is no name."""
    from longnovel.injection.generators.rules.draft import Draft

    draft = Draft("Belford waits. Hannah reads. Prior to landing, Belford sleeps.", "en", PEOPLE)
    assert draft.lower_first("Prior to landing, Belford sleeps.") == (
        "prior to landing, Belford sleeps.")
    assert draft.lower_first("Belford sleeps.") == "Belford sleeps."


def test_no_not_before_a_comparative():
    """Seed 3727's fixes brought in "Billy suspects Doctor Universe ..., but Grannie is not
    less convinced": a "not" before "less" or "more" reads as litotes, no plain denial."""
    from longnovel.injection.generators.rules import polarity
    from longnovel.injection.generators.rules.draft import Draft

    made = [e.hallucinated_span for e in polarity.edits(Draft(
        "Billy suspects Gorman, but Grannie is less convinced. Grannie is at home. Hannah is "
        "not there.", "en",
        PEOPLE))]
    assert not any(re.search(r"(?:not|n['’]t) less", m) for m in made), made
    assert any("Grannie is not at home" in m for m in made), made


def test_kin_becomes_other_kin_or_a_friend_not_a_role():
    """Seeds 3626 and 3727: "Mickey introduces Ben to his guest, Laura", "Kevin's partner
    encourages him and Sylvia", "she confesses that he is her guest": kin made a role of a
    moment or of trade names no tie a reader believes. Kin still becomes kin."""
    from longnovel.injection.generators.rules import relation
    from longnovel.injection.generators.rules.draft import Draft

    summary = ("Mickey introduces Ben to his sister, Laura, after the ceremony. Ben is the "
               "guest of the captain and the partner of the pilot. Laura meets her cousin.")
    made = {e.hallucinated_span for e in relation.edits(Draft(summary, "en", PEOPLE))}
    assert not any("his guest, Laura" in m or "his partner, Laura" in m for m in made), made
    assert any("his cousin, Laura" in m for m in made), made


def test_a_relation_word_the_writer_rarely_writes_seldom_comes_in():
    """The readers read "stepfather", "guardian", "niece" as injected, and, where the rules
    put the common words first, "friend" and "father": a word must come in about as often
    as summaries offer it to go out. In a book that writes "father" twenty times and
    "mother" and "stepmother" twice each, "stepmother" -> "mother" is always kept; "father"
    -> "stepfather", "guardian" or "uncle", words the book never writes, seldom."""
    from longnovel.injection.generators.rules import relation
    from longnovel.injection.generators.rules.draft import Draft
    from longnovel.injection.nlp.text import Vocabulary

    vocabulary = Vocabulary(zh=False)
    vocabulary.add(" ".join(["Lovelace meets his father."] * 20 + ["Belford visits his mother "
                                                                   "and his stepmother."] * 2))
    kept = Counter()
    for day in range(100):
        summary = (f"On day {day} Belford visits his stepmother. Lovelace meets his father at "
                   f"the inn.")
        for edit in relation.edits(Draft(summary, "en", PEOPLE, vocabulary=vocabulary)):
            old, new = (re.search(r"his (\w+)", span).group(1)
                        for span in (edit.original_span, edit.hallucinated_span))
            kept[old, new] += 1
    assert kept["stepmother", "mother"] == 100
    assert sum(n for (old, _), n in kept.items() if old == "father") <= 15, kept


def test_a_one_word_name_the_summary_writes_in_lower_case_is_no_stand_in():
    """"invites her to ride with them to Ship": "Ship" was typed a place, and the summary
    speaks of a ship."""
    entities = PEOPLE + [{"name": "Forton", "type": "place", "count": 3},
                         {"name": "Ship", "type": "place", "count": 3},
                         {"name": "Harrowmere", "type": "place", "count": 3}]
    made = offered("Hannah boards the ship. Belford invites her to ride with them to Forton.",
                   "entity", entities)
    assert made and not any("to Ship" in m for m in made), made


@pytest.mark.parametrize("summary", [
    "Gus suggests that the two men go get a hotel room, and they book a room at the "
    "Jupiter-Astoria. While there, Peter confesses that he wants to tell Gus more about his "
    "mission, but he can't unless Gus promises to keep everything a secret.",
    "Chip reminds Johnny that his ship was being plated and could be indestructible, so they "
    "decide to go after the Lorelei together. Just then, there is an attack: Johnny is hit in "
    "the face with flame while pushing Chip out of the way.",
])
def test_fourteenth_reading_a_sentence_that_points_back_stays_second(summary):
    made = offered(summary, "temporal")
    assert not any(m.startswith(("While there", "Just then")) for m in made), made


# Sixteenth reading (SQuALITY retellings, seed 1301, at 1b82d7d)
@pytest.mark.parametrize("first,second", [
    # the sentence that moves ahead says "he" of a man the other one introduces
    ("Suddenly, the door knocks, and a man named Mr. Oyster comes in.",
     "Despite having never met before, he is impressed that Simon knows him and asks the other "
     "man if he believes in time travel."),
    # "his" is Kaiser's, named only in the sentence that would move behind
    ("Upon receiving more information from the ship, Kaiser and the crew find out that the "
     "symbiote is harmless.", "Any of his prior illnesses was perhaps the symbiote adjusting "
     "his body to the new world."),
])
def test_sixteenth_reading_a_sentence_capital_is_no_antecedent(first, second):
    made = offered(first + " " + second, "temporal", STUDY_PEOPLE)
    assert not any(m.startswith(second) for m in made), made


def test_sixteenth_reading_no_negation_before_still_or_in_what_is_sought():
    made = offered("Rice is excited about the end of the war; Sam is still jaded. He explains "
                   "that he is on Earth to find someone that can help the Martians. Hannah "
                   "cannot sleep. Belford can swim.", "polarity", STUDY_PEOPLE)
    assert any("cannot swim" in m or "can't swim" in m for m in made), made
    assert not any(re.search(r"(?:not|n't|n’t) still|someone that (?:can't|cannot|can not)", m)
                   for m in made), made


def test_sixteenth_reading_an_outcome_in_a_clause_of_as_is_given():
    """"As Dobbin dies, Willard lifts him up ... to see the stars one last time" became "As
    Dobbin survives": the rest of the sentence tells the death."""
    made = offered("As Hannah dies, Belford lifts her up to the port so she can see the stars "
                   "one last time. Lovelace dies at last.", "event")
    assert any("Lovelace survives" in m for m in made), made
    assert not any("Hannah survives" in m for m in made), made


def test_sixteenth_reading_a_relation_word_before_a_noun_names_no_person():
    made = offered("Interstellar Voice and their rival company Larynx mine the moon. Belford's "
                   "brother wins the race. Hannah's father waits. Belford's companion waits.",
                   "relation")
    assert made and not any("company" in m for m in made), made


def test_sixteenth_reading_no_connective_opens_a_paragraph_the_writer_never_opens_so():
    """"Therefore, a girl goes up to Joe Harper's table": a paragraph (a unit's summary) opened
    with the writer's mid-paragraph connective."""
    summary = ("Hannah walks to the bank. So, Belford meets Clarissa at the gate. Hannah hides "
               "the key.\n\nA girl goes up to Belford's table in a tavern. Clarissa sells her "
               "ring.")
    made = offered(summary, "causal")
    assert not any(m.startswith(("So, a girl", "So a girl")) for m in made), made
    # a writer who opens a paragraph so may have it there
    opened = summary.replace("\n\nA girl", "\n\nSo, Lovelace waits. A girl")
    opened = opened.replace(". Clarissa sells", ".\n\nClarissa sells") + " Belford waits."
    assert any(m.startswith("So") and "Clarissa sells" in m
               for m in offered(opened, "causal")), offered(opened, "causal")


# Seventeenth reading (SQuALITY retellings, seed 1402)
def test_seventeenth_reading_a_state_has_no_place_in_time():
    made = offered("The logs were so heavy that it would have taken great strength to move "
                   "them. Forbes, in particular, has gone mad, and he laughs to himself.",
                   "temporal", STUDY_PEOPLE)
    assert made == [], made
    made = offered("Retief is attacked by two young men near the gate. Whonk runs to the "
                   "shipyard and hides there.", "temporal", STUDY_PEOPLE)
    assert made, made  # a passive tells an event


def test_seventeenth_reading_its_is_no_owner():
    made = offered("Ed gets closer to the hanged body, noticing that it's a stranger. Belford's "
                   "friend waits at the gate.", "relation")
    assert made and not any("it's a" in m for m in made), made


def test_seventeenth_reading_a_stand_in_agrees_with_the_pronoun_after_it():
    people = [{"name": "Jonathan", "type": "person", "count": 5},
              {"name": "Ann Clotilde", "type": "person", "count": 5, "gender": "f"},
              {"name": "Pete", "type": "person", "count": 5, "gender": "m"}]
    made = offered("Pete and Ann Clotilde leave the farm. Jonathan tells them he has decided "
                   "he likes it there and wants to stay.", "entity", people)
    made = [m for m in made if "wants to stay" in m]
    assert made and not any("Ann Clotilde" in m for m in made), made


# Later readings (SQuALITY retellings): (summary, type, what must never be offered, the
# window's people); each reading's rows are named by its seed
NIGHT_READINGS = [
    # eighteenth reading, seed 1503
    ("It is four AM in the morning; suddenly, Belford disappears. Hannah sleeps in the evening.",
     "number", "AM in the evening", PEOPLE),
    ("With no choice, Hannah accepts the offer. Belford accepts the gift.", "event",
     "Hannah refuses", PEOPLE),
    # nineteenth reading, seed 1604
    ("Caldwell follows them into the Room of the Dreamer. Belford follows Hannah home.", "event",
     "avoids", STUDY_PEOPLE),
    ("Split followed their rules dutifully. Belford follows Hannah home.", "event",
     "their rules", STUDY_PEOPLE),
    ("Asa refuses to give them the egg until he loads Kershaw. Belford refuses the gift.",
     "event", "the egg until", STUDY_PEOPLE),
    ("During the forty days and forty nights he spends with them he falls in love. Hannah waits "
     "for seven hours.", "number", "nights he spends", STUDY_PEOPLE),
    ("Antlers admits he set up the device to sabotage his business rival. Belford's brother "
     "waits. Hannah's companion sings.", "relation", "business", STUDY_PEOPLE),
    # twentieth reading, seed 1705
    ("It has been only ten years for the passengers aboard. Hannah does not sleep. Belford "
     "is at home.", "polarity", "not been only", STUDY_PEOPLE),
    ("Wass dies screaming at whatever had broken the glass. Lovelace dies in his sleep.",
     "event", "survives screaming", STUDY_PEOPLE),
    ("All men have either died in wars or gone off to the planets. Lovelace dies in his sleep.",
     "event", "survived in wars", STUDY_PEOPLE),
    # twenty-first reading, seed 1806
    ("The three robbers, who look like triplets, all wear the same outfits. Hannah waits for "
     "five hours.", "number", "robbers, who look like triplets", STUDY_PEOPLE),
    ("Magnan introduces Slock as guest of honor. Belford's brother waits. Hannah's friend "
     "sings.", "relation", "of honor", STUDY_PEOPLE),
]


@pytest.mark.parametrize("summary,type_id,never,people", NIGHT_READINGS)
def test_a_kind_found_in_a_later_reading_is_never_offered(summary, type_id, never, people):
    made = offered(summary, type_id, people)
    assert made and not any(never in m for m in made), made


@pytest.mark.parametrize("first,second", [
    # "her" is Lorraine, named only in the sentence that would move behind
    ("The trip to the fountain shakes the confidence of Lorraine in the back seat, who knows "
     "about the owners.", "Lois and Judy probe her about what she knows and why she hid."),
    # a rule is no event in time
    ("Although beggars are not allowed to wear shoes, Skkiru puts some on anyway.",
     "The underground city must be kept a secret from the Terrans."),
])
def test_eighteenth_reading_temporal(first, second):
    made = offered(first + " " + second, "temporal", STUDY_PEOPLE)
    assert not any(m.startswith(second) for m in made), made


def test_eighteenth_reading_a_word_of_address_is_no_name():
    people = [{"name": n, "type": "person", "count": c, "gender": g} for n, c, g in (
        ("Dad", 9, "m"), ("Belford", 5, "m"), ("Hannah", 5, "f"), ("Lovelace", 2, "m"))]
    from longnovel.injection.generators.rules import entity

    made = _edits_with(entity, "Dad and Lovelace wait at the inn. Belford meets Hannah. He says "
                       "his goodbye to the Colonel.", "en", people)
    made = [m for m in made if "goodbye" in m]
    assert made and not any("Dad" in m for m in made), made


def test_eighteenth_reading_things_that_come_two_to_a_person():
    assert offered("While they are in the valley, the two parents die from old age. Hannah "
                   "waits at home.", "number", STUDY_PEOPLE) == []
    assert offered("While they are in the valley, the two men die from old age. Hannah waits "
                   "at home.", "number", STUDY_PEOPLE)  # two of anything else is a count


def test_nineteenth_reading_a_place_told_twice_in_its_sentence_stays():
    entities = STUDY_PEOPLE + [{"name": n, "type": "place", "count": 4}
                               for n in ("Venus", "Luna City", "White Sands")]
    made = offered("Ben flew to Venus, which explains how he arrived in a Venusian bar. He then "
                   "drove to White Sands.", "entity", entities)
    assert made and not any("Venusian bar" in m and "Venus," not in m for m in made), made


def test_nineteenth_reading_a_thing_had_is_no_event_in_time():
    later = "As soon as Harry realizes what is going on, he forgets it."
    made = offered("Harry has those memory problems because his real memory is coming. " + later,
                   "temporal", STUDY_PEOPLE)
    assert made == [], made
    # an event in its place is swapped
    assert offered("Harry visits the doctor in the morning. " + later, "temporal", STUDY_PEOPLE)


def test_twentieth_reading_the_pair_just_named_keeps_its_two():
    assert offered("Retief gets Hoshick to agree to combat between the two of them. Hannah "
                   "waits.", "number", STUDY_PEOPLE) == []
    assert offered("Retief fights the two guards. Hannah waits.", "number", STUDY_PEOPLE)


def test_a_group_a_demonstrative_points_back_at_keeps_its_number():
    """Seed 4232, the prose corpus: "this occasions a conversation between those two
    warriors" (Meriones and Idomeneus, just named) became "those five warriors"."""
    assert offered("Meriones seeks a spear at the tent of Idomeneus; this occasions a "
                   "conversation between those two warriors. Hannah waits.", "number",
                   STUDY_PEOPLE) == []
    assert offered("Meriones meets two warriors at the tent. Hannah waits.", "number",
                   STUDY_PEOPLE)


def test_twentieth_reading_no_connective_before_a_subordinate_clause():
    made = offered("Though it just appears as a featureless disk on the telescope, people cheer "
                   "and cry. Then the captain's wife, Lesra, worries about what happened to "
                   "Earth.", "temporal", STUDY_PEOPLE)
    assert not any("Then though" in m for m in made), made


def test_twenty_first_reading_a_story_framed_by_its_title_is_no_event():
    from longnovel.injection.nlp.commentary import is_commentary

    assert is_commentary("Galactic Ghost begins with death.", "en")
    assert not is_commentary("John Willard takes care of his co-pilot.", "en")
    later = "John Willard is taking care of his co-pilot and best friend, Larry Dobbin, as he dies."
    made = offered("Galactic Ghost begins with death. " + later, "temporal", STUDY_PEOPLE)
    assert made == [], made
    assert offered("The ship lands on the moon. " + later, "temporal", STUDY_PEOPLE)


# Twenty-second reading (SQuALITY retellings, seed 1907)
def test_twenty_second_reading_no_negation_inside_a_when_clause():
    made = offered("There are twelve people in the bank when it is robbed. Hannah is not at home. "
                   "Belford is at the gate.", "polarity", STUDY_PEOPLE)
    assert made and not any("when it is not robbed" in m for m in made), made


def test_twenty_second_reading_a_known_name_opening_a_sentence_is_an_antecedent():
    # Ferdinand is no entity of the window; the summary writes him mid-sentence elsewhere
    second = ("Unfazed by the next sign, he goes to the porthole and tries to figure out a way "
              "to open it.")
    made = offered("Ferdinand is amazed to see the stars, the moon, and another spaceliner take "
                   "off in space. " + second + " A guard shouts at Ferdinand.", "temporal",
                   STUDY_PEOPLE)
    assert not any(m.startswith(second) for m in made), made


def test_twenty_third_reading_no_negation_before_a_degree_of_change():
    """Seed 2008: "Billy was not increasingly stressed by the state of the world"."""
    made = offered("Billy was increasingly stressed by the state of the world. Hannah is not at "
                   "home. Belford is at the gate.", "polarity", STUDY_PEOPLE)
    assert made and not any("not increasingly" in m or "n't increasingly" in m for m in made), made


def test_twenty_fourth_reading_a_word_taken_for_a_name_is_no_stand_in():
    """Seed 2110: "begs Michael to retract what Please has said"."""
    people = [{"name": n, "type": "person", "count": c, "gender": g} for n, c, g in (
        ("Please", 9, None), ("Davis", 5, "m"), ("Michael", 5, "m"), ("Lovelace", 2, "m"))]
    people = [{k: v for k, v in p.items() if v is not None} for p in people]
    made = offered("President Davis begs Michael to retract what he has said.", "entity", people)
    assert made and not any("Please" in m for m in made), made


def test_a_number_repeated_by_chance_is_still_a_count():
    """Only a pattern ("forty days and forty nights") keeps a repeated number; "unit 2 ... 2
    times" is two facts."""
    made = offered("Summary of unit 2: the ferry crossed 2 times. Hannah waits.", "number",
                   STUDY_PEOPLE)
    assert any("crossed 3 times" in m or "crossed 4 times" in m for m in made), made


# Twenty-fifth reading (SQuALITY retellings, seed 2211)
def test_twenty_fifth_reading_a_number_the_summary_writes_as_a_name_stays():
    made = offered("Four leaves to play in the meadow, and the family is left to find a way. "
                   "Joyce, Four's grandmother, waits for three days.", "number", STUDY_PEOPLE)
    assert made and not any(m.startswith(("Two leaves", "Three leaves", "Five leaves"))
                            for m in made), made


def test_twenty_fifth_reading_all_the_while_stays_second():
    made = offered("Lethla rebuffs that defense. All the while, Sam is observing the two "
                   "interact.", "temporal", STUDY_PEOPLE)
    assert made == [], made
    assert offered("Lethla rebuffs that defense. Sam observes the two interact.", "temporal",
                   STUDY_PEOPLE)


def test_twenty_sixth_reading_a_month_outside_a_time_is_a_person():
    """Seed 2312: "all people should look like June, a member of the party" became
    "September"."""
    made = offered("Patrick thinks all people should look like June, a member of the party. In "
                   "June of 1995, Ben graduates.", "number", STUDY_PEOPLE)
    assert made and not any("look like" in m and "look like June" not in m for m in made), made
    assert any(m.startswith("In July") or m.startswith("In May") or m.startswith("In August")
               for m in made), made


def test_twenty_seventh_reading_a_persons_full_name_ending_like_a_place_stays():
    """Seed 2413 (and 1301): "they hurry to stop Antlers Park" became "stop Swamp City"."""
    entities = STUDY_PEOPLE + [{"name": "Antlers", "type": "person", "count": 6}] + [
        {"name": n, "type": "place", "count": 4} for n in ("Antlers Park", "Swamp City",
                                                          "Green Flame Mine")]
    made = offered("Antlers admits the plan. Billy and Annie hurry to stop Antlers Park. They "
                   "ride to Green Flame Mine.", "entity", entities)
    assert made and not any("stop Swamp City" in m or "stop Green Flame" in m for m in made), made


def test_no_one_fails_to_do_what_befalls_them():
    """Seeds 1402 and 1705: "When Hogey keeps walking, he fails to step into a concrete mixer
    with sand and falls"."""
    summary = ("Hannah refuses to eat. When Hogey keeps walking, he steps into a concrete mixer "
               "and falls. Belford opens the gate.")
    made = offered(summary, "polarity", STUDY_PEOPLE)
    assert not any("to step into" in m for m in made), made
    assert any("refuses to open" in m or "fails to open" in m for m in made), made


# twenty-eighth reading, seed 2514 (the build of 83a1152): the fixes below
def test_twenty_eighth_reading_no_negation_against_an_echo_that_confirms_it():
    """"Butch refuses to command the uninjes to attack the warriors and their dogs, and they
    do."""
    made = offered("Butch commands the uninjes to attack the warriors, and they do. Hannah "
                   "does not open the gate. Belford opens the door.", "polarity", STUDY_PEOPLE)
    assert made and not any("and they do" in m for m in made), made
    made = offered("Butch commands the uninjes to attack the warriors, and they obey. Hannah "
                   "does not open the gate. Belford opens the door.", "polarity", STUDY_PEOPLE)
    assert any("and they obey" in m for m in made), made


def test_twenty_eighth_reading_an_answer_does_not_go_before_the_request():
    """"The receiving person on Earth complies and turns the video feed around" moved ahead of
    the wish it answers."""
    first = "Belford lingers in the tower, wanting to get a peek at Earth during the call."
    made = offered(first + " The receiving person complies and turns the video feed around.",
                   "temporal", STUDY_PEOPLE)
    assert made == [], made
    assert offered(first + " The receiving person turns the video feed around.", "temporal",
                   STUDY_PEOPLE)


def test_twenty_eighth_reading_a_time_of_day_the_sentence_contradicts_stays():
    """"After a quiet evening, they all went to bed" became "After a quiet morning"."""
    summary = ("Hannah reads all afternoon and the evening passes. After a quiet evening, they "
               "all went to bed. In the morning, Belford leaves.")
    made = offered(summary, "number", STUDY_PEOPLE)
    assert not any("quiet morning" in m or "quiet afternoon" in m for m in made), made
    assert any(m.startswith("In the evening") or m.startswith("In the afternoon")
               for m in made), made


def test_twenty_eighth_reading_a_place_goes_only_after_a_preposition_the_writer_gives_it():
    """"arrived on Earth thousands of years ago" became "arrived on Lunar City"."""
    entities = STUDY_PEOPLE + [{"name": n, "type": "place", "count": 4} for n in (
        "Earth", "Lunar City", "Mars")]
    summary = ("The ship belongs to a race which arrived on Earth long ago. Jon lives in Lunar "
               "City. Molly was born on Mars.")
    made = offered(summary, "entity", entities)
    assert not any("on Lunar City" in m for m in made), made
    assert any("arrived on Mars" in m for m in made), made
    assert not any("in Earth" in m or "in Mars" in m for m in made), made


def test_twenty_eighth_reading_no_borrowed_sentence_that_goes_on_from_its_own_paragraph():
    """"Retief presses on to ask why the government fell after the incident" added to a
    window where nobody asked anything."""
    from longnovel.injection.generators.rules.donors import donors
    from longnovel.injection.generators.rules.draft import Draft

    later = ("Retief presses on to ask why the government fell after the incident. Retief ties "
             "up Qorn and declares himself the new leader of the vines.")
    people = [{"name": n, "type": "person", "count": 5} for n in ("Retief", "Qorn", "Chip")]
    draft = Draft("Chip offers Retief a knife. Retief refuses the knife and walks away.", "en",
                  people, outside=((False, later),))
    bodies = [body for _, _, body in donors(draft, ["Retief", "Qorn", "Chip"])]
    assert bodies == ["Retief ties up Qorn and declares himself the new leader of the vines."]


def test_a_place_the_summary_writes_with_the_keeps_it_when_a_longer_name_holds_it_bare():
    """The sample's "on Lantern Street" became "on Bar": the summary writes "the Bar", and
    "the Greywater Bar", whose "Bar" was taken for a bare use."""
    entities = STUDY_PEOPLE + [{"name": n, "type": "place", "count": 4} for n in (
        "Lantern Street", "Bar")]
    # (a place of the Bar's kind: a street is no stand-in for a sandbar, seed 5040's reading)
    entities = [dict(e, name="Kestrel Bay") if e["name"] == "Lantern Street" else e
                for e in entities]
    summary = ("Molly rowed across Kestrel Bay before dawn. A boat waited on the Bar "
               "at noon. Later the ship struck the Greywater Bar.")
    made = offered(summary, "entity", entities)
    assert any("across the Bar before dawn" in m for m in made), made
    assert not any("across Bar" in m for m in made), made


def test_a_place_the_summary_never_writes_takes_its_article_from_the_rest_of_the_book():
    """The window's summary holds "Bar" only in "the Greywater Bar"; the book's other
    summaries write "the Bar"."""
    entities = STUDY_PEOPLE + [{"name": n, "type": "place", "count": 4} for n in (
        "Lantern Street", "Bar")]
    entities = [dict(e, name="Kestrel Bay") if e["name"] == "Lantern Street" else e
                for e in entities]
    summary = ("Molly rowed across Kestrel Bay before dawn. Later the ship struck the "
               "Greywater Bar.")
    rest = ((False, "A boat waited on the Bar at noon. Molly crossed the Bar."),)
    made = offered(summary, "entity", entities, rest)
    assert any("across the Bar before dawn" in m for m in made), made
    assert not any("across Bar" in m for m in made), made


# twenty-ninth reading, seed 2615 (the build of 9d54567)
def test_twenty_ninth_reading_a_name_after_a_is_a_kind_not_a_person():
    """"Suddenly, a Steel-Blue paralyzes him" became "a Jon paralyzes him"."""
    people = [dict(e, gender="m") if e["name"] in ("Jon", "Caldwell") else e
              for e in STUDY_PEOPLE]
    made = offered("Jon and Caldwell reach the ruins. Suddenly, a Steel-Blue paralyzes him from "
                   "the waist down. Later Steel-Blue talks to Molly.", "entity", people)
    assert made and not any(re.search(r"\ba (?!Steel-Blue)[A-Z]", m) for m in made), made
    assert any(m.startswith("Later ") and "Steel-Blue" not in m for m in made), made


def test_twenty_ninth_reading_people_of_two_sexes_stay_two():
    made = offered("People of two different sexes meet when they turn 30. Hannah waits for two "
                   "days.", "number", STUDY_PEOPLE)
    assert made and not any("different sexes" in m and "two different" not in m
                            for m in made), made


def test_twenty_ninth_reading_no_morning_after_lunch():
    """"Sol ate lunch, walked for a bit, and returned in the evening" became "in the
    morning"."""
    made = offered("Sol ate lunch, walked for a bit, and returned in the evening. In the "
                   "evening, Molly reads.", "number", STUDY_PEOPLE)
    assert not any("returned in the morning" in m for m in made), made
    assert any(m.startswith("In the morning") or m.startswith("In the afternoon")
               for m in made), made


def test_twenty_ninth_reading_no_negation_of_one_of_two_verbs_of_a_subject():
    """"Thig does not take over Terry's body and gains all of his knowledge"."""
    made = offered("On the spaceship, Thig takes over Terry's body and gains all of his "
                   "knowledge. Molly does not wait. Hannah opens the gate.", "polarity",
                   STUDY_PEOPLE)
    assert not any("Terry" in m and "gains" in m for m in made), made
    assert any("Hannah does not open" in m or "Hannah doesn" in m for m in made), made


def test_twenty_ninth_reading_an_outcome_a_later_clause_confirms_stays():
    """"He arrives at a gate, which he manages to overcome" became "He turns back at a gate"."""
    made = offered("He arrives at a gate, which he manages to overcome. Molly arrives at the "
                   "house.", "event", STUDY_PEOPLE)
    assert not any("gate" in m and "arrives at a gate" not in m for m in made), made
    assert any("Molly" in m and "arrives at the house" not in m for m in made), made


# thirtieth reading, seed 2716 (the build of 13b6d0a)


def test_thirtieth_reading_teach_needs_a_person():
    """"learns from the conversation that" became "teaches the conversation that"."""
    made = offered("Quidley learns from the conversation with Kay that they are leaving. Molly "
                   "learns from Johnson.", "event", STUDY_PEOPLE)
    assert not any("teaches the conversation" in m for m in made), made
    assert any("Molly teaches Johnson" in m for m in made), made


def test_thirtieth_reading_no_sentence_goes_first_that_is_introduced_or_expected_later():
    """"Unger will be performing tonight, so Johnson asks the waiter to come back" moved
    ahead of "Johnson orders a tarmur from a Venusian waiter"; "Carmen does in fact ask
    this" ahead of what Venetti expected."""
    for first, second in (
            ("Johnson orders a drink from a Venusian waiter and asks about the dreams.",
             "Unger will be performing tonight, so Johnson asks the waiter to come back."),
            ("Venetti thinks that Carmen would not be curious enough to ask about the mass.",
             "Carmen does in fact ask about it when Venetti shows him the machine.")):
        made = offered(first + " " + second, "temporal", STUDY_PEOPLE)
        assert made == [], made
    assert offered("Johnson orders a drink from a Venusian waiter. Unger will be performing "
                   "tonight, so Johnson asks Molly to come back.", "temporal", STUDY_PEOPLE)


def test_thirtieth_reading_no_ability_made_the_effect_of_a_later_event():
    """"The person who answers cannot speak English, so Winship hangs up" inverted."""
    made = offered("The person who answers cannot speak English, so Johnson hangs up. The "
                   "guard shouts, so Johnson runs.", "causal", STUDY_PEOPLE)
    assert not any("so the person who answers cannot" in m for m in made), made
    assert any("Johnson runs, so the guard shouts" in m for m in made), made


def test_pronoun_to_name_edits_are_offered_in_one_summary_in_four_beside_other_subtypes():
    """The pair-level reader read entity/pronoun at 0.90: 61 of 67 pronoun edits of the
    study corpus put a name where a pronoun was. Beside a role swap or a mismatch they are
    now offered in one summary in four (by a digest of the summary); a name made a pronoun,
    and a pronoun edit that is a summary's only entity edit, always."""
    from longnovel.injection.generators.rules import entity
    from longnovel.injection.generators.rules.draft import Draft

    names = ("Johnson", "Caldwell", "Strike", "Gorman", "Pell", "Jon")
    # (all men: a "he" is made another man named before it, not the one it finds)
    people = [{"name": n, "type": "person", "count": 5, "gender": "m"}
              for n in names + ("Elb", "Ames")]
    kept = 0
    for k in range(200):
        a, b = names[k % 6], names[(k // 6) % 6]
        if a == b:
            b = "Ames"
        summary = f"{a} meets {b} on day {k}. Elb waits. He leaves the room."
        draft = Draft(summary, "en", people)
        edits = entity.edits(draft)
        subtypes = {e.subtype for e in entity.preferred(draft, edits)}
        assert "pronoun" in {e.subtype for e in edits} and len({e.subtype for e in edits}) > 1
        kept += "pronoun" in subtypes
    assert 30 <= kept <= 70, kept
    only = [e for e in edits if e.subtype == "pronoun"]  # the last draft's, alone
    assert only and entity.preferred(draft, only) == only


# thirty-first reading, seed 2818 (the build of 98837cc)
def test_thirty_first_reading_a_title_the_writer_writes_with_the_is_no_stand_in():
    """"When Alan wakes up" became "When Lord High Executioner wakes up", "before he greets"
    "before Regime greets": the writer writes "the Lord High Executioner", "the Regime"."""
    entities = STUDY_PEOPLE + [{"name": n, "type": "person", "count": 9} for n in (
        "Lord High Executioner", "Regime", "Alan")]
    summary = ("The Lord High Executioner sentences Alan. When Alan wakes up, the Regime has "
               "fallen. Alan greets Molly.")
    made = offered(summary, "entity", entities)
    assert made and not any(re.search(r"(?<!the )(?<!The )(?:Lord High|Regime)", m)
                            for m in made), made


def test_thirty_first_reading_no_turning_back_before_what_is_done_there():
    """"He arrives before dawn, and crawls out of the car" became "He turns back before
    dawn, and crawls out of the car"."""
    made = offered("He arrives before dawn, and crawls out of the car. Molly arrives at the "
                   "house.", "event", STUDY_PEOPLE)
    assert not any("turns back before dawn" in m for m in made), made
    assert any("Molly" in m and "arrives at the house" not in m for m in made), made


def test_thirty_first_reading_what_is_told_instead_stays_second():
    """"The ship is built, and it is called The Avenger instead" moved ahead of the plan
    it replaces."""
    first = "Peter thinks back to his plan of the Citadel."
    assert offered(first + " The ship is built, and it is called The Avenger instead.",
                   "temporal", STUDY_PEOPLE) == []
    assert offered(first + " The ship is built, and it is called The Avenger.", "temporal",
                   STUDY_PEOPLE)


def test_a_negation_is_contracted_as_often_as_the_writer_contracts():
    """On the study corpus negations put in 24 contractions and took out 5: a writer of
    several "does not" and one "doesn't" had every negation contracted; then, contracted
    only where the writer contracts more often than not, "doesn't" still came in eight times
    more than it went out. A negation is now contracted with the writer's own share."""
    counts = {"doesn't": 0, "does not": 0}
    for day in range(90):
        summary = (f"Hannah does not wait. Belford did not sleep. Molly doesn't care. On day "
                   f"{day} Johnson opens the door.")
        for m in offered(summary, "polarity", STUDY_PEOPLE):
            for form in counts:
                counts[form] += f"Johnson {form} open" in m
    assert sum(counts.values()) >= 60, counts
    assert 0.18 <= counts["doesn't"] / sum(counts.values()) <= 0.5, counts


def test_only_a_cousin_or_a_relative_becomes_a_friend():
    """"friend" came in from six kin words and went out to three: on the sample 20 to 2, and
    readers learned it as a mark of an edit."""
    for kin in ("uncle", "aunt", "brother", "sister", "nephew", "niece"):
        made = offered(f"Johnson visits his {kin} Jon at the farm. Hannah waits.", "relation",
                       STUDY_PEOPLE)
        assert made and not any("friend" in m for m in made), (kin, made)
    assert any("friend" in m for m in offered(
        "Johnson visits his cousin Jon at the farm. Hannah waits.", "relation", STUDY_PEOPLE))


# thirty-second reading, seed 3020 (the build of a00217a)
def test_thirty_second_reading_no_role_swap_that_leaves_a_pronoun_to_the_wrong_gender():
    """"Peri tries to look sexy as she answers the visiphone and realizes it's Gus Doran" had
    the two swapped, Gus Doran's gender unknown."""
    people = STUDY_PEOPLE + [{"name": "Peri", "type": "person", "count": 5, "gender": "f"},
                             {"name": "Gus Doran", "type": "person", "count": 5}]
    made = offered("Peri tries to look sexy as she answers the visiphone and realizes it's Gus "
                   "Doran on the other end. Peri calls Gus Doran at noon.", "entity", people)
    assert not any(m.startswith("Gus Doran tries") for m in made), made
    assert any(m.startswith("Gus Doran calls Peri") for m in made), made


def test_thirty_third_reading_a_surname_introduced_with_a_title_stays_second():
    """Seed 3121: "Callahan discovers the woman from Venus" moved ahead of "O'Rielly's
    superior, Chief Callahan, arrives to see what caused the problem"."""
    first = "O'Rielly's superior, Chief Callahan, arrives to see what caused the problem."
    assert offered(first + " Callahan discovers the woman from Venus.", "temporal",
                   STUDY_PEOPLE) == []
    assert offered(first + " Molly discovers the woman from Venus.", "temporal", STUDY_PEOPLE)


def test_the_answer_and_reply_verbs_are_found_in_every_form():
    """The verbs are the lexicon's lemmas, inflected by lemminflect ("complying", "refused")."""
    import re as regex

    from longnovel.injection.lexicon.en import EN_ANSWER_VERBS
    from longnovel.injection.nlp.inflect import verb_forms_pattern

    pattern = regex.compile(verb_forms_pattern(EN_ANSWER_VERBS))
    for sentence in ("Wren is complying.", "Jory refused.", "Orrin obeys the order."):
        assert pattern.search(sentence), sentence
    for sentence in ("Wren compiles a list.", "Jory is obedient.", "They agreeably wait."):
        assert not pattern.search(sentence), sentence


# Readings whose fix has a nearby case still offered: (summary, type, never, offered), each
# of ``never`` in no span offered, ``offered`` in one.
# Two plain events of the summary's end that may trade places: the nearby case of a temporal
# refusal.
CONTROL_SWAP = "Hannah sells the old car to Jon. Molly opens the door and walks out."

READINGS_WITH_CONTROL = [
    # seed 2716: "if they weren't to get another, it would take a year" (and since seed
    # 5141's reading no turn in a sentence with a condition at all: "He wasn't their only
    # pilot, and if they were to get another" leaves the condition about nothing)
    ("He was their only pilot, and if they were to get another, it would take at least a year "
     "of training. Hannah wasn't there. Molly is at home.", "polarity",
     ("weren", "were not", "wasn't their"), "Molly isn't at home"),
    # seed 3020: "he likes the Captain much"
    ("Paul admits that he does not like the Captain much. Hannah does not wait.", "polarity",
     ("likes the Captain much",), "Hannah waits"),
    # seed 3020: "Jon is not bolting a new baffle plate ... and ignores"
    ("Jon is bolting a new baffle plate on the engine and ignores what happens around him. "
     "Hannah does not wait. Molly is at home.", "polarity", ("not bolting", "isn't bolting"),
     "Molly is not at home"),
    # the coordinated verb matched by tense, not by its ending ("walked ... and took")
    ("Jon walked to the shop and took the bread. Hannah does not wait. Molly opens the door.",
     "polarity", ("walk to the shop", "never walked"), "Molly does not open"),
    # seed 3222 (the thirty-fourth reading): a reaction moved ahead of what it reacts to
    ("Retief asks what happened to the cruiser that disappeared nine years ago. Fith is "
     "offended and calls for Retief to be fired. Molly opens the door and walks out. Hannah "
     "sells the old car to Jon.", "temporal", ("fired. Retief asks",), CONTROL_SWAP),
    ("Forbes demands that they put the animal in a box. Benson protests and reminds Forbes "
     "that it is against the law, but Forbes insists. Molly opens the door and walks out. "
     "Hannah sells the old car to Jon.", "temporal", ("insists. Forbes demands",),
     CONTROL_SWAP),
    # seed 3222: "Without missing a beat" and "The couple" lean on the sentence before
    ("Ri tells Extrone to use Mia instead. Without missing a beat, Extrone kills Mia and "
     "leaves. Molly opens the door and walks out. Hannah sells the old car to Jon.",
     "temporal", ("leaves. Ri tells",), CONTROL_SWAP),
    ("Whiting orders Mary and Steve to leave the camp. The couple runs from the tent and "
     "glides off on a thlot. Molly opens the door and walks out. Hannah sells the old car to "
     "Jon.", "temporal", ("thlot. Whiting",), CONTROL_SWAP),
    # seed 3222: what would have been is no event in time
    ("Kane looks at the dials of the ship. The machine would have failed its assignment. "
     "Molly opens the door and walks out. Hannah sells the old car to Jon.",
     "temporal", ("assignment. Kane",), CONTROL_SWAP),
    # seed 3222: a need made a cause ("Simon must go to Bahnhof ..., so there is no hotel
    # space in Munch")
    ("There is no hotel space in Munch, so Simon must go to Bahnhof to apply for hotel "
     "service. Harriet was flying it because Dorr refused to come back for Asa.",
     "causal", ("so there is no hotel space",),
     "Dorr refused to come back for Asa because Harriet was flying it"),
    # seed 3222: a concession turned over ("Despite the engineer's efforts, the animal is not
    # intelligent enough to avoid the traps")
    ("Despite the engineer’s efforts, the animal is intelligent enough to avoid the traps. "
     "Hannah does not wait. Molly is at home.", "polarity",
     ("not intelligent", "isn't intelligent", "isn’t intelligent"), "Molly is not at home"),
    # seed 3323 (the thirty-fifth reading): an outcome turned over against its own reason
    ("Macklin finally agrees to take the injection due to the immense pain he is in. Hannah "
     "accepts the offer.", "event", ("refuses to take", "declines to take"),
     "Hannah declines the offer"),
    # seed 3323: a near-same tie is no change ("her constant companion" -> "friend")
    ("She invites her constant companion, a prospector named Ezra Karn. Her friend Molly "
     "comes too. Her brother stays at home.", "relation", ("constant friend",),
     "Her cousin stays at home"),
    # seed 3323: a person introduced by an apposition stays ahead of the sentence that names
    # them again ("Magnan, a Councillor of the Corps, assigns ...")
    ("Magnan, a Councillor of the Corps, assigns Retief a dangerous courier mission. Magnan "
     "suggests a show of force against the Soetti. Molly opens the door and walks out. "
     "Hannah sells the old car to Jon.", "temporal", ("Soetti. Magnan, a",), CONTROL_SWAP),
    # sample, seed 3424 (the thirty-sixth reading): a relation the sentence spells out
    ("On the Mole, Wren's cousin Pell, the son of her Aunt Mabry, told her the news. Her "
     "friend Molly waits. Wren's cousin Jory comes too.", "relation", ("friend Pell",),
     "Wren's friend Jory"),
    # study, seed 3525 (the thirty-seventh reading): a time told from what came before moved
    # ahead of it ("Twenty minutes of riding later, she leaves the men. When she refuses, ...",
    # "Once outside, Mury introduces himself. The ugly and tall man ... recognizes him")
    ("Mia draws her pistol and forces the men to disarm. Twenty minutes of riding later, she "
     "leaves the men. Molly opens the door and walks out. Hannah sells the old car to Jon.",
     "temporal", ("later, she leaves the men. Mia",), CONTROL_SWAP),
    ("Ryd meets a tall man at the bar. Once outside, Mury introduces himself. Molly opens "
     "the door and walks out. Hannah sells the old car to Jon.", "temporal",
     ("Once outside, Mury introduces himself. Ryd",), CONTROL_SWAP),
    # a "not" before "now" ("Instead, he is not now looked after by Ninian")
    ("Instead, he is now looked after by Ninian. Hannah does not wait. Molly is at home.",
     "polarity", ("not now", "n't now", "n’t now"), "Molly is not at home"),
    # seed 3626 (this session's first reading): a "not" that only makes a sentence vaguer ("is
    # not two hundred light-years away") or leaves an apposition describing what it denies
    ("The starship is two hundred light-years away from Earth. Hannah does not wait. Molly "
     "is at home.", "polarity", ("not two hundred", "n't two hundred", "n’t two hundred"),
     "Molly is not at home"),
    ("The crime is in Canarsie, in southeast Brooklyn near Jamaica Bay. Hannah does not "
     "wait. Molly is at home.", "polarity", ("not in Canarsie", "n't in Canarsie",
                                             "n’t in Canarsie"), "Molly is not at home"),
    # seed 3727: a negation the rest of the sentence goes on from ("hadn't been serious, had
    # gone to get help, and now assumes"; "doesn't start to heat up as they get closer"),
    # inside a relative clause ("of whom Hoshick seems to assume Retief is not the leader"),
    # or "not A, just B" turned into "A, just B"
    ("Molly thought the accusation had been serious, had gone to get help, and now assumes "
     "Jon is responsible. Hannah does not wait. Molly is at home.", "polarity",
     ("hadn't been", "had not been"), "Molly is not at home"),
    ("The ship starts to heat up as they get closer to the sun. Hannah does not wait. Molly "
     "is at home.", "polarity", ("t start to heat", "not start to heat"),
     "Molly is not at home"),
    ("They discuss the battle with the settlers, of whom Gorman seems to assume Jon is the "
     "leader. Hannah does not wait. Molly is at home.", "polarity",
     ("Jon is not the", "Jon isn't the", "Jon isn’t the"), "Molly is not at home"),
    ("They do not understand the concepts of change or space, just living with the same "
     "schedule. Molly is at home. Hannah does not wait.", "polarity",
     ("They understand",), "Hannah waits"),
    # rows the seed-3727 fixes brought in: a negation in a clause of "after" ("after he
    # doesn't down it, he gets up"), a "not" before a comparative ("Grannie is not less
    # convinced")
    ("He orders a drink; after he downs it, he gets up. Hannah does not wait. Molly is at "
     "home.", "polarity", ("doesn't down", "does not down", "doesn’t down"),
     "after he downs it, he does not get up"),
    # seed 3929: an outcome turned over in a concession that gives its reason ("Though he
    # accepts being employed by Brock, citing conflicts of interest, he agrees ...")
    ("Though he refuses being employed by Brock, citing conflicts of interest, he agrees to "
     "help out. Hannah accepts the offer.", "event", ("Though he accepts", "Though he agrees"),
     "Hannah refuses the offer"),
    # seed 3626: an answer moved ahead of the question asked of the one who answers
    ("Kayle asks Granthan what happened to the rest of the crew. Granthan relays how he got "
     "out. Molly opens the door and walks out. Hannah sells the old car to Jon.", "temporal",
     ("got out. Kayle",), CONTROL_SWAP),
    # seed 3626, the rows its fixes brought in: "Hathaway then says ..." moved ahead of the
    # sentence its "then" follows
    ("Hathaway snaps several pictures of Marnagan. Hathaway then says that the crash will "
     "look accidental. Molly opens the door and walks out. Hannah sells the old car to Jon.",
     "temporal", ("accidental. Hathaway snaps",), CONTROL_SWAP),
    # more rows those fixes brought in: a reaction told by an opening participle, a bid
    # answered, "again" after what, someone introduced by "a"
    ("Doran leaves the room, and Bruce hears his rifle go off. Infuriated, Bruce kills the "
     "man. Molly opens the door and walks out. Hannah sells the old car to Jon.", "temporal",
     ("the man. Doran",), CONTROL_SWAP),
    ("Rice interrupts his thoughts and yells for Sam to meet with him. Sam climbs up to the "
     "control room of the rocket. Molly opens the door and walks out. Hannah sells the old car "
     "to Jon.", "temporal", ("rocket. Rice",), CONTROL_SWAP),
    ("Everything fades to black for Alan. When Alan wakes up again, a young man is telling "
     "him the date. Molly opens the door and walks out. Hannah sells the old car to Jon.",
     "temporal", ("date. Everything",), CONTROL_SWAP),
    ("The robot aims at him. Everything then fades to black. Molly opens the door and walks "
     "out. Hannah sells the old car to Jon.", "temporal", ("black. The robot",), CONTROL_SWAP),
    ("A bald-headed person and Simon both drink beer. The bald man tells Simon his dream. "
     "Molly opens the door and walks out. Hannah sells the old car to Jon.", "temporal",
     ("dream. A bald",), CONTROL_SWAP),
    # seed 3626: a rule is no event in time ("Everyone in the Union is not allowed to speak
    # of eating")
    ("Everyone in the Union is not allowed to speak of eating in public. Michael gets to a "
     "Feeding Station and chews the food. Molly opens the door and walks out. Hannah sells "
     "the old car to Jon.", "temporal", ("food. Everyone",), CONTROL_SWAP),
    # seed 3626: a cause and an effect of different times traded ("Nobody knew how to kill
    # the Invaders because all of the survivors are underground"), or of what would have
    # been
    ("All of the survivors are underground because nobody knew how to kill the Invaders. "
     "Harriet was flying it because Dorr refused to come back for Asa.", "causal",
     ("because all of the survivors",),
     "Dorr refused to come back for Asa because Harriet was flying it"),
    ("There is something curious about the old city, because the humans wouldn't have "
     "expected a colony there. Harriet was flying it because Dorr refused to come back for "
     "Asa.", "causal", ("there because there is",),
     "Dorr refused to come back for Asa because Harriet was flying it"),
    # the prose corpus (Pope's arguments, the Decameron's rubrics), read by hand: a verb with
    # a second one after ", and" ("Diomed refuses to undertake this enterprise, and makes
    # choice of Ulysses for his companion"), a passive with a second participle ("are not
    # taken by the officers ... and carried before the provost"), a name after "of" read as
    # a subject ("the advice of Nestor refused to follow"), an action whose purpose opens
    # the sentence ("To conceal his return, she refuses to change him"), an outcome told as
    # reached at last ("At last, ... he is not prevailed upon to leave"), an archaic "after"
    ("Jon undertakes this hazardous enterprise, and makes choice of Molly for his "
     "companion. Hannah does not wait. Molly is at home.", "polarity",
     ("undertake this", "never undertakes"), "Molly is not at home"),
    ("Jon complains of the injustice done him by the suitors, and insists upon their "
     "departure. Hannah does not wait. Molly is at home.", "polarity",
     ("not complain", "n't complain", "never complains"), "Molly is not at home"),
    ("While she and a maid bear him to his house, they are taken by the officers of "
     "justice and carried before the provost, to whom she tells the case. Hannah does not "
     "wait. Molly is at home.", "polarity",
     ("not taken", "n't taken", "n’t taken"), "Molly is not at home"),
    ("The advice of Jon followed, which was to muster the troops. Hannah does not wait. "
     "Molly is at home.", "polarity",
     ("Jon did not follow", "Jon didn't follow", "Jon never followed"), "Molly is not at home"),
    ("To conceal his return, Molly changes him into the figure of an old beggar. Hannah "
     "does not wait. Molly is at home.", "polarity",
     ("not change", "n't change", "never changes"), "Molly is not at home"),
    ("At last, having been advised by the ghost, and now by his mother, he is prevailed "
     "upon to leave the town, and settle his household gods in another country. Hannah "
     "does not wait. Molly is at home.", "polarity",
     ("not prevailed", "n't prevailed"), "Molly is not at home"),
    ("Jon attacks a ship of the King of Tunis, slays the crew and is after himself "
     "beheaded. Hannah does not wait. Molly is at home.", "polarity",
     ("not after", "n't after"), "Molly is not at home"),
    # the rows the fixes above brought in: a relative clause of two words' noun ("the new
    # face he refuses to wear")
    ("He recognizes the new face he wears as one that belongs to a wanted man. Hannah does "
     "not wait. Molly is at home.", "polarity", ("he does not wear", "he doesn't wear",
                                                 "he never wears"), "He does not recognize"),
    # seed 4232 (prose corpus): a passive with a verb of the old form after it ("she is not
    # acquitted and hath leisure to be with her lover")
    ("Making her aware thereof, she is acquitted and hath leisure to be with her lover. "
     "Hannah does not wait. Molly is at home.", "polarity",
     ("not acquitted", "n't acquitted"), "Molly is not at home"),
    # study, seed 4333: a negation before "until" ("Hogey fails to take a nap in the grass
    # until the night": "not ... until" tells a delay, not that it did not happen)
    ("Hogey takes a nap in the grass near the ditch until the night. Hannah does not wait. "
     "Molly is at home.", "polarity", ("not take a nap", "fails to take", "never takes"),
     "Molly is not at home"),
    # study, seed 4333: an effect that brings someone into the story ("..., so an American
    # man named Major Winship learns")
    ("Molly writes to Jon.\n\nA stranger named Gorman learns of a blast. Harriet was flying "
     "it because Dorr refused to come back for Asa.", "causal",
     ("blast because", "so a stranger"),
     "Dorr refused to come back for Asa because Harriet was flying it"),
    # sample, seed 4434: someone introduced by a relation word and their name moved after
    # the sentence that names them again ("Caleb Ashby's granddaughter Lissy, about twelve,
    # confessed ... Wren told Lissy to keep the clock")
    ("Caleb Ashby's granddaughter Lissy, about twelve, confessed to breaking the spring. Wren "
     "fitted a thin spring and told Lissy to keep the clock. Molly opens the door and walks "
     "out. Hannah sells the old car to Jon.", "temporal", ("clock. Caleb",), CONTROL_SWAP),
    # sample, seed 4434: a meeting moved after what happened at it (小满到码头找到阿水。阿水哭着
    # 交还碎墨)
    ("Ryd walks to the dock and finds Jon. Jon cries and hands back the broken ink. Molly "
     "opens the door and walks out. Hannah sells the old car to Jon.", "temporal",
     ("ink. Ryd walks",), CONTROL_SWAP),
    # the prose corpus: a "not" taken out of "not A, but B" ("this is his fault, but that of
    # his own perverse fortune") or out of the contrast "but" opens ("loveth a widow lady,
    # but is loved by her")
    ("The king shows him that this is not his fault, but that of his own fortune. Hannah "
     "does not wait.", "polarity", ("this is his fault",), "Hannah waits"),
    ("The rector loves a widow lady, but is not loved by her. Hannah does not wait.",
     "polarity", ("but is loved",), "Hannah waits"),
]


@pytest.mark.parametrize("summary,type_id,never,wanted", READINGS_WITH_CONTROL)
def test_a_reading_fixed_leaves_its_nearby_case_offered(summary, type_id, never, wanted):
    made = offered(summary, type_id, STUDY_PEOPLE)
    assert not any(word in m for m in made for word in never), made
    assert any(wanted in m for m in made), made


def test_a_borrowed_cause_does_not_name_whom_a_pronoun_before_it_names():
    """Sample, seed 3424 (the thirty-sixth reading): "Her father had told her to throw it back,
    because Wren counted sixty teeth on the wheel": "her" is Wren, and the writer would have
    written "she". A cause opening with someone the pronouns cannot be still comes."""
    people = [{"name": "Wren", "type": "person", "count": 9, "gender": "f"},
              {"name": "Corra", "type": "person", "count": 5, "gender": "f"},
              {"name": "Orrin", "type": "person", "count": 5, "gender": "m"}]
    outside = ((False, "Wren counted sixty teeth on the brass wheel. Orrin sold the old "
                       "boat to a trader."),)
    summary = ("Her father had told her to throw it back, because he wanted Corra to pay the "
               "debt. Orrin stayed at home with Corra.")
    made = offered(summary, "causal", people, outside)
    assert not any("because Wren" in m for m in made), made
    assert any("because Orrin sold the old boat to a trader" in m for m in made), made


def test_a_relation_word_before_a_name_keeps_the_gender_it_told():
    """Sample, seed 4434: 女儿顾青禾 became 儿子顾青禾 (the window's entities lacked 顾青禾, and
    儿子's characters tell no gender); "his mother Joan" may become "his aunt Joan", never
    "his uncle Joan"."""
    from longnovel.injection.generators.rules import relation

    made = _module_edits(relation, "女儿顾青禾第一次学做墨。儿子阿福去了镇上。", "zh", ())
    assert not any("儿子顾青禾" in m for m in made), made
    assert any(m.startswith(("侄女顾青禾", "外甥女顾青禾")) for m in made), made
    made = _module_edits(relation, "His mother Joan lived in Kestrel Point. His father stayed "
                         "home.", "en", ())
    assert not any(w in m for m in made for w in ("uncle Joan", "father Joan", "stepfather "
                                                                                "Joan")), made
    assert any("aunt Joan" in m or "stepmother Joan" in m for m in made), made


def test_zh_a_meeting_stays_ahead_of_what_happened_at_it():
    """Sample, seed 4434: 小满到码头找到阿水 was moved after 阿水哭着交还碎墨."""
    from longnovel.injection.generators.rules import temporal

    made = _module_edits(temporal, "小满到码头找到阿水。阿水哭着交还碎墨，小满把碎墨送给了他。"
                         "十二月初八，孟二嫂熬了粥。二月二十一，韩石去了府城。", "zh",
                         ("小满", "阿水", "孟二嫂", "韩石"))
    assert not any(m.endswith("小满到码头找到阿水。") for m in made), made
    assert made, made


def _module_edits(module, summary: str, language: str, names: tuple[str, ...],
                  book: str = "") -> list[str]:
    """The module's edits of ``summary``, the window's people ``names`` (``book``: the book's
    summaries, when given)."""
    people = [{"name": n, "type": "person", "count": 3} for n in names]
    return _edits_with(module, summary, language, people, book)


def test_sample_reading_3828_no_negation_inside_a_name():
    """"九月十二傍晚，舅舅周大没有的船回到落雁桥": the 有 of 周大有 was negated as a verb."""
    from longnovel.injection.generators.rules import polarity

    made = _module_edits(polarity, "九月十二傍晚，舅舅周大有的船回到落雁桥。小满回到了墨坊。"
                                   "青禾没有去临川府。", "zh", ("周大有", "小满", "青禾"))
    assert not any("周大没有" in m for m in made), made
    assert "小满没有回到墨坊。" in made, made


def test_sample_reading_3828_no_spouse_for_a_role():
    """"回到丈夫身边" of 韩石, a man, for 回到师父身边: a spouse says the owner's gender, which
    a master does not. A kin word still stands in for the master."""
    from longnovel.injection.generators.rules import relation

    book = ("青禾的丈夫回来了。孟二嫂的丈夫走了。" + "小满的父亲来了。") * 60
    made = _module_edits(relation, "当夜韩石对小满说，回到师父身边学会的是墨坏了怎么认。", "zh",
                         ("韩石", "小满"), book)
    assert not any("丈夫" in m or "妻子" in m for m in made), made
    assert any("回到父亲身边" in m for m in made), made


@pytest.mark.parametrize("language,summary,moved", [
    ("zh", "四月初十水开始退，他们拉纤回镇。邬敬之定下四月十二在县衙开筒。小满烧了一窑烟。"
           "青禾去了临川府。", "邬敬之定下四月十二在县衙开筒。四月初十"),
    # something introduced with 一张 stays ahead of the sentence that refers back to it
    ("zh", "在码头上，韩石偷偷把一张纸条塞进小满手里。纸条上只写着四个字。小满烧了一窑烟。"
           "青禾去了临川府。", "纸条上只写着四个字。在码头上"),
    ("en", "On the twelfth Wren rang the bell at noon. On the thirteenth the doctor reported no "
           "new case. Molly opens the door and walks out. Hannah sells the old car to Jon.",
     "On the thirteenth the doctor reported no new case. On the twelfth"),
])
def test_sample_reading_3828_an_order_the_text_itself_shows_is_kept(language, summary, moved):
    """"邬敬之定下四月十二…… 四月初十水开始退……": swapped, the dates give it away; "纸条上只写着
    四个字" ahead of the 一张纸条 it refers to. An undated pair is still swapped."""
    from longnovel.injection.generators.rules import temporal

    names = ("邬敬之", "小满", "青禾") if language == "zh" else ("Wren", "Molly", "Hannah", "Jon")
    made = _module_edits(temporal, summary, language, names)
    assert not any(moved in m for m in made), made
    control = ("青禾去了临川府。小满烧了一窑烟。" if language == "zh" else
               "Hannah sells the old car to Jon. Molly opens the door and walks out.")
    assert any(control in m for m in made), made  # the undated pair after them


def test_sample_readings_a_chinese_not_is_taken_out_as_it_is_put_in():
    """是 -> 不是 was offered in every summary with a 是 and 不是 -> 是 in none (jieba tags 不是
    one word): 不是 came in 11 times and went out none on the sample. It now goes out too,
    but not from 不是A而是B, which without its 不 says nothing."""
    from longnovel.injection.generators.rules import polarity

    made = _module_edits(polarity, "这锭墨不是他的，小满不肯去。青禾回到了墨坊。", "zh",
                         ("小满", "青禾"))
    assert "这锭墨是他的，小满不肯去。" in made, made
    made = _module_edits(polarity, "他说不是怕柴家丢脸，而是怕师父生气。小满不肯去。", "zh",
                         ("小满",))
    assert not any("说是怕" in m for m in made), made


def test_a_chinese_negation_comes_in_about_as_often_as_the_writer_writes_it():
    """A book whose summaries write 是 forty times and 不是 once: 是 -> 不是 is kept about one
    time in forty, where before every summary with a 是 offered it; a V了 -> 没有V is kept."""
    from longnovel.injection.generators.rules import polarity

    book = "小满是墨工。" * 40 + "青禾不是墨工。" + "小满不肯去。" * 40
    kept = offered_too = 0
    for day in range(80):
        summary = f"第{day}天，青禾是账房。小满回到了墨坊。小满没有去，不肯去。"
        made = _module_edits(polarity, summary, "zh", ("小满", "青禾"), book)
        kept += any("青禾不是账房" in m for m in made)
        offered_too += any("小满没有回到墨坊" in m for m in made)
    assert kept <= 8, kept
    assert offered_too == 80


@pytest.mark.parametrize("summary,broken,wanted", [
    # the negation goes before the co-verb: 师父给他抹了药 -> 师父没有给他抹药
    ("师父给他抹了药。小满没有去。青禾回到了墨坊。", "给他没有抹药", "师父没有给他抹药"),
    # an emphatic negative (一句话也没说) keeps its 没: "也说了" says nothing
    ("韩石从头到尾一句话也没说，没有看师父一眼。小满没有去。", "也说了", "看了师父一眼"),
    # 没有把……告诉他 has no affirmative 有把……
    ("小满没有把夜里看见灯光的事告诉他。青禾回到了墨坊。小满没有去。", "有把",
     "青禾没有回到墨坊"),
    # a 是 that opens a clause after it takes no 不
    ("青砚镇的规矩是，谁输了理，谁付茶钱。那锭墨不是他的。青禾回到了墨坊。小满没有去。", "不是，",
     "青禾没有回到墨坊"),
])
def test_sample_reading_3828_chinese_negation_in_its_place(summary, broken, wanted):
    """Rows the 不是 thinning brought in on the sample (rows read by hand)."""
    from longnovel.injection.generators.rules import polarity

    made = _module_edits(polarity, summary, "zh", ("小满", "青禾", "韩石"))
    assert not any(broken in m for m in made), made
    assert any(wanted in m for m in made), made


def test_sample_reading_4131_not_yet_has_no_plain_affirmative():
    """"初六傍晚，蔡三还有下山" from 还没有下山: "not yet" turns into "already ... 了", not 还有."""
    from longnovel.injection.generators.rules import polarity

    made = _module_edits(polarity, "初六傍晚，蔡三还没有下山。小满没有去。青禾回到了墨坊。", "zh",
                         ("蔡三", "小满", "青禾"))
    assert not any("还有下山" in m for m in made), made
    assert any("小满去了" in m for m in made), made


@pytest.mark.parametrize("language,summary,owner,broken,wanted", [
    ("zh", "柴文焕提出另贴弟弟五十两了事，柴文炳不要。", ("柴文焕", "m"), "丈夫", "哥哥"),
    ("en", "Edda paid her sister Mabry two crowns. Tomas met his sister Jory.", ("Edda", "f"),
     "her wife", "his wife"),
])
def test_sample_reading_4131_a_spouse_agrees_with_its_owner(language, summary, owner, broken,
                                                             wanted):
    """"柴文焕提出另贴丈夫五十两": a man's husband. A spouse stands in only where the sentence
    tells whose it is and that one's gender fits."""
    from longnovel.injection.generators.rules import relation
    from longnovel.injection.generators.rules.draft import Draft
    from longnovel.injection.nlp.text import Vocabulary

    vocabulary = Vocabulary(language == "zh")
    filler = " ".join("z" + a + b for a in "abcdefghijklmnopq" for b in "abcdefghijklmnopqrstu")
    book = ("她的丈夫回来了。他的哥哥走了。他的弟弟来了。" * 60 if language == "zh" else
            " ".join(["His wife left."] * 80 + ["Her sister stayed."] * 40)
            + " " + filler)  # (enough words to know the writer's)
    vocabulary.add(book)
    people = [{"name": owner[0], "type": "person", "count": 3, "gender": owner[1]},
              {"name": "柴文炳", "type": "person", "count": 3},
              {"name": "Edda" if owner[0] != "Edda" else "Tomas", "type": "person", "count": 3}]
    made = [e.hallucinated_span for e in relation.edits(Draft(summary, language, people,
                                                              vocabulary=vocabulary))]
    assert not any(broken in m for m in made), made
    assert any(wanted in m for m in made), made


def _edits_with(module, summary: str, language: str, entities: list[dict],
                book: str = "") -> list[str]:
    """The module's edits of ``summary`` with these entities (``book``: the book's summaries,
    when the writer's words matter)."""
    from longnovel.injection.generators.rules.draft import Draft
    from longnovel.injection.nlp.text import Vocabulary

    vocabulary = None
    if book:
        vocabulary = Vocabulary(language == "zh")
        vocabulary.add(summary + "\n" + book)
    return [e.hallucinated_span for e in module.edits(Draft(summary, language, entities,
                                                            vocabulary=vocabulary))]


def _entity(name: str, kind: str = "person", gender: str | None = None) -> dict:
    return {"name": name, "type": kind, "count": 5, **({"gender": gender} if gender else {})}


# Enough of a book's summaries for the writer's words to be known (``Vocabulary.enough``).
_BOOK_EN = "Tom does not go home. Ann does not sleep. " * 30 + " ".join(
    "z" + a + b for a in "abcdefghijklmnopq" for b in "abcdefghijklmnopqrstu")


@pytest.mark.parametrize("summary,entities,broken,wanted", [
    # "the President" -> "the Rielly": a title after "the", no person's name
    ("Rielly flies home at once. On Venus he meets the President, who sends him back. "
     "Kerr laughs.", [_entity("Rielly", gender="m"), _entity("President", gender="m"),
                      _entity("Kerr", gender="m")], ("the Rielly", "the Kerr"), "Rielly laughs."),
    # "World War III" -> "Administration III": part of a longer name
    ("After World War III, people hide underground. The Administration rules the Earth.",
     [_entity("World War", "org"), _entity("Administration", "org")], ("Administration III",),
     "The World War rules the Earth."),
    # "the lady's maid ... she herself" -> "master": a title keeps its gender
    ("Anna's maid packs the trunk; she herself carries it down. The butler waits.",
     [_entity(t, "title") for t in ("maid", "master", "nurse", "butler")]
     + [_entity("Anna", gender="f")], ("Anna's master",), "Anna's nurse packs the trunk"),
    # "agreed to nurse the boy" -> "to mistress": a verb, not a title
    ("Mrs. Lane agreed to nurse the boy back to health. The butler leaves.",
     [_entity(t, "title") for t in ("maid", "master", "nurse", "butler")],
     ("to maid", "to master", "to butler"), "The master leaves."),
])
def test_reading_4535_entity_slots(summary, entities, broken, wanted):
    """Entity rows of the study and prose corpora, read by hand at seed 4535."""
    from longnovel.injection.generators.rules import entity

    made = _edits_with(entity, summary, "en", entities)
    assert not any(b in m for b in broken for m in made), made
    assert any(wanted in m for m in made), made


def test_reading_4535_no_negation_taken_out_of_a_contrast_or_a_description():
    """"however, it is the real ..." and "books that existed" (study, seed 4535): a "not" in a
    clause that "however" opens, or in a relative clause, is the writer's contrast or
    description; taking it out leaves a sentence that argues with itself."""
    from longnovel.injection.generators.rules import polarity

    made = _edits_with(polarity, "The town is quiet; however, it is not the real town. He reads "
                       "books that did not exist. Kerr is not at home.", "en",
                       [_entity("Kerr", gender="m")])
    assert made == ["Kerr is at home."], made


def test_reading_4535_no_negation_put_into_a_contrast_a_description_or_a_participle():
    """The same clauses take no "not" either (else "but ... not" grows in injected
    summaries), and "Aided by a Martian named Andre" holds no "a Martian did not name"."""
    from longnovel.injection.generators.rules import polarity

    people = [_entity(n, gender=g) for n, g in (("Kerr", "m"), ("Andre", "m"), ("Ann", "f"),
                                                ("Bob", "m"), ("Tom", "m"))]
    made = _edits_with(polarity, "Aided by a Martian named Andre, Kerr escapes. Kerr loves Ann, "
                       "but Ann is cold to him. The guard leaves Kerr, who is rich. Tom does "
                       "not sleep. Bob goes home.", "en", people, _BOOK_EN)
    assert not any(w in m for m in made for w in ("did not name", "Ann is not", "is not rich")), \
        made
    assert "Bob does not go home." in made, made


def test_reading_4535_an_invented_relation_is_kin():
    """"guest" -> "friend" (prose, seed 4535) invents no tie: only kin stands in."""
    from longnovel.injection.generators.rules import relation

    made = _edits_with(relation, "Tom welcomes a guest at the inn. His nephew Bob and his friend "
                       "Al arrive.", "en", [_entity(n, gender="m") for n in ("Tom", "Bob", "Al")])
    assert not any("a friend at the inn" in m for m in made), made
    assert "His nephew Bob and his cousin Al arrive." in made, made


_COUPLET = "第二十六回　向观察升官哭友　鲍廷玺丧父娶妻"


def test_dev_reading_4535_a_couplet_keeps_its_halves_in_every_edit():
    """向观察升官哭友 -> 向观察被罢官哭友 (dev, seed 4535): a 回目's halves of unequal length. Any
    type's sentence replacement is refused when it would unbalance them."""
    from longnovel.injection.generators.rules.draft import Draft

    draft = Draft(_COUPLET, "zh", [])
    assert draft.replace_sentence(0, _COUPLET.replace("升官", "被罢官"), "outcome") is None
    kept = draft.replace_sentence(0, _COUPLET.replace("升官", "罢官"), "outcome")
    assert kept is not None and kept.hallucinated_span.endswith("向观察罢官哭友　鲍廷玺丧父娶妻")


def test_dev_reading_4535_no_numeral_or_time_word_changed_inside_an_idiom():
    """半夜三更 -> 半夜四更 (dev, seed 4535): a set phrase, no count; the count after it is."""
    from longnovel.injection.generators.rules import number

    made = _edits_with(number, "他半夜三更才回到家里，走了三天。", "zh", [_entity("小满")])
    assert made and all("半夜三更" in m for m in made), made
    assert "他半夜三更才回到家里，走了两天。" in made, made


def test_dev_reading_4535_the_world_at_large_is_no_place_name():
    """走江湖 typed 江湖 a place (dev, seed 4535), and a swap put a place's name there."""
    from longnovel.injection.nlp.zh.entities import zh_tagged
    from longnovel.injection.nlp.zh.names import place_counts

    text = ("李四闯荡江湖多年，在江湖上有名。"
            "后来李四离开了江湖，去京师，住在王府里，又到了青州。") * 4
    places = place_counts(zh_tagged(text), text, 2)
    assert not {w for w, _ in places} & {"江湖", "京师", "王府"}, places
    assert ("青州", "place") in places, places


def test_diff_reading_a_title_of_either_gender_asserts_none():
    """老掌柜 -> 老太太 and 老掌柜 -> 老公子 (sample): a swap gave the old shopkeeper a gender
    and a youth the text denies. A title that names neither gender takes one that names
    neither, and no title of the young follows 老."""
    from longnovel.injection.generators.rules import entity

    titles = [_entity(t, "title") for t in ("掌柜", "太太", "公子", "知县")]
    made = _edits_with(entity, "秦四说，腊月十四老掌柜是自己爬上大梁的。", "zh",
                       titles + [_entity("秦四")])
    assert not any(w in m for m in made for w in ("老太太", "老公子")), made
    assert "秦四说，腊月十四老知县是自己爬上大梁的。" in made, made


def test_diff_reading_a_kind_written_with_an_article_is_no_stand_in():
    """"it's Gus Doran on the other end" -> "it's Earthman" (study): the summary writes "an
    Earthman", a kind, not a person's name."""
    from longnovel.injection.generators.rules import entity

    people = [_entity(n, gender=g) for n, g in (("Gus Doran", "m"), ("Earthman", "m"),
                                                ("Walter", "m"), ("Peri", "f"))]
    made = _edits_with(entity, "Walter is home. Peri answers the visiphone and sees it is Gus "
                       "Doran. Gus asks Walter about his life as an Earthman on Mars.", "en",
                       people)
    assert not any("is Earthman" in m for m in made), made
    assert any("it is Walter." in m for m in made), made


def test_diff_reading_a_state_is_denied_not_said_never_to_happen():
    """"she never knows that the stranger ... is the real Gabe Lockard" (study): "never" before
    a verb of a state reads wrong; a writer who writes "never" still gets it before a deed."""
    from longnovel.injection.generators.rules import polarity

    book = "Tom never goes home. Ann never sleeps. Tom does not eat. " * 30 + _BOOK_EN[-2000:]
    made = _edits_with(polarity, "Tom never sleeps. Ann knows that the stranger is Gabe. Gabe "
                       "leaves the house.", "en",
                       [_entity(n) for n in ("Tom", "Ann", "Gabe")], book)
    assert not any("never know" in m for m in made), made
    assert "Gabe never leaves the house." in made, made


def test_diff_reading_no_swap_inside_a_longer_chinese_name():
    """广武山 -> 广王府, then 广常州 (dev): jieba splits 广|武山, so 武山 was typed a place and
    swapped alone; 少夫人 -> 少先生, 少大人 -> 少先生: a young lady's or master's form of
    address is no title to swap."""
    from longnovel.injection.generators.rules import entity
    from longnovel.injection.nlp.zh.entities import zh_tagged
    from longnovel.injection.nlp.zh.names import place_counts

    text = ("萧云仙来到广武山。他在广武山上看雪。"
            "广武山下有常州来的客人，回常州去了。后来又到了常州。") * 2
    places = {w for w, _ in place_counts(zh_tagged(text), text, 2)}
    assert "武山" not in places and "常州" in places, places
    titles = [_entity(t, "title") for t in ("夫人", "大人", "先生", "知县")]
    made = _edits_with(entity, "少夫人拜佛到西湖。先生来了。", "zh", titles)
    assert not any("少先生" in m or "少知县" in m for m in made), made
    assert "知县来了。" in made, made


@pytest.mark.parametrize("state", [
    "Between the properties of these two companies stretches a vast desert known as the "
    "Baldric, which is home to a bird-like species.",
    "The lieutenant's name is Rourke, and he asks why Whonk is so anxious to board the ship.",
])
def test_reading_4636_a_scene_or_a_name_has_no_place_in_time(state):
    """Study rows at seed 4636: a desert that stretches between two companies moved after
    Grannie Annie's plans, and "Later, the lieutenant's name is Rourke"."""
    event = "Later, as Retief smokes in his cabin, he tries to remember the saying."
    assert offered(state + " " + event, "temporal", STUDY_PEOPLE) == []
    assert offered("Whonk runs to the shipyard and hides there. " + event, "temporal",
                   STUDY_PEOPLE)  # two events still swap


def test_reading_4636_a_letters_head_has_no_place_in_time():
    """"Lovelace promises compliance ... Clarissa to Miss Howe, (Miss Howe's last not
    received.)" (prose, seed 4636): a letter's writer and reader moved after its content."""
    made = offered("Clarissa to Miss Howe, (Miss Howe's last not received.) Lovelace promises "
                   "compliance, in every article, with her pleasure.", "temporal")
    assert made == [], made
    made = offered("Clarissa writes to Miss Howe. Lovelace promises compliance, in every "
                   "article, with her pleasure.", "temporal")  # a letter written: an event
    assert made, made


def test_reading_4636_what_a_till_clause_waits_for_is_no_event_to_change():
    """"She relies on Mrs. Howe's protection till her cousin Morden turns back" (prose): the
    clause presupposes the arrival it waits for."""
    made = offered("She relies on Mrs. Howe's protection till her cousin Morden arrives. "
                   "Lovelace arrives at the inn.", "event")
    assert not any("Morden turns back" in m or "Morden fails" in m for m in made), made
    assert any(m.startswith("Lovelace") for m in made), made


def test_readers_4636_a_pronoun_made_a_name_opens_its_sentence_where_it_can():
    """A name made a pronoun always opens its sentence; 14 of 16 pronouns made names did not
    (study, seed 4636), so the injected summary of a pair was the one with more sentences
    opening on a pronoun (pair reader 0.94). Where both are offered, the opening one is kept."""
    from longnovel.injection.generators.rules import entity
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity(n, gender="m") for n in ("Retief", "Lemuel", "Hoshick")]
    people.append(_entity("Kerr", gender="m"))
    # (a summary whose digest keeps the pronoun edits)
    draft = Draft("Hoshick sits at the bar.\n\nKerr brings a drink. He asks Retief who he "
                  "spies for and threatens him.", "en", people)
    offered_all = {e.hallucinated_span for e in entity.edits(draft) if e.subtype == "pronoun"}
    assert any("threatens Hoshick" in m for m in offered_all), offered_all
    made = {e.hallucinated_span for e in entity.preferred(draft, entity.edits(draft))
            if e.subtype == "pronoun"}
    assert made and all(m.startswith("Hoshick asks") for m in made), made


def test_sample_reading_4636_no_second_negation_beside_a_denied_verb():
    """"小满说他不走，不用留在墨坊" and "想让他放了刁五，或者九月初九不去临川府" ->
    "不想让他放了刁五" (sample, seed 4636): a 不 before a verb already denies something in
    the sentence, and a second negation beside it makes the sentence argue with itself."""
    from longnovel.injection.generators.rules import polarity

    made = _module_edits(polarity, "小满说他不走，要留在墨坊。"
                         "账房先生想让他放了刁五，或者九月初九不去临川府。"
                         "青禾没有去。小满回到了墨坊。", "zh", ("小满", "青禾", "刁五"))
    assert not any("不用留在" in m or "不想让他" in m for m in made), made
    assert "小满没有回到墨坊。" in made, made


def test_sample_reading_4636_thanks_go_to_a_person_not_to_a_persons_thing():
    """"Some townspeople thanked Hesper's new wheel" (sample, seed 4636): a name's possessive
    opens no person object."""
    made = offered("Some townspeople blamed Hesper's new wheel. Clarissa blamed Lovelace for "
                   "it.", "event")
    assert not any("thanked Hesper's" in m for m in made), made
    assert "Clarissa thanked Lovelace for it." in made, made


def test_sample_reading_4636_in_exchange_points_back():
    """"In exchange, Jory ordered the wheel ..." moved ahead of what it was in exchange for."""
    made = offered("Crale paid his debt to the moneylender. In exchange, Jory ordered the new "
                   "wheel and fitted it.", "temporal")
    assert made == [], made
    assert offered("Crale paid his debt to the moneylender. Jory ordered the new wheel and "
                   "fitted it.", "temporal")


def test_sample_reading_4636_no_event_change_in_the_writers_contrast():
    """"She blamed the clock, but she refused to blame Orrin Vale" -> "but she agreed to blame
    Orrin Vale" (sample, diff reading): the clause "but" opens is the writer's contrast."""
    made = offered("She blamed the clock, but she refused to blame Lovelace. Clarissa refused to "
                   "stay at the inn.", "event")
    assert not any("but she agreed" in m or "but she offered" in m for m in made), made
    assert any(m.startswith("Clarissa agreed to stay") for m in made), made


def test_reading_4737_no_role_swap_under_a_pronoun_that_may_be_one_of_the_two():
    """"He grows webs ..., but Barry still comes to visit him after having avoided Dorothy"
    (study, seed 4737): "he" was Barry, who now visits himself (the row's entities took
    Dorothy for a man, which the pronoun rule alone would not catch)."""
    people = [_entity("Barry", gender="m"), _entity("Dorothy", gender="m"),
              _entity("Tom", gender="m")]
    from longnovel.injection.generators.rules import entity
    from longnovel.injection.generators.rules.draft import Draft

    draft = Draft("He starts to develop gills, but Dorothy still comes to visit him after "
                  "having avoided Barry. Tom thanks Barry for the fish.", "en", people)
    made = [e.hallucinated_span for e in entity.role_swap_edits(draft)]
    assert not any("but Barry still comes" in m for m in made), made
    assert "Barry thanks Tom for the fish." in made, made


def test_reading_4737_no_not_taken_out_of_a_purpose():
    """"instructs them to be quiet on the ship so they attract attention" (study, 4737)."""
    from longnovel.injection.generators.rules import polarity

    made = _edits_with(polarity, "He tells them to be quiet so they do not attract attention. "
                       "Kerr is not at home.", "en", [_entity("Kerr", gender="m")])
    assert made == ["Kerr is at home."], made


def test_reading_4737_what_gives_something_back_goes_after_its_loss():
    """"Suddenly, the general gives Andy back his job" moved ahead of "The Colonel forces Andy
    out of office" (study, 4737)."""
    made = offered("The Colonel forces Andy out of office. Suddenly, the general walks in and "
                   "gives Andy back his job.", "temporal", STUDY_PEOPLE)
    assert made == [], made
    assert offered("The Colonel forces Andy out of office. Suddenly, the general walks in and "
                   "gives Andy his news.", "temporal", STUDY_PEOPLE)


def test_no_polarity_change_that_the_sentence_itself_contradicts():
    """Rows of the 2026-12-07 (fourth session) study reading: "Bruce doesn't remind the crew
    about the genocide ...: five years ago, he and Doran ... wiped out the entire Venusian
    community" (the colon spells out what was just denied), "He doesn't order a drink; after he
    downs it" (nor the semicolon); "the elevator is not working and responds to pressing the
    button", "If the beasts appear in the photos, they don't exist" (one of the writer's two
    denials taken out). A plain statement is still negated and a
    lone denial still taken out."""
    from longnovel.injection.generators.rules import polarity
    from longnovel.injection.generators.rules.draft import Draft

    made = [e.hallucinated_span for e in polarity.edits(Draft(
        "Hannah does not wait. Belford reminds the crew about the war: years ago, he fought in "
        "it. Belford orders a drink; after he downs it, he leaves. The elevator is not working "
        "and does not respond to the button. If the beasts do not appear in the photos, they "
        "don't exist. Belford is at the gate. Clarissa is not at home.", "en", PEOPLE))]
    assert not any(re.search(r"(?:not|n['’]t) remind", m) for m in made), made
    assert not any(re.search(r"(?:not|n['’]t) order", m) for m in made), made
    assert not any("is working and" in m or "and responds" in m for m in made), made
    assert not any("beasts appear" in m or "they exist" in m for m in made), made
    assert any("Belford is not at the gate" in m for m in made), made
    assert any("Clarissa is at home" in m for m in made), made


@pytest.mark.parametrize("summary,language", [
    ("In this game show, Belford acts as the host. After the show, there is an attack on the "
     "crew.", "en"),
    ("Belford starts to strike the warrior. Within seconds, however, Hannah runs to the door.",
     "en"),
    ("小满把墨锭包好放进箱子。临走前，韩石把那锭墨交给了青禾。", "zh"),
    ("小满把墨锭包好放进箱子。三天后，韩石把那锭墨交给了青禾。", "zh"),
])
def test_no_swap_puts_first_a_sentence_set_after_another_event(summary, language):
    """Seed 4838's reading: "After the seemingly innocuous show, there is a racist attack" moved
    ahead of the show, 临走前 ahead of what came before it: set after an event of its own,
    the moved sentence still tells the true order. Two plain events still swap."""
    from longnovel.injection.generators.rules import temporal
    from longnovel.injection.generators.rules.draft import Draft

    people = PEOPLE + [{"name": n, "type": "person", "count": 5} for n in ("小满", "韩石", "青禾")]
    assert temporal.edits(Draft(summary, language, people)) == []
    plain = ("小满把墨锭包好放进箱子。韩石把那锭墨交给了青禾。" if language == "zh" else
             "Belford starts to strike the warrior. Hannah runs to the door.")
    assert temporal.edits(Draft(plain, language, people)), plain


def test_a_letters_topics_are_not_swapped_as_events():
    """Seed 4838's prose reading: an epistolary novel's contents list a letter's topics in
    sentences with no subject ("Glories in his contrivances. Is passionately in love with
    Clarissa.", "Has very strong remorses. Paints them in lively colours."): their order is
    the letter's, no order of events. A name that is also a verb ("Rose waits") is a subject,
    and plain events still swap."""
    from longnovel.injection.generators.rules import temporal
    from longnovel.injection.generators.rules.draft import Draft

    for summary in ("Lovelace to Belford.--Glories in his contrivances. Is passionately in "
                    "love with Clarissa.",
                    "Has very strong remorses. Paints them in lively colours."):
        assert temporal.edits(Draft(summary, "en", PEOPLE)) == [], summary
    assert temporal.edits(Draft("Rose waits at the gate. Belford rides to the town.", "en",
                                PEOPLE))


def test_no_denial_of_what_a_dash_spells_out_nor_simply_can():
    """Seed 4838's study reading: "it never shows the violent deaths of many explorers - some
    being sucked into the gravity of foreign planets" (the dash goes on to describe what was
    just denied); "Claney says that it simply can be done" ("simply" lives with "cannot").
    The same sentences without them still change."""
    from longnovel.injection.generators.rules import polarity
    from longnovel.injection.generators.rules.draft import Draft

    def made(summary):
        return [e.hallucinated_span for e in polarity.edits(Draft(
            "Hannah does not wait. Belford is not at home. " + summary, "en", PEOPLE))]

    visits = "Belford visits the homes of many explorers - some live by the sea."
    assert not any(re.search(r"(?:not|n['’]t|never) visit", m) for m in made(visits))
    assert any(re.search(r"(?:not|n['’]t|never) visit", m)
               for m in made(visits.replace(" - some live by the sea", "")))
    simply = "Belford says that it simply cannot be done."
    assert not any("can be done" in m for m in made(simply))
    assert any("can be done" in m for m in made(simply.replace("simply ", "")))


def test_sample_reading_4838_denials_answered_or_set():
    """Seed 4838's sample reading: "Milo Sandry came to the Mole." before "Thaddeus Vell came
    instead" (a denial the next sentence answers, taken out), 一锭不差 -> 一锭差 (a set
    phrase's 不), 顾衡山来看过，没有说"还行" (a quoted word denied said). Plain sentences
    beside them still change."""
    from longnovel.injection.generators.rules import polarity
    from longnovel.injection.generators.rules.draft import Draft

    people = [{"name": n, "type": "person", "count": 5}
              for n in ("Milo", "Thaddeus", "Wren", "小满", "韩石", "顾衡山", "青禾")]

    def made(summary, language):
        return [e.hallucinated_span for e in polarity.edits(Draft(summary, language, people))]

    en = made("Wren does not wait. Milo did not come to the Mole. Thaddeus came instead. Wren "
              "is not at home.", "en")
    assert not any("Milo came" in m or "not come instead" in m for m in en), en
    assert "Wren is at home." in en, en
    zh = made("韩石数了数，墨锭一锭不差。小满没有去。青禾没有回到墨坊。", "zh")
    assert not any("一锭差" in m for m in zh) and "小满去了。" in zh, zh
    zh = made("顾衡山来看过，说：“还行。”小满没有去。青禾回到了墨坊。", "zh")
    assert not any("没有说" in m or "没说" in m for m in zh) and "青禾没有回到墨坊。" in zh, zh


def test_reading_4939_no_name_in_a_compound_or_a_count_nor_such_as_affirmed():
    """Seed 4939's reading: "never more return to Mr. Solmes-place" (a name swapped inside
    the house's compound "Harlowe-place"), "a parade of six Miss Meuhl" (a person for a
    counted kind), "The world saw such an husband as he will make" ("never ... such ... as"
    affirmed). The same names and denials elsewhere still change."""
    from longnovel.injection.generators.rules import entity, polarity
    from longnovel.injection.generators.rules.draft import Draft

    people = PEOPLE + [{"name": "Terrestrials", "type": "person", "count": 5}]
    made = [e.hallucinated_span for e in entity.edits(Draft(
        "Clarissa will never more return to Harlowe-place. Hannah stops at Harlowe-Place. "
        "Lovelace watches a parade of six "
        "Terrestrials. Hannah meets Belford at the gate.", "en", people))]
    assert not any(re.search(r"\b(?!Harlowe)[A-Z]\w+-[Pp]lace", m) for m in made), made
    assert not any(re.search(r"six (?!Terrestrials)[A-Z]", m) for m in made), made
    assert any("at the gate" in m and "Hannah meets Belford" not in m for m in made), made
    # the rows these refusals left to the seeded choice: "John Harlowe a sly sinner" ->
    # "John Mr. Lovelace" (a first name opening the sentence is part of the name)
    made = [e.hallucinated_span for e in entity.edits(Draft(
        "John Harlowe a sly sinner. Then Belford waits for Hannah.", "en",
        PEOPLE + [{"name": "Harlowe", "type": "person", "count": 5}]))]
    assert not any(m.startswith("John ") and "John Harlowe" not in m for m in made), made
    assert any("Then" in m and "Belford waits for Hannah" not in m for m in made), made
    # and "Jeffers is the manager of the Ganymedan branch" -> "Ganymede is the manager"
    people = [{"name": n, "type": "person", "count": 5}
              for n in ("Jeffers", "Ganymede", "Tolliver")]
    made = [e.hallucinated_span for e in entity.edits(Draft(
        "Tolliver waits. Jeffers is the manager of the Ganymedan branch.", "en", people))]
    assert not any(m.startswith("Ganymede is") for m in made), made
    assert any(m.startswith("Tolliver is the manager") for m in made), made
    made = [e.hallucinated_span for e in polarity.edits(Draft(
        "Hannah does not wait. The world never saw such a husband as he will make. Belford is "
        "not at home. Clarissa never saw the sea.", "en", PEOPLE))]
    assert not any("saw such" in m and "never" not in m for m in made), made
    assert any("Clarissa saw the sea" in m for m in made), made


def test_reading_4939_no_one_named_before_the_summary_brings_them_in():
    """Seed 4939's reading: "Lemuel is given a thick envelope of instructions by his
    superior", sentences before the summary meets "someone called 'Lemuel'"; "Hank said that
    Hendricks wanted to see her" before "Commissioner Hendricks" comes in. A character the
    summary introduces later stands in for no one before that; one it named before, or one
    it never names, still does."""
    from longnovel.injection.generators.rules import entity
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity(n, gender="m") for n in ("Retief", "Lemuel", "Hoshick", "Kerr")]
    summary = ("Hoshick reaches the Consulate at dawn. Retief waits at the gate. He is given "
               "a thick envelope by the clerk. Retief later meets someone called Lemuel.")
    made = [e.hallucinated_span for e in entity.edits(Draft(summary, "en", people))]
    assert not any(m.startswith("Lemuel is given") for m in made), made
    assert any(m.startswith("Hoshick is given") for m in made), made
    summary = ("Kerr waits at the gate. Hoshick said that Retief wanted to see the clerk. "
               "Retief gives him fifty credits. Commissioner Lemuel arrives at noon.")
    made = [e.hallucinated_span for e in entity.edits(Draft(summary, "en", people))]
    assert not any("that Lemuel wanted" in m for m in made), made
    assert any("that Kerr wanted" in m for m in made), made
    summary = ("Lemuel waits at the gate. Hoshick said that Retief wanted to see the clerk. "
               "Retief gives him fifty credits.")
    made = [e.hallucinated_span for e in entity.edits(Draft(summary, "en", people))]
    assert any("that Lemuel wanted" in m for m in made), made


def test_reading_4939_an_invention_takes_over_no_pronoun_of_the_next_sentence():
    """Seed 4939's reading: "Telemachus assists and brings arms for his father" added right
    before "He bends it immediately": "He" became Telemachus. No sentence is added before
    one that opens by taking up the sentence before it (an earlier event, told after the
    summary's first sentence)."""
    people = [_entity(n, gender="m") for n in ("Ulysses", "Telemachus", "Eumaeus")]
    donor = "Telemachus brings arms from the storeroom for the whole household."
    rest = (" Ulysses comes home to Ithaca dressed as a beggar, and Eumaeus takes him into "
            "his hut for the night. The suitors feast in the hall and mock the stranger.")
    summary = ("Telemachus watches the suitors try the bow one by one. He bends it at the "
               "first pull." + rest)
    assert offered(summary, "fabrication", people, outside=((True, donor),)) == []
    summary = ("Telemachus watches the suitors try the bow one by one. Ulysses bends the bow "
               "at the first pull." + rest)
    assert offered(summary, "fabrication", people, outside=((True, donor),)) == [donor]


def test_reading_4939_a_borrowed_cause_or_invention_names_only_the_summarys_people():
    """Seed 4939's reading: "... set an inquiry for the seventh, because Liesl said she could
    find the Ewe's anchor", in a summary where no Liesl is; "顾衡山说，二十年前鲁少棠的父亲
    鲁伯庸借给他三十两银子开墨坊", where no 鲁 is in the window. A borrowed cause opens with
    a character the summary names, and a Chinese invention names no one the window does not
    know (the English one already did not)."""
    from longnovel.injection.generators.rules.donors import donors
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity(n) for n in ("Wren", "Orrin", "Liesl")]
    summary = ("The Mayor set an inquiry for the seventh, because letters took eight days to "
               "come. Wren waits at the tower. Orrin mends the bell.")
    outside = ((False, "Liesl finds the lost anchor on the sandbank at low water. Orrin sells "
                       "the old tide clock in the market."),)
    causes = offered(summary, "causal", people, outside=outside)
    assert not any("because Liesl" in c for c in causes), causes
    assert any("because Orrin sells the old tide clock" in c for c in causes), causes

    zh_people = [_entity(n) for n in ("顾衡山", "小满", "青禾")]
    summary = "小满到了墨坊。顾衡山病了，躺在床上。青禾去请郎中。"
    borrowed = [body for _, _, body in donors(Draft(summary, "zh", zh_people, outside=(
        (True, "顾衡山说，二十年前鲁伯庸借给顾家三十两银子开墨坊。"
               "顾衡山把三十斤松烟卖给了石湾渡的油行。"),)), ["顾衡山"])]
    assert borrowed == ["顾衡山把三十斤松烟卖给了石湾渡的油行。"], borrowed


def _refused_beside_control(module, people, words: str, refused: str, control: str) -> None:
    """No edit of the module's that writes ``words`` is offered in ``refused``; one is in
    ``control``, the nearby case the fix must leave alone."""
    made = _edits_with(module, refused, "en", people)
    assert not any(words in m for m in made), made
    made = _edits_with(module, control, "en", people)
    assert any(words in m for m in made), made


def test_reading_4939_no_change_that_leaves_the_sentence_true():
    """Seed 4939's reading: "Sol shouts at him" -> "Sol talks to him" (a vaguer verb, still
    true); "Retief is not his cousin" -> "not his friend" (a relation denied: another denied
    is as true); "Hogey is Marie's brother" where the summary has "Marie's brother comes
    out" (another man): the new relation clashes with the summary's own."""
    from longnovel.injection.generators.rules import event, relation

    people = [_entity(n) for n in ("Sol", "Dawes", "Retief", "Hogey", "Marie", "Lemuel")]
    made = _edits_with(event, "Sol shouts at Dawes in the street. Dawes leaves.", "en", people)
    assert not any("talks to" in m for m in made), made
    made = _edits_with(event, "Sol talks to Dawes in the street. Dawes leaves.", "en", people)
    assert any("shouts at" in m or "argues with" in m for m in made), made
    made = _edits_with(relation, "Lemuel says that Retief is not his cousin. Retief leaves.",
                       "en", people)
    assert made == [], made
    made = _edits_with(relation, "Lemuel says that Retief is his cousin. Retief leaves.", "en",
                       people)
    assert made, made
    _refused_beside_control(relation, people, "Hogey is Marie's cousin",
                            "Hogey is Marie's friend. Later Marie's cousin comes out to check "
                            "on her.",
                            "Hogey is Marie's friend. Later the old man comes out to check on "
                            "her.")
    zh_people = [_entity(n) for n in ("周大有", "小满", "顾衡山")]
    made = _edits_with(relation, "小满回到了师父身边。舅舅周大有撑船来了。", "zh", zh_people)
    assert not any("回到了舅舅身边" in m for m in made), made


def test_reading_4939_no_count_changed_that_another_sentence_writes():
    """Seed 4939's reading: "柴文焕答应送四百张棉纸" two sentences before "送来二百张": the
    summary's other mention of the count contradicts the change. A count of three or more
    that another sentence writes is not changed; one written once still is."""
    from longnovel.injection.generators.rules import number

    zh_people = [_entity(n) for n in ("柴文焕", "小满", "顾衡山")]
    made = _edits_with(number, "柴文焕答应送四百张棉纸。小满等了三天。柴文焕送来四百张棉纸，"
                       "每锭墨用一张包好。", "zh", zh_people)
    assert made and not any("四百" not in m and "棉纸" in m for m in made), made
    people = [_entity(n) for n in ("Orrin", "Wren")]
    made = _edits_with(number, "Orrin paid sixty crowns. Wren waited nine days. The clerk "
                       "counted the sixty crowns twice.", "en", people)
    assert made and not any("crowns" in m for m in made), made
    made = _edits_with(number, "Orrin paid sixty crowns. Wren waited nine days. The clerk "
                       "counted the money twice.", "en", people)
    assert any("crowns" in m for m in made), made


def test_reading_4939_no_turn_inside_a_contrast_the_writer_set_up():
    """Seed 4939's reading: "However, his warm greeting is returned by Betty" (the negation
    taken out of a sentence "However" opens), "but utterly, and from principle, accepts him"
    (an outcome turned over a few words after "but"): the contrast then sets nothing against
    anything. The same sentences without the contrast still change."""
    from longnovel.injection.generators.rules import event
    from longnovel.injection.generators.rules.draft import in_a_contrast

    # (polarity and event ask the same question of the words before the verb)
    assert in_a_contrast("However, his warm greeting is ")
    assert in_a_contrast("Still, the old man ")
    assert not in_a_contrast("In the end his warm greeting is ")
    assert not in_a_contrast("She came in but the man who lives next door and his wife ")
    people = [_entity(n) for n in ("Harry", "Betty", "Solmes", "Clarissa")]
    _refused_beside_control(event, people, "accepts him",
                            "Solmes proposes again. Clarissa hears him out, but utterly, and "
                            "from principle, rejects him.",
                            "Solmes proposes again. Clarissa hears him out and, from principle, "
                            "rejects him.")


def test_reading_4939_no_time_of_day_against_the_meal_or_the_star():
    """Seed 4939's reading: "Breakfasts next evening" (the meal tells the morning; the cue
    list had "breakfast" but not the verb) and "Venus is suddenly an afternoon star" (the
    morning and the evening star are names). Elsewhere the time of day still changes."""
    from longnovel.injection.generators.rules import number

    people = [_entity(n) for n in ("Ulysses", "Harry")]
    book = "He came in the morning. She left in the evening. At noon they ate. " * 40
    made = _edits_with(number, "Ulysses breakfasts next morning with the swineherd. Harry "
                       "sees that Venus is suddenly a morning star.", "en", people, book)
    assert not any("next evening" in m or "next afternoon" in m for m in made), made
    assert not any(re.search(r"(?:evening|afternoon) star", m) for m in made), made
    made = _edits_with(number, "Ulysses sails next morning with the swineherd. Harry takes "
                       "a morning walk.", "en", people, book)
    assert any("next evening" in m for m in made), made
    assert "Harry takes an evening walk." in made, made  # the article fitted to the word


def test_reading_4939_no_chinese_negation_that_strands_the_next_deed_or_its_reason():
    """Seed 4939's reading: "用留给府学的六两松烟没有压二十锭小墨，埋进灰箱试验" (the
    negation inside the 用 phrase, and the next clause goes on burying what was not pressed)
    and "以父亲说过赛墨会前给外人看为由拒绝了" (the stated reason turned against the refusal
    it gives). The negation goes before the co-verb 用, not where a clause without a subject
    goes on with the deed; a sentence that gives its reason with 以…为由 is not turned."""
    from longnovel.injection.generators.rules import polarity
    from longnovel.injection.generators.rules.draft import gives_its_reason
    from longnovel.injection.nlp.zh.segment import tagged_words

    made = polarity._zh_negations(list(tagged_words(
        "青禾用留给府学的六两松烟压了二十锭小墨，埋进灰箱试验。")))
    assert made == [], made
    made = polarity._zh_negations(list(tagged_words(
        "青禾用留给府学的六两松烟压了二十锭小墨，小满埋进灰箱试验。")))
    assert made == ["青禾没有用留给府学的六两松烟压二十锭小墨，小满埋进灰箱试验。"], made
    assert gives_its_reason("青禾以父亲说过赛墨会前不给外人看为由拒绝了。", True)
    assert not gives_its_reason("青禾说父亲赛墨会前不给外人看。", True)


def test_reading_4939_no_count_the_calendar_fixes_nor_a_set_pair_of_kin():
    """Seed 4939's reading: "the seventeen hours of the natural day" (a day has twenty-four
    by definition) and "his sister and children" (from "his wife and children", a set
    pair). Other counts and relations in the same summaries still change."""
    from longnovel.injection.generators.rules import number, relation

    people = [_entity(n) for n in ("Lovelace", "Hogey")]
    made = _edits_with(number, "Lovelace counts the twenty-four hours of the natural day. He "
                       "waits nine days.", "en", people)
    assert not any("twenty-four" not in m and "hours" in m for m in made), made
    assert any("days" in m and "nine" not in m for m in made), made
    made = _edits_with(relation, "Hogey comes home to his wife and children. Hogey meets his "
                       "friend at the gate.", "en", people)
    assert not any("and children" in m and "wife" not in m for m in made), made
    assert any("his cousin at the gate" in m for m in made), made


def test_reading_5040_no_outcome_turned_that_the_next_sentences_tell():
    """Seed 5040's reading: "Rector refuses to go with him", then "Syme and Rector go with the
    Martians"; "Orrin Vale refused the trial", then the parties meet to set the trial. An
    outcome is not turned where the next two sentences of its paragraph take up what it was
    about; where they do not, it still is."""
    from longnovel.injection.generators.rules import event

    people = [_entity(n) for n in ("Rector", "Syme", "Orrin", "Wren")]
    base = "Syme asks Rector to come. Rector agrees to go with him to the canal. "
    made = _edits_with(event, base + "The men travel in a sand car, and Syme and Rector go "
                       "with the Martians.", "en", people)
    assert not any("refuses to go" in m or "declines to go" in m for m in made), made
    made = _edits_with(event, base + "The men travel in a sand car and reach the city.", "en",
                       people)
    assert any("refuses to go" in m for m in made), made
    made = _edits_with(event, "Wren asked for a trial. Orrin accepted the trial. The parties "
                       "met at four to set the terms of the trial.", "en", people)
    assert made == [], made
    made = _edits_with(event, "Wren asked for a trial. Orrin accepted the trial. The "
                       "parties met at four.", "en", people)
    assert any("refused the trial" in m for m in made), made
    # (and a new paragraph of the same unit's summary still takes it up)
    from longnovel.injection.generators.rules.draft import Draft

    one_unit = Draft(base + "\n\nThe men travel in a sand car. Syme and Rector go with the "
                     "Martians.", "en", people, unit_starts=())
    made = [e.hallucinated_span for e in event.edits(one_unit)]
    assert not any("refuses to go" in m for m in made), made


def test_reading_5141_no_polarity_turned_that_its_sentence_leans_on():
    """Seed 5141's reading: "Lethla is not caught off guard but manages to fire" (the "but"
    after it now sets nothing against anything), "Prays for vengeance upon him, if she
    recover" (a condition), "Rikud doesn't say that stars may be changing" (a report left
    standing, unsaid), "鲁少棠说他没有不比" (a double negative). The same statements without
    those still turn."""
    from longnovel.injection.generators.rules import polarity

    lead = "Hannah does not wait. "  # (a negation of the writer's, for the construction)
    assert offered(lead + "Lethla is caught off guard but manages to fire.", "polarity") == []
    assert offered(lead + "Lethla is caught off guard by the blast.", "polarity") == [
        "Lethla is not caught off guard by the blast."]
    assert offered(lead + "Clarissa prays for vengeance upon him, if she recovers.",
                   "polarity") == []
    assert offered(lead + "Clarissa prays for vengeance upon him.", "polarity") == [
        "Clarissa does not pray for vengeance upon him."]
    made = offered(lead + "Rikud says that the stars may be changing.", "polarity")
    assert made == ["Rikud says that the stars may not be changing."], made
    made = _edits_with(polarity, "鲁少棠说他不比了。青禾劝他。", "zh",
                       [_entity(n) for n in ("鲁少棠", "青禾")])
    assert not any("没有不" in m for m in made), made


def test_reading_5242_what_the_rest_of_the_sentence_or_the_clock_already_says():
    """Seed 5242's reading: "He quickly dies and orders some men ..." (the dead man acts on);
    "Afraid Belford never plays him false" and "would not have saved her, as it did once
    before" (a fear or a comparison with before holds the polarity of what it is about);
    "没有结皮，他才回" (才 waits for what was done); "Warden-Mayor Tabitha Oakes heard the
    mayor" (one title, two people); "At five minutes to twelve" put before "At 10.41" (the
    clock tells the order). Nearby cases still change."""
    from longnovel.injection.generators.rules import entity, event, polarity, temporal
    from longnovel.injection.generators.rules.draft import Draft, tells_its_date

    people = [_entity(n) for n in ("Sam", "Orrin", "Belford", "Lovelace")]
    made = _edits_with(event, "Sam is shot. He quickly recovers and orders some men to carry "
                       "him home. Orrin waits.", "en", people)
    assert not any("dies and orders" in m for m in made), made
    made = _edits_with(event, "Sam is shot. He quickly recovers in the hospital. Orrin waits "
                       "at the gate.", "en", people)
    assert "He quickly dies in the hospital." in made, made
    lead = "Hannah does not wait. "
    assert offered(lead + "Lovelace is afraid Belford plays him false.", "polarity") == []
    assert offered(lead + "Belford plays him false.", "polarity") == [
        "Belford does not play him false."]
    assert offered(lead + "Belford saved her, as he did once before.", "polarity") == []
    assert offered(lead + "Belford saved her on the road.", "polarity") == [
        "Belford did not save her on the road."]
    zh_people = [_entity(n) for n in ("韩石", "小满", "青禾")]
    assert _edits_with(polarity, "小满没有回家。韩石等墨结了皮，他才回家。", "zh",
                       zh_people) == []
    assert _edits_with(polarity, "小满没有回家。韩石等墨结了皮，然后回家。", "zh",
                       zh_people) == ["韩石等墨没有结皮，然后回家。"]
    titles = [_entity("Tabitha Oakes")] + [_entity(n, kind="title") for n in
                                            ("doctor", "mayor", "captain")]
    made = {e.hallucinated_span for e in entity.mismatch_edits(Draft(
        "In her kitchen, Warden-Mayor Tabitha Oakes heard the doctor and the clerk.", "en",
        titles))}
    assert made == {"In her kitchen, Warden-Mayor Tabitha Oakes heard the captain and the "
                    "clerk."}, made
    assert tells_its_date("At 10.41 the bell rang.", False)
    assert tells_its_date("At five minutes to twelve she reported.", False)
    assert tells_its_date("当夜三更，小满进了谱房。", True)
    summary = ("At 10.41 Wren rang the tide bell from the tower. At five minutes to twelve "
               "Orrin reported the water to the Office.")
    assert [e.hallucinated_span for e in temporal.edits(Draft(summary, "en", people))] == []


def test_reading_5242_no_swap_of_what_had_happened_before_the_line():
    """Seeds 5141's and 5242's readings: "At Dunmore, from the tenth to the nineteenth, stall
    number 4 had shown Vell's Regulator" swapped with the scene that shows the ledger (the
    record is of an earlier time, and the swapped order is the true one); sentences anchored
    by "already" or 已经. The same scenes told in the simple past still swap."""
    from longnovel.injection.generators.rules import temporal
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity(n) for n in ("Marle", "Wren", "小满", "青禾")]

    def swaps(summary, language="en"):
        return [e.hallucinated_span for e in temporal.edits(Draft(summary, language, people))]

    assert swaps("Marle showed Wren his ledger in the market hall. Stall number 4 had shown "
                 "the Regulator for nine days.") == []
    assert swaps("Wren rang the bell at the tower. Marle had already left the hall.") == []
    assert swaps("Marle showed Wren his ledger in the market hall. Stall number 4 showed the "
                 "Regulator for nine days.")
    assert swaps("小满到了码头。青禾已经上了船。", "zh") == []
    assert swaps("小满到了码头。青禾上了船。", "zh")


def test_reading_5242_an_invention_takes_no_pronoun_over_and_keeps_the_tense():
    """Seed 5242's reading: "Orrin Vale paid his fine of two hundred crowns eleven days early"
    added right before "Orrin found it half an hour early" ("it", the lost purse, became the
    fine); "Wren ... now hands the keeping of a clock to a younger girl" added to a summary
    told in the past. No sentence is added before one whose pronoun it would take over, nor
    in another tense than the sentence it follows; the same sentence is offered where the
    next one points at nothing it holds, and a donor in the summary's tense still is. (An
    earlier event of the book, told after the summary's first sentence.)"""
    from longnovel.injection.generators.rules import fabrication
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity("Orrin", gender="m"), _entity("Wren", gender="f"),
              _entity("Silas", gender="m")]
    closing = (" The tide rose early that spring and the town watched the bar. Wren kept the "
               "tower clock for the Office.")
    donor = "Orrin paid his fine of two hundred crowns at the Office eleven days early."

    def added(summary, outside):
        """The sentences added right after "that morning." (the purse's sentence)."""
        draft = Draft(summary + closing, "en", people, outside=((True, outside),))
        return [e.hallucinated_span for e in fabrication.edits(draft)
                if (summary + closing)[: e.start].endswith("that morning.")]

    assert donor not in added("Orrin lost his purse on the quay that morning. Orrin found it "
                              "half an hour later by the nets.", donor)
    assert donor in added("Orrin lost his purse on the quay that morning. Orrin walked home "
                          "along the nets before noon.", donor)
    # a "he" that finds Orrin now would find Silas, whom the added sentence names last
    other = "Orrin paid Silas two hundred crowns at the Office eleven days early."
    assert other not in added("Orrin lost his purse on the quay that morning. The nets were "
                              "dry when he walked home.", other)
    assert donor in added("Orrin lost his purse on the quay that morning. The nets were dry "
                          "when he walked home.", donor)
    present = "Orrin, who began as a clerk himself, now pays the Office two hundred crowns."
    assert present not in added("Orrin lost his purse on the quay that morning. Wren walked "
                                "home along the nets.", present)
    present_closing = closing.replace("kept", "keeps").replace("rose", "rises") \
        .replace("watched", "watches")
    draft = Draft("Orrin loses his purse on the quay that morning. Wren walks home along the "
                  "nets." + present_closing, "en", people, outside=((True, present),))
    assert present in [e.hallucinated_span for e in fabrication.edits(draft)]


def test_reading_5242_a_borrowed_cause_keeps_the_tense_of_the_cause_it_replaces():
    """A borrowed cause told in the present where the writer told the cause in the past
    ("Wren could not ring the tide-bell, because Silas proposes a seven-day count") is another
    hand's; one in the past takes its place."""
    people = [_entity("Wren", gender="f"), _entity("Silas", gender="m")]
    summary = ("The tide rose early that spring. Wren could not ring the tide bell, because "
               "the rope had snapped in the frost. Silas walked to the Office.")
    present = "Silas proposes a seven day count at the market hall"
    past = "Silas proposed a seven day count at the market hall"
    causes = offered(summary, "causal", people, outside=((False, present + "."),))
    assert not any("because Silas proposes" in c for c in causes), causes
    causes = offered(summary, "causal", people, outside=((False, past + "."),))
    assert any("because Silas proposed a seven day count" in c for c in causes), causes


def test_reading_5343_what_the_book_tells_later_or_earlier_goes_at_the_windows_edge():
    """Seeds 5242's and 5343's readings: "Ulysses, arming himself and his friends, goes from
    the city to visit his father" set down in the middle of the slaughter in the hall;
    "Achilles drags the dead body" after the body was returned and buried; seed 5545's:
    "Telemachus ... arrives at Pylos" before the sentence in which he sails. An event of a
    later part of the book is told after the summary's last sentence, where the story runs
    on into it; one of an earlier part, after the first."""
    from longnovel.injection.generators.rules import fabrication
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity("Ulysses", gender="m"), _entity("Eumaeus", gender="m")]
    summary = ("Ulysses lands on Ithaca at dawn. Ulysses hides the gifts in a cave by the "
               "shore. Eumaeus feeds the stranger in the hut.\n\n"
               "Ulysses fights the suitors in the great hall. Eumaeus bars the doors of the "
               "hall.\n\n"
               "Eumaeus washes the floor of the hall. Ulysses sends word to the farm at last.")
    later = "Ulysses walks from the city to the farm to visit his old father."
    earlier = "Ulysses sails from the far island with a crew of young oarsmen."

    def after(outside):
        draft = Draft(summary, "en", people, outside=outside)
        return {(e.subtype, summary[: e.start].rsplit(".", 2)[-2].strip())
                for e in fabrication.edits(draft) if e.subtype in ("continue", "repeat")}

    assert after(((False, later),)) == {("continue", "Ulysses sends word to the farm at last")}
    assert after(((True, earlier),)) == {("repeat", "Ulysses lands on Ithaca at dawn")}


def test_reading_5343_no_swap_of_sentences_anchored_to_each_other():
    """Seed 5343's reading: "Since then, Mars has become fully independent" swapped ahead of
    the sentence its "then" stands for; "the note" moved before the sentence that brings the
    note in; 第六天 counted from the rain of the sentence before; "The Warden-Mayor accepted
    it" after a swap that put the loaf's price next to its "it". The same pairs without the
    anchor still swap."""
    from longnovel.injection.generators.rules import temporal
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity(n) for n in ("Ryd", "Retief", "Morrow", "Ada", "顾衡山", "青禾")]

    def swaps(summary, language="en"):
        return [e.hallucinated_span for e in temporal.edits(Draft(summary, language, people))]

    pairs = [  # (refused, the same without the anchor, language)
        ("Ryd signs the treaty with the Earth council. Since then, Mars has become fully "
         "independent of the old empire.",
         "Ryd signs the treaty with the Earth council. Mars becomes fully independent of the "
         "old empire.", "en"),
        ("Retief pulls a note from his sleeve at the desk. The note names the ambassador of "
         "the mission.",
         "Retief pulls a letter from his sleeve at the desk. The guard names the ambassador of "
         "the mission.", "en"),
        ("大雨下了七天，顾衡山守着烟房。第六天夜里，青禾去了码头。",
         "大雨下了七天，顾衡山守着烟房。青禾去了码头。", "zh"),
        ("Morrow offered the Office his flour at three crowns a sack. Ada set the loaf at four "
         "pennies in the market. The Warden-Mayor accepted it at noon.",
         "Morrow offered the Office his flour at three crowns a sack. Ada set the loaf at four "
         "pennies in the market. The Warden-Mayor went home at noon.", "en"),
        # a sentence that dates itself back from the story's present ("Decades ago"):
        # moved, it tells no other order (a reading's NOT-A-CHANGE)
        ("Humans live in tall towers that are sealed from each other. Decades ago, the great "
         "war poisoned the air outside with atomic dust.",
         "Humans live in tall towers that are sealed from each other. The great war poisoned "
         "the air outside with atomic dust.", "en"),
    ]
    for refused, control, language in pairs:
        assert swaps(refused, language) == [], refused
        assert swaps(control, language), control


def test_reading_5343_no_polarity_turned_where_the_next_sentences_take_it_up():
    """Seed 5343's reading: "Orme did not bolt an eighteen-foot tide staff to the pier",
    then "Wren stood at the tide staff with Orme": the next sentences tell what the turn
    denies. Where they go on to something else, the turn is still offered."""
    from longnovel.injection.generators.rules import polarity

    people = [_entity("Orme", gender="m"), _entity("Wren", gender="f")]
    refused = ("Orme bolted an eighteen-foot tide staff to the pier. The water did not reach "
               "the lamp room. Wren stood at the tide staff with Orme until dawn.")
    control = ("Orme bolted an eighteen-foot tide staff to the pier. The water did not reach "
               "the lamp room. Wren stood at the tower window with Orme until dawn.")
    assert not any("not bolt" in m for m in _edits_with(polarity, refused, "en", people))
    assert any("not bolt" in m for m in _edits_with(polarity, control, "en", people))


def test_reading_5343_a_stand_in_is_someone_of_the_scene():
    """Seed 5343's reading: "Sas also mentions that he and his sister have left Earth", where
    the summary never names Sas; "comforts crying Molly", the robot nurse named only far from
    the scene. A person stands in only for someone the summary names within three sentences
    before; named there, the same person still does."""
    from longnovel.injection.generators.rules import entity

    people = [_entity(n, gender="m") for n in ("Ferdinand", "Butt", "Sas")]
    summary = ("Ferdinand meets Butt at the dock. Butt hides in the hold of the ship. He says "
               "that he and his cousin have left Earth for good.")
    assert not any("Sas" in m for m in _edits_with(entity, summary, "en", people))
    summary = "Sas waits at the dock. " + summary
    assert any(m.startswith("Sas says") or m.startswith("Sas hides")
               for m in _edits_with(entity, summary, "en", people))
    far = ("Sas waits at the dock. The tide turns. The gulls cry over the harbour. The crew "
           "sleeps. Night falls over the water. Ferdinand meets Butt at the dock.")
    assert not any(m.startswith("Ferdinand meets Sas") or m.startswith("Sas meets")
                   for m in _edits_with(entity, far, "en", people))


def test_reading_5444_a_kin_word_the_writer_names_someone_by_stays():
    """Seeds 5343's and 5444's readings: "坐舅舅周大有的乌篷船" -> "坐父亲周大有的乌篷船" beside
    顾青禾 and 沈小满, where the book's other chapters call him 舅舅周大有 throughout. A relation
    word the writer puts before the same name elsewhere (in the summary or the book's other
    unit summaries) is how the writer names that person: not changed. Written only here, it
    still may be."""
    from longnovel.injection.generators.rules import relation
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity("周大有", gender="m"), _entity("顾青禾", gender="f"),
              _entity("沈小满", gender="f")]
    summary = "九月初六，沈小满和顾青禾坐舅舅周大有的乌篷船去临川府。两人傍晚到了码头。"
    elsewhere = ((True, "舅舅周大有撑船来了，带来一筐鱼。"),)

    def changed(outside):
        draft = Draft(summary, "zh", people, outside=outside)
        return [e.hallucinated_span for e in relation.edits(draft)
                if "周大有的乌篷船" in e.hallucinated_span]

    assert changed(elsewhere) == []
    assert changed(((True, "周大有撑船来了，带来一筐鱼。"),))
    en_people = [_entity("Ned", gender="m"), _entity("Wren", gender="f")]
    summary = "Wren rows out with her uncle Ned to the bar. They come back at dusk."

    def changed_en(outside):
        draft = Draft(summary, "en", en_people, outside=outside)
        return [e.hallucinated_span for e in relation.edits(draft)
                if "Ned to the bar" in e.hallucinated_span]

    assert changed_en(((True, "Uncle Ned mends the nets on the quay."),)) == []
    assert changed_en(((True, "Ned mends the nets on the quay."),))


def test_reading_5444_no_turn_an_adverb_or_the_next_contrast_was_written_for():
    """Seed 5444's reading: "insultingly accepted by him" (the adverb was written for the
    refusal); "She will not be as ready to place a confidence in him" before "Yet she cannot
    treat him with complaisance" (the "Yet" stood against the sentence as it was). Neither
    is turned; without the adverb, or before a sentence that opens otherwise, the turn is
    still offered."""
    from longnovel.injection.generators.rules import event, polarity

    people = [_entity("Lovelace", gender="m"), _entity("Clarissa", gender="f")]
    _refused_beside_control(event, people, "accepted by him",
                            "Her proposal is insultingly refused by him. Clarissa writes home.",
                            "Her proposal is refused by him. Clarissa writes home.")
    _refused_beside_control(polarity, people, "She does not trust his promise",
                            "Clarissa did not answer his letter. She trusts his promise at "
                            "once. Yet she cannot treat him with complaisance.",
                            "Clarissa did not answer his letter. She trusts his promise at "
                            "once. She writes to Miss Howe that night.")


def test_reading_5444_no_cause_traded_with_a_record_or_a_message():
    """Seeds 5343's and 5444's readings: "The company's takings had tripled, so the dues
    ledger showed eleven" (evidence made the effect of what it shows); "The coast court
    would try Desmond Crale in the spring, so a letter from the Office said the bridge would
    not be rebuilt" (a message made the effect of something else). No such pair is inverted;
    a pair of deeds still is."""
    people = [_entity("Wren", gender="f"), _entity("Crale", gender="m")]
    made = offered("A letter from the Office said the bridge would not be rebuilt, so the "
                   "coast court would try Crale in the spring. Wren went home.", "causal",
                   people)
    assert not any(m.startswith("The coast court would try Crale in the spring, so")
                   for m in made), made
    made = offered("The bridge fell in the storm, so the coast court would try Crale in the "
                   "spring. Wren went home.", "causal", people)
    assert any(m.startswith("The coast court would try Crale in the spring, so")
               for m in made), made


def test_reading_5444_no_turn_of_a_clause_that_says_how_much():
    """Seed 5444's reading: "purchase anything he can think of" -> "anything he cannot think
    of": a clause after "anything", "whatever", "all" says how much or which, not whether.
    It is not turned; the same verb as a sentence's own still is."""
    from longnovel.injection.generators.rules import polarity

    people = [_entity("Lovelace", gender="m"), _entity("Clarissa", gender="f")]
    _refused_beside_control(polarity, people, "cannot think",
                            "Clarissa did not answer. Lovelace may purchase anything he can "
                            "think of.",
                            "Clarissa did not answer. Lovelace can think of a plan.")


def _swapped(first: str, second: str, people=None, after: str = " Hannah waits at home.") -> bool:
    """Is the pair ``first second`` offered as a timeline swap (the second sentence moved
    ahead)?"""
    from longnovel.injection.generators.rules import temporal

    made = _edits_with(temporal, first + " " + second + after, "en", people or PEOPLE)
    return any(m.startswith(second.split(",")[0]) for m in made)


# (first, second, control): the pair is not swapped, the control pair (one sentence changed)
# still is.
_NO_ORDER_OR_TIED = [
    # a state read past the aside after its subject (the sample, seed 7)
    ("Lovelace opens the Guild's session.", "Aunt Hannah, lent by the Guild, was its clerk.",
     "Aunt Hannah, lent by the Guild, opens its ledger."),
    # a plan ("would") read past the aside
    ("Lovelace mends the clock for three crowns.",
     "Corra's son Belford, aged twenty-three, would sail the barge to Fenmouth.",
     "Corra's son Belford, aged twenty-three, sails the barge to Fenmouth."),
    # a relation between things, true over a span of time: no event
    ("Lovelace reads the ledger aloud.",
     "The seven high waters on the roll matched the Tower Log to within a minute.",
     "The seven high waters on the roll flooded the Tower cellar within a minute."),
    # "either", "at this point": tied to the sentence before
    ("Lovelace compliments his mother, and she bursts into tears.",
     "Belford makes no attempt to talk either, which angers Lovelace.",
     "Belford makes no attempt to talk, which angers Lovelace."),
    ("Lovelace loses the last of his money at the tables.",
     "Belford sees no other way at this point and sells the horses.",
     "Belford sees no other way and sells the horses."),
    # a death, and the dead man acting once swapped (the study corpus, seed 3)
    ("Belford argues that it does not matter as long as it is his last trip.",
     "Belford dies and becomes the hundredth body on the ship.",
     "Belford sleeps and becomes the hundredth passenger on the ship."),
    # one thing, brought in and taken up
    ("Lovelace pulls out the note from the Under-Secretary.",
     "The titles alone take two pages of the note, which frustrates Belford.",
     "The titles alone take two pages of the letter, which frustrates Belford."),
    # what was just told, taken up ("why he did that", "this"), a return, an addition (the
    # study corpus, seed 44)
    ("A dispute ends with Lovelace destroying the time machine.",
     "In his last thoughts Lovelace debates why he did that.",
     "In his last thoughts Lovelace debates the future of the race."),
    ("Belford runs toward the next house for Mrs. Hickman.",
     "Lovelace recognizes this as a twister and hides in the cellar.",
     "Lovelace recognizes a twister and hides in the cellar."),
    ("Belford says he is going to get Lovelace and bring him along.",
     "When Belford returns to the ship with Lovelace, the ship is attacked.",
     "When Belford boards the ship with Lovelace, the ship is attacked."),
    # a time told from the other sentence's (the sample, seed 5545)
    ("Lovelace gives the bark to the doctor.",
     "The same morning Belford recovers from the fever.",
     "On Monday morning Belford recovers from the fever."),
    # more of what came before: "does the same", "a few more" (seed 5646)
    ("Minerva encourages Lovelace in the shape of Mentor.",
     "Belford does the same for the wooers.",
     "Belford fetches arms for the wooers."),
    ("Lovelace shows the crowd his card tricks.",
     "Belford performs a few more tricks for the guests.",
     "Belford performs a dance for the guests."),
    # one of many, taken up as "the child" (the study corpus, seed 12)
    ("Lovelace kills many of the changeling children, but he allows one to live.",
     "The child is named Robert and is raised by Belford.",
     "The doctor is named Robert and is paid by Belford."),
    # the prose corpus, seed 5747: the kind of thing just told; a heading with no verb, its
    # nouns after a determiner or a possessive; a subject pronoun whose person only the
    # sentence before names, its name written later in its own sentence
    ("Lovelace tells of the public freedoms between husbands and wives.",
     "Advantage Lovelace once made upon such an occasion.",
     "Advantage Lovelace once made upon a visit to the town."),
    ("Lovelace hides in the cellar while Dorcas talks.",
     "The bonds of wickedness stronger than the ties of virtue.",
     "The bonds of wickedness broke the ties of virtue."),
    # the sample, seed 5747: an "it" with nothing before it in its sentence to point at
    ("A widow brought the late captain's cabin clock to the shop.",
     "Belford mended it for three crowns and set it by the regulator.",
     "Belford mended the lamp for three crowns and set it by the regulator."),
    ("Minerva commands Belford in a vision to return to Ithaca.",
     "Lovelace and he take leave of the king, and Belford sets sail.",
     "Lovelace and Hannah take leave of the king, and Belford sets sail."),
]


@pytest.mark.parametrize("first,second,control", _NO_ORDER_OR_TIED)
def test_no_swap_of_a_state_or_of_sentences_tied_to_each_other(first, second, control):
    """Rows of the sample (seed 7) and the study corpus (seeds 3, 12) read by hand: a state
    or a plan behind an aside ("Aunt Mabry, lent by the Guild, was its clerk"), a relation
    ("matched the Tower Log"), "either", a death, "the note" the sentence before brings in:
    swapped, nothing moved in time, or the text says it was moved."""
    assert not _swapped(first, second)
    assert _swapped(first, control)


def test_an_aunt_by_name_stays_a_word_of_address_and_a_couple_stays_whole():
    """Prose corpus, seed 11: "her aunt Hervey" -> "her mother Hervey" (Hervey a surname only
    in the book's other unit summaries), "her own father and mother" -> "her own uncle and
    mother", "that of her other uncle" -> "her other father"; "her cousin Dolly" -> "her
    friend Dolly" is still offered."""
    from longnovel.injection.generators.rules import relation

    people = [_entity("Clarissa", gender="f"), _entity("Lovelace", gender="m")]
    # Norton is a surname only in the book's other unit summaries ("Mrs. Norton")
    book = ((True, "Mrs. Norton visits Clarissa."),)
    made = offered("Clarissa writes to her aunt Norton. Lovelace waits.", "relation", people,
                   outside=book)
    assert not any("mother" in m for m in made), made
    assert any("mother" in m for m in offered(
        "Clarissa writes to her aunt about it. Lovelace waits.", "relation", people,
        outside=book))
    _refused_beside_control(relation, people, "father",
                            "A letter more cruel than that of her other uncle. Lovelace waits.",
                            "A letter more cruel than that of her other uncle. Lovelace waits."
                            .replace("other ", ""))
    made = _edits_with(relation, "Clarissa gives advice to her cousin Dolly. Lovelace waits.",
                       "en", people)
    assert "Clarissa gives advice to her friend Dolly." in made, made
    _refused_beside_control(relation, people, "her own uncle",
                            "Ill terms on which her own father and mother lived. Lovelace "
                            "waits.",
                            "Ill terms on which her own father lived. Lovelace waits.")


@pytest.mark.parametrize("first,second,control", [
    # a quality, at no time (the sample, seed 5)
    ("蔡三和小满走到山口。", "蔡三的脸色很难看。", "蔡三把担子放在路边。"),
    # a time counted from the sentence before: "after this", "that night"
    ("青禾要求帮忙，父亲不许她做墨。", "青禾哭着跑开，此后几天父女俩没有说话。",
     "青禾哭着跑开，躲进了谱房。"),
    ("顾衡山不许卖这批墨。", "当夜青禾和小满在谱房翻《墨谱》。", "青禾和小满在谱房翻《墨谱》。"),
])
def test_zh_no_swap_of_a_quality_or_of_a_time_told_from_the_other(first, second, control):
    from longnovel.injection.generators.rules import temporal

    people = [_entity(n, gender=g) for n, g in (("蔡三", "m"), ("小满", "m"), ("青禾", "f"),
                                                 ("顾衡山", "m"))]
    tail = "韩石回到墨坊。"

    def swapped(pair_second: str) -> bool:
        made = _edits_with(temporal, first + pair_second + tail, "zh", people)
        return any(m.startswith(pair_second) for m in made)

    assert not swapped(second)
    assert swapped(control)


def test_polarity_keeps_a_relative_without_that_an_idiom_and_refusals_to_people():
    """Study and prose corpora, seed 22: "the little parcel of linen she had sent" -> "she had
    not sent" (a clause that picks out the thing, turned, picks out nothing); "cannot stop
    reading the final letter" -> "can stop reading" (the negation is the phrase); "a dead
    Slider attracts other Sliders" -> "refuses to attract" (a thing refuses nothing). Each
    is refused beside a nearby case still offered."""
    from longnovel.injection.generators.rules import polarity

    people = [_entity("Asa", gender="m"), _entity("Clarissa", gender="f"),
              _entity("Lovelace", gender="m")]
    lead = "Clarissa did not answer. Asa refuses to eat. "
    _refused_beside_control(polarity, people, "had not sent",
                            lead + "Writes in anguish for the little parcel of linen she had "
                            "sent to her aunt.",
                            lead + "Writes in anguish, for she had sent the parcel of linen to "
                            "her aunt.")
    _refused_beside_control(polarity, people, "can ",
                            lead + "Lovelace cannot stop reading the final letter he receives.",
                            lead + "Lovelace cannot read the final letter he receives.")
    _refused_beside_control(polarity, people, "refuses to attract",
                            lead + "The dead Slider attracts other Sliders at once.",
                            lead + "Lovelace attracts other Sliders at once.")


def test_zh_turns_and_dares_stay_negative_and_a_refusal_that_goes_on_stays():
    """The sample, seed 31: "但没有说出来" -> "但说了出来" (the negation is what 但 turns to),
    "阿水不敢看小满" -> "阿水敢看小满" (no plain affirmative), "拒绝回答，还不许他再提" ->
    "答应回答，还不许他再提" (the sentence goes on refusing)."""
    from longnovel.injection.generators.rules import event, polarity

    people = [_entity(n, gender=g) for n, g in (("韩石", "m"), ("青禾", "f"), ("阿水", "m"),
                                                 ("小满", "m"))]
    lead = "小满没有回家。青禾不肯吃饭。"

    def made(module, text: str) -> list[str]:
        return _edits_with(module, lead + text + "韩石回到墨坊。", "zh", people)

    assert not any("说了出来" in m
                   for m in made(polarity, "韩石早就猜到是青禾拿的书，但没有说出来。"))
    assert any("说了出来" in m for m in made(polarity, "韩石早就猜到是青禾拿的书，没有说出来。"))
    assert not any("敢看" in m for m in made(polarity, "第二天早上，阿水不敢看小满。"))
    assert any("阿水看小满" in m for m in made(polarity, "第二天早上，阿水不看小满。"))
    assert not any("答应" in m for m in made(event, "小满问起墨谱，师父拒绝回答，还不许他再提。"))
    assert any("答应" in m for m in made(event, "小满问起墨谱，师父拒绝回答。"))
    en_people = [_entity("Orme", gender="m"), _entity("Wren", gender="f")]
    _refused_beside_control(event, en_people, "agrees to answer",
                            "Wren goes home. Orme refuses to answer and forbids her to ask "
                            "again. Wren eats.",
                            "Wren goes home. Orme refuses to answer her. Wren eats.")


def test_no_verb_changed_whose_means_the_clause_tells():
    """Study corpus, seed 22: "writes to Joe by controlling the minds of sleeping people to
    pen the letters" -> "visits Joe by ...", "rents her apartment by tricking her old
    landlady" -> "buys": the means told is the means of that act."""
    from longnovel.injection.generators.rules import event

    people = [_entity(n, gender=g) for n, g in (("Glmpauszn", "m"), ("Joe", "m"),
                                                 ("Suzanne", "f"))]
    _refused_beside_control(event, people, "visits Joe",
                            "Joe goes home. Glmpauszn writes to Joe by controlling the minds "
                            "of sleeping people to pen the letters. Joe eats.",
                            "Joe goes home. Glmpauszn writes to Joe at the Plaza Ritz Arms in "
                            "New York City. Joe eats.")
    _refused_beside_control(event, people, "buys her apartment",
                            "Joe goes home. Suzanne rents her apartment by tricking her old "
                            "landlady. Joe eats.",
                            "Joe goes home. Suzanne rents her apartment near the old landlady. "
                            "Joe eats.")


def test_a_kin_aside_after_a_kin_title_stays():
    """The sample, seed 7: "Wren's Aunt Mabry, Tomas's older sister" -> "Tomas's older
    cousin": the title already says whose sister she is."""
    from longnovel.injection.generators.rules import relation

    people = [_entity(n, gender=g) for n, g in (("Wren", "f"), ("Mabry", "f"), ("Tomas", "m"))]
    _refused_beside_control(relation, people, "older cousin",
                            "Wren goes home. Wren's Aunt Mabry, Tomas's older sister and the "
                            "Guild's clerk, recorded it. Wren eats.",
                            "Wren goes home. Mabry, Tomas's older sister and the Guild's "
                            "clerk, recorded it. Wren eats.")


def test_no_negation_after_its_purpose_inside_the_sentence():
    """Study corpus, seed 61: "..., and in order to stop that from happening, they must stop
    the power cylinder" -> "they must not stop": denied, the act undoes its purpose. The same
    clause without its purpose is still negated."""
    from longnovel.injection.generators.rules.polarity import _en_negations

    head = "He insists that Earthmen are slaves to the landowners, and "
    tail = "they must stop the power cylinder from landing on Earth."
    assert not any("must not stop" in m for m in _en_negations(
        head + "in order to stop that from happening, " + tail))
    assert any("must not stop" in m for m in _en_negations(head + tail))


def test_zh_a_festival_date_an_only_and_a_swap_whose_opener_stays():
    """The sample, seed 71: "十二月初八腊八" -> "十一月初八腊八" (腊八 is the eighth of the twelfth
    month), "钥匙只有师父有" -> "只有师父没有", and a swap that left 就 without its 第二天
    ("韩石就离开了万宝斋。第二天刁五……")."""
    from longnovel.injection.generators.rules import number, polarity, temporal

    people = [_entity(n, gender="m") for n in ("蔡三", "小满", "刁五", "韩石")]

    def made(module, text: str) -> list[str]:
        return _edits_with(module, "小满没有回家。青禾不肯吃饭。" + text + "小满吃饭。", "zh",
                           people)

    assert not any("十一月初八腊八" in m or "十月初八腊八" in m
                   for m in made(number, "十二月初八腊八，蔡三熬了粥。"))
    assert any(m.startswith(("十一月初八", "十月初八", "四月初八"))
               for m in made(number, "十二月初八，蔡三熬了粥。"))
    assert not any("没有" in m for m in made(polarity, "蔡三还说谱房钥匙只有师父有。"))
    assert any("师父没有" in m for m in made(polarity, "蔡三还说谱房钥匙师父有。"))
    pair = "刁五买了两坛桐油，回来时外衣少了一颗扣子。"
    assert not any(m.startswith("韩石")
                   for m in made(temporal, pair + "第二天韩石就离开了万宝斋。"))
    assert any(m.startswith("韩石") for m in made(temporal, pair + "第二天韩石离开了万宝斋。"))


def test_a_relation_the_summary_comes_back_to_and_a_number_told_outside_the_region():
    """Study corpus, seed 5545: "assumes that Retief is the cousin of someone called Lemuel"
    -> "the friend of", where the summary goes on "Lemuel reveals that Retief is not his
    cousin"; "disappeared nine years ago" -> "seven years ago" where the rest of a long
    summary, outside the forty sentences the rules read, says "nine years ago" twice."""
    from longnovel.injection.generators.rules import number, relation
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity(n, gender="m") for n in ("Retief", "Lemuel", "Magnan")]
    _refused_beside_control(relation, people, "friend of",
                            "Magnan assumes that Retief is the cousin of Lemuel. Lemuel enters "
                            "and reveals that Retief is not his cousin. Magnan leaves.",
                            "Magnan assumes that Retief is the cousin of Lemuel. Lemuel enters "
                            "and reveals that Retief is a spy. Magnan leaves.")
    region = "Magnan asks about the cruiser that disappeared nine years ago. Retief waits."
    assert not number.edits(Draft(region, "en", people,
                                  around="The cruiser vanished nine years ago."))
    assert number.edits(Draft(region, "en", people, around="The cruiser vanished."))


def test_sample_reading_5545():
    """The sample, seed 5545: "all five of the Ewe's men were not safe" and "did not find that
    all fourteen high waters agreed" (a denied "all" reads as no writer's), "输给鲁公子丢人"
    where the summary later says "不丢人", "姑姑柳氏" where the summary calls her 母亲 two
    sentences on, "borrowed the three black boats for a hundred and fifty crowns"; each beside
    a nearby case still offered."""
    from longnovel.injection.generators.rules import event, polarity, relation
    from longnovel.injection.generators.rules.polarity import _en_negations

    assert _en_negations("All five of the Ewe's men were safe in the Pilotage house.") == []
    assert _en_negations("The five men of the Ewe were safe in the Pilotage house.")
    assert _en_negations("Orrin found that all fourteen high waters agreed with the log.") == []
    assert _en_negations("Orrin found that the fourteen high waters agreed with the log.")
    zh_people = [_entity(n, gender=g) for n, g in (("顾衡山", "m"), ("小满", "m"), ("青禾", "f"))]
    lead, said = "小满没有回家。青禾不肯吃饭。", "顾衡山说输给鲁公子不丢人。小满吃饭。"
    assert _edits_with(polarity, lead + said + "后来顾衡山说输给他的儿子不丢人。", "zh",
                       zh_people) == []
    assert "顾衡山说输给鲁公子丢人。" in _edits_with(polarity, lead + said, "zh", zh_people)
    found = "青禾发现母亲柳氏写的小字。小满吃饭。"
    assert _edits_with(relation, found + "他让青禾用母亲的法子。", "zh", zh_people) == []
    assert _edits_with(relation, found, "zh", zh_people)
    people = [_entity("Wren", gender="f"), _entity("Rafe", gender="m")]
    _refused_beside_control(event, people, "borrowed",
                            "Wren goes home. Her father had bought the three black boats for a "
                            "hundred and fifty crowns. Wren eats.",
                            "Wren goes home. Her father had bought the three black boats at the "
                            "auction. Wren eats.")


def test_a_verb_with_a_clause_of_what_was_said_stays_a_verb_of_saying():
    """Prose corpus, seed 5545: "she writes to Lovelace, that she will meet him the following
    Monday" -> "she visits Lovelace, that she will ...": no verb but one of saying takes a
    clause of what was said."""
    from longnovel.injection.generators.rules import event

    people = [_entity("Clarissa", gender="f"), _entity("Lovelace", gender="m")]
    _refused_beside_control(event, people, "visits Lovelace",
                            "Clarissa goes home. She writes to Lovelace, that she will meet him "
                            "the following Monday. Lovelace eats.",
                            "Clarissa goes home. She writes to Lovelace the following Monday. "
                            "Lovelace eats.")


@pytest.mark.parametrize("new,valid", [("three", False), ("five", True)])
def test_a_number_the_article_gives_where_the_sentence_rests_may_be_the_truth(new, valid):
    """Study corpus, seed 5646: "the two explorers" -> "the three explorers", where the book
    says "the three explorers": the writer's number was the mistake and the edit the truth.
    A number the article gives in the passage the original sentence rests on is rejected; one
    it does not give stays a valid numeric error."""
    original = "The team finds the wrecked cars where the two explorers died in the sand."
    article = ("Claney drove north at dawn with the whole team. They found the wrecked cars "
               "half buried in the sand, where the three explorers had died the year before.")
    row, rejected = _judged_against(article, "number", "quantity",
                                    "Claney drives north at dawn. " + original, original,
                                    original.replace("two", new))
    assert row["valid"] is valid, row["reject_reason"]
    assert (rejected == 2) is not valid


def test_zh_buying_on_credit_is_not_made_buying():
    """The sample, seed 5646: 赊 -> 买 (bought on credit -> bought) is still true."""
    from longnovel.injection.generators.rules import event

    people = [_entity(n, gender="m") for n in ("小满", "韩石")]
    made = _edits_with(event, "小满回家了。韩石在油行赊了两坛桐油。小满吃饭。", "zh", people)
    assert made and not any("买了两坛" in m for m in made), made


def test_a_turned_verb_its_unit_tells_again_of_the_same_person_stays():
    """Study corpus, seed 5545: "Macklin ... initially does not agree to take the treatment"
    -> "initially agrees", where the unit goes on "... Macklin finally agrees": the later
    sentence tells the verb again of the same person. Another person's same verb ("Ralph
    accepted the offer. Wren accepted the tea.") does not hold the edit."""
    from longnovel.injection.generators.rules import polarity

    people = [_entity("Macklin", gender="m"), _entity("Hannah", gender="f"),
              _entity("Lovelace", gender="m")]
    lead = "Hannah did not answer. Lovelace refuses to eat. "
    opening = "Macklin is skeptical and initially does not agree to take the treatment. "
    middle = "Hannah waits by the door. The doctor leaves the room. Hannah tries once more. "
    _refused_beside_control(polarity, people, "initially agrees",
                            lead + opening + middle + "Macklin finally agrees.",
                            lead + opening + middle + "Macklin finally sleeps.")


def test_an_invention_from_later_in_the_book_ends_even_a_long_summary():
    """Review of the window's-edge rule: the rules read a region of a long summary (over 40
    sentences), and the region's own last sentence had been taken for the window's, so the
    later event landed mid-summary again. It goes after the summary's last sentence."""
    people = [_entity(n, gender=g) for n, g in (("Wren", "f"), ("Orrin", "m"), ("Mabry", "f"))]
    people.append(_entity("Port Callow", "place"))
    acts = ["reads by the fire", "waits at the shop in the rain", "mends the tower clock",
            "rows the harbour boat out", "reads the tide tables aloud", "carries nets to the quay",
            "buys rope at the chandlery", "sweeps the clock room floor"]
    summary = " ".join(f"{('Wren', 'Orrin', 'Mabry')[k % 3]} {acts[k % 8]} on day {k}."
                       for k in range(60))
    donor = "Wren sails to Port Callow with the captain."
    placed = []
    for seed in range(6):
        for attempt in range(4):
            found = RulesGenerator(seed).generate(summary, "en", people, "fabrication", attempt,
                                                  outside=((False, donor),))
            if not isinstance(found, NotApplicable) and found.subtype == "continue":
                placed.append(found.summary.endswith(donor))
    assert placed and all(placed), placed


def test_reading_5747_no_pronoun_made_a_name_the_sentence_before_may_give_it():
    """Study corpus, seed 5747: "The man, who introduces himself as Alberta (Butt) Lee
    Brown, gives Ferdinand the nickname Ford. Eventually, he asks more about Evelyn" ->
    "Butt asks": the last man named before the pronoun is Ferdinand, but "he" is the man,
    Butt, whom the sentence before names too. No one that sentence names of the pronoun's
    gender (or of none known) is put in; one named further back still is."""
    from longnovel.injection.generators.rules import entity
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity("Ferdinand", gender="m"), _entity("Butt", gender="m"),
              _entity("Evelyn", gender="f"),
              _entity("Orrin", gender="m")]
    made = {e.hallucinated_span for e in entity.pronoun_edits(Draft(
        "Orrin and Evelyn board the ship. The man, called Butt, gives Ferdinand a nickname. "
        "Eventually, he asks more about Evelyn.", "en", people))}
    assert made == {"Eventually, Orrin asks more about Evelyn."}, made


def test_reading_5747_no_name_made_a_pronoun_where_the_next_sentence_names_them_again():
    """Study corpus, seed 5747: "Retief wonders aloud ..." -> "He wonders aloud ...", where
    the next sentence says "... none of Retief's concern": "He" reads as Retief, only
    vaguer. Without the next sentence naming him the pronoun is still made."""
    from longnovel.injection.generators.rules import entity
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity("Retief", gender="m"), _entity("Magnan", gender="m"),
              _entity("Lucie", gender="f")]
    lead = "Magnan meets Lucie at the port. Retief wonders aloud what the students will study. "
    assert [e.hallucinated_span for e in entity.named_as_pronoun_edits(Draft(
        lead + "Lucie says that this is none of Retief's concern.", "en", people))] == []
    assert [e.hallucinated_span for e in entity.named_as_pronoun_edits(Draft(
        lead + "Lucie says that this is none of her concern.", "en", people))] == [
        "He wonders aloud what the students will study."]


def test_reading_5747_an_earlier_event_goes_after_the_headings_that_open_a_summary():
    """Prose corpus, seed 5747: "LETTER XXVIII. Miss Howe expected to see ... From the
    same.--Miss Howe arrives.": the invention stood between a letter's number and its
    head. What the book told earlier goes after the first sentence that is no heading."""
    people = [_entity(n, gender=g) for n, g in (("Wren", "f"), ("Orrin", "m"))]
    people.append(_entity("Gull Point", "place"))
    summary = ("LETTER XXVIII. From the same.--Wren arrives at the tower. Orrin receives her. "
               "Orrin mends the clock in the evening.")
    donor = "Wren rows out to Gull Point with her uncle."
    placed = []
    for seed in range(6):
        for attempt in range(4):
            found = RulesGenerator(seed).generate(summary, "en", people, "fabrication", attempt,
                                                  outside=((True, donor),))
            if not isinstance(found, NotApplicable) and found.subtype == "repeat":
                placed.append(found.summary.startswith(
                    "LETTER XXVIII. From the same.--Wren arrives at the tower. " + donor))
    assert placed and all(placed), placed


def test_reading_5747_no_titled_name_put_in_after_a_title():
    """Prose corpus, at the code of seed 5747's fixes: "a meeting between him and Mr.
    Morden" -> "Mr. Mr. Belford": a stand-in that brings its own title after the title of
    the name it replaces. A stand-in without the title is still put in."""
    from longnovel.injection.generators.rules import entity
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity(n, gender="m") for n in ("Morden", "Mr. Belford", "Lord M", "Lovelace")]
    made = [e.hallucinated_span for e in entity.mismatch_edits(Draft(
        "Mr. Belford to Lord M.--Has had a visit from Lovelace. Wishes him to prevent a "
        "meeting between him and Mr. Morden.", "en", people))
            if e.hallucinated_span.startswith("Wishes")]
    assert made == ["Wishes him to prevent a meeting between him and Mr. Lovelace."], made


def test_reading_5747_no_turn_anywhere_in_a_clause_however_opens():
    """Study corpus, seed 5747: "hopeful that the girl will realize her mistake; however, he
    concludes that the transmitter's speed would not be fast enough" -> "would be fast
    enough": the "however" sets nothing against the clause before. A negation in a clause
    without it is still taken out."""
    from longnovel.injection.generators.rules import polarity

    people = [_entity("Star", gender="m"), _entity("Hannah", gender="f"),
              _entity("Lovelace", gender="m")]
    lead = "Hannah did not answer. Lovelace refuses to eat. Star hopes the girl will see her "
    end = "he concludes that the speed would not be fast enough for the message. Hannah leaves."
    _refused_beside_control(polarity, people, "would be fast",
                            lead + "mistake; however, " + end, lead + "mistake, and " + end)


def test_reading_5747_no_outcome_turned_that_the_sentence_still_grants_against():
    """Sample, seed 5747: "The Warden-Mayor accepted it, but the Assembly would still hear
    his case" -> "refused it, but ... still": the "but ... still" grants in spite of an
    acceptance. Without it the outcome is still turned."""
    from longnovel.injection.generators.rules import event

    people = [_entity("Orrin", gender="m"), _entity("Hannah", gender="f")]
    lead = "Orrin wrote a letter of apology to the Warden-Mayor. Hannah accepted it, "
    _refused_beside_control(event, people, "Hannah refused it",
                            lead + "but the Assembly would still hear his case.",
                            lead + "and the Assembly would hear his case.")
    # 但……还是 in Chinese (whether other checks would also refuse these sentences, the
    # concession alone decides here)
    from longnovel.injection.generators.rules.draft import Draft

    people = [_entity(n, gender="m") for n in ("小满", "顾衡山")]
    for rest, conceded in (("但小满还是要去。", True), ("小满很高兴。", False)):
        draft = Draft("小满回家了。顾衡山答应了，" + rest, "zh", people)
        edit = draft.replace_sentence(1, "顾衡山拒绝了，" + rest, "outcome")
        assert event._conceded_after(draft, edit) is conceded, rest


def test_reading_5747_no_verb_changed_whose_place_the_sentence_goes_on_in():
    """Study corpus, seed 5747: "she visits an office, where she is questioned" -> "avoids
    an office, where she is questioned": what happened there says she went."""
    from longnovel.injection.generators.rules import event

    people = [_entity("Hannah", gender="f"), _entity("Orrin", gender="m")]
    lead = "Orrin waits at the gate. After a long walk, Hannah visits an office"
    _refused_beside_control(event, people, "Hannah avoids",
                            lead + ", where she is questioned and sent to Perat.",
                            lead + " and is sent to Perat.")


def test_reading_5747_no_knowledge_claimed_that_the_summary_never_gives():
    """Sample, seed 5747: 小满不知道那人是谁 -> 小满知道那人是谁 (who, then?), "a board boat
    he would not name" -> "he would name": affirmed, the sentence claims a knowledge or a
    telling whose content the summary never gives. A negation of knowing something named is
    still taken out."""
    from longnovel.injection.generators.rules import polarity

    people = [_entity(n, gender=g) for n, g in (("Wren", "f"), ("Hannah", "f"),
                                                ("Lovelace", "m"))]
    lead = "Hannah did not answer. Lovelace refuses to eat. "
    _refused_beside_control(polarity, people, "Wren knew",
                            lead + "Wren did not know who had taken the key.",
                            lead + "Wren did not know the man at the door.")
    # in Chinese, from the negation on: 不知道那人是谁 leaves "who" untold, 不知道这件事 not
    assert polarity._UNKNOWN_LEFT[True].search("不知道那人是谁。")
    assert not polarity._UNKNOWN_LEFT[True].search("不知道这件事。")


def test_reading_5747_a_woman_named_by_surname_and_shi_stays_a_wife():
    """Sample, seed 5747: 他让妻子冯氏取来父亲的遗物 -> 表妹冯氏: a woman named by her
    family's surname and 氏 is someone's wife; the other kin word of the sentence still
    changes, and a sister named otherwise does."""
    from longnovel.injection.generators.rules import relation

    people = [_entity("柴文焕", gender="m"), _entity("冯氏", gender="f"),
              _entity("小满", gender="m")]
    made = _edits_with(relation, "小满回家了。柴文焕让妻子冯氏取来父亲的遗物。小满吃饭。", "zh",
                       people)
    assert made and not any("冯氏" in m and "妻子" not in m for m in made), made
    made = _edits_with(relation, "小满回家了。柴文焕让妹妹取来父亲的遗物。小满吃饭。", "zh",
                       people)
    assert any("表妹取来" in m or "堂妹取来" in m for m in made), made


def test_reading_5747_no_denial_of_a_list_turned_alone():
    """Sample, seed 5747: 顾衡山定下三条规矩：不许进后院的谱房；……不许碰胶和料；不许乱打听 ->
    允许乱打听: one of a list of denials turned reads against the list. A denial alone in its
    sentence is still turned."""
    from longnovel.injection.generators.rules import polarity

    made = _module_edits(polarity, "顾衡山定下三条规矩：不许进后院的谱房；半年内不许碰胶和料；"
                                   "不许乱打听。小满回到了墨坊。青禾没有去临川府。", "zh",
                         ("顾衡山", "小满", "青禾"))
    assert not any("允许" in m for m in made), made
    # one added to another by 还 (拒绝回答，还不许他再提), a minimizer (一点没变); a negation
    # alone in its clause is no part of a list
    for sentence, negation, parallel in (("师父拒绝回答，还不许他再提。", "不许", True),
                                         ("柳烟墨的字一点没变。", "没", True),
                                         ("师父不许他再提。", "不许", False)):
        start = sentence.index(negation)
        assert polarity._parallel_negation(sentence, start, start + len(negation), True) \
            is parallel, sentence
    people = [_entity(n, gender=g) for n, g in (("Hannah", "f"), ("Lovelace", "m"),
                                                ("Wren", "f"))]
    lead = "Hannah did not answer. Lovelace refuses to eat. "
    made = _edits_with(polarity, lead + "Wren is not a doctor and works as a lawyer.", "en",
                       people)
    assert "Wren is a doctor and works as a lawyer." in made, made


def test_reading_5747_no_name_swapped_that_the_next_sentence_says_again():
    """Study and sample, seed 5747: "uses the bagpipes to alert the attention of Sparks" ->
    "of Roberts", the next sentence "He is successful in getting the attention of Sparks";
    "keep her mouth shut at the Guildhall" -> "at the Harbour Tower", the hearing "began at
    the Guildhall" two sentences on. A name the neighbours write otherwise is still swapped."""

    people = [_entity(n, gender="m") for n in ("Isobar", "Sparks", "Roberts")]
    lead = "Roberts and Isobar climb a tree. Isobar plays to alert the attention of Sparks. "
    _mismatch_refused_beside_control(
        people, "attention of Roberts",
        lead + "He is successful in getting the attention of Sparks.",
        lead + "He is successful, and Sparks comes with a tank.")
    places = [_entity("Wren", gender="f"), _entity("Orrin", gender="m"),
              _entity("Guildhall", "place"), _entity("Harbour Tower", "place")]
    lead = "Orrin left the Harbour Tower. Orrin told Wren to keep quiet at the Guildhall. "
    _mismatch_refused_beside_control(places, "quiet at the Harbour Tower",
                                     lead + "Wren slept. The hearing began at the Guildhall.",
                                     lead + "Wren slept. The hearing began at noon.")


def _mismatch_refused_beside_control(people, words: str, refused: str, control: str) -> None:
    """``_refused_beside_control`` for the entity rule's name and place swaps."""
    from longnovel.injection.generators.rules import entity
    from longnovel.injection.generators.rules.draft import Draft

    made = [e.hallucinated_span for e in entity.mismatch_edits(Draft(refused, "en", people))]
    assert not any(words in m for m in made), made
    made = [e.hallucinated_span for e in entity.mismatch_edits(Draft(control, "en", people))]
    assert any(words in m for m in made), made


def test_no_place_swapped_whose_aside_says_where_it_lies():
    """Study corpus, rows of seed 5747's code: "The crime is in Canarsie, in southeast
    Brooklyn" -> "in Manhattan, in southeast Brooklyn": the aside says where the place lies.
    Without the aside the place is still swapped."""

    places = [_entity("Canarsie", "place"), _entity("Manhattan", "place"),
              _entity("Brooklyn", "place"), _entity("Hank", gender="m")]
    lead = "Hank drives to Manhattan at noon. The crime is in "
    _mismatch_refused_beside_control(places, "crime is in Manhattan",
                                     lead + "Canarsie, in southeast Brooklyn.",
                                     lead + "Canarsie at night.")


def test_readings_5747_5848_no_timeline_swap_in_a_list_of_a_letters_topics():
    """Prose corpus, seeds 5747 and 5848: every timeline swap of Clarissa's contents ("His
    pride a dirty low pride. Will try if she will not yield to nightly surprises. A
    lion-hearted lady where her honour is concerned.") was misread: a letter's topics have
    no order in time. A summary whose sentences mostly tell events is still swapped."""
    topics = ("LETTER XX. Lovelace to Belford. His pride a dirty low pride. A lion-hearted "
              "lady where her honour is concerned. Women's pockets ballast-bags.")
    assert not _swapped("Belford visits the lady in the morning.",
                        "Hannah brings the letters at noon.", after=" " + topics)
    assert _swapped("Belford visits the lady in the morning.",
                    "Hannah brings the letters at noon.", after=" Lovelace leaves for town.")


@pytest.mark.parametrize("told,quoted", [
    ("Her answer was plain: she could not bring herself to consent to the marriage.", True),
    ("Her answer was plain: she cannot tell how it is now between her and the marriage.", False),
])
def test_reading_5848_a_negation_is_quoted_only_with_the_verb_it_denied(told, quoted):
    """Prose corpus, seed 5848: "How it is now ... I cannot tell" was quoted as the
    article's word against "can bring herself to consent": a passage with another negation.
    The passage quoted against a negation taken out holds the denied verb too, else the
    reason cites the reference summary."""
    original = "Hannah cannot bring herself to consent to the marriage."
    article = ("Hannah wrote to her mother at length. " + told + " The letter went by the "
               "evening post.")
    row, _ = _judged_against(article, "polarity", "affirm", "Belford waits. " + original,
                             original, original.replace("cannot", "can"))
    assert row["valid"], row["reject_reason"]
    assert bool(row["evidence"]) is quoted, row["reason"]
