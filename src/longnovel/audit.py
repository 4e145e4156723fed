"""``longnovel audit``: the article-free baseline of a built run directory.

For every valid injection (a human summary and its injected rewrite), a classifier that never
sees the article (character 1-4-gram tf-idf and logistic regression) scores both texts; the
pair counts as told apart when the injected one scores as more "injected" than its original
(a tie counts half). Folds are grouped by book (``GroupKFold``), so a book is never in the
training and the test part of one fold, and each language has its own classifier. The same is
done at sentence level: the changed sentence(s) against the original one(s); for an added
sentence (``fabrication``), the original is the sentence it was added after.

0.5 means the summary alone gives nothing away; 1.0 means every injection can be found
without reading the book. Writes ``<run_dir>/stats/audit.json``; the dataset card reports it.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq

from longnovel.errors import LongnovelError
from longnovel.state import atomic_write_bytes

FOLDER = "stats"
FILE = "audit.json"
MIN_BOOKS = 2  # per language: fewer leaves no book to test on
MAX_FOLDS = 5
TOP_NGRAMS = 20


def audit_path(run_dir: Path) -> Path:
    return Path(run_dir) / FOLDER / FILE


def load_pairs(run_dir: Path, tiers: list[str] | None = None,
               group_by: str = "book") -> list[dict]:
    """Valid injections of the run with their book: one dict per pair. ``group_by: window``
    makes each window its own fold group (``book_id`` becomes the window id): weaker, since a
    book's names and style then reach both sides of a fold, but usable on a one-book corpus."""
    run_dir = Path(run_dir)
    injections = run_dir / "inject" / "injections.parquet"
    windows = run_dir / "expand" / "windows.parquet"
    for path in (injections, windows):
        if not path.is_file():
            raise LongnovelError(f"{path}: missing; run `longnovel build` (inject) first")
    books = dict(zip(*pq.read_table(windows, columns=["window_id", "book_id"])
                     .to_pydict().values(), strict=True))
    rows = pq.read_table(injections).to_pylist()
    pairs = []
    for row in rows:
        if not row["valid"] or (tiers and row["tier"] not in tiers):
            continue
        if row["window_id"] not in books:
            continue
        row["book_id"] = books[row["window_id"]] if group_by == "book" else row["window_id"]
        row["original_sentence"], row["new_sentence"] = changed_sentences(row)
        pairs.append(row)
    return pairs


def changed_sentences(row: dict) -> tuple[str, str]:
    """(original, new) sentence(s) of an injection; an added sentence is set against the
    sentence of the original it follows."""
    if row["original_span"]:
        return row["original_span"], row["hallucinated_span"]
    from longnovel.injection.nlp.sentences import split_sentences

    at = row["summary"].find(row["hallucinated_span"])
    before = split_sentences(row["summary"][: max(at, 0)], row["language"])
    return (before[-1] if before else ""), row["hallucinated_span"]


def _vectorizer():
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(analyzer="char", ngram_range=(1, 4), sublinear_tf=True, min_df=2,
                           lowercase=False)


def _model():
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=4.0, max_iter=2000)


def _training_docs(pairs: list[dict], original: str, new: str) -> tuple[list[str], list[int]]:
    """Each distinct original text (label 0) and each distinct injected text (label 1)."""
    docs = {}
    for pair in pairs:
        docs.setdefault(pair[original], 0)
        docs[pair[new]] = 1
    return list(docs), list(docs.values())


def _fit(pairs: list[dict], original: str, new: str):
    texts, labels = _training_docs(pairs, original, new)
    if len(set(labels)) < 2:
        return None, None
    vectorizer = _vectorizer()
    try:
        matrix = vectorizer.fit_transform(texts)
    except ValueError:  # no n-gram met twice
        return None, None
    return vectorizer, _model().fit(matrix, labels)


def out_of_fold_wins(pairs: list[dict], original: str, new: str) -> list[float]:
    """Per pair: 1 when the injected text scores higher than its original out of fold,
    0.5 on a tie, 0 otherwise. Folds are grouped by book."""
    from sklearn.model_selection import GroupKFold

    groups = [p["book_id"] for p in pairs]
    n_folds = min(MAX_FOLDS, len(set(groups)))
    wins = [0.5] * len(pairs)
    for train, test in GroupKFold(n_splits=n_folds).split(pairs, groups=groups):
        vectorizer, model = _fit([pairs[i] for i in train], original, new)
        if model is None:
            continue
        tested = [pairs[i] for i in test]
        old = model.decision_function(vectorizer.transform([p[original] for p in tested]))
        fresh = model.decision_function(vectorizer.transform([p[new] for p in tested]))
        for i, a, b in zip(test, old, fresh, strict=True):
            wins[i] = 1.0 if b > a else 0.5 if b == a else 0.0
    return wins


def shortcuts(pairs: list[dict], original: str = "original_summary",
              new: str = "summary") -> dict[str, list]:
    """The n-grams weighing most towards "injected" and towards "original" (all books)."""
    vectorizer, model = _fit(pairs, original, new)
    if model is None:
        return {"injected": [], "original": []}
    names = vectorizer.get_feature_names_out()
    weights = model.coef_[0]
    order = weights.argsort()
    top = [{"ngram": str(names[i]), "weight": round(float(weights[i]), 3)} for i in order[::-1]]
    bottom = [{"ngram": str(names[i]), "weight": round(float(weights[i]), 3)} for i in order]
    return {"injected": top[:TOP_NGRAMS], "original": bottom[:TOP_NGRAMS]}


