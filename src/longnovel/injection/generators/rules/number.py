"""Numeric errors: a count, age, amount or duration changed (``quantity``), or a date, hour,
season or time of day changed (``time``). Arabic and Chinese numerals, en number words.

Only a number that states a fact is changed: a count of something named after it ("fifty-nine
teeth", 三锭墨), an age, a year, a sum, a duration, an hour. Never a vague or idiomatic one ("a
drink or two", "one day", "one of", 一天, 三五天, 千里), never to or from one (its noun would
change number: "one man", "three men"), and the stand-in is one plausible for that quantity,
written as the writer wrote the number (words or digits, with "and" or without). A time word
("evening", 傍晚) is only brought in where the book's summaries use it.
"""

from __future__ import annotations

import random
import re

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules.draft import Draft, splice
from longnovel.injection.lexicon.en import EN_DATE_BEFORE
from longnovel.injection.nlp.numerals import (
    CN_NUMERAL_CHARS,
    EN_NUMBER_WORDS,
    cn_to_int,
    en_words_to_int,
    indefinite_article,
    int_to_cn,
    int_to_en_words,
    year_to_cn,
)
from longnovel.injection.nlp.script import to_simplified
from longnovel.injection.nlp.text import match_case, word_change
from longnovel.injection.nlp.zh.segment import is_idiom

_ZH_MEASURES = ("个", "年", "岁", "天", "月", "名", "位", "次", "匹", "只", "本", "封", "座", "间",
                "把", "条", "件", "头", "枚", "元", "块", "里", "人", "日", "夜", "小时", "分钟",
                "周", "步", "口", "家", "户", "艘", "辆", "张", "支", "队", "箱", "斤", "杯", "碗",
                "套", "层", "两银子", "文", "贯", "丈", "尺", "亩", "场", "回", "遍", "刀", "拳")
_ZH_TIME_UNITS = ("月", "日", "号", "点", "时", "点钟", "更")
_ZH_NUMBER = re.compile(
    rf"(\d+|[{CN_NUMERAL_CHARS}]+)(?=({'|'.join(_ZH_TIME_UNITS + _ZH_MEASURES)}))")
_ZH_SKIP_BEFORE = "第初几数"
_ZH_COUNTED_ONE = ("岁", "年", "小时", "元", "两银子", "里", "月", "日", "号", "点", "时", "点钟")
# Sayings with a number in them: not a count (千里迢迢, 百年老店, 一五一十).
_ZH_IDIOMS = ("千里", "万里", "百年", "千年", "万年", "一五一十", "三番五次", "三年五载",
              "九死一生", "十年寒窗", "三天两头", "三天打鱼")
_EN_TIME_AFTER = re.compile(r"^\s*(o'clock|o’clock|a\.m\.|p\.m\.|am\b|pm\b|in the (?:morning|"
                            r"evening|afternoon)|at night)", re.IGNORECASE)
_EN_DIGITS = re.compile(r"(?<![\w.,:])(\d{1,3}(?:,\d{3})+|\d+)(?![\w]|[.:]\d|,\d)")
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_EN_TIME_WORDS = {"morning": ["evening", "afternoon"], "evening": ["morning", "afternoon"],
                  "afternoon": ["morning", "evening"], "dawn": ["dusk", "noon"],
                  "dusk": ["dawn", "noon"], "noon": ["midnight", "dusk"],
                  "midnight": ["noon", "dawn"], "spring": ["autumn", "winter"],
                  "autumn": ["spring", "summer"], "summer": ["winter", "autumn"],
                  "winter": ["summer", "spring"], "tonight": ["tomorrow"],
                  "yesterday": ["today"], "today": ["yesterday"]}
_EN_SEASONS = {"spring", "summer", "autumn", "winter"}
# A season word is a season after one of these ("in spring"), not a verb ("spring to his feet").
_EN_SEASON_BEFORE = {"in", "the", "that", "this", "last", "next", "every", "until", "till", "by",
                     "since", "of", "early", "late", "following", "before", "after", "through"}
