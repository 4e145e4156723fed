"""Numeric errors: a count, age, amount or duration changed (``quantity``), or a date, hour,
season or time of day changed (``time``). Arabic and Chinese numerals, en number words."""

from __future__ import annotations

import random
import re

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules.draft import Draft, splice
from longnovel.injection.nlp.numerals import CN_NUMERAL_CHARS, cn_to_int, int_to_cn, year_to_cn
from longnovel.injection.nlp.text import match_case

_ZH_MEASURES = ("个", "年", "岁", "天", "月", "名", "位", "次", "匹", "只", "本", "封", "座", "间",
                "把", "条", "件", "头", "枚", "元", "块", "里", "人", "日", "夜", "小时", "分钟",
                "周", "步", "口", "家", "户", "艘", "辆", "张", "支", "队", "箱", "斤", "杯", "碗",
                "套", "层", "两银子", "文", "贯", "丈", "尺", "亩", "场", "回", "遍", "刀", "拳")
_ZH_TIME_UNITS = ("月", "日", "号", "点", "时", "点钟", "更")
_ZH_NUMBER = re.compile(rf"(\d+|[{CN_NUMERAL_CHARS}]+)(?=({'|'.join(_ZH_TIME_UNITS + _ZH_MEASURES)}))")
_ZH_SKIP_BEFORE = "第初"
_ZH_COUNTED_ONE = ("岁", "年", "小时", "元", "两银子", "里", "月", "日", "号", "点", "时", "点钟")
_EN_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
             "twelve", "twenty", "thirty", "forty", "fifty", "hundred", "thousand"]
_EN_WORD_VALUES = dict(zip(_EN_WORDS, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 30, 40, 50, 100,
                                       1000], strict=False))
_EN_NUMBER = re.compile(r"\b(\d{1,3}(?:,\d{3})*|\d+|" + "|".join(_EN_WORDS) + r")\b", re.IGNORECASE)
_EN_TIME_AFTER = re.compile(r"^\s*(o'clock|a\.m\.|p\.m\.|am\b|pm\b)", re.IGNORECASE)
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_EN_TIME_WORDS = {"morning": "evening", "evening": "morning", "dawn": "dusk", "dusk": "dawn",
                  "noon": "midnight", "midnight": "noon", "spring": "autumn",
                  "autumn": "spring", "summer": "winter", "winter": "summer",
                  "yesterday": "last week", "tonight": "tomorrow night"}
_NAME_PATTERNS = {name: re.compile(rf"\b{name}\b") for names in (_MONTHS, _DAYS) for name in names}
_TIME_WORD_PATTERNS = {word: re.compile(rf"\b{word}\b", re.IGNORECASE) for word in _EN_TIME_WORDS}
_ZH_TIME_WORDS = {"早上": "晚上", "晚上": "早上", "清晨": "傍晚", "傍晚": "清晨", "上午": "下午",
                  "下午": "上午", "中午": "半夜", "半夜": "中午", "深夜": "清晨", "春天": "秋天",
                  "秋天": "春天", "夏天": "冬天", "冬天": "夏天", "昨天": "前天", "明天": "后天",
                  "除夕": "元宵", "中秋": "端午", "端午": "中秋", "黄昏": "清晨", "黎明": "黄昏"}


def edits(draft: Draft) -> list[Edit]:
    rng = random.Random(draft.summary)
    out = []
    for i, sentence in enumerate(draft.sentences):
        changes = _zh_changes(sentence, rng) if draft.zh else _en_changes(sentence, rng)
        for subtype, new in changes:
            edit = draft.replace_sentence(i, new, subtype)
            if edit:
                out.append(edit)
    return out


def _zh_changes(sentence: str, rng: random.Random) -> list[tuple[str, str]]:
    out = []
    for m in _ZH_NUMBER.finditer(sentence):
        if m.start() and sentence[m.start() - 1] in _ZH_SKIP_BEFORE:
            continue
        # 六月十六夜里: a day of the month, whatever follows it
        unit = "日" if m.start() and sentence[m.start() - 1] == "月" else m.group(2)
        subtype = "time" if _zh_is_time(m.group(1), unit, sentence, m.end()) else "quantity"
        for new in _zh_new_numbers(m.group(1), unit, rng):
            out.append((subtype, splice(sentence, m.start(1), m.end(1), new)))
    for word, new in _ZH_TIME_WORDS.items():
        for m in re.finditer(word, sentence):
            out.append(("time", splice(sentence, m.start(), m.end(), new)))
    return out


