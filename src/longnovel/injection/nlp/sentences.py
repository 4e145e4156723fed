"""Sentences with character offsets, for both languages: zh ends at 。！？… (with closing
quotes), en at . ! ? except after abbreviations; a line break always ends a sentence."""

from __future__ import annotations

import re
from functools import lru_cache

from longnovel.injection.lexicon.en import EN_ABBREVIATIONS
from longnovel.injection.nlp.text import common_ends

ZH_END = "。！？!?…"
CLOSERS = "”’」』）)\"'*_"
_EN_END = re.compile(r"[.!?]+[" + re.escape(CLOSERS) + r"]*(?=\s|$)")
_ZH_END = re.compile(r"(?:[" + ZH_END + r"]+|\.{3,})[" + re.escape(CLOSERS) + r"]*")


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
    out = []
    for a, b in spans:  # each without the whitespace around it, if any is left
        part = text[a:b]
        body = part.strip()
        if body:
            a += len(part) - len(part.lstrip())
            out.append((a, a + len(body)))
    return out


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


def sentence_body(sentence: str, language: str) -> tuple[str, str]:
    """Split a sentence into its body and its final punctuation (with closing quotes)."""
    pattern = r"[" + re.escape(ZH_END + ".!?" + CLOSERS) + r"]*$"
    match = re.search(pattern, sentence)
    return sentence[: match.start()], sentence[match.start() :]