_NAME_PATTERNS = {name: re.compile(rf"\b{name}\b") for names in (_MONTHS, _DAYS) for name in names}
_TIME_WORD_PATTERNS = {word: re.compile(rf"\b{word}\b", re.IGNORECASE) for word in _EN_TIME_WORDS}
_ZH_TIME_WORDS = {"早上": ["晚上"], "晚上": ["早上"], "清晨": ["傍晚"], "傍晚": ["清晨"],
                  "上午": ["下午"], "下午": ["上午"], "中午": ["半夜"], "半夜": ["中午"],
                  "深夜": ["清晨"], "春天": ["秋天"], "秋天": ["春天"], "夏天": ["冬天"],
                  "冬天": ["夏天"], "昨天": ["前天"], "明天": ["后天"], "除夕": ["元宵"],
                  "中秋": ["端午"], "端午": ["中秋"], "黄昏": ["清晨"], "黎明": ["黄昏"]}
# What a count counts, besides plural nouns: units written in the singular after a number
# ("two hundred turns" is plural anyway; "a six-foot wall", "ten-year-old").
_EN_AGE_AFTER = re.compile(r"^(?:-year-old|-years-old|\s+years?\s+old|\s+years\s+of\s+age)\b")
_EN_AGE_BEFORE = re.compile(r"(?i)\b(?:aged|age of|ages of)\s+$")
_EN_PARTITIVE = re.compile(r"^\s+of\s+(?:them|us|you|these|those|the|his|her|their|its|our|my)\b")
_EN_NOT_COUNT_BEFORE = re.compile(r"(?i)\b(?:chapter|book|part|volume|act|scene|letter|page|"
                                  r"number|no\.|room|row|verse|psalm|section|stanza)\s+$")
_EN_PLURAL_NOUNS = {"people", "sheep", "cattle", "fish", "deer", "police", "children", "men",
                    "women", "feet", "teeth", "geese", "mice", "dozen", "score"}


def edits(draft: Draft) -> list[Edit]:
    rng = random.Random(draft.summary)
    out = []
    values = [values_in(sentence, draft.zh) for sentence in draft.sentences]
    around = values_in(draft.around, draft.zh) if draft.around else set()  # "nine years
    # ago" three times in the rest of the summary, outside the region (study corpus, seed 5545)
    for i, sentence in enumerate(draft.sentences):
        if draft.zh:
            changes = _zh_changes(draft, sentence, rng)
        else:
            changes = _en_changes(draft, sentence, rng)
        elsewhere = {v for j, found in enumerate(values) if j != i for v in found} | around
        for subtype, new in changes:
            if _restated(draft, sentence, new, elsewhere):
                continue
            edit = draft.replace_sentence(i, new, subtype)
            if edit:
                out.append(edit)
    return out


def values_in(sentence: str, zh: bool) -> set[int]:
    """The numbers a sentence writes (digits, Chinese numerals, en number words)."""
    if zh:
        return {v for m in _ZH_NUMBER.finditer(sentence)
                if (v := _value(m.group(1), True)) is not None}
    return {value for _, _, value, _ in _en_numbers(sentence)}


def _restated(draft: Draft, old: str, new: str, elsewhere: set[int]) -> bool:
    """Does another sentence of the summary write the number the edit changes (three or
    more)? It then contradicts the change ("柴文焕答应送四百张棉纸" two sentences before
    "送来二百张", seed 4939's reading). Two and one are too common to tell the same count."""
    removed, _ = word_change(old, new, draft.zh)
    value = _value(" ".join(removed), draft.zh) if removed else None
    return value is not None and value >= 3 and value in elsewhere


def preferred(draft: Draft, edits: list[Edit]) -> list[Edit]:
    """The edits the rules choose among: those that lower a count, when a summary offers any,
    else all. Writers write small counts far more often than large ones ("two" above all), and
    a count of two can only be raised: were the direction left to the places a summary
    offers, edits would raise counts far more often than lower them, and a reader would learn
    that "two" means "original"."""
    lowered = []
    for edit in edits:
        if edit.subtype != "quantity":
            continue
        removed, added = word_change(edit.original_span, edit.hallucinated_span, draft.zh)
        old, new = _value(" ".join(removed), draft.zh), _value(" ".join(added), draft.zh)
        if old is not None and new is not None and new < old:
            lowered.append(edit)
    return lowered or edits


