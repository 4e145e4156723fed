"""Chinese entities without a name dictionary: person names from the text's own statistics
(surname + given name, see ``names``: invented names are not in jieba's dictionary), places and
organizations from jieba part-of-speech tags, and titles and kinship terms from the lexicon."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from longnovel.injection.lexicon.zh import (
    ZH_KINSHIP,
    ZH_ORG_SUFFIXES,
    ZH_PLACE_SUFFIXES,
    ZH_SURNAMES,
    ZH_TITLES,
)
from longnovel.injection.nlp.zh import names as zh_names


def zh_entities(text: str, min_count: int) -> tuple[Counter, dict[str, str]]:
    """``zh_counts`` and {person name: "m" or "f"} where the name or the text shows it."""
    counts = zh_counts(text, min_count)
    people = [name for (name, kind), n in counts.items() if kind == "person" and n >= min_count]
    return counts, zh_genders(text, people)


def zh_genders(text: str, people: list[str]) -> dict[str, str]:
    """A person's gender from the name's own last characters (鲁三娘, 冯氏; 何掌柜's 掌柜 is
    not enough), else from the 他 or 她 opening the sentence after one that opens with the
    name and names nobody else (a 她 inside the name's own sentence is as often someone
    else: 小满甩开了她的手). 他 is also written for anyone unknown: more of it is needed."""
    from longnovel.injection.nlp.sentences import split_sentences

    if not people:
        return {}
    votes: dict[str, Counter] = {name: Counter() for name in people}
    named = _Names(set(people) | _ZH_PERSON_WORDS)
    sentences = split_sentences(text, "zh")
    # (the tests in the order of their cost: most sentences are followed by no pronoun, and
    # most of the others open with no name)
    for sentence, following in zip(sentences, sentences[1:], strict=False):
        pronoun = _ZH_PRONOUN.match(following.lstrip("“‘「 \u3000"))
        if not pronoun:
            continue
        opener = named.at(sentence.lstrip("“‘「 \u3000"))
        if opener not in votes:
            continue
        if len(named.found(sentence, 2)) == 1:
            votes[opener]["f" if pronoun.group() == "她" else "m"] += 1
    return genders_from_votes(people, votes)


def genders_from_votes(people, votes: dict[str, Counter]) -> dict[str, str]:
    """Each person's gender: the one the name itself tells, else the one the 他/她 ``votes``
    give at two or more and three to one."""
    out: dict[str, str] = {}
    for name in people:
        m, f = votes[name]["m"], votes[name]["f"]
        if by_name := _zh_name_gender(name):
            out[name] = by_name
        elif f >= 2 and f >= 3 * m:
            out[name] = "f"
        elif m >= 2 and m >= 3 * f:
            out[name] = "m"
    return out


class _Names:
    """Strings of ``words`` in a text where a pattern of them all, the longest first, finds
    them: at a place, the longest that starts there; through a text, each from the end of the
    one before. Looked up by length in a set: the pattern of a unit's names and the person
    words, a hundred or more of them, took longer to compile than to use (an empty string among
    them, which matches everywhere, leaves it to the pattern)."""

    def __init__(self, words: set[str]):
        self.words = frozenset(words)
        self.lengths = sorted({len(w) for w in self.words}, reverse=True)
        self.pattern = None
        if "" in self.words:
            self.pattern = re.compile("|".join(re.escape(w) for w in sorted(
                self.words, key=len, reverse=True)))

    def at(self, text: str, p: int = 0) -> str | None:
        """The longest of the words that starts at ``p`` of ``text``, if any."""
        if self.pattern is not None:
            m = self.pattern.match(text, p)
            return m.group() if m else None
        for n in self.lengths:  # (a slice past the text's end is its rest: no longer word fits)
            if text[p : p + n] in self.words:
                return text[p : p + n]
        return None

    def found(self, text: str, enough: int) -> set[str]:
        """The distinct words found through ``text``, up to ``enough`` of them."""
        if self.pattern is not None:
            return {m.group() for m in self.pattern.finditer(text)}
        out: set[str] = set()
        p = 0
        while p < len(text) and len(out) < enough:
            word = self.at(text, p)
            if word:
                out.add(word)
                p += len(word)
            else:
                p += 1
        return out


_ZH_PRONOUN = re.compile(r"她|他(?![们人])")
_ZH_PERSON_WORDS = set(ZH_KINSHIP) | set(ZH_TITLES)


def _zh_name_gender(name: str) -> str | None:
    if name.endswith(_ZH_FEMALE_ENDS):
        return "f"
    if name.endswith(_ZH_MALE_ENDS):
        return "m"
    return None


_ZH_FEMALE_ENDS = ("娘", "姐", "嫂", "婶", "氏", "妹", "姑", "婆", "奶奶", "太太", "夫人", "姑娘",
                   "小姐", "姨", "妈", "娘子", "丫头")
_ZH_MALE_ENDS = ("爷", "公", "伯", "叔", "哥", "兄", "弟", "先生", "公子", "老爷", "少爷", "大爷",
                 "相公", "和尚")


def zh_counts(text: str, min_count: int) -> Counter:
    """Person names from the text's own statistics (invented names are not in jieba's
    dictionary), then places and organizations from jieba tags with the names masked out,
    then titles and kinship terms from the lexicon."""
    people = zh_names.person_counts(text, min_count)
    counts: Counter = Counter({(name, "person"): n for name, n in people.items()})
    masked = _mask(text, people)
    tagged = zh_tagged(text, masked)
    tagged_people = zh_names.tagged_person_counts(tagged, text, set(people), min_count)
    counts.update({(name, "person"): n for name, n in tagged_people.items()})
    counts.update(zh_names.place_counts(tagged, masked, min_count))
    for name in _business_names(text, [n for (n, k) in counts if k == "person"]):
        counts[(name, "org")] += counts.pop((name, "person"))  # 聚源 of 聚源油行
    for name in [n for (n, k) in counts if k == "person"]:
        if len(name) == 2 and name[1] == "家" and name[0] in ZH_SURNAMES:
            del counts[(name, "person")]  # 鲁家: a household, nobody in particular
        elif len(name) >= 3 and name[-1] in _PLACE_ENDS_NOT_NAMES:
            counts[(name, "place")] += counts.pop((name, "person"))  # 白鹭河, 石湾渡
    for kind, words in (("title", ZH_TITLES), ("kinship", ZH_KINSHIP)):
        for word in words:
            n = text.count(word)
            if n:
                counts[(word, kind)] += n
    return counts


def zh_tagged(text: str, masked: str | None = None) -> list[tuple[str, str]]:
    """jieba ``(word, flag)`` tokens of ``text``, words in the text's own script; with
    ``masked`` (``text`` with names blanked out), a word that touches a blanked name is blank.

    The words are those of the one segmentation of the text that the person-name statistics
    made (``names``), on its simplified form: jieba's dictionary is simplified, and its
    segmenting HMM finds words the dictionary lacks (invented places such as 青砚镇). A word's
    tag comes from the dictionary or, for a new word, from its last character (a place or an
    organization suffix) or a surname first character. jieba's part-of-speech HMM would tag
    new words itself, at 20-300 times the cost (a traditional-character novel: 118 s against
    0.5 s for 84k characters), too slow for a corpus of novels."""
    import jieba.posseg as pseg

    stats = zh_names.stats_of(text)
    simple, tags, out = stats.simplified, pseg.dt.word_tag_tab, []
    if masked == text:
        masked = None  # no name to blank
    if simple == text:
        simple = text  # the slices of the text serve as its simplified words too
    for start, end in stats.words:
        original = text[start:end]
        word = original if simple is text else simple[start:end]
        if masked is not None and masked[start:end] != original:
            out.append((masked[start:end], "x"))
            continue
        flag = tags.get(word)
        if flag is None and out and out[-1][1] in ("ns", "nt") and word[0] in _SUFFIXES:
            out.append((original[0], "n"))  # 江州|城找: the place's suffix, then a new word
            original, word = original[1:], word[1:]
            flag = tags.get(word)
        out.append((original, flag or _new_word_flag(word)))
    return out


def _business_names(text: str, people: list[str]) -> list[str]:
    """The "people" that are a business's name: written before its kind (聚源油行, 裕丰钱庄)
    (once is enough: a person is not written before a shop's kind). The text is searched
    once for the kinds (every place one starts), not once for each name and kind."""
    if not people:
        return []
    kinds = []  # where a kind of business starts
    for kind in zh_names.ZH_BUSINESSES:
        p = text.find(kind)
        while p >= 0:
            kinds.append(p)
            p = text.find(kind, p + 1)
    return [name for name in people
            if any(text.startswith(name, p - len(name)) for p in kinds if p >= len(name))]


@lru_cache(maxsize=1 << 16)
def _new_word_flag(word: str) -> str:
    if not _CJK.fullmatch(word):
        return "x"
    if len(word) >= 2 and word[-1] in ZH_PLACE_SUFFIXES:
        return "ns"
    if len(word) >= 2 and word[-1] in ZH_ORG_SUFFIXES:
        return "nt"
    if 2 <= len(word) <= 3 and word[0] in ZH_SURNAMES:
        return "nr"
    return "x"


_SUFFIXES = ZH_PLACE_SUFFIXES | ZH_ORG_SUFFIXES
# Last characters of a place that end no person's name of three characters (山 and 岭 do:
# 顾衡山).
_PLACE_ENDS_NOT_NAMES = set("河渡湖桥街巷镇村府县城寨港")
_CJK = re.compile(r"[\u4e00-\u9fff]+")


def _mask(text: str, names) -> str:
    """``text`` with every occurrence of ``names`` (longest first) replaced by spaces."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "\u3000" * len(name))
    return text
