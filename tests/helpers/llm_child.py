"""Child process of the SIGKILL test: run N requests against a server, caching in a file.

Usage: PYTHONPATH=tests python tests/helpers/llm_child.py BASE_URL CACHE_PATH N CONCURRENCY
"""

import sys

from helpers.llm import WordTokenizer
from longnovel.llm import LLMRunner, ModelConfig, Request


def batch(n: int) -> list[Request]:
    return [
        Request(f"r{i}", "m", [{"role": "user", "content": f"request {i}"}], group=f"g{i}")
        for i in range(n)
    ]


def main() -> None:
    base_url, cache_path, n, concurrency = (
        sys.argv[1],
        sys.argv[2],
        int(sys.argv[3]),
        int(sys.argv[4]),
    )
    models = {
        "m": ModelConfig(
            provider="openai", model="fake", base_url=base_url, max_concurrency=concurrency
        )
    }
    with LLMRunner(models, cache_path, WordTokenizer(), "kill-test", progress=False) as runner:
        results = runner.run(batch(n))
    print(sum(r.ok for r in results))


if __name__ == "__main__":
    main()
