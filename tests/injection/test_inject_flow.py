"""The rules keep the run's ledger even (``generators/rules/ledger.py``): what edits bring into the
summaries is, over a run, also taken out where the summaries offer it, so an article-free
classifier cannot learn it as the sign of an injected summary."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from longnovel.injection.candidate import NotApplicable
from longnovel.injection.generators.rules import event
from longnovel.injection.generators.rules.choice import seeded_choice
from longnovel.injection.generators.rules.draft import Draft
from longnovel.injection.generators.rules.generator import RulesGenerator
from longnovel.injection.nlp.text import word_change
from longnovel.injection.validate import validate

NAMES = ("Ralph", "Wren", "Jory", "Mira", "Orrin", "Tess", "Bram", "Kit", "Lena", "Hugo")
PEOPLE = [{"name": n, "type": "person", "count": 3} for n in NAMES]


@pytest.mark.parametrize("old,new,zh,removed,added", [
    ("Ralph accepted the gift.", "Ralph declined the gift.", False, ["accepted"], ["declined"]),
    ("he went home", "he never went home", False, [], ["never"]),
    ("he did not go", "he did go", False, ["not"], []),
    ("his sister Rosalind", "his half-sister Rosalind", False, ["sister"], ["half-sister"]),
    ("Jory won't go.", "Jory will go.", False, ["won't"], ["will"]),
    ("他拒绝了", "他回绝了", True, ["拒绝"], ["回绝"]),
    ("他答应了", "他拒绝了", True, ["答应"], ["拒绝"]),
    ("他去了", "他没有去了", True, [], ["没有"]),
])
def test_changed_words_are_whole_words(old, new, zh, removed, added):
    assert word_change(old, new, zh) == (removed, added)


def test_own_words_are_found_when_the_words_share_an_ending():
    """accepted -> declined changes the letters "accept" -> "declin": the writer's own word is
    "declined", and the writer's words are the stand-ins offered (it was missed, so the
    lexicon's rejected and refused came too)."""
    draft = Draft("Mira declined the tea. Orrin accepted the offer.", "en", PEOPLE)
    assert sorted(e.text for e in event.edits(draft)) == [
        "Mira accepted the tea.", "Orrin declined the offer."]


def test_replacements_take_turns_instead_of_one_word_winning():
    generator = RulesGenerator(13)
    made = [generator.generate(f"{n} accepted the offer.", "en", PEOPLE, "event", 0)
            for n in NAMES[:9]]
    words = Counter(word_change(c.original_span, c.hallucinated_span, False)[1][0]
                    for c in made)
    assert sorted(words) == ["declined", "refused", "rejected"]
    assert max(words.values()) - min(words.values()) <= 2, words


def test_a_word_brought_in_before_is_taken_out_where_the_summary_offers_it():
    generator = RulesGenerator(13)
    for name in NAMES[:6]:
        generator.generate(f"{name} accepted the offer.", "en", PEOPLE, "event", 0)
    # both ways are open here: accepted -> (something), or refused -> accepted
    for seed_text in ("Kit refused the tea. Lena accepted the offer.",
                      "Lena accepted the offer. Kit refused the tea."):
        candidate = RulesGenerator(13)
        candidate.ledger = copy.deepcopy(generator.ledger)
        out = candidate.generate(seed_text, "en", PEOPLE, "event", 0)
        assert out.hallucinated_span == "Kit accepted the tea.", seed_text


def test_the_ledger_is_kept_per_book_language_and_type():
    """Nothing crosses books: each book's sums alone (so books run apart give the same rows)."""
    generator = RulesGenerator(13)
    generator.generate("Ralph accepted the offer.", "en", PEOPLE, "event", 0, book="a")
    generator.generate("Ralph could see the bell. Wren did not say anything.", "en", PEOPLE,
                       "polarity", 0, book="b")
    assert set(generator.ledger.sums) == {("a", "en", "event"), ("b", "en", "polarity")}
    assert generator.ledger.sums[("b", "en", "polarity")][" not"] > 0
    assert generator.ledger.sums[("a", "en", "event")]["acce"] < 0  # "accepted" taken out
    assert set(generator.subtype_counts) == {("b", "en", "polarity")}


def test_one_books_edits_never_steer_another_book():
    generator = RulesGenerator(13)
    for name in NAMES[:6]:
        generator.generate(f"{name} accepted the offer.", "en", PEOPLE, "event", 0, book="a")
    delta = {"x": 1.0}
    generator.ledger.sums[("a", "en", "event")]["x"] = 5.0
    assert generator.ledger.cost(("b", "en", "event"), delta) == pytest.approx(1.0)
    assert generator.ledger.cost(("a", "en", "event"), delta) == pytest.approx(1.0 + 2 * 5.0)


