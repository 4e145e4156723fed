"""Lexical entity extraction: people, places, organizations, titles and kinship terms.

zh finds person names from the text's own statistics (surname + given name, see
``zh_names``: invented names are not in jieba's dictionary), places and organizations from
jieba part-of-speech tags, and titles and kinship terms from a lexicon; en uses capitalized
spans, filtered for sentence starts and stop words, with honorifics kept as part of the name,
possessives removed, and typed by the words before them ("in the Harbour Tower" is a place,
"the fifth of Ashmonth" a date). A frequency threshold keeps noise out.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from longnovel.injection import lexicon, zh_names
from longnovel.injection.text import sentence_spans

ENTITY_TYPES = ("person", "place", "org", "title", "kinship")
_HONORIFIC = "|".join(re.escape(h) for h in sorted(set(lexicon.EN_HONORIFICS), key=len,
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


def extract_entities(text: str, language: str, min_count: int = 2) -> list[dict]:
    """Entities of ``text`` as ``{name, type, count}``, most frequent first."""
    if language == "zh":
        counts = _zh_counts(text, min_count)
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


def _zh_counts(text: str, min_count: int) -> Counter:
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
    for kind, words in (("title", lexicon.ZH_TITLES), ("kinship", lexicon.ZH_KINSHIP)):
        for word in words:
            n = text.count(word)
            if n:
                counts[(word, kind)] += n
    return counts


def zh_tagged(text: str, masked: str | None = None) -> list[tuple[str, str]]:
    """jieba ``(word, flag)`` tokens of ``text``, words in the text's own script; with
    ``masked`` (``text`` with names blanked out), a word that touches a blanked name is blank.

    The words are those of the one segmentation of the text that the person-name statistics
    made (``zh_names``), on its simplified form: jieba's dictionary is simplified, and its
    segmenting HMM finds words the dictionary lacks (invented places such as 青砚镇). A word's
    tag comes from the dictionary or, for a new word, from its last character (a place or an
    organization suffix) or a surname first character. jieba's part-of-speech HMM would tag
    new words itself, at 20-300 times the cost (a traditional-character novel: 118 s against
    0.5 s for 84k characters), too slow for a corpus of novels."""
    import jieba.posseg as pseg

    stats = zh_names.stats_of(text)
    simple, tags, out = stats.simplified, pseg.dt.word_tag_tab, []
    for start, end in stats.words:
        original, word = text[start:end], simple[start:end]
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


def _new_word_flag(word: str) -> str:
    if not _CJK.fullmatch(word):
        return "x"
    if len(word) >= 2 and word[-1] in lexicon.ZH_PLACE_SUFFIXES:
        return "ns"
    if len(word) >= 2 and word[-1] in lexicon.ZH_ORG_SUFFIXES:
        return "nt"
    if 2 <= len(word) <= 3 and word[0] in lexicon.ZH_SURNAMES:
        return "nr"
    return "x"


_SUFFIXES = lexicon.ZH_PLACE_SUFFIXES | lexicon.ZH_ORG_SUFFIXES
_CJK = re.compile(r"[\u4e00-\u9fff]+")


def _mask(text: str, names) -> str:
    """``text`` with every occurrence of ``names`` (longest first) replaced by spaces."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "\u3000" * len(name))
    return text


def _en_counts(text: str) -> Counter:
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
    return len(words) > 1 and words[-1] in people and words[-1] not in lexicon.EN_PLACE_SUFFIXES


