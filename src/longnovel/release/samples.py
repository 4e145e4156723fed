"""Samples of the release format (DESIGN.md section 12): building, ids, splits and sampling."""

from __future__ import annotations

import hashlib
import json
import random

from longnovel.taxonomy import is_hallucinated
from longnovel.templates import load_prompt

HUMAN_REASON = {
    "en": "The summary is the human-written reference summary of this article.",
    "zh": "该摘要是本文的人工撰写参考摘要。",
}
SUMMARY_LINE = {"en": "Summary:", "zh": "摘要："}
SOURCES = ("human", "arbitration", "injection")


def instruction(language: str) -> str:
    """The detection prompt (rubric and reply format) in ``language``."""
    return load_prompt("detect", language)


def label_of(score: int) -> str:
    return "hallucinated" if is_hallucinated(score) else "consistent"


def gold_output(score: int, types: list[str], reason: str) -> str:
    """The gold judgment as a JSON string; types are omitted when the score is 3 or more."""
    body: dict = {"score": int(score)}
    if is_hallucinated(score):
        body["hallucination_types"] = list(types)
    body["reason"] = reason
    return json.dumps(body, ensure_ascii=False)


def detection_input(article: str, summary: str, language: str) -> str:
    """The article, then a line starting ``Summary:`` / ``摘要：``, then the summary."""
    return f"{article}\n\n{SUMMARY_LINE.get(language, 'Summary:')}\n{summary}"


def sample_id(window: dict, source: str, generator: str, kind: str, summary: str) -> str:
    """Stable id: the same window, source, generator, type and summary give the same id."""
    key = "\x1f".join([window["window_id"], source, generator, kind, summary])
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]
    return f"{window['tier']}-{window['language']}-{source[:3]}-{digest}"


def sample_kind(types: list[str], subtype: str) -> str:
    """The type part of a sample's id: its hallucination types and sub-type."""
    return "/".join(types) + subtype


def make_sample(window: dict, *, source: str, generator: str, summary: str, score: int,
                types: list[str], reason: str, subtype: str = "", evidence: str = "",
                evidence_start: int = -1, evidence_end: int = -1) -> dict:
    """One release row (without ``split``) for a window and a labelled summary; ``evidence``:
    the article passage an injection's reason rests on, at ``evidence_start:evidence_end``."""
    language = window["language"]
    kept_types = list(types) if is_hallucinated(int(score)) else []
    row = {
        "id": sample_id(window, source, generator, sample_kind(kept_types, subtype), summary),
        "window_id": window["window_id"], "language": language, "tier": window["tier"],
        "book_id": window["book_id"],
        "title": window["title"], "n_tokens": int(window["n_tokens"]),
        "article": window["article"], "source": source, "generator": generator,
        "subtype": subtype, "instruction": instruction(language),
        "reviewed": False, "review_note": "", "evidence": evidence,
        "evidence_start": int(evidence_start), "evidence_end": int(evidence_end),
    }
    return relabel(row, summary=summary, score=score, types=types, reason=reason)


def relabel(row: dict, *, summary: str, score: int, types: list[str], reason: str) -> dict:
    """A copy of release ``row`` with a new judgment; label, input and output follow. The id
    stays. A row without its article (export keeps them light until written) gets its
    ``input`` when the article is put in."""
    score = int(score)
    types = list(types) if is_hallucinated(score) else []
    text = detection_input(row["article"], summary, row["language"]) if row["article"] else ""
    return {**row, "summary": summary, "score": score, "label": label_of(score),
            "hallucination_types": types, "reason": reason, "input": text,
            "output": gold_output(score, types, reason)}


def assign_splits(book_weights: dict[tuple[str, str], int], shares: dict[str, float],
                  seed: int) -> dict[str, str]:
    """Book -> split, per language, so each split's share of samples approaches its target.

    ``book_weights`` maps (language, book_id) to the book's number of samples. Books are taken
    in a seeded random order and each goes to the split furthest below its target.
    """
    rng = random.Random(f"{seed}:splits")
    by_language: dict[str, list[tuple[str, int]]] = {}
    for (language, book), weight in sorted(book_weights.items()):
        by_language.setdefault(language, []).append((book, weight))
    result: dict[str, str] = {}
    for books in by_language.values():
        rng.shuffle(books)
        total = sum(w for _, w in books) or 1
        filled = {name: 0 for name in shares}
        for book, weight in books:
            split = max(shares, key=lambda s: (shares[s] * total - filled[s], shares[s]))
            filled[split] += weight
            result[book] = split
    return result


BALANCED = "balanced"


