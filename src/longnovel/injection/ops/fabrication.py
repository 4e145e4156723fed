"""Invented content: an invented follow-up event (``continue``), an earlier event retold later
as if it happened again (``repeat``), or an invented thought or feeling (``psychology``).
Each adds exactly one sentence; names come from the summary and the window's entities."""

from __future__ import annotations

import re

from longnovel.injection import lexicon
from longnovel.injection.candidate import Edit
from longnovel.injection.ops.base import Draft, strip_time_phrase
from longnovel.injection.ops.temporal import _split_opener
from longnovel.injection.text import sentence_body

_PAST_HINT = re.compile(r"\b(was|were|had|did|went|said|told|came|\w+ed)\b")
# A description ("Wren was seventeen", "韩石是大徒弟"): not an event that can happen again.
_EN_STATE = re.compile(r"^[A-Z][\w'’ -]{0,40}? (?:is|was|are|were|has been|had been|seemed|"
                       r"looked|lay|stood)\b")
_ZH_STATE = re.compile(r"^[^，。]{1,8}?(?:是|有|姓|叫|名叫|今年|已经)")


def edits(draft: Draft) -> list[Edit]:
    return _psychology(draft) + _continue(draft) + _repeat(draft)


def _subject(draft: Draft, i: int) -> str | None:
    """The first character named in sentence ``i``."""
    found = draft.mentions(i, draft.names("person"))
    return found[0][2] if found else None


def _templates(draft: Draft, zh_list: list[str], en_pairs: list[tuple[str, str]]) -> list[str]:
    """The zh templates, or the en ones in the tense the summary is mostly written in."""
    if draft.zh:
        return zh_list
    past = len(_PAST_HINT.findall(draft.summary)) > len(re.findall(r"\b\w+s\b", draft.summary)) / 3
    return [pair[past] for pair in en_pairs]


def _psychology(draft: Draft) -> list[Edit]:
    templates = _templates(draft, lexicon.ZH_REACTIONS, lexicon.EN_REACTIONS)
    out = []
    for i in range(len(draft.sentences)):
        name = _subject(draft, i)
        if name:
            template = templates[(i + len(draft.summary)) % len(templates)]
            out.append(draft.insert_after(i, template.format(name=name), "psychology"))
    return out


def _continue(draft: Draft) -> list[Edit]:
    templates = _templates(draft, lexicon.ZH_FOLLOW_UPS, lexicon.EN_FOLLOW_UPS)
    people, places = draft.names("person"), draft.names("place")
    out = []
    for i in range(len(draft.sentences)):
        name = _subject(draft, i)
        if not name:
            continue
        others = [p for p in people if p not in name and name not in p]
        fill = {"name": name, "other": others[0] if others else None,
                "place": _place_phrase(draft, places[0]) if places else None}
        usable = [t for t in templates if all(fill[k] for k in re.findall(r"{(\w+)}", t))]
        if usable:
            template = usable[(i + len(draft.summary)) % len(usable)]
            out.append(draft.insert_after(i, template.format(**fill), "continue"))
    return out


def _place_phrase(draft: Draft, place: str) -> str:
    """``the Harbour Tower`` when the summary names the place with an article (en)."""
    if not draft.zh and re.search(rf"\b[Tt]he {re.escape(place)}\b", draft.summary):
        return "the " + place
    return place


def _repeat(draft: Draft) -> list[Edit]:
    """Retell sentence ``i`` after a later sentence ``j`` (at least one sentence between)."""
    out = []
    opener = lexicon.ZH_REPEAT_OPENER if draft.zh else lexicon.EN_REPEAT_OPENER
    for i, sentence in enumerate(draft.sentences):
        if not _subject(draft, i) or _names_only_pronoun_start(draft, sentence):
            continue
        rest = strip_time_phrase(_split_opener(sentence, draft.zh)[1], draft.zh)
        if not rest or _describes_a_state(rest, draft.zh):
            continue
        retold = opener + draft.lower_first(rest)
        for j in range(i + 2, len(draft.sentences)):
            out.append(draft.insert_after(j, retold, "repeat"))
    return out


def _describes_a_state(sentence: str, zh: bool) -> bool:
    """Does the sentence describe a state rather than tell an event?"""
    return bool((_ZH_STATE if zh else _EN_STATE).match(sentence))


def _names_only_pronoun_start(draft: Draft, sentence: str) -> bool:
    """A sentence opening with a pronoun would be retold about the wrong person."""
    body = sentence_body(sentence, draft.language)[0]
    if draft.zh:
        return body.startswith(("他", "她"))
    return bool(re.match(r"(He|She|They|It|His|Her)\b", body))

