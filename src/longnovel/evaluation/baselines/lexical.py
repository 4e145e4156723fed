"""``baseline:lexical``: is each summary sentence backed by words of the article?

The article is cut into passages of consecutive sentences (about ``PASSAGE_TERMS`` content
words each) and indexed with BM25 (``bm25s``). Each summary sentence is a query; its support
is the share of its distinct content words found in its ``TOP_PASSAGES`` best passages (a word
the article uses only elsewhere counts half, one it never uses nothing). A summary's suspicion
is 1 minus the support of its least-supported sentence, flagged above a threshold fitted for
balanced accuracy on labelled samples (see ``training``). Words: lower-cased Snowball stems
without stop words (en); overlapping character pairs (zh). One index per article, so a
100k-token window is indexed once for all its summaries.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from longnovel.evaluation.baselines.scale import best_threshold, score_of
from longnovel.evaluation.baselines.training import both_labels
from longnovel.evaluation.parsing import Prediction

PASSAGE_TERMS = 128
TOP_PASSAGES = 3
ELSEWHERE = 0.5
WORD = re.compile(r"[^\W_]+")
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def terms(text: str, language: str) -> list[str]:
    """The content words of ``text``."""
    if language == "zh":
        return chinese_bigrams(text)
    return _english_stems(tuple(WORD.findall(text.lower())))


def chinese_bigrams(text: str) -> list[str]:
    """Overlapping character pairs of every run of Chinese characters (a lone character
    stands for itself), plus any Latin words or numbers: pairs need no word segmenter, so a
    name is the same term wherever it stands (a segmenter may cut it differently by
    context)."""
    found = [w.lower() for w in WORD.findall(HAN.sub(" ", text))]
    for run in HAN.findall(text):
        found += [run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)]
    return found


def _english_stems(words: tuple[str, ...]) -> list[str]:
    """Snowball stems of the words that are not stop words ("refused" and "refuse" meet)."""
    return _stemmer().stemWords([w for w in words if w not in _english_stop()])


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer

    return Stemmer.Stemmer("english")


@lru_cache(maxsize=1)
def _english_stop() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN_PLUS

    return frozenset(STOPWORDS_EN_PLUS)


def _article_sentences(text: str, language: str) -> list[str]:
    from longnovel.injection.nlp.sentences import _sentence_spans

    # the splitter's cache is sized for summaries: an article goes around it
    return [text[a:b] for a, b in _sentence_spans.__wrapped__(text, language)]


class ArticleIndex:
    """BM25 over one article's passages, and the document frequency of each word."""

    def __init__(self, article: str, language: str):
        import bm25s

        passages: list[list[str]] = [[]]
        self.starts: list[str] = [""]
        for sentence in _article_sentences(article, language):
            if len(passages[-1]) >= PASSAGE_TERMS:
                passages.append([])
                self.starts.append("")
            passages[-1].extend(terms(sentence, language))
            self.starts[-1] = self.starts[-1] or sentence[:80]
        self.words = [set(p) for p in passages]
        self.used = set().union(*self.words)
        self.bm25 = bm25s.BM25()
        self.bm25.index(passages, show_progress=False)

    def support(self, query: list[str]) -> tuple[float, int]:
        """(share of ``query``'s distinct words backed by the article, best passage): a word
        in its ``TOP_PASSAGES`` best passages counts 1, one used elsewhere in the article
        ``ELSEWHERE``, one the article never uses 0."""
        scores = self.bm25.get_scores(query)
        best = sorted(range(len(scores)), key=lambda i: -scores[i])[:TOP_PASSAGES]
        aligned = set().union(*(self.words[i] for i in best if scores[i] > 0))
        words = set(query)
        credit = sum(1.0 if w in aligned else ELSEWHERE if w in self.used else 0.0
                     for w in words)
        return credit / len(words), best[0]


@dataclass
class Evidence:
    """A summary's least-supported sentence, its support and the passage it aligned to."""

    suspicion: float
    sentence: str
    passage: str


class Lexical:
    """Computes every sample's suspicion once, then fits thresholds per fold."""

    def __init__(self):
        self.evidence: dict[tuple[str, str], Evidence] = {}

    def prepare(self, rows: list[dict], progress: bool = False) -> None:
        from tqdm import tqdm

        by_window: dict[str, list[dict]] = {}
        for row in rows:
            by_window.setdefault(row["window"], []).append(row)
        for window_rows in tqdm(list(by_window.values()), desc="baseline:lexical",
                                disable=not progress, leave=False):
            index = ArticleIndex(window_rows[0]["article"], window_rows[0]["language"])
            for row in window_rows:
                key = (row["window"], row["summary"])
                if key not in self.evidence:
                    self.evidence[key] = weakest_sentence(index, row["summary"],
                                                          row["language"])

    def suspicion(self, row: dict) -> float:
        return self.evidence[(row["window"], row["summary"])].suspicion

    def fit(self, rows: list[dict]) -> float | None:
        if not both_labels(rows):
            return None
        return best_threshold([self.suspicion(r) for r in rows], [r["score"] < 3 for r in rows])

    def predict(self, threshold: float, rows: list[dict]) -> list[Prediction]:
        preds = []
        for row in rows:
            found = self.evidence[(row["window"], row["summary"])]
            raw = json.dumps({"baseline": "lexical", "support": round(1 - found.suspicion, 4),
                              "threshold": round(1 - threshold, 4),
                              "weakest_sentence": found.sentence,
                              "aligned_passage": found.passage}, ensure_ascii=False)
            preds.append(Prediction(score=score_of(found.suspicion, threshold), raw=raw))
        return preds


def weakest_sentence(index: ArticleIndex, summary: str, language: str) -> Evidence:
    """The summary sentence with the least support in the article (sentences without a
    content word are passed over)."""
    from longnovel.injection.nlp.sentences import split_sentences

    weakest = Evidence(0.0, "", "")
    for sentence in split_sentences(summary, language):
        query = terms(sentence, language)
        if not query:
            continue
        support, passage = index.support(query)
        if 1 - support > weakest.suspicion or not weakest.sentence:
            weakest = Evidence(1 - support, sentence, index.starts[passage])
    return weakest
