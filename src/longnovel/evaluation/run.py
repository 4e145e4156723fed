"""``longnovel evaluate``: one configured model as a detector over one dataset.

Outputs go to ``<run_dir>/evaluate/<dataset>/<run>/``: ``<dataset>`` is ``export-<split>``
or ``<file stem>-<path hash>`` for ``--data``; ``<run>`` is ``model[+cot][+summary-first]``,
so every (model, prompt, order) combination has its own folder, and its own cached requests.
A built-in detector (``baseline:NAME``, see ``baselines``) runs in-process instead of through
the LLM runner; its folder is ``baseline_NAME`` whatever the prompt and order.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from longnovel.evaluation.datasets import Dataset
from longnovel.evaluation.parsing import Prediction, parse_judgment
from longnovel.evaluation.report import build_metrics
from longnovel.evaluation.requests import (
    REPEAT_ALIAS,
    build_requests,
    check_modes,
    repeat_models,
    run_name,
)

FOLDER = "evaluate"


@dataclass
class EvalOptions:
    """One run's settings: the model, the prompt ablations, repeats and the bootstrap."""

    model: str
    repeats: int = 1
    prompt: str = "plain"
    order: str = "article-first"
    resamples: int = 1000
    seed: int = 13

    @property
    def name(self) -> str:
        from longnovel.evaluation.baselines import is_baseline

        if is_baseline(self.model):  # reads the article and summary, never a prompt
            return run_name(self.model, "plain", "article-first")
        return run_name(self.model, self.prompt, self.order)


def dataset_dir(run_dir: Path, dataset: Dataset | str) -> Path:
    """Where the runs over one dataset live."""
    name = dataset if isinstance(dataset, str) else dataset.name
    return Path(run_dir) / FOLDER / name


def output_dir(run_dir: Path, dataset: Dataset, options: EvalOptions) -> Path:
    return dataset_dir(run_dir, dataset) / options.name


def merged_usage(usage: dict[str, dict]) -> dict[str, dict]:
    """Usage per model with the per-repeat aliases summed into their model."""
    merged: dict[str, dict] = {}
    for alias, counts in usage.items():
        target = merged.setdefault(alias.split(REPEAT_ALIAS)[0], {})
        for key, value in counts.items():
            if isinstance(value, (int, float)):
                target[key] = round(target.get(key, 0) + value, 6)
    return merged


def ask(config, dataset: Dataset, options: EvalOptions, tokenizer,
        progress: bool) -> tuple[list[list[Prediction]], dict]:
    """Send (or read from the cache) every request; predictions per repeat and row, usage."""
    from longnovel.llm import LLMRunner

    models, aliases, marker = repeat_models(config.models, options.model, options.repeats)
    requests = build_requests(dataset.rows, aliases, options.prompt, options.order, marker)
    with LLMRunner(models, config.cache, tokenizer, stage="evaluate", progress=progress) as llm:
        results = llm.run(requests)
        usage = merged_usage(llm.usage())
    preds = [[Prediction()] * len(dataset.rows) for _ in aliases]
    for request, res in zip(requests, results, strict=True):
        repeat, row = (int(part) for part in request.key.split(":"))
        preds[repeat][row] = (parse_judgment(res.text) if res.ok
                              else Prediction(error=res.error, raw=res.raw))
    return preds, usage


def fitting_rows(config, run_dir: Path, dataset: Dataset, tokenizer) -> list[dict]:
    """Labelled samples a learned baseline may fit on: the export's splits other than the
    evaluated one and ``test``, in the evaluated tiers (none for a ``--data`` file)."""
    from longnovel.errors import LongnovelError
    from longnovel.evaluation.datasets import TierRule, load_export

    if dataset.origin.get("kind") != "export":
        return []
    rule = TierRule(dict(config.tiers), config.window.below, config.window.above)
    tiers, rows = set(dataset.tiers()), []
    for split in config.export.splits:
        if split in (dataset.origin["split"], "test"):
            continue
        try:
            other = load_export(run_dir, split, rule, tokenizer)
        except LongnovelError:  # nothing exported for this split
            continue
        rows += [row for row in other.rows if row["tier"] in tiers]
    return rows


