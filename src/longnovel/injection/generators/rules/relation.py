"""Relation errors: a stated relationship replaced by another (``replace``: teacher -> father),
or an acquaintance turned into kin the book never mentions (``invent``: friend -> cousin)."""

from __future__ import annotations

import re

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules.draft import Draft, word_edits
from longnovel.injection.lexicon.en import (
    EN_FEMALE_RELATIONS,
    EN_MALE_RELATIONS,
    EN_RELATION_INVENT,
    EN_RELATION_REPLACE,
)
from longnovel.injection.lexicon.zh import (
    ZH_FEMALE_CHARS,
    ZH_MALE_CHARS,
    ZH_RELATION_INVENT,
    ZH_RELATION_REPLACE,
)


def edits(draft: Draft) -> list[Edit]:
    if draft.zh:
        tables = (ZH_RELATION_REPLACE, ZH_RELATION_INVENT)
    else:
        tables = (EN_RELATION_REPLACE, EN_RELATION_INVENT)
    return (word_edits(draft, _own_words_first(draft, tables[0]), "replace", en_adapt=_fit)
            + word_edits(draft, _own_words_first(draft, tables[1]), "invent", en_adapt=_fit))


def _fit(sentence: str, start: int, end: int, new: str) -> str | None:
    """None where an en relation word is part of a compound ("great-grandfather" cannot
    become "great-mother") or a title before a name ("Aunt Mabry", "Master Pryce")."""
    if sentence[start - 1 : start] == "-" or sentence[end : end + 1] == "-":
        return None
    word = sentence[start:end]
    if start > 0 and word.istitle() and re.match(r"\s+[A-Z][a-z]", sentence[end:]):
        return None
    return new


def gender(word: str, zh: bool) -> str | None:
    """"m", "f" or None (either, or not known) for a relation word."""
    if zh:
        male = any(c in ZH_MALE_CHARS for c in word)
        female = any(c in ZH_FEMALE_CHARS for c in word)
        return None if male == female else ("m" if male else "f")
    word = word.lower()
    if word in EN_MALE_RELATIONS:
        return "m"
    return "f" if word in EN_FEMALE_RELATIONS else None


def _same_gender(a: str, b: str, zh: bool) -> bool:
    ga, gb = gender(a, zh), gender(b, zh)
    return ga is None or gb is None or ga == gb


def _own_words_first(draft: Draft, table: dict[str, list[str]]) -> dict[str, list[str]]:
    """The table with each word's replacements narrowed to relation words the summary itself
    uses elsewhere, when it uses any (a swap between the writer's own words leaves no new
    word behind); else to those of the table's replacements that the book uses (the window's
    kinship and title entities, counted in its article); else the table's own replacements."""
    words = _relation_words(draft)
    books = {e["name"] for e in draft.entities if e["type"] in ("kinship", "title")}
    out = {}
    for word, replacements in table.items():
        own = [w for w in words if w != word and _same_number(w, word, draft.zh)
               and _same_gender(w, word, draft.zh)]
        in_book = [w for w in replacements if w in books or w.rstrip("s") in books]
        out[word] = own or in_book or list(replacements)
    return out


def _relation_words(draft: Draft) -> list[str]:
    known = {w for table in (ZH_RELATION_REPLACE, ZH_RELATION_INVENT,
                             EN_RELATION_REPLACE, EN_RELATION_INVENT)
             for w in table}
    if draft.zh:
        return sorted(w for w in known if len(w) > 1 and w in draft.summary)
    return sorted(known & set(re.findall(r"[a-zé]+", draft.summary.lower())))


def _same_number(a: str, b: str, zh: bool) -> bool:
    return zh or a.endswith("s") == b.endswith("s")
