"""``zh_genders`` tests a sentence's follower for a pronoun first and builds its pattern of
names only when one is found: the genders must be those of testing every sentence with the
pattern built up front (the form it had before). ``_business_names`` searches the text once
for the kinds of business: the names must be those of searching for each name and kind."""

from __future__ import annotations

import random
import re
from collections import Counter

from longnovel.injection.nlp.sentences import split_sentences
from longnovel.injection.nlp.zh.entities import (
    _ZH_PERSON_WORDS,
    _ZH_PRONOUN,
    _business_names,
    _Names,
    genders_from_votes,
    zh_genders,
)
from longnovel.injection.nlp.zh.names import ZH_BUSINESSES


def _every_sentence(text: str, people: list[str]) -> dict[str, str]:
    votes = {name: Counter() for name in people}
    others = sorted(set(people) | _ZH_PERSON_WORDS, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(n) for n in others))
    sentences = split_sentences(text, "zh")
    for sentence, following in zip(sentences, sentences[1:], strict=False):
        named = {m.group() for m in pattern.finditer(sentence)}
        opener = pattern.match(sentence.lstrip("“‘「 \u3000"))
        pronoun = _ZH_PRONOUN.match(following.lstrip("“‘「 \u3000"))
        if opener and pronoun and len(named) == 1 and opener.group() in votes:
            votes[opener.group()]["f" if pronoun.group() == "她" else "m"] += 1
    return genders_from_votes(people, votes)


def test_no_people_no_genders():
    assert zh_genders("他来了。她走了。", []) == {} == _every_sentence("他来了。她走了。", [])


def test_random_texts_give_the_genders_of_every_sentence_tested():
    rng = random.Random(5)
    names = ["周大有", "青禾", "鲁三娘", "周大", "小满"]
    openers = ["周大有", "青禾", "小满", "鲁三娘", "老爷", "他", "她", "他", "她", "他们", "“他",
               "“", "\u3000她", "走了"]
    pieces = ["周大有", "青禾", "小满", "老爷", "她", "走了", "笑了", "看着", "点头"]
    voted = 0
    for _ in range(1500):
        text = "".join(
            rng.choice(openers) + "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 3)))
            + rng.choice("。。！？") for _ in range(rng.randrange(1, 30)))
        people = rng.sample(names, rng.randrange(0, len(names) + 1))
        found = zh_genders(text, people)
        assert found == _every_sentence(text, people), (text, people)
        voted += any(name != "鲁三娘" for name in found)
    assert voted > 40  # genders told by the pronouns, not by the names alone


def test_business_names_as_every_name_and_kind_searched():
    """``_business_names`` finds the kinds' places once; the names must be those of searching
    the text for each name followed by each kind."""
    rng = random.Random(8)
    pieces = ["聚源", "裕丰", "聚源油", "油行", "钱庄", "行", "钱", "庄", "严掌柜", "说", "的",
              "。"]
    names = ["聚源", "裕丰", "聚源油", "严掌柜", "油", "源油", "丰钱"]
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 14)))
        people = rng.sample(names, rng.randrange(0, len(names) + 1))
        expected = [n for n in people if any(n + k in text for k in ZH_BUSINESSES)]
        assert _business_names(text, people) == expected, (text, people)
    text = "孟二在聚源油行做工，去了裕丰钱庄。"
    assert _business_names(text, ["孟二", "聚源", "裕丰", "聚源油"]) == ["聚源", "裕丰"]


def test_names_found_as_the_pattern_of_them_all_finds_them():
    rng = random.Random(4)
    alphabet = "周大有青禾老爷他她的了"
    for _ in range(3000):
        words = {"".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 4)))
                 for _ in range(rng.randrange(1, 7))}
        pattern = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)))
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 20)))
        names = _Names(words)
        m = pattern.match(text)
        assert names.at(text) == (m.group() if m else None), (words, text)
        every = {m.group() for m in pattern.finditer(text)}
        assert names.found(text, 2) == every or len(every) >= 2 and len(names.found(text, 2)) == 2
        assert names.found(text, len(words) + 1) == every, (words, text)
