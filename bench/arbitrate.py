"""Arbitration wall time: 60 windows, three models at concurrency 16, 200 ms per request.

The ideal is the two rounds back to back, the three models in parallel:
ceil(60/16) x 0.2 s (summaries) + ceil(120/16) x 0.2 s (judgments) = 0.8 + 1.6 = 2.4 s.
Two timings, both against that ideal (target <= 2x):

- stage: ``Pipeline.run_stage("arbitrate")`` in this process, start-up included (loading the
  tokenizer, reading the windows, building the providers, both rounds, writing the three
  Parquet files and the manifest);
- command: ``longnovel arbitrate --force`` as a fresh process on a fresh cache (interpreter
  start and imports included).

Then ``longnovel arbitrate --force`` again must send nothing (all answers from the cache).
The scripted server (tests/helpers/fake_llm.py with replies that look like summaries and
judgments) runs in its own process, as a real one would. The three models share it, under
different model names; one of them goes through the zhipuai SDK.

    python bench/arbitrate.py [--windows 60] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pyarrow as pa
import yaml

ROOT = Path(__file__).resolve().parents[1]
LATENCY_S = 0.2
TARGET_RATIO = 1.5  # issue 11: the whole process against a minimal async client
MODELS = {"glm": "zhipuai", "qwen": "openai", "gpt": "openai"}


# --- the server (child process) ------------------------------------------------------------------

def scripted_reply(counter):
    """Replies shaped like the stage's: a unique summary, or a judgment of the summary shown."""

    def reply(messages: list[dict]) -> str:
        user = messages[-1]["content"]
        if "<summary>\n" not in user:
            return f"Summary number {next(counter)}: the clock ran forty minutes early."
        digest = int(hashlib.sha256(user.encode("utf-8")).hexdigest(), 16)
        score = digest % 6
        types = ["number"] if score < 3 else []
        return json.dumps({"score": score, "hallucination_types": types, "reason": "checked"})

    return reply


def serve(latency: float) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from helpers.fake_llm import FakeLLM

    server = FakeLLM().start()
    server.latency = latency
    server.reply = scripted_reply(itertools.count())
    print(server.base_url, flush=True)
    threading.Event().wait()


class ServerProcess:
    def __init__(self, latency: float):
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve", str(latency)],
                                     stdout=subprocess.PIPE, text=True)
        self.base_url = self.proc.stdout.readline().strip()

    def sent(self) -> int:
        root = self.base_url.rsplit("/v1", 1)[0]
        with urllib.request.urlopen(f"{root}/fake/stats", timeout=10) as response:
            return json.load(response)["requests"]

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


# --- the run directory ---------------------------------------------------------------------------

def sample_windows(n: int) -> list[dict]:
    """``n`` windows made of the sample corpus's units (one unit each, made distinct)."""
    units = sorted((ROOT / "data/raw/sample").glob("*/*/[0-9][0-9][0-9].txt"))
    rows = []
    for i, path in zip(range(n), itertools.cycle(units)):
        language, book = path.parts[-3], path.parts[-2]
        article = f"({i})\n\n" + path.read_text(encoding="utf-8")
        reference = path.with_name(f"{path.stem}.summary.txt").read_text(encoding="utf-8")
        rows.append({"window_id": f"B:{book}:{i}", "tier": "B", "target_tokens": 4000,
                     "language": language, "book_id": book, "title": book,
                     "unit_start": i, "unit_end": i, "n_units": 1, "n_tokens": 4000,
                     "article": article, "reference_summary": reference})
    return rows


def real_windows(path: str, n: int, tier: str | None) -> list[dict]:
    """``n`` windows of a built run's ``windows.parquet`` (of ``tier``, or the smallest tier
    first; languages alternating), as they are."""
    import pyarrow.parquet as pq

    rows = sorted((r for r in pq.read_table(path).to_pylist() if tier in (None, r["tier"])),
                  key=lambda r: (r["target_tokens"], r["window_id"]))
    by_language: dict[str, list[dict]] = {}
    for row in rows:
        by_language.setdefault(row["language"], []).append(row)
    mixed = [row for pair in itertools.zip_longest(*by_language.values()) for row in pair if row]
    if len(mixed) < n:
        sys.exit(f"{path}: {len(mixed)} windows, {n} asked")
    return mixed[:n]


def write_run(tmp: Path, base_url: str, windows: list[dict], concurrency: int, tag: str) -> Path:
    from longnovel.stages.expand import SCHEMA
    from longnovel.state import atomic_write_table

    run_dir = tmp / f"run-{tag}"
    atomic_write_table(run_dir / "expand/windows.parquet",
                       pa.Table.from_pylist(windows, schema=SCHEMA))
    models = {name: {"provider": provider, "model": f"bench-{name}", "base_url": base_url,
                     "max_concurrency": concurrency, "context_window": 131072}
              for name, provider in MODELS.items()}
    tiers = {w["tier"]: w["target_tokens"] for w in windows}
    config = {"run_dir": str(run_dir), "corpus": [{"path": "unused", "format": "dir",
                                                   "language": "en"}],
              "tiers": tiers, "models": models, "cache": str(tmp / f"cache-{tag}.sqlite"),
              "arbitrate": {"summarizers": list(MODELS), "judges": list(MODELS)}}
    path = tmp / f"config-{tag}.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


# --- the baseline: a minimal async client (child process) --------------------------------------