def test_a_retry_is_never_the_candidate_already_tried():
    """The flow moves between attempts, so the attempt's index alone could lead back to the
    same place: the candidates tried are passed back and not offered again."""
    summary = "Ralph accepted the offer. Wren accepted the tea."
    generator = RulesGenerator(13)
    tried: list[str] = []
    for attempt in range(6):
        out = generator.generate(summary, "en", PEOPLE, "event", attempt, tried)
        assert not isinstance(out, NotApplicable)
        assert validate(out, "en") is None
        assert out.summary not in tried, attempt
        tried.append(out.summary)
    assert len(set(tried)) == 6  # two places, three stand-ins each: every one in turn


def test_seeded_choice_ranks_every_subtypes_places_then_the_attempts_subtype():
    class Option:
        def __init__(self, subtype, cost):
            self.subtype, self.cost = subtype, cost

    options = [Option("a", c) for c in (5, 3, 4)] + [Option("b", c) for c in (1, 2)]
    assert seeded_choice(options, 13, "event", "text", 0, rank=lambda o: o.cost).cost == 1
    avoided = seeded_choice(options, 13, "event", "text", 0, rank=lambda o: o.cost,
                            avoid=lambda o: o.subtype == "b")
    assert avoided.cost == 3  # the best place of the sub-type left
    # a later attempt takes its own sub-type's best place: every sub-type in turn
    later = {seeded_choice(options, 13, "event", "text", k, rank=lambda o: o.cost).cost
             for k in (1, 2)}
    assert later == {1, 3}
    only_a = [o for o in options if o.subtype == "a"]
    assert seeded_choice(only_a, 13, "event", "text", 0, rank=lambda o: o.cost,
                         avoid=lambda o: o.cost == 3).cost == 4
    everything = seeded_choice(only_a, 13, "event", "text", 0, rank=lambda o: o.cost,
                               avoid=lambda o: True)
    assert everything.subtype == "a"  # all avoided: a repeat, never nothing


def test_the_stage_passes_its_tried_candidates_back(monkeypatch):
    """Engine.run gives the rules each job's earlier candidates, so a rejected job's retries
    are new candidates (the validator is made to reject every one here)."""
    from longnovel.injection import engine as eng

    seen: list[tuple[str, ...]] = []

    class Spy(RulesGenerator):
        def generate(self, summary, language, entities, type_id, attempt=0, tried=(),
                     book="", outside=(), unit_starts=None):
            seen.append(tuple(tried))
            return super().generate(summary, language, entities, type_id, attempt, tried,
                                    book, outside, unit_starts)

    class inject:  # the config's inject section
        generator, verify, max_retries = "rules", None, 2

    monkeypatch.setattr(eng, "reject_reason", lambda outcome, language: "forced")
    engine = eng.Engine(inject, 13, {"w": PEOPLE}, None)
    engine.rules = Spy(13)
    window = {"window_id": "w", "tier": "S", "language": "en", "book_id": "b",
              "reference_summary": "Ralph accepted the offer. Wren accepted the tea."}
    rows = engine.run([(window, "event")])
    assert rows[0]["valid"] is False and rows[0]["reject_reason"] == "forced"
    assert [len(t) for t in seen] == [0, 1, 2]
    # every rejected candidate is counted by type and reason (the manifest's
    # rejected_candidates), not only the last one
    assert engine.rejected["event"] == {"forced": 3}
    assert len(set(seen[2])) == 2  # the two earlier candidates, different from each other
    # and every rejected candidate was taken back out of the ledger
    assert all(abs(v) < 1e-12 for sums in engine.rules.ledger.sums.values()
               for v in sums.values())


def test_numbers_brought_in_follow_the_numbers_taken_out():
    """One stand-in per number ("eleven Miss Montagues", "her ten uncles") was what the
    classifier read on real synopses: several are offered, near the original, they take
    turns, and a number brought in before is taken out where a summary has it."""
    from longnovel.injection.generators.rules import number

    draft = Draft("Wren found two keys.", "en", PEOPLE)
    assert sorted(e.text for e in number.edits(draft)) == [
        "Wren found five keys.", "Wren found four keys.", "Wren found three keys."]
    generator = RulesGenerator(13)
    made = [generator.generate(f"{n} found two keys.", "en", PEOPLE, "number", 0)
            for n in NAMES[:6]]
    added = Counter(word_change(c.original_span, c.hallucinated_span, False)[1][0]
                    for c in made)
    assert set(added) == {"three", "four", "five"}
    out = generator.generate("Kit found three keys.", "en", PEOPLE, "number", 0)
    assert word_change(out.original_span, out.hallucinated_span, False) == (["three"], ["two"])


