"""Language-model reader: can a small causal LM, reading one summary, point at the edited
sentence?

    python bench/lm_reader.py RUN_DIR [RUN_DIR...] --model MODEL.gguf \
        [--per-type 20] [--tier T]... [--type T]... [--context 30] [--seed 13] [--json OUT]

The model runs in this process (llama.cpp through llama-cpp-python's ``Llama``, built with
``logits_all``): each summary's tokens are evaluated once and the log-probability of every token
given the tokens before it comes from a log-softmax of the logits in numpy. Two texts that
begin alike (an original and its injected copy) share the evaluated prefix: only the tokens
after the first difference are evaluated again. Tokens are mapped back to characters through
their UTF-8 pieces and onto the sentences (``longnovel.injection.nlp.sentences.sentence_spans``).
A sentence's score is the mean log-prob of its tokens given the summary text before it; the
least likely sentence has rank 1.

The first token of a text needs a token before it: the model's BOS token when its GGUF asks for
one (Gemma), else ``<|endoftext|>`` (Qwen2.5 reads near-uniform log-probs without it), or
``--prefix``.

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
(ties half; 0.5 = the model cannot point at the edit), the mean normalised rank (0 = least
likely, 1 = most likely) of both, the share where it is the single least likely sentence
(edited vs original), and the mean log-prob difference (edited - original, nats per token) with
95% bootstrap intervals.
"""

from __future__ import annotations

import argparse
import bisect
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(1, str(BENCH.parent / "src"))  # the checkout this script belongs to

from reader_pairs import load_run_pairs  # noqa: E402

BOOTSTRAP = 2000
QWEN_PREFIX = "<|endoftext|>"


class Scorer:
    """Token log-probs of texts from a GGUF model evaluated in process, cached by text."""

    def __init__(self, model_path: Path, n_ctx: int = 2048, threads: int = 2,
                 prefix: str | None = None):
        try:
            from llama_cpp import Llama
        except ImportError:
            sys.exit("lm_reader.py: llama_cpp is not installed in this Python "
                     "(see bench/README.md, 'Language-model reader')")
        if not Path(model_path).is_file():
            sys.exit(f"{model_path}: no such model file")
        self.llm = Llama(model_path=str(model_path), n_ctx=n_ctx, n_batch=512,
                         n_threads=threads, logits_all=True, verbose=False)
        self.n_ctx = n_ctx
        meta = self.llm.metadata
        self.name = meta.get("general.name", Path(model_path).stem)
        add_bos = meta.get("tokenizer.ggml.add_bos_token", "false") == "true"
        if prefix is None:
            prefix = "" if add_bos else QWEN_PREFIX
        self.prefix = prefix
        self.head = ([self.llm.token_bos()] if add_bos and not prefix else []) + (
            self.llm.tokenize(prefix.encode("utf-8"), add_bos=False, special=True)
            if prefix else [])
        if not self.head:
            sys.exit(f"{model_path}: the model adds no BOS token; give --prefix")
        self.cache: dict[str, tuple[list[int], list[float]]] = {}
        self.evaluated: list[int] = []
        self.requests = self.tokens = self.evaluated_tokens = 0
        self.seconds = 0.0

    def token_logprobs(self, text: str) -> tuple[list[int], list[float]]:
        """(character offset, log-prob given everything before it) of every token of ``text``."""
        if text in self.cache:
            return self.cache[text]
        started = time.perf_counter()
        body = self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)
        ids = self.head + body
        if len(ids) > self.n_ctx:
            sys.exit(f"a summary of {len(ids)} tokens is longer than --n-ctx {self.n_ctx}")
        keep = 0  # tokens already evaluated at the same positions (the KV cache holds them)
        for a, b in zip(self.evaluated, ids, strict=False):
            if a != b:
                break
            keep += 1
        keep = min(keep, len(ids) - 1)
        self.llm.n_tokens = keep
        self.llm.eval(ids[keep:])
        self.evaluated = list(ids)
        self.evaluated_tokens += len(ids) - keep
        # the logits of the positions before each token of ``body`` (a view, float32)
        logits = self.llm.scores[len(self.head) - 1 : len(ids) - 1]
        top = logits.max(axis=1)
        norm = np.log(np.exp(logits - top[:, None]).sum(axis=1, dtype=np.float64)) + top
        values = (logits[np.arange(len(body)), body] - norm).tolist()
        offsets = _char_offsets(text, [self.llm.detokenize([t]) for t in body])
        self.seconds += time.perf_counter() - started
        self.requests += 1
        self.tokens += len(body)
        self.cache[text] = (offsets, values)
        return offsets, values


