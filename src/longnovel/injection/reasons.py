"""The gold reason of a valid injection, and the article passage it rests on.

A reason quotes the article only with text the article contains: the passage that best tells
the original sentence (``evidence.ArticleIndex.locate``), when it tells enough of it;
otherwise it sets the changed sentence against the reference summary, and says so. The
passage and its offsets in the article go with the row, so a reviewer can check a sample
against the article in seconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from longnovel.injection.candidate import Candidate
from longnovel.injection.evidence import content_lemmas, content_terms
from longnovel.injection.nlp.negation import denies
from longnovel.injection.nlp.sentences import sentence_spans
from longnovel.injection.nlp.text import changed_parts
from longnovel.taxonomy import display_name

# Support (see ``evidence``) from which a passage is taken as telling the original sentence.
# Calibrated on the sample: a summary sentence's best passage in its own window's article has
# a median support of 0.50 (en) / 0.38 (zh); in another window's article, 0.25 / 0.13.
QUOTE_SUPPORT = {"en": 0.4, "zh": 0.3}

_EN = {
    "temporal": 'The summary tells these events in the order "{h}", but they happen the other '
                'way round (the reference summary: "{o}").',
    "temporal_quoted": 'The summary tells these events in the order "{h}", but the article tells '
                       '"{e}" first and "{f}" after it.',
    "added": 'The summary adds "{h}", which the article does not tell.',
    "quoted": 'The summary says "{h}", but the article says "{e}".',
    "summary": 'The summary says "{h}", whereas the reference summary says "{o}".',
}
_ZH = {
    "temporal": "摘要将事件叙述为“{h}”，但事件的先后顺序相反（见参考摘要：“{o}”）。",
    "temporal_quoted": "摘要将事件叙述为“{h}”，但原文先讲“{e}”，后讲“{f}”。",
    "added": "摘要增加了“{h}”，原文并未讲述。",
    "quoted": "摘要称“{h}”，但原文是“{e}”。",
    "summary": "摘要称“{h}”，而参考摘要是“{o}”。",
}


@dataclass(frozen=True)
class Gold:
    reason: str
    evidence: str  # a passage of the article ("" when none tells the original sentence)
    evidence_start: int  # its offsets in the article (-1 without one)
    evidence_end: int


def changed_sentences(candidate: Candidate, language: str) -> tuple[str, str]:
    """(the original sentences an edit touched, the sentences it made): for an added sentence,
    the sentence it follows and the added one."""
    old, new = candidate.original_summary, candidate.summary
    start, old_end, new_end = changed_parts(old, new)
    if not candidate.original_span.strip():  # a whole sentence added, not a few words
        # (the changed characters may reach into the next sentence: "X. Apollo ..." added
        # before "Apollo ..." shares its first word)
        return (_covering(old, start, old_end, language, before=True),
                candidate.hallucinated_span.strip())
    return (_covering(old, start, old_end, language),
            _covering(new, start, new_end, language))


def _covering(text: str, start: int, end: int, language: str, before: bool = False) -> str:
    spans = sentence_spans(text, language)
    if before:  # an insertion: the sentence that ends before it
        ends = [(a, b) for a, b in spans if b <= start + 1]
        return text[ends[-1][0] : ends[-1][1]] if ends else ""
    hit = [(a, b) for a, b in spans if a < max(end, start + 1) and b > start]
    return text[hit[0][0] : hit[-1][1]] if hit else text[start:end]


def gold(candidate: Candidate, language: str, index) -> Gold:
    """The reason and evidence of ``candidate``; ``index``: the window's ``ArticleIndex``
    (None: no article to look in)."""
    original, _ = changed_sentences(candidate, language)
    passage = index.locate(original) if index is not None and original else None
    quoted = _tells(passage, original, language)
    if quoted and candidate.type != "temporal" and candidate.original_span.strip():
        # the passage quoted against the change must hold what was changed (seed 5040's
        # reading: "买了十五斤牛皮" against a passage that stops before "三十斤牛皮")
        shows = _shows_change(candidate, language)
        if not shows(passage.text):
            passage = index.locate_showing(original, shows)
            # (another passage only where it tells the rest of the sentence too: one that has
            # the name and nothing of what was said, "顾衡山说，五钱重的小锭……" for
            # "顾衡山说这五百锭废了", is no evidence of it)
            quoted = _tells(passage, original, language) and _tells_the_rest(
                index, passage, original, shows.removed, language)
    templates = _ZH if language == "zh" else _EN
    h, o = candidate.hallucinated_span.strip(), candidate.original_span.strip()
    if candidate.type == "temporal":
        # the article's own passages, in its order, when it tells both events; a quote of
        # the reference summary is never attributed to the article
        order = _article_order(index, candidate, language) if quoted else None
        if order is not None:
            passage = order[0]
            text = templates["temporal_quoted"].format(h=h, e=_one_line(order[0].text),
                                                       f=_one_line(order[1].text))
        else:
            text = templates["temporal"].format(h=h, o=o)
    elif not o:
        text = templates["added"].format(h=h)
    elif quoted:
        text = templates["quoted"].format(h=h, e=_one_line(passage.text))
    else:
        text = templates["summary"].format(h=h, o=o)
    sep = "：" if language == "zh" else ": "
    reason = display_name(candidate.type, language) + sep + text
    if passage is None or not quoted:
        # (an added sentence's evidence too: the passage that tells the sentence it follows,
        # when one does; not the best of a poor lot, "your wits?", "柴文焕说。": seed 5141)
        return Gold(reason, "", -1, -1)
    return Gold(reason, passage.text, passage.start, passage.end)


def _tells(passage, sentence: str, language: str) -> bool:
    """Does ``passage`` (the article's best for ``sentence``, or None) tell it well enough to
    be quoted: support enough, and, in English, a content word in common that is no name? A
    rare name weighs enough in the support to make a passage about someone else's doings, or
    a letter's heading ("MISS CLARISSA HARLOWE, TO MISS HOWE"), the evidence of what the
    sentence says (seed 4838's reading); a capitalised word is taken for a name."""
    if passage is None or passage.support < QUOTE_SUPPORT.get(language, 0.4):
        return False
    if language != "en":
        return True
    plain = _EN_CAPITALISED.sub(" ", sentence)
    return bool(set(content_terms(plain, language)) & set(content_terms(passage.text, language)))


def _shows_change(candidate: Candidate, language: str):
    """A test of a passage's text: does it hold what the edit took out of the original (a
    count in any spelling, a negation that was taken out, else a content word of the words
    taken out, or of the word the edit negated)? A reason that sets the article against the
    change says nothing of it otherwise."""
    old, new = candidate.original_span, candidate.hallucinated_span
    a, old_end, _ = changed_parts(old, new)
    zh = language == "zh"
    if not zh:  # whole words
        while a > 0 and old[a - 1].isalnum():
            a -= 1
        while old_end < len(old) and old[old_end].isalnum():
            old_end += 1
    removed = old[a:old_end]
    values = _numbers(old, zh) - _numbers(new, zh)  # whole counts: "two hundred", 一百六十
    if denies(removed, zh):
        # and the verb it denied: a passage with some other negation says nothing of this
        # one ("How it is now ... I cannot tell" quoted against "cannot bring herself to
        # consent", the prose corpus, seed 5848's reading)
        after = old[old_end:old_end + 2] if zh else " ".join(old[old_end:].split()[:1])
        verb = {t for t in content_lemmas(removed + " " + after, language)
                if not denies(t, zh)}
        return _Shows(removed, language, negation=True, terms=frozenset(verb))
    if values:
        return _Shows(removed, language, values=frozenset(values))
    if not set(content_terms(removed, language)):  # a word put in ("does not make"): the
        removed = old[a:a + 6] if zh else " ".join(old[a:].split()[:2])  # word after it
    return _Shows(removed, language, terms=frozenset(content_lemmas(removed, language)))


@dataclass(frozen=True)
class _Shows:
    """What ``_shows_change`` gives: a test of a passage's text (a negation, one of the
    counts, or one of the words), and the words the edit took out."""
    removed: str
    language: str
    negation: bool = False
    values: frozenset[int] = frozenset()
    terms: frozenset[str] = frozenset()

    def __call__(self, text: str) -> bool:
        if self.negation and not denies(text, self.language == "zh"):
            return False  # (and then the denied verb, among the terms)
        if self.values:
            return bool(self.values & _numbers(text, self.language == "zh"))
        return not self.terms or bool(self.terms & content_lemmas(text, self.language))


def _tells_the_rest(index, passage, sentence: str, removed: str, language: str) -> bool:
    """Does ``passage`` tell ``sentence`` less the words an edit took out, with two thirds of
    the support a quoted passage needs (``QUOTE_SUPPORT``)? (The words taken out are often
    the rarest of the sentence and weigh most in its support: "于是韩石去了皮货铺，买了三十斤
    牛皮" tells the rest of "……去镇东的皮货铺买了三十斤牛皮熬胶" at 0.27; "顾衡山说，五钱重的
    小锭……" the rest of "顾衡山说这五百锭废了" at 0.17.)"""
    rest = set(content_terms(sentence, language)) - set(content_terms(removed, language))
    covered = set(content_terms(passage.text, language))
    return index.support(rest, covered) >= 2 / 3 * QUOTE_SUPPORT.get(language, 0.4)


def _numbers(text: str, zh: bool) -> set[int]:
    """The counts ``text`` writes, each read whole (digits, en number words, zh numerals)."""
    from longnovel.injection.nlp.numerals import (
        CN_NUMERAL_CHARS,
        EN_NUMBER_WORDS,
        cn_to_int,
        en_words_to_int,
    )

    out = {int(d) for d in re.findall(r"\d+", text.replace(",", ""))}
    if zh:
        values = [cn_to_int(run) for run in re.findall(f"[{CN_NUMERAL_CHARS}]+", text)]
    else:
        values = [en_words_to_int(m.group()) for m in EN_NUMBER_WORDS.finditer(text)]
    return out | {value for value in values if value is not None}


# a capitalised word: a name, a heading's word, or a sentence's first word (most often a
# name or a word of no content)
_EN_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*")


def _article_order(index, candidate: Candidate, language: str):
    """The article's passages of the first and the last of the swapped events, when it tells
    both (``_tells``) in the original's order; else None."""
    span = candidate.original_span
    parts = [span[a:b] for a, b in sentence_spans(span, language) if span[a:b].strip()]
    if len(parts) < 2:
        return None
    found = [(index.locate(p), p) for p in (parts[0], parts[-1])]
    if all(_tells(f, p, language) for f, p in found) and found[0][0].end <= found[1][0].start:
        return found[0][0], found[1][0]
    return None


def _one_line(text: str) -> str:
    return " ".join(text.split()) if "\n" in text else text


def describe(candidate: Candidate, language: str) -> str:
    """The reason without an article: the changed sentence set against the reference summary
    (what ``gold`` says when no passage tells the original)."""
    return gold(candidate, language, None).reason
