"""Pairs (original summary, injected summary) of built run directories, for the article-free
readers (``bench/readers.py``) and the language-model reader (``bench/lm_reader.py``).

A pair's edited sentences are found from the two texts themselves, not from the row's spans:
the characters an edit changed (common prefix and suffix of the two summaries) and every
sentence (``longnovel.injection.nlp.sentences.sentence_spans``) that overlaps them. That holds
whatever the generator records in ``original_span`` and ``hallucinated_span``.

An inserted sentence (nothing of the original changed: ``fabrication``) has no original
sentence. It is set against two stand-ins, reported separately:

- ``prev``: the original's sentence it was added after (the first sentence when it was added
  at the start): the reading ``longnovel audit`` uses;
- ``random``: a sentence of the original drawn at random (seeded by the pair), not the one it
  follows: a sentence of the same summary that no edit touched.

Fold groups: by book, or, when a language has fewer than two books (or ``group_by=window``),
by *linked windows*: windows of one book that share a unit are one group, so that a T4 window
and the T8 window containing it never sit on both sides of a fold.
"""

from __future__ import annotations

import hashlib
import random
from collections import defaultdict
from pathlib import Path

MIN_BOOKS = 2


def load_run_pairs(run_dirs: list[Path], tiers: list[str] | None = None,
                   group_by: str = "book") -> list[dict]:
    """Valid injections of every run directory, each with its edited sentences and fold group.
    A row of one run that also appears in another (same window, type and texts) is kept once."""
    import pyarrow.parquet as pq

    from longnovel.audit import load_pairs

    pairs, seen = [], set()
    for run_index, run_dir in enumerate(run_dirs):
        windows = {w["window_id"]: w for w in pq.read_table(
            Path(run_dir) / "expand" / "windows.parquet",
            columns=["window_id", "book_id", "unit_start", "unit_end"]).to_pylist()}
        for row in load_pairs(Path(run_dir), tiers, "book"):
            key = (row["window_id"], row["type"], row["summary"], row["original_summary"])
            if key in seen:
                continue
            seen.add(key)
            window = windows[row["window_id"]]
            row["run"] = run_index
            row["unit_range"] = (int(window["unit_start"]), int(window["unit_end"]))
            row.update(edited_sentences(row["original_summary"], row["summary"],
                                        row["language"], _pair_seed(row)))
            pairs.append(row)
    _assign_groups(pairs, group_by)
    return pairs


def _pair_seed(row: dict) -> int:
    text = f"{row['window_id']}|{row['type']}|{row['subtype']}"
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16)


def edited_sentences(original: str, injected: str, language: str, seed: int) -> dict:
    """Where an edit sits in both summaries: the sentence lists, the indices of the edited
    sentences in each (``orig_idx`` empty for an insertion), the changed text on each side,
    and the stand-ins of an insertion (see the module's docstring)."""
    from longnovel.injection.nlp.sentences import sentence_spans
    from longnovel.injection.nlp.text import changed_parts

    start, old_end, new_end = changed_parts(original, injected)
    orig_spans = sentence_spans(original, language)
    new_spans = sentence_spans(injected, language)
    orig_sents = [original[a:b] for a, b in orig_spans]
    new_sents = [injected[a:b] for a, b in new_spans]
    added = _added_sentences(orig_sents, new_sents)
    insertion = bool(added)
    if insertion:
        new_idx, orig_idx = added, []
    else:  # words changed (or added) inside sentences, or sentences moved
        new_idx = _overlapping(new_spans, start, new_end)
        orig_idx = _overlapping(orig_spans, start, old_end)
    out = {"orig_sents": orig_sents, "new_sents": new_sents, "new_idx": new_idx,
           "orig_idx": orig_idx, "insertion": insertion,
           "new_sentence": " ".join(new_sents[i] for i in new_idx) if language == "en"
           else "".join(new_sents[i] for i in new_idx)}
    if insertion:
        at = new_idx[0] if new_idx else 0
        out["prev_idx"] = max(0, min(at - 1, len(orig_sents) - 1)) if at else 0
        # the original's sentence at the inserted sentence's position (the one it now precedes;
        # the last one when it was added at the end): the language-model reader's counterpart
        out["same_pos_idx"] = min(at, len(orig_sents) - 1)
        others = [i for i in range(len(orig_sents)) if i != out["prev_idx"]] or [0]
        out["random_idx"] = random.Random(seed).choice(others)
        out["orig_sentence"] = orig_sents[out["prev_idx"]] if orig_sents else ""
        out["random_sentence"] = orig_sents[out["random_idx"]] if orig_sents else ""
    else:
        joiner = " " if language == "en" else ""
        out["orig_sentence"] = joiner.join(orig_sents[i] for i in orig_idx)
        out["random_sentence"] = None
    return out


def _added_sentences(orig_sents: list[str], new_sents: list[str]) -> list[int]:
    """Indices of the injected summary's sentences that were added whole (every other sentence
    unchanged and in order); empty when the edit is anything else."""
    from difflib import SequenceMatcher

    ops = SequenceMatcher(None, orig_sents, new_sents, autojunk=False).get_opcodes()
    changes = [op for op in ops if op[0] != "equal"]
    if not changes or any(op[0] != "insert" for op in changes):
        return []
    return [j for op in changes for j in range(op[3], op[4])]


def _overlapping(spans: list[tuple[int, int]], start: int, end: int) -> list[int]:
    """Indices of the spans that overlap [start, end); for an empty range, the span holding
    ``start`` (or the nearest one after it)."""
    if end <= start:
        end = start + 1
    hit = [i for i, (a, b) in enumerate(spans) if a < end and b > start]
    if hit:
        return hit
    after = [i for i, (a, _) in enumerate(spans) if a >= start]
    return after[:1] or ([len(spans) - 1] if spans else [])


def _assign_groups(pairs: list[dict], group_by: str) -> None:
    """Set ``group`` on every pair: its book, or its linked-window group (see above)."""
    by_language: dict[str, list[dict]] = defaultdict(list)
    for pair in pairs:
        by_language[pair["language"]].append(pair)
    for group in by_language.values():
        books = {p["book_id"] for p in group}
        if group_by == "book" and len(books) >= MIN_BOOKS:
            for pair in group:
                pair["group"], pair["grouping"] = pair["book_id"], "book"
            continue
        linked = _linked_windows(group)
        for pair in group:
            pair["group"], pair["grouping"] = linked[pair["window_id"]], "window"


def _linked_windows(pairs: list[dict]) -> dict[str, str]:
    """window id -> a group id shared by windows of one book whose unit ranges overlap."""
    ranges = {p["window_id"]: (p["book_id"], *p["unit_range"]) for p in pairs}
    parent = {w: w for w in ranges}

    def root(w: str) -> str:
        while parent[w] != w:
            parent[w] = parent[parent[w]]
            w = parent[w]
        return w

    by_book: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for window, (book, start, end) in ranges.items():
        by_book[book].append((start, end, window))
    for spans in by_book.values():
        spans.sort()
        reach, holder = -1, None
        for start, end, window in spans:
            if holder is not None and start <= reach:
                parent[root(window)] = root(holder)
            if end > reach:
                reach, holder = end, window
    return {w: root(w) for w in ranges}


def type_key(pair: dict) -> str:
    return pair["type"]


def subtype_key(pair: dict) -> str:
    return f"{pair['type']}/{pair['subtype']}" if pair["subtype"] else pair["type"]
