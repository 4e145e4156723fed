"""Article-free readers of injected summaries: can a reader without the article tell an injected
summary (or its changed sentence) from the original?

    python bench/readers.py RUN_DIR [RUN_DIR...] [--tier T]... [--group-by book|window]
                            [--json OUT] [--top 8]

Over the valid rows of each run's ``inject/injections.parquet`` (books from
``expand/windows.parquet``), five readers, each trained per language on other books
(``GroupKFold``; linked windows when a language has fewer than two books, see
``bench/reader_pairs.py``) and scored out of fold:

- ``word-LR``: word (jieba for zh) 1-2-gram tf-idf, logistic regression;
- ``char-NBSVM``: character 2-5-grams within word boundaries (binary), naive-Bayes log-count
  ratios, linear SVM;
- ``struct-GB``: structural features (``bench/text_features.py``), gradient boosting;
- ``pair-LR``: sees both texts of a pair in random order and says which is injected: logistic
  regression without intercept on the difference of word and character tf-idf vectors and
  structural features (those that grow with length left out), at summary level also of the
  sentences in which the two texts differ;
- ``audit``: the reader of ``longnovel audit`` (character 1-4-grams, logistic regression), for
  reference.

Pair accuracy: the injected text scored more "injected" than its original (ties half); 0.5 is
no tell. Each cell: accuracy and a 95% bootstrap interval over pairs. Two levels: the whole
summary, and the changed sentence(s) (an inserted sentence against the sentence it follows,
``fabrication``, and separately against a random other sentence of the summary,
``fabrication ~random``). For each reader and type, the features it relies on: for the linear
readers the features whose weight times change (injected minus original) push the type's pairs
towards "injected" most, out of fold; for ``struct-GB`` the features whose change, undone,
costs the most pair accuracy.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from itertools import pairwise
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reader_pairs import load_run_pairs, subtype_key, type_key
from text_features import EXTENSIVE, structural_matrix, tokens

MAX_FOLDS = 5
BOOTSTRAP = 2000
LEVELS = {"summary": ("original_summary", "summary"),
          "sentence": ("orig_sentence", "new_sentence")}


# ---------------------------------------------------------------- readers

class Reader:
    """A reader trained on (original, injected) text pairs of one language; ``margins`` gives
    per pair how much more "injected" the injected text reads than its original."""

    name = ""
    reads = ""

    def fit(self, pairs: list[dict], orig_key: str, new_key: str, language: str) -> bool:
        raise NotImplementedError

    def margins(self, pairs: list[dict], orig_key: str, new_key: str) -> np.ndarray:
        raise NotImplementedError

    def contributions(self, pairs, orig_key, new_key):
        """(feature names, pairs x features matrix) of what pushed each margin, or None."""
        return


def _distinct(pairs: list[dict], orig_key: str, new_key: str) -> tuple[list[str], list[int]]:
    """Each distinct original (label 0) and injected (label 1) text of the pairs."""
    docs: dict[str, int] = {}
    for pair in pairs:
        docs.setdefault(pair[orig_key], 0)
        docs[pair[new_key]] = 1
    return list(docs), list(docs.values())


_ANALYSED: dict[tuple[str, str], tuple[str, ...]] = {}


def memoised(name: str, vectorizer):
    """``vectorizer`` with its analyzer's output kept per text across folds and readers
    (``name`` tells analyzers apart): every fold, margin and contribution used to cut the same
    texts into n-grams again, which took most of the script's time. The features are the same:
    the analyzer built from the vectorizer's own settings is the one that is memoised."""
    from sklearn.base import clone

    analyse = clone(vectorizer).build_analyzer()  # a copy: the analyzer reads its settings

    def cached(text: str) -> tuple[str, ...]:
        key = (name, text)
        found = _ANALYSED.get(key)
        if found is None:
            found = _ANALYSED[key] = tuple(analyse(text))
        return found

    return vectorizer.set_params(analyzer=cached, ngram_range=(1, 1))  # (done by `analyse`)


