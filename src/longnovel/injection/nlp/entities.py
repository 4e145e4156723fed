"""Lexical entity extraction: people, places, organizations, titles and kinship terms, as
rows ``{name, type, count}`` (zh: ``zh.entities``, en: ``en.entities``), a person's row also
with ``gender`` ("m" or "f") where the text shows it. A frequency threshold keeps noise out."""

from __future__ import annotations

from collections import Counter, defaultdict

from longnovel.injection.nlp.en.entities import en_entities
from longnovel.injection.nlp.zh.entities import zh_entities

ENTITY_TYPES = ("person", "place", "org", "title", "kinship")
NAMED_TYPES = ("person", "place", "org")  # a name is of one of these at a time


def extract_entities(text: str, language: str, min_count: int = 2,
                     backend: str = "lexical") -> list[dict]:
    """Entities of ``text`` as ``{name, type, count}`` (and ``gender``), most frequent first;
    ``backend`` ``lexical``, or ``spacy`` for spaCy's recogniser on English (Chinese stays
    with jieba's tags)."""
    if language == "zh":
        counts, genders = zh_entities(text, min_count)
    elif backend == "spacy":
        from longnovel.injection.nlp.en.ner import spacy_entities

        counts, genders = spacy_entities(text)
    else:
        counts, genders = en_entities(text)
    kept = _one_type_per_name(Counter({k: v for k, v in counts.items() if v >= min_count}))
    return _as_rows(kept, {(name, "person"): {g: 1} for name, g in genders.items()})


def merge_entities(per_unit: list[list[dict]]) -> list[dict]:
    """Merge per-unit entity lists: counts summed per (name, type); a name typed as a person
    in some units and a place or organization in others keeps the type most of its
    mentions have (ties: neither); a person's gender is the one most mentions show."""
    counts: Counter = Counter()
    genders: dict = defaultdict(Counter)
    for entities in per_unit:
        for ent in entities:
            key = (ent["name"], ent["type"])
            counts[key] += int(ent["count"])
            if ent.get("gender"):
                genders[key][ent["gender"]] += int(ent["count"])
    return _as_rows(_one_type_per_name(counts), genders)


def _one_type_per_name(counts: Counter) -> Counter:
    by_name: dict[str, list] = defaultdict(list)
    for (name, kind), n in counts.items():
        if kind in NAMED_TYPES:
            by_name[name].append((n, kind))
    out = Counter(counts)
    for name, kinds in by_name.items():
        if len(kinds) < 2:
            continue
        kinds.sort(reverse=True)
        for _, kind in kinds[1:]:
            del out[(name, kind)]
        if kinds[0][0] == kinds[1][0]:
            del out[(name, kinds[0][1])]
    return out


def _as_rows(counts, genders=None) -> list[dict]:
    rows = []
    for (name, kind), n in counts.items():
        row = {"name": name, "type": kind, "count": n}
        votes = (genders or {}).get((name, kind))
        if votes:
            (top, a), *rest = Counter(votes).most_common(2)
            if not rest or rest[0][1] * 2 < a:
                row["gender"] = top
        rows.append(row)
    return sorted(rows, key=lambda r: (-r["count"], r["name"], r["type"]))
