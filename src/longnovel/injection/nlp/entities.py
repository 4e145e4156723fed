"""Lexical entity extraction: people, places, organizations, titles and kinship terms, as
rows ``{name, type, count}`` (zh: ``zh.entities``, en: ``en.entities``). A frequency threshold
keeps noise out."""

from __future__ import annotations

from collections import Counter

from longnovel.injection.nlp.en.entities import en_counts
from longnovel.injection.nlp.zh.entities import zh_counts

ENTITY_TYPES = ("person", "place", "org", "title", "kinship")


def extract_entities(text: str, language: str, min_count: int = 2) -> list[dict]:
    """Entities of ``text`` as ``{name, type, count}``, most frequent first."""
    counts = zh_counts(text, min_count) if language == "zh" else en_counts(text)
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
