"""``longnovel evaluate``: a configured model as a hallucination detector over exported samples.

Each sample becomes one chat request: the sample's ``instruction`` as the system message (with a
reasoning paragraph appended for ``--prompt cot``) and its ``input`` as the user message. The
reply is parsed leniently (JSON, repaired; else a ``score`` found in the text); an unusable
reply is a failure, kept with its raw text and left out of the metrics. Positive class:
hallucinated (score below 3).

Repeats. The request cache is keyed by the model's reply-deciding settings and the messages, so
N identical runs would be served from one cached reply. Repeat 0 is the plain request (it shares
the cache with a single run); repeat r >= 1 differs in what the server sees, reproducibly:

- ``openai`` provider (OpenAI, vLLM and other compatible servers): ``seed: r`` is added to the
  request body (``extra_body``, which is part of the cache key). The prompt is untouched, so at
  temperature 0 the repeats agree and the spread measures the model's sampling only.
- other providers (zhipuai, transformers), where a ``seed`` parameter is not portable: a marker
  line ``(evaluation run r+1)`` is appended to the system message.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from longnovel.errors import LongnovelError
from longnovel.release.review import exported_rows, parse_types
from longnovel.taxonomy import TYPE_IDS, is_hallucinated
from longnovel.templates import load_prompt

PROMPTS = ("plain", "cot")
SCALARS = ["accuracy", "balanced_accuracy", "precision", "recall", "f1", "score_mae"]
SCORE_IN_TEXT = re.compile(r"score\W{0,5}([0-5])\b", re.IGNORECASE)
LAST_OBJECT = re.compile(r"\{[^{}]*\}", re.DOTALL)
EXPECTED_COMPLETION = {"plain": 120, "cot": 600}
REPEAT_ALIAS = "~repeat"  # "<model>~repeat<r>": the model config of repeat r (openai)


@dataclass
class Prediction:
    """A parsed detector reply; ``error`` names why it could not be used."""

    score: int | None = None
    types: list[str] = field(default_factory=list)
    error: str | None = None
    raw: str = ""


# -- requests ---------------------------------------------------------------------------------


def cot_suffix(language: str) -> str:
    """The reasoning request appended for ``--prompt cot``."""
    return load_prompt("evaluate_cot", language)


def repeat_models(models: dict, name: str, repeats: int) -> tuple[dict, list[str], bool]:
    """Model configs per repeat: (models with aliases added, alias per repeat, uses markers)."""
    if name not in models:
        known = ", ".join(sorted(models)) or "none"
        raise LongnovelError(f"--model {name}: not configured under models: (configured: {known})")
    base = models[name]
    if base.provider != "openai":
        return dict(models), [name] * repeats, True
    merged, aliases = dict(models), [name]
    for r in range(1, repeats):
        seed = int(base.extra_body.get("seed", 0)) + r
        alias = f"{name}{REPEAT_ALIAS}{r}"
        merged[alias] = base.model_copy(update={"extra_body": {**base.extra_body, "seed": seed}})
        aliases.append(alias)
    return merged, aliases, False


def messages_for(row: dict, prompt: str, repeat: int, marker: bool) -> list[dict]:
    """System: the sample's instruction (+ reasoning request, + repeat marker); user: input."""
    system = row["instruction"]
    if prompt == "cot":
        system += "\n\n" + cot_suffix(row["language"])
    if marker and repeat:
        system += f"\n\n(evaluation run {repeat + 1})"
    return [{"role": "system", "content": system}, {"role": "user", "content": row["input"]}]


def select_samples(run_dir: Path, tiers: list[str] | None, split: str) -> list[dict]:
    """The exported samples of ``split`` in ``tiers`` (all exported tiers by default)."""
    rows = exported_rows(run_dir, split=split)
    if tiers:
        missing = sorted(set(tiers) - {r["tier"] for r in rows})
        if missing:
            raise LongnovelError(f"no exported {split} samples for tier(s) {missing}")
        rows = [r for r in rows if r["tier"] in tiers]
    return rows


