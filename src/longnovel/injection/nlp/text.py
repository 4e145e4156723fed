"""Small text helpers for both languages: what an edit changed, a book's vocabulary, letters
of each script, and capitals."""

from __future__ import annotations

import re
from collections import Counter

_CJK = re.compile(r"[\u3400-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")


def word_start(text: str, i: int) -> int:
    """Where the word that ``text[i]`` lies in (or follows) starts: ``i`` backed over the
    letters and digits before it ("He asks" -> "Hoshick asks" changes from the "H", "can|not"
    from the "c")."""
    while i > 0 and text[i - 1].isalnum():
        i -= 1
    return i


def changed_parts(old: str, new: str) -> tuple[int, int, int]:
    """(start, end in ``old``, end in ``new``) of the characters an edit from ``old`` to
    ``new`` changes: ``old[start:old_end]`` became ``new[start:new_end]``."""
    prefix, suffix = common_ends(old, new)
    return prefix, len(old) - suffix, len(new) - suffix


_EN_WORD = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*")


class Vocabulary:
    """The words of a book's unit summaries: en, their lower-case words (as ``word_change``
    finds them); zh, the summaries themselves (a word is in them when it occurs)."""

    # Below this much text a word's absence says little about the writer: en distinct words,
    # zh characters of summary (a BookSum book's chapter summaries have several thousand
    # distinct words; a test corpus, a few dozen).
    ENOUGH_EN_WORDS, ENOUGH_ZH_CHARACTERS = 300, 1000

    def __init__(self, zh: bool):
        self.zh = zh
        self._words: set[str] = set()
        self._running: Counter = Counter()  # en: words written in lower case, and how often
        self._texts: list[str] = []
        self._joined: str | None = None
        self._characters = 0
        self._counts: dict = {}  # zh: count -> its value, until the next summary is added

    @property
    def enough(self) -> bool:
        """Is there enough of the book's summaries to tell the writer's words from others?"""
        if self.zh:
            return self._characters >= self.ENOUGH_ZH_CHARACTERS
        return len(self._words) >= self.ENOUGH_EN_WORDS

    def add(self, summary: str) -> None:
        if self.zh:
            self._texts.append(summary)
            self._joined = None
            self._counts.clear()
            self._characters += len(summary)
        else:
            words = _EN_WORD.findall(summary)
            self._words.update(w.lower() for w in words)
            self._running.update(w for w in words if w.islower())

    def __contains__(self, word: str) -> bool:
        if not self.zh:
            return word in self._words
        return word in self._text()

    def count(self, word: str | re.Pattern) -> int:
        """How often the book's summaries write ``word``: en, a word written in lower case
        (in running text: "Aunt Mabry" is no use of "aunt"); zh, any string or a compiled
        pattern (occurrences that do not overlap; kept, as the rules ask for the same few
        words for every window of the book)."""
        if not self.zh:
            return self._running[word]
        if word not in self._counts:
            text = self._text()
            self._counts[word] = (len(word.findall(text)) if isinstance(word, re.Pattern)
                                  else text.count(word))
        return self._counts[word]

    def _text(self) -> str:
        if self._joined is None:
            self._joined = "\n".join(self._texts)
        return self._joined


def word_change(old: str, new: str, zh: bool) -> tuple[list[str], list[str]]:
    """(removed, added): the words an edit from ``old`` to ``new`` takes out and puts in.
    en: the whole lower-case words the changed characters touch ("accepted" -> "declined"
    changes "accept" -> "declin", "sister" -> "half-sister" inserts "half-", but the words are
    accepted, declined, sister and half-sister); zh: the changed characters, grown to two by a
    neighbouring unchanged one (拒绝 -> 回绝 is 拒绝 -> 回绝, not 拒 -> 回), as one word each."""
    a, old_end, new_end = changed_parts(old, new)
    if zh:
        removed, added = _zh_part(old, a, old_end), _zh_part(new, a, new_end)
    else:
        a, old_end, new_end = _to_word_ends(old, new, a, old_end, new_end)
        removed = [w.lower() for w in _EN_WORD.findall(old, a, old_end)]
        added = [w.lower() for w in _EN_WORD.findall(new, a, new_end)]
    both = Counter(removed) & Counter(added)
    return list((Counter(removed) - both).elements()), list((Counter(added) - both).elements())


def _to_word_ends(old: str, new: str, start: int, old_end: int, new_end: int):
    """The changed parts grown over the unchanged letters of the words they cut through."""
    def inside(text: str, i: int) -> bool:
        return 0 <= i < len(text) and (text[i].isalnum() or text[i] in "'’-")

    while start > 0 and inside(old, start - 1) and (inside(old, start) or inside(new, start)):
        start -= 1
    while inside(old, old_end) and (inside(old, old_end - 1) or inside(new, new_end - 1)):
        old_end, new_end = old_end + 1, new_end + 1
    return start, old_end, new_end


