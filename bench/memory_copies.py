"""Benchmark: peak memory of each stage of a rules build over one copy of a corpus and over
``--copies`` copies of it (each book repeated under new book ids), every stage its own process
under ``/usr/bin/time -v``. Prints the peak resident set size of each stage for both builds
and the ratio of the largest peaks (issue 23: at most 1.3x for 10 copies).

    python bench/memory_copies.py -c bench/out/corpora/dev/dev.yaml [--copies 10] \\
        [--workers 1] [--keep bench/out/memcopies]

The copies link the corpus's unit files (``dir`` format only), so they take no disk space.
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

STAGES = ("ingest", "expand", "inject", "export")


def copy_corpus(config_path: Path, root: Path, copies: int) -> Path:
    """A config like ``config_path``'s whose ``dir`` sources hold ``copies`` copies of each
    book (``<book>-c<k>``, files linked), run directory and cache under ``root``."""
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    sources = []
    for source in config["corpus"]:
        if source["format"] != "dir":
            sys.exit(f"{config_path}: only dir sources can be copied, not {source['format']}")
        original = (config_path.parent / source["path"]).resolve()
        target = root / "corpus" / original.name
        for book in sorted(p for p in original.iterdir() if p.is_dir()):
            for k in range(copies):
                folder = target / f"{book.name}-c{k}"
                folder.mkdir(parents=True, exist_ok=True)
                for unit in book.iterdir():
                    if not (folder / unit.name).exists():
                        (folder / unit.name).symlink_to(unit)
        sources.append({**source, "path": str(target)})
    config.update(corpus=sources, run_dir=str(root / "run"), cache=str(root / "cache.sqlite"))
    path = root / "config.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return path


def stage_peaks(config: Path, workers: int) -> dict[str, float]:
    """Peak RSS (MiB) of each stage, run in turn, each as its own process."""
    peaks = {}
    for stage in STAGES:
        command = ["/usr/bin/time", "-v", sys.executable, "-m", "longnovel.cli", stage,
                   "-c", str(config), "--no-progress"]
        if stage == "inject":  # the one stage here whose work splits by book
            command += ["--workers", str(workers)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"{stage} failed ({done.returncode}):\n{done.stderr[-2000:]}")
        found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
        peaks[stage] = int(found.group(1)) / 1024
        print(f"  {stage}: {peaks[stage]:.0f} MiB", flush=True)
    return peaks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-c", "--config", required=True, type=Path)
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--keep", help="build the corpora and runs in this folder and keep them")
    args = parser.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="longnovel-mem-"))
    try:
        peaks = {}
        for copies in (1, args.copies):
            print(f"{copies} cop{'y' if copies == 1 else 'ies'}:", flush=True)
            config = copy_corpus(args.config.resolve(), work / f"x{copies}", copies)
            peaks[copies] = stage_peaks(config, args.workers)
        one, many = max(peaks[1].values()), max(peaks[args.copies].values())
        print("per stage: " + ", ".join(
            f"{s} {peaks[args.copies][s] / peaks[1][s]:.2f}x" for s in STAGES))
        print(f"largest stage peak: {one:.0f} MiB vs {many:.0f} MiB, ratio {many / one:.2f}x")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
