"""Chinese person and place names without a name dictionary.

jieba's part-of-speech tags only know the names in its dictionary; invented names are split
(a surname, then a word) or tagged as something else, and many common words carry a name tag.
Names are therefore found from the text itself:

- full names: a common surname and a one- or two-character given name, where the given name is
  the usual continuation of that surname in the text, the string lines up with jieba's word
  boundaries, is not a common dictionary word, is followed by varied characters, and stands in
  name positions (after punctuation, a preposition, a title or kinship word; before 说/道/问 ...);
- given-name aliases: the given name of a full name used alone in the same positions;
- surname plus title (陆先生, 何掌柜);
- places: jieba place tokens (merged with a following suffix such as 府, 镇, 桥) that end with a
  place suffix, or are used after 在/到/去/从 ....
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from longnovel.injection.lexicon.zh import (
    ZH_BEFORE_NAME,
    ZH_BEFORE_PLACE,
    ZH_COMPOUND_SURNAMES,
    ZH_KINSHIP,
    ZH_NOT_GIVEN,
    ZH_NOT_PLACE_STEMS,
    ZH_ORG_SUFFIXES,
    ZH_PLACE_SUFFIXES,
    ZH_ROLE_WORDS,
    ZH_SPEECH_AFTER,
    ZH_STOP_NAMES,
    ZH_SURNAME_TITLES,
    ZH_SURNAMES,
    ZH_TITLES,
)

_CJK = re.compile(r"[\u3400-\u9fff]")
_CJK_WORD = re.compile(r"[\u3400-\u9fff]+")
COMMON_WORD_FREQ = 50          # a jieba dictionary word this frequent is a word, not a name
MIN_ALIGNED = 0.5              # share of occurrences on jieba word boundaries
MIN_NAME_SLOT = 0.3            # share of occurrences in a name position
MIN_SPEECH = 0.2               # ... or share followed by a speech verb
MAX_SAME_NEXT = 0.75           # a name is followed by varied characters
EXTEND_SHARE = 0.75            # surname+X is a prefix of surname+XY this often -> take XY
MIN_TAGGED = 3                 # a name known only from jieba's tag, or of two characters,
                               # needs this many occurrences
_PERSON_FLAGS = ("nr", "nrfg", "nrt")
# Kinds of business a name goes before (裕丰钱庄, 望江茶楼): alone, a common word.
ZH_BUSINESSES = frozenset({"茶楼", "酒楼", "钱庄", "客栈", "当铺", "药铺", "书坊", "墨坊", "布庄",
                           "饭庄", "镖局", "茶馆", "酒馆", "书院", "会馆", "票号", "米行", "绸庄",
                           "油行", "布行", "粮行", "油坊", "米铺", "布铺", "粮店", "油铺", "染坊",
                           "酱园", "酒坊", "纸坊", "笔庄", "银号", "商号"})
# Common words for a kind of place that jieba tags as place names or that end with a place
# suffix: never a place's name of their own.
ZH_GENERIC_PLACES = frozenset({
    "太阳", "月亮", "山坡", "府城", "县城", "省城", "京城", "河湾", "木桥", "石桥", "山脚", "山顶",
    "城门", "衙门", "码头", "渡口", "祠堂", "后院", "前院", "天井", "月亮门", "大门", "后门",
    "前门",
    "山门", "庙门", "山路", "小路", "大街", "小街", "街口", "村口", "路口", "桥头", "河边", "江边",
    "岸边", "山里", "城里", "村里", "乡下", "家乡", "故乡", "老家", "外地", "本地", "当地", "各地",
    "地方", "东边", "西边", "南边", "北边", "对岸", "河面", "江面", "水面", "院子", "屋子", "房子",
    # the world at large, a capital, a prince's house: no place's name (走江湖 is no 走广王府)
    "江湖", "天下", "人间", "世间", "四海", "京师", "王府"})


def person_counts(text: str, min_count: int) -> Counter:
    """Person names of ``text`` with their counts (full names, aliases, surname + title)."""
    stats = stats_of(text)
    full, rare = _full_names(stats, min_count)
    names = Counter(full)
    for found in (_aliases(stats, set(full) | rare, min_count),
                  _surname_titles(stats, min_count)):
        for name, n in found.items():  # 孟掌柜 is both a full name and surname + title
            names[name] = max(names[name], n)
    return names


def tagged_person_counts(tagged: list[tuple[str, str]], text: str, known: set,
                         min_count: int) -> Counter:
    """Names jieba tags as persons (nr) although its dictionary does not hold them as common
    words (小满 in a chapter that never gives the full name), under the same tests."""
    found = Counter(w for w, f in tagged if f in _PERSON_FLAGS and len(w) >= 2
                    and _CJK_WORD.fullmatch(w) and w not in ZH_STOP_NAMES
                    and w[-1] not in ZH_PLACE_SUFFIXES)
    out: Counter = Counter()
    for word, n in sorted(found.items(), key=lambda wn: (-wn[1], wn[0])):
        if n < max(min_count, MIN_TAGGED) or any(word in k or k in word for k in known | set(out)):
            continue
        stats = stats_of(text)
        positions = stats.positions(word)
        if stats.looks_like_name(word, positions, min_count):
            out[word] = len(positions)
    return out


def place_counts(tagged: list[tuple[str, str]], text: str, min_count: int) -> Counter:
    """Place and organization names (as ``(name, kind)``) from jieba ``(word, flag)`` tokens."""
    found: Counter = Counter()
    suffixes = ZH_PLACE_SUFFIXES | ZH_ORG_SUFFIXES
    nexts = [word for word, _ in tagged[1:]] + [""]
    for (word, flag), nxt in zip(tagged, nexts, strict=False):
        if nxt in ZH_BUSINESSES and 2 <= len(word) <= 3 and _CJK_WORD.fullmatch(word) \
                and flag not in _PERSON_FLAGS and not flag.startswith(("v", "r", "p", "d", "m")):
            found[word + nxt] += 1  # 裕丰|钱庄, 望江|茶楼: the business is the name
            continue
        if not flag.startswith("n"):
            continue
        if len(nxt) == 1 and nxt in suffixes and flag not in _PERSON_FLAGS:
            word = word + nxt
        elif flag not in ("ns", "nt") and not (flag in _PERSON_FLAGS and word[-1] in suffixes):
            continue
        if len(word) >= 2 and _CJK_WORD.fullmatch(word):
            found[word] += 1
    out: Counter = Counter()
    for word, n in found.items():
        kind = _place_kind(word, text)
        if kind and n >= min_count and not _tail_of_a_longer_name(word, text):
            out[(word, kind)] = n
    return out


# Characters a place name follows that are no part of it (到临川府, 在松岭, 往东京).
_BEFORE_A_PLACE = frozenset("在到去往回从至入出上下进由经过向朝于了的和与及同自离奔赴住是")


def _tail_of_a_longer_name(word: str, text: str) -> bool:
    """Is ``word`` the end of a longer name that jieba split (广|武山: 武山 follows 广 nearly
    every time)? Then swapping it leaves a name nobody bears (广常州)."""
    positions = occurrences(text, word)
    befores = Counter(text[p - 1] for p in positions if p > 0)
    if not befores or len(positions) < 2:
        return False
    char, n = befores.most_common(1)[0]
    return n >= 0.8 * len(positions) and bool(_CJK.match(char)) and char not in _BEFORE_A_PLACE


# --- text statistics ---------------------------------------------------------------------------

class _Stats:
    """Occurrences, jieba word boundaries and the contexts of strings in one text."""

    def __init__(self, text: str):
        from longnovel.injection.nlp.script import to_simplified
        from longnovel.injection.nlp.zh.segment import word_spans

        self.text = text
        self.simplified = to_simplified(text)
        self.words = word_spans(self.simplified)
        self.starts = {start for start, _ in self.words}
        self.ends = {end for _, end in self.words}
        self._positions: dict[str, list[int]] = {}

    def positions(self, s: str) -> list[int]:
        """``occurrences`` of ``s`` in the text (kept: the passes ask for a string again)."""
        if s not in self._positions:
            self._positions[s] = occurrences(self.text, s)
        return self._positions[s]

    def aligned(self, s: str, positions: list[int]) -> float:
        ok = sum(1 for p in positions if p in self.starts and p + len(s) in self.ends)
        return ok / max(1, len(positions))

    def name_slot(self, positions: list[int]) -> float:
        return sum(1 for p in positions if _name_slot_before(self.text, p)) / max(1, len(positions))

    def speech(self, s: str, positions: list[int]) -> float:
        hits = sum(1 for p in positions
                   if self.text[p + len(s) : p + len(s) + 2].startswith(ZH_SPEECH_AFTER))
        return hits / max(1, len(positions))

    def same_next(self, s: str, positions: list[int]) -> float:
        nexts = Counter(self.text[p + len(s) : p + len(s) + 1] for p in positions)
        return max(nexts.values()) / max(1, len(positions)) if nexts else 1.0

    def looks_like_name(self, s: str, positions: list[int], min_count: int,
                        names_ok: bool = False) -> bool:
        if len(positions) < min_count or _common_word(s, names_ok):
            return False
        if self.aligned(s, positions) < MIN_ALIGNED:
            return False
        if len(positions) >= 3 and self.same_next(s, positions) > MAX_SAME_NEXT:
            return False
        if not self.strong_evidence(s, positions) or self.aspect(s, positions) >= 1 / 3:
            return False
        return (self.name_slot(positions) >= MIN_NAME_SLOT
                or self.speech(s, positions) >= MIN_SPEECH)

    def aspect(self, s: str, positions: list[int]) -> float:
        """Share of occurrences followed by 了/着/过: a verb (塞进了), not a name."""
        hits = sum(1 for p in positions if self.text[p + len(s) : p + len(s) + 1] in "了着过")
        return hits / max(1, len(positions))

    def strong_evidence(self, s: str, positions: list[int]) -> bool:
        """At least once right after 把/和/对 ... or a title, or before 的/说/道 ... (a clause
        start after a comma alone is too weak: 塞进, 管账 open clauses too)."""
        for p in positions:
            after = self.text[p + len(s) : p + len(s) + 2]
            if after.startswith(ZH_SPEECH_AFTER + ("的",)):
                return True
            if p > 0 and _CJK.match(self.text[p - 1]) and _name_slot_before(self.text, p):
                return True
        return False

    def clearly_a_name(self, s: str, positions: list[int]) -> bool:
        """Stronger evidence, for a string whose given part is also an ordinary word."""
        return len(positions) >= 3 and (self.name_slot(positions) >= 0.5
                                        or self.speech(s, positions) >= MIN_SPEECH)


@lru_cache(maxsize=1)
def stats_of(text: str) -> _Stats:
    """The statistics of ``text``, built once for the person and the tagged-name passes (one
    jieba segmentation of the article instead of two)."""
    return _Stats(text)


def occurrences(text: str, s: str) -> list[int]:
    """Starts of the non-overlapping occurrences of ``s`` in ``text``, as ``re.finditer`` of
    the escaped string gives them, found by ``str.find`` (a novel asks for thousands of
    strings: a regex each overflowed ``re``'s cache of compiled patterns)."""
    if not s:
        return list(range(len(text) + 1))
    out, p = [], text.find(s)
    while p >= 0:
        out.append(p)
        p = text.find(s, p + len(s))
    return out


def _name_slot_before(text: str, p: int) -> bool:
    """Is position ``p`` where a name usually starts: text start, after punctuation, after a
    preposition-like character, or right after a title or kinship word?"""
    if p == 0 or not _CJK.match(text[p - 1]):
        return True
    if text[p - 1] in ZH_BEFORE_NAME:
        return True
    return text[max(0, p - 3) : p].endswith(_title_words())


@lru_cache(maxsize=1)
def _title_words() -> tuple[str, ...]:
    return tuple(ZH_TITLES + ZH_KINSHIP + ZH_ROLE_WORDS)


@lru_cache(maxsize=4096)
def _common_word(word: str, names_ok: bool = False) -> bool:
    """A frequent jieba dictionary word (明白, 高兴, 白鹭 ...). The dictionary also tags some
    common two-character words as names (明白, 谢谢), so its name tag is trusted only for three
    characters or more, or with ``names_ok`` (a given name whose full name is in the text)."""
    import jieba
    import jieba.posseg as pseg

    jieba.setLogLevel(60)
    jieba.dt.check_initialized()
    if jieba.dt.FREQ.get(word, 0) < COMMON_WORD_FREQ:
        return False
    is_name = pseg.dt.word_tag_tab.get(word, "").startswith("nr")
    return not (is_name and (names_ok or len(word) >= 3))


def _ordinary_word(word: str) -> bool:
    """A frequent dictionary word that is not a proper noun (粽子, 明白; not 衡山, a place name,
    which is a fine given name)."""
    import jieba.posseg as pseg

    tag = pseg.dt.word_tag_tab.get(word, "")
    return _common_word(word, True) and tag[:2] not in ("nr", "ns", "nt", "nz")


# --- full names ----------------------------------------------------------------------------------

def _surname_at(text: str, i: int) -> int:
    """Length of the surname starting at ``i`` (2 for a compound surname), or 0."""
    if text[i : i + 2] in ZH_COMPOUND_SURNAMES:
        return 2
    return 1 if text[i] in ZH_SURNAMES else 0


@lru_cache(maxsize=1)
def _surname_starts() -> re.Pattern:
    """Where a surname may start (``_surname_at`` then tells its length)."""
    compound = "|".join(sorted(ZH_COMPOUND_SURNAMES))
    return re.compile(f"(?=[{ZH_SURNAMES}]|{compound})")


def _full_names(stats: _Stats, min_count: int) -> tuple[dict[str, int], set[str]]:
    """Full names with their counts, and the rarer full names (fewer than ``min_count``
    occurrences) that still stand where names stand: 顾青禾 met once makes 青禾 a name."""
    text = stats.text
    short: Counter = Counter()   # surname + one character
    long: Counter = Counter()    # surname + two characters
    for m in _surname_starts().finditer(text):
        i = m.start()
        n = _surname_at(text, i)
        two, three = text[i : i + n + 1], text[i : i + n + 2]
        if len(two) == n + 1 and _CJK.fullmatch(two[n:]) and two[n] not in ZH_NOT_GIVEN:
            short[two] += 1
            if len(three) == n + 2 and _CJK.fullmatch(three[n + 1]) \
                    and three[-1] not in ZH_NOT_GIVEN:
                long[three] += 1
    extended: dict[str, list[tuple[str, int]]] = {}  # a short one -> the long ones it begins
    for s, c in long.items():
        for k in range(2, len(s)):
            extended.setdefault(s[:k], []).append((s, c))
    chosen = {}
    for two, n2 in short.items():
        if n2 < min_count:
            continue
        best, n3 = max(extended.get(two, ()), key=lambda sc: (sc[1], sc[0]), default=("", 0))
        name = best if n3 >= EXTEND_SHARE * n2 else two
        if len(name) > len(two) and _common_word(two):
            continue  # 白鹭河, 高兴地: the first part is an ordinary word
        positions = stats.positions(name)
        if len(name) == 2 and len(positions) < MIN_TAGGED:
            continue  # a two-character string this rare is too often a word (管账)
        if _ordinary_word(name[-2:]) and not stats.clearly_a_name(name, positions):
            continue  # 包粽子: a surname character before an ordinary word
        if stats.looks_like_name(name, positions, min_count):
            chosen[name] = len(positions)
    chosen = _drop_shifted(stats, chosen)
    rare = {name for name, n in long.items()
            if n < min_count and name[:-1] not in chosen and not _common_word(name[:-1])
            and _in_name_slots(stats, name)}
    return chosen, rare


def _in_name_slots(stats: _Stats, name: str) -> bool:
    positions = stats.positions(name)
    return stats.aligned(name, positions) == 1 and stats.name_slot(positions) == 1


def _drop_shifted(stats: _Stats, names: dict[str, int]) -> dict[str, int]:
    """Drop a name found mostly one character before another name (向韩石, X韩 beside 韩石):
    its first character is a word before the name, not a surname."""
    def shifted(name: str) -> bool:
        positions = stats.positions(name)
        hits = sum(1 for p in positions
                   if any(o != name and stats.text.startswith(o, p + 1) for o in names))
        return hits * 2 > len(positions)

    return {n: c for n, c in names.items() if not shifted(n)}


def _aliases(stats: _Stats, full: set[str], min_count: int) -> Counter:
    """Given names used alone (小满 for 沈小满), counted where the surname does not precede."""
    out: Counter = Counter()
    for name in sorted(full):  # in a fixed order: two full names may share a given name
        surname = len(name) - 2  # the given name is the last two characters
        if surname < 1:
            continue
        given = name[surname:]
        if given in full or given[0] in ZH_NOT_GIVEN:
            continue
        alone = [p for p in stats.positions(given)
                 if stats.text[max(0, p - surname) : p] != name[:surname]]
        if stats.looks_like_name(given, alone, min_count, names_ok=True):
            out[given] = len(alone)
    return out


def _surname_titles(stats: _Stats, min_count: int) -> Counter:
    """陆先生, 何掌柜: a surname followed by a title used for a person."""
    out: Counter = Counter()
    pattern = "|".join(re.escape(t) for t in ZH_SURNAME_TITLES)
    found = Counter(m.group() for m in re.finditer(rf"[{ZH_SURNAMES}](?:{pattern})",
                                                   stats.text))
    for word, n in found.items():
        positions = stats.positions(word)
        if n >= min_count and not _common_word(word) \
                and stats.name_slot(positions) >= MIN_NAME_SLOT:
            out[word] = n
    return out


# --- places --------------------------------------------------------------------------------------

def _place_kind(word: str, text: str) -> str | None:
    """'place' or 'org' for a proper place name, None for a common word (上山, 东西, 太阳)."""
    last = word[-1]
    if word[:-1] in ZH_NOT_PLACE_STEMS or word in ZH_GENERIC_PLACES or word in ZH_BUSINESSES:
        return None
    if len(word) == 2 and last in "里上下边外内中":
        return None  # 河里, 湾里, 山上: where, not a place's name
    if last in ZH_ORG_SUFFIXES:
        return "org"
    if last in ZH_PLACE_SUFFIXES:
        return "place"
    positions = occurrences(text, word)
    after_verb = sum(1 for p in positions if text[p - 1 : p] in ZH_BEFORE_PLACE)
    return "place" if positions and after_verb * 2 >= len(positions) else None
