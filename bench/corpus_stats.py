"""Figures of a built development corpus: books, units, tokens, summary length, windows.

Reads the run directory of a config after ``longnovel ingest`` and ``longnovel expand`` (its
``ingest/units.parquet`` and ``expand/manifest.json``) and prints, per language: books, units,
Qwen3 tokens of the unit texts, the median summary in sentences (longnovel's own splitter,
the one injection uses) and in words (en) or characters (zh), and windows per tier.

    python bench/corpus_stats.py -c bench/out/corpora/study/study.yaml \
        [-c bench/out/corpora/dev/dev.yaml]
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

import pyarrow.parquet as pq

from longnovel.config import load_config
from longnovel.injection.nlp.sentences import split_sentences


def summary_length(summary: str, language: str) -> tuple[int, int]:
    """(sentences, words) of an en summary, (sentences, characters) of a zh one."""
    size = len("".join(summary.split())) if language == "zh" else len(summary.split())
    return len(split_sentences(summary, language)), size


def corpus_rows(config_path: Path) -> list[dict]:
    """One row of figures per language of the config's built run."""
    config = load_config(config_path)
    run = Path(config.run_dir)
    units = pq.read_table(run / "ingest/units.parquet",
                          columns=["book_id", "language", "summary", "n_tokens"]).to_pylist()
    manifest = json.loads((run / "expand/manifest.json").read_text(encoding="utf-8"))
    by_language = manifest.get("windows_per_tier_language", {})
    rows = []
    for language in sorted({u["language"] for u in units}):
        mine = [u for u in units if u["language"] == language]
        lengths = [summary_length(u["summary"], language) for u in mine]
        rows.append({
            "config": str(config_path), "language": language,
            "books": len({u["book_id"] for u in mine}), "units": len(mine),
            "tokens": sum(u["n_tokens"] for u in mine),
            "summary_sentences": statistics.median(s for s, _ in lengths),
            "summary_size": statistics.median(n for _, n in lengths),
            "windows": {tier: counts.get(language, 0) for tier, counts in by_language.items()},
        })
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-c", "--config", type=Path, action="append", required=True)
    args = parser.parse_args(argv)
    print(f"{'config':40s} {'lang':4s} {'books':>5s} {'units':>5s} {'tokens':>9s} "
          f"{'sum.sent':>8s} {'sum.size':>8s}  windows per tier")
    for path in args.config:
        for row in corpus_rows(path):
            unit = "chars" if row["language"] == "zh" else "words"
            windows = " ".join(f"{t} {n}" for t, n in row["windows"].items())
            print(f"{row['config']:40s} {row['language']:4s} {row['books']:5d} {row['units']:5d} "
                  f"{row['tokens']:9d} {row['summary_sentences']:8.0f} "
                  f"{row['summary_size']:6.0f} {unit}  {windows}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
