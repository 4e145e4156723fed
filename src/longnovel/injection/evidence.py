"""Where a window's article tells what a summary sentence says: the article's sentences ranked
by BM25 (``bm25s``) for the sentence's content words, the best one grown by a neighbour while
that covers more of them, and a support score: the share of the sentence's content words,
weighted by their rarity in the article (idf), that the passage holds.

The gold reasons quote the article only with such a passage (text the article contains), and
the label checks ask whether an invented sentence is told by the article (support).
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain

from longnovel.injection.nlp.sentences import sentence_spans

MAX_SENTENCES = 3  # sentences of the article a passage may join
QUOTE_CHARS = {"en": 320, "zh": 160}  # longest passage quoted in a reason
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d+")
_ZH_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
_ZH_FUNCTION = frozenset("的了是在和也就都而及与着或一不这那他她它们我你说又把被给对从到")


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer

    return Stemmer.Stemmer("english")


@lru_cache(maxsize=1)
def _english_stopwords() -> frozenset[str]:
    from bm25s import stopwords

    return frozenset(stopwords.STOPWORDS_EN_PLUS)


def content_terms(text: str, language: str) -> list[str]:
    """The content words of ``text``: en lower-cased Snowball stems without stop words; zh
    the character pairs of its runs of Chinese characters (in simplified characters), those
    made only of function characters left out: no segmenter to disagree with itself between
    a summary's wording and the article's, and fast on a 100k-token article."""
    if language == "zh":
        from longnovel.injection.nlp.script import to_simplified

        out = []
        for run in _ZH_RUN.findall(to_simplified(text)):
            out += [a + b for a, b in zip(run, run[1:], strict=False)
                    if not (a in _ZH_FUNCTION and b in _ZH_FUNCTION)]
        return out
    stop = _english_stopwords()
    tokens = [w.lower().strip("'’-") for w in _EN_WORD.findall(text)]
    return _stemmer().stemWords([w for w in tokens if w and w not in stop])


def content_lemmas(text: str, language: str, names: bool = True) -> set[str]:
    """``content_terms`` of ``text`` as a set, and in English each word's verb lemma as well
    ("made" and "makes" meet at "make"; not be, have, do, get, make), without the words
    written with a capital inside a sentence when ``names`` is False."""
    if language == "zh":
        return set(content_terms(text, language))
    from longnovel.injection.nlp.inflect import verb_lemma

    if not names:
        text = re.sub(r"(?<!^)(?<![.!?]\s)\b[A-Z][\w'’-]*", " ", text)
    return set(content_terms(text, language)) | {
        lemma for w in re.findall(r"[a-z]+", text.lower())
        if (lemma := verb_lemma(w)) and lemma not in _LIGHT_VERBS}


_LIGHT_VERBS = frozenset({"be", "have", "do", "get", "make"})


@lru_cache(maxsize=32768)
def _sentence_terms(sentence: str, language: str) -> frozenset[str]:
    """``content_terms`` of one article sentence as a set (cached: the windows of every tier
    that cover a unit hold its sentences again)."""
    return frozenset(content_terms(sentence, language))


def _tokenized(terms: list[frozenset[str]], words):
    """The sentences' terms as bm25s token ids (``""`` for a sentence without any), so that
    bm25s need not build its vocabulary from the strings itself: the same scores, found
    faster. ``words``: every term of ``terms``, each once. A sentence's terms are a set, each
    once, so neither the order of a sentence's ids nor the numbering changes a score: a
    sentence's score for a term is the term's idf times the weight of a count of 1 at the
    sentence's length."""
    from bm25s.tokenization import Tokenized

    vocab = {t: i for i, t in enumerate(words)}
    get = vocab.__getitem__
    ids = [list(map(get, sentence)) for sentence in terms]
    if not all(ids):
        empty = vocab.setdefault("", len(vocab))
        ids = [sentence or [empty] for sentence in ids]
    return Tokenized(ids=ids, vocab=vocab)


@dataclass(frozen=True)
class Passage:
    start: int  # offsets in the article
    end: int
    text: str
    support: float  # idf-weighted share of the query's content words the passage holds


