"""The human-readable gold reason that goes with a valid injection."""

from __future__ import annotations

from longnovel.injection.candidate import Candidate
from longnovel.taxonomy import display_name

_EN_REASON = {
    "temporal": 'The summary tells these events in the order "{h}", but in the article they '
                'happen in the order "{o}".',
    "added": 'The summary adds "{h}", which the article does not support.',
    "changed": 'The summary says "{h}", but the article says "{o}".',
}
_ZH_REASON = {
    "temporal": "摘要将事件叙述为“{h}”，但原文中事件的先后顺序是“{o}”。",
    "added": "摘要增加了“{h}”，原文中没有这样的内容。",
    "changed": "摘要称“{h}”，但原文是“{o}”。",
}


def describe(candidate: Candidate, language: str) -> str:
    """The gold reason of an injected sample, in ``language``: the type, the changed
    sentence and what it contradicts."""
    templates = _ZH_REASON if language == "zh" else _EN_REASON
    if candidate.type == "temporal":
        key = "temporal"
    elif not candidate.original_span.strip():
        key = "added"
    else:
        key = "changed"
    sep = "：" if language == "zh" else ": "
    text = templates[key].format(h=candidate.hallucinated_span.strip(),
                                 o=candidate.original_span.strip())
    return display_name(candidate.type, language) + sep + text
