"""Benchmark: peak memory of ``longnovel build`` (rules through export) on a small and on a
ten-times larger corpus, each measured as a whole process with ``/usr/bin/time -v``.

The corpora are the ones ``bench/expand.py`` generates (both languages, most books with
indented paragraphs), of ``--small`` and ``--large`` Qwen3 tokens, built with the embedded
default's settings (tiers S-XL, rules generator, lexical entities, no model). Prints each
build's peak resident set size and wall time and the ratio of the peaks; the issue 11 bound is
1.5x for 3M against 30M tokens. ``--keep DIR`` keeps the corpora and runs there.

    python bench/memory.py [--small 3000000] [--large 30000000] [--keep bench/out/membench]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from expand import make_corpus

REPO = Path(__file__).resolve().parents[1]


def write_config(root: Path, corpus: Path) -> Path:
    """The embedded default's settings on ``corpus``, run directory and cache under ``root``."""
    config = yaml.safe_load((REPO / "configs/default.yaml").read_text(encoding="utf-8"))
    config["run_dir"] = str(root / "run")
    config["cache"] = str(root / "cache.sqlite")
    config["corpus"] = [{"path": str(corpus / lang), "format": "dir", "language": lang}
                        for lang in ("zh", "en")]
    path = root / "config.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return path


def measure(config: Path) -> dict:
    """Peak RSS (MiB) and wall seconds of one ``longnovel build`` process."""
    command = ["/usr/bin/time", "-v", sys.executable, "-m", "longnovel.cli", "build",
               "-c", str(config), "--no-progress"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"build failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", done.stderr)
    seconds = 0.0
    for part in wall.group(1).split(":"):
        seconds = seconds * 60 + float(part)
    return {"peak_mib": peak / 1024, "wall_s": seconds, "log": done.stdout}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=3_000_000)
    parser.add_argument("--large", type=int, default=30_000_000)
    parser.add_argument("--keep", help="build the corpora and runs in this folder and keep them")
    args = parser.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="longnovel-mem-"))
    results = {}
    try:
        for label, tokens in (("small", args.small), ("large", args.large)):
            root = work / label
            if not (root / "corpus").exists():
                make_corpus(root / "corpus", tokens)
            results[label] = measure(write_config(root, root / "corpus"))
            corpus = re.search(r"ingest: .*", results[label]["log"])
            peak, wall = results[label]["peak_mib"], results[label]["wall_s"]
            print(f"{label}: {tokens:,} tokens asked, peak RSS {peak:.0f} MiB,"
                  f" wall {wall:.0f} s  ({corpus.group() if corpus else ''})",
                  flush=True)
        ratio = results["large"]["peak_mib"] / results["small"]["peak_mib"]
        print(f"peak RSS ratio large/small: {ratio:.2f}x")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
