"""Stage export: the release Parquet files and their counts (DESIGN.md section 12).

Human samples come from every window; arbitration and injection samples join when those stages
have written their files. Human reviews recorded by ``longnovel review import`` (in
``<run_dir>/reviews/reviews.jsonl``, outside every stage folder) are applied last: corrected
fields replace the gold ones and ``reviewed`` becomes true. The store's hash is part of the
fingerprint, so an import makes export stale. The dataset card, which also shows the audit (a
report), is written after export by the release step (``longnovel.release.publish``).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pyarrow as pa

from longnovel.config import Config
from longnovel.release.samples import (
    apply_mix,
    assign_splits,
    detection_input,
    human_samples,
    rows_by_file,
    sample_of,
)
from longnovel.stages.base import StageContext, StageResult

NAME = "export"
READS = ["expand/windows.parquet", "arbitrate/labels.parquet", "inject/injections.parquet",
         "ingest/units.parquet"]
CODE_VERSION = "10"
CHECKSUMS = "SHA256SUMS"  # in each tier's folder, in the format of `sha256sum`
LIGHT_WINDOW = ["window_id", "tier", "language", "book_id", "title", "n_tokens",
                "reference_summary"]
ROW_GROUP = 64  # rows of a release file per row group (each row holds a whole article)

COLUMNS = [
    ("id", pa.string()), ("window_id", pa.string()), ("language", pa.string()),
    ("tier", pa.string()),
    ("split", pa.string()), ("book_id", pa.string()), ("title", pa.string()),
    ("n_tokens", pa.int64()), ("article", pa.string()), ("summary", pa.string()),
    ("source", pa.string()), ("generator", pa.string()), ("label", pa.string()),
    ("score", pa.int64()), ("hallucination_types", pa.list_(pa.string())),
    ("reason", pa.string()), ("subtype", pa.string()), ("instruction", pa.string()),
    ("input", pa.string()), ("output", pa.string()), ("reviewed", pa.bool_()),
    ("review_note", pa.string()), ("evidence", pa.string()), ("evidence_start", pa.int64()),
    ("evidence_end", pa.int64()),
]
SCHEMA = pa.schema(COLUMNS)


def config_section(config: Config, state=None) -> dict:
    """The export settings, the seed, the detection prompt every sample carries, and the human
    reviews recorded in ``<run_dir>/reviews/`` (outside every stage folder: a new review makes
    export stale)."""
    from longnovel.release.review import store_hash
    from longnovel.templates import prompts_digest

    return {"export": config.export.model_dump(), "seed": config.seed,
            "prompts": prompts_digest("detect"),
            "reviews": store_hash(Path(config.run_dir))}


def light_windows(ctx: StageContext) -> dict[str, dict]:
    """The selected tiers' windows without their articles (``article`` is empty until a
    sample is written), keyed by window id; each sample keeps its window id in ``_window``."""
    return {w["window_id"]: {**w, "article": ""} for w in ctx.windows(LIGHT_WINDOW)}


def articles(ctx: StageContext):
    """Articles of ``expand/windows.parquet`` by window id, one row group read at a time (see
    ``StageContext.column``), so export never holds every article at once."""
    ids = ctx.read("expand/windows.parquet", ["window_id"]).column(0).to_pylist()
    rows = {window_id: number for number, window_id in enumerate(ids)}
    column = ctx.column("expand/windows.parquet", "article")
    return lambda window_id: column[rows[window_id]]


def with_article(row: dict, article_of, summaries=None) -> dict:
    """A release row with its window's article (``article_of(window_id)``) and, for an injected
    sample kept light, its summary (``summaries[row number]``), and the detection input built
    from them."""
    article = article_of(row["_window"])
    summary = row["summary"]
    if not summary and row.get("_summary") is not None and summaries is not None:
        summary = summaries[row["_summary"]]
    return {**row, "article": article, "summary": summary,
            "input": detection_input(article, summary, row["language"])}


def injection_samples(ctx: StageContext, windows: dict[str, dict]) -> list[dict]:
    if not ctx.exists("inject/injections.parquet"):
        return []
    samples = []
    # Not original_summary: inject wrote the reason and its evidence, and eight rows per
    # window would each hold their own copy of the window's reference summary.
    columns = ["window_id", "valid", "type", "subtype", "summary", "generator", "reason",
               "evidence", "evidence_start", "evidence_end"]
    for number, row in _valid_rows(ctx, "inject/injections.parquet", columns):
        window = windows.get(row["window_id"])
        if window is None:
            continue
        sample = sample_of(
            window, source="injection", generator=row["generator"], summary=row["summary"],
            score=2, types=[row["type"]], reason=row["reason"], subtype=row["subtype"],
            **{k: row[k] for k in ("evidence", "evidence_start", "evidence_end")})
        samples.append({**sample, "summary": "", "_summary": number})  # see ``write_files``
    return samples


def _valid_rows(ctx: StageContext, relpath: str, columns: list[str]):
    """(row number, row) of the rows of ``relpath`` whose ``valid`` is true, read a row
    batch at a time."""
    number = 0
    for batch in ctx.iter_batches(relpath, columns, batch_size=256):
        for row in batch.to_pylist():
            if row["valid"]:
                yield number, row
            number += 1


def arbitration_samples(ctx: StageContext, windows: dict[str, dict]) -> list[dict]:
    if not ctx.exists("arbitrate/labels.parquet"):
        return []
    samples = []
    columns = ["window_id", "label", "summary_model", "summary", "score",
               "hallucination_types", "reason"]
    for row in ctx.read("arbitrate/labels.parquet", columns).to_pylist():
        window = windows.get(row["window_id"])
        if row["label"] == "disputed" or window is None:
            continue
        samples.append(sample_of(
            window, source="arbitration", generator=row["summary_model"],
            summary=row["summary"], score=row["score"],
            types=row["hallucination_types"] or [], reason=row["reason"] or ""))
    return samples


def collect(ctx: StageContext) -> tuple[list[dict], int]:
    """All samples of the selected tiers without their articles (see ``light_windows``), and
    the number of windows they came from."""
    windows = light_windows(ctx)
    samples = human_samples(windows)
    samples += arbitration_samples(ctx, windows)
    samples += injection_samples(ctx, windows)
    return samples, len(windows)


def book_weights(ctx: StageContext) -> dict[tuple[str, str], int]:
    """(language, book) -> the book's kept tokens in ``ingest/units.parquet``: what splits
    are balanced on. It does not depend on which tiers are built, so a book's split (and a
    tier's samples) are the same whatever other tiers a build includes."""
    weights: Counter = Counter()
    for batch in ctx.iter_batches("ingest/units.parquet", ["language", "book_id", "n_tokens"],
                                  batch_size=4096):
        values = batch.to_pydict()
        for language, book, n in zip(values["language"], values["book_id"], values["n_tokens"],
                                    strict=True):
            weights[(language, book)] += int(n)
    return dict(weights)


