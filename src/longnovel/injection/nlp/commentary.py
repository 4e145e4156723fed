"""What a summary's writer says about the book rather than tells of the story, and where its
quotations are."""

from __future__ import annotations

import re
from functools import lru_cache

# The summary writer speaking about the book rather than telling the story: "This chapter
# marks...", "The author contrasts...", "In this closing chapter the author...", "本章写...".
_EN_COMMENTARY = re.compile(
    r"\b(?:(?:this|the|these|that|next|previous|closing|opening|final|first|last) "
    r"(?:\w+ )?(?:chapters?|novel|section|narrative|arc|episode|passage|story|tale)\b"
    r"|the (?:author|narrator|reader|readers|novelist|text)\b|the (?:\w+ )?(?:author|narrator)'s"
    r"|(?:foreshadow|symboli[sz]|motif|themes?\b|irony|ironic|juxtapos)"
    # a story's frame named by its title: "Galactic Ghost begins with death."
    r"|^(?:[A-Z][\w'’-]* ){1,4}(?:begins|opens|starts|ends|closes|concludes) (?:with|in|on) "
    r"(?:a |an |the )?(?:death|murder|birth|scene|description|flashback|prologue|"
    r"introduction|dream|letter|war)\b)", re.IGNORECASE)
_ZH_COMMENTARY = re.compile(r"本章|本回|这一章|这一回|此章|此回|本节|作者|读者|小说|全书|笔下"
                            r"|伏笔|象征")
_QUOTES = re.compile(r"“[^”]*”|\"[^\"]*\"|「[^」]*」|『[^』]*』|‘[^’]*’(?!\w)|(?<!\w)'[^']*'(?!\w)")


@lru_cache(maxsize=65536)
def is_commentary(sentence: str, language: str) -> bool:
    """Does the sentence speak about the book (its chapters, author, reader, themes) rather
    than tell what happens in it?"""
    return bool((_ZH_COMMENTARY if language == "zh" else _EN_COMMENTARY).search(sentence))


@lru_cache(maxsize=256)
def quoted_spans(text: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of each quotation in ``text``, quote marks included (cached: every edit of a
    summary asks about the same summary)."""
    return tuple(m.span() for m in _QUOTES.finditer(text))