def ask_baseline(config, run_dir: Path, dataset: Dataset, options: EvalOptions, tokenizer,
                 progress: bool) -> tuple[list[list[Prediction]], dict]:
    """Predictions of a built-in detector, and what it did (no request, no usage)."""
    from longnovel.evaluation.baselines import predict

    extra = fitting_rows(config, run_dir, dataset, tokenizer)
    return predict(options.model, dataset.rows, extra, options.repeats, options.seed, progress)


def describe_detector(config, options: EvalOptions) -> dict:
    """The report's fields naming the detector."""
    from longnovel.evaluation.baselines import is_baseline

    if is_baseline(options.model):
        return {"provider": "builtin", "model_id": options.model, "prompt": None,
                "order": None, "repeat_variation": "seed"}
    model = config.models[options.model]
    return {"provider": model.provider, "model_id": model.model, "prompt": options.prompt,
            "order": options.order,
            "repeat_variation": "seed" if model.provider == "openai" else "marker"}


def usage_totals(usage: dict[str, dict]) -> dict:
    """Requests, cache hits, tokens and cost summed over models."""
    keys = ("requests", "cache_hits", "failures", "prompt_tokens", "completion_tokens", "cost")
    return {k: round(sum(u.get(k, 0) for u in usage.values()), 6) for k in keys}


def run_evaluation(config, run_dir: Path, dataset: Dataset, options: EvalOptions, tokenizer,
                   progress: bool = True) -> dict:
    """Evaluate, then write metrics.json, predictions.jsonl and heatmap.png; returns the report."""
    from longnovel.evaluation.baselines import is_baseline

    check_modes(options.prompt, options.order, options.repeats)
    baseline = None
    if is_baseline(options.model):
        preds, baseline = ask_baseline(config, run_dir, dataset, options, tokenizer, progress)
        usage: dict = {}
    else:
        preds, usage = ask(config, dataset, options, tokenizer, progress)
    tiers = dataset.tiers()
    report = {
        "run": options.name, "model": options.model, **describe_detector(config, options),
        "dataset": dataset.name, "data": dataset.origin, "repeats": options.repeats,
        "positive": "hallucinated (score < 3)", "samples": len(dataset.rows), "tiers": tiers,
        "bootstrap": {"resamples": options.resamples, "seed": options.seed, "level": 0.95},
        **build_metrics(dataset.rows, preds, tiers, options.resamples, options.seed),
        "unmapped_types": dataset.unmapped_types,
        "failures_by_reason": dict(Counter(p.error for run in preds for p in run if p.error)),
        "usage": usage, "totals": usage_totals(usage),
    }
    if baseline is not None:
        report["baseline"] = baseline
    write_outputs(output_dir(run_dir, dataset, options), report, dataset.rows, preds)
    return report


def prediction_lines(rows: list[dict], preds: list[list[Prediction]]) -> list[str]:
    """One JSON line per repeat and sample: gold, parsed reply and the raw reply."""
    lines = []
    for repeat, run in enumerate(preds):
        for row, pred in zip(rows, run, strict=True):
            lines.append(json.dumps({
                "repeat": repeat, "id": row["id"], "tier": row["tier"],
                "language": row["language"], "source": row["source"],
                "gold_score": row["score"], "gold_types": row["hallucination_types"],
                **asdict(pred)}, ensure_ascii=False))
    return lines


def write_outputs(folder: Path, report: dict, rows: list[dict],
                  preds: list[list[Prediction]]) -> Path:
    """metrics.json, predictions.jsonl (raw replies kept) and heatmap.png, written atomically."""
    from longnovel.evaluation.plots import plot_run_heatmap
    from longnovel.state import atomic_write_bytes

    text = json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    atomic_write_bytes(folder / "metrics.json", text.encode("utf-8"))
    lines = "\n".join(prediction_lines(rows, preds)) + "\n"
    atomic_write_bytes(folder / "predictions.jsonl", lines.encode("utf-8"))
    plot_run_heatmap(report, folder / "heatmap.png")
    return folder