def minimal_client(windows_path: str, base_url: str, concurrency: int) -> None:
    """The same requests in the same two dependent rounds with nothing but the openai SDK:
    the stage's prompt files filled in, one AsyncOpenAI client and semaphore per model, the
    judgments parsed as JSON. No cache, no accounting, no retries, no files written."""
    import asyncio

    import openai
    import pyarrow.parquet as pq

    rows = pq.read_table(windows_path, columns=["window_id", "language", "article",
                                                "reference_summary"]).to_pylist()
    prompts = ROOT / "src/longnovel/prompts"

    def text(name: str, language: str) -> str:
        return (prompts / language / f"arbitrate_{name}.txt").read_text(encoding="utf-8").strip()

    def messages(row: dict, summary: str | None) -> list[dict]:
        lang = row["language"]
        blocks = [text("article", lang).replace("{article}", row["article"].strip())]
        if summary is None:
            blocks.append(text("summarize", lang).replace("{target}", "300"))
        else:
            blocks.append(text("reference", lang).replace("{reference}",
                                                         row["reference_summary"].strip()))
            blocks.append(text("judge", lang).replace("{summary}", summary))
        return [{"role": "system", "content": text("system", lang)},
                {"role": "user", "content": "\n\n".join(blocks)}]

    async def run() -> None:
        clients = {m: openai.AsyncOpenAI(base_url=base_url, api_key="bench", max_retries=0)
                   for m in MODELS}
        limits = {m: asyncio.Semaphore(concurrency) for m in MODELS}

        async def ask(model: str, body: list[dict]) -> str:
            async with limits[model]:
                reply = await clients[model].chat.completions.create(
                    model=f"bench-{model}", messages=body, temperature=0.0)
                return reply.choices[0].message.content

        keys = [(m, k) for m in MODELS for k in range(len(rows))]
        answers = await asyncio.gather(*(ask(m, messages(rows[k], None)) for m, k in keys))
        summaries = dict(zip(keys, answers, strict=True))
        jobs = [(judge, other, k) for judge in MODELS for k in range(len(rows))
                for other in MODELS if other != judge]
        replies = await asyncio.gather(*(ask(judge, messages(rows[k], summaries[other, k]))
                                         for judge, other, k in jobs))
        parsed = [json.loads(r) for r in replies]
        assert len(parsed) == len(jobs)

    asyncio.run(run())


def time_minimal(windows_path: Path, base_url: str, concurrency: int) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, __file__, "--minimal", str(windows_path), base_url,
                    str(concurrency)], check=True)
    return time.perf_counter() - started


# --- timings -------------------------------------------------------------------------------------

def time_stage(config_path: Path) -> tuple[float, dict]:
    from longnovel.config import load_config
    from longnovel.pipeline import Pipeline

    started = time.perf_counter()
    pipeline = Pipeline(load_config(config_path), progress=False)
    manifest = pipeline.run_stage("arbitrate", log=lambda _: None)
    return time.perf_counter() - started, manifest


def time_command(config_path: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "longnovel.cli", "arbitrate", "-c", str(config_path),
                    "--force", "--no-progress"], check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", type=int, default=60)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--windows-from", help="a built run's expand/windows.parquet (real "
                        "novels) instead of windows made of the sample's units")
    parser.add_argument("--tier", help="with --windows-from: only this tier's windows")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--serve", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--minimal", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve)
        return 0
    if args.minimal:
        minimal_client(args.minimal[0], args.minimal[1], int(args.minimal[2]))
        return 0
    n, c = args.windows, args.concurrency
    if args.windows_from:
        windows = real_windows(args.windows_from, n, args.tier)
    else:
        windows = sample_windows(n)
    ideal = (math.ceil(n / c) + math.ceil(2 * n / c)) * LATENCY_S
    server = ServerProcess(LATENCY_S)
    tmp = Path(tempfile.mkdtemp(prefix="bench-arbitrate-"))
    commands, minimals = [], []
    try:
        import openai  # noqa: F401  (SDK imports are one-off, as in bench/llm.py)
        import zhipuai  # noqa: F401

        wall, manifest = time_stage(write_run(tmp, server.base_url, windows, c, "stage"))
        expected = 3 * n + 3 * 2 * n
        sent = sum(u["requests"] for u in manifest["usage"].values())
        assert sent == expected and not manifest["failures"], (sent, manifest["failures"])
        windows_path = tmp / "run-stage/expand/windows.parquet"
        for r in range(args.repeats):  # whole processes, back to back, alternating
            command_config = write_run(tmp, server.base_url, windows, c, f"command{r}")
            commands.append(time_command(command_config))
            minimals.append(time_minimal(windows_path, server.base_url, c))
        before = server.sent()
        warm = time_command(command_config)
        resent = server.sent() - before
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    tokens = sum(w["n_tokens"] for w in windows)
    ratio = min(commands) / min(minimals)
    print(f"{n} windows ({tokens:,} article tokens), 3 models x concurrency {c}, "
          f"{LATENCY_S * 1000:.0f} ms per request: {expected} requests; ideal {ideal:.2f} s")
    print(f"stage (in process): wall {wall:.2f} s, ratio to ideal {wall / ideal:.2f}")
    print(f"longnovel arbitrate (process): {_runs(commands)}")
    print(f"minimal async client (process): {_runs(minimals)}")
    print(f"ratio longnovel / minimal (best of {args.repeats}): {ratio:.2f}x "
          f"(target <= {TARGET_RATIO}); to ideal {min(commands) / ideal:.2f}x")
    print(f"re-run:  wall {warm:.2f} s, sent {resent}")
    return 0 if ratio <= TARGET_RATIO and resent == 0 else 1


def _runs(times: list[float]) -> str:
    return "best {:.2f} s, runs {}".format(min(times), " / ".join(f"{t:.2f}" for t in times))


if __name__ == "__main__":
    sys.exit(main())