def _accuracy(pairs: list[dict], wins: list[float], key) -> dict[str, dict]:
    groups: dict[str, list[float]] = defaultdict(list)
    for pair, win in zip(pairs, wins, strict=True):
        groups[key(pair)].append(win)
    return {name: _cell(values) for name, values in sorted(groups.items())}


def _cell(values: list[float]) -> dict:
    return {"pairs": len(values), "pair_accuracy": round(sum(values) / len(values), 4)}


GROUPINGS = {
    "by_type": lambda p: p["type"],
    "by_subtype": lambda p: f"{p['type']}/{p['subtype']}" if p["subtype"] else p["type"],
    "by_language": lambda p: p["language"],
    "by_tier": lambda p: p["tier"],
}


def _level(pairs: list[dict], wins: list[float]) -> dict:
    result = {"all": _cell(wins)} if wins else {"all": {"pairs": 0, "pair_accuracy": None}}
    for name, key in GROUPINGS.items():
        result[name] = _accuracy(pairs, wins, key)
    return result


def compute_audit(pairs: list[dict]) -> dict:
    """The audit of ``pairs``: pair accuracy at summary and sentence level, per type, sub-type,
    language and tier, and the strongest n-grams; languages with fewer than ``MIN_BOOKS``
    books are listed under ``too_few_books`` and left out of every figure."""
    by_language: dict[str, list[dict]] = defaultdict(list)
    for pair in pairs:
        by_language[pair["language"]].append(pair)
    scored, summary_wins, sentence_wins = [], [], []
    too_few, top = {}, {}
    for language, group in sorted(by_language.items()):
        books = len({p["book_id"] for p in group})
        if books < MIN_BOOKS:
            too_few[language] = books
            continue
        scored += group
        summary_wins += out_of_fold_wins(group, "original_summary", "summary")
        sentence_wins += out_of_fold_wins(group, "original_sentence", "new_sentence")
        top[language] = shortcuts(group)
    groups = {(p["language"], p["book_id"]) for p in scored}
    return {"classifier": "char 1-4-gram tf-idf + logistic regression, GroupKFold by book, "
                          "one model per language",
            "pairs": len(scored), "groups": len(groups), "min_books_per_language": MIN_BOOKS,
            "too_few_books": too_few, "summary": _level(scored, summary_wins),
            "sentence": _level(scored, sentence_wins), "shortcuts": top}


def write_audit(run_dir: Path, tiers: list[str] | None = None,
                group_by: str = "book") -> tuple[Path, dict]:
    """Audit the run's injections and write ``stats/audit.json``; return its path and content."""
    if group_by not in ("book", "window"):
        raise LongnovelError(f"--group-by: {group_by!r} is not one of book, window")
    result = compute_audit(load_pairs(run_dir, tiers, group_by))
    result["tiers"] = list(tiers) if tiers else None
    result["group_by"] = group_by
    path = audit_path(run_dir)
    atomic_write_bytes(path, (json.dumps(result, indent=2, ensure_ascii=False) + "\n")
                       .encode("utf-8"))
    return path, result


def read_audit(run_dir: Path) -> dict | None:
    """The stored audit of a run directory, or None when ``audit`` has not run."""
    path = audit_path(run_dir)
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def audit_digest(run_dir: Path) -> str | None:
    """sha256 of ``stats/audit.json`` (None when absent): part of export's fingerprint."""
    import hashlib

    path = audit_path(run_dir)
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.is_file() else None


def _fmt(cell: dict | None) -> str:
    if not cell or cell.get("pair_accuracy") is None:
        return "-"
    return f"{cell['pair_accuracy']:.3f}"


def audit_table(result: dict) -> str:
    """Plain-text table: pairs and pair accuracy (summary, sentence) per type, language, tier."""
    if not result["pairs"]:
        counts = ", ".join(f"{k} {v}" for k, v in result["too_few_books"].items()) or "none"
        return (f"too few books for grouped folds (need {result['min_books_per_language']} per "
                f"language; books: {counts}): no figure")
    lines = [f"{'group':<28}{'pairs':>7}{'summary':>9}{'sentence':>10}"]
    for section, title in (("by_type", "type"), ("by_language", "language"),
                           ("by_tier", "tier")):
        for name, cell in result["summary"][section].items():
            sentence = result["sentence"][section].get(name)
            lines.append(f"{title + ' ' + name:<28}{cell['pairs']:>7}{_fmt(cell):>9}"
                         f"{_fmt(sentence):>10}")
    lines.append(f"{'all':<28}{result['pairs']:>7}{_fmt(result['summary']['all']):>9}"
                 f"{_fmt(result['sentence']['all']):>10}")
    for language, books in result["too_few_books"].items():
        lines.append(f"{language}: {books} book(s), too few for grouped folds: not scored")
    return "\n".join(lines)
