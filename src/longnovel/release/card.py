"""The dataset card (export/README.md) and the counts in export/stats.json."""

from __future__ import annotations

from collections import Counter, defaultdict

import yaml

from longnovel.config import Config
from longnovel.release.books import books_section, card_license


def _count(rows: list[dict], *keys: str) -> dict:
    """Nested counts of rows by ``keys`` (types are counted once per listed type)."""
    counts: dict = defaultdict(Counter) if len(keys) == 2 else Counter()
    for row in rows:
        values = [row[k] for k in keys]
        if keys[-1] == "hallucination_types":
            for t in row["hallucination_types"]:
                _bump(counts, values[:-1] + [t])
        else:
            _bump(counts, values)
    return {k: dict(v) if isinstance(v, Counter) else v for k, v in sorted(counts.items())}


def _bump(counts, values: list[str]) -> None:
    if len(values) == 1:
        counts[values[0]] += 1
    else:
        counts[values[0]][values[1]] += 1


def export_stats(rows: list[dict], tiers: list[str] | None = None,
                 languages: list[str] | None = None) -> dict:
    """Counts per tier, language, split, source, label and type; every tier of ``tiers`` and
    language of ``languages`` has its counts, zeros included, so an empty tier shows."""
    stats = _counts(rows)
    for tier in tiers or []:
        stats["by_tier"].setdefault(tier, 0)
        per_language = stats["by_tier_language"].setdefault(tier, {})
        for language in languages or []:
            per_language.setdefault(language, 0)
    if tiers:
        order = {t: i for i, t in enumerate(tiers)}
        for key in ("by_tier", "by_tier_language"):
            stats[key] = dict(sorted(stats[key].items(), key=lambda kv: order.get(kv[0], 99)))
    return stats


def _counts(rows: list[dict]) -> dict:
    return {
        "samples": len(rows),
        "books": len({r["book_id"] for r in rows}),
        "reviewed": sum(bool(r.get("reviewed")) for r in rows),
        "by_tier": _count(rows, "tier"),
        "by_language": _count(rows, "language"),
        "by_split": _count(rows, "split"),
        "by_source": _count(rows, "source"),
        "by_label": _count(rows, "label"),
        "by_type": _count(rows, "hallucination_types"),
        "by_tier_source": _count(rows, "tier", "source"),
        "by_tier_language": _count(rows, "tier", "language"),
        "by_tier_type": _count(rows, "tier", "hallucination_types"),
        "by_tier_language_label": _count(
            [{**r, "cell": f"{r['tier']}/{r['language']}"} for r in rows], "cell", "label"),
    }


ALL_TIERS = "default"  # the config over every tier, loaded when no config is named


def data_configs(files: list[str]) -> list[dict]:
    """The card's ``configs``: one over every tier (the default, one glob per split) and one
    per tier, each with a data file per split."""
    per_tier: dict[str, list] = {}
    splits: list[str] = []
    for path in files:
        tier, split = path.removesuffix(".parquet").split("/")
        per_tier.setdefault(tier, []).append({"split": split, "path": path})
        splits += [split] if split not in splits else []
    name = ALL_TIERS if ALL_TIERS not in per_tier else "all_tiers"
    everything = {"config_name": name, "default": True,
                  "data_files": [{"split": s, "path": f"*/{s}.parquet"} for s in splits]}
    return [everything] + [{"config_name": t, "data_files": d} for t, d in per_tier.items()]


def _header(stats: dict, files: list[str], books: dict[str, dict]) -> str:
    header = {
        "language": sorted(stats["by_language"]),
        **card_license(books),
        "pretty_name": "LongNovel-style hallucination detection benchmark",
        "task_categories": ["text-classification", "summarization"],
        "tags": ["hallucination-detection", "long-context", "novels"],
        "configs": data_configs(files),
    }
    return "---\n" + yaml.safe_dump(header, sort_keys=False, allow_unicode=True) + "---\n"


def _table(title: str, counts: dict, columns: list[str]) -> str:
    lines = [f"| {title} | " + " | ".join(columns) + " |",
             "|---" * (len(columns) + 1) + "|"]
    for key, row in counts.items():
        lines.append(f"| {key} | " + " | ".join(str(row.get(c, 0)) for c in columns) + " |")
    return "\n".join(lines)


def _with_share(counts: dict) -> dict:
    out = {}
    for key, labels in counts.items():
        total = sum(labels.values())
        share = labels.get("hallucinated", 0) / total if total else 0.0
        out[key] = {**labels, "hallucinated share": f"{share:.0%}"}
    return out


COLUMN_DOCS = [
    ("id", "stable sample id (same sample, same id across re-runs)"),
    ("window_id", ("the window the article comes from: a window's human summary and its "
                   "injected and LLM-written copies share it")),
    ("language", "`zh` or `en`"), ("tier", "length tier"), ("split", "split, made by book"),
    ("book_id", "book identifier"), ("title", "book title"),
    ("n_tokens", "article length in tokenizer tokens"), ("article", "the window of the book"),
    ("summary", "the summary to judge"), ("source", "`human`, `arbitration` or `injection`"),
    ("generator", "who wrote or changed the summary"),
    ("label", "`hallucinated` (score below 3) or `consistent`"), ("score", "gold score 0-5"),
    ("hallucination_types", "list of type ids, empty unless hallucinated"),
    ("reason", "why the gold judgment holds"), ("subtype", "injected sub-type, else empty"),
    ("instruction", "the detection prompt in the sample's language"),
    ("input", "article, a line `Summary:` / `摘要：`, the summary"),
    ("output", "gold judgment as JSON: score, hallucination_types (if hallucinated), reason"),
    ("reviewed", "true when a human review corrected or confirmed the sample"),
    ("review_note", "the reviewer's note"),
    ("evidence", "injections: the article passage the reason rests on (text of `article`), "
                 "else empty"),
    ("evidence_start", "offset of `evidence` in `article` (characters), -1 without one"),
    ("evidence_end", "end offset of `evidence` in `article`, -1 without one"),
]


