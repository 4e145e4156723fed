"""Check that two run directories hold the same injections and the same export: for each of
``inject/injections.parquet``, ``inject/entities.parquet`` and every ``export/<tier>/<split>``
Parquet file, whether the files are byte-identical and, if not, whether their rows are.
Exits 1 when a file is missing from one side or its rows differ (a speed change must not
change what inject generates).

    python bench/same_rows.py RUN_DIR_A RUN_DIR_B
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path


def files_to_compare(run_a: Path, run_b: Path) -> list[str]:
    """Relative paths of the compared files found under either run directory."""
    found = set()
    for run in (run_a, run_b):
        for name in ("inject/injections.parquet", "inject/entities.parquet"):
            if (run / name).exists():
                found.add(name)
        found |= {str(p.relative_to(run)) for p in run.glob("export/*/*.parquet")}
    return sorted(found)


def compare(a: Path, b: Path) -> str:
    """'bytes' when the files are identical, 'rows' when only their rows are, else a
    description of the first difference."""
    import pyarrow.parquet as pq

    if not a.exists() or not b.exists():
        return f"missing in {a.parent if not a.exists() else b.parent}"
    if _digest(a) == _digest(b):
        return "bytes"
    left, right = pq.read_table(a), pq.read_table(b)
    if left.schema != right.schema:
        return "schemas differ"
    if left.num_rows != right.num_rows:
        return f"{left.num_rows} rows vs {right.num_rows}"
    rows_a, rows_b = left.to_pylist(), right.to_pylist()
    for i, (x, y) in enumerate(zip(rows_a, rows_b, strict=True)):
        if x != y:
            keys = [k for k in x if x[k] != y[k]]
            return f"row {i} differs in {keys}"
    return "rows"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_a", type=Path)
    parser.add_argument("run_b", type=Path)
    args = parser.parse_args()
    names = files_to_compare(args.run_a, args.run_b)
    if not names:
        print(f"nothing to compare under {args.run_a} and {args.run_b}")
        return 1
    bad = 0
    for name in names:
        verdict = compare(args.run_a / name, args.run_b / name)
        same = verdict in ("bytes", "rows")
        bad += not same
        print(f"{'same' if same else 'DIFFERENT'} ({verdict}): {name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
