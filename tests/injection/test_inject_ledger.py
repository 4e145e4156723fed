"""The ledger (``generators/rules/ledger.py``): what an edit does to a summary's n-gram
vector, counted exactly, and the running sums the rules balance against."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from longnovel.injection.generators.rules.draft import Draft
from longnovel.injection.generators.rules.generator import RulesGenerator, restyled
from longnovel.injection.generators.rules.ledger import (
    LENGTH,
    LENGTH_WEIGHT,
    MAX_N,
    MIN_N,
    NORM_PER_CHAR,
    Counts,
    Ledger,
    change,
)
from longnovel.injection.validate import validate

PEOPLE = [{"name": n, "type": "person", "count": 3} for n in ("Wren", "Jory", "Kit", "Mira")]


def all_grams(text: str) -> Counter:
    return Counter(text[i : i + n] for n in range(MIN_N, MAX_N + 1)
                   for i in range(len(text) - n + 1))


def sublinear(count: int) -> float:
    return 1 + math.log(count) if count else 0.0


def expected_change(summary: str, start: int, end: int, text: str) -> dict[str, float]:
    """The change by brute force: both whole summaries' n-grams counted."""
    before, after = all_grams(summary), all_grams(summary[:start] + text + summary[end:])
    norm2 = NORM_PER_CHAR * max(len(summary), 1)
    out, grown = {}, 0.0
    for gram in before.keys() | after.keys():
        if before[gram] != after[gram]:
            b, a = sublinear(before[gram]), sublinear(after[gram])
            out[gram] = (a - b) / math.sqrt(norm2)
            grown += a * a - b * b
    out[LENGTH] = LENGTH_WEIGHT * grown / (2 * norm2)
    return out


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab .", min_size=1, max_size=40), st.data())
def test_change_is_the_exact_difference_of_the_two_summaries(summary, data):
    start = data.draw(st.integers(0, len(summary)))
    end = data.draw(st.integers(start, len(summary)))
    text = data.draw(st.text(alphabet="ab .", max_size=12))
    got = change(Counts(summary), start, end, text)
    want = expected_change(summary, start, end, text)
    assert set(got) == set(want)
    for gram, value in want.items():
        assert got[gram] == pytest.approx(value, abs=1e-12), gram


def test_change_is_exact_for_counts_past_the_table_of_logarithms():
    summary = "a" * 5000 + " b. c"  # "a" is counted 5,000 times, past the cached values
    for start, end, text in ((10, 10, "a"), (10, 14, ""), (5001, 5002, "aa")):
        got, want = change(Counts(summary), start, end, text), expected_change(
            summary, start, end, text)
        assert set(got) == set(want)
        for gram, value in want.items():
            assert got[gram] == pytest.approx(value, abs=1e-12), gram


def test_counts_are_overlapping_counts():
    summary = "aaaa abab aaa baaab"
    counts = Counts(summary)
    grams = all_grams(summary)
    assert counts["aaa"] == 4 and counts["abab"] == 1 and counts["zzz"] == 0
    assert all(counts[g] == n for g, n in grams.items())


def test_an_added_sentence_lengthens_and_a_taken_word_shortens():
    summary = "Wren walks to the shop. Jory sells the clocks."
    added = change(Counts(summary), 23, 23, " Kit waits at the door.")
    taken = change(Counts(summary), 10, 23, " the shop.")
    assert added[LENGTH] > 0 > taken[LENGTH]


def test_cost_is_how_much_farther_from_zero_the_sums_get():
    ledger = Ledger()
    key = ("book", "en", "event")
    assert not ledger.holds(key)
    ledger.record(key, {"x": 2.0, "y": -1.0})
    assert ledger.holds(key) and not ledger.holds(("other", "en", "event"))  # per book
    delta = {"x": -1.0, "z": 1.0}
    # |S + d|^2 - |S|^2 for the book's sums
    one = (1.0 + 1.0 + 1.0) - (4.0 + 1.0)
    assert ledger.cost(key, delta) == pytest.approx(one)
    assert ledger.cost(key, delta) < 0  # it undoes part of what was recorded
    ledger.record(key, {"x": 2.0, "y": -1.0}, sign=-1)
    assert all(v == 0 for sums in ledger.sums.values() for v in sums.values())


def test_a_withdrawn_candidate_leaves_no_trace():
    generator = RulesGenerator(13)
    kept = generator.generate("Wren accepted the offer.", "en", PEOPLE, "event", 0)
    sums = {k: dict(v) for k, v in generator.ledger.sums.items()}
    dropped = generator.generate("Kit accepted the tea.", "en", PEOPLE, "event", 0)
    generator.withdraw(dropped)
    generator.withdraw(dropped)  # twice is once
    assert validate(kept, "en") is None
    for key, values in sums.items():
        for gram, value in generator.ledger.sums[key].items():
            assert value == pytest.approx(values.get(gram, 0.0), abs=1e-12), (key, gram)


def test_polarity_counts_are_withdrawn_too():
    generator = RulesGenerator(13)
    summary = "Wren could see the bell. Jory did not say anything."
    out = generator.generate(summary, "en", PEOPLE, "polarity", 0)
    assert out.subtype == "negate"
    assert generator.subtype_counts[("", "en", "polarity")]["negate"] == 1
    generator.withdraw(out)
    assert generator.subtype_counts[("", "en", "polarity")]["negate"] == 0


def test_a_sentence_added_after_a_heading_keeps_the_writers_case():
    """Richardson's contents put "LETTER LII." before each entry: a sentence added after such
    a heading was written in capitals ("LOVELACE TO BELFORD.--CURSES HIS UNCLE ..."), which
    the audit read as "TO", "OR"."""
    summary = "LETTER LII. Lovelace to Belford. Curses his uncle."
    draft = Draft(summary, "en", PEOPLE)
    edit = draft.insert_after(0, "Lovelace curses his uncle.", "repeat")
    assert restyled(draft, edit).text == " Lovelace curses his uncle."
    headings = Draft("CHAPTER ONE. OLIVER WALKS TO LONDON. HE MEETS THE DODGER.", "en", PEOPLE)
    edit = headings.insert_after(1, "Oliver walks to London.", "repeat")
    assert restyled(headings, edit).text == " OLIVER WALKS TO LONDON."