def apply_mix(samples: list[dict], mix: dict[str, float] | str | None, cap: int | None,
              rng: random.Random) -> list[dict]:
    """Sample one tier's rows to the source shares of ``mix`` and at most ``cap`` rows;
    ``mix="balanced"`` (the default of ``export.mix``) balances labels instead (see
    ``balance_labels``).

    Sources named in ``mix`` that have no rows (say, arbitration without summarizers) are left
    out and the other shares renormalized, so a tier is never emptied by a missing source.
    Counts per source come from largest remainders (they sum to the total, never above the
    cap). Within a source, rows are drawn round-robin over (book, types) groups, so a cap
    keeps the spread across books and hallucination types.
    """
    if mix == BALANCED:
        return balance_labels(samples, cap, rng)
    if mix is None and cap is None:
        return samples
    by_source: dict[str, list[dict]] = {}
    for s in samples:
        by_source.setdefault(s["source"], []).append(s)
    shares = mix or {src: len(rows) for src, rows in by_source.items()}
    wanted = {src: share for src, share in shares.items() if share > 0 and by_source.get(src)}
    if not wanted:
        return []
    norm = sum(wanted.values())
    wanted = {src: share / norm for src, share in wanted.items()}
    possible = min(len(by_source[src]) / share for src, share in wanted.items())
    total = int(min(possible, cap) if cap is not None else possible + 1e-9)
    chosen: list[dict] = []
    for src, n in _allocate(wanted, total).items():
        chosen.extend(_spread(by_source[src], min(n, len(by_source[src])), rng))
    order = {id(s): i for i, s in enumerate(samples)}
    return sorted(chosen, key=lambda s: order[id(s)])


def balance_labels(samples: list[dict], cap: int | None, rng: random.Random) -> list[dict]:
    """As many consistent as hallucinated rows in each language of one tier.

    The smaller label is kept whole (in practice every human and consistent arbitration
    sample) and the larger is drawn to the same count with the book and type spread of
    ``_spread``; ``cap`` splits evenly over languages and labels. Order is kept."""
    by_language: dict[str, dict[str, list[dict]]] = {}
    for s in samples:
        by_language.setdefault(s["language"], {"consistent": [], "hallucinated": []})
        by_language[s["language"]][s["label"]].append(s)
    per_cell = cap // (2 * len(by_language)) if cap is not None and by_language else None
    chosen: list[dict] = []
    for language in sorted(by_language):
        cells = by_language[language]
        n = min(len(cells["consistent"]), len(cells["hallucinated"]))
        if n == 0:  # one label only: keep what there is rather than empty the language
            n = max(len(cells["consistent"]), len(cells["hallucinated"]))
        if per_cell is not None:
            n = min(n, max(1, per_cell))
        for label in ("consistent", "hallucinated"):
            rows = cells[label]
            chosen.extend(rows if len(rows) <= n else _spread(rows, n, rng))
    order = {id(s): i for i, s in enumerate(samples)}
    return sorted(chosen, key=lambda s: order[id(s)])


def _allocate(shares: dict[str, float], total: int) -> dict[str, int]:
    """Split ``total`` by ``shares`` (summing to 1) with the largest-remainder method."""
    exact = {src: share * total for src, share in shares.items()}
    counts = {src: int(value) for src, value in exact.items()}
    left = total - sum(counts.values())
    by_remainder = sorted(exact, key=lambda src: (counts[src] - exact[src], src))
    for src in by_remainder[:left]:
        counts[src] += 1
    return counts


def _spread(rows: list[dict], n: int, rng: random.Random) -> list[dict]:
    """``n`` rows drawn so (book, types) groups, books and types each stay within one of
    each other: every pick takes the group, then book, then types picked least so far
    (ties broken by a seeded order)."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        key = (row["book_id"], tuple(row["hallucination_types"]))
        groups.setdefault(key, []).append(row)
    keys = sorted(groups)
    rng.shuffle(keys)
    queues = {key: rng.sample(groups[key], len(groups[key])) for key in keys}
    used: dict = {}
    picked: list[dict] = []
    while len(picked) < n:
        open_keys = [k for k in keys if queues[k]]
        if not open_keys:
            break
        key = min(open_keys, key=lambda k: (used.get(k, 0), used.get(k[0], 0),
                                            used.get(k[1], 0)))
        picked.append(queues[key].pop())
        for counter in (key, key[0], key[1]):
            used[counter] = used.get(counter, 0) + 1
    return picked


def sample_of(window: dict, **fields) -> dict:
    """``make_sample`` for ``window``, remembering the window's id (not a release column)."""
    return {**make_sample(window, **fields), "_window": window["window_id"]}


def human_samples(windows: dict[str, dict]) -> list[dict]:
    """The human sample of every window (its reference summary, score 5)."""
    return [sample_of(w, source="human", generator="human", summary=w["reference_summary"],
                      score=5, types=[], reason=HUMAN_REASON[w["language"]])
            for w in windows.values()]


def rows_by_file(rows: list[dict]) -> dict[str, list[dict]]:
    """Release rows grouped by file, ``<tier>/<split>.parquet``, in row order."""
    grouped: dict[str, list[dict]] = {}
    for row in rows:
        grouped.setdefault(f"{row['tier']}/{row['split']}.parquet", []).append(row)
    return dict(sorted(grouped.items()))
