"""Prefill tokens under prefix caching: arbitrate's article-first prompts vs the naive layout.

For the windows of a config (default: configs/fixture.yaml over the bundled sample corpus),
builds every request of an arbitration run with three models (each summarizes every window and
judges the two other summaries), renders each with the Qwen3 chat template (thinking off) and
tokenizes it with the Qwen3 tokenizer. A prefix-caching server is modelled per model as a cache
holding every prompt it has seen: a request only prefills the tokens after its longest common
prefix with an earlier prompt, counted in whole cache blocks (``--block``: 16 is vLLM's default
block size, 1 models SGLang's radix cache). Requests are taken in the order the stage sends
them (summaries round, then judgments round, window by window).

Two layouts of the same requests are compared:

- article first (longnovel): system message, then the article, then the task;
- task first (naive): system message, then the task (instructions, reference, the summary under
  check), then the article.

The judgments need summaries that do not exist before a run; each model's summary is stood in
for by the reference summary tagged with the model's name (same length, different text).

    python bench/prefix.py [--config configs/fixture.yaml] [--block 16]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
MODELS = ["glm-4-9b-chat", "qwen3-32b", "gpt-4o"]
LAYOUTS = ["article_first", "task_first"]


def render_qwen3(messages: list[dict]) -> str:
    """The Qwen3 chat template with ``enable_thinking: false``, generation prompt included."""
    turns = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
    return turns + "<|im_start|>assistant\n<think>\n\n</think>\n\n"


def load_windows(config_path: Path) -> list[dict]:
    """The config's windows, built by ingest and expand in a temporary run directory."""
    from longnovel.config import load_config
    from longnovel.pipeline import Pipeline

    config = load_config(config_path)
    with tempfile.TemporaryDirectory() as tmp:
        config.run_dir = tmp
        Pipeline(config, progress=False).build(until="expand", log=lambda _: None)
        import pyarrow.parquet as pq

        return pq.read_table(Path(tmp) / "expand/windows.parquet").to_pylist()


def run_requests(windows: list[dict]) -> list[tuple[str, object]]:
    """(model, Prompt) of every request, in the stage's order."""
    from longnovel.arbitration.prompts import judge_prompt, summary_prompt

    order = []
    for w in windows:
        prompt = summary_prompt(w["article"], w["reference_summary"], w["language"])
        order += [(model, prompt) for model in MODELS]
    for w in windows:
        for judge in MODELS:
            for author in (m for m in MODELS if m != judge):
                stand_in = f"[{author}] {w['reference_summary']}"
                order.append((judge, judge_prompt(w["article"], stand_in, w["language"],
                                                  w["reference_summary"])))
    return order


def common_prefix(a: np.ndarray, b: np.ndarray) -> int:
    n = min(len(a), len(b))
    differ = np.flatnonzero(a[:n] != b[:n])
    return int(differ[0]) if len(differ) else n


def prefill(sequences: list[np.ndarray], block: int) -> int:
    """Tokens computed when each sequence reuses its longest cached prefix (whole blocks)."""
    seen: list[np.ndarray] = []
    computed = 0
    for seq in sequences:
        best = max((common_prefix(seq, old) for old in seen), default=0)
        cached = min(best // block * block, len(seq) - 1)  # the last token is always computed
        computed += len(seq) - max(cached, 0)
        seen.append(seq)
    return computed


def measure(windows: list[dict], block: int) -> list[dict]:
    from longnovel.tokenizer import load_tokenizer

    backend = load_tokenizer("qwen3").backend
    requests = run_requests(windows)
    rows = []
    for model in MODELS:
        prompts = [p for m, p in requests if m == model]
        row = {"model": model, "requests": len(prompts)}
        for layout in LAYOUTS:
            texts = [render_qwen3(p.messages(layout)) for p in prompts]
            encoded = backend.encode_batch_fast(texts, add_special_tokens=False)
            sequences = [np.asarray(e.ids, dtype=np.int64) for e in encoded]
            row.setdefault("prompt_tokens", sum(len(s) for s in sequences))  # article first
            row[layout] = prefill(sequences, block)
        rows.append(row)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=ROOT / "configs/fixture.yaml")
    parser.add_argument("--block", type=int, default=16)
    args = parser.parse_args()
    windows = load_windows(args.config)
    rows = measure(windows, args.block)
    print(f"{len(windows)} windows of {args.config}, {len(MODELS)} models, "
          f"cache block {args.block} token(s)")
    print(f"{'model':<15}{'requests':>9}{'prompt tok':>12}{'article-first':>15}"
          f"{'task-first':>12}{'ratio':>7}")
    for row in [*rows, {"model": "total", **{k: sum(r[k] for r in rows) for k in
                                              ("requests", "prompt_tokens", *LAYOUTS)}}]:
        ratio = row["task_first"] / row["article_first"]
        print(f"{row['model']:<15}{row['requests']:>9}{row['prompt_tokens']:>12}"
              f"{row['article_first']:>15}{row['task_first']:>12}{ratio:>6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
