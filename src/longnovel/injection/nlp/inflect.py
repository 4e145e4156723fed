"""English verb forms from lemminflect's dictionary."""

from __future__ import annotations

from functools import lru_cache


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
