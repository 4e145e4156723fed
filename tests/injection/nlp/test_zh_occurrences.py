"""``names.occurrences`` finds strings by ``str.find`` where a compiled regex each was used: the
positions must be the regex's exactly (non-overlapping, left to right), or name counts move."""

from __future__ import annotations

import random
import re

from longnovel.injection.nlp.zh.names import occurrences


def _by_regex(text: str, s: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(s), text)]


def test_overlapping_repeats_count_as_the_regex_counts():
    assert occurrences("哈哈哈哈哈", "哈哈") == _by_regex("哈哈哈哈哈", "哈哈") == [0, 2]
    assert occurrences("沈小满说小满", "小满") == [1, 4]
    assert occurrences("a.b*a.b", ".b*") == _by_regex("a.b*a.b", ".b*") == [1]
    assert occurrences("无", "有") == []
    assert occurrences("ab", "") == _by_regex("ab", "") == [0, 1, 2]


def test_random_texts_match_the_regex():
    rng = random.Random(7)
    alphabet = "小满沈顾青禾.*(|"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        s = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 4)))
        assert occurrences(text, s) == _by_regex(text, s), (text, s)
