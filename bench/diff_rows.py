"""Print what a code change did to a run's injections: the rows (one per window and type) whose
summary or validity differ between two run directories, counted per type, and, for one type
(or ``all``), each changed row old -> new, so the change can be read rather than guessed at.

    python bench/diff_rows.py OLD_RUN NEW_RUN [--type TYPE|all] [--limit 30]

Typical use: build a corpus up to ``inject`` with the old code, copy the run directory, re-run
``inject`` in the copy with the new code (its code version makes the stage stale), then diff.
``bench/same_rows.py`` says only whether two runs are identical.
"""

from __future__ import annotations

import argparse
from collections import Counter

import pyarrow.parquet as pq


def load(run: str) -> dict[tuple[str, str], dict]:
    rows = pq.read_table(f"{run}/inject/injections.parquet").to_pylist()
    return {(r["window_id"], r["type"]): r for r in rows}


def is_valid(row: dict | None) -> bool | None:
    return None if row is None else str(row["valid"]) == "True"


def show(tag: str, row: dict | None, width: int) -> None:
    if row is None:
        print(f"  {tag} (no row)")
    elif is_valid(row):
        print(f"  {tag} {row['subtype']}: {row['original_span'][:width]!r}\n"
              f"      -> {row['hallucinated_span'][:width]!r}")
    else:
        print(f"  {tag} invalid: {row['reject_reason'][:width]}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old_run")
    parser.add_argument("new_run")
    parser.add_argument("--type", default=None, help="print the changed rows of this type (or all)")
    parser.add_argument("--limit", type=int, default=30)
    parser.add_argument("--width", type=int, default=300)
    args = parser.parse_args(argv)
    old, new = load(args.old_run), load(args.new_run)
    changed: Counter = Counter()
    validity: Counter = Counter()
    shown = 0
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a and b and (a["summary"], is_valid(a)) == (b["summary"], is_valid(b)):
            continue
        changed[key[1]] += 1
        validity[(key[1], is_valid(a), is_valid(b))] += 1
        if args.type in (key[1], "all") and shown < args.limit:
            shown += 1
            print("==", key)
            show("OLD", a, args.width)
            show("NEW", b, args.width)
    print(f"changed rows: {sum(changed.values())} of {len(new)};", dict(sorted(changed.items())))
    for (kind, was, now), n in sorted(validity.items(), key=str):
        print(f"  {kind}: valid {was} -> {now}: {n}")


if __name__ == "__main__":
    main()
