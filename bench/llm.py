"""LLM client overhead: 400 requests at concurrency 32 against the local fake server.

Each reply takes 100 ms on the server, so the ideal wall time is ceil(400/32) x 100 ms = 1.3 s.
Prints wall / ideal (target <= 1.2), then runs the same requests again from the cache and
checks that no request reaches the server.

The server (tests/helpers/fake_llm.py) runs in its own process, as a real one would, so its
threads do not share the client's interpreter lock. The SDK is imported before timing: a
one-off import is not per-request overhead.

    python bench/llm.py [--provider openai|zhipuai] [--requests 400]
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from longnovel.llm import LLMRunner, ModelConfig, Request
from longnovel.tokenizer import load_tokenizer

LATENCY_S = 0.1
TARGET_RATIO = 1.2
FAKE_SERVER = Path(__file__).resolve().parents[1] / "tests" / "helpers" / "fake_llm.py"


def build_requests(n: int) -> list[Request]:
    """Four requests per window sharing a ~450-token article, like arbitrate's judges."""
    article = "The old house stood at the end of the lane. " * 40
    return [
        Request(
            f"w{i // 4}/{i % 4}",
            "bench",
            group=f"w{i // 4}",
            messages=[
                {"role": "system", "content": "You judge summaries."},
                {"role": "user", "content": f"{article}\nTask {i}: summarize."},
            ],
        )
        for i in range(n)
    ]


class ServerProcess:
    """The fake server in a child process."""

    def __init__(self, latency: float):
        self.proc = subprocess.Popen(
            [sys.executable, str(FAKE_SERVER), str(latency)], stdout=subprocess.PIPE, text=True
        )
        self.base_url = self.proc.stdout.readline().strip()

    def stats(self) -> dict:
        root = self.base_url.rsplit("/v1", 1)[0]
        with urllib.request.urlopen(f"{root}/fake/stats", timeout=10) as response:
            return json.load(response)

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


def timed_run(
    server: ServerProcess, provider: str, cache: Path, batch, concurrency: int, tokenizer
):
    """(wall seconds, requests the server received, results, usage) of one run."""
    models = {
        "bench": ModelConfig(
            provider=provider, model="fake", base_url=server.base_url, max_concurrency=concurrency
        )
    }
    with LLMRunner(models, cache, tokenizer, "bench", progress=False) as runner:
        before = server.stats()["requests"]
        started = time.perf_counter()
        results = runner.run(batch)
        wall = time.perf_counter() - started
        return wall, server.stats()["requests"] - before, results, runner.usage()["bench"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--provider", default="openai", choices=["openai", "zhipuai"])
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    batch = build_requests(args.requests)
    importlib.import_module(args.provider)
    tokenizer = load_tokenizer("qwen3")
    ideal = math.ceil(args.requests / args.concurrency) * LATENCY_S
    server = ServerProcess(LATENCY_S)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            cache = Path(tmp) / "bench.sqlite"
            wall, sent, results, _ = timed_run(
                server, args.provider, cache, batch, args.concurrency, tokenizer
            )
            ratio = wall / ideal
            print(
                f"{args.provider}: {args.requests} requests, concurrency {args.concurrency}, "
                f"server latency {LATENCY_S * 1000:.0f} ms"
            )
            print(
                f"cold: wall {wall:.3f} s, ideal {ideal:.3f} s, ratio {ratio:.3f} (target <= "
                f"{TARGET_RATIO}); sent {sent}, max in flight {server.stats()['max_in_flight']}"
            )
            assert sent == args.requests and all(r.ok for r in results)
            wall2, sent2, results2, usage2 = timed_run(
                server, args.provider, cache, batch, args.concurrency, tokenizer
            )
            print(
                f"warm: wall {wall2:.3f} s from the cache, sent {sent2}, "
                f"cache hits {usage2['cache_hits']}"
            )
            assert sent2 == 0 and all(r.cached for r in results2)
    finally:
        server.stop()
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