class LinearTextReader(Reader):
    """A text vectoriser and a linear model on single texts."""

    def fit(self, pairs, orig_key, new_key, language):
        texts, labels = _distinct(pairs, orig_key, new_key)
        if len(set(labels)) < 2:
            return False
        self.language = language
        self.vectorizer = self._vectorizer(language)
        try:
            matrix = self.vectorizer.fit_transform(texts)
        except ValueError:  # no feature met min_df
            return False
        matrix = self._reweight(matrix, np.array(labels))
        self.model = self._model().fit(matrix, labels)
        return True

    def _reweight(self, matrix, labels):
        return matrix

    def _transform(self, texts):
        return self.vectorizer.transform(texts)

    def margins(self, pairs, orig_key, new_key):
        old = self.model.decision_function(self._transform([p[orig_key] for p in pairs]))
        new = self.model.decision_function(self._transform([p[new_key] for p in pairs]))
        return new - old

    def contributions(self, pairs, orig_key, new_key):
        delta = (self._transform([p[new_key] for p in pairs])
                 - self._transform([p[orig_key] for p in pairs]))
        weights = np.asarray(self.model.coef_).ravel()
        return self.vectorizer.get_feature_names_out(), delta.multiply(weights).tocsr()


class WordLR(LinearTextReader):
    name = "word-LR"
    reads = "word 1-2-grams (jieba words for zh, punctuation kept), tf-idf, logistic regression"

    def _vectorizer(self, language):
        from sklearn.feature_extraction.text import TfidfVectorizer

        return memoised(f"words-{language}", TfidfVectorizer(
            analyzer=lambda text: _word_ngrams(text, language), sublinear_tf=True, min_df=2))

    def _model(self):
        from sklearn.linear_model import LogisticRegression

        return LogisticRegression(C=4.0, max_iter=3000)


def _word_ngrams(text: str, language: str) -> list[str]:
    words = tokens(text, language)
    return list(words) + [f"{a} {b}" for a, b in pairwise(words)]


class CharNBSVM(LinearTextReader):
    name = "char-NBSVM"
    reads = ("character 2-5-grams inside word boundaries, binary, naive-Bayes log-count "
             "ratio weights, linear SVM")

    def _vectorizer(self, language):
        from sklearn.feature_extraction.text import CountVectorizer

        return memoised("char_wb-2-5", CountVectorizer(
            analyzer="char_wb", ngram_range=(2, 5), binary=True, min_df=2, lowercase=False,
            dtype=np.float32))

    def _reweight(self, matrix, labels):
        alpha = 1.0
        positive = np.asarray(matrix[labels == 1].sum(axis=0)).ravel() + alpha
        negative = np.asarray(matrix[labels == 0].sum(axis=0)).ravel() + alpha
        self.ratio = np.log((positive / positive.sum()) / (negative / negative.sum()))
        return matrix.multiply(self.ratio).tocsr()

    def _transform(self, texts):
        return self.vectorizer.transform(texts).multiply(self.ratio).tocsr()

    def _model(self):
        from sklearn.svm import LinearSVC

        return LinearSVC(C=0.1, max_iter=5000)


class AuditReader(LinearTextReader):
    name = "audit"
    reads = "longnovel audit's reader: character 1-4-grams, tf-idf, logistic regression"

    def _vectorizer(self, language):
        from longnovel.audit import _vectorizer

        return memoised("audit", _vectorizer())

    def _model(self):
        from longnovel.audit import _model

        return _model()


