"""English entities from capitalized spans, filtered for sentence starts and stop words,
with honorifics kept as part of the name, possessives removed, and typed by the words before
them ("in the Harbour Tower" is a place, "the fifth of Ashmonth" a date); titles and kinship
terms from the lexicon."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from longnovel.injection.lexicon.en import (
    EN_DATE_BEFORE,
    EN_DATE_OF,
    EN_HONORIFICS,
    EN_KINSHIP,
    EN_ORG_SUFFIXES,
    EN_PLACE_PREPOSITIONS,
    EN_PLACE_SUFFIXES,
    EN_SPATIAL_PREPOSITIONS,
    EN_STOPWORDS,
    EN_TITLES,
)
from longnovel.injection.nlp.sentences import sentence_spans

_HONORIFIC = "|".join(re.escape(h) for h in sorted(set(EN_HONORIFICS), key=len,
                                                       reverse=True))
_CAP_WORD = r"[A-Z][a-z]+(?:-[A-Z][a-z]+)*"
_POSSESSIVE = r"(?:['’]s\b|(?<=s)['’](?!\w))"
_EN_SPAN = re.compile(
    rf"(?:(?:{_HONORIFIC})\s+)?{_CAP_WORD}{_POSSESSIVE}?"
    rf"(?:\s+(?:of\s+|de\s+|van\s+)?{_CAP_WORD}{_POSSESSIVE}?)*"
)
_ORDINAL = re.compile(
    r"^(?:\d+(?:st|nd|rd|th)|(?:(?:twenty|thirty)-)?(?:first|second|third|fourth|fifth|sixth|"
    r"seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|"
    r"seventeenth|eighteenth|nineteenth|twentieth|thirtieth))$")


def en_counts(text: str) -> Counter:
    spans = Counter()
    mid_sentence = set()
    context: dict[str, list[tuple[str, str]]] = {}
    for start, end in sentence_spans(text, "en"):
        for match in _EN_SPAN.finditer(text, start, end):
            for piece, offset in _name_pieces(match):
                name = _trim_stopwords(piece)
                if not name:
                    continue
                offset += piece.index(name)
                spans[name] += 1
                if not _starts_sentence(text, start, offset):
                    mid_sentence.add(name)
                context.setdefault(name, []).append(_previous_words(text, offset))
    kinds = {name: _en_kind(name, context[name]) for name in spans
             if name in mid_sentence or " " in name}
    people = {name for name, kind in kinds.items() if kind == "person" and " " not in name}
    counts: Counter = Counter()
    for name, kind in kinds.items():
        if kind == "place" and _ends_with_person(name, people):
            kind = "person"  # "to Desmond Crale" when Crale is a person
        if kind:
            counts[(name, kind)] += spans[name]
    counts.update(_en_lexicon_counts(text))
    return counts


def _ends_with_person(name: str, people: set[str]) -> bool:
    words = name.split()
    return len(words) > 1 and words[-1] in people and words[-1] not in EN_PLACE_SUFFIXES


def _name_pieces(match: re.Match) -> list[tuple[str, int]]:
    """Split a capitalized span at possessives: "Wren's Aunt Mabry" is two names, "Orrin's" is
    Orrin; a possessive before a place or organization word stays ("Quill's Foundry")."""
    span, base = match.group(), match.start()
    pieces, cursor = [], 0
    for m in re.finditer(_POSSESSIVE, span):
        rest = span[m.end() :].split()
        plural = not m.group().endswith("s")
        if len(rest) == 1 and (plural or rest[0] in EN_PLACE_SUFFIXES
                               | EN_ORG_SUFFIXES):
            continue
        pieces.append((span[cursor : m.start()], base + cursor))
        cursor = m.end()
        while cursor < len(span) and span[cursor].isspace():
            cursor += 1
    if cursor < len(span):
        pieces.append((span[cursor:], base + cursor))
    return [(p, o) for p, o in pieces if p.strip()]


def _trim_stopwords(span: str) -> str:
    words = span.split()
    while words and words[0] in EN_STOPWORDS:
        words.pop(0)
    while words and words[-1] in EN_STOPWORDS | {"of", "de", "van"}:
        words.pop()
    if all(w in EN_HONORIFICS or w.rstrip(".") + "." in EN_HONORIFICS
           or all(p in EN_HONORIFICS for p in w.split("-")) for w in words):
        return ""  # titles only: "Deputy Warden", "Warden-Mayor"
    return " ".join(words)


def _starts_sentence(text: str, sentence_start: int, offset: int) -> bool:
    """True at a sentence start, also one inside quotes or after a colon or dash."""
    before = text[sentence_start:offset].rstrip()
    return before.strip("\"'“‘(*_") == "" or before[-1:] in "\"“‘:—(*_" or before.endswith(" '")


def _previous_words(text: str, offset: int) -> tuple[str, str]:
    """The two words before ``offset``, lower-cased, nearest first."""
    words = re.findall(r"[A-Za-z0-9]+(?:-[A-Za-z]+)*", text[max(0, offset - 40) : offset])
    words = [w.lower() for w in words[-2:]]
    return (words[-1] if words else "", words[-2] if len(words) > 1 else "")


def _date_context(w1: str, w2: str) -> bool:
    """"the fifth of X", "20th X", "since X", "the last week of X"."""
    if w1 == "of":
        return bool(_ORDINAL.match(w2)) or w2 in EN_DATE_OF
    return bool(_ORDINAL.match(w1)) or w1 in EN_DATE_BEFORE


def _en_kind(name: str, contexts: list[tuple[str, str]]) -> str | None:
    """person / place / org from the name's words and the words before it; None for a date
    ("the fifth of Ashmonth") or a thing always named with "the" and never as a place."""
    words, n = name.split(), len(contexts)
    if words[0] in EN_HONORIFICS or words[0].rstrip(".") + "." in EN_HONORIFICS:
        return "person"
    if words[-1] in EN_ORG_SUFFIXES:
        return "org"
    if words[-1] in EN_PLACE_SUFFIXES:
        return "place"
    dates = sum(1 for w1, w2 in contexts if _date_context(w1, w2))
    if dates * 2 >= n:
        return None
    with_the = [w2 for w1, w2 in contexts if w1 == "the"]
    if len(with_the) * 2 >= n:
        # "on" is as often about time ("on the Long Tide") as about place: half weight
        spatial = sum(0.5 if w2 == "on" else 1 for w2 in with_the
                      if w2 in EN_SPATIAL_PREPOSITIONS)
        return "place" if spatial * 4 >= len(with_the) else None
    near_place = sum(1 for w1, _ in contexts if w1 in EN_PLACE_PREPOSITIONS)
    return "place" if near_place >= 0.6 * n and near_place >= 2 else "person"


def _en_lexicon_counts(text: str) -> Counter:
    counts: Counter = Counter()
    pattern, kinds = _en_lexicon_pattern()
    for m in pattern.finditer(text.lower()):
        word = m.group(1)
        counts[(word, kinds[word])] += 1
    return counts


@lru_cache(maxsize=1)
def _en_lexicon_pattern() -> tuple[re.Pattern, dict[str, str]]:
    """One pattern for every title and kinship word (and its plural), the longest first, and
    each word's kind."""
    kinds = {w: "kinship" for w in EN_KINSHIP}
    kinds.update({w: "title" for w in EN_TITLES})
    words = "|".join(re.escape(w) for w in sorted(kinds, key=len, reverse=True))
    return re.compile(rf"\b({words})s?\b"), kinds
