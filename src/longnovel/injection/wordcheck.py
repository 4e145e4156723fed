"""What a rule edit must never do, checked on every edit before it is offered: touch the
summary writer's commentary about the book, change words inside a quotation, or produce a
word that is not a word (``won't`` -> ``lost't``)."""

from __future__ import annotations

import re
from functools import lru_cache

from longnovel.injection.candidate import Edit
from longnovel.injection.text import is_commentary, quoted_spans

# Contractions a summary may contain; any other "<word>'t" is a broken one.
EN_CONTRACTIONS = {
    "isn't", "wasn't", "aren't", "weren't", "can't", "couldn't", "won't", "wouldn't",
    "shouldn't", "mustn't", "hasn't", "haven't", "hadn't", "don't", "doesn't", "didn't",
    "needn't", "mightn't", "shan't", "ain't", "daren't", "oughtn't",
}
# Closed-class words a dictionary of content words does not list.
EN_FUNCTION_WORDS = frozenset(re.findall(r"\w+", 
    "a an the and or but nor if then than that this these those of to in on at by for with "
    "from into onto upon about after before over under as so not no yet his her its their "
    "him them he she it they we you i me my our your who whom whose which what when where why "
    "how while though although because since until till unless whether there here also too "
    "very again once each every either neither both all any some such own same other another "
    "is was are were be been being has have had do does did will would shall should can could "
    "may might must one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty "
    "seventy eighty ninety hundred thousand million first second third fourth fifth sixth "
    "seventh eighth ninth tenth eleventh twelfth twentieth half dozen o'clock"))


def acceptable(draft, edit: Edit) -> bool:
    """Does ``edit`` keep clear of commentary and quotations, and write only real words?"""
    if _touches_commentary(draft, edit) or is_commentary(edit.hallucinated_span, draft.language):
        return False
    if edit.subtype != "swap" and _inside_quote(draft.summary, edit):
        return False
    return draft.zh or _real_words(edit.hallucinated_span, draft.summary)


def _touches_commentary(draft, edit: Edit) -> bool:
    for start, end in draft.commentary_spans:
        overlaps = start < edit.end and edit.start < end
        follows = edit.start == edit.end and end == edit.start  # an added sentence after it
        if overlaps or follows:
            return True
    return False


def changed_region(old: str, new: str) -> tuple[int, int]:
    """(start, end) in ``old`` of the characters an edit from ``old`` to ``new`` changes."""
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while (suffix < min(len(old), len(new)) - prefix
           and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]):
        suffix += 1
    return prefix, len(old) - suffix


def _inside_quote(summary: str, edit: Edit) -> bool:
    old = summary[edit.start : edit.end]
    a, b = changed_region(old, edit.text)
    a, b = edit.start + a, edit.start + max(a, b)
    return any(qa < b and a < qb if a < b else qa < a < qb for qa, qb in quoted_spans(summary))


@lru_cache(maxsize=256)
def _words_of(summary: str) -> frozenset[str]:
    """The words a summary already uses (cached: every edit of a summary asks)."""
    return frozenset(re.findall(r"[\w'’-]+", summary))


@lru_cache(maxsize=50000)
def is_english_word(word: str) -> bool:
    """A word of the English lexicon (lemminflect's dictionary, or a function word)."""
    from lemminflect import getAllLemmas

    lower = word.lower()
    if lower in EN_FUNCTION_WORDS or lower in EN_CONTRACTIONS:
        return True
    if re.search(r"['’]", lower):
        return False
    return bool(getAllLemmas(lower))


def _real_words(new_text: str, summary: str) -> bool:
    """Every lower-case word of ``new_text`` that the summary does not already use is a word
    (names and capitalized words are left alone; a broken contraction is never a word)."""
    known = _words_of(summary)
    for word in re.findall(r"[A-Za-z][\w'’]*", new_text):
        apostrophe = re.search(r"['’]", word)
        if apostrophe and re.search(r"['’](?:s|d|ll|re|ve|m)$", word):
            continue  # possessives and 'd/'ll forms of any word
        if word in known and not (apostrophe and word.lower().replace("’", "'")
                                  not in EN_CONTRACTIONS):
            continue
        if word[0].isupper() and not apostrophe:
            continue
        parts = [word] if apostrophe else word.split("-")
        if not all(is_english_word(p.replace("’", "'")) for p in parts if p):
            return False
    return True