def _zh_new_numbers(digits: str, unit: str, rng: random.Random) -> list[str]:
    arabic = digits.isdigit()
    value = int(digits) if arabic else cn_to_int(digits)
    if value is None or (value == 1 and not arabic and unit not in _ZH_COUNTED_ONE):
        return []  # 一天, 一个, 一场 are mostly "some day", "a", not counts
    is_year = unit == "年" and len(digits) == 4
    out = []
    for new in changed_values(value, rng, is_year=is_year):
        if unit in ("月",) and not 1 <= new <= 12 or unit in ("日", "号") and not 1 <= new <= 28:
            new = value % 9 + 1 if value % 9 + 1 != value else value + 1
        if arabic:
            text = str(new)
        else:  # before a measure word 2 is 两 (两天, 两个), in dates it is 二 (二月, 二日)
            text = year_to_cn(new) if is_year else int_to_cn(new, liang=unit not in ("月", "日",
                                                                                    "号"))
        if text not in out:
            out.append(text)
    return out


def _zh_is_time(digits: str, unit: str, sentence: str, end: int) -> bool:
    if unit == "年":
        return len(digits) == 4
    return unit in _ZH_TIME_UNITS and not sentence[end:].startswith("个")


def _en_changes(sentence: str, rng: random.Random) -> list[tuple[str, str]]:
    out = []
    for m in _EN_NUMBER.finditer(sentence):
        news, is_time = _en_new_numbers(m.group(), sentence[m.end():], rng)
        for new in news:
            out.append(("time" if is_time else "quantity", splice(sentence, m.start(), m.end(), new)))
    for names in (_MONTHS, _DAYS):
        for k, name in enumerate(names):
            if name not in sentence:
                continue
            for m in _NAME_PATTERNS[name].finditer(sentence):
                if name == "May" and not re.search(r"\d", sentence[m.end():m.end() + 4]):
                    continue
                for step in (1, 2, 3, -1, -2, -3):
                    other = names[(k + step) % len(names)]
                    out.append(("time", splice(sentence, m.start(), m.end(), other)))
    for word, new in _EN_TIME_WORDS.items():
        for m in _TIME_WORD_PATTERNS[word].finditer(sentence):
            out.append(("time", splice(sentence, m.start(), m.end(), match_case(m.group(), new))))
    return out


def _en_new_numbers(token: str, after: str, rng: random.Random) -> tuple[list[str], bool]:
    """The stand-ins for a number: number words within three of it (two -> three, four,
    five), or a few plausible values of a figure."""
    word = token.lower()
    if word in _EN_WORD_VALUES:
        value = _EN_WORD_VALUES[word]
        others = [w for w in _EN_WORDS[:11] if w != word and abs(_EN_WORD_VALUES[w] - value) <= 3] \
            if value <= 12 else [w for w in _EN_WORDS[11:] if w != word]
        return [match_case(token, w) for w in others], bool(_EN_TIME_AFTER.match(after))
    value = int(token.replace(",", ""))
    is_year = 1000 <= value <= 2100 and "," not in token
    is_time = is_year or bool(_EN_TIME_AFTER.match(after))
    out = []
    for new in changed_values(value, rng, is_year=is_year):
        if is_time and not is_year and not 1 <= new <= 12:
            new = value % 12 + 1
        text = f"{new:,}" if "," in token else str(new)
        if text not in out and text != token:
            out.append(text)
    return out, is_time


def changed_values(value: int, rng: random.Random, is_year: bool = False,
                   count: int = 3) -> list[int]:
    """Up to ``count`` different values from ``changed_value``, in the order drawn: the rules
    offer them all, and the ledger picks the one that keeps the numbers brought in like
    those taken out (a generator that always writes "eleven" is read by what it writes)."""
    out: list[int] = []
    for _ in range(count * 4):
        new = changed_value(value, rng, is_year)
        if new != value and new not in out:
            out.append(new)
            if len(out) == count:
                break
    return out


def changed_value(value: int, rng: random.Random, is_year: bool = False) -> int:
    """A different, plausible value: years move by a few, small counts by one to three,
    larger numbers by 20-50%."""
    if is_year:
        return value + rng.choice([-3, -2, 2, 3, 5])
    if value <= 1:
        return rng.choice([2, 3])
    if value <= 12:
        options = [v for v in range(max(1, value - 2), value + 4) if v != value]
        return rng.choice(options)
    delta = max(1, round(value * rng.choice([0.2, 0.3, 0.5])))
    return value + delta if rng.random() < 0.6 else max(2, value - delta)