class StructGB(Reader):
    name = "struct-GB"
    reads = ("structural features (sentence count and lengths, connectives, time words, "
             "negators, kinship words, pronouns, numbers, quotes, capitals, retold and "
             "novel-word sentences), gradient boosting")

    def fit(self, pairs, orig_key, new_key, language):
        from sklearn.ensemble import HistGradientBoostingClassifier

        texts, labels = _distinct(pairs, orig_key, new_key)
        if len(set(labels)) < 2:
            return False
        self.language = language
        matrix, self.names = structural_matrix(texts, language)
        self.model = HistGradientBoostingClassifier(
            max_iter=100, learning_rate=0.1, max_leaf_nodes=15, l2_regularization=1.0,
            random_state=0).fit(matrix, labels)
        return True

    def _pair_matrices(self, pairs, orig_key, new_key):
        old, _ = structural_matrix([p[orig_key] for p in pairs], self.language)
        new, _ = structural_matrix([p[new_key] for p in pairs], self.language)
        return old, new

    def margins(self, pairs, orig_key, new_key):
        old, new = self._pair_matrices(pairs, orig_key, new_key)
        return self.model.decision_function(new) - self.model.decision_function(old)

    def contributions(self, pairs, orig_key, new_key):
        """Per pair and feature: how much the margin falls when the injected text's value of
        the feature is set back to the original's (its change undone)."""
        old, new = self._pair_matrices(pairs, orig_key, new_key)
        base_old = self.model.decision_function(old)
        margin = self.model.decision_function(new) - base_old
        # every feature's undone copy stacked, scored in one call (a call per feature spent
        # most of the script's time in the predictor's per-call overhead)
        n, k = new.shape
        undone = np.repeat(new[None, :, :], k, axis=0)
        undone[np.arange(k), :, np.arange(k)] = old.T
        scores = self.model.decision_function(undone.reshape(k * n, -1)).reshape(k, n)
        return np.array(self.names), (margin[None, :] - (scores - base_old[None, :])).T


class PairLR(Reader):
    name = "pair-LR"
    reads = ("both texts in random order: difference of word 1-2-gram and character 2-4-gram "
             "tf-idf and of structural features (length-free); at summary level also of the "
             "sentences where the two differ; logistic regression without intercept")

    def fit(self, pairs, orig_key, new_key, language):
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler

        if not pairs:
            return False
        self.language, self.summary_level = language, orig_key == "original_summary"
        texts = [p[k] for p in pairs for k in (orig_key, new_key)]
        self.words = memoised(f"words-{language}", TfidfVectorizer(
            analyzer=lambda t: _word_ngrams(t, language), sublinear_tf=True, min_df=2))
        self.chars = memoised("char_wb-2-4", TfidfVectorizer(
            analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True, min_df=2,
            lowercase=False))
        try:
            self.words.fit(texts)
            self.chars.fit(texts)
        except ValueError:
            return False
        if self.summary_level:
            sentences = [p[k] for p in pairs for k in ("orig_sentence", "new_sentence")]
            self.sent_words = memoised(f"words-{language}", TfidfVectorizer(
                analyzer=lambda t: _word_ngrams(t, language), sublinear_tf=True,
                min_df=1)).fit(sentences)
        old_struct, names = structural_matrix([p[orig_key] for p in pairs], language)
        new_struct, _ = structural_matrix([p[new_key] for p in pairs], language)
        self.keep = [i for i, n in enumerate(names) if n not in EXTENSIVE]
        self.struct_names = [names[i] for i in self.keep]
        self.scaler = StandardScaler().fit(np.vstack([old_struct, new_struct])[:, self.keep])
        delta = self._delta(pairs, orig_key, new_key)
        from scipy import sparse

        design = sparse.vstack([delta, -delta]).tocsr()
        labels = [1] * delta.shape[0] + [0] * delta.shape[0]
        self.model = LogisticRegression(C=4.0, max_iter=3000, fit_intercept=False)
        self.model.fit(design, labels)
        return True

    def _features(self, pairs, key, sentence_key):
        from scipy import sparse

        texts = [p[key] for p in pairs]
        struct, _ = structural_matrix(texts, self.language)
        blocks = [self.words.transform(texts), self.chars.transform(texts),
                  sparse.csr_matrix(self.scaler.transform(struct[:, self.keep]))]
        if self.summary_level:
            blocks.append(self.sent_words.transform([p[sentence_key] for p in pairs]))
        return sparse.hstack(blocks).tocsr()

    def _delta(self, pairs, orig_key, new_key):
        sentence_keys = ("orig_sentence", "new_sentence")
        return (self._features(pairs, new_key, sentence_keys[1])
                - self._features(pairs, orig_key, sentence_keys[0]))

    def margins(self, pairs, orig_key, new_key):
        """The reader is shown each pair in a seeded random order (first, second) and says how
        likely the first is the injected one; the margin is mapped back to the injected side."""
        rng = random.Random(len(pairs))
        flips = np.array([rng.random() < 0.5 for _ in pairs])
        delta = self._delta(pairs, orig_key, new_key)
        shown = delta.multiply(np.where(flips, -1.0, 1.0)[:, None]).tocsr()
        first_is_injected = self.model.decision_function(shown)
        return np.where(flips, -first_is_injected, first_is_injected)

    def contributions(self, pairs, orig_key, new_key):
        delta = self._delta(pairs, orig_key, new_key)
        names = ([f"w:{n}" for n in self.words.get_feature_names_out()]
                 + [f"c:{n}" for n in self.chars.get_feature_names_out()]
                 + [f"s:{n}" for n in self.struct_names])
        if self.summary_level:
            names += [f"edit:{n}" for n in self.sent_words.get_feature_names_out()]
        return np.array(names), delta.multiply(np.asarray(self.model.coef_).ravel()).tocsr()


