"""Relation errors: a stated relationship replaced by another (``replace``: teacher -> father),
or an acquaintance turned into kin the book never mentions (``invent``: friend -> cousin)."""

from __future__ import annotations

from longnovel.injection import lexicon
from longnovel.injection.candidate import Edit
from longnovel.injection.ops.base import Draft, word_edits


def edits(draft: Draft) -> list[Edit]:
    if draft.zh:
        tables = (lexicon.ZH_RELATION_REPLACE, lexicon.ZH_RELATION_INVENT)
    else:
        tables = (lexicon.EN_RELATION_REPLACE, lexicon.EN_RELATION_INVENT)
    return word_edits(draft, tables[0], "replace") + word_edits(draft, tables[1], "invent")
