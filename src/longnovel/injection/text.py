"""Sentence splitting with character offsets, and small text helpers for both languages."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

ZH_END = "。！？!?…"
CLOSERS = "”’」』）)\"'*_"
EN_ABBREVIATIONS = {
    "mr", "mrs", "ms", "dr", "st", "mt", "jr", "sr", "capt", "col", "gen", "lt", "sgt", "prof",
    "rev", "hon", "vs", "etc", "no", "co", "messrs", "mme", "mlle", "fr", "gov", "maj", "cpt",
}
_EN_END = re.compile(r"[.!?]+[" + re.escape(CLOSERS) + r"]*(?=\s|$)")
_ZH_END = re.compile(r"(?:[" + ZH_END + r"]+|\.{3,})[" + re.escape(CLOSERS) + r"]*")
_CJK = re.compile(r"[\u3400-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")


def sentence_spans(text: str, language: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the sentences of ``text``; whitespace between them is excluded."""
    return list(_sentence_spans(text, language))


@lru_cache(maxsize=512)
def _sentence_spans(text: str, language: str) -> tuple[tuple[int, int], ...]:
    """Cached: the rules, the checks and the validator split the same summaries again."""
    spans: list[tuple[int, int]] = []
    for para_start, para_end in _paragraph_spans(text):
        spans.extend(_split_paragraph(text, para_start, para_end, language))
    return tuple(spans)


def split_sentences(text: str, language: str) -> list[str]:
    """The sentences of ``text``: zh ends at 。！？… (with closing quotes), en at . ! ? except
    after abbreviations such as Mr. or Dr.; line breaks always end a sentence."""
    return [text[a:b] for a, b in sentence_spans(text, language)]


def split_edited(old: str, new: str, language: str) -> list[str]:
    """``split_sentences(new)`` for ``new`` made from ``old`` by one edit: only the lines the
    edit touches are split again, the others' sentences come from ``old``'s cached spans (a
    100k-token window's summary has 500 sentences; the validator asks for every candidate)."""
    prefix, suffix = common_ends(old, new)
    if prefix == len(old) == len(new):
        return split_sentences(new, language)
    start = old.rfind("\n", 0, prefix) + 1
    old_end = old.find("\n", len(old) - suffix)
    old_end = len(old) if old_end < 0 else old_end
    new_end = old_end + len(new) - len(old)
    spans = _sentence_spans(old, language)
    out = [old[a:b] for a, b in spans if b <= start]
    for para_start, para_end in _paragraph_spans(new, start, new_end):
        out.extend(new[a:b] for a, b in _split_paragraph(new, para_start, para_end, language))
    out.extend(old[a:b] for a, b in spans if a >= old_end)
    return out


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
        self._texts: list[str] = []
        self._joined: str | None = None
        self._characters = 0

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
            self._characters += len(summary)
        else:
            self._words.update(w.lower() for w in _EN_WORD.findall(summary))

    def __contains__(self, word: str) -> bool:
        if not self.zh:
            return word in self._words
        if self._joined is None:
            self._joined = "\n".join(self._texts)
        return word in self._joined


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


_LINE = re.compile(r"[^\n]+")


def _paragraph_spans(text: str, start: int = 0, end: int | None = None):
    end = len(text) if end is None else end
    for match in _LINE.finditer(text, start, end):
        if match.group().strip():
            yield match.start(), match.end()


def _split_paragraph(text: str, start: int, end: int, language: str) -> list[tuple[int, int]]:
    pattern = _ZH_END if language == "zh" else _EN_END
    spans, cursor = [], start
    for match in pattern.finditer(text, start, end):
        if language != "zh" and _continues(text, cursor, match, end):
            continue
        spans.append((cursor, match.end()))
        cursor = match.end()
    spans.append((cursor, end))
    return [_strip_span(text, a, b) for a, b in spans if text[a:b].strip()]


