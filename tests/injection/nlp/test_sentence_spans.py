"""Sentence spans leave out the whitespace around each sentence with ``str.strip``: they must
be the spans a character-by-character ``str.isspace`` trim gives, or every offset built on
them moves (evidence, names, edits)."""

from __future__ import annotations

import random
import sys

import pytest

from longnovel.injection.nlp.sentences import sentence_spans


def _trimmed(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def test_strip_and_isspace_agree_on_every_character():
    odd = [c for c in map(chr, range(sys.maxunicode + 1)) if (c.strip() == "") != c.isspace()]
    assert odd == []


@pytest.mark.parametrize("language", ["zh", "en"])
def test_spans_are_trimmed_as_isspace_trims(language):
    rng = random.Random(11)
    pieces = ["他说。", "好！", "Mr. Lee went. ", "Yes?", "\u3000\u3000", " ", "\t", "\u00a0",
              "\u2003", "\n", "\n\n", "…", "”", "a", "甲"]
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 14)))
        for a, b in sentence_spans(text, language):
            assert (a, b) == _trimmed(text, a, b) and a < b, (text, a, b)
            assert text[a:b].strip() == text[a:b]
