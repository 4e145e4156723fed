"""``en.entities.name_offset`` finds a name in its capitalized piece by ``str.find`` where a
pattern was compiled for every name: the place must be the pattern's exactly (the first place
the name's words stand with any run of white space between them), or the evidence read around
an occurrence moves."""

from __future__ import annotations

import random
import re

from longnovel.injection.nlp.en.entities import en_entities, name_offset


def _by_regex(piece: str, name: str) -> int:
    return re.search(r"\s+".join(map(re.escape, name.split())), piece).start()


def test_known_pieces():
    assert name_offset("Capt.   Had", "Capt. Had") == _by_regex("Capt.   Had", "Capt. Had") == 0
    assert name_offset("Dear Mr. Vale", "Mr. Vale") == 5
    assert name_offset("Hadley Had", "Had") == 0  # inside a longer word, as the pattern finds it
    assert name_offset("A\tB A B", "A B") == 0  # the tab-separated pair comes first
    assert name_offset("A B  A\u00a0B", "A B") == 0
    assert name_offset("X  A B", "A B") == 3


def test_random_pieces_match_the_pattern():
    rng = random.Random(11)
    words = ["A", "B", "Ab", "Mr.", "St.", "(C)", "a+b", "Ba"]
    spaces = [" ", " ", " ", "  ", "\t", "\n", "\u00a0", "\u3000", " \t"]
    for _ in range(5000):
        chosen = [rng.choice(words) for _ in range(rng.randrange(1, 6))]
        piece = chosen[0]
        for word in chosen[1:]:
            piece += rng.choice(spaces) + word
        if rng.random() < 0.2:
            piece = rng.choice(spaces) + piece
        tokens = piece.split()
        first = rng.randrange(len(tokens))
        name = " ".join(tokens[first : rng.randrange(first + 1, len(tokens) + 1)])
        assert name_offset(piece, name) == _by_regex(piece, name), (piece, name)


def test_entities_where_names_stand_with_other_spaces():
    """The same entities as the code before ``name_offset`` gave (a pattern per name)."""
    text = ('Capt.   Hadley said he would go. Then Capt. Hadley went to Port   Callow, and '
            'he said that Port Callow was cold. "Wait," said Mrs.\tWren. Mrs. Wren laughed. '
            'His mother Nan sat in Port Callow.')
    counts, genders = en_entities(text)
    assert sorted(counts.items()) == [
        (("Hadley", "person"), 2), (("Mrs. Wren", "person"), 2), (("Nan", "person"), 1),
        (("Port Callow", "place"), 3), (("mother", "kinship"), 1)]
    assert genders == {"Mrs. Wren": "f", "Nan": "f"}
