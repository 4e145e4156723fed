"""Prefill tokens of an evaluate run under a small prefix cache: grouped by article vs alternating.

Builds every request `longnovel evaluate` sends over a dataset (default: the exported test split
of configs/fixture.yaml, built in a temporary run directory; or any release-format file with
``--data``), renders each with the Qwen3 chat template (thinking off) and tokenizes it with the
Qwen3 tokenizer. The server is modelled on llama.cpp's: ``--slots`` slots, each keeping the
KV cache of its last prompt; a request goes to the slot whose prompt it shares at least half of
(``--slot-prompt-similarity`` 0.5), else to an empty or the least recently used slot, and
prefills the tokens after the prefix it shares with that slot's prompt, in whole blocks of
``--block`` tokens (1: token-level reuse, as llama.cpp).

Three orders of the same requests, measured in the same run:

- grouped (longnovel): every sample of one window together, article before summary;
- file order: the rows as the dataset lists them (what evaluate sent before; the export
  alternates windows);
- round-robin: one sample of each window in turn, the worst case.

    python bench/evaluate_prefix.py [--config configs/fixture.yaml | --data FILE] [--slots 1 4]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
from prefix import common_prefix, render_qwen3

ROOT = Path(__file__).resolve().parents[1]
SIMILARITY = 0.5  # llama.cpp server's default --slot-prompt-similarity


def load_rows(config_path: Path, data: Path | None) -> list[dict]:
    """The dataset's normalized rows: ``data``, or the config's exported test split."""
    from longnovel.config import load_config
    from longnovel.evaluation.datasets import load_dataset
    from longnovel.pipeline import Pipeline
    from longnovel.tokenizer import load_tokenizer

    config = load_config(config_path)
    tokenizer = load_tokenizer(config.tokenizer)
    if data is not None:
        return load_dataset(config, Path("."), data, "test", None, tokenizer).rows
    with tempfile.TemporaryDirectory() as tmp:
        config.run_dir = tmp
        config.cache = str(Path(tmp) / "cache.sqlite")
        Pipeline(config, progress=False).build(log=lambda _: None)
        return load_dataset(config, Path(tmp), None, "test", None, tokenizer).rows


def round_robin(rows: list[dict]) -> list[int]:
    """One sample of each window in turn."""
    windows: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        windows.setdefault(row["window"], []).append(i)
    order, depth = [], max(len(v) for v in windows.values())
    for k in range(depth):
        order += [members[k] for members in windows.values() if k < len(members)]
    return order


def orders(rows: list[dict]) -> dict[str, list[int]]:
    from longnovel.evaluation.requests import by_article

    return {"grouped": by_article(rows), "file order": list(range(len(rows))),
            "round-robin": round_robin(rows)}


def choose_slot(seq: np.ndarray, slots: list[np.ndarray | None], used: list[int]) -> int:
    """llama.cpp's choice: the slot whose prompt shares the largest part of itself with
    ``seq`` when that part reaches SIMILARITY, else an empty or the least recently used slot."""
    shares = [common_prefix(seq, s) / len(s) if s is not None else -1.0 for s in slots]
    best = int(np.argmax(shares))
    if shares[best] >= SIMILARITY:
        return best
    empty = [k for k, s in enumerate(slots) if s is None]
    return empty[0] if empty else min(range(len(slots)), key=used.__getitem__)


def prefill(sequences: list[np.ndarray], slots: int, block: int) -> int:
    """Tokens computed by a server whose ``slots`` slots each keep their last prompt: a request
    reuses the prefix it shares with its slot's prompt, in whole blocks."""
    held: list[np.ndarray | None] = [None] * slots
    used = [0] * slots
    computed = 0
    for n, seq in enumerate(sequences, 1):
        k = choose_slot(seq, held, used)
        reused = common_prefix(seq, held[k]) // block * block if held[k] is not None else 0
        computed += len(seq) - min(reused, len(seq) - 1)  # the last token is always computed
        held[k], used[k] = seq, n
    return computed


def measure(rows: list[dict], slots: list[int], block: int) -> list[dict]:
    from longnovel.evaluation.requests import messages_for
    from longnovel.tokenizer import load_tokenizer

    backend = load_tokenizer("qwen3").backend
    texts = [render_qwen3(messages_for(row, "plain", "article-first", 0, False)) for row in rows]
    encoded = backend.encode_batch_fast(texts, add_special_tokens=False)
    sequences = [np.asarray(e.ids, dtype=np.int64) for e in encoded]
    result = []
    for name, order in orders(rows).items():
        ordered = [sequences[i] for i in order]
        result.append({"order": name, "prompt_tokens": sum(len(s) for s in ordered),
                       **{f"slots={k}": prefill(ordered, k, block) for k in slots}})
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=ROOT / "configs/fixture.yaml")
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--slots", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--block", type=int, default=1)
    args = parser.parse_args()
    rows = load_rows(args.config, args.data)
    table = measure(rows, args.slots, args.block)
    windows = len({r["window"] for r in rows})
    print(f"{len(rows)} samples of {windows} windows ({args.data or args.config}), "
          f"block {args.block} token(s)")
    keys = [f"slots={k}" for k in args.slots]
    print(f"{'order':<13}{'prompt tok':>11}" + "".join(f"{k:>11}{'ratio':>7}" for k in keys))
    grouped = table[0]
    for row in table:
        cells = "".join(f"{row[k]:>11}{row[k] / grouped[k]:>6.2f}x" for k in keys)
        print(f"{row['order']:<13}{row['prompt_tokens']:>11}{cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
