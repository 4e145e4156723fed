"""Is it an English word? The lexicon's function words and contractions, lemminflect's
dictionary and the word lists of ``english-words``."""

from __future__ import annotations

import re
from functools import lru_cache

from longnovel.injection.lexicon.en import EN_CONTRACTIONS, EN_FUNCTION_WORDS


@lru_cache(maxsize=256)
def _words_of(summary: str) -> frozenset[str]:
    """The words a summary already uses (cached: every edit of a summary asks)."""
    return frozenset(re.findall(r"[\w'’-]+", summary))


@lru_cache(maxsize=50000)
def is_english_word(word: str) -> bool:
    """A word of the English lexicon: a function word or contraction, a word lemminflect's
    dictionary knows, or one of the word lists of ``english-words`` (Webster's and GCIDE; an
    inflected form by its lemma), which hold the words lemminflect lacks ("against",
    "reflection", "gallery")."""
    from lemminflect import getAllLemmas, getAllLemmasOOV

    lower = word.lower()
    if lower in EN_FUNCTION_WORDS or lower in EN_CONTRACTIONS:
        return True
    if re.search(r"['’]", lower) or not lower.isalpha():
        return False
    if getAllLemmas(lower):
        return True
    listed = _word_lists()
    if lower in listed:
        return True
    lemmas = {lemma for upos in ("NOUN", "VERB", "ADJ")
              for lemma in getAllLemmasOOV(lower, upos).get(upos, ())}
    return any(lemma != lower and lemma in listed for lemma in lemmas)


@lru_cache(maxsize=1)
def _word_lists() -> frozenset[str]:
    from english_words import get_english_words_set

    return frozenset(get_english_words_set(["web2", "gcide"], lower=True, alpha=True))


_WORD = re.compile(r"[A-Za-z][\w'’]*")
_CLITIC_END = re.compile(r"['’](?:s|d|ll|re|ve|m)$")


def first_nonword(new_text: str, summary: str) -> str | None:
    """The first lower-case word of ``new_text`` that the summary does not already use and
    that is not a word, or None (names and capitalized words are left alone; a broken
    contraction is never a word)."""
    known = _words_of(summary)
    for word in _WORD.findall(new_text):
        apostrophe = "'" in word or "’" in word
        if apostrophe and _CLITIC_END.search(word):
            continue  # possessives and 'd/'ll forms of any word
        if word in known and not (apostrophe and word.lower().replace("’", "'")
                                  not in EN_CONTRACTIONS):
            continue
        if word[0].isupper() and not apostrophe:
            continue
        parts = [word] if apostrophe else word.split("-")
        if not all(is_english_word(p.replace("’", "'")) for p in parts if p):
            return word
    return None