def test_event_stand_ins_are_words_the_books_summaries_use():
    """"married" -> "jilted", "dies" -> "survives", "arrives" -> "fails to arrive" were what
    the audit read on real synopses, whose writers never use those words: where a book's
    summaries are known well enough, a stand-in is a word one of them uses."""
    from longnovel.injection.nlp.text import Vocabulary

    # enough distinct words to judge the writer by
    filler = " ".join("w" + a + b for a in "abcdefghijklmnopqrst" for b in "abcdefghijklmnopqrst")
    book = Vocabulary(zh=False)
    book.add(f"Wren rejected the bread. {filler}")
    generator = RulesGenerator(13)
    generator.vocabularies = {"b": book}
    made = {generator.generate("Kit accepted the offer.", "en", PEOPLE, "event", k, book="b")
            .hallucinated_span for k in range(4)}
    assert made == {"Kit rejected the offer."}
    small = Vocabulary(zh=False)
    small.add("Wren rejected the bread.")  # too little of the writer to judge: every stand-in
    assert not small.enough
    generator.vocabularies = {"b": small}
    made = {generator.generate("Kit accepted the offer.", "en", PEOPLE, "event", k, book="b")
            .hallucinated_span for k in range(6)}
    assert {"Kit declined the offer.", "Kit refused the offer."} <= made
    nothing = Vocabulary(zh=False)
    nothing.add(filler)
    generator.vocabularies = {"b": nothing}
    out = generator.generate("Kit accepted the offer.", "en", PEOPLE, "event", 0, book="b")
    assert isinstance(out, NotApplicable)


def test_the_stage_reads_each_books_vocabulary_from_its_unit_summaries():
    import pyarrow as pa

    from longnovel.injection.engine import book_parts, book_vocabularies

    units = pa.table({"book_id": ["a", "a", "z", "other"], "unit_index": [0, 1, 0, 0],
                      "language": ["en", "en", "zh", "en"],
                      "summary": ["Wren rejected it.", "Kit sold a lamp.", "青禾回绝了。",
                                  "Nobody reads this."]})
    windows = [{"book_id": "a"}, {"book_id": "z"}]
    found, summaries = book_vocabularies(units.to_batches(max_chunksize=2), windows)
    assert set(found) == {"a", "z"} == set(summaries)
    assert "rejected" in found["a"] and "lamp" in found["a"] and "nobody" not in found["a"]
    assert "回绝" in found["z"] and "答应" not in found["z"]
    # the rest of the book, outside a window, is where invented content comes from
    window = {"book_id": "a", "unit_start": 1, "unit_end": 1}
    assert book_parts(window, summaries)[0] == ((True, "Wren rejected it."),)


def test_a_changed_count_is_lowered_about_as_often_as_raised():
    # Drawn evenly from a window above a small count, edits raised counts more often than
    # they lowered them ("two" -> "five"), and "two" read as the original's word.
    from longnovel.injection.generators.rules.number import changed_value

    rng = random.Random(7)
    drawn = Counter(changed_value(3, rng) for _ in range(2000))
    assert drawn[2] > drawn[4] > drawn[5] > drawn[6]
    assert 0.4 < sum(n for v, n in drawn.items() if v < 3) / 2000 < 0.7


def test_a_count_is_lowered_where_a_summary_offers_one():
    # "two" can only be raised: the rules lower a larger count where a summary has one
    generator = RulesGenerator(13)
    made = {generator.generate("Wren found two keys. Orrin met six men at the inn.", "en",
                               PEOPLE, "number", attempt).hallucinated_span
            for attempt in range(4)}
    assert made and all("men" in span and "six" not in span for span in made), made


def _relation_flow(book: str, summaries: list[str]) -> Counter:
    """(word taken out, word put in) -> times, over every relation edit the rule offers in
    ``summaries``, the book's summaries writing ``book``."""
    from longnovel.injection.generators.rules import relation
    from longnovel.injection.nlp.text import Vocabulary

    vocabulary = Vocabulary(zh=False)
    vocabulary.add(book)
    flow = Counter()
    for summary in summaries:
        for edit in relation.edits(Draft(summary, "en", PEOPLE, vocabulary=vocabulary)):
            removed, added = word_change(edit.original_span, edit.hallucinated_span, False)
            flow[" ".join(removed), " ".join(added)] += 1
    return flow


