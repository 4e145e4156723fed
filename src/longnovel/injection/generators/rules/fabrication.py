"""Invented content: an invented follow-up event (``continue``), an earlier event retold later
as if it happened again (``repeat``), or an invented thought or feeling (``psychology``).
Each adds exactly one sentence; names come from the summary and the window's entities."""

from __future__ import annotations

import re

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules.draft import Draft, split_opener, strip_time_phrase
from longnovel.injection.lexicon.en import EN_TEMPORAL_OPENERS
from longnovel.injection.lexicon.zh import ZH_TEMPORAL_OPENERS
from longnovel.injection.nlp.sentences import sentence_body

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


_EN_FEELING = re.compile(r"\b(?:feels?|felt|fears?|feared|hopes?|hoped|wish(?:es|ed)?|"
                         r"loves?|loved|hates?|hated|suspects?|suspected|resolves?|resolved|"
                         r"decides?|decided|worries|worried|longs|longed|regrets?|regretted|"
                         r"believes?|believed|realizes?|realized|is (?:angry|afraid|ashamed|"
                         r"jealous|happy|relieved)|was (?:angry|afraid|ashamed|jealous|happy|"
                         r"relieved))\b")
_ZH_FEELING = re.compile(r"感到|觉得|心想|担心|害怕|决定|决心|怀疑|希望|喜欢|恨|后悔|羡慕|嫉妒|"
                         r"高兴|伤心|难过|生气|不安|暗自|心中|心里")


def _psychology(draft: Draft) -> list[Edit]:
    """A thought or feeling the summary gives one character, given to another one after a
    sentence about that other one."""
    feeling = _ZH_FEELING if draft.zh else _EN_FEELING
    return _borrowed(draft, "psychology", lambda body: bool(feeling.search(body)))


def _continue(draft: Draft) -> list[Edit]:
    """An event the summary tells of one character, told again of another one right after a
    sentence about that other one: invented, in the summary's own words."""
    feeling = _ZH_FEELING if draft.zh else _EN_FEELING
    return _borrowed(draft, "continue",
                     lambda body: not feeling.search(body) and not _describes_a_state(
                         body, draft.zh))


def _borrowed(draft: Draft, subtype: str, fits) -> list[Edit]:
    out = []
    subjects = [_subject(draft, i) for i in range(len(draft.sentences))]
    for j, _sentence in enumerate(draft.sentences):
        source = _subject_sentence(draft, j)
        if not source or not fits(source[1]):
            continue
        name, body = source
        for i, target in enumerate(subjects):
            if abs(i - j) < 2 or not target or target == name or target in body:
                continue
            new = _retold(draft, body, name, target)
            if new:
                out.append(draft.insert_after(i, new, subtype))
    return out


def _subject_sentence(draft: Draft, j: int) -> tuple[str, str] | None:
    """(name, sentence without its time phrase or opener) when sentence ``j`` opens with a
    character's name and names no one else."""
    sentence = draft.sentences[j]
    rest = strip_time_phrase(split_opener(sentence, draft.zh)[1], draft.zh)
    found = draft.mentions(j, draft.names("person"))
    if len(found) != 1 or not rest.startswith(found[0][2]):
        return None
    if re.search(r"[“”\"]", rest) or len(rest) > (60 if draft.zh else 200):
        return None
    return found[0][2], rest


def _retold(draft: Draft, body: str, name: str, target: str) -> str | None:
    """``body`` about ``target`` instead of ``name``; None when a pronoun would still point
    at ``name`` (en: he/she after the name)."""
    new = target + body[len(name):]
    if not draft.zh and re.search(r"\b(?:he|she|him|her|his|hers|himself|herself)\b", new):
        return None
    if draft.zh and re.search(r"[他她]", new):
        return None
    return new


def _repeat(draft: Draft) -> list[Edit]:
    """Retell sentence ``i`` after a later sentence ``j`` (at least one sentence between)."""
    out = []
    opener = _writers_opener(draft)
    for i, sentence in enumerate(draft.sentences):
        if not _subject(draft, i) or _names_only_pronoun_start(draft, sentence):
            continue
        rest = strip_time_phrase(split_opener(sentence, draft.zh)[1], draft.zh)
        if not rest or _describes_a_state(rest, draft.zh):
            continue
        rest = _main_clause(rest, draft.zh, _subject(draft, i))
        retold = (opener + draft.lower_first(rest)) if opener else rest
        for j in range(i + 2, len(draft.sentences)):
            out.append(draft.insert_after(j, retold, "repeat"))
    return out


_EN_CLAUSE_END = re.compile(r"\s*(?:[,;:]|--|—)\s*")
_ZH_CLAUSE_END = re.compile(r"[，；：]")


def _main_clause(sentence: str, zh: bool, name: str | None) -> str:
    """The sentence up to its first clause break, when that part is an event of its own (a
    retold event is told shortly, as a summary tells a thing again: "Alcinous calls a council,
    in which it is resolved ..." is retold "Alcinous calls a council."); else the sentence."""
    body, end = sentence_body(sentence, "zh" if zh else "en")
    m = (_ZH_CLAUSE_END if zh else _EN_CLAUSE_END).search(body)
    if not m:
        return sentence
    head = body[: m.start()]
    if zh and len(head) < 5 or not zh and (len(head.split()) < 4 or re.search(
            r"\b(?:who|which|that|whom|whose|when|while|if|as|because|although)\b", head)):
        return sentence  # "Aeneas, going out ..." has no event before its comma
    if re.search(r"[“”\"‘’(（]", head) or not name or name not in head:
        return sentence  # the part must keep the one it is about
    if head.rstrip()[-1:] in ".。!！?？":
        return sentence  # "From the same.--Has had ...": the break follows a full stop
    return head + end


def _describes_a_state(sentence: str, zh: bool) -> bool:
    """Does the sentence describe a state rather than tell an event?"""
    return bool((_ZH_STATE if zh else _EN_STATE).match(sentence))


def _names_only_pronoun_start(draft: Draft, sentence: str) -> bool:
    """A sentence opening with a pronoun would be retold about the wrong person."""
    body = sentence_body(sentence, draft.language)[0]
    if draft.zh:
        return body.startswith(("他", "她"))
    return bool(re.match(r"(He|She|They|It|His|Her)\b", body))



def _writers_opener(draft: Draft) -> str:
    """A time connective the summary's writer opens a sentence with ("Later, ", "后来，"), to
    open the retold sentence; "" when the writer uses none."""
    openers = ZH_TEMPORAL_OPENERS if draft.zh else EN_TEMPORAL_OPENERS
    for sentence in draft.sentences:
        opener = split_opener(sentence, draft.zh)[0]
        if opener and opener.rstrip(" ，,") in openers:
            return opener
    return ""
