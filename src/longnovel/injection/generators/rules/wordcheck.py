"""What an edit must never do, checked on every rule edit before it is offered and on every
LLM candidate before it is validated: touch the summary writer's commentary about the book,
change words inside a quotation, or produce a word that is not a word (``won't`` ->
``lost't``, "opportely"). ``fault`` says which, in the reason code a rejected row records.
"""

from __future__ import annotations

import re

from longnovel.injection.candidate import Edit
from longnovel.injection.nlp.commentary import is_commentary, quoted_spans
from longnovel.injection.nlp.text import changed_parts
from longnovel.injection.nlp.words import first_nonword


def acceptable(draft, edit: Edit) -> bool:
    """Does ``edit`` keep clear of commentary and quotations, and write only real words?"""
    return fault(draft, edit) is None


def fault(draft, edit: Edit) -> str | None:
    """Why ``edit`` must not be offered, or None: ``commentary`` (it touches, or writes, the
    summary writer's commentary about the book), ``inside_quote`` (it changes words inside a
    quotation), ``broken_contraction: <word>`` or ``nonword: <word>`` (en: a new lower-case
    word outside the lexicon). The same checks for the rules and the LLM generator."""
    return place_fault(draft, edit) or word_fault(draft, edit)


def place_fault(draft, edit: Edit) -> str | None:
    """``commentary`` or ``inside_quote`` when ``edit`` changes what must stay, else None."""
    if _touches_commentary(draft, edit) or is_commentary(edit.hallucinated_span, draft.language):
        return "commentary"
    if _inside_quote(draft.summary, edit):
        return "inside_quote"
    return None


_EN_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
_ZH_DOUBLED = re.compile(r"(了|的|着|过|地|得|被|把)\1")


def _doubled(text: str, zh: bool) -> list[str]:
    return [m.group(1).lower() for m in (_ZH_DOUBLED if zh else _EN_DOUBLED).finditer(text)]


def word_fault(draft, edit: Edit) -> str | None:
    """``repeated_word: <word>`` for a word the edit doubles ("leave of wife wife Andromache",
    拒绝了了), ``nonword: <word>`` or ``broken_contraction: <word>`` for the first new English
    word of ``edit`` outside the lexicon, else None."""
    old = _doubled(edit.original_span, draft.zh)
    for word in _doubled(edit.hallucinated_span, draft.zh):
        if word not in old:
            return f"repeated_word: {word}"
    if draft.zh:
        return None
    word = first_nonword(edit.hallucinated_span, draft.summary)
    if word is None:
        return None
    kind = "broken_contraction" if re.search(r"['’]t$", word, re.IGNORECASE) else "nonword"
    return f"{kind}: {word}"


def _touches_commentary(draft, edit: Edit) -> bool:
    for start, end in draft.commentary_spans:
        overlaps = start < edit.end and edit.start < end
        follows = edit.start == edit.end and end == edit.start  # an added sentence after it
        if overlaps or follows:
            return True
    return False


def changed_region(old: str, new: str) -> tuple[int, int]:
    """(start, end) in ``old`` of the characters an edit from ``old`` to ``new`` changes."""
    start, end, _ = changed_parts(old, new)
    return start, end


def _inside_quote(summary: str, edit: Edit) -> bool:
    """Does ``edit`` change words inside a quotation of the summary? A quotation within the
    replaced text must come back whole (a swapped pair keeps its quotations); where a
    quotation reaches past the replaced text, or holds an added sentence, the edit must not
    change it."""
    old = summary[edit.start : edit.end]
    a, b = changed_region(old, edit.text)
    a, b = edit.start + a, edit.start + max(a, b)
    for qa, qb in quoted_spans(summary):
        if edit.start <= qa and qb <= edit.end and edit.start < edit.end:
            if summary[qa:qb] not in edit.text:
                return True
        elif qa < b and a < qb if a < b else qa < a < qb:
            return True
    return False
