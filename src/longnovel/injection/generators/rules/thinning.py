"""Thinning that keeps each word of a swap coming in about as often as it goes out.

A rule that swaps word ``a`` for word ``b`` (a relation word, an outcome verb) finds ``a`` to
take out about as often as the writer writes it, but may bring ``b`` in wherever a summary
offers a place: left to the places summaries offer, the words that suit most others (a
"friend", a "refuses") come in far more often than they go out, and a reader learns them as
the mark of an edit. Keeping an edit ``a -> b`` with the chance ``min(1, n(b) / n(a))``, ``n``
how often the writer writes the word, keeps ``a -> b`` about ``min(n(a), n(b))`` times, as
often as ``b -> a`` (the acceptance of Metropolis and Hastings).

``n``: the times the book's summaries write the word (``Vocabulary.count``: en, in running
text, so "Aunt Mabry" is no use of "aunt"), plus ``PRIOR_WORDS`` uses shared out as the
language at large uses the words of the rule's lexicon (``wordfreq``): what a book of few
summaries has to go on. The chance is drawn from a digest of the summary and the edit: the
same edit of the same summary is always kept or always not.
"""

from __future__ import annotations

from functools import cache

from longnovel.injection.generators.rules.choice import digest
from longnovel.injection.generators.rules.draft import Draft

PRIOR_WORDS = 4


def kept(draft: Draft, old: str, new: str, lexicon: frozenset[str], *key) -> bool:
    """Is the edit that puts ``new`` in place of ``old`` kept? ``lexicon``: the words the
    rule swaps among (their frequencies share out the prior); ``key``: what names the edit
    in the digest. Where the book's summaries are not known, every edit is kept."""
    if draft.vocabulary is None:
        return True
    return drawn(uses(draft, new, lexicon) / max(uses(draft, old, lexicon), 1e-9), *key)


def drawn(chance: float, *key) -> bool:
    """True with the probability ``chance``, drawn from a digest of ``key``: the same key is
    always drawn the same way, in every build and process."""
    return chance >= 1 or (chance > 0 and digest(*key) < chance * 2 ** 64)


def uses(draft: Draft, word: str, lexicon: frozenset[str]) -> float:
    """How often the book's writer writes ``word``, with the prior."""
    return draft.vocabulary.count(word) + PRIOR_WORDS * _share(word, draft.language, lexicon)


@cache
def _share(word: str, language: str, lexicon: frozenset[str]) -> float:
    """``word``'s share of the uses of ``lexicon``'s words, in text at large (summed in
    sorted order: a set's order changes with each process's string hashing)."""
    total = sum(_frequency(w, language) for w in sorted(lexicon))
    return _frequency(word, language) / total if total else 0.0


@cache
def _frequency(word: str, language: str) -> float:
    from wordfreq import word_frequency

    return word_frequency(word, language, minimum=1e-8)