def _value(text: str, zh: bool) -> int | None:
    text = text.strip().replace(",", "")
    if text.isdigit():
        return int(text)
    return cn_to_int(text) if zh else en_words_to_int(text.lower())


def writer_uses(draft: Draft, word: str) -> bool:
    """Does the summary, or the book's summaries, use ``word`` (en: a lower-case word)? True
    as well where too little of the book's summaries is known to tell."""
    if (word in draft.summary) if draft.zh else (word in draft.lower_words):
        return True
    vocabulary = draft.vocabulary
    return vocabulary is None or not vocabulary.enough or word in vocabulary


# --- zh -----------------------------------------------------------------------------------------

def _zh_changes(draft: Draft, sentence: str, rng: random.Random) -> list[tuple[str, str]]:
    out = []
    simplified = to_simplified(sentence)  # jieba's dictionary is simplified
    for m in _ZH_NUMBER.finditer(sentence):
        if _zh_vague(sentence, m) or (len(m.group(1)) == 1
                                      and _in_zh_idiom(simplified, m.start(1), m.end(1))):
            continue  # 半夜三更, 三心二意 (a set phrase's numeral is one character: 一百零八,
            # also in jieba's dictionary, is a count)
        # 六月十六夜里: a day of the month, whatever follows it
        unit = "日" if m.start() and sentence[m.start() - 1] == "月" else m.group(2)
        if unit in ("月", "日") and _ZH_FESTIVAL.search(sentence, m.start(), m.end() + 6):
            continue  # 十二月初八腊八: the festival fixes the date (the sample, seed 71)
        subtype = "time" if _zh_is_time(m.group(1), unit, sentence, m.end()) else "quantity"
        for new in _zh_new_numbers(m.group(1), unit, rng):
            out.append((subtype, splice(sentence, m.start(1), m.end(1), new)))
    for word, news in _ZH_TIME_WORDS.items():
        for m in re.finditer(word, sentence):
            if _in_zh_idiom(simplified, m.start(), m.end()):
                continue  # 半夜三更 is no 中午三更
            for new in news:
                if writer_uses(draft, new) and new not in sentence:
                    out.append(("time", splice(sentence, m.start(), m.end(), new)))
    return out


# A festival that falls on one date: a date told with it cannot change alone
_ZH_FESTIVAL = re.compile(r"腊八|除夕|元宵|端午|七夕|中秋|重阳|元旦|小年|春节|中元")