def plan_requests(run_dir: Path, models: dict, name: str, tiers: list[str] | None,
                  split: str = "test", repeats: int = 1, prompt: str = "plain") -> list:
    """What ``evaluate`` would send, as PlannedRequests (for ``plan`` and ``--dry-run``)."""
    from longnovel.llm import PlannedRequest

    _, _, marker = repeat_models(models, name, repeats)
    expected = min(EXPECTED_COMPLETION[prompt], models[name].max_tokens)
    rows = select_samples(run_dir, tiers, split)
    return [PlannedRequest("evaluate", name, messages_for(row, prompt, r, marker), expected)
            for r in range(repeats) for row in rows]


# -- parsing ----------------------------------------------------------------------------------


def _json_object(text: str) -> dict | None:
    from longnovel.llm import ReplyError, parse_json_reply, strip_think

    try:
        value = parse_json_reply(text, dict)
        if "score" in value:
            return value
    except ReplyError:
        pass
    for block in reversed(LAST_OBJECT.findall(strip_think(text))):  # reasoning, then JSON
        try:
            value = parse_json_reply(block, dict)
        except ReplyError:
            continue
        if "score" in value:
            return value
    return None


def _score(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return round(value) if 0 <= value <= 5 else None
    found = re.search(r"-?\d+(?:\.\d+)?", str(value))
    return _score(float(found.group())) if found else None


def _types(value) -> list[str]:
    if value is None:
        return []
    names = value if isinstance(value, list) else [value]
    ids: list[str] = []
    for name in names:
        known, unknown = parse_types(str(name))
        ids += [t for t in known + ["unknown"] * bool(unknown) if t not in ids]
    return ids


def parse_judgment(text: str) -> Prediction:
    """Score and types from a detector reply, leniently; types only when the score is below 3."""
    obj = _json_object(text)
    if obj is None:
        found = SCORE_IN_TEXT.search(text)
        if not found:
            return Prediction(error="no_score", raw=text)
        return Prediction(score=int(found.group(1)), raw=text)
    score = _score(obj.get("score"))
    if score is None:
        return Prediction(error="bad_score", raw=text)
    named = obj.get("hallucination_types", obj.get("types"))
    types = _types(named) if is_hallucinated(score) else []
    return Prediction(score=score, types=types, raw=text)


# -- metrics ----------------------------------------------------------------------------------


def _ratio(num: float, den: float) -> float:
    return round(num / den, 4) if den else 0.0


def detection_metrics(golds: list[dict], preds: list[Prediction]) -> dict:
    """Binary detection, score MAE and per-type recall over the answered samples.

    Undefined ratios (no predicted positives, say) are 0.0; balanced accuracy is the mean
    recall of the classes present among the answered samples.
    """
    pairs = [(g, p) for g, p in zip(golds, preds) if p.error is None]
    c = {"tp": 0, "fp": 0, "tn": 0, "fn": 0}
    for gold, pred in pairs:
        truth, guess = is_hallucinated(gold["score"]), is_hallucinated(pred.score)
        c[("t" if truth == guess else "f") + ("p" if guess else "n")] += 1
    answered = len(pairs)
    recall = _ratio(c["tp"], c["tp"] + c["fn"])
    specificity = _ratio(c["tn"], c["tn"] + c["fp"])
    present = [v for v, n in ((recall, c["tp"] + c["fn"]), (specificity, c["tn"] + c["fp"])) if n]
    precision = _ratio(c["tp"], c["tp"] + c["fp"])
    return {
        "n": len(golds), "answered": answered, "failures": len(golds) - answered, **c,
        "accuracy": _ratio(c["tp"] + c["tn"], answered),
        "balanced_accuracy": round(statistics.fmean(present), 4) if present else 0.0,
        "precision": precision, "recall": recall,
        "f1": _ratio(2 * precision * recall, precision + recall),
        "score_mae": _ratio(sum(abs(g["score"] - p.score) for g, p in pairs), answered),
        "type_recall": type_recall(pairs),
    }


def type_recall(pairs: list[tuple[dict, Prediction]]) -> dict[str, dict]:
    """Per gold type, over hallucinated samples: share detected as hallucinated *and* typed so."""
    result = {}
    for type_id in TYPE_IDS:
        support = [(g, p) for g, p in pairs
                   if is_hallucinated(g["score"]) and type_id in g["hallucination_types"]]
        if support:
            hits = sum(is_hallucinated(p.score) and type_id in p.types for _, p in support)
            result[type_id] = {"recall": _ratio(hits, len(support)), "support": len(support)}
    return result


def group_keys(row: dict) -> list[str]:
    return ["all", row["tier"], f"{row['tier']}/{row['language']}"]


def metrics_by_group(rows: list[dict], preds: list[Prediction]) -> dict[str, dict]:
    """detection_metrics for ``all``, each tier, and each tier/language."""
    members: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        for key in group_keys(row):
            members.setdefault(key, []).append(i)
    return {key: detection_metrics([rows[i] for i in members[key]],
                                   [preds[i] for i in members[key]])
            for key in sorted(members, key=lambda k: (k != "all", k))}


def _spread(values: list[float]) -> dict:
    std = statistics.stdev(values) if len(values) > 1 else 0.0
    return {"mean": round(statistics.fmean(values), 4), "std": round(std, 4)}


def summarize_runs(runs: list[dict[str, dict]]) -> dict[str, dict]:
    """Mean and sample standard deviation over repeats, per group and metric."""
    summary = {}
    for key in runs[0]:
        per_run = [run[key] for run in runs]
        entry = {"n": per_run[0]["n"], "failures": _spread([m["failures"] for m in per_run])}
        entry.update({name: _spread([m[name] for m in per_run]) for name in SCALARS})
        types = sorted({t for m in per_run for t in m["type_recall"]}, key=TYPE_IDS.index)
        entry["type_recall"] = {t: _spread([m["type_recall"].get(t, {}).get("recall", 0.0)
                                            for m in per_run]) for t in types}
        summary[key] = entry
    return summary


# -- running ----------------------------------------------------------------------------------


@dataclass
class EvalOptions:
    model: str
    tiers: list[str] | None = None
    split: str = "test"
    repeats: int = 1
    prompt: str = "plain"


def run_evaluation(config, run_dir: Path, options: EvalOptions, tokenizer,
                   progress: bool = True) -> dict:
    """Send every request, parse the replies, write metrics, predictions and the heatmap."""
    from longnovel.llm import LLMRunner, Request

    if options.prompt not in PROMPTS:
        raise LongnovelError(f"--prompt must be one of {', '.join(PROMPTS)}")
    if options.repeats < 1:
        raise LongnovelError("--repeats must be at least 1")
    rows = select_samples(run_dir, options.tiers, options.split)
    models, aliases, marker = repeat_models(config.models, options.model, options.repeats)
    requests = [Request(f"{r}:{row['id']}", aliases[r], messages_for(row, options.prompt, r,
                                                                        marker), group=f"r{r}")
                for r in range(options.repeats) for row in rows]
    with LLMRunner(models, config.cache, tokenizer, stage="evaluate", progress=progress) as llm:
        results = llm.run(requests)
        usage = merged_usage(llm.usage())
    preds = [parse_judgment(res.text) if res.ok else Prediction(error=res.error, raw=res.raw)
             for res in results]
    runs = [metrics_by_group(rows, preds[r * len(rows):(r + 1) * len(rows)])
            for r in range(options.repeats)]
    report = {
        "model": options.model, "provider": config.models[options.model].provider,
        "model_id": config.models[options.model].model, "split": options.split,
        "tiers": sorted({r["tier"] for r in rows}), "prompt": options.prompt,
        "repeats": options.repeats, "repeat_variation": "marker" if marker else "seed",
        "positive": "hallucinated (score < 3)", "samples": len(rows),
        "summary": summarize_runs(runs), "runs": runs, "usage": usage,
        "failures_by_reason": dict(Counter(p.error for p in preds if p.error)),
        "export_fingerprint": _export_fingerprint(run_dir),
    }
    write_outputs(run_dir, options.model, report, rows, preds)
    return report


def merged_usage(usage: dict[str, dict]) -> dict[str, dict]:
    """Usage per model with the per-repeat aliases summed into their model."""
    merged: dict[str, dict] = {}
    for alias, counts in usage.items():
        target = merged.setdefault(alias.split(REPEAT_ALIAS)[0], {})
        for key, value in counts.items():
            if isinstance(value, (int, float)):
                target[key] = round(target.get(key, 0) + value, 6)
    return merged


def _export_fingerprint(run_dir: Path) -> str | None:
    from longnovel.pipeline import read_manifest

    return (read_manifest(Path(run_dir), "export") or {}).get("fingerprint")


def output_dir(run_dir: Path, model: str) -> Path:
    return Path(run_dir) / "evaluate" / re.sub(r"[^A-Za-z0-9._-]+", "_", model)


def write_outputs(run_dir: Path, model: str, report: dict, rows: list[dict],
                  preds: list[Prediction]) -> Path:
    """metrics.json, predictions.jsonl (raw replies kept) and heatmap.png, written atomically."""
    from longnovel.pipeline import atomic_write_bytes

    folder = output_dir(run_dir, model)
    text = json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    atomic_write_bytes(folder / "metrics.json", text.encode("utf-8"))
    lines = []
    for i, pred in enumerate(preds):
        row = rows[i % len(rows)]
        lines.append(json.dumps({"repeat": i // len(rows), "id": row["id"], "tier": row["tier"],
                                 "language": row["language"], "gold_score": row["score"],
                                 "gold_types": row["hallucination_types"], **asdict(pred)},
                                ensure_ascii=False))
    atomic_write_bytes(folder / "predictions.jsonl", ("\n".join(lines) + "\n").encode("utf-8"))
    plot_heatmap(report, folder / "heatmap.png")
    return folder


def plot_heatmap(report: dict, path: Path) -> None:
    """Tiers x types: mean per-type recall on hallucinated samples (blank: no such samples)."""
    from longnovel.stats import pyplot, save_figure

    plt = pyplot()
    tiers = report["tiers"]
    cells = [[report["summary"][t]["type_recall"].get(k, {}).get("mean", float("nan"))
              for k in TYPE_IDS] for t in tiers]
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.5 * max(1, len(tiers))))
    image = ax.imshow(cells or [[float("nan")] * len(TYPE_IDS)], vmin=0, vmax=1, cmap="viridis",
                      aspect="auto")
    ax.set_xticks(range(len(TYPE_IDS)), TYPE_IDS, rotation=30, ha="right")
    ax.set_yticks(range(len(tiers)), tiers)
    for y, row in enumerate(cells):
        for x, value in enumerate(row):
            if not math.isnan(value):
                ax.text(x, y, f"{value:.2f}", ha="center", va="center", fontsize=8, color="w")
    ax.set_title(f"{report['model']}: per-type recall ({report['split']})")
    fig.colorbar(image, ax=ax)
    save_figure(fig, path)


def metrics_table(report: dict) -> str:
    """The summary as an aligned text table (mean ± std when there are repeats)."""
    from longnovel.checks import table

    def cell(entry) -> str:
        if report["repeats"] == 1:
            return f"{entry['mean']:.3f}"
        return f"{entry['mean']:.3f}±{entry['std']:.3f}"

    rows = []
    for group, entry in report["summary"].items():
        failures = entry["failures"]["mean"]
        rows.append({"group": group, "n": entry["n"],
                     "failures": f"{failures:g}" if report["repeats"] == 1 else cell(entry["failures"]),
                     **{name: cell(entry[name]) for name in SCALARS}})
    return table(rows, ["group", "n", "failures", *SCALARS])
