"""Print injected rows for reading by hand: for each type, N seeded valid rows of a run's
``inject/injections.parquet`` with the changed sentences (original -> injected), the gold
reason and the evidence passage. Usage: python bench/read_rows.py RUN_DIR [--per-type 5]
[--seed 1] [--language en] [--tier S]."""

from __future__ import annotations

import argparse
import random

import pyarrow.parquet as pq

from longnovel.injection.candidate import Candidate
from longnovel.injection.reasons import changed_sentences
from longnovel.taxonomy import TYPE_IDS

FIELDS = ("type", "subtype", "original_summary", "summary", "original_span",
          "hallucinated_span", "generator")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir")
    parser.add_argument("--per-type", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--language", default=None)
    parser.add_argument("--tier", default=None)
    args = parser.parse_args()
    rows = [r for r in pq.read_table(f"{args.run_dir}/inject/injections.parquet").to_pylist()
            if r["valid"] and (args.language in (None, r["language"]))
            and (args.tier in (None, r["tier"]))]
    rng = random.Random(args.seed)
    number = 0
    for type_id in TYPE_IDS:
        mine = [r for r in rows if r["type"] == type_id]
        for row in rng.sample(mine, min(args.per_type, len(mine))):
            number += 1
            old, new = changed_sentences(Candidate(**{k: row[k] for k in FIELDS}),
                                         row["language"])
            print(f"#{number} {row['type']}/{row['subtype']}  {row['window_id']}")
            print(f"  original: {' '.join(old.split())}")
            print(f"  injected: {' '.join(new.split())}")
            print(f"  reason:   {row['reason']}")
            print(f"  evidence: {' '.join(row['evidence'].split())[:300]}")
            print()


if __name__ == "__main__":
    main()