def _in_zh_idiom(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` (simplified) inside a four-character set phrase of jieba's
    dictionary (半夜三更 -> 半夜四更 breaks the phrase and changes no fact)?"""
    return any(is_idiom(text[i : i + 4])
               for i in range(max(0, end - 4), min(start, len(text) - 4) + 1))


def _zh_vague(sentence: str, m: re.Match) -> bool:
    """Is the numeral of ``m`` no count: an ordinal or date (第三, 初五), a range (三五天, 两三个,
    十几), a bare 百/千/万, or part of a saying (千里, 一五一十)?"""
    digits, start = m.group(1), m.start()
    if start and sentence[start - 1] in _ZH_SKIP_BEFORE:
        return True
    if sentence[m.end(1) : m.end(1) + 1] in "几余多来":
        return True
    if digits in ("百", "千", "万") or (len(digits) == 2 and not re.search("[十百千万]", digits)):
        return True
    around = sentence[max(0, start - 3) : m.end() + 3]
    return any(idiom in around for idiom in _ZH_IDIOMS)


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
        if new == 1 and unit not in _ZH_COUNTED_ONE:
            continue
        if arabic:
            text = str(new)
        else:  # before a measure word 2 is 两 (两天, 两个), in dates it is 二 (二月, 二日)
            text = year_to_cn(new) if is_year else int_to_cn(new, liang=unit not in ("月", "日",
                                                                                    "号"))
        if text not in out and text != digits:
            out.append(text)
    return out


def _zh_is_time(digits: str, unit: str, sentence: str, end: int) -> bool:
    if unit == "年":
        return len(digits) == 4
    return unit in _ZH_TIME_UNITS and not sentence[end:].startswith("个")


# --- en -----------------------------------------------------------------------------------------

def _en_changes(draft: Draft, sentence: str, rng: random.Random) -> list[tuple[str, str]]:
    out = []
    for start, end, value, words in _en_numbers(sentence):
        kind = _en_kind(sentence, start, end, value, words)
        if kind is None:
            continue
        if words and sentence[start:end].istitle() and sentence[start:end] in _names(draft):
            continue  # "Four leaves to play": a name, written "Four's grandmother" elsewhere
        if _EN_BY_DEFINITION.match(sentence[end:]):
            continue  # "the twenty-four hours of the natural day": no "seventeen hours"
        for new_value in _plausible(value, kind, rng):
            text = _written_like(sentence[start:end], new_value, words)
            new = _with_article(splice(sentence, start, end, text), start, text)
            out.append(("time" if kind in ("year", "hour") else "quantity", new))
    out += _en_name_changes(sentence)
    out += _en_time_word_changes(draft, sentence)
    return out


# A count the calendar or the clock fixes ("twenty-four hours of the day", "seven days of the
# week"): changed, any reader sees it (seed 4939's reading).
_EN_BY_DEFINITION = re.compile(r"(?i)\s+(?:hours?\s+(?:of|in)\s+(?:the|a|an)\s+(?:\w+\s+)?day|"
                               r"days?\s+(?:of|in)\s+(?:the|a)\s+week|"
                               r"months?\s+(?:of|in)\s+(?:the|a)\s+year|"
                               r"minutes?\s+(?:of|in)\s+(?:the|an)\s+hour)\b")


def _names(draft: Draft) -> set[str]:
    """The summary's proper words without a possessive ending ("Four's" -> "Four")."""
    return draft.memo("number_names", lambda: {re.sub(r"['’]s$", "", w)
                                               for w in draft.proper_words})


def _en_numbers(sentence: str) -> list[tuple[int, int, int, bool]]:
    """(start, end, value, in words) of each number of ``sentence``."""
    found = []
    for m in EN_NUMBER_WORDS.finditer(sentence):
        value = en_words_to_int(m.group())
        if value is not None:
            found.append((m.start(), m.end(), value, True))
    for m in _EN_DIGITS.finditer(sentence):
        found.append((m.start(), m.end(), int(m.group().replace(",", "")), False))
    return sorted(found)


def _en_kind(sentence: str, start: int, end: int, value: int, words: bool) -> str | None:
    """What the number states ("count", "age", "year", "hour"), or None where it states no
    fact to change: a vague or idiomatic number, a one, a name or a chapter's number."""
    before, after = sentence[:start], sentence[end:]
    if value < 2 or _vague(before, sentence[start:end], after):
        return None
    if words and sentence[start:end].istitle() and before.strip():
        return None  # a name: "Seven Dials", "the Four Winds"
    if _told_again(before, sentence[start:end], after, value):
        return None
    if _EN_NOT_COUNT_BEFORE.search(before):
        return None
    if not words and 1000 <= value <= 2100 and "," not in sentence[start:end]:
        return "year"
    if _EN_TIME_AFTER.match(after) and value <= 12:
        return "hour"
    if _EN_AGE_AFTER.match(after) or _EN_AGE_BEFORE.search(before):
        return "age"
    if re.search(r"[£$]\s*$", before) or _counts_something(after):
        return "count"
    return None


# Words that presuppose two ("one ... the other", "both", "the latter"), and a counted noun
# followed by its members named ("two captives, Chryseis and Briseis"): the sentence states the
# number a second time, so changing it once makes the sentence contradict itself.
_EN_PRESUPPOSE_TWO = re.compile(r"(?i)\b(?:both|either|neither|the other|each other|the latter|"
                                r"the former|the two|a pair|twins?|a couple|twain)\b")
_EN_MEMBERS_NAMED = re.compile(r"^\s+(?:[\w'’-]+\s+){0,3}?[\w'’-]+\s*[,:(—–]\s*"
                               r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?"
                               r"(?:\s*,\s*[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)*,?\s+and\s+[A-Z]")


# Things that come two to a person: "the two parents" cannot become "the four parents"
# and things there are two of ("people of two different sexes")
_EN_PAIRED = re.compile(r"(?i)^\s+(?:[a-z]+\s+)?(?:parents|eyes|ears|hands|arms|legs|feet|"
                        r"lungs|kidneys|grandparents|halves|sexes|genders|hemispheres)\b")


# ... and three: "The three robbers, who look like triplets"
_EN_PRESUPPOSE_THREE = re.compile(r"(?i)\b(?:triplets?|trio|threesome|third one)\b")


# a counted noun followed by a colon: the list of what it counts ("two weapons: a pistol, and
# a switchblade")
_EN_MEMBERS_LISTED = re.compile(r"^\s+(?:[\w'’-]+\s+){0,3}?[\w'’-]+\s*:")


def _told_again(before: str, number: str, after: str, value: int) -> bool:
    """Does the sentence fix the number of ``value`` by more than the number itself: words
    that presuppose two or three, the members it counts named or listed after it, a pair just
    named ("between the two of them"), things two to a person ("the two parents"), or the
    same number in a pattern ("forty days and forty nights", "two by two"), or a group a
    demonstrative points back at ("those two warriors", after their names)?"""
    rest = before + "#" + after
    if re.search(r"(?i)\b(?:those|these)\s+$", before):
        return True  # "a conversation between those two warriors": the ones just named
    if value == 2 and (_EN_PRESUPPOSE_TWO.search(rest) or _EN_PAIRED.match(after)
                       or re.search(r"(?i)\bbetween (?:the )?$", before)
                       or re.match(r"(?i)\s+of (?:them|us|you)\b", after)):
        return True
    if value == 3 and _EN_PRESUPPOSE_THREE.search(rest):
        return True
    if _EN_MEMBERS_NAMED.match(after) or _EN_MEMBERS_LISTED.match(after):
        return True
    n = re.escape(number)
    return bool(re.match(rf"(?i)\s+[\w'’-]+\s+{_PATTERN_JOIN}\s+{n}(?![\w-])", after)
                or re.search(rf"(?i)(?<![\w-]){n}\s+[\w'’-]+\s+{_PATTERN_JOIN}\s+$", before))


_PATTERN_JOIN = r"(?:and|by|after|upon|or)"


def _vague(before: str, number: str, after: str) -> bool:
    """"a drink or two", "two or three", "ten or so", "two to three", "a hundred times"."""
    if re.search(r"(?i)\b(?:or|nor)\s+$", before) or re.match(r"(?i)\s+(?:or|to)\s", after):
        return True
    return bool(re.match(r"(?i)\s+(?:times|thanks|ways|pieces)\b", after)) and \
        bool(re.search(r"(?i)\b(?:a|an)\s+$", before) or re.match(r"(?i)an?\s", number))


def _counts_something(after: str) -> bool:
    """Does a plural noun follow, after at most two other words ("fifty-nine teeth", "thirty
    greasy bales", "fourteen of them")?"""
    if _EN_PARTITIVE.match(after):
        return True
    clause = re.split(r"[,.;:!?()\"“”]", after, maxsplit=1)[0]
    for word in re.findall(r"[A-Za-z'’]+", clause)[:3]:
        if _plural_noun(word.lower()):
            return True
        if not _adjective(word.lower()):
            return False
    return False


def _plural_noun(word: str) -> bool:
    from lemminflect import getAllLemmas

    if word in _EN_PLURAL_NOUNS:
        return True
    nouns = getAllLemmas(word).get("NOUN", ())
    return bool(nouns) and word not in nouns and word.endswith("s")


def _adjective(word: str) -> bool:
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word)
    return "ADJ" in lemmas or "VERB" in lemmas and word.endswith(("ed", "en"))


def _plausible(value: int, kind: str, rng: random.Random) -> list[int]:
    """Up to three other values a reader would believe for that quantity: a year a few years
    off, an hour of the clock, an age of the same stage of life, a count near a small one, a
    round number for a round one."""
    if kind == "hour":
        pool = [h for h in range(1, 13) if h != value and abs(h - value) <= 4]
    elif kind == "age":
        step = 2 if value < 18 else 5
        pool = [value + d * step for d in (-3, -2, -1, 1, 2, 3)
                if 2 <= value + d * step < 100 and (value + d * step < 18) == (value < 18)]
    else:
        return [v for v in changed_values(value, rng, is_year=kind == "year") if v >= 2]
    rng.shuffle(pool)
    return pool[:3]


def _written_like(old: str, value: int, words: bool) -> str:
    """``value`` written as ``old`` is: digits (with thousands commas if it had them) or
    words ("a hundred and eighty" keeps its "a" and its "and")."""
    if not words:
        return f"{value:,}" if "," in old else str(value)
    # "and" as the writer wrote it, or where "a hundred" could not show it (a hundred and ten)
    with_and = " and " in old.lower() or bool(re.search(r"(?i)(?:hundred|thousand)$", old))
    text = int_to_en_words(value, with_and)
    if re.match(r"(?i)an?\s", old) and re.match(r"one (?:hundred|thousand|million)\b", text):
        text = "a" + text[3:]
    return match_case(old, text)


def _with_article(sentence: str, start: int, text: str) -> str:
    """``sentence`` with an "a"/"an" right before the new number fitted to it ("an eleven-year-
    old" -> "a twelve-year-old")."""
    m = re.search(r"\b([Aa]n?)\s+$", sentence[:start])
    if not m or text.lower().startswith(("a ", "an ")):
        return sentence
    article = match_case(m.group(1), indefinite_article(text))
    return sentence[: m.start(1)] + article + sentence[m.end(1) :]


def _en_name_changes(sentence: str) -> list[tuple[str, str]]:
    out = []
    for names in (_MONTHS, _DAYS):
        for k, name in enumerate(names):
            if name not in sentence:
                continue
            for m in _NAME_PATTERNS[name].finditer(sentence):
                if name == "May" and not re.search(r"\d", sentence[m.end():m.end() + 4]):
                    continue
                if re.match(r"['’]s\b", sentence[m.end():]):
                    continue  # "June's boyfriend": a person named June, no month
                if names is _MONTHS and not _in_time(sentence[: m.start()], sentence[m.end():]):
                    continue  # "should look like June, a member of the party": a person
                for step in (1, 2, 3, -1, -2, -3):
                    other = names[(k + step) % len(names)]
                    out.append(("time", splice(sentence, m.start(), m.end(), other)))
    return out


def _in_time(before: str, after: str) -> bool:
    """Is a month name where a time is told: after a word that leads to a date (the
    lexicon's ``EN_DATE_BEFORE``, "in", "last", "early" ...), or before or after a day's or a
    year's number ("June 3", "3 June", "June of 1995", "June, 1995")?"""
    return bool(_MONTH_BEFORE.search(before) or re.search(r"\d\s*(?:st|nd|rd|th)?\s+$", before)
                or re.match(r"\s*(?:of\s+|,\s*)?\d", after))


_MONTH_BEFORE = re.compile(r"(?i)\b(?:{})\s+$".format("|".join(sorted(
    EN_DATE_BEFORE | {"in", "of", "by", "last", "next", "early", "late", "mid", "every",
                      "that", "this", "through", "from", "to", "before", "after", "each"}))))


def _en_time_word_changes(draft: Draft, sentence: str) -> list[tuple[str, str]]:
    """A time of day or season turned into another one the book's summaries use, never next
    to the same word ("at dawn and dawn")."""
    out = []
    for word, news in _EN_TIME_WORDS.items():
        for m in _TIME_WORD_PATTERNS[word].finditer(sentence):
            previous = (sentence[: m.start()].split()[-1:] or [""])[0].lower()
            if word in _EN_SEASONS and previous not in _EN_SEASON_BEFORE:
                continue
            near = re.findall(r"[a-z]+", sentence[max(0, m.start() - 30) : m.end() + 30].lower())
            if _CLOCK_HALF.search(sentence[max(0, m.start() - 20) : m.end() + 20]):
                continue  # "four AM in the morning": the clock says which half of the day
            if re.match(r"\s+stars?\b", sentence[m.end():]):
                continue  # "the morning star", "an evening star": a name, no "afternoon
                # star" (seed 4939's reading)
            for new in news:
                if new in near or not writer_uses(draft, new) or _EN_CUES_AGAINST.get(
                        new, set()) & set(re.findall(r"[a-z]+", sentence.lower())):
                    continue  # "After a quiet morning, they all went to bed"
                text = match_case(m.group(), new)
                out.append(("time", _with_article(splice(sentence, m.start(), m.end(), text),
                                                  m.start(), text)))  # "an evening walk"
    return out


# What people do, and what the sky shows, at one part of the day: a sentence holding one
# of them tells its time ("After a quiet evening, they all went to bed"). Other time words
# are not cues: "left at noon and rode until dawn" names two times.
_EN_NIGHT_CUES = {"bed", "sleep", "sleeps", "slept", "asleep", "supper", "suppers", "sups",
                  "supped", "sunset", "darkness", "moon", "moonlight", "stars"}
_EN_MORNING_CUES = {"breakfast", "breakfasts", "breakfasted", "sunrise", "wake", "wakes",
                    "woke", "awake", "awakens", "awoke"}  # ("Breakfasts next evening")
# Words of a sentence that fix its part of the day, against each time word put in.
_EN_MIDDAY_CUES = {"lunch", "luncheon"}
_EN_CUES_AGAINST = {"morning": _EN_NIGHT_CUES | _EN_MIDDAY_CUES,
                    "afternoon": _EN_NIGHT_CUES | _EN_MORNING_CUES,
                    "noon": _EN_NIGHT_CUES, "dawn": _EN_NIGHT_CUES | _EN_MIDDAY_CUES,
                    "evening": _EN_MORNING_CUES, "dusk": _EN_MORNING_CUES,
                    "midnight": _EN_MORNING_CUES | _EN_MIDDAY_CUES}
_CLOCK_HALF = re.compile(r"(?i)\b(?:a\.m\.|p\.m\.|am|pm)(?![\w.])")


def changed_values(value: int, rng: random.Random, is_year: bool = False,
                   count: int = 3) -> list[int]:
    """Up to ``count`` different values from ``changed_value``, in the order drawn (never one
    for a count of several: "three men" cannot become "one men"); the rules offer them all,
    and the generator picks among them."""
    out: list[int] = []
    for _ in range(count * 10):
        new = changed_value(value, rng, is_year)
        if new != value and new not in out and (new > 1 or value <= 1):
            out.append(new)
            if len(out) == count:
                break
    return out


def changed_value(value: int, rng: random.Random, is_year: bool = False) -> int:
    """A different, plausible value: years move by a few, small counts by one to three,
    larger numbers by 20-50% and stay as round as they were (forty -> sixty, not fifty-two)."""
    if is_year:
        return value + rng.choice([-3, -2, 2, 3, 5])
    if value <= 1:
        return rng.choice([2, 3])
    if value <= 12:
        # weighted as writers use numbers, small ones far more than large: drawn evenly, an
        # edit raised a count more often than it lowered it ("two" -> "five"), and "two" read
        # as the original's word
        # (a window even on both sides, so that a -> b is as likely a draw as b -> a)
        options = [v for v in range(max(2, value - 3), value + 4) if v != value]
        return rng.choices(options, weights=[1 / v ** 1.5 for v in options])[0]
    delta = max(1, round(value * rng.choice([0.2, 0.3, 0.5])))
    new = value + delta if rng.random() < 0.6 else max(2, value - delta)
    return _as_round_as(new, value)


def _as_round_as(new: int, value: int) -> int:
    """``new`` rounded to the trailing zeros of ``value`` from a hundred up (3000 -> 4000,
    180 -> 230; twenty nights may well become fourteen)."""
    if value < 100:
        return new
    unit = 1
    while value % (unit * 10) == 0 and value > unit * 10:
        unit *= 10
    return max(unit, round(new / unit) * unit)
