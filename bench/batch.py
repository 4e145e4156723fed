"""Batch mode's client-side cost: N requests through LLMRunner in batch mode against the fake
files + batches server, versus a minimal batch client doing the same calls.

The minimal client writes the same JSONL lines, uploads them with the same SDK, creates the
batch, polls at the same interval, downloads the output file and parses every line: no cache,
no records, no interpretation. Both run against tests/helpers/fake_llm.py in its own process
(a batch completes at its second poll), so the server's work is in both times and the ratio
shows what longnovel adds (the context guard, cache lookups and the cache's one commit per
batch, the batch records, accounting). The SDK is imported before timing. A second longnovel
run checks that nothing reaches the server (every request is a cache hit).

    python bench/batch.py [--provider openai|zhipuai] [--requests 10000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from llm import ServerProcess, build_requests

from longnovel.llm import LLMRunner, ModelConfig
from longnovel.llm.providers.batch_api import CHAT_URL
from longnovel.tokenizer import load_tokenizer

POLL_S = 0.05


def model(server: ServerProcess, provider: str) -> ModelConfig:
    return ModelConfig(provider=provider, model="fake", base_url=server.base_url,
                       mode="batch", batch_poll_s=POLL_S, max_tokens=256)


def longnovel_run(server, provider, cache: Path, requests, tokenizer) -> tuple[float, int, list]:
    """(wall seconds, batch calls the server received, results) of one LLMRunner run."""
    models = {"bench": model(server, provider)}
    with LLMRunner(models, cache, tokenizer, "bench", progress=False) as runner:
        before = server.stats()["batch_calls"]
        started = time.perf_counter()
        results = runner.run(requests)
        wall = time.perf_counter() - started
    return wall, server.stats()["batch_calls"] - before, results


def minimal_client(provider: str, server: ServerProcess):
    if provider == "zhipuai":
        import zhipuai

        return zhipuai.ZhipuAI(api_key="EMPTY.EMPTY", base_url=server.base_url, max_retries=0)
    import openai

    return openai.OpenAI(api_key="EMPTY", base_url=server.base_url, max_retries=0)


def minimal_run(server, provider, requests) -> tuple[float, int]:
    """(wall seconds, replies) of the minimal batch client."""
    config = model(server, provider)
    started = time.perf_counter()
    client = minimal_client(provider, server)
    lines = []
    for i, request in enumerate(requests):
        body = {"model": config.model, "messages": request.messages,
                "temperature": config.temperature, "max_tokens": config.max_tokens}
        lines.append(json.dumps({"custom_id": f"r{i}", "method": "POST",
                                 "url": CHAT_URL[provider], "body": body},
                                ensure_ascii=False))
    data = ("\n".join(lines) + "\n").encode("utf-8")
    file = client.files.create(file=("in.jsonl", data, "application/jsonl"), purpose="batch")
    batch = client.batches.create(input_file_id=file.id, endpoint=CHAT_URL[provider],
                                  completion_window="24h")
    while batch.status not in ("completed", "failed", "expired", "cancelled"):
        time.sleep(POLL_S)
        batch = client.batches.retrieve(batch.id)
    output = client.files.content(batch.output_file_id).content
    texts = {}
    for raw in output.splitlines():
        line = json.loads(raw)
        texts[line["custom_id"]] = line["response"]["body"]["choices"][0]["message"]["content"]
    wall = time.perf_counter() - started
    client.close()
    return wall, len(texts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--provider", default="openai", choices=["openai", "zhipuai"])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    importlib.import_module(args.provider)
    tokenizer = load_tokenizer("qwen3")
    server = ServerProcess(0.0)
    ours, theirs = [], []
    try:
        for repeat in range(args.repeats):
            requests = build_requests(args.requests)
            for request in requests:  # new prompts each repeat: nothing cached
                request.messages[-1]["content"] += f" (repeat {repeat})"
            wall, replies = minimal_run(server, args.provider, requests)
            theirs.append(wall)
            with tempfile.TemporaryDirectory() as tmp:
                cache = Path(tmp) / "bench.sqlite"
                wall, calls, results = longnovel_run(server, args.provider, cache, requests,
                                                     tokenizer)
                assert all(r.ok for r in results) and replies == len(results)
                ours.append(wall)
                warm, warm_calls, again = longnovel_run(server, args.provider, cache, requests,
                                                        tokenizer)
                assert warm_calls == 0 and all(r.cached for r in again)
            print(f"repeat {repeat}: minimal client {theirs[-1]:.3f} s, longnovel "
                  f"{ours[-1]:.3f} s ({calls} batch calls), re-run {warm:.3f} s with "
                  f"{warm_calls} calls")
    finally:
        server.stop()
    print(f"{args.provider}, {args.requests} requests in batch mode: best minimal "
          f"{min(theirs):.3f} s, best longnovel {min(ours):.3f} s, ratio "
          f"{min(ours) / min(theirs):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