def _zh_part(text: str, start: int, end: int) -> list[str]:
    if end - start == 1:
        if end < len(text) and _CJK.match(text[end]):
            end += 1
        elif start > 0 and _CJK.match(text[start - 1]):
            start -= 1
    part = text[start:end].strip()
    return [part] if part else []


def common_ends(a: str, b: str) -> tuple[int, int]:
    """Lengths of the longest common prefix of ``a`` and ``b``, and of the longest common
    suffix of what is left (slice comparisons, so long texts cost a few C-level compares)."""
    def longest(match) -> int:
        low, high = 0, min(len(a), len(b))
        while low < high:
            mid = (low + high + 1) // 2
            if match(mid):
                low = mid
            else:
                high = mid - 1
        return low

    prefix = longest(lambda k: a[:k] == b[:k])
    rest = min(len(a), len(b)) - prefix
    suffix = longest(lambda k: k <= rest and a[len(a) - k :] == b[len(b) - k :])
    return prefix, suffix


def cjk_share(text: str) -> float:
    """Share of CJK characters among CJK and Latin letters (1.0 for a text with neither)."""
    return share_of(*letter_counts(text))


def letter_counts(text: str) -> tuple[int, int]:
    """(CJK characters, Latin letters) of ``text``."""
    return len(_CJK.findall(text)), len(_LATIN.findall(text))


def share_of(cjk: int, latin: int) -> float:
    return 1.0 if cjk + latin == 0 else cjk / (cjk + latin)


_FUNCTION_STARTS = {
    "He", "She", "It", "They", "We", "The", "A", "An", "His", "Her", "Their", "This", "That",
    "There", "Its", "Our", "Everyone", "Nobody", "Someone", "When", "After", "Later", "Then",
    "Soon",
}


# Words that open a sentence as a preposition, adverb or determiner: lowered unless a name of
# the text is written so ("Prior to landing", but "Prior" the character).
_OPENER_STARTS = frozenset({
    "Prior", "Due", "According", "Upon", "Before", "During", "While", "Although", "Though", "As",
    "Once", "Meanwhile", "Eventually", "Finally", "Suddenly", "Despite", "In", "On", "At", "With",
    "Without", "By", "From", "For", "Into", "Over", "Under", "Inside", "Outside", "Now", "Still",
    "Yet", "Some", "Many", "All", "Both", "Each", "Every", "Several", "Most", "Such", "Since",
    "Until", "Instead", "Afterward", "Afterwards", "Along", "Among", "Around", "Throughout",
    "Toward", "Towards", "Within", "Elsewhere", "Here"
})


def lower_first(sentence: str, keep: set[str] | None = None,
                lower_words: set[str] | None = None, names: set[str] | None = None) -> str:
    """Lower-case the first word unless it looks like a name (en).

    Common function words are always lowered, and sentence openers ("Prior", "Upon") unless
    ``names`` (the words of the text's entity names) holds them. With ``keep`` (the proper
    names known for the text) and ``lower_words`` (the words the text writes in lower case),
    a word that is not a known name is lowered too when the text also writes it in lower case
    or it ends like a participle or an adverb ("Using the map, ..." -> "using"); an unknown
    capitalized word stays, as it is more likely a name."""
    first = re.match(r"[A-Za-z]+", sentence)
    if not first:
        return sentence
    word = first.group()
    lower = word in _FUNCTION_STARTS or word in _OPENER_STARTS and word not in (names or ())
    if keep is not None and not lower and word not in keep and word != "I" \
            and not word.isupper():
        lower = word.lower() in (lower_words or set()) or word.endswith(("ing", "ed", "ly"))
    return word.lower() + sentence[len(word):] if lower else sentence


def all_capitals(text: str) -> bool:
    """Is ``text`` written in capitals (the chapter headings of some novels)?"""
    letters = [c for c in text if c.isalpha() and c.isascii()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)


def upper_first(sentence: str) -> str:
    for i, ch in enumerate(sentence):
        if ch.isalpha():
            return sentence[:i] + ch.upper() + sentence[i + 1 :]
    return sentence


def match_case(word: str, new: str) -> str:
    """``new`` with the capitalization of ``word`` (en): all capitals, or a capital first."""
    if len(word) > 1 and word.isupper():
        return new.upper()
    if word[:1].isupper():
        return new[:1].upper() + new[1:]
    return new
