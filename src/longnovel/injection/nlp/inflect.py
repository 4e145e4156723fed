"""English verb forms from lemminflect's dictionary."""

from __future__ import annotations

import re
from functools import lru_cache

from longnovel.injection.lexicon.en import EN_FUNCTION_WORDS


@lru_cache(maxsize=65536)
def verb_lemmas(word: str) -> tuple[str, ...]:
    """The lemmas lemminflect's dictionary gives ``word`` as a verb or auxiliary (none for a
    word it does not know as one: no guessing, so "and" is no verb)."""
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word.lower())
    return lemmas.get("VERB", ()) + lemmas.get("AUX", ())


def is_base_verb(word: str) -> bool:
    """Is ``word`` a verb's base form ("go", "be", "take"), as after a modal or "to"?"""
    return word.lower() in verb_lemmas(word)


def verb_forms_pattern(lemmas) -> str:
    """A regular expression (no groups) matching any form of the verbs ``lemmas`` as a whole
    word ("comply" -> comply, complies, complied, complying), by lemminflect's inflections."""
    from lemminflect import getAllInflections

    forms = set(lemmas)
    for lemma in lemmas:
        forms.update(form for found in getAllInflections(lemma, upos="VERB").values()
                     for form in found)
    return r"\b(?:" + "|".join(sorted(forms, key=lambda f: (-len(f), f))) + r")\b"


@lru_cache(maxsize=65536)
def word_classes(word: str) -> frozenset[str]:
    """The parts of speech lemminflect's dictionary knows ``word`` (any case) as: "NOUN",
    "VERB", "ADJ", "ADV", "AUX"; empty for a word it does not know."""
    from lemminflect import getAllLemmas

    return frozenset(getAllLemmas(word.lower()))


def only_noun(word: str) -> bool:
    """Is ``word`` a content word lemminflect's dictionary knows as a noun and as nothing else
    ("company", "officer"; not "ship", "walks", nor "his" or "that", which it also lists as
    nouns: the lexicon's function words are left out)?"""
    return word.lower() not in EN_FUNCTION_WORDS and word_classes(word) == {"NOUN"}


@lru_cache(maxsize=65536)
def noun_lemmas(word: str) -> tuple[str, ...]:
    """The lemmas of ``word`` as a noun ("children" -> "child"), by lemminflect's dictionary;
    empty for a word it does not know as a noun."""
    from lemminflect import getAllLemmas

    return tuple(getAllLemmas(word.lower()).get("NOUN", ()))


@lru_cache(maxsize=65536)
def verb_lemma(word: str) -> str | None:
    """The lemma of ``word`` as a verb ("rode" -> "ride", "was" -> "be"), or None when
    lemminflect's dictionary does not know it as one."""
    lemmas = verb_lemmas(word)
    return lemmas[0] if lemmas else None


def inflected(word: str, tag: str) -> str | None:
    """``word``, a verb in any form, in the form of the Penn tag ``tag`` (VB base, VBD past,
    VBN past participle, VBZ third person, VBG -ing) by lemminflect, or None for a word it
    does not know as a verb (no guessing at "-ed")."""
    from lemminflect import getInflection

    lemma = verb_lemma(word)
    if lemma is None:
        return None
    forms = getInflection(lemma, tag=tag)
    return forms[0] if forms else None


def past_participle(word: str) -> str | None:
    """"rode" -> "ridden", "was" -> "been", "wept" -> "wept"."""
    return inflected(word, "VBN")


def past_tense(word: str) -> str | None:
    """"go" -> "went", "refuse" -> "refused"."""
    return inflected(word, "VBD")


def third_person(word: str) -> str | None:
    """"go" -> "goes", "have" -> "has"."""
    return inflected(word, "VBZ")


_ASIDE = re.compile(r",\s*(?:who|whom|whose|which|where|when)\b[^,]*,")
_PAST_AUX = ("was", "were", "had", "did", "could", "would", "wasn", "weren", "hadn", "didn",
             "couldn", "wouldn")
_PRESENT_AUX = ("is", "are", "am", "has", "does", "can", "cannot", "will", "isn", "aren",
                "hasn", "doesn", "won")
_DETERMINERS = ("the", "a", "an", "his", "her", "their", "its", "my", "our", "your", "this",
                "that", "these", "those", "some", "many", "two", "three")


@lru_cache(maxsize=4096)
def clause_tense(clause: str) -> str | None:
    """"past" or "present": the tense of the clause's first finite verb (en), or None. A word
    after a determiner is taken for a noun ("the ships"), and an aside between commas that a
    relative word opens ("Wren, who began as an apprentice, now hands ...") is passed over:
    its verb is not the clause's."""
    clause = _ASIDE.sub("", clause)
    before = ""
    for written in re.findall(r"(?<![\w'’-])[A-Za-z]+", clause):
        word, after_determiner = written.lower(), before in _DETERMINERS
        before = word
        if after_determiner:
            continue
        if word in _PAST_AUX:
            return "past"
        if word in _PRESENT_AUX:
            return "present"
        lemma = verb_lemma(word) if written.islower() else None  # no name
        if lemma is None or lemma == word:
            continue
        if word == third_person(lemma):
            return "present"
        if word == past_tense(lemma):
            return "past"
    return None
