"""A build's LLM round in its own process, for the shared-cache tests.

Usage: PYTHONPATH=tests python tests/helpers/lease_child.py BASE_URL CACHE N CONCURRENCY GO

Waits until the file GO exists (so two children start together), runs N distinct requests
through a runner on the cache file CACHE, then prints one JSON line: results that are ok,
requests sent, cache hits.
"""

import json
import sys
import time
from pathlib import Path

from helpers.llm import WordTokenizer
from longnovel.llm import LLMRunner, ModelConfig, Request


def main() -> None:
    base_url, cache, n, concurrency, go = sys.argv[1:6]
    models = {"m": ModelConfig(provider="openai", model="fake", base_url=base_url,
                               max_concurrency=int(concurrency), timeout_s=60)}
    requests = [Request(f"r{i}", "m", [{"role": "user", "content": f"shared prompt {i}"}],
                        group=f"g{i}") for i in range(int(n))]
    with LLMRunner(models, cache, WordTokenizer(), "lease-test", progress=False,
                   lease_ttl_s=3600, lease_poll_s=0.05) as runner:
        print("ready", flush=True)
        while not Path(go).exists():
            time.sleep(0.01)
        results = runner.run(requests)
        usage = runner.usage()["m"]
    print(json.dumps({"ok": sum(r.ok for r in results), "requests": usage["requests"],
                      "cache_hits": usage["cache_hits"]}), flush=True)


if __name__ == "__main__":
    main()
