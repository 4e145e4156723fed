"""What an edit must never do, checked on every rule edit before it is offered and on every
LLM candidate before it is validated: touch the summary writer's commentary about the book,
change words inside a quotation, or produce a word that is not a word (``won't`` ->
``lost't``, "opportely"). ``fault`` says which, in the reason code a rejected row records.
"""

from __future__ import annotations

import re
from functools import lru_cache

from longnovel.injection.candidate import Edit
from longnovel.injection.text import changed_parts, is_commentary, quoted_spans

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
    return fault(draft, edit) is None


def fault(draft, edit: Edit) -> str | None:
    """Why ``edit`` must not be offered, or None: ``commentary`` (it touches, or writes, the
    summary writer's commentary about the book), ``inside_quote`` (it changes words inside a
    quotation), ``broken_contraction: <word>`` or ``nonword: <word>`` (en: a new lower-case
    word outside the lexicon). The same checks for the rules and the LLM generator."""
    return place_fault(draft, edit) or word_fault(draft, edit)


def place_fault(draft, edit: Edit) -> str | None:
    """``commentary`` or ``inside_quote`` when ``edit`` changes what must stay, else None."""
    if _touches_commentary(draft, edit) or is_commentary(edit.hallucinated_span, draft.language):
        return "commentary"
    if _inside_quote(draft.summary, edit):
        return "inside_quote"
    return None


_EN_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
_ZH_DOUBLED = re.compile(r"(了|的|着|过|地|得|被|把)\1")


def _doubled(text: str, zh: bool) -> list[str]:
    return [m.group(1).lower() for m in (_ZH_DOUBLED if zh else _EN_DOUBLED).finditer(text)]


def word_fault(draft, edit: Edit) -> str | None:
    """``repeated_word: <word>`` for a word the edit doubles ("leave of wife wife Andromache",
    拒绝了了), ``nonword: <word>`` or ``broken_contraction: <word>`` for the first new English
    word of ``edit`` outside the lexicon, else None."""
    old = _doubled(edit.original_span, draft.zh)
    for word in _doubled(edit.hallucinated_span, draft.zh):
        if word not in old:
            return f"repeated_word: {word}"
    if draft.zh:
        return None
    word = first_nonword(edit.hallucinated_span, draft.summary)
    if word is None:
        return None
    kind = "broken_contraction" if re.search(r"['’]t$", word, re.IGNORECASE) else "nonword"
    return f"{kind}: {word}"


def _touches_commentary(draft, edit: Edit) -> bool:
    for start, end in draft.commentary_spans:
        overlaps = start < edit.end and edit.start < end
        follows = edit.start == edit.end and end == edit.start  # an added sentence after it
        if overlaps or follows:
            return True
    return False


def changed_region(old: str, new: str) -> tuple[int, int]:
    """(start, end) in ``old`` of the characters an edit from ``old`` to ``new`` changes."""
    start, end, _ = changed_parts(old, new)
    return start, end


def _inside_quote(summary: str, edit: Edit) -> bool:
    """Does ``edit`` change words inside a quotation of the summary? A quotation within the
    replaced text must come back whole (a swapped pair keeps its quotations); where a
    quotation reaches past the replaced text, or holds an added sentence, the edit must not
    change it."""
    old = summary[edit.start : edit.end]
    a, b = changed_region(old, edit.text)
    a, b = edit.start + a, edit.start + max(a, b)
    for qa, qb in quoted_spans(summary):
        if edit.start <= qa and qb <= edit.end and edit.start < edit.end:
            if summary[qa:qb] not in edit.text:
                return True
        elif qa < b and a < qb if a < b else qa < a < qb:
            return True
    return False


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