def test_a_relation_word_the_writer_rarely_writes_comes_in_about_as_often_as_it_goes_out():
    """The writer writes "cousin" nine times for each "friend", and the summaries offer them
    in that proportion. Every "friend" may become a "cousin"; were every "cousin" to become a
    "friend" as freely, "friend" would come in nine times as often as it goes out, and mean
    "injected". A "cousin" -> "friend" edit is kept about one time in nine."""
    book = " ".join(["Her cousin Tess came."] * 9 + ["His friend Bram left."])
    pairs = [(NAMES[i % 10], NAMES[(i + 1) % 10]) for i in range(200)]
    summaries = [f"{a} sailed{' ' * (i % 7 + 1)}north on day {i}. "
                 f"{a}'s {'friend' if i % 10 == 0 else 'cousin'} {b} waved."
                 for i, (a, b) in enumerate(pairs)]
    flow = _relation_flow(book, summaries)
    assert flow["friend", "cousin"] == 20  # all kept
    assert 0.5 <= flow["cousin", "friend"] / flow["friend", "cousin"] <= 2.0


def test_a_title_is_no_use_of_a_relation_word():
    """"Aunt Mabry" is a name: the writer who writes it twenty times has written "aunt" as
    a relation no time at all."""
    from longnovel.injection.nlp.text import Vocabulary

    vocabulary = Vocabulary(zh=False)
    vocabulary.add("Aunt Mabry sold the boat. Aunt Mabry left. Her aunt was ill. Aunt Mabry "
                   "came.")
    assert "aunt" in vocabulary
    assert vocabulary.count("aunt") == 1
    zh = Vocabulary(zh=True)
    zh.add("舅舅来了。他的舅舅走了。")
    assert zh.count("舅舅") == 2


def test_sub_types_are_balanced_over_a_tiers_books():
    """The prose corpus: each book kept negate and affirm within two of each other, but over
    books that offer almost nothing to affirm, 11 negations stood against 1 affirmation. The
    rows of a tier's books are balanced together; the surplus, chosen by window, is rejected
    with its reason, the same whatever order the books came in."""
    from longnovel.injection.generators.rules.generator import (
        BALANCE_REASON,
        balanced_across_books,
        held_back,
    )

    rows = [{"window_id": f"T8:b{k}:1-1", "language": "en", "type": "polarity",
             "subtype": "negate", "valid": True, "reject_reason": "", "reason": "r",
             "evidence": "e", "evidence_start": 0, "evidence_end": 1} for k in range(6)]
    rows.append({**rows[0], "window_id": "T8:b9:1-1", "subtype": "affirm"})
    rows.append({**rows[0], "window_id": "T8:zh:1-1", "language": "zh"})
    other = {**rows[0], "type": "entity", "subtype": "mismatch"}
    now, later = held_back(rows + [other, {**rows[1], "valid": False}])
    assert now == [other, {**rows[1], "valid": False}] and later == rows
    out, dropped = balanced_across_books(later)
    kept = [r for r in out if r["valid"]]
    assert dropped == {"polarity": 3}
    assert sorted(r["subtype"] for r in kept if r["language"] == "en") == ["affirm"] + [
        "negate"] * 3
    assert [r["window_id"] for r in kept if r["language"] == "zh"] == ["T8:zh:1-1"]
    assert all(r["reject_reason"].startswith(BALANCE_REASON) and r["evidence"] == ""
               for r in out if not r["valid"])
    again, _ = balanced_across_books(list(reversed(later)))
    assert {r["window_id"] for r in again if r["valid"]} == {r["window_id"] for r in kept}


def test_pronoun_edits_are_balanced_by_way_over_a_tiers_books():
    """The prose corpus: 24 of 26 pronoun edits made a pronoun a name (the other way needs a
    gender the text shows), so the summary with one pronoun fewer was the injected one. The
    two ways are balanced over a tier's books like negate and affirm; other entity edits are
    not held."""
    from longnovel.injection.generators.rules.generator import (
        balanced_across_books,
        direction,
        held_back,
    )

    def row(k: int, old: str, new: str, subtype: str = "pronoun") -> dict:
        return {"window_id": f"T8:b{k}:1-1", "language": "en", "type": "entity",
                "subtype": subtype, "valid": True, "reject_reason": "", "reason": "r",
                "evidence": "e", "evidence_start": 0, "evidence_end": 1,
                "original_span": old, "hallucinated_span": new}

    to_name = [row(k, "He calls a council.", "Achilles calls a council.") for k in range(5)]
    to_pronoun = [row(9, "Achilles calls a council.", "He calls a council.")]
    swap = row(8, "Achilles calls Nestor.", "Nestor calls Achilles.", "role_swap")
    assert [direction(r) for r in (to_name[0], to_pronoun[0], swap)] == [
        "to_name", "to_pronoun", None]
    now, later = held_back(to_name + to_pronoun + [swap])
    assert now == [swap] and later == to_name + to_pronoun
    out, dropped = balanced_across_books(later)
    assert dropped == {"entity": 2}
    assert sum(r["valid"] for r in out if direction(r) == "to_name") == 3
