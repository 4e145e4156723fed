"""The summary being edited, and helpers shared by the rule modules."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from longnovel.injection.candidate import Edit
from longnovel.injection.lexicon.en import EN_TEMPORAL_OPENERS
from longnovel.injection.lexicon.zh import ZH_SURNAMES, ZH_TEMPORAL_OPENERS
from longnovel.injection.nlp.commentary import is_commentary
from longnovel.injection.nlp.sentences import sentence_spans
from longnovel.injection.nlp.text import (
    changed_parts,
    lower_first,
    match_case,
    word_change,
    word_start,
)
from longnovel.injection.nlp.zh.segment import words as zh_words

# The gender of a personal pronoun (en lower-cased).
PRONOUN_GENDER = {"he": "m", "him": "m", "his": "m", "himself": "m", "she": "f", "her": "f",
                  "hers": "f", "herself": "f", "她": "f", "他": "m"}


# A 回目: (第…回) two parallel halves of equal length, apart by a space or a comma.
_ZH_CHAPTER = re.compile(r"^\s*第[一二三四五六七八九十百千零〇两\d]+[回章节卷]\s*")
_COUPLET_GAP = re.compile(r"[\s\u3000，,；;]+")
_COUPLET_SPACE = re.compile(r"[\s\u3000]+")
CJK_ONLY = re.compile(r"[\u3400-\u9fff]+")


def couplet_halves(sentence: str, loose: bool = True) -> tuple[int, int] | None:
    """The lengths of a couplet's two halves, or None when ``sentence`` is not a couplet.
    ``loose=False`` takes halves apart by a comma only after a 第…回 marker: a sentence of
    two clauses of one length (卜大顺从渡口逃走，被周大有揪了回来) is no couplet."""
    chapter = _ZH_CHAPTER.match(sentence)
    body = sentence[chapter.end():] if chapter else sentence
    gap = _COUPLET_GAP if loose or chapter else _COUPLET_SPACE
    halves = [h for h in gap.split(body.strip().rstrip("。！？!?.")) if h]
    if len(halves) != 2 or not all(CJK_ONLY.fullmatch(h) for h in halves):
        return None
    a, b = len(halves[0]), len(halves[1])
    return (a, b) if a == b >= 4 else None


def keeps_couplet(old: str, new: str, loose: bool = True) -> bool:
    """A couplet stays a couplet of the same halves' lengths (a sentence that is none: True)."""
    halves = couplet_halves(old, loose)
    return halves is None or couplet_halves(new, loose) == halves


