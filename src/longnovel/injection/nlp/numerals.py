"""Numbers written in words: Chinese numerals (through ``cn2an``) and English number words
(read here, written by ``inflect``), to and from integers."""

from __future__ import annotations

import re
from functools import lru_cache

_DIGIT_CHARS = "〇一二三四五六七八九"
CN_NUMERAL_CHARS = "零〇一二两三四五六七八九十百千万"


def cn_to_int(text: str) -> int | None:
    """Value of a Chinese numeral (一百零八 -> 108, 一八一五 -> 1815), or None if malformed."""
    import cn2an

    if not text or any(ch not in CN_NUMERAL_CHARS for ch in text):
        return None
    try:
        return int(cn2an.cn2an(text, "smart"))
    except ValueError:
        return None


def int_to_cn(value: int, liang: bool = False) -> str:
    """Chinese numeral of ``value`` (0 <= value < 100000000); ``liang`` writes 2 as 两."""
    import cn2an

    if value == 2 and liang:
        return "两"
    return cn2an.an2cn(value)


def year_to_cn(value: int) -> str:
    """A year written digit by digit (1815 -> 一八一五)."""
    return "".join(_DIGIT_CHARS[int(d)] for d in str(value))


# --- English number words ---------------------------------------------------------------------

_EN_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
             "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
             "seventeen", "eighteen", "nineteen"]
_EN_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_EN_SCALES = {"hundred": 100, "thousand": 1000, "million": 1000000}
_EN_VALUES = {**{w: i for i, w in enumerate(_EN_UNITS)},
              **{w: 20 + 10 * i for i, w in enumerate(_EN_TENS)}}
_WORD = (rf"(?:{'|'.join(_EN_TENS)})(?:-(?:{'|'.join(_EN_UNITS[1:10])}))?"
         rf"|{'|'.join(sorted(_EN_UNITS, key=len, reverse=True))}|hundred|thousand|million")
EN_NUMBER_WORDS = re.compile(
    rf"(?<![\w-])(?:(?:an?)\s+(?=(?:hundred|thousand|million)\b))?(?:{_WORD})"
    rf"(?:(?:\s+and\s+|\s+|-)(?:{_WORD}))*(?![\w])", re.IGNORECASE)
"""A run of English number words ("two hundred and sixteen", "fifty-nine", "a hundred")."""


def en_words_to_int(text: str) -> int | None:
    """Value of a run of English number words, or None where it is not one number written the
    usual way ("two three", "seven-thirty" and "thousand-three" are none)."""
    tokens = re.split(r"[\s-]+", text.lower().strip())
    if tokens and tokens[0] in ("a", "an"):
        tokens[0] = "one"
    total, current = 0, 0
    for token in tokens:
        if token == "and":
            continue
        if token in _EN_VALUES:
            current += _EN_VALUES[token]
        elif token == "hundred":
            current = (current or 1) * 100
        elif token in _EN_SCALES:
            total, current = total + (current or 1) * _EN_SCALES[token], 0
        else:
            return None
    value = total + current
    return value if _normal(int_to_en_words(value, " and " in text.lower())) == \
        _normal(text) else None


def int_to_en_words(value: int, with_and: bool = True) -> str:
    """``value`` in English words, as a summary writes them ("two hundred and sixteen",
    "fifty-nine"; no comma after the thousands)."""
    return _engine().number_to_words(value, andword="and" if with_and else "").replace(",", "")


def _normal(text: str) -> str:
    words = re.split(r"[\s-]+", text.lower().replace(",", "").strip())
    if words and words[0] in ("a", "an"):
        words[0] = "one"
    return " ".join(w for w in words if w != "and")


@lru_cache(maxsize=1)
def _engine():
    return _import_inflect().engine()


def _import_inflect():
    """``inflect``, imported without typeguard's ``@typechecked`` on its methods: the
    decorator re-parses inflect's source for each of them (2-4 s per process here, jaraco/inflect
    issue 212) to add argument checks that our own calls do not need."""
    import sys

    if "inflect" in sys.modules:
        return sys.modules["inflect"]
    import typeguard

    checked = typeguard.typechecked
    typeguard.typechecked = _unchecked
    try:
        import inflect
    finally:
        typeguard.typechecked = checked
    return inflect


def _unchecked(target=None, **_options):
    """A stand-in for ``typeguard.typechecked`` that returns what it decorates."""
    return target if target is not None else _unchecked


def indefinite_article(word: str) -> str:
    """"a" or "an", as ``word`` needs ("an eleven-year-old", "a twelve-year-old")."""
    return _engine().a(word).split()[0]
