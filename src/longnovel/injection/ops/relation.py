"""Relation errors: a stated relationship replaced by another (``replace``: teacher -> father),
or an acquaintance turned into kin the book never mentions (``invent``: friend -> cousin)."""

from __future__ import annotations

import re

from longnovel.injection import lexicon
from longnovel.injection.candidate import Edit
from longnovel.injection.ops.base import Draft, word_edits


def edits(draft: Draft) -> list[Edit]:
    if draft.zh:
        tables = (lexicon.ZH_RELATION_REPLACE, lexicon.ZH_RELATION_INVENT)
    else:
        tables = (lexicon.EN_RELATION_REPLACE, lexicon.EN_RELATION_INVENT)
    return (word_edits(draft, _own_words_first(draft, tables[0]), "replace")
            + word_edits(draft, _own_words_first(draft, tables[1]), "invent"))


def _own_words_first(draft: Draft, table: dict[str, list[str]]) -> dict[str, list[str]]:
    """The table with each word's replacements narrowed to relation words the summary itself
    uses elsewhere, when it uses any (a swap between the writer's own words leaves no new
    word behind); else to those of the table's replacements that the book uses (the window's
    kinship and title entities, counted in its article); else the table's own replacements."""
    words = _relation_words(draft)
    books = {e["name"] for e in draft.entities if e["type"] in ("kinship", "title")}
    out = {}
    for word, replacements in table.items():
        own = [w for w in words if w != word and _same_number(w, word, draft.zh)]
        in_book = [w for w in replacements if w in books or w.rstrip("s") in books]
        out[word] = own or in_book or list(replacements)
    return out


def _relation_words(draft: Draft) -> list[str]:
    known = {w for table in (lexicon.ZH_RELATION_REPLACE, lexicon.ZH_RELATION_INVENT,
                             lexicon.EN_RELATION_REPLACE, lexicon.EN_RELATION_INVENT)
             for w in table}
    if draft.zh:
        return sorted(w for w in known if len(w) > 1 and w in draft.summary)
    return sorted(known & set(re.findall(r"[a-zé]+", draft.summary.lower())))


def _same_number(a: str, b: str, zh: bool) -> bool:
    return zh or a.endswith("s") == b.endswith("s")