@dataclass
class Draft:
    """A summary split into sentences, with the window's entities, ready for rule edits."""

    summary: str
    language: str
    entities: list[dict] = field(default_factory=list)
    # the words of every unit summary of the book (a ``Vocabulary``), when the caller knows them
    vocabulary: object = None
    # (earlier than the window?, unit summary) of the book's units outside the window
    outside: tuple = ()
    # where each of the window's unit summaries starts in ``summary`` after the first, when
    # the caller knows them (a unit's summary may hold paragraphs of its own)
    unit_starts: tuple[int, ...] | None = None
    # the rest of the window's summary when this draft is a region of it (what else the writer
    # wrote: a number or a relation word told again there contradicts an edit here)
    around: str = ""
    # whether the draft starts / ends where the window's summary does (False for a region cut
    # out of its middle: its first or last sentence is no edge of the window)
    edges: tuple[bool, bool] = (True, True)

    @cached_property
    def book_texts(self) -> tuple[str, ...]:
        """This summary, then the book's other unit summaries (``outside``): where the
        writer's usage of a word is read."""
        return (self.summary, *(text for _, text in self.outside))

    @cached_property
    def spans(self) -> list[tuple[int, int]]:
        return sentence_spans(self.summary, self.language)

    @cached_property
    def sentences(self) -> list[str]:
        return [self.summary[a:b] for a, b in self.spans]

    @cached_property
    def commentary_spans(self) -> list[tuple[int, int]]:
        """(start, end) of the sentences that comment on the book rather than tell it."""
        return [span for span, sentence in zip(self.spans, self.sentences, strict=False)
                if is_commentary(sentence, self.language)]

    def commentary_at(self, index: int) -> bool:
        """Does sentence ``index`` comment on the book rather than tell it?"""
        return self.memo(("commentary", index),
                         lambda: is_commentary(self.sentences[index], self.language))

    @property
    def zh(self) -> bool:
        return self.language == "zh"

    def names(self, kind: str) -> list[str]:
        """Entity names of one kind, most frequent first."""
        return self.memo(("names", kind),
                         lambda: [e["name"] for e in self.entities if e["type"] == kind])

    @cached_property
    def proper_words(self) -> set[str]:
        """Words of the entity names and capitalized words met inside a sentence (en): the
        words that keep their capital when a sentence no longer starts with them."""
        words = {w for e in self.entities if e["type"] in ("person", "place", "org")
                 for w in e["name"].split()}
        for sentence in self.sentences:
            # not a word the writer also writes in lower case: "All" after a sentence break
            # the splitter missed is no name ("because All of the survivors")
            words.update(w for w in re.findall(r"(?<=[\s“\"(])([A-Z][A-Za-z'’-]*)", sentence[1:])
                         if w.lower() not in self.lower_words)
        return words

    @cached_property
    def lower_words(self) -> set[str]:
        return set(re.findall(r"\b[a-z]+\b", self.summary))

    def lower_first(self, sentence: str) -> str:
        """``sentence`` with its first word lower-cased unless it is a name (en; zh as is)."""
        if self.zh:
            return sentence
        return lower_first(sentence, self.proper_words, self.lower_words, self.name_words)

    @cached_property
    def name_words(self) -> set[str]:
        """The words of the window's entity names."""
        return {w for e in self.entities for w in e["name"].split()}

    def gender_of(self, name: str) -> str | None:
        """The gender the window's entities give person ``name``, if any."""
        genders = self.memo("genders", lambda: {e["name"]: e["gender"] for e in self.entities
                                                if e["type"] == "person" and e.get("gender")})
        return genders.get(name)

    def paragraph_of(self, index: int) -> int:
        """Which paragraph (text between blank lines) sentence ``index`` is in, from 0."""
        starts = self.memo("paragraph_starts", lambda: [m.end() for m in re.finditer(
            r"\n\s*\n", self.summary)])
        return bisect.bisect_right(starts, self.spans[index][0])

    def unit_of(self, index: int) -> int:
        """Which of the window's unit summaries sentence ``index`` is in, from 0 (where the
        caller did not tell where they start: its paragraph)."""
        if self.unit_starts is None:
            return self.paragraph_of(index)
        return bisect.bisect_right(self.unit_starts, self.spans[index][0])

    def tokens(self, index: int) -> list[str]:
        """jieba tokens of sentence ``index`` (zh only)."""
        return self._tokens[index]

    @cached_property
    def _tokens(self) -> list[list[str]]:
        return [list(zh_words(s)) for s in self.sentences]

    def replace_sentence(self, index: int, new: str, subtype: str) -> Edit | None:
        """An edit replacing sentence ``index`` by ``new`` (None when nothing changes, or when
        a couplet's halves would no longer be of one length)."""
        old = self.sentences[index]
        if new == old or not new.strip():
            return None
        if self.zh and not keeps_couplet(old, new, loose=False):
            return None  # 向观察升官哭友 -> 向观察被罢官哭友: a couplet of unequal halves
        start, end = self.spans[index]
        return Edit(subtype, start, end, new, old, new)

    def merge_sentences(self, index: int, new: str, subtype: str) -> Edit:
        """An edit replacing sentences ``index`` and ``index + 1`` by the one sentence ``new``
        ("A. B." -> "Because A, b.")."""
        start, end = self.spans[index][0], self.spans[index + 1][1]
        return Edit(subtype, start, end, new, self.summary[start:end], new)

    def insert_after(self, index: int, new: str, subtype: str) -> Edit:
        """An edit adding sentence ``new`` right after sentence ``index``."""
        end = self.spans[index][1]
        sep = "" if self.zh else " "
        return Edit(subtype, end, end, sep + new, "", new)

    def mentions(self, index: int, names: list[str]) -> list[tuple[int, int, str]]:
        """Non-overlapping occurrences of ``names`` in sentence ``index``, longest names first."""
        key = ("mentions", index, tuple(names))
        return self.memo(key, lambda: find_names(self.sentences[index], names, self.zh))

    def elsewhere(self, sentence: str) -> str:
        """What else the writer wrote in the window's summary: this draft without (the first
        occurrence of) ``sentence``, and the rest of the summary when the draft is a region."""
        return self.summary.replace(sentence, "\n", 1) + "\n" + self.around

    def memo(self, key, compute):
        """``compute()``, once per draft and ``key``: the rule modules ask the same questions
        of one summary for every sentence, and a long window's summary has hundreds."""
        cache = self.__dict__.setdefault("_memo", {})
        if key not in cache:
            cache[key] = compute()
        return cache[key]


