"""Chinese numerals to and from integers."""

from __future__ import annotations

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
           "七": 7, "八": 8, "九": 9}
_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_DIGIT_CHARS = "〇一二三四五六七八九"
CN_NUMERAL_CHARS = "零〇一二两三四五六七八九十百千万"


def cn_to_int(text: str) -> int | None:
    """Value of a Chinese numeral (一百零八 -> 108, 一八一五 -> 1815), or None if malformed."""
    if not text or any(ch not in _DIGITS and ch not in _UNITS for ch in text):
        return None
    if not any(ch in _UNITS for ch in text):
        return int("".join(str(_DIGITS[ch]) for ch in text))
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in _DIGITS:
            digit = _DIGITS[ch]
        elif ch == "万":
            total += (section + (digit or 0)) * 10000
            section, digit = 0, None
        else:
            section += (1 if digit is None else digit) * _UNITS[ch]
            digit = None
    return total + section + (digit or 0)


def int_to_cn(value: int, liang: bool = False) -> str:
    """Chinese numeral of ``value`` (0 <= value < 100000000); ``liang`` writes 2 as 两."""
    if value == 2 and liang:
        return "两"
    if value < 10:
        return "零一二三四五六七八九"[value]
    if value >= 10000:
        high, low = divmod(value, 10000)
        rest = "" if low == 0 else ("零" if low < 1000 else "") + _below_10000(low)
        return _below_10000(high) + "万" + rest
    return _below_10000(value)


def _below_10000(value: int) -> str:
    out, zero = "", False
    for unit, name in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit, value = divmod(value, unit)
        if digit:
            out += ("零" if zero and out else "") + "零一二三四五六七八九"[digit] + name
            zero = False
        else:
            zero = True
    return out[1:] if out.startswith("一十") else out


def year_to_cn(value: int) -> str:
    """A year written digit by digit (1815 -> 一八一五)."""
    return "".join(_DIGIT_CHARS[int(d)] for d in str(value))
