"""Simplified and traditional Chinese characters, through OpenCC: jieba's dictionary and the
lexicons are simplified, real novels and their summaries are often traditional."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=2)
def converter(config: str):
    """OpenCC's converter for ``config`` (``t2s``, ``s2t``), built once."""
    import opencc

    return opencc.OpenCC(f"{config}.json")


def to_simplified(text: str) -> str:
    """``text`` in simplified characters when the conversion is character for character (it
    nearly always is); else ``text`` itself, so offsets stay valid."""
    converted = converter("t2s").convert(text)
    return converted if len(converted) == len(text) else text


def to_traditional(text: str) -> str:
    """``text`` in traditional characters, or itself when the lengths would differ."""
    converted = converter("s2t").convert(text)
    return converted if len(converted) == len(text) else text


def is_traditional(text: str) -> bool:
    """Is ``text`` written in traditional characters? More of its characters change when
    simplified than when made traditional (and at least a few do)."""
    simplified = sum(a != b for a, b in zip(text, to_simplified(text), strict=False))
    traditional = sum(a != b for a, b in zip(text, to_traditional(text), strict=False))
    return simplified >= 2 and simplified > traditional