def find_names(text: str, names: list[str], zh: bool) -> list[tuple[int, int, str]]:
    """(start, end, name) of non-overlapping whole-name occurrences, in text order. In zh a
    two-character given name right after a surname is part of a longer name (青禾 in 顾青禾)."""
    taken: list[tuple[int, int, str]] = []
    occupied = bytearray(len(text))  # 1 where a longer name was already found
    present = {name for name in names if name and name in text}
    for name in sorted(present, key=lambda n: (-len(n), n)):
        pattern = re.escape(name) if zh else rf"(?<![\w.]){re.escape(name)}(?![\w'’])"
        for m in re.finditer(pattern, text):
            start, end = m.span()
            if zh and len(name) == 2 and start > 0 and text[start - 1] in ZH_SURNAMES:
                continue
            if occupied.find(1, start, end) == -1:
                occupied[start:end] = b"\x01" * (end - start)
                taken.append((start, end, name))
    return sorted(taken)


# A leading date or time phrase, which a sentence reused elsewhere must
# not keep ("On the fifth of May, ",
# "五年前，", "二月初二清早，"): "Later, on the fifth of May, ..." would date the retelling.
_EN_TIME_PHRASE = re.compile(
    r"^(?:(?:On|In|At|By|During|Early on|Late on|That|This|Before|After|Years|Two|Three|"
    r"Some)\b[^,]{0,40}?\b(?:day|night|morning|evening|afternoon|noon|dawn|dusk|week|month|"
    r"year|years|ago|before|later|o'clock|\d+\w*|[a-z]+th|first|second|third|[A-Z][a-z]+)|"
    r"(?:Years|Months|Days) (?:ago|before|later)), "
    r"|^(?:(?:At|By|Before|After|Until) [^,]{0,30}?(?:o'clock|noon|midnight|dawn|dusk)"
    r"|That (?:day|night|morning|evening|afternoon)|Early (?:on )?[^,]{0,30}?(?:day|morning)"
    r"|The next (?:day|morning|evening))\s+(?=[A-Z])")
_ZH_TIME_PHRASE = re.compile(r"^[^，。“”]{0,10}?(?:年|月|日|天|夜|晚|早|晨|午|时|前|后"
                             r"|初[一二三四五六七八九十]+"
                             r"|[一二三四五六七八九十]+)[^，。“”]{0,3}[，,]")


# A clause opening with when it happened, without the comma strip_time_phrase needs ("At a
# quarter to twelve she ...", "On the ninth he ...").
_EN_TIME_OPENING = re.compile(
    r"(?i)(?:at|on|by|in|during|before|after|until|that|the next)\s+(?:a quarter|half|\d|noon|"
    r"midnight|dawn|dusk|daybreak|the \w+(?:th|st|nd|rd)\b|\w+day\b|night|morning|evening|"
    r"afternoon|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b)")


# What a sentence opens with when it takes up someone or something told just before it ("He
# comes to a six foot drop", "It was bright new brass", 他便, 这时).
_EN_TAKES_UP = re.compile(r"(?i)(?:he|she|it|they|him|her|his|its|their|them|this|that|these|"
                          r"those|the sight of (?:him|her|it))\b")
_ZH_TAKES_UP = ("他", "她", "它", "这", "那", "此", "其", "两人", "二人", "对方")


def takes_up_before(sentence: str, zh: bool) -> bool:
    """Does ``sentence`` (after its connective) open by taking up what the sentence before
    it told? Whatever comes between them takes it over."""
    body = split_opener(sentence, zh)[1].lstrip(" \"“‘'(（「")
    return body.startswith(_ZH_TAKES_UP) if zh else bool(_EN_TAKES_UP.match(body))