class ArticleIndex:
    """The sentences of one article, indexed for ``locate``."""

    def __init__(self, article: str, language: str):
        import bm25s

        self.article, self.language = article, language
        self.spans = sentence_spans(article, language) or [(0, len(article))]
        self.terms = [_sentence_terms(article[a:b], language) for a, b in self.spans]
        # each word's count of sentences: its weight (idf) is worked out when asked, for
        # the few words a query has rather than for every word of the article
        self.df = Counter(chain.from_iterable(self.terms))
        self._n = len(self.spans)
        self._unseen = math.log((self._n + 1) / 0.5)  # a word the article never uses
        self._weights: dict[str, float] = {}  # of the words asked about
        self._bm25 = bm25s.BM25()
        self._bm25.index(_tokenized(self.terms, self.df), show_progress=False)

    @property
    def idf(self) -> dict[str, float]:
        """{word: weight} of every word of the article."""
        return {t: self.weight(t) for t in self.df}

    def weight(self, term: str) -> float:
        found = self._weights.get(term)
        if found is None:
            count = self.df.get(term)
            found = self._unseen if count is None else math.log((self._n + 1) / (count + 0.5))
            self._weights[term] = found
        return found

    def support(self, query: set[str], covered: set[str]) -> float:
        # (summed in sorted order: a set's order changes with each process's string hashing,
        # and the last digits of a float sum with it, which turned near-ties of passages)
        total = sum(self.weight(t) for t in sorted(query))
        return sum(self.weight(t) for t in sorted(query & covered)) / total if total else 0.0

    def locate(self, text: str, ignore: frozenset[str] = frozenset()) -> Passage | None:
        """The passage of the article that best tells ``text`` (None when ``text`` has no
        content word the article uses); ``ignore``: words not to count (names swapped in)."""
        query, scores = self._scores(text, ignore)
        return None if scores is None else self._grown(int(scores.argmax()), query)

    def locate_showing(self, text: str, shows, tries: int = 5) -> Passage | None:
        """Of the passages grown from the ``tries`` article sentences that rank best for
        ``text``, the first whose text ``shows(text)`` says holds what a reason needs it to
        (the count, the name, the word an edit changed); None when none does."""
        query, scores = self._scores(text)
        if scores is None:
            return None
        order = sorted(range(len(scores)), key=lambda k: (-scores[k], k))[:tries]
        for best in order:
            if scores[best] <= 0:
                break
            passage = self._grown(best, query)
            if shows(passage.text):
                return passage
        return None

    def _scores(self, text: str, ignore: frozenset[str] = frozenset()):
        """(the content words of ``text`` less ``ignore``, the BM25 score of each article
        sentence for those the article uses, or None where it uses none). (Looked up in the
        counts: ``idf`` builds a dict of every word each time it is read.)"""
        query = set(content_terms(text, self.language)) - ignore
        known = sorted(t for t in query if t in self.df)
        return query, (self._bm25.get_scores(known) if known else None)

    def _grown(self, best: int, query: set[str]) -> Passage:
        """Sentence ``best`` grown by a neighbour while that covers more of ``query``."""
        first = last = best
        covered = set(self.terms[best])
        limit = QUOTE_CHARS.get(self.language, 320)
        while last - first + 1 < MAX_SENTENCES:
            options = []
            for k in (first - 1, last + 1):
                if 0 <= k < len(self.spans) and query & (self.terms[k] - covered):
                    a, b = self.spans[min(first, k)][0], self.spans[max(last, k)][1]
                    if b - a <= limit:
                        options.append((self.support(query, covered | self.terms[k]), -k, k))
            if not options:
                break
            _, _, k = max(options)
            covered |= self.terms[k]
            first, last = min(first, k), max(last, k)
        start, end = self.spans[first][0], self.spans[last][1]
        return Passage(start, end, self.article[start:end], self.support(query, covered))

    def terms_around(self, passage: Passage, before: int = 3) -> set[str]:
        """The content words of ``passage`` and of the ``before`` article sentences ahead of
        it (where a pronoun of the passage may have its referent named)."""
        starts = self.__dict__.setdefault("_starts", [a for a, _ in self.spans])
        first = bisect.bisect_right(starts, passage.start) - 1
        last = bisect.bisect_left(starts, passage.end)
        return set().union(*self.terms[max(0, first - before) : max(last, first + 1)])

    def told(self, text: str, ignore: frozenset[str] = frozenset()) -> float:
        """How much of ``text`` the article tells: the support of its best passage."""
        passage = self.locate(text, ignore)
        return passage.support if passage else 0.0