def audit_section(audit: dict | None) -> str:
    """The card's account of ``longnovel audit`` (empty when it has not run)."""
    if audit is None:
        return ""
    groups = audit.get("group_by", "book")
    head = ("## Article-free audit\n\n`longnovel audit`: a classifier that never sees the "
            f"article (character n-grams, folds grouped by {groups}) tries to tell each injected "
            "summary from its human original. Pair accuracy 0.5 means no shortcut; 1.0 means "
            "the injection is visible without reading the book.\n")
    if not audit["pairs"]:
        return head + "\nToo few books for grouped folds: no figure.\n"
    rows = {name: {"pairs": cell["pairs"], "summary": cell["pair_accuracy"],
                   "sentence": audit["sentence"]["by_type"].get(name, {}).get("pair_accuracy")}
            for name, cell in audit["summary"]["by_type"].items()}
    rows["all"] = {"pairs": audit["pairs"], "summary": audit["summary"]["all"]["pair_accuracy"],
                   "sentence": audit["sentence"]["all"]["pair_accuracy"]}
    return head + "\n" + _table("type", rows, ["pairs", "summary", "sentence"]) + "\n"


LOADING = """## Loading

```python
from datasets import load_dataset
ds = load_dataset("path/to/export")          # every tier (the default config)
s = load_dataset("path/to/export", "{tier}")   # one tier
```

### Why `article` is stored twice

`input` holds the article again, followed by the summary: with `instruction` and `output` it is
a ready prompt and answer (the official LongNovel release's layout), to send to a model or
fine-tune on as it is, while `article` and `summary` serve any other prompt layout. The cost is
`input`: Parquet stores each distinct `article` once per row group (dictionary encoding), so
`article` adds about one copy per window, but `input` differs on every row and makes most of
the files' size. Drop it with `ds.remove_columns("input")` when it is not needed; it is
`article + "\\n\\nSummary:\\n" + summary` (`摘要：` for Chinese).
"""


def dataset_card(config: Config, stats: dict, files: list[str], audit: dict | None = None,
                 books: dict[str, dict] | None = None) -> str:
    """The Hugging Face dataset card: YAML header (a default config over every tier, one per
    tier; the books' licence), what a sample is, how to load it, tables of counts, the books
    and their licences, the audit's figures when ``longnovel audit`` has run, config."""
    books = books or {}
    sources = sorted(stats["by_source"])
    types = sorted(stats["by_type"])
    parts = [
        _header(stats, files, books),
        "# LongNovel-style hallucination detection benchmark\n",
        ("Built with longnovel. Each sample pairs an *article* (a window of consecutive units "
        "of a book, sized to its tier in Qwen3 tokens) with a *summary* and a gold judgment: "
        "a consistency score 0–5 (below 3 is hallucinated), the hallucination types present "
        "and a reason. Sources: `human` (the reference summary, score 5), `arbitration` "
        "(LLM summaries labelled by cross-model verification), `injection` (the reference "
        "summary with one injected hallucination, score 2). Splits are by book.\n"),
        (f"Samples: {stats['samples']} from {stats['books']} books "
         f"({stats.get('reviewed', 0)} human-reviewed).\n"),
        LOADING.replace("{tier}", files[0].split("/")[0] if files else "S"),
        "## Columns\n",
        "| column | meaning |\n|---|---|\n"
        + "\n".join(f"| `{name}` | {doc} |" for name, doc in COLUMN_DOCS) + "\n",
        "## Samples per tier and source\n",
        _table("tier", stats["by_tier_source"], sources) + "\n",
        "## Samples per tier and language\n",
        _table("tier", stats["by_tier_language"],
               sorted({lang for counts in stats["by_tier_language"].values() for lang in counts}))
        + "\n",
        "## Label balance per tier and language\n",
        ("By default (`export.mix: balanced`) each tier and language keeps every sample of its "
         "smaller label and draws as many of the larger one, spread over books and types.\n"),
        _table("tier/language", _with_share(stats.get("by_tier_language_label", {})),
               ["consistent", "hallucinated", "hallucinated share"]) + "\n",
        "## Hallucination types per tier\n",
        (_table("tier", stats["by_tier_type"], types) if types else "No hallucinated samples.")
        + "\n",
        books_section(books),
        audit_section(audit),
        "## Files\n",
        "\n".join(f"- `{f}`" for f in files) + "\n",
        "## Config used\n",
        "```yaml\n" + yaml.safe_dump(config.as_written(), sort_keys=False,
                                     allow_unicode=True) + "```\n",
    ]
    return "\n".join(parts)
