"""Timeline errors: two adjacent event sentences told in the reverse order (``swap``).
A leading time connective ("Then", "随后") stays in its place so the text still reads well."""

from __future__ import annotations

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules.draft import Draft, split_opener
from longnovel.injection.nlp.text import upper_first

_MIN_CHARS = {"zh": 6, "en": 20}


def edits(draft: Draft) -> list[Edit]:
    out = []
    minimum = _MIN_CHARS["zh" if draft.zh else "en"]
    for i in range(len(draft.sentences) - 1):
        first, second = draft.sentences[i], draft.sentences[i + 1]
        if len(first) < minimum or len(second) < minimum or first == second:
            continue
        if _same_paragraph(draft, i):
            out.append(_swap(draft, i, first, second))
    return out


def _same_paragraph(draft: Draft, i: int) -> bool:
    return "\n" not in draft.summary[draft.spans[i][1] : draft.spans[i + 1][0]]


def _swap(draft: Draft, i: int, first: str, second: str) -> Edit:
    opener, rest = split_opener(second, draft.zh)
    if opener:
        new_first = rest if draft.zh else upper_first(rest)
        new_second = opener + draft.lower_first(first)
    else:
        new_first, new_second = second, first
    start, end = draft.spans[i][0], draft.spans[i + 1][1]
    between = draft.summary[draft.spans[i][1] : draft.spans[i + 1][0]]
    new = new_first + between + new_second
    return Edit("swap", start, end, new, draft.summary[start:end], new)
