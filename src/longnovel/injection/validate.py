"""Sentence-level validation of a candidate, the same for every generator: one sentence
changed (or added, or two traded), the spans in the texts, the language and length kept."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

from longnovel.injection.candidate import Candidate
from longnovel.injection.nlp.sentences import split_edited, split_sentences
from longnovel.injection.nlp.text import changed_parts, letter_counts, share_of
from longnovel.taxonomy import TYPES

MIN_LENGTH_RATIO, MAX_LENGTH_RATIO = 0.7, 1.5
SWAP_SIMILARITY = 0.75


def validate(candidate: Candidate, language: str) -> str | None:
    """None when the candidate is a valid injection, else a short reason code."""
    old, new = candidate.original_summary, candidate.summary
    if candidate.subtype not in TYPES.get(candidate.type, {}).get("subtypes", []):
        return "unknown_subtype"
    if not new.strip() or not candidate.hallucinated_span.strip():
        return "empty"
    start, old_end, new_end = changed_parts(old, new)
    old_part, new_part = old[start:old_end], new[start:new_end]
    if _words_only(new_part) == _words_only(old_part):
        return "unchanged"  # the same as comparing the whole texts: the rest is shared
    reason = _check_language(old, old_part, new_part, language) or _check_length(old, new)
    if reason:
        return reason
    if candidate.hallucinated_span.strip() not in new:
        return "span_not_in_summary"
    if candidate.original_span.strip() and candidate.original_span.strip() not in old:
        return "original_span_not_in_original"
    return _check_sentences(candidate, language)


@lru_cache(maxsize=64)
def _normalized_old(text: str, language: str) -> tuple[str, ...]:
    return tuple(_normalize(s) for s in split_sentences(text, language))


def _normalized_sentences(text: str, language: str) -> list[str]:
    """The original summary's sentences, whitespace-normalized (cached: every type and
    attempt of a window validates against the same original)."""
    return list(_normalized_old(text, language))


def _normalize(text: str) -> str:
    return " ".join(text.split())


def _words_only(text: str) -> str:
    """``text`` in lower case without whitespace and punctuation: a summary whose only change
    is a comma ("第二天柴文炳" -> "第二天，柴文炳"), a full stop or a capital ("The Brothers
    Cheeryble" -> "The brothers Cheeryble") is unchanged."""
    return re.sub(r"[\W_]+", "", text).lower()


def _check_language(old: str, old_part: str, new_part: str, language: str) -> str | None:
    """The new summary's CJK share, from the original's (cached) counts and the edit's."""
    (cjk, latin), (cjk_new, latin_new), (cjk_old, latin_old) = (
        _letters(old), letter_counts(new_part), letter_counts(old_part))
    share = share_of(cjk + cjk_new - cjk_old, latin + latin_new - latin_old)
    if language == "zh" and share < 0.5 or language != "zh" and share > 0.2:
        return "language_changed"
    return None


@lru_cache(maxsize=64)
def _letters(text: str) -> tuple[int, int]:
    return letter_counts(text)


def _check_length(old: str, new: str) -> str | None:
    ratio = len(new) / max(1, len(old))
    return None if MIN_LENGTH_RATIO <= ratio <= MAX_LENGTH_RATIO else "length_ratio"


def changed_sentences(old: list[str], new: list[str]) -> tuple[list[int], list[int]]:
    """Indices of the sentences of ``old`` and ``new`` outside their longest common parts."""
    matcher = SequenceMatcher(a=old, b=new, autojunk=False)
    kept_old, kept_new = set(), set()
    for block in matcher.get_matching_blocks():
        kept_old.update(range(block.a, block.a + block.size))
        kept_new.update(range(block.b, block.b + block.size))
    return ([i for i in range(len(old)) if i not in kept_old],
            [j for j in range(len(new)) if j not in kept_new])


def _check_sentences(candidate: Candidate, language: str) -> str | None:
    old = _normalized_sentences(candidate.original_summary, language)
    new = [_normalize(s) for s in split_edited(candidate.original_summary, candidate.summary,
                                               language)]
    gone, added = changed_sentences(old, new)
    if candidate.type == "temporal":
        reason, added = _check_swap(old, new)
    elif candidate.type == "fabrication" and len(new) == len(old) + 1:
        reason = None if not gone and len(added) == 1 else "not_one_sentence_added"
    elif candidate.type == "fabrication" and candidate.subtype != "psychology":
        reason = "not_one_sentence_added"
    elif candidate.type == "causal" and len(new) == len(old) - 1:
        # an invented cause that joins two neighbouring sentences into one ("Because A, b.")
        merged = len(gone) == 2 and gone[1] == gone[0] + 1 and len(added) == 1
        reason = None if merged else "not_one_sentence_changed"
    else:
        reason = None if len(gone) == 1 and len(added) == 1 and len(old) == len(new) \
            else "not_one_sentence_changed"
    if reason:
        return reason
    changed = "".join(new[j] for j in added).replace(" ", "")
    span = "".join(candidate.hallucinated_span.split())
    return None if span in changed or changed in span else "span_not_the_change"


def _check_swap(old: list[str], new: list[str]) -> tuple[str | None, list[int]]:
    """Two sentences, and only two, trade places (small edits such as a moved "Then" allowed)."""
    differing = [k for k in range(min(len(old), len(new))) if old[k] != new[k]]
    if len(old) != len(new) or len(differing) != 2:
        return "not_a_swap", differing
    i, j = differing
    crossed = _similar(new[i], old[j]) and _similar(new[j], old[i])
    return (None if crossed else "not_a_swap"), differing


def _similar(a: str, b: str) -> bool:
    return SequenceMatcher(a=a, b=b, autojunk=False).ratio() >= SWAP_SIMILARITY