def opens_with_time(text: str, zh: bool) -> bool:
    """Does ``text`` open with a date or time phrase?"""
    if strip_time_phrase(text, zh) != text:
        return True
    return not zh and bool(_EN_TIME_OPENING.match(text))


def strip_time_phrase(sentence: str, zh: bool) -> str:
    """``sentence`` without a leading date or time phrase."""
    match = (_ZH_TIME_PHRASE if zh else _EN_TIME_PHRASE).match(sentence)
    return sentence[match.end() :] if match else sentence


def splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def replace_tokens(tokens: list[str], index: int, new: str) -> str:
    """The sentence with token ``index`` replaced (zh)."""
    return "".join(tokens[:index]) + new + "".join(tokens[index + 1 :])


def word_edits(draft: Draft, table: dict[str, list[str] | str], subtype: str,
               zh_not_before: tuple[str, ...] = (), en_adapt=None,
               zh_skip=None) -> list[Edit]:
    """Edits replacing one lexicon word per sentence (token match for zh, word match for en);
    a zh word is left alone when the next token starts with one of ``zh_not_before``;
    ``en_adapt(sentence, start, end, new)`` fits an en replacement to its context, or returns
    None when it does not fit; ``zh_skip(tokens, t)`` leaves zh token ``t`` alone."""
    edits = []
    for i, sentence in enumerate(draft.sentences):
        for new in _word_variants(draft, i, sentence, table, zh_not_before, en_adapt, zh_skip):
            edit = draft.replace_sentence(i, new, subtype)
            if edit:
                edits.append(edit)
    return edits


def _word_variants(draft: Draft, i: int, sentence: str, table, zh_not_before=(),
                   en_adapt=None, zh_skip=None) -> list[str]:
    out = []
    if draft.zh:
        tokens = draft.tokens(i)
        for t, token in enumerate(tokens):
            following = tokens[t + 1] if t + 1 < len(tokens) else ""
            if zh_not_before and following.startswith(zh_not_before):
                continue
            if zh_skip and zh_skip(tokens, t):
                continue
            for new in _as_list(table.get(token)):
                out.append(replace_tokens(tokens, t, new))
        return out
    for m in _alternation(frozenset(table)).finditer(sentence):
        for new in _as_list(table.get(m.group().lower())):
            new = en_adapt(sentence, m.start(), m.end(), new) if en_adapt else new
            if new:
                out.append(splice(sentence, m.start(), m.end(), match_case(m.group(), new)))
    return out


@lru_cache(maxsize=64)
def _alternation(words: frozenset[str]) -> re.Pattern:
    """One pattern for a lexicon's words, longest first, case-insensitive; never the stem of a
    contraction ("won't" must not become "lost't"). Cached: it is asked for every sentence."""
    keys = sorted(words, key=lambda k: (-len(k), k))
    return re.compile(r"\b(" + "|".join(re.escape(k) for k in keys) + r")\b(?!['’]\w)",
                      re.IGNORECASE)


def own_words_first(draft: Draft, edits: list[Edit]) -> list[Edit]:
    """The edits whose new words the summary's writer already uses elsewhere, when there are
    any; else those whose new words the book's summaries use (``draft.vocabulary``, when it
    holds enough of them to judge); else all. A replacement drawn from a fixed lexicon
    ("jilted", "survives", 偷) that no summary of the book uses is a word the classifier learns
    to find in injected summaries; one the book's writer wrote is not."""
    own = [edit for edit in edits if _uses_only(draft, edit, _in_summary)]
    if own or draft.vocabulary is None or not draft.vocabulary.enough:
        return own or edits
    return [edit for edit in edits if _uses_only(draft, edit, _in_vocabulary)]


def _in_summary(draft: Draft, word: str) -> bool:
    return word in draft.summary if draft.zh else word in draft.lower_words


def _in_vocabulary(draft: Draft, word: str) -> bool:
    return word in draft.vocabulary


def _uses_only(draft: Draft, edit: Edit, known) -> bool:
    _, added = word_change(draft.summary[edit.start : edit.end], edit.text, draft.zh)
    return bool(added) and all(known(draft, word) for word in added)


def _as_list(value) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