def split_and_sample(ctx: StageContext, samples: list[dict]) -> list[dict]:
    """Give every sample its book's split, then apply the mix and cap per tier."""
    export = ctx.config.export
    splits = assign_splits(book_weights(ctx), export.splits, ctx.config.seed)
    rows: list[dict] = []
    for tier in ctx.selected_tiers():
        rng = random.Random(f"{ctx.config.seed}:export:{tier}")
        tier_rows = [s for s in samples if s["tier"] == tier]
        rows.extend(apply_mix(tier_rows, export.mix, export.max_per_tier, rng))
    for row in rows:
        row["split"] = splits[row["book_id"]]
    return rows


def write_files(ctx: StageContext, grouped: dict[str, list[dict]]) -> dict[str, str]:
    """Stream every release file, tier by tier and split by split, in row groups: a row's
    article and input exist only while its row group is being written. Return each tier's
    checksum file (``<tier>/SHA256SUMS``: one ``<sha256>  <file name>`` line per file of the
    tier, the format ``sha256sum -c`` checks)."""
    article_of = articles(ctx)
    summaries = None  # an injected sample keeps its row number until written, not its summary
    if ctx.exists("inject/injections.parquet"):
        summaries = ctx.column("inject/injections.parquet", "summary")
    sums: dict[str, list[str]] = {}
    for path, rows in grouped.items():
        writer = ctx.writer(path, SCHEMA, ROW_GROUP)
        writer.write_rows(with_article(row, article_of, summaries) for row in rows)
        tier, name = path.split("/", 1)
        sums.setdefault(tier, []).append(f"{writer.sha256()}  {name}\n")
    return {f"{tier}/{CHECKSUMS}": "".join(sorted(lines)) for tier, lines in sums.items()}


STAT_COLUMNS = ["tier", "language", "split", "book_id", "source", "label",
                "hallucination_types", "reviewed"]


def kept_rows(ctx: StageContext) -> list[dict]:
    """The counted columns of the release rows of tiers built before and kept (their files
    stay as they are), so the stats (and the card made from them) cover every built tier."""
    import pyarrow.parquet as pq

    rows = []
    folder = ctx.run_dir / NAME
    for tier in ctx.kept_tiers:
        for path in sorted((folder / tier).glob("*.parquet")):
            rows += pq.read_table(path, columns=STAT_COLUMNS).to_pylist()
    return rows


def run(ctx: StageContext) -> StageResult:
    from longnovel.release.card import export_stats
    from longnovel.release.review import apply_reviews, load_reviews

    samples, n_windows = collect(ctx)
    reviews = load_reviews(ctx.run_dir)
    rows, applied = apply_reviews(split_and_sample(ctx, samples), reviews)
    grouped = rows_by_file(rows)
    checksums = write_files(ctx, grouped)
    languages = sorted({source.language for source in ctx.config.corpus})
    kept = kept_rows(ctx)
    tiers = [t for t in ctx.config.tiers if t in ctx.selected_tiers() or t in ctx.kept_tiers]
    stats = export_stats(rows + kept, tiers, languages)
    files = {"stats.json": json.dumps(stats, indent=2, ensure_ascii=False) + "\n", **checksums}
    by_source = Counter(s["source"] for s in samples)
    return StageResult(files=files, rows_in=len(samples), rows_out=len(rows),
                       dropped={"sampled_out": len(samples) - len(rows)} if len(rows) < len(samples)
                       else {},
                       extra={"windows": n_windows, "samples_by_source": dict(by_source),
                              "samples_by_tier": stats["by_tier"],
                              "samples_by_tier_language": stats["by_tier_language"],
                              "reviews_applied": applied,
                              "reviews_not_exported": len(reviews) - applied})
