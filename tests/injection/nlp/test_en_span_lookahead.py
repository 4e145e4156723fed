"""``en.entities._EN_SPAN`` opens with a lookahead for the capital letters a span can start
with: it must find the spans the pattern without it finds, on any text."""

from __future__ import annotations

import random
import re

from longnovel.injection.nlp.en import entities as en


def _without_lookahead() -> re.Pattern:
    pattern = en._EN_SPAN.pattern
    lookahead = f"(?=[{re.escape(en._SPAN_FIRST)}])"
    assert pattern.startswith(lookahead)
    return re.compile(pattern[len(lookahead) :])


def _spans(pattern: re.Pattern, text: str, start: int = 0, end: int | None = None):
    return [m.span() for m in pattern.finditer(text, start, len(text) if end is None else end)]


def test_every_honorific_starts_with_a_letter_of_the_lookahead():
    assert all(h[0] in en._SPAN_FIRST for h in en.HONORIFICS)


def test_known_text():
    text = ("Capt.   Had went to Port Callow with Mr. Vale and McGill. O'Brien's aunt, "
            "Señora Doña Ruiz, met Herr\n   Weber of Dunmore and the Duke of York's men.")
    plain = _without_lookahead()
    assert _spans(en._EN_SPAN, text) == _spans(plain, text)
    assert [m.group() for m in en._EN_SPAN.finditer(text)][:4] == [
        "Capt", "Had", "Port Callow", "Mr. Vale"]


def test_random_texts_give_the_same_spans():
    rng = random.Random(3)
    plain = _without_lookahead()
    pieces = ["Mr.", "Mrs", "Capt.", "Señora", "Doña", "Herr", "Vale", "McGill", "O'Brien",
              "Port", "of", "de", "van", "the", "ran", "Éloise", "Zoë", "X", "Anne-Marie",
              "'s", "’", "s'", ".", ",", "\n", "   ", "\t", " ", " ", " "]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) + rng.choice(["", " ", " "])
                       for _ in range(rng.randrange(1, 25)))
        start = rng.randrange(0, len(text) + 1)
        end = rng.randrange(start, len(text) + 1)
        assert _spans(en._EN_SPAN, text, start, end) == _spans(plain, text, start, end), text
