"""Sentences a rule may borrow from the book's other unit summaries: each opens with a
character of this window and tells an event of its own, in the writer's own words, so that
what a rule adds is neither a retelling of this summary nor words the writer does not use
(fabrication adds such a sentence; causal ``replace`` makes one the wrong cause)."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from longnovel.injection.generators.rules.draft import (
    Draft,
    find_names,
    split_opener,
    strip_time_phrase,
    tells_its_date,
)
from longnovel.injection.lexicon.en import EN_GO_ON_VERBS, EN_REPLY_VERBS, EN_STOPWORDS
from longnovel.injection.nlp import inflect
from longnovel.injection.nlp.commentary import is_commentary
from longnovel.injection.nlp.sentences import split_sentences

# Words that point at something the donor's own paragraph told ("this", "again", "too"), or
# at people it named (he, them): out of that paragraph they point at nothing.
_EN_ANCHORED = re.compile(r"(?i)\b(?:he|she|him|they|them|it|this|these|those|that|there|"
                          r"again|also|too|another|other|same|such|both|former|latter|"
                          r"finally|then|meanwhile|still|instead|however|but|so)\b")
# "her" as an object ("urged her to", "gave her Orrin's letter"): someone the donor's own
# paragraph named
_EN_OBJECT_HER = re.compile(r"\bher(?=\s*[,.;!?]|\s+(?:to|a|an|the|that|and|in|on|at|with|"
                            r"from|for|some|back|up|out|off|into|about|[A-Z]))")
# Verbs that go on with, or answer, what the donor's own paragraph told ("presses on to ask",
# "complies", "replies") and "the incident": out of that paragraph they follow nothing.
_EN_CONTINUES = re.compile(r"(?i)\b(?:(?:press(?:es|ed)?|go(?:es)?|went|carr(?:y|ies|ied)) on|"
                           r"the incident|the rest)\b|"
                           + inflect.verb_forms_pattern(EN_REPLY_VERBS | EN_GO_ON_VERBS))
_ZH_ANCHORED = re.compile(r"他们|她们|它|这|那|又|也|再|还|仍|却|但|于是|然后|最后|另|此|继续|照办|"
                          r"答应|回答")
_ZH_PRONOUN = re.compile(r"[他她]")


def donors(draft: Draft, people: list[str]) -> list[tuple[bool, str, str]]:
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
    for earlier, text in nearest_units(draft.outside):
        for sentence in split_sentences(text, draft.language):
            body = strip_time_phrase(split_opener(sentence, draft.zh)[1], draft.zh)
            found = find_names(body, people, draft.zh)
            if not found or found[0][0] != 0 or not 8 <= len(body) <= limit:
                continue
            # (no quotation, no aside, no letter heading such as "Miss Howe to Clarissa.--")
            if re.search(r"[“”\"‘’「」()（）:：;；]|--|—|–", body) or \
                    is_commentary(body, draft.language):
                continue
            rest = _own_pronouns_out(draft, body[found[0][1]:], found)
            if (_ZH_ANCHORED.search(rest) or _ZH_PRONOUN.search(rest)) if draft.zh \
                    else (_EN_ANCHORED.search(rest) or _EN_OBJECT_HER.search(rest)
                          or _EN_CONTINUES.search(rest)):
                continue
            if draft.zh and not body.endswith(("。", "！", "？")):
                continue
            if draft.zh and _ends_on_a_bare_verb(body):
                continue  # 韩石说可以去石湾渡的聚源油行买: buy what? its paragraph said
            if tells_its_date(body, draft.zh):
                continue  # "Wren noted the high water ... on the twelfth", added to the night
                # of the twentieth: a date from another part of the book is another time
            if _names_from_elsewhere(draft, body):
                continue  # "Retief and Hoshick eat ...": Hoshick is no one this summary knows
            if not draft.zh and not (body[-1:] in ".!?" and len(body.split()) >= 4):
                continue
            terms = frozenset(content_terms(body, draft.language)) - names
            if len(terms) < least or frames[_frame_key(body, draft.language)] >= 2:
                continue
            out.append((earlier, found[0][2], body))
    return out


def _ends_on_a_bare_verb(body: str) -> bool:
    """Does a zh sentence end on a verb of one character with nothing after it (…油行买。)?
    Its object was in the sentence before, in the donor's own paragraph."""
    from longnovel.injection.nlp.zh.segment import tagged_words

    words = [(w, flag) for w, flag in tagged_words(body) if flag != "x"]
    return bool(words) and len(words[-1][0]) == 1 and words[-1][1].startswith("v")


