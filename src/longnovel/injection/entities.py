"""Lexical entity extraction: people, places, organizations, titles and kinship terms.

zh uses jieba part-of-speech tags (nr person, ns place, nt organization) plus a lexicon of
titles and kinship terms; en uses capitalized spans, filtered for sentence starts and stop
words, with honorifics kept as part of the name. A frequency threshold keeps noise out.
"""

from __future__ import annotations

import re
from collections import Counter

from longnovel.injection import lexicon
from longnovel.injection.text import sentence_spans

ENTITY_TYPES = ("person", "place", "org", "title", "kinship")
_ZH_FLAGS = {"nr": "person", "nrfg": "person", "nrt": "person", "ns": "place", "nt": "org"}
_HONORIFIC = "|".join(re.escape(h) for h in sorted(set(lexicon.EN_HONORIFICS), key=len,
                                                       reverse=True))
_CAP_WORD = r"[A-Z][a-z]+(?:['’][a-z]+)?"
_EN_SPAN = re.compile(
    rf"(?:(?:{_HONORIFIC})\s+)?{_CAP_WORD}(?:\s+(?:of\s+|de\s+|van\s+)?{_CAP_WORD})*"
)


def extract_entities(text: str, language: str, min_count: int = 2) -> list[dict]:
    """Entities of ``text`` as ``{name, type, count}``, most frequent first."""
    if language == "zh":
        counts = _zh_counts(text)
    else:
        counts = _en_counts(text)
    return _as_rows({k: v for k, v in counts.items() if v >= min_count})


def merge_entities(per_unit: list[list[dict]]) -> list[dict]:
    """Merge per-unit entity lists: counts summed per (name, type)."""
    counts: Counter = Counter()
    for entities in per_unit:
        for ent in entities:
            counts[(ent["name"], ent["type"])] += int(ent["count"])
    return _as_rows(counts)


def _as_rows(counts) -> list[dict]:
    rows = [{"name": n, "type": t, "count": c} for (n, t), c in counts.items()]
    return sorted(rows, key=lambda r: (-r["count"], r["name"], r["type"]))


def _zh_counts(text: str) -> Counter:
    import jieba
    import jieba.posseg as pseg

    jieba.setLogLevel(60)
    counts: Counter = Counter()
    for token in pseg.cut(text):
        kind = _ZH_FLAGS.get(token.flag)
        word = token.word.strip()
        if kind and len(word) >= 2 and word not in lexicon.ZH_STOP_NAMES:
            counts[(word, _zh_kind(word, kind))] += 1
    for kind, words in (("title", lexicon.ZH_TITLES), ("kinship", lexicon.ZH_KINSHIP)):
        for word in words:
            n = text.count(word)
            if n:
                counts[(word, kind)] += n
    return counts


def _zh_kind(word: str, kind: str) -> str:
    """jieba often tags place names ending in 府, 州, 山 ... as person names; trust the suffix."""
    if word[-1] in lexicon.ZH_PLACE_SUFFIXES:
        return "place"
    if word[-1] in lexicon.ZH_ORG_SUFFIXES:
        return "org"
    return kind


def _en_counts(text: str) -> Counter:
    spans = Counter()
    mid_sentence = set()
    context: dict[str, Counter] = {}
    for start, end in sentence_spans(text, "en"):
        for match in _EN_SPAN.finditer(text, start, end):
            name = _trim_stopwords(match.group())
            if not name:
                continue
            spans[name] += 1
            offset = match.start() + match.group().index(name)
            if _starts_sentence(text, start, offset) is False:
                mid_sentence.add(name)
            context.setdefault(name, Counter())[_previous_word(text, offset)] += 1
    counts: Counter = Counter()
    for name, n in spans.items():
        if name in mid_sentence or " " in name:
            counts[(name, _en_kind(name, context[name], n))] += n
    counts.update(_en_lexicon_counts(text))
    return counts


def _trim_stopwords(span: str) -> str:
    words = span.split()
    while words and words[0] in lexicon.EN_STOPWORDS:
        words.pop(0)
    while words and words[-1] in lexicon.EN_STOPWORDS | {"of", "de", "van"}:
        words.pop()
    name = " ".join(words)
    return "" if name in lexicon.EN_HONORIFICS else name


def _starts_sentence(text: str, sentence_start: int, offset: int) -> bool:
    before = text[sentence_start:offset].strip(" \"'“‘(")
    return before == ""


def _previous_word(text: str, offset: int) -> str:
    match = re.search(r"([A-Za-z]+)\W*$", text[max(0, offset - 30) : offset])
    return match.group(1).lower() if match else ""


def _en_kind(name: str, previous: Counter, n: int) -> str:
    words = name.split()
    if words[0] in lexicon.EN_HONORIFICS or words[0].rstrip(".") + "." in lexicon.EN_HONORIFICS:
        return "person"
    if words[-1] in lexicon.EN_ORG_SUFFIXES:
        return "org"
    if words[-1] in lexicon.EN_PLACE_SUFFIXES:
        return "place"
    near_place = sum(c for w, c in previous.items() if w in lexicon.EN_PLACE_PREPOSITIONS)
    return "place" if near_place >= 0.6 * n and near_place >= 2 else "person"


def _en_lexicon_counts(text: str) -> Counter:
    counts: Counter = Counter()
    lowered = text.lower()
    for kind, words in (("title", lexicon.EN_TITLES), ("kinship", lexicon.EN_KINSHIP)):
        for word in words:
            n = len(re.findall(rf"\b{re.escape(word)}s?\b", lowered))
            if n:
                counts[(word, kind)] += n
    return counts