def _continues(text: str, cursor: int, match: re.Match, end: int) -> bool:
    """True when an en end mark does not end the sentence (abbreviation, lower-case follows)."""
    rest = text[match.end() : end].lstrip()
    if rest[:1].islower():
        return True
    # 'signed "J.F." However' ends at the quote: an abbreviation inside closed quotes
    closed = match.group()[-1] in CLOSERS and rest[:1].isupper()
    return not closed and _is_abbreviation(text, cursor, match.start())


_LAST_WORD = re.compile(r"([A-Za-z]+)$")


def _is_abbreviation(text: str, start: int, dot: int) -> bool:
    if text[dot] != ".":
        return False
    word = _LAST_WORD.search(text, start, dot)
    if not word:
        return False
    token = word.group(1)
    return token.lower() in EN_ABBREVIATIONS or (len(token) == 1 and token.isupper())


def _strip_span(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def cjk_share(text: str) -> float:
    """Share of CJK characters among CJK and Latin letters (1.0 for a text with neither)."""
    return share_of(*letter_counts(text))


def letter_counts(text: str) -> tuple[int, int]:
    """(CJK characters, Latin letters) of ``text``."""
    return len(_CJK.findall(text)), len(_LATIN.findall(text))


def share_of(cjk: int, latin: int) -> float:
    return 1.0 if cjk + latin == 0 else cjk / (cjk + latin)


def sentence_body(sentence: str, language: str) -> tuple[str, str]:
    """Split a sentence into its body and its final punctuation (with closing quotes)."""
    pattern = r"[" + re.escape(ZH_END + ".!?" + CLOSERS) + r"]*$"
    match = re.search(pattern, sentence)
    return sentence[: match.start()], sentence[match.start() :]


_FUNCTION_STARTS = {
    "He", "She", "It", "They", "We", "The", "A", "An", "His", "Her", "Their", "This", "That",
    "There", "Its", "Our", "Everyone", "Nobody", "Someone", "When", "After", "Later", "Then",
    "Soon",
}


def lower_first(sentence: str, keep: set[str] | None = None,
                lower_words: set[str] | None = None) -> str:
    """Lower-case the first word unless it looks like a name (en).

    Common function words are always lowered. With ``keep`` (the proper names known for the
    text) and ``lower_words`` (the words the text writes in lower case), a word that is not a
    known name is lowered too when the text also writes it in lower case or it ends like a
    participle or an adverb ("Using the map, ..." -> "using"); an unknown capitalized word
    stays, as it is more likely a name."""
    first = re.match(r"[A-Za-z]+", sentence)
    if not first:
        return sentence
    word = first.group()
    lower = word in _FUNCTION_STARTS
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


# The summary writer speaking about the book rather than telling the story: "This chapter
# marks...", "The author contrasts...", "In this closing chapter the author...", "本章写...".
_EN_COMMENTARY = re.compile(
    r"\b(?:(?:this|the|these|that|next|previous|closing|opening|final|first|last) "
    r"(?:\w+ )?(?:chapters?|novel|section|narrative|arc|episode|passage)\b"
    r"|the (?:author|narrator|reader|readers|novelist|text)\b|the (?:\w+ )?(?:author|narrator)'s"
    r"|(?:foreshadow|symboli[sz]|motif|themes?\b|irony|ironic|juxtapos))", re.IGNORECASE)
_ZH_COMMENTARY = re.compile(r"本章|本回|这一章|这一回|此章|此回|本节|作者|读者|小说|全书|笔下|伏笔|象征")
_QUOTES = re.compile(r"“[^”]*”|\"[^\"]*\"|「[^」]*」|『[^』]*』|‘[^’]*’(?!\w)|(?<!\w)'[^']*'(?!\w)")


@lru_cache(maxsize=65536)
def is_commentary(sentence: str, language: str) -> bool:
    """Does the sentence speak about the book (its chapters, author, reader, themes) rather
    than tell what happens in it?"""
    return bool((_ZH_COMMENTARY if language == "zh" else _EN_COMMENTARY).search(sentence))


@lru_cache(maxsize=256)
def quoted_spans(text: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of each quotation in ``text``, quote marks included (cached: every edit of a
    summary asks about the same summary)."""
    return tuple(m.span() for m in _QUOTES.finditer(text))
