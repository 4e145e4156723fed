"""Benchmark: the inject stage (rules generator, lexical entities) with one worker process
and with N, on the same run directory built up to expand; prints both times, their ratio and
whether the rows are identical (they must be: the rules keep their state per book).

    python bench/inject_workers.py -c bench/out/corpora/dev/dev.yaml --tier T8 --tier S \\
        [--workers 2] [--repeats 1]

Alternates 1 and N ``--repeats`` times and reports the best of each (the machine is shared:
read the ratio, not the seconds).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-c", "--config", required=True)
    parser.add_argument("--tier", action="append", default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()

    import pyarrow.parquet as pq

    from longnovel.config import load_config
    from longnovel.pipeline import Pipeline
    from longnovel.stages import inject

    config = load_config(Path(args.config))
    rules = config.inject.model_copy(update={"generator": "rules", "entities": "lexical",
                                             "verify": None})
    with tempfile.TemporaryDirectory() as tmp:
        config = config.model_copy(update={"inject": rules, "run_dir": str(Path(tmp) / "run")})
        pipeline = Pipeline(config, args.tier, progress=False)
        for stage in ("ingest", "expand"):
            pipeline.run_stage(stage, log=lambda m: None)
        best: dict[int, float] = {}
        rows: dict[int, list] = {}
        for _ in range(args.repeats):
            for workers in (1, args.workers):
                inject._workers = lambda ctx, n=workers: n  # the stage's worker count
                start = time.perf_counter()
                pipeline.run_stage("inject", log=lambda m: None, force=True)
                best[workers] = min(best.get(workers, 1e9), time.perf_counter() - start)
                out = Path(config.run_dir) / "inject" / "injections.parquet"
                rows[workers] = pq.read_table(out).to_pylist()
                shutil.rmtree(Path(config.run_dir) / "inject")
    one, many = best[1], best[args.workers]
    print(f"rows: {len(rows[1])} ({sum(r['valid'] for r in rows[1])} valid); identical: "
          f"{rows[1] == rows[args.workers]}")
    print(f"inject, 1 worker: {one:.1f} s; {args.workers} workers: {many:.1f} s; "
          f"ratio {many / one:.2f}")


if __name__ == "__main__":
    main()