def _name_pieces(match: re.Match) -> list[tuple[str, int]]:
    """Split a capitalized span at possessives: "Wren's Aunt Mabry" is two names, "Orrin's" is
    Orrin; a possessive before a place or organization word stays ("Quill's Foundry")."""
    span, base = match.group(), match.start()
    pieces, cursor = [], 0
    for m in re.finditer(_POSSESSIVE, span):
        rest = span[m.end() :].split()
        plural = not m.group().endswith("s")
        if len(rest) == 1 and (plural or rest[0] in lexicon.EN_PLACE_SUFFIXES
                               | lexicon.EN_ORG_SUFFIXES):
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
    while words and words[0] in lexicon.EN_STOPWORDS:
        words.pop(0)
    while words and words[-1] in lexicon.EN_STOPWORDS | {"of", "de", "van"}:
        words.pop()
    if all(w in lexicon.EN_HONORIFICS or w.rstrip(".") + "." in lexicon.EN_HONORIFICS
           or all(p in lexicon.EN_HONORIFICS for p in w.split("-")) for w in words):
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
        return bool(_ORDINAL.match(w2)) or w2 in lexicon.EN_DATE_OF
    return bool(_ORDINAL.match(w1)) or w1 in lexicon.EN_DATE_BEFORE


def _en_kind(name: str, contexts: list[tuple[str, str]]) -> str | None:
    """person / place / org from the name's words and the words before it; None for a date
    ("the fifth of Ashmonth") or a thing always named with "the" and never as a place."""
    words, n = name.split(), len(contexts)
    if words[0] in lexicon.EN_HONORIFICS or words[0].rstrip(".") + "." in lexicon.EN_HONORIFICS:
        return "person"
    if words[-1] in lexicon.EN_ORG_SUFFIXES:
        return "org"
    if words[-1] in lexicon.EN_PLACE_SUFFIXES:
        return "place"
    dates = sum(1 for w1, w2 in contexts if _date_context(w1, w2))
    if dates * 2 >= n:
        return None
    with_the = [w2 for w1, w2 in contexts if w1 == "the"]
    if len(with_the) * 2 >= n:
        # "on" is as often about time ("on the Long Tide") as about place: half weight
        spatial = sum(0.5 if w2 == "on" else 1 for w2 in with_the
                      if w2 in lexicon.EN_SPATIAL_PREPOSITIONS)
        return "place" if spatial * 4 >= len(with_the) else None
    near_place = sum(1 for w1, _ in contexts if w1 in lexicon.EN_PLACE_PREPOSITIONS)
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
    kinds = {w: "kinship" for w in lexicon.EN_KINSHIP}
    kinds.update({w: "title" for w in lexicon.EN_TITLES})
    words = "|".join(re.escape(w) for w in sorted(kinds, key=len, reverse=True))
    return re.compile(rf"\b({words})s?\b"), kinds


def extract_many(texts: list[tuple[str, str]], workers: int | None = None) -> list[list[dict]]:
    """``extract_entities`` of every (text, language), across processes when there are enough
    texts to pay for them (jieba's tagger is pure Python and holds the GIL)."""
    with EntityExtractor(workers) as extract:
        return extract(texts)


class EntityExtractor:
    """``extract_entities`` over batch after batch of (text, language), on one process pool
    kept for all of them (a corpus is read a batch of units at a time, never whole)."""

    def __init__(self, workers: int | None = None):
        import os

        self.workers = workers or len(os.sched_getaffinity(0))
        self._pool = None

    def __enter__(self) -> EntityExtractor:  # noqa: PYI034  (typing.Self needs 3.11)
        return self

    def __exit__(self, exc_type, *exc) -> None:
        if self._pool is not None:
            from longnovel.workers import stop_pool

            stop_pool(self._pool, failed=exc_type is not None)
            self._pool = None

    def __call__(self, texts: list[tuple[str, str]]) -> list[list[dict]]:
        if self.workers < 2 or (len(texts) < 8 and self._pool is None):
            return [extract_entities(text, language) for text, language in texts]
        if self._pool is None:
            from longnovel.workers import process_pool

            if any(language == "zh" for _, language in texts):
                _warm_jieba()  # load the dictionary once; forked workers inherit it
            self._pool = process_pool(self.workers)  # its workers die with the build
        chunks = max(1, len(texts) // (self.workers * 4))
        return list(self._pool.map(_extract_pair, texts, chunksize=chunks))


def _extract_pair(pair: tuple[str, str]) -> list[dict]:
    return extract_entities(*pair)


def _warm_jieba() -> None:
    import jieba
    import jieba.posseg as pseg

    jieba.setLogLevel(60)
    list(pseg.cut("预热"))