READERS = [WordLR, CharNBSVM, StructGB, PairLR, AuditReader]


# ---------------------------------------------------------------- scoring

def out_of_fold(pairs: list[dict], reader_class, orig_key: str, new_key: str,
                extra_keys: dict[str, str], top_pairs: dict) -> dict[str, np.ndarray]:
    """Per scored reading (``main`` and each of ``extra_keys``: name -> original-side key), the
    out-of-fold margins of all pairs (one language); nan where no model could be fit. Adds
    each test fold's per-pair contributions to ``top_pairs[type]``."""
    from sklearn.model_selection import GroupKFold

    groups = [p["group"] for p in pairs]
    n_folds = min(MAX_FOLDS, len(set(groups)))
    out = {name: np.full(len(pairs), np.nan) for name in ["main", *extra_keys]}
    if n_folds < 2:
        return out
    for train, test in GroupKFold(n_splits=n_folds).split(pairs, groups=groups):
        reader = reader_class()
        if not reader.fit([pairs[i] for i in train], orig_key, new_key, pairs[0]["language"]):
            continue
        tested = [pairs[i] for i in test]
        out["main"][test] = reader.margins(tested, orig_key, new_key)
        for name, key in extra_keys.items():
            with_key = [j for j, p in enumerate(tested) if p.get(key) is not None]
            if with_key:
                rows = [tested[j] for j in with_key]
                out[name][test[with_key]] = reader.margins(rows, key, new_key)
        explained = reader.contributions(tested, orig_key, new_key)
        if explained is not None:
            _collect(top_pairs, tested, *explained)
    return out


def _collect(top: dict, pairs: list[dict], names, matrix) -> None:
    """Sum the contributions per type and remember, per feature, the pair it pushed most."""
    from scipy import sparse

    matrix = sparse.csr_matrix(matrix) if not sparse.issparse(matrix) else matrix
    by_type: dict[str, list[int]] = defaultdict(list)
    for i, pair in enumerate(pairs):
        by_type[pair["type"]].append(i)
    for type_id, rows in by_type.items():
        block = matrix[rows]
        cell = top.setdefault(type_id, {"sum": defaultdict(float), "up": defaultdict(int),
                                        "pairs": 0, "example": {}})
        cell["pairs"] += len(rows)
        sums = np.asarray(block.sum(axis=0)).ravel()
        positive = np.asarray((block > 0).sum(axis=0)).ravel()
        for j in np.nonzero(sums)[0]:
            cell["sum"][names[j]] += float(sums[j])
            cell["up"][names[j]] += int(positive[j])
        strongest = np.asarray(block.argmax(axis=0)).ravel()
        peak = np.asarray(block.max(axis=0).todense()).ravel()
        for j in np.argsort(-sums)[:30]:
            name, value = names[j], float(peak[j])
            if value > cell["example"].get(name, (0.0, None))[0]:
                cell["example"][name] = (value, pairs[rows[int(strongest[j])]])