@lru_cache(maxsize=65536)
def split_opener(sentence: str, zh: bool) -> tuple[str, str]:
    """('Then, ', rest) when the sentence starts with a time connective, else ('', sentence)
    (cached: every type's rules split the same sentences)."""
    for pattern in _opener_patterns(zh):
        m = pattern.match(sentence)
        if m and m.end() < len(sentence):
            return m.group(), sentence[m.end():]
    return "", sentence


@lru_cache(maxsize=2)
def _opener_patterns(zh: bool) -> list[re.Pattern]:
    """One pattern per time connective, the longest first."""
    openers = ZH_TEMPORAL_OPENERS if zh else EN_TEMPORAL_OPENERS
    return [re.compile(rf"{re.escape(o)}[，,]?\s*" if zh else rf"{re.escape(o)}\b,?\s*")
            for o in sorted(openers, key=len, reverse=True)]


# A death told of someone (en and zh), for the rules that keep the dead from acting after it
DEATH = {False: re.compile(r"\b(?:dies|died|die|is killed|was killed|are killed|were killed|"
                           r"is murdered|was murdered|is executed|was executed|passes away|"
                           r"passed away|perishes|perished)\b"),
         True: re.compile(r"死了|死去|去世|身亡|丧命|被杀|病故|咽气|断气|自尽|遇害")}


# A description ("Wren was seventeen", "韩石是大徒弟"): not an event that can happen again.
_EN_STATE = re.compile(r"^[A-Z][\w'’ -]{0,40}? (?:is|was|are|were|has been|had been|seemed|"
                       r"looked|lay|stood)\b")
_ZH_STATE = re.compile(r"^[^，。]{1,8}?(?:是|有|姓|叫|名叫|今年|已经)")


# A later clause that says the event came off (en): an echo that ends the sentence with an
# auxiliary alone ("..., and they do.", "but he did") or one of success ("which he manages to
# overcome"). What it confirms is neither negated nor turned into its opposite outcome.
_CONFIRMED_LATER = re.compile(
    r"(?i)\b(?:and|but|which|as)\s+(?:so\s+)?(?:he|she|it|they|we|you|i|[a-z][\w'’-]*)\s+"
    r"(?:(?:do|does|did|will|would|can|could|is|was|are|were|has|have|had)(?:\s+so)?\s*[.!]?"
    r"[\"”’']*\s*$|(?:manages?|managed|succeeds?|succeeded)\b)")


def confirmed_later(rest: str) -> bool:
    """Does ``rest`` (the sentence after an event) say that the event came off?"""
    return bool(_CONFIRMED_LATER.search(rest))


# The verb of a clause that "but", "however" or "yet" opens, up to two words after it (and
# after a clause set off by commas: "but, as it turns out, he is not"); or any verb of a
# sentence that "However", "But", "Yet" or "Still" opens, up to six words (and commas) after
# it, and after a "but" up to six words with a comma among them ("However, his warm greeting
# is not returned", "but utterly, and from principle, refuses him": seed 4939's reading).
_EN_CONTRAST_CLAUSE = re.compile(
    r"(?i)\b(?:but|however|yet)(?:\s*,[^,;.]*,)?\s*,?\s+(?:[\w'’]+\s+){0,2}$"
    r"|^\W*(?:However|But|Yet|Still|Nevertheless)\b,?\s+(?:[\w'’]+,?\s+){0,6}$"
    r"|\bbut\s+(?=[^.;:!?]*,)(?:[\w'’]+,?\s+){1,6}$")


def in_a_contrast(before: str) -> bool:
    """Does the text ``before`` a word end in the opening of a clause that "but", "however"
    or "yet" opens? That clause is the writer's own contrast: a negation taken out of it or
    put into it ("loves a widow lady, but is loved by her"), or an outcome turned over in it
    ("She blamed the clock, but she agreed to blame Orrin"), leaves "but" setting nothing
    against anything."""
    return bool(_EN_CONTRAST_CLAUSE.search(before))


_EN_EXPLAINED = re.compile(r"(?i)\b(?:because|since|so that|therefore|thus|causing|citing|"
                          r"and so|which (?:means|causes|leads)|due to|thanks to|owing to|"
                          r"as a result of)\b|,\s*so\b")