_SUBJECT_PRONOUN = {"m": (re.compile(r"\bhe\b"), "他"), "f": (re.compile(r"\bshe\b"), "她")}


def _own_pronouns_out(draft: Draft, rest: str, found: list) -> str:
    """``rest`` (a borrowed sentence after the name it opens with) less the subject pronouns
    that can only be that person: a "he" or "she" of the opener's gender (他, 她), where the
    sentence names no one else ("Wren climbed the tower and found that she could see the
    Bar"). Writers use them in most sentences; borrowed sentences without any read as
    another hand's (pronouns per sentence told added sentences from the writer's own)."""
    gender = draft.gender_of(found[0][2])
    if gender not in _SUBJECT_PRONOUN or len({name for _, _, name in found}) > 1:
        return rest
    pattern, zh_pronoun = _SUBJECT_PRONOUN[gender]
    if draft.zh:
        return re.sub(rf"{zh_pronoun}(?![们])", "", rest)
    return pattern.sub("", rest)


def _names_from_elsewhere(draft: Draft, body: str) -> bool:
    """Does ``body`` name, after its first word, someone or something (a capitalized word)
    that neither this window's summary writes nor its article names (the window's entities)?
    An invention is told with this window's names; one the window never meets ("Retief and
    Hoshick eat", Hoshick arriving chapters later) is a tell for any reader."""
    if draft.zh:
        return _zh_names_from_elsewhere(draft, body)
    known = draft.memo("window_words", lambda: set(re.findall(r"[\w'’-]+", " ".join(
        [draft.summary] + [e["name"] for e in draft.entities]))))
    for word in re.findall(r"(?<=\s)[A-Z][\w'’-]*", body):
        if word not in known and word not in EN_STOPWORDS:
            return True
    return False


def _zh_names_from_elsewhere(draft: Draft, body: str) -> bool:
    """The zh reading of ``_names_from_elsewhere``: a person's name (jieba's nr tag, two or
    more characters) that neither the summary writes nor the window's entities hold
    (顾衡山说，二十年前鲁少棠的父亲鲁伯庸借给他三十两银子, where no 鲁 is in this window:
    seed 4939's reading)."""
    from longnovel.injection.nlp.zh.segment import tagged_words

    names = draft.memo("entity_names", lambda: "\n".join(e["name"] for e in draft.entities))
    return any(flag.startswith("nr") and len(word) >= 2 and word not in draft.summary
               and word not in names for word, flag in tagged_words(body))


NEAREST_UNITS = 2  # unit summaries on each side of the window that sentences are borrowed from


def nearest_units(outside: tuple) -> tuple:
    """Of the book's units outside the window (in book order), the ``NEAREST_UNITS`` just
    before it and just after it, nearest first. What comes next in the book is the natural
    continuation of this window's story, and each window draws on its own neighbours: drawn
    from the whole book, a few striking sentences filled the invented content of every window
    (two sentences were all five fabrication rows of one book, read by hand)."""
    before = [unit for unit in outside if unit[0]][::-1][:NEAREST_UNITS]
    after = [unit for unit in outside if not unit[0]][:NEAREST_UNITS]
    return tuple(after + before)


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


def retells(draft: Draft, body: str) -> bool:
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
