"""Benchmark: ingest + expand over a large corpus, against one bare tokenizer pass.

Builds a corpus of at least 3M Qwen3 tokens (default) in a temporary folder by varying the
bundled sample: books of 100k-800k tokens in both languages, paragraphs reshuffled, names and
numbers changed per copy, and some units merged or split so they fall outside 2k-6k tokens.
Most books are laid out as real novels are: one paragraph a line, each indented (two full-width
spaces U+3000 in Chinese, four ASCII spaces in English), so no line of them starts with a
non-space character; the others keep blank lines between unindented paragraphs.
Then, in the same process and alternating to share the machine's noise:

  baseline  read every unit file and batch-encode the texts with the same tokenizer
  longnovel ingest + expand (all four tiers), including Parquet writes

and prints the ratio of the best times. It also checks every window's n_tokens against a
direct count of its article.

    python bench/expand.py [--tokens 3000000] [--repeats 3]
    python bench/expand.py --config bench/out/corpora/dev/dev.yaml  # an existing corpus instead
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


INDENT = {"zh": "\u3000\u3000", "en": "    "}


def vary(text: str, rng: random.Random, copy: int, indent: str = "") -> str:
    """Reshuffle paragraphs and change digits so every copy tokenizes differently; with
    ``indent``, one indented paragraph a line."""
    paragraphs = [p.strip() for p in text.split("\n\n")]
    rng.shuffle(paragraphs)
    table = str.maketrans("0123456789", "".join(rng.sample("0123456789", 10)))
    varied = [p.translate(table) for p in paragraphs]
    if indent:
        return f"({copy})\n" + "\n".join(indent + p.replace("\n", " ") for p in varied)
    return f"({copy})\n\n" + "\n\n".join(varied)


def make_book(folder: Path, units: list[tuple[str, str]], n_units: int, rng: random.Random,
              copy: int, indent: str = "") -> None:
    folder.mkdir(parents=True)
    number = 1
    while number <= n_units:
        text, summary = rng.choice(units)
        text = vary(text, rng, copy, indent)
        roll = rng.random()
        if roll < 0.02:  # a long chapter, outside the unit range
            text = text + "\n\n" + vary(rng.choice(units)[0], rng, copy, indent)
            text = text + "\n\n" + vary(rng.choice(units)[0], rng, copy, indent)
        elif roll < 0.04:  # a short chapter
            text = text[: len(text) // 3]
        (folder / f"{number:04d}.txt").write_text(text, encoding="utf-8")
        (folder / f"{number:04d}.summary.txt").write_text(summary, encoding="utf-8")
        number += 1


def make_corpus(root: Path, target_tokens: int, seed: int = 1) -> None:
    """Books of varied sizes in both languages until about ``target_tokens`` tokens; three
    books in four have indented paragraphs."""
    rng = random.Random(seed)
    per_unit = 3000
    made, copy = 0, 0
    while made < target_tokens:
        for language in ("zh", "en"):
            n_units = rng.randint(35, 260)  # about 100k-800k tokens
            indent = INDENT[language] if rng.random() < 0.75 else ""
            make_book(root / language / f"book{copy:03d}", sample_units(language), n_units, rng,
                      copy, indent)
            made += n_units * per_unit
            copy += 1


def files_of(roots: list[Path]) -> list[Path]:
    return sorted(p for root in roots for p in Path(root).rglob("*.txt")
                  if not p.name.endswith(".summary.txt"))


def bare_pass(roots: list[Path], tokenizer) -> int:
    texts = [p.read_text(encoding="utf-8") for p in files_of(roots)]
    return sum(tokenizer.count_batch(texts))


def bench_config(root: Path | None, config_path: str | None, run_dir: Path):
    """The generated corpus with the default settings, or a config file's corpus and settings,
    with ``run_dir`` as its run directory."""
    from longnovel.config import Config, load_config

    if config_path:
        return load_config(config_path, run_dir=str(run_dir))
    return Config.model_validate({
        "run_dir": str(run_dir), "corpus": [
            {"path": str(root / "zh"), "format": "dir", "language": "zh"},
            {"path": str(root / "en"), "format": "dir", "language": "en"}]})


def longnovel_pass(config):
    from longnovel.pipeline import Pipeline

    pipeline = Pipeline(config, progress=False)
    pipeline.run_stage("ingest", log=lambda m: None)
    pipeline.run_stage("expand", log=lambda m: None)
    return pipeline


def check_windows(config, tokenizer) -> tuple[int, dict]:
    import pyarrow.parquet as pq

    windows = pq.read_table(Path(config.run_dir) / "expand" / "windows.parquet").to_pylist()
    direct = tokenizer.count_batch([w["article"] for w in windows])
    below, above = config.window.below, config.window.above
    for w, n in zip(windows, direct, strict=True):
        low, high = w["target_tokens"] - below, w["target_tokens"] + above
        assert w["n_tokens"] == n and low <= n <= high, w["window_id"]
    per_tier: dict[str, int] = {}
    for w in windows:
        per_tier[w["tier"]] = per_tier.get(w["tier"], 0) + 1
    return len(windows), per_tier


def alternate(configs, roots, tokenizer, measure):
    """A bare tokenizer pass and ``measure(config)`` in turn for each config (so both see the
    same machine load); returns (corpus tokens, bare times, measured results)."""
    n_tokens = bare_pass(roots, tokenizer)  # warm-up, and the real size
    base, ours = [], []
    for config in configs:
        start = time.perf_counter()
        bare_pass(roots, tokenizer)
        base.append(time.perf_counter() - start)
        ours.append(measure(config))
    return n_tokens, base, ours


def _timed_pass(config) -> float:
    start = time.perf_counter()
    longnovel_pass(config)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=3_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--config", help="measure this config's corpus and settings instead")
    args = parser.parse_args()
    from longnovel.tokenizer import load_tokenizer

    tokenizer = load_tokenizer("qwen3")
    work = Path(tempfile.mkdtemp(prefix="longnovel-bench-"))
    try:
        if not args.config:
            make_corpus(work / "corpus", args.tokens)
        configs = [bench_config(work / "corpus", args.config, work / f"run{i}")
                   for i in range(args.repeats)]
        roots = [Path(source.path) for source in configs[0].corpus]
        n_tokens, base, ours = alternate(configs, roots, tokenizer, _timed_pass)
        n_windows, per_tier = check_windows(configs[0], tokenizer)
        print(f"corpus: {len(files_of(roots))} unit files, {n_tokens:,} tokens")
        print(f"windows: {n_windows} {per_tier}, every n_tokens exact and in range")
        print(f"bare read+encode: best {min(base):.2f}s  runs {[round(t, 2) for t in base]}")
        print(f"ingest+expand:    best {min(ours):.2f}s  runs {[round(t, 2) for t in ours]}")
        print(f"ratio: {min(ours) / min(base):.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
