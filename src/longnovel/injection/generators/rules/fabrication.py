"""Invented content, drawn from the rest of the book: an event a later part of the book tells
of a character of this window (``continue``), an event an earlier part tells, told as if it
happened again (``repeat``), or a thought or feeling another part gives that character
(``psychology``). Each adds one sentence, the book's writer's own, after a sentence of the
summary about that character; the engine then checks that the window's article does not
tell it."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules.draft import (
    Draft,
    find_names,
    split_opener,
    strip_time_phrase,
)
from longnovel.injection.nlp.commentary import is_commentary
from longnovel.injection.nlp.sentences import split_sentences

# A description ("Wren was seventeen", "韩石是大徒弟"): not an event that can happen again.
_EN_STATE = re.compile(r"^[A-Z][\w'’ -]{0,40}? (?:is|was|are|were|has been|had been|seemed|"
                       r"looked|lay|stood)\b")
_ZH_STATE = re.compile(r"^[^，。]{1,8}?(?:是|有|姓|叫|名叫|今年|已经)")


def edits(draft: Draft) -> list[Edit]:
    return _psychology(draft) + _continue(draft) + _repeat(draft)


def places(draft: Draft) -> list[Edit]:
    """Where a model may add an invented sentence of its own (the ``llm`` generator): after
    each sentence but the first that names a character, for each sub-type. The edits hold
    the sentence they follow as a stand-in for the text the model writes."""
    out = []
    for subtype in ("psychology", "continue", "repeat"):
        out += [draft.insert_after(i, draft.sentences[i], subtype)
                for i in range(1, len(draft.sentences))
                if _subject(draft, i) and not draft.commentary_at(i)]
    return out


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
# Words that point at something the donor's own paragraph told ("this", "again", "too"), or
# at people it named (he, them): out of that paragraph they point at nothing.
_EN_ANCHORED = re.compile(r"(?i)\b(?:he|she|him|they|them|it|this|these|those|that|there|"
                          r"again|also|too|another|other|same|such|both|former|latter|"
                          r"finally|then|meanwhile|still|instead|however|but|so)\b")
# "her" as an object ("urged her to", "gave her Orrin's letter"): someone the donor's own
# paragraph named
_EN_OBJECT_HER = re.compile(r"\bher(?=\s*[,.;!?]|\s+(?:to|a|an|the|that|and|in|on|at|with|"
                            r"from|for|some|back|up|out|off|into|about|[A-Z]))")
_ZH_ANCHORED = re.compile(r"他们|她们|它|这|那|又|也|再|还|仍|却|但|于是|然后|最后|另|此")
_ZH_PRONOUN = re.compile(r"[他她]")


def _psychology(draft: Draft) -> list[Edit]:
    """A thought or feeling that another part of the book gives a character of this window,
    told here, after a sentence about that character."""
    feeling = _ZH_FEELING if draft.zh else _EN_FEELING
    return _from_the_book(draft, "psychology", lambda body, earlier: bool(feeling.search(body)))


def _continue(draft: Draft) -> list[Edit]:
    """An event that a later part of the book tells of a character of this window, told
    here, after a sentence about that character: it did not happen (yet) in this window."""
    feeling = _ZH_FEELING if draft.zh else _EN_FEELING
    return _from_the_book(draft, "continue", lambda body, earlier: not earlier and not (
        feeling.search(body) or _describes_a_state(body, draft.zh)))


def _repeat(draft: Draft) -> list[Edit]:
    """An event that an earlier part of the book tells of a character of this window, told
    again here as if it happened again."""
    feeling = _ZH_FEELING if draft.zh else _EN_FEELING
    return _from_the_book(draft, "repeat", lambda body, earlier: earlier and not (
        feeling.search(body) or _describes_a_state(body, draft.zh)))


def _from_the_book(draft: Draft, subtype: str, fits) -> list[Edit]:
    """Sentences of the book's other unit summaries that open with a character of this window
    and fit ``fits(body, earlier)``, each added after a sentence of this summary about that
    character (never its first sentence, so the summary still opens as the writer opened
    it). The sentence is the writer's own, from elsewhere in the book: no retelling of this
    summary, no words the writer does not use."""
    people = draft.names("person")
    if not people or not draft.outside:
        return []
    where: dict[str, list[int]] = {}
    for i in range(1, len(draft.sentences)):
        if not draft.commentary_at(i):
            for name in dict.fromkeys(found[2] for found in draft.mentions(i, people)):
                where.setdefault(name, []).append(i)
    out = []
    for earlier, name, body in draft.memo("donors", lambda: _donors(draft, people)):
        if name in where and fits(body, earlier) and not _retells(draft, body):
            out += [draft.insert_after(i, body, subtype) for i in where[name]]
    return out


def _donors(draft: Draft, people: list[str]) -> list[tuple[bool, str, str]]:
    """(earlier?, name, sentence) of the sentences of the book's other unit summaries that
    open with a character of this window's summary and stand on their own, and tell an event
    of their own: not a frame the writer repeats from part to part ("Ulysses continues his
    narration", true of every window where he narrates), nor one of under two content words
    besides the names (three character pairs in zh)."""
    from longnovel.injection.evidence import content_terms

    names = _name_terms(draft)
    frames = Counter(key for _, text in draft.outside
                     for key in set(_sentence_keys(text, draft.language)))
    least = 3 if draft.zh else 2
    out = []
    limit = 60 if draft.zh else 200
    for earlier, text in draft.outside:
        for sentence in split_sentences(text, draft.language):
            body = strip_time_phrase(split_opener(sentence, draft.zh)[1], draft.zh)
            found = find_names(body, people, draft.zh)
            if not found or found[0][0] != 0 or not 8 <= len(body) <= limit:
                continue
            # (no quotation, no aside, no letter heading such as "Miss Howe to Clarissa.--")
            if re.search(r"[“”\"‘’「」()（）:：;；]|--|—|–", body) or \
                    is_commentary(body, draft.language):
                continue
            rest = body[found[0][1]:]
            if (_ZH_ANCHORED.search(rest) or _ZH_PRONOUN.search(rest)) if draft.zh \
                    else (_EN_ANCHORED.search(rest) or _EN_OBJECT_HER.search(rest)):
                continue
            if draft.zh and not body.endswith(("。", "！", "？")):
                continue
            if not draft.zh and not (body[-1:] in ".!?" and len(body.split()) >= 4):
                continue
            terms = frozenset(content_terms(body, draft.language)) - names
            if len(terms) < least or frames[_frame_key(body, draft.language)] >= 2:
                continue
            out.append((earlier, found[0][2], body))
    return out


@lru_cache(maxsize=4096)
def _sentence_keys(text: str, language: str) -> tuple[frozenset, ...]:
    """``_frame_key`` of each sentence of one unit summary."""
    zh = language == "zh"
    return tuple(_frame_key(strip_time_phrase(split_opener(sentence, zh)[1], zh), language)
                 for sentence in split_sentences(text, language))


def _frame_key(body: str, language: str) -> frozenset:
    """What two tellings of one frame share: the content words of the sentence, less (en) the
    words written with a capital (the names)."""
    from longnovel.injection.evidence import content_terms

    if language != "zh":
        body = re.sub(r"(?:^|(?<=\s))[A-Z][\w'’.-]*", "", body)
    return frozenset(content_terms(body, language))


def _name_terms(draft: Draft) -> set[str]:
    """The content words of the characters' names (left out when two sentences are compared)."""
    from longnovel.injection.evidence import content_terms

    return draft.memo("name_terms", lambda: set(content_terms(
        " ".join(draft.names("person")), draft.language)))


def _retells(draft: Draft, body: str) -> bool:
    """Does ``body`` tell mostly what a sentence of this summary tells (its words other than
    the characters' names)?"""
    from longnovel.injection.evidence import content_terms

    names = _name_terms(draft)
    terms = set(content_terms(body, draft.language)) - names
    if not terms:
        return True
    sentences = draft.memo("sentence_terms", lambda: [set(content_terms(s, draft.language))
                                                      for s in draft.sentences])
    return any(len(terms & other) / len(terms) >= 0.5 for other in sentences)


def _describes_a_state(sentence: str, zh: bool) -> bool:
    """Does the sentence describe a state rather than tell an event?"""
    return bool((_ZH_STATE if zh else _EN_STATE).match(sentence))
