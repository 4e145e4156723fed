"""Samples of the release format (DESIGN.md section 12): building, ids, splits and sampling."""

from __future__ import annotations

import hashlib
import json
import random
from importlib import resources

HUMAN_REASON = {
    "en": "The summary is the human-written reference summary of this article.",
    "zh": "该摘要是本文的人工撰写参考摘要。",
}
SUMMARY_LINE = {"en": "Summary:", "zh": "摘要："}


def instruction(language: str) -> str:
    """The detection prompt (rubric and reply format) in ``language``."""
    folder = "zh" if language == "zh" else "en"
    return resources.files("longnovel").joinpath(f"prompts/{folder}/detect.txt").read_text(
        encoding="utf-8").strip()


def label_of(score: int) -> str:
    return "hallucinated" if score < 3 else "consistent"


def gold_output(score: int, types: list[str], reason: str) -> str:
    """The gold judgment as a JSON string; types are omitted when the score is 3 or more."""
    body: dict = {"score": int(score)}
    if score < 3:
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


def make_sample(window: dict, *, source: str, generator: str, summary: str, score: int,
                types: list[str], reason: str, subtype: str = "") -> dict:
    """One release row (without ``split``) for a window and a labelled summary."""
    language = window["language"]
    score = int(score)
    types = list(types) if score < 3 else []
    return {
        "id": sample_id(window, source, generator, "/".join(types) + subtype, summary),
        "language": language, "tier": window["tier"], "book_id": window["book_id"],
        "title": window["title"], "n_tokens": int(window["n_tokens"]),
        "article": window["article"], "summary": summary, "source": source,
        "generator": generator, "label": label_of(score), "score": score,
        "hallucination_types": types, "reason": reason, "subtype": subtype,
        "instruction": instruction(language),
        "input": detection_input(window["article"], summary, language),
        "output": gold_output(score, types, reason),
    }


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


def apply_mix(samples: list[dict], mix: dict[str, float] | None, cap: int | None,
              rng: random.Random) -> list[dict]:
    """Sample one tier's rows to the source shares of ``mix`` and at most ``cap`` rows.

    Within a source, rows are drawn round-robin over books (and injection types), so a cap
    keeps the spread.
    """
    if mix is None and cap is None:
        return samples
    by_source: dict[str, list[dict]] = {}
    for s in samples:
        by_source.setdefault(s["source"], []).append(s)
    shares = mix or {src: len(rows) / len(samples) for src, rows in by_source.items()}
    wanted = {src: share for src, share in shares.items() if share > 0}
    possible = min((len(by_source.get(src, [])) / share for src, share in wanted.items()),
                   default=0)
    total = min(possible, cap) if cap is not None else possible
    chosen: list[dict] = []
    for src, share in wanted.items():
        chosen.extend(_spread(by_source.get(src, []), int(round(share * total)), rng))
    order = {id(s): i for i, s in enumerate(samples)}
    return sorted(chosen, key=lambda s: order[id(s)])


def _spread(rows: list[dict], n: int, rng: random.Random) -> list[dict]:
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        key = (row["book_id"], tuple(row["hallucination_types"]))
        groups.setdefault(key, []).append(row)
    queues = [rng.sample(g, len(g)) for _, g in sorted(groups.items())]
    rng.shuffle(queues)
    picked: list[dict] = []
    while len(picked) < n and any(queues):
        for queue in queues:
            if queue and len(picked) < n:
                picked.append(queue.pop())
    return picked
