"""Benchmark: ingest + expand over a large corpus, against one bare tokenizer pass.

Builds a corpus of at least 3M Qwen3 tokens (default) in a temporary folder by varying the
bundled sample: books of 100k-800k tokens in both languages, paragraphs reshuffled, names and
numbers changed per copy, and some units merged or split so they fall outside 2k-6k tokens.
Then, in the same process and alternating to share the machine's noise:

  baseline  read every unit file and batch-encode the texts with the same tokenizer
  longnovel ingest + expand (all four tiers), including Parquet writes

and prints the ratio of the best times. It also checks every window's n_tokens against a
direct count of its article.

    python bench/expand.py [--tokens 3000000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "data" / "raw" / "sample"


def sample_units(language: str) -> list[tuple[str, str]]:
    units = []
    for book in sorted((SAMPLE / language).iterdir()):
        for text in sorted(book.glob("[0-9]*.txt")):
            if text.name.endswith(".summary.txt"):
                continue
            summary = text.with_name(text.stem + ".summary.txt")
            if not summary.is_file():
                continue
            units.append((text.read_text(encoding="utf-8"), summary.read_text(encoding="utf-8")))
    return units


def vary(text: str, rng: random.Random, copy: int) -> str:
    """Reshuffle paragraphs and change digits so every copy tokenizes differently."""
    paragraphs = text.split("\n\n")
    rng.shuffle(paragraphs)
    table = str.maketrans("0123456789", "".join(rng.sample("0123456789", 10)))
    return f"({copy})\n\n" + "\n\n".join(p.translate(table) for p in paragraphs)


def make_book(folder: Path, units: list[tuple[str, str]], n_units: int, rng: random.Random,
              copy: int) -> None:
    folder.mkdir(parents=True)
    number = 1
    while number <= n_units:
        text, summary = rng.choice(units)
        text = vary(text, rng, copy)
        roll = rng.random()
        if roll < 0.02:  # a long chapter, outside the unit range
            text = text + "\n\n" + vary(rng.choice(units)[0], rng, copy)
            text = text + "\n\n" + vary(rng.choice(units)[0], rng, copy)
        elif roll < 0.04:  # a short chapter
            text = text[: len(text) // 3]
        (folder / f"{number:04d}.txt").write_text(text, encoding="utf-8")
        (folder / f"{number:04d}.summary.txt").write_text(summary, encoding="utf-8")
        number += 1


def make_corpus(root: Path, target_tokens: int, seed: int = 1) -> None:
    """Books of varied sizes in both languages until about ``target_tokens`` tokens."""
    rng = random.Random(seed)
    per_unit = 3000
    made, copy = 0, 0
    while made < target_tokens:
        for language in ("zh", "en"):
            n_units = rng.randint(35, 260)  # about 100k-800k tokens
            make_book(root / language / f"book{copy:03d}", sample_units(language), n_units, rng,
                      copy)
            made += n_units * per_unit
            copy += 1


def files_of(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.txt") if not p.name.endswith(".summary.txt"))


def bare_pass(root: Path, tokenizer) -> int:
    texts = [p.read_text(encoding="utf-8") for p in files_of(root)]
    return sum(tokenizer.count_batch(texts))


def longnovel_pass(root: Path, run_dir: Path):
    from longnovel.config import Config
    from longnovel.pipeline import Pipeline

    config = Config.model_validate({
        "run_dir": str(run_dir), "corpus": [
            {"path": str(root / "zh"), "format": "dir", "language": "zh"},
            {"path": str(root / "en"), "format": "dir", "language": "en"}]})
    pipeline = Pipeline(config, progress=False)
    pipeline.run_stage("ingest", log=lambda m: None)
    pipeline.run_stage("expand", log=lambda m: None)
    return pipeline


def check_windows(run_dir: Path, tokenizer) -> tuple[int, dict]:
    import pyarrow.parquet as pq

    windows = pq.read_table(run_dir / "expand" / "windows.parquet").to_pylist()
    direct = tokenizer.count_batch([w["article"] for w in windows])
    for w, n in zip(windows, direct):
        low, high = w["target_tokens"] - 2000, w["target_tokens"] + 4000
        assert w["n_tokens"] == n and low <= n <= high, w["window_id"]
    per_tier: dict[str, int] = {}
    for w in windows:
        per_tier[w["tier"]] = per_tier.get(w["tier"], 0) + 1
    return len(windows), per_tier


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=3_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    from longnovel.tokenizer import load_tokenizer

    tokenizer = load_tokenizer("qwen3")
    work = Path(tempfile.mkdtemp(prefix="longnovel-bench-"))
    try:
        make_corpus(work / "corpus", args.tokens)
        n_tokens = bare_pass(work / "corpus", tokenizer)  # warm-up, and the real size
        base, ours = [], []
        for i in range(args.repeats):
            start = time.perf_counter()
            bare_pass(work / "corpus", tokenizer)
            base.append(time.perf_counter() - start)
            start = time.perf_counter()
            longnovel_pass(work / "corpus", work / f"run{i}")
            ours.append(time.perf_counter() - start)
        n_windows, per_tier = check_windows(work / "run0", tokenizer)
        print(f"corpus: {len(files_of(work / 'corpus'))} unit files, {n_tokens:,} tokens")
        print(f"windows: {n_windows} {per_tier}, every n_tokens exact and in range")
        print(f"bare read+encode: best {min(base):.2f}s  runs {[round(t, 2) for t in base]}")
        print(f"ingest+expand:    best {min(ours):.2f}s  runs {[round(t, 2) for t in ours]}")
        print(f"ratio: {min(ours) / min(base):.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