def wins(margins: np.ndarray) -> np.ndarray:
    """1 when the injected text reads more injected, 0.5 on a tie, 0 otherwise; nan kept."""
    out = np.where(margins > 0, 1.0, np.where(margins < 0, 0.0, 0.5))
    return np.where(np.isnan(margins), np.nan, out)


def cell(values: np.ndarray, rng: np.random.Generator) -> dict:
    """Pair accuracy, n and a 95% percentile bootstrap interval over pairs."""
    values = values[~np.isnan(values)]
    if not len(values):
        return {"n": 0, "acc": None, "lo": None, "hi": None}
    means = rng.choice(values, size=(BOOTSTRAP, len(values))).mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return {"n": len(values), "acc": round(float(values.mean()), 4),
            "lo": round(float(lo), 4), "hi": round(float(hi), 4)}


def row_keys(pairs: list[dict]) -> list[tuple[str, callable]]:
    return [("type", type_key), ("subtype", subtype_key),
            ("language", lambda p: f"all ({p['language']})"), ("all", lambda p: "all")]


def score_level(pairs: list[dict], level: str, readers, top: dict) -> dict:
    """Every reader's pair accuracy at one level, per type, sub-type, language and in all."""
    orig_key, new_key = LEVELS[level]
    extra = {"~random": "random_sentence"} if level == "sentence" else {}
    by_language: dict[str, list[int]] = defaultdict(list)
    for i, pair in enumerate(pairs):
        by_language[pair["language"]].append(i)
    results, timings = {}, {}
    rng = np.random.default_rng(13)
    for reader_class in readers:
        started = time.perf_counter()
        margins = {name: np.full(len(pairs), np.nan) for name in ["main", *extra]}
        for indices in by_language.values():
            group = [pairs[i] for i in indices]
            reader_top = top.setdefault(reader_class.name, {}).setdefault(level, {})
            found = out_of_fold(group, reader_class, orig_key, new_key, extra, reader_top)
            for name, values in found.items():
                margins[name][indices] = values
        timings[reader_class.name] = round(time.perf_counter() - started, 1)
        won = {name: wins(m) for name, m in margins.items()}
        table = {}
        for _, key in row_keys(pairs):
            rows: dict[str, list[int]] = defaultdict(list)
            for i, pair in enumerate(pairs):
                rows[key(pair)].append(i)
            for row, indices in rows.items():
                table[row] = cell(won["main"][indices], rng)
                if "~random" in won:
                    inserted = [i for i in indices if pairs[i]["insertion"]]
                    if inserted:
                        table[f"{row} ~random"] = cell(won["~random"][inserted], rng)
        results[reader_class.name] = table
    return {"table": results, "seconds": timings}


# ---------------------------------------------------------------- report

def _fmt(c: dict | None) -> str:
    if not c or c["acc"] is None:
        return "-"
    return f"{c['acc']:.2f} ({c['lo']:.2f}-{c['hi']:.2f})"


def _row_order(table: dict) -> list[str]:
    any_reader = next(iter(table.values()))
    names = list(any_reader)
    types = sorted({n.split("/")[0].replace(" ~random", "") for n in names
                    if not n.startswith("all")})
    order = []
    for type_id in types:
        order += [n for n in (type_id, f"{type_id} ~random") if n in any_reader]
        order += sorted(n for n in names if n.startswith(type_id + "/"))
    order += sorted(n for n in names if n.startswith("all ("))
    order += [n for n in ("all", "all ~random") if n in any_reader]
    return order


def markdown_table(level_result: dict, subtypes: bool = True) -> str:
    table = level_result["table"]
    readers = list(table)
    lines = ["| type | n | " + " | ".join(readers) + " |",
             "|---|---:|" + "---|" * len(readers)]
    for row in _row_order(table):
        if "/" in row and not subtypes:
            continue
        n = max((table[r].get(row) or {"n": 0})["n"] for r in readers)
        label = f"&nbsp;&nbsp;{row.split('/', 1)[1]}" if "/" in row else row
        lines.append(f"| {label} | {n} | "
                     + " | ".join(_fmt(table[r].get(row)) for r in readers) + " |")
    return "\n".join(lines)


