"""Language-model reader: can a small causal LM, reading one summary, point at the edited
sentence?

    python bench/lm_reader.py RUN_DIR [RUN_DIR...] --url http://127.0.0.1:8081/v1 \
        [--per-type 25] [--tier T]... [--context 30] [--seed 13] [--json OUT]

Each summary is sent once to an OpenAI-compatible ``/v1/completions`` endpoint (llama.cpp via
llama-cpp-python's server, started with ``--logits_all true``) with ``echo``, ``logprobs`` and no
new token; the prompt tokens' log-probabilities are mapped by their character offsets onto the
sentences (``longnovel.injection.nlp.sentences.sentence_spans``). A sentence's score is the mean log-prob
of its tokens given the summary text before it; the least likely sentence has rank 1.

For each pair: the rank of the edited sentence among the injected summary's sentences, and the
rank of the original sentence among the original summary's. Several edited sentences (a
temporal swap) count as their most suspicious one on each side, and their log-prob as the mean
over all their tokens. An inserted sentence (``fabrication``) is compared with the original's
sentence at the same position (the one it now precedes; the last sentence when it was added at
the end).

Long summaries: only ``--context`` sentences around the edit are read (the same sentence range
of both texts, from at most half of it before the edit), so both sides get the same preceding
text. Pairs are sampled per type (seeded), ``--per-type`` each (all when fewer).

Per type: the share of pairs whose edited sentence ranks more suspicious than the original did
(ties half), the mean normalised rank (0 = least likely, 1 = most likely) of both, the share
where it is the single least likely sentence (edited vs original), and the mean log-prob
difference (edited - original) with a 95% bootstrap interval.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.request
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reader_pairs import load_run_pairs

BOOTSTRAP = 2000


class Scorer:
    """Token log-probs of texts from an OpenAI-compatible completions endpoint, cached."""

    def __init__(self, url: str, model: str | None, prefix: str = "", timeout: float = 600.0):
        self.url, self.model, self.timeout = url.rstrip("/"), model, timeout
        self.prefix = prefix
        self.cache: dict[str, tuple[list[int], list[float]]] = {}
        self.requests = self.tokens = 0
        self.seconds = 0.0

    def token_logprobs(self, text: str) -> tuple[list[int], list[float | None]]:
        """(character offset, log-prob) of every token of ``text`` (None for the first)."""
        if text in self.cache:
            return self.cache[text]
        body = {"prompt": self.prefix + text, "max_tokens": 1, "echo": True, "logprobs": 1,
                "temperature": 0.0}
        if self.model:
            body["model"] = self.model
        request = urllib.request.Request(f"{self.url}/completions",
                                         data=json.dumps(body).encode("utf-8"),
                                         headers={"Content-Type": "application/json"})
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=self.timeout) as response:
            reply = json.loads(response.read())
        self.seconds += time.perf_counter() - started
        logprobs = reply["choices"][0]["logprobs"]
        offsets, values = _prompt_part(logprobs, text, self.prefix)
        self.requests += 1
        self.tokens += len(offsets)
        self.cache[text] = (offsets, values)
        return offsets, values


def _prompt_part(logprobs: dict, text: str, prefix: str = ""
                 ) -> tuple[list[int], list[float | None]]:
    """The echoed prompt's tokens in ``text``'s characters (the one generated token and the
    prefix's tokens dropped). llama-cpp-python counts offsets in the detokenised text, where a
    special-token prefix has no characters; an ordinary prefix is subtracted."""
    shift = _prefix_shift(logprobs, text, prefix)
    offsets, values = [], []
    for offset, token, value in zip(logprobs["text_offset"], logprobs["tokens"],
                                    logprobs["token_logprobs"]):
        offset = int(offset) - shift
        if offset < 0 or not token:
            continue
        if offset >= len(text):
            break
        offsets.append(offset)
        values.append(value)
    return offsets, values


def _prefix_shift(logprobs: dict, text: str, prefix: str) -> int:
    """0 or len(prefix): whichever makes more tokens match ``text`` at their offsets."""
    def matches(shift: int) -> int:
        return sum(1 for o, t in zip(logprobs["text_offset"], logprobs["tokens"])
                   if t and 0 <= o - shift and text[o - shift : o - shift + len(t)] == t)

    return len(prefix) if prefix and matches(len(prefix)) > matches(0) else 0


def sentence_scores(scorer: Scorer, text: str, spans: list[tuple[int, int]]):
    """Mean token log-prob of each sentence span of ``text`` given what precedes it (nan when
    no token with a log-prob starts inside it)."""
    offsets, values = scorer.token_logprobs(text)
    sums, counts = [0.0] * len(spans), [0] * len(spans)
    starts = [a for a, _ in spans]
    import bisect

    for offset, value in zip(offsets, values):
        if value is None:
            continue
        k = bisect.bisect_right(starts, offset) - 1
        if k >= 0 and offset < spans[k][1]:
            sums[k] += value
            counts[k] += 1
        elif k >= 0 and k + 1 < len(spans) and offset < spans[k + 1][0]:
            continue  # whitespace between sentences
    return [s / c if c else float("nan") for s, c in zip(sums, counts)], sums, counts


def _context(sentences_spans, edited: list[int], size: int) -> tuple[int, int]:
    """The sentence range read: at most ``size`` sentences, the edit at most halfway in."""
    n = len(sentences_spans)
    lo = max(0, min(edited) - size // 2)
    hi = min(n, lo + size)
    lo = max(0, min(lo, hi - size))
    return lo, hi


def read_side(scorer, summary: str, language: str, edited: list[int], lo: int, hi: int):
    """Scores of the sentences lo..hi of ``summary``: (rank of the most suspicious edited one,
    sentences read, its normalised rank, mean log-prob of the edited tokens, whether it is the
    single least likely)."""
    from longnovel.injection.nlp.sentences import sentence_spans

    spans = sentence_spans(summary, language)[lo:hi]
    begin = spans[0][0]
    text = summary[begin : spans[-1][1]]
    local = [(a - begin, b - begin) for a, b in spans]
    means, sums, counts = sentence_scores(scorer, text, local)
    scores = np.array([m if not np.isnan(m) else np.inf for m in means])
    order = np.argsort(scores, kind="stable")
    rank_of = np.empty(len(order), dtype=int)
    rank_of[order] = np.arange(1, len(order) + 1)
    mine = [i - lo for i in edited if lo <= i < hi]
    rank = int(min(rank_of[i] for i in mine))
    n = len(spans)
    tokens = sum(counts[i] for i in mine)
    logprob = sum(sums[i] for i in mine) / tokens if tokens else float("nan")
    return {"rank": rank, "n": n, "norm_rank": (rank - 1) / (n - 1) if n > 1 else 0.5,
            "logprob": logprob, "least": rank == 1}


def read_pair(scorer: Scorer, pair: dict, size: int) -> dict:
    """Both sides of a pair, over the same sentence range."""
    from longnovel.injection.nlp.sentences import sentence_spans

    language = pair["language"]
    new_edited = pair["new_idx"]
    orig_edited = pair["orig_idx"] or [pair["same_pos_idx"]]
    n_new = len(sentence_spans(pair["summary"], language))
    n_orig = len(sentence_spans(pair["original_summary"], language))
    lo, hi = _context(range(n_new), new_edited, size)
    orig_hi = min(n_orig, hi - (n_new - n_orig)) if pair["insertion"] else min(n_orig, hi)
    new = read_side(scorer, pair["summary"], language, new_edited, lo, hi)
    old = read_side(scorer, pair["original_summary"], language, orig_edited, lo,
                    max(orig_hi, max(orig_edited) + 1))
    return {"new": new, "old": old}


def sample_pairs(pairs: list[dict], per_type: int, seed: int) -> list[dict]:
    """Up to ``per_type`` pairs of each type, drawn with ``seed``; pairs whose summary has
    fewer than 3 sentences are left out (a rank among two says little)."""
    by_type: dict[str, list[dict]] = defaultdict(list)
    for pair in pairs:
        if len(pair["orig_sents"]) >= 3:
            by_type[pair["type"]].append(pair)
    rng = random.Random(seed)
    chosen = []
    for type_id in sorted(by_type):
        group = sorted(by_type[type_id], key=lambda p: (p["window_id"], p["subtype"]))
        chosen += rng.sample(group, min(per_type, len(group)))
    return chosen


def _interval(values: np.ndarray, rng) -> tuple[float, float]:
    means = rng.choice(values, size=(BOOTSTRAP, len(values))).mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return round(float(lo), 3), round(float(hi), 3)


def summarise(results: list[tuple[dict, dict]]) -> dict:
    """Per type and in all: the figures of the module's docstring."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for pair, read in results:
        groups[pair["type"]].append(read)
        groups[f"{pair['type']}/{pair['subtype']}"].append(read)
        groups[f"all ({pair['language']})"].append(read)
        groups["all"].append(read)
    rng = np.random.default_rng(13)
    out = {}
    for name, reads in groups.items():
        more = np.array([1.0 if r["new"]["norm_rank"] < r["old"]["norm_rank"] else
                         0.5 if r["new"]["norm_rank"] == r["old"]["norm_rank"] else 0.0
                         for r in reads])
        diff = np.array([r["new"]["logprob"] - r["old"]["logprob"] for r in reads])
        diff = diff[~np.isnan(diff)]
        out[name] = {
            "n": len(reads),
            "more_suspicious": round(float(more.mean()), 3),
            "more_suspicious_ci": _interval(more, rng),
            "norm_rank_edited": round(float(np.mean([r["new"]["norm_rank"] for r in reads])), 3),
            "norm_rank_original": round(float(np.mean([r["old"]["norm_rank"] for r in reads])),
                                        3),
            "least_edited": round(float(np.mean([r["new"]["least"] for r in reads])), 3),
            "least_original": round(float(np.mean([r["old"]["least"] for r in reads])), 3),
            "logprob_diff": round(float(diff.mean()), 3) if len(diff) else None,
            "logprob_diff_ci": _interval(diff, rng) if len(diff) else None,
            "sentences_mean": round(float(np.mean([r["new"]["n"] for r in reads])), 1)}
    return out


def markdown(summary: dict, model: str) -> str:
    lines = [(f"| type ({model}) | n | edited more suspicious | norm. rank edited / original "
              "| least likely edited / original | log-prob edited − original |"),
             "|---|---:|---|---|---|---|"]
    types = sorted(k for k in summary if not k.startswith("all"))
    for name in types + sorted(k for k in summary if k.startswith("all (")) + ["all"]:
        c = summary[name]
        label = f"&nbsp;&nbsp;{name.split('/', 1)[1]}" if "/" in name else name
        ci = c["more_suspicious_ci"]
        diff = "-" if c["logprob_diff"] is None else (
            f"{c['logprob_diff']:+.2f} ({c['logprob_diff_ci'][0]:+.2f} to "
            f"{c['logprob_diff_ci'][1]:+.2f})")
        lines.append(f"| {label} | {c['n']} | {c['more_suspicious']:.2f} ({ci[0]:.2f}-"
                     f"{ci[1]:.2f}) | {c['norm_rank_edited']:.2f} / {c['norm_rank_original']:.2f}"
                     f" | {c['least_edited']:.2f} / {c['least_original']:.2f} | {diff} |")
    return "\n".join(lines)


def _model_name(url: str) -> str:
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/models", timeout=30) as response:
            data = json.loads(response.read())["data"]
        return data[0]["id"] if data else "?"
    except OSError as exc:
        sys.exit(f"{url}: no model server answers ({exc})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dirs", nargs="+", type=Path)
    parser.add_argument("--url", default="http://127.0.0.1:8081/v1")
    parser.add_argument("--model", help="model name sent in requests (default: the server's)")
    parser.add_argument("--tier", action="append", dest="tiers")
    parser.add_argument("--per-type", type=int, default=25)
    parser.add_argument("--context", type=int, default=30, help="sentences read around the edit")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--prefix", default="",
                        help="text put before each summary, e.g. '<|endoftext|>' for a model "
                             "the server adds no BOS token to (Qwen2.5)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    model = args.model or _model_name(args.url)
    pairs = sample_pairs(load_run_pairs(args.run_dirs, args.tiers), args.per_type, args.seed)
    scorer = Scorer(args.url, args.model, args.prefix)
    started = time.perf_counter()
    results = []
    for done, pair in enumerate(pairs, 1):
        results.append((pair, read_pair(scorer, pair, args.context)))
        if done % 20 == 0:
            print(f"{done}/{len(pairs)} pairs, {scorer.tokens / max(scorer.seconds, 1e-9):.0f} "
                  "prompt tokens/s", file=sys.stderr)
    summary = summarise(results)
    elapsed = time.perf_counter() - started
    print(f"{len(pairs)} pairs ({args.per_type} per type at most, seed {args.seed}), "
          f"{scorer.requests} requests, {scorer.tokens} prompt tokens in {elapsed:.0f} s "
          f"({scorer.tokens / max(scorer.seconds, 1e-9):.0f} tokens/s, "
          f"{elapsed / max(1, len(pairs)):.1f} s per pair); context {args.context} sentences\n")
    print(markdown(summary, model))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        rows = [{"window_id": p["window_id"], "type": p["type"], "subtype": p["subtype"],
                 "language": p["language"], **{f"{side}_{k}": v for side in ("new", "old")
                                               for k, v in r[side].items()},
                 "edited": " ".join(p["new_sents"][i] for i in p["new_idx"])[:300]}
                for p, r in results]
        args.json.write_text(json.dumps(
            {"model": model, "pairs": len(pairs), "per_type": args.per_type, "seed": args.seed,
             "context": args.context, "requests": scorer.requests, "tokens": scorer.tokens,
             "seconds": round(elapsed, 1), "summary": summary, "rows": rows},
            indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
