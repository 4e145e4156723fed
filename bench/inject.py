"""Benchmark: ingest + expand + inject (rules generator, lexical entities) against one bare
tokenizer pass over the same corpus.

The corpus is the one ``bench/expand.py`` builds (about 3M Qwen3 tokens by default, both
languages, most books with indented paragraphs), or a config's corpus with ``--config``. In
turn: a bare pass that reads every unit file and batch-encodes it (in this process, the
tokenizer loaded), then longnovel's ingest, expand and inject, each timed. Prints each stage's
time and the ratio of the whole to the bare pass (best of ``--repeats``).

Each build runs in a fresh process, as a user's ``longnovel build`` does: it loads jieba's
dictionaries and fills its caches itself. ``--same-process`` runs every build in this one
(the figures recorded before 2026-12-07, fourth session: from the second repeat on, the build
found the Chinese words, tags and article terms of the first still cached).

    python bench/inject.py [--tokens 3000000] [--repeats 1]
    python bench/inject.py --config bench/out/corpora/dev/dev.yaml [--workers 1] [--same-process]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from expand import alternate, bench_config, files_of, make_corpus


def timed_build(config) -> dict[str, float]:
    """Seconds of ingest, expand and inject (rules) run in turn on ``config``."""
    from longnovel.pipeline import Pipeline

    rules = config.inject.model_copy(update={"generator": "rules", "entities": "lexical"})
    config = config.model_copy(update={"inject": rules,
                                       "arbitrate": config.arbitrate.model_copy(
                                           update={"summarizers": [], "judges": []})})
    pipeline = Pipeline(config, progress=False)
    times = {}
    for stage in ("ingest", "expand", "inject"):
        start = time.perf_counter()
        pipeline.run_stage(stage, log=lambda m: None)
        times[stage] = time.perf_counter() - start
    return times


def fresh_build(config) -> dict[str, float]:
    """``timed_build`` in a new interpreter (spawned, not forked: nothing loaded here is
    inherited)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(timed_build, config).result()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=3_000_000)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--config", help="measure this config's corpus and settings instead")
    parser.add_argument("--workers", type=int, help="inject's worker processes (default: the "
                        "config's, the cores available)")
    parser.add_argument("--same-process", action="store_true",
                        help="build in this process (caches warm from the second repeat on)")
    args = parser.parse_args()
    from longnovel.tokenizer import load_tokenizer

    tokenizer = load_tokenizer("qwen3")
    work = Path(tempfile.mkdtemp(prefix="longnovel-bench-"))
    try:
        if not args.config:
            make_corpus(work / "corpus", args.tokens)
        configs = [bench_config(work / "corpus", args.config, work / f"run{i}")
                   for i in range(args.repeats)]
        if args.workers:
            configs = [c.model_copy(update={"workers": args.workers}) for c in configs]
        roots = [Path(source.path) for source in configs[0].corpus]
        build = timed_build if args.same_process else fresh_build
        n_tokens, base, ours = alternate(configs, roots, tokenizer, build)
        best = min(ours, key=lambda t: sum(t.values()))
        total = sum(best.values())
        print(f"corpus: {len(files_of(roots))} unit files, {n_tokens:,} tokens")
        print(f"bare read+encode: best {min(base):.2f}s  runs {[round(t, 2) for t in base]}")
        print("stages: " + ", ".join(f"{k} {v:.2f}s" for k, v in best.items()))
        print("inject runs: " + str([round(t["inject"], 2) for t in ours]))
        expand = best["ingest"] + best["expand"]
        print(f"ingest+expand: {expand:.2f}s  ratio {expand / min(base):.2f}x")
        print(f"ingest+expand+inject(rules): {total:.2f}s  ratio {total / min(base):.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
