"""The LLM generator against a real model on 127.0.0.1: valid (and verified) shares per type.

    python bench/llm_inject.py --run-dir RUN --base-url http://127.0.0.1:8080/v1 \
        --windows 4 [--window ID ...] [--verify] [--before] [--show] [--cache FILE]

RUN is a run directory with ``ingest`` and ``expand`` built (say ``longnovel expand -c
bench/configs/llm-sample4.yaml``). The first ``--windows`` windows of the smallest tier
(alternating languages) each get all eight types; every candidate goes through the stage's own
code (``Engine``) with ``max_retries: 0``, so a share is per single request. ``--before`` asks
the old way instead: the whole summary with one edit, with the templates of commit
``--before-rev``, and validates the reply the same way. ``--verify`` also asks the same model to
verify the valid candidates against the article (slow on CPU: the article is prefilled once per
window). Prints counts and reject reasons per type and the completion tokens paid per candidate;
a job for which the rule modules find no place is "n/a" (nothing is asked), and valid shares are
of the candidates asked. ``--show`` prints every candidate's original and new text; ``--cache``
keeps the replies (a rerun with the same file sends nothing).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    args = _args()
    from longnovel.config import Config
    from longnovel.llm import LLMRunner
    from longnovel.stages import inject
    from longnovel.stages.base import StageContext
    from longnovel.tokenizer import load_tokenizer

    models = {"local": {"provider": "openai", "model": args.model, "base_url": args.base_url,
                        "max_tokens": 1024 if args.before else args.max_tokens,
                        "temperature": 0.0, "timeout_s": 900, "max_retries": 1,
                        "max_concurrency": 1}}
    config = Config.model_validate({
        "corpus": [{"path": "x", "format": "dir", "language": "en"}], "seed": 13,
        "run_dir": str(args.run_dir), "models": models, "tiers": _tiers(args.run_dir),
        "inject": {"generator": "local", "max_retries": 0,
                   "verify": "local" if args.verify else None}})
    tokenizer = load_tokenizer("qwen3")
    ctx = StageContext(config, Path(args.run_dir), None, False, stage="inject")
    windows = inject._windows(ctx)
    if args.window:
        missing = set(args.window) - {w["window_id"] for w in windows}
        if missing:
            raise SystemExit(f"--window: no such window in {args.run_dir}: {sorted(missing)}")
        windows = [w for w in windows if w["window_id"] in args.window]
    else:
        windows = _pick(windows, args.windows, config.tiers)
    cache = Path(args.cache or Path(tempfile.mkdtemp(prefix="bench-llm-")) / "cache.sqlite")
    runner = LLMRunner(config.models, cache, tokenizer, stage="inject", progress=False)
    from longnovel.injection.entities import extract_many, units_of
    from longnovel.injection.nlp.entities import merge_entities

    by_unit = dict(zip(inject._unit_texts(ctx, windows), extract_many(
        list(inject._unit_texts(ctx, windows).values())), strict=True))
    entities = {w["window_id"]: merge_entities([by_unit[u] for u in units_of(w)])
                for w in windows}
    jobs = [(w, t) for w in windows for t in config.inject.type_list()]
    start = time.time()
    if args.before:
        rows = _before(jobs, entities, runner, args.before_rev)
        verified = {}
    else:
        from longnovel.injection.engine import Engine

        engine = Engine(config.inject, config.seed, entities, runner,
                        articles=lambda ids: inject._articles(ctx, ids))
        rows = engine.run(jobs)
        verified = engine.verified
    usage = runner.usage().get("local", {})
    runner.close()
    from longnovel.injection.candidate import NotApplicable
    from longnovel.injection.generators.llm.generator import choose_target

    placed = {(w["window_id"], t) for w, t in jobs if not isinstance(choose_target(
        w["reference_summary"], w["language"], entities[w["window_id"]], t, config.seed),
        NotApplicable)}
    _report(rows, verified, usage, time.time() - start, args, placed)


def _args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run-dir", required=True)
    parser.add_argument("--base-url", default="http://127.0.0.1:8080/v1")
    parser.add_argument("--model", default="local")
    parser.add_argument("--windows", type=int, default=4)
    parser.add_argument("--window", action="append", default=[],
                        help="this window id (repeatable) instead of the first --windows")
    parser.add_argument("--max-tokens", type=int, default=200)
    parser.add_argument("--verify", action="store_true")
    parser.add_argument("--before", action="store_true")
    parser.add_argument("--cache", help="request cache file (reuse it to resume a run)")
    parser.add_argument("--before-rev", default="03686b8")
    parser.add_argument("--show", action="store_true",
                        help="print every candidate: type, reason, original and new text")
    return parser.parse_args()


def _tiers(run_dir) -> dict[str, int]:
    """The run's tiers (names as built, targets in order of window length), so that windows
    of a run built with its own config (a short tier, say) are selected."""
    import pyarrow.parquet as pq

    table = pq.read_table(Path(run_dir) / "expand/windows.parquet", columns=["tier", "article"])
    lengths: dict[str, list[int]] = {}
    for tier, article in zip(table.column(0).to_pylist(), table.column(1).to_pylist(), strict=True):
        lengths.setdefault(tier, []).append(len(article))
    order = sorted(lengths, key=lambda t: sum(lengths[t]) / len(lengths[t]))
    return {tier: 1000 * (i + 1) for i, tier in enumerate(order)}


def _pick(windows: list[dict], n: int, tiers: dict[str, int]) -> list[dict]:
    """The first ``n`` windows of the smallest tier, alternating languages."""
    smallest = min(tiers, key=tiers.get)
    by_language: dict[str, list[dict]] = {}
    for w in windows:
        if w["tier"] == smallest:
            by_language.setdefault(w["language"], []).append(w)
    picked, k = [], 0
    while len(picked) < n and any(k < len(v) for v in by_language.values()):
        picked += [v[k] for _, v in sorted(by_language.items()) if k < len(v)]
        k += 1
    return picked[:n]


def _before(jobs, entities, runner, rev: str) -> list[dict]:
    """The full-summary prompts of commit ``rev``: the model copies the summary with one edit."""
    from longnovel.injection.candidate import Candidate
    from longnovel.injection.engine import row as _row
    from longnovel.injection.generators.llm.generator import SYSTEM, format_entities
    from longnovel.injection.validate import validate
    from longnovel.llm import Request

    def template(type_id, lang):
        return subprocess.run(
            ["git", "show", f"{rev}:src/longnovel/prompts/{lang}/inject_{type_id}.txt"],
            cwd=REPO, capture_output=True, text=True, check=True).stdout.rstrip()

    requests = []
    for w, type_id in jobs:
        lang = "zh" if w["language"] == "zh" else "en"
        values = {"summary": w["reference_summary"].strip(),
                  "entities": format_entities(entities[w["window_id"]], lang)}
        user = re.sub(r"\{(summary|entities)\}", lambda m, v=values: v[m.group(1)],
                      template(type_id, lang))
        requests.append(Request(key=f"before/{w['window_id']}/{type_id}", model="local",
                                messages=[{"role": "system", "content": SYSTEM[lang]},
                                          {"role": "user", "content": user}], schema=dict))
    rows = []
    for (w, type_id), result in zip(jobs, runner.run(requests), strict=True):
        if not result.ok:
            rows.append(_row(w, type_id, None, f"llm_{result.error}"))
            continue
        reply = result.parsed
        subtype = str(reply.get("subtype", "")).strip().lower().replace("-", "_")
        if subtype == "not_applicable":
            rows.append(_row(w, type_id, None, "not_applicable"))
            continue
        cand = Candidate(type_id, subtype, w["reference_summary"],
                         str(reply.get("summary", "")).strip(),
                         str(reply.get("original_sentence", "")).strip(),
                         str(reply.get("hallucinated_sentence", "")).strip(), "local")
        rows.append(_row(w, type_id, cand, validate(cand, w["language"])))
    return rows


def _report(rows, verified, usage, seconds, args, placed: set) -> None:
    """Per type: jobs with no place (n/a), valid of asked, verified, reject reasons; ``placed``
    are the (window, type) jobs for which the sentence-level generator finds a place (every
    job is asked with ``--before``, and the same figures on ``placed`` follow)."""
    from longnovel.taxonomy import TYPE_IDS

    print(f"mode: {'before (whole summary)' if args.before else 'after (one sentence)'}; "
          f"{len({r['window_id'] for r in rows})} windows, {len(rows)} candidates, "
          f"{seconds:.0f} s")
    print(f"{'type':12} {'n/a':>4} {'valid/asked':>11} {'verified':>9}  reject reasons")
    asked = [r for r in rows if args.before or (r["window_id"], r["type"]) in placed]
    for type_id in TYPE_IDS:
        mine = [r for r in asked if r["type"] == type_id]
        valid = [r for r in mine if r["valid"]]
        reasons = Counter(r["reject_reason"].split(":")[0] for r in mine if not r["valid"])
        checked = verified.get(type_id, Counter())
        ver = f"{checked['accepted']}/{checked['checked']}" if checked else "-"
        n_a = sum(r["type"] == type_id for r in rows) - len(mine)
        print(f"{type_id:12} {n_a:>4} {len(valid):>5}/{len(mine):<5} {ver:>9}  {dict(reasons)}")
    for type_id, counter in sorted(verified.items()):
        print(f"verifier on {type_id}: {dict(counter)}")
    if args.show:
        for r in rows:
            print(f"- {r['window_id']} {r['type']}/{r['subtype']} "
                  f"{r['reject_reason'] or 'valid'}\n    was: {r['original_span']!r}"
                  f"\n    now: {r['hallucinated_span']!r}")
    total_valid = sum(r["valid"] for r in rows)
    print(f"valid: {total_valid}/{len(asked)} asked = {total_valid / max(1, len(asked)):.0%} "
          f"({len(rows) - len(asked)} of {len(rows)} jobs not applicable, nothing asked)")
    if args.before:
        same = [r for r in rows if (r["window_id"], r["type"]) in placed]
        reasons = Counter(r["reject_reason"].split(":")[0] for r in same if not r["valid"])
        print(f"on the {len(same)} jobs the sentence-level generator asks: "
              f"{sum(r['valid'] for r in same)} valid; {dict(reasons)}")
    if usage:
        n = max(1, len(asked))
        print(f"requests sent {usage.get('requests')}; per candidate asked: completion tokens "
              f"{usage.get('completion_tokens', 0) / n:.0f}, prompt tokens "
              f"{usage.get('prompt_tokens', 0) / n:.0f} (with --verify, the verifier's too)")

if __name__ == "__main__":
    main()