def _char_offsets(text: str, pieces: list[bytes]) -> list[int]:
    """The character offset in ``text`` where each token piece starts. Pieces are byte strings
    (a CJK character can be split over two tokens: both get the character's offset); when the
    pieces do not spell ``text`` exactly (a tokenizer that adds a space), they are matched
    greedily from where the previous one ended."""
    data = text.encode("utf-8")
    char_of_byte = np.zeros(len(data) + 1, dtype=np.int64)
    position = 0
    for index, char in enumerate(text):
        width = len(char.encode("utf-8"))
        char_of_byte[position : position + width] = index
        position += width
    char_of_byte[len(data)] = len(text)
    offsets, at = [], 0
    exact = b"".join(pieces) == data
    for piece in pieces:
        if not exact:
            found = data.find(piece.strip(), at) if piece.strip() else -1
            at = found if found >= 0 else at
        offsets.append(int(char_of_byte[min(at, len(data))]))
        at += len(piece) if exact else len(piece.strip())
    return offsets


def sentence_scores(scorer: Scorer, text: str, spans: list[tuple[int, int]]):
    """Mean token log-prob of each sentence span of ``text`` given what precedes it (nan when
    no token with a log-prob starts inside it)."""
    offsets, values = scorer.token_logprobs(text)
    sums, counts = [0.0] * len(spans), [0] * len(spans)
    starts = [a for a, _ in spans]
    for offset, value in zip(offsets, values, strict=True):
        k = bisect.bisect_right(starts, offset) - 1
        if k >= 0 and offset < spans[k][1]:
            sums[k] += value
            counts[k] += 1
        elif k >= 0 and k + 1 < len(spans) and offset < spans[k + 1][0]:
            continue  # whitespace between sentences
    return [s / c if c else float("nan") for s, c in zip(sums, counts, strict=True)], sums, counts


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dirs", nargs="+", type=Path)
    parser.add_argument("--model", type=Path, required=True, help="a GGUF model file")
    parser.add_argument("--tier", action="append", dest="tiers")
    parser.add_argument("--per-type", type=int, default=20)
    parser.add_argument("--type", action="append", dest="types",
                        help="read only pairs of this type (repeatable; default: every type)")
    parser.add_argument("--context", type=int, default=30, help="sentences read around the edit")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--prefix", default=None,
                        help="text (special tokens allowed) put before each summary; default: "
                             "the model's BOS token, or '<|endoftext|>' for a model whose GGUF "
                             "adds none (Qwen2.5)")
    parser.add_argument("--n-ctx", type=int, default=2048,
                        help="context size; logits_all keeps n_ctx x vocabulary floats")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    for run_dir in args.run_dirs:
        if not (run_dir / "inject" / "injections.parquet").is_file():
            sys.exit(f"{run_dir}: no inject/injections.parquet (build it up to inject first)")
    pairs = [p for p in load_run_pairs(args.run_dirs, args.tiers)
             if not args.types or p["type"] in args.types]
    pairs = sample_pairs(pairs, args.per_type, args.seed)
    if not pairs:
        sys.exit(f"{', '.join(map(str, args.run_dirs))}: no valid pair with 3 sentences or more")
    loaded = time.perf_counter()
    scorer = Scorer(args.model, args.n_ctx, args.threads, args.prefix)
    print(f"{scorer.name}: loaded in {time.perf_counter() - loaded:.1f} s; "
          f"{len(pairs)} pairs to read", file=sys.stderr)
    started = time.perf_counter()
    results = []
    for done, pair in enumerate(pairs, 1):
        results.append((pair, read_pair(scorer, pair, args.context)))
        if done % 10 == 0 or done == len(pairs):
            spent = time.perf_counter() - started
            print(f"{done}/{len(pairs)} pairs in {spent:.0f} s "
                  f"(~{spent / done * (len(pairs) - done):.0f} s left), "
                  f"{scorer.evaluated_tokens / max(scorer.seconds, 1e-9):.0f} tokens/s evaluated",
                  file=sys.stderr, flush=True)
    summary = summarise(results)
    elapsed = time.perf_counter() - started
    print(f"{len(pairs)} pairs ({args.per_type} per type at most, seed {args.seed}), "
          f"{scorer.requests} texts, {scorer.tokens} tokens scored ({scorer.evaluated_tokens} "
          f"evaluated) in {elapsed:.0f} s ({elapsed / len(pairs):.1f} s per pair); "
          f"context {args.context} sentences\n")
    print(markdown(summary, scorer.name))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        rows = [{"window_id": p["window_id"], "type": p["type"], "subtype": p["subtype"],
                 "language": p["language"], **{f"{side}_{k}": v for side in ("new", "old")
                                               for k, v in r[side].items()},
                 "edited": " ".join(p["new_sents"][i] for i in p["new_idx"])[:300]}
                for p, r in results]
        args.json.write_text(json.dumps(
            {"model": scorer.name, "model_file": str(args.model), "prefix": scorer.prefix,
             "pairs": len(pairs), "per_type": args.per_type, "seed": args.seed,
             "context": args.context, "texts": scorer.requests, "tokens": scorer.tokens,
             "seconds": round(elapsed, 1), "summary": summary, "rows": rows},
            indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