_ZH_EXPLAINED = re.compile(r"因为|由于|所以|因此|于是|以致|导致|使得|以[^，,。；;]{1,30}为由")
# A statement set against an expectation ("Despite the engineer's efforts, the animal is
# intelligent enough to avoid the traps").
_EN_CONCEDES = re.compile(r"(?i)\b(?:despite|in spite of|although|though|even if|"
                          r"nevertheless|nonetheless)\b")
_ZH_CONCEDES = re.compile(r"虽然|尽管|即使|哪怕")


def gives_its_reason(sentence: str, zh: bool) -> bool:
    """Does the sentence give a cause or effect along with its statement ("could not handle
    the heat, causing discomfort", "agrees to take the injection due to the pain"), or set it
    against an expectation ("Despite the efforts, ...")? Turned over (a negation, the other
    outcome), the statement would contradict its own explanation ("refuses to take the
    injection due to the pain") or no longer go against anything: a reader needs no article
    to see it."""
    return bool((_ZH_EXPLAINED if zh else _EN_EXPLAINED).search(sentence)
                or (_ZH_CONCEDES if zh else _EN_CONCEDES).search(sentence))


def describes_a_state(sentence: str, zh: bool) -> bool:
    """Does the sentence describe a state rather than tell an event?"""
    return bool((_ZH_STATE if zh else _EN_STATE).match(sentence))


_ORDINALS = ("first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
             "twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|"
             "nineteenth|twentieth|thirtieth|twenty-\\w+|thirty-first|\\d+(?:st|nd|rd|th)")
_EN_DATE = re.compile(rf"(?i)\bthe (?:\w+ of the )?(?:{_ORDINALS})\b(?! (?:time|day|one|man|"
                      rf"woman|person|ship|of (?:them|those)))|\b(?:January|February|March|April|"
                      rf"May|June|July|August|September|October|November|December) \d{{1,2}}\b|"
                      rf"\b(?:in|of) \d{{4}}\b|"
                      # a clock time ("at 10.41", "at five minutes to twelve", "at nine o'clock")
                      rf"\bat (?:\d{{1,2}}[.:]\d{{2}}|[\w-]+ minutes (?:to|past) \w+|"
                      rf"(?:a quarter|half) (?:to|past) \w+|[\w-]+ o['’]clock)\b")
_ZH_DATE = re.compile(r"[正腊冬一二三四五六七八九十]{1,2}月(?:初|廿|[一二三]?十)?"
                      r"[一二三四五六七八九十]?|初[一二三四五六七八九十]|[一二三]?十?[一二三四五六七八九十][日号]|"
                      r"除夕|端午|中秋|腊八|元宵|清明|重阳|[一二三四五六七八九十两]+更|"
                      r"[一二三四五六七八九十]+点(?:[一二三四五六七八九十]+分|半|钟)?")


def tells_its_date(sentence: str, zh: bool) -> bool:
    """Does the sentence give the date or the clock time of what it tells ("On the
    thirteenth", "June 4", 四月十二, "At 10.41", 三更)? Two dated sentences told out of the
    order of their dates give a swap away to any reader, and a date borrowed from another
    part of the book an invention."""
    return bool((_ZH_DATE if zh else _EN_DATE).search(sentence))


def told_next(draft: Draft, edit: Edit) -> bool:
    """Do the next three sentences of its unit's summary take up what the changed clause was
    about (a content word of the clause after the change: "Rector agrees to go with him. ...
    Syme and Rector go with the Martians"; "Orme bolted an eighteen-foot tide staff to the
    pier. ... Wren at the tide staff with Lyle Orme")? They then tell the original, and
    contradict the change (seeds 5040's and 5343's readings)."""
    from longnovel.injection.evidence import content_lemmas

    i = sentence_of(draft, edit)
    if i is None:
        return False
    _, _, end = changed_parts(edit.original_span, edit.text)
    clause = re.split(r"[,;:，；：。.!?！？]", edit.text[end:], maxsplit=1)[0]
    clause = clause if draft.zh else " ".join(clause.split()[:5])
    about = content_lemmas(clause, draft.language, names=False)
    if not about:
        return False
    for k in (i + 1, i + 2, i + 3):
        if k >= len(draft.sentences) or draft.unit_of(k) != draft.unit_of(i):
            break
        if about & content_lemmas(draft.sentences[k], draft.language, names=False):
            return True
    return not draft.zh and _verb_told_again(draft, edit, i)


