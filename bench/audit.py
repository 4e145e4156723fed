"""Article-free audit of the rules generator, before and after, on one built run directory.

"Before" is the run's stored ``inject/injections.parquet`` (built by whatever code built the
run); "after" re-generates every (window, type) job of that run with the rules generator of
this checkout, from the run's stored entities (``inject/entities.parquet``), with the same
seed and retries as the stage. Both go through ``longnovel.audit.compute_audit``; the script
prints pair accuracy and valid injections per type, side by side.

    python bench/audit.py -c bench/configs/dev-many.yaml [--run-dir RUN] [--tier T8 --tier S]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

from longnovel.audit import compute_audit, load_pairs
from longnovel.config import load_config


def regenerate(run_dir: Path, config, tiers: list[str] | None) -> list[dict]:
    """Injection rows of the run's windows made by this checkout's rules generator."""
    from longnovel.injection import engine as eng
    from longnovel.injection.entities import units_of
    from longnovel.injection.nlp.entities import merge_entities

    # in the stage's order (by window id, in its chunks): the rules' balancing depends on it
    windows = sorted((w for w in pq.read_table(run_dir / "expand/windows.parquet").to_pylist()
                      if not tiers or w["tier"] in tiers), key=lambda w: w["window_id"])
    by_unit: dict = {}
    for row in pq.read_table(run_dir / "inject/entities.parquet").to_pylist():
        by_unit.setdefault((row["book_id"], row["unit_index"]), []).append(row)
    entities = {w["window_id"]: merge_entities([by_unit.get(u, []) for u in units_of(w)])
                for w in windows}
    units = pq.ParquetFile(run_dir / "ingest/units.parquet").iter_batches(
        columns=["book_id", "language", "summary"], batch_size=1024)
    engine = eng.Engine(config.inject, config.seed, entities, None,
                        eng.book_vocabularies(units, windows))
    jobs, rows = eng.jobs(windows, config.inject, config.seed), []
    for start in range(0, len(jobs), eng.RULES_CHUNK_JOBS):
        rows += engine.run(jobs[start : start + eng.RULES_CHUNK_JOBS])
    return rows + eng.rebalance(engine, windows, rows, config.inject.type_list())


def _pairs_of(rows: list[dict], books: dict[str, str]) -> list[dict]:
    from longnovel.audit import changed_sentences

    pairs = []
    for row in rows:
        if row["valid"] and row["window_id"] in books:
            row = dict(row, book_id=books[row["window_id"]])
            row["original_sentence"], row["new_sentence"] = changed_sentences(row)
            pairs.append(row)
    return pairs


def _line(name: str, before: dict, after: dict, valid_b: int, valid_a: int, jobs: int) -> str:
    def acc(result, level):
        cell = result[level]["by_type"].get(name) if name != "all" else result[level]["all"]
        return f"{cell['pair_accuracy']:.3f}" if cell and cell["pair_accuracy"] is not None \
            else "-"

    return (f"| {name} | {valid_b}/{jobs} | {acc(before, 'summary')} | "
            f"{acc(before, 'sentence')} | {valid_a}/{jobs} | {acc(after, 'summary')} | "
            f"{acc(after, 'sentence')} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-c", "--config", type=Path, required=True)
    parser.add_argument("--run-dir", type=Path)
    parser.add_argument("--tier", action="append")
    parser.add_argument("--group-by", default="book", choices=("book", "window"))
    args = parser.parse_args()
    config = load_config(args.config)
    run_dir = args.run_dir or Path(config.run_dir)
    before_pairs = load_pairs(run_dir, args.tier, args.group_by)
    stored = [r for r in pq.read_table(run_dir / "inject/injections.parquet").to_pylist()
              if not args.tier or r["tier"] in args.tier]
    windows = pq.read_table(run_dir / "expand/windows.parquet",
                            columns=["window_id", "book_id"]).to_pylist()
    books = {w["window_id"]: w["book_id"] if args.group_by == "book" else w["window_id"]
             for w in windows}
    rows = regenerate(run_dir, config, args.tier)
    before, after = compute_audit(before_pairs), compute_audit(_pairs_of(rows, books))
    jobs = Counter(r["type"] for r in stored)
    valid_b = Counter(r["type"] for r in stored if r["valid"])
    valid_a = Counter(r["type"] for r in rows if r["valid"])
    print(f"groups: {before['groups']} ({args.group_by}); too few: {before['too_few_books']}")
    print("| type | valid before | summary before | sentence before | valid after | "
          "summary after | sentence after |")
    print("|---|---|---|---|---|---|---|")
    for name in sorted(jobs):
        print(_line(name, before, after, valid_b[name], valid_a[name], jobs[name]))
    print(_line("all", before, after, sum(valid_b.values()), sum(valid_a.values()),
                sum(jobs.values())))
    for language, grams in after["shortcuts"].items():
        print(f"after, top shortcuts ({language}):",
              ", ".join(repr(g["ngram"]) for g in grams["injected"][:12]))


if __name__ == "__main__":
    main()
