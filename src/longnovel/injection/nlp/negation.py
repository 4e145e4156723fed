"""Words that deny: what a sentence must hold to say "not" (en) or 不/没 (zh)."""

from __future__ import annotations

import re

EN_NEGATED = re.compile(r"\b(?:not|never|no|nor|nothing|nobody|none|neither|cannot)\b|n['’]t\b",
                        re.IGNORECASE)
ZH_NEGATORS = ("不", "没", "未", "别", "非", "无")


def denies(text: str, zh: bool) -> bool:
    """Does ``text`` hold a word that denies?"""
    return any(c in text for c in ZH_NEGATORS) if zh else bool(EN_NEGATED.search(text))
