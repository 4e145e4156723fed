"""Event errors: the action changed (``verb``: talked -> quarreled) or the result changed
(``outcome``: released -> detained), both from a contrast lexicon. ``merge`` is left to LLM
generators: fusing two events honestly needs an understanding of the story."""

from __future__ import annotations

from longnovel.injection import lexicon
from longnovel.injection.candidate import Edit
from longnovel.injection.ops.base import Draft, word_edits


def edits(draft: Draft) -> list[Edit]:
    if draft.zh:
        verbs, outcomes = lexicon.ZH_EVENT_VERBS, lexicon.ZH_EVENT_OUTCOMES
    else:
        verbs, outcomes = lexicon.EN_EVENT_VERBS, lexicon.EN_EVENT_OUTCOMES
    # 答应不告诉 -> 拒绝不告诉 would be a double negative, not a changed outcome
    blocked = ("不", "没") if draft.zh else ()
    return (word_edits(draft, verbs, "verb", blocked, _after_perfect)
            + word_edits(draft, outcomes, "outcome", blocked, _after_perfect))


def _after_perfect(sentence: str, start: int, new: str) -> str:
    """After had/has/have the replacement takes its participle: "had walked" -> "had ridden",
    "had escaped" -> "had been captured"."""
    before = sentence[:start].split()[-1:]
    if not before or before[0].lower() not in ("had", "has", "have", "having"):
        return new
    first, _, rest = new.partition(" ")
    return " ".join(w for w in (lexicon.EN_PARTICIPLE_OF.get(first, first), rest) if w)