def top_features(top: dict, k: int) -> dict:
    """Per reader, level and type: the k features pushing most towards "injected", with the
    share of the type's pairs they pushed that way and the pair they pushed most."""
    out: dict = {}
    for reader, levels in top.items():
        for level, types in levels.items():
            for type_id, cell_ in sorted(types.items()):
                ranked = sorted(cell_["sum"].items(), key=lambda kv: -kv[1])[:k]
                entries = []
                for name, total in ranked:
                    example = cell_["example"].get(name, (0.0, None))[1]
                    entries.append({
                        "feature": str(name),
                        "mean_push": float(f"{total / cell_['pairs']:.3g}"),
                        "share_pushed": round(cell_["up"][name] / cell_["pairs"], 3),
                        "example": None if example is None else {
                            "window_id": example["window_id"], "subtype": example["subtype"],
                            "original": example["orig_sentence"][:200],
                            "injected": example["new_sentence"][:200]}})
                out.setdefault(reader, {}).setdefault(level, {})[type_id] = entries
    return out


def print_top(tops: dict, k_print: int) -> None:
    for reader, levels in tops.items():
        print(f"\n### What {reader} relies on (towards 'injected'; mean push, share of pairs)")
        for level, types in levels.items():
            print(f"\n{level}:")
            for type_id, entries in types.items():
                words = "; ".join(f"`{e['feature']}` {e['mean_push']:+.2g} "
                                  f"({e['share_pushed']:.0%})" for e in entries[:k_print])
                print(f"- {type_id}: {words}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dirs", nargs="+", type=Path)
    parser.add_argument("--tier", action="append", dest="tiers")
    parser.add_argument("--group-by", choices=["book", "window"], default="book")
    parser.add_argument("--json", type=Path, help="write every figure and top feature here")
    parser.add_argument("--top", type=int, default=8, help="top features printed per type")
    parser.add_argument("--readers", default=",".join(r.name for r in READERS),
                        help="comma-separated subset of " + ", ".join(r.name for r in READERS))
    parser.add_argument("--no-subtypes", action="store_true")
    args = parser.parse_args()
    chosen = [r for r in READERS if r.name in args.readers.split(",")]
    started = time.perf_counter()
    pairs = load_run_pairs(args.run_dirs, args.tiers, args.group_by)
    if not pairs:
        sys.exit(f"{args.run_dirs[0]}: no valid injection to read")
    groups = defaultdict(set)
    for pair in pairs:
        groups[(pair["language"], pair["grouping"])].add(pair["group"])
    print(f"{len(pairs)} pairs; fold groups: "
          + ", ".join(f"{lang} {len(g)} {kind}s" for (lang, kind), g in sorted(groups.items())))
    top: dict = {}
    result = {"run_dirs": [str(d) for d in args.run_dirs], "tiers": args.tiers,
              "pairs": len(pairs), "readers": {r.name: r.reads for r in chosen},
              "groups": {f"{lang}/{kind}": len(g) for (lang, kind), g in groups.items()}}
    from threadpoolctl import threadpool_limits

    for level in LEVELS:
        # small models: OpenMP threads cost more in start-up than they save on 2 shared cores
        with threadpool_limits(limits=1, user_api="openmp"):
            result[level] = score_level(pairs, level, chosen, top)
        print(f"\n## Pair accuracy, {level} level (95% bootstrap interval over pairs)\n")
        print(markdown_table(result[level], subtypes=not args.no_subtypes))
        print("\nseconds per reader: " + ", ".join(
            f"{k} {v}" for k, v in result[level]["seconds"].items()))
    result["top_features"] = top_features(top, max(args.top, 15))
    print_top(result["top_features"], args.top)
    result["seconds"] = round(time.perf_counter() - started, 1)
    print(f"\n{result['seconds']} s in all")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1, ensure_ascii=False, default=str) + "\n",
                             encoding="utf-8")


if __name__ == "__main__":
    main()