def _verb_told_again(draft: Draft, edit: Edit, i: int) -> bool:
    """Does a later sentence of the unit's summary (en) tell the changed verb again ("Macklin
    initially does not agree to take the treatment" ... "Macklin finally agrees": turned,
    "initially agrees" meets "finally agrees", study corpus, seed 5545)? The verb is the one
    the edit took out (event) or the first after the change (polarity); the later sentence
    names someone the edited one names."""
    from longnovel.injection.nlp import inflect

    removed, _ = word_change(edit.original_span, edit.text, False)
    _, _, end = changed_parts(edit.original_span, edit.text)
    after = re.findall(r"[a-z]+", edit.text[end:])[:1]
    lemmas = {inflect.verb_lemma(w) for w in removed + after} - {None, "be", "have", "do"}
    people = draft.names("person")
    named = {n for _, _, n in find_names(edit.text, people, False)}
    if not lemmas or not named:
        return False
    for k in range(i + 1, len(draft.sentences)):
        if draft.unit_of(k) != draft.unit_of(i):
            break
        if not named & {n for _, _, n in draft.mentions(k, people)}:
            continue  # "Ralph accepted the offer. Wren accepted the tea.": another's act
        if any(inflect.verb_lemma(w) in lemmas
               for w in re.findall(r"[a-z]+", draft.sentences[k].lower())):
            return True
    return False


def sentence_of(draft: Draft, edit: Edit) -> int | None:
    """The index of the sentence an edit starts in."""
    return next((k for k, (a, b) in enumerate(draft.spans) if a <= edit.start < b), None)


# Adverbs of time or order: they say when, and fit a turned verb as well ("finally refuses")
_TIME_ADVERBS = frozenset(("finally", "eventually", "immediately", "quickly", "suddenly",
                           "initially", "subsequently", "early", "only", "shortly", "briefly",
                           "slowly", "promptly", "recently", "previously", "originally"))


def manner_in_change(old: str, new: str) -> bool:
    """Does an adverb in -ly of manner or attitude stand in the changed words of an en edit
    or right before them ("insultingly refused" -> "insultingly accepted", "does not
    genuinely know" -> "genuinely knows")? It was written for the original turn (seed
    5444's reading)."""
    from longnovel.injection.nlp import inflect

    start, old_end, new_end = changed_parts(old, new)
    start = word_start(old, start)
    words = re.findall(r"[A-Za-z]+", old[:start])[-1:] + re.findall(
        r"[A-Za-z]+", old[start:old_end]) + re.findall(r"[A-Za-z]+", new[start:new_end])
    def adverb(w: str) -> bool:  # one the dictionary knows, or a long -ly word it lacks
        classes = inflect.word_classes(w)  # ("insultingly")
        return "ADV" in classes or (not classes and len(w) > 6)

    return any(w.endswith("ly") and w.lower() not in _TIME_ADVERBS and adverb(w)
               for w in words)


_EN_NEXT_CONTRAST = re.compile(r"[\"“‘'(]*(?:Yet|But|However|Still|Nevertheless|Nonetheless)\b")
_ZH_NEXT_CONTRAST = re.compile(r"[“‘「（(]*(?:但|但是|可是|然而|不过)")


def contrasted_next(draft: Draft, i: int) -> bool:
    """Does the sentence after sentence ``i``, in its unit, open with a contrast ("Yet ...",
    但是)? The contrast was written against sentence ``i`` as it is: turned, the two no
    longer stand against each other (seed 5444's reading)."""
    if i + 1 >= len(draft.sentences) or draft.unit_of(i + 1) != draft.unit_of(i):
        return False
    pattern = _ZH_NEXT_CONTRAST if draft.zh else _EN_NEXT_CONTRAST
    return bool(pattern.match(draft.sentences[i + 1].lstrip()))


_EN_THING = re.compile(r"(?i)\b(?:it|its|itself|they|them|their|themselves)\b")
_ZH_THING = re.compile(r"它|他们|她们")


def points_at_a_thing(sentence: str, zh: bool) -> bool:
    """Does ``sentence`` hold an "it" or a "they" (它, 他们)? Whatever is put or moved right
    before it may become what that pronoun finds."""
    return bool((_ZH_THING if zh else _EN_THING).search(sentence))
