"""Datasets in the release format: a run's export, or a JSON, JSONL or Parquet file.

A file needs the official release's fields ``id, language, article, summary, instruction,
input, output`` (``output``: the gold judgment as JSON, with ``score`` and, below 3,
``hallucination_types`` named by id or by display name in either language). Our own columns are
used when present: ``score`` and ``hallucination_types`` instead of those in ``output``,
``tier``, ``n_tokens``, ``source``. Without a ``tier`` the tier is derived from the article's
token count; type names that do not map to a type id are counted, and kept as ``unknown``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from longnovel.errors import InputError, LongnovelError
from longnovel.evaluation.parsing import parse_score, parse_types
from longnovel.taxonomy import is_hallucinated

REQUIRED = ("id", "language", "article", "summary", "instruction", "input", "output")
FORMATS = {".json": "json", ".jsonl": "jsonl", ".parquet": "parquet"}


class DatasetError(InputError):
    """A dataset file that cannot be evaluated; the message names the file and row."""


@dataclass
class Dataset:
    """Samples to evaluate, normalized, and where they came from.

    Each row holds ``id, language, tier, n_tokens, article, summary, instruction, input, score,
    hallucination_types, source, book_id`` (None when the file has no such column) and
    ``window`` (the release's ``window_id``, else a hash of the article: samples sharing an
    article share a window).
    """

    name: str
    rows: list[dict]
    origin: dict
    unmapped_types: dict[str, int] = field(default_factory=dict)

    def tiers(self) -> list[str]:
        """Tier names, shortest articles first."""
        tokens: dict[str, list[int]] = {}
        for row in self.rows:
            tokens.setdefault(row["tier"], []).append(row["n_tokens"])
        return sorted(tokens, key=lambda t: (sum(tokens[t]) / len(tokens[t]), t))

    def select(self, tiers: list[str] | None) -> Dataset:
        """The samples of ``tiers`` (all when None); a tier without samples is an error."""
        if not tiers:
            return self
        missing = sorted(set(tiers) - {r["tier"] for r in self.rows})
        if missing:
            raise LongnovelError(f"{self.name}: no samples for tier(s) {missing} "
                                 f"(tiers present: {self.tiers()})")
        rows = [r for r in self.rows if r["tier"] in tiers]
        return Dataset(self.name, rows, self.origin, self.unmapped_types)


@dataclass(frozen=True)
class TierRule:
    """Tier of an article from its token count: the tier whose range [T - below, T + above]
    holds it, else the nearest target on a log scale."""

    targets: dict[str, int]
    below: int = 2000
    above: int = 4000

    def tier_of(self, n_tokens: int) -> str:
        for name, target in self.targets.items():
            if target - self.below <= n_tokens <= target + self.above:
                return name
        distance = {name: abs(math.log(max(n_tokens, 1) / t)) for name, t in self.targets.items()}
        return min(distance, key=distance.get)


def window_key(article: str) -> str:
    return hashlib.sha1(article.encode("utf-8")).hexdigest()[:12]


# -- reading files ----------------------------------------------------------------------------


def _json_records(path: Path, text: str) -> list[tuple[str, object]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg != "Extra data":
            raise DatasetError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
        return _jsonl_records(path, text)  # JSON Lines in a .json file, as datasets accepts
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        data = data["data"]
    if not isinstance(data, list):
        raise DatasetError(f"{path}: expected a JSON list of samples (or JSON Lines)")
    return [(f"row {i}", item) for i, item in enumerate(data, 1)]


def _jsonl_records(path: Path, text: str) -> list[tuple[str, object]]:
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append((f"line {number}", json.loads(line)))
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{path}: line {number}: not valid JSON ({exc.msg})") from None
    return records


def _parquet_records(path: Path) -> list[tuple[str, object]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        rows = pq.read_table(path).to_pylist()
    except (OSError, pa.ArrowException) as exc:
        raise DatasetError(f"{path}: not a readable Parquet file ({exc})") from None
    return [(f"row {i}", row) for i, row in enumerate(rows, 1)]


def read_records(path: Path) -> list[tuple[str, object]]:
    """(where, record) of every sample in a JSON, JSONL or Parquet file."""
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise DatasetError(f"{path}: unknown format; expected {', '.join(FORMATS)}")
    if not path.is_file():
        raise DatasetError(f"{path}: no such file")
    if kind == "parquet":
        return _parquet_records(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{path}: cannot read as UTF-8 text ({exc})") from None
    return _json_records(path, text) if kind == "json" else _jsonl_records(path, text)


# -- normalizing samples ----------------------------------------------------------------------


def _gold(record: dict, where: str) -> tuple[int, object]:
    """(score, raw types) from our columns when present, else from ``output``."""
    output = record["output"]
    if isinstance(output, str):
        try:
            output = json.loads(output)
        except json.JSONDecodeError:
            raise DatasetError(f"{where}: output is not JSON: {output[:60]!r}") from None
    if not isinstance(output, dict):
        raise DatasetError(f"{where}: output is not a JSON object: {str(output)[:60]!r}")
    score = parse_score(record["score"] if record.get("score") is not None
                        else output.get("score"))
    if score is None:
        raise DatasetError(f"{where}: output has no score 0-5: {json.dumps(output)[:80]}")
    types = record.get("hallucination_types")
    if types is None:
        types = output.get("hallucination_types", output.get("types"))
    return score, types


def normalize(record, where: str, unmapped: Counter) -> dict:
    """One sample with the fields evaluation uses (tier and n_tokens may still be None)."""
    if not isinstance(record, dict):
        raise DatasetError(f"{where}: expected an object with fields {', '.join(REQUIRED)}")
    missing = [f for f in REQUIRED if record.get(f) is None]
    if missing:
        raise DatasetError(f"{where}: missing field(s) {', '.join(missing)} "
                           f"(the release format needs {', '.join(REQUIRED)})")
    score, raw_types = _gold(record, where)
    types, unknown = parse_types(raw_types) if is_hallucinated(score) else ([], [])
    unmapped.update(unknown)
    return {
        "id": str(record["id"]), "language": str(record["language"]),
        "tier": record.get("tier"), "n_tokens": record.get("n_tokens"),
        "article": record["article"], "summary": record["summary"],
        "instruction": record["instruction"], "input": record["input"],
        "score": score, "hallucination_types": types, "source": record.get("source"),
        "book_id": record.get("book_id"),
        "window": str(record.get("window_id") or window_key(record["article"])),
    }


def fill_tiers(rows: list[dict], rule: TierRule, tokenizer) -> None:
    """Count the articles without ``n_tokens`` (each distinct article once) and give every row
    without a ``tier`` the tier of its count."""
    uncounted = sorted({r["article"] for r in rows if r["n_tokens"] is None})
    counts = {}
    if uncounted:
        counts = dict(zip(uncounted, tokenizer.count_batch(uncounted), strict=True))
    for row in rows:
        if row["n_tokens"] is None:
            row["n_tokens"] = counts[row["article"]]
        row["n_tokens"] = int(row["n_tokens"])
        if row["tier"] is None:
            row["tier"] = rule.tier_of(row["n_tokens"])


def dataset_name(path: Path) -> str:
    """The folder of a file's evaluations: its stem and a hash of its absolute path."""
    resolved = str(Path(path).resolve())
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(path).stem)
    return f"{stem}-{hashlib.sha256(resolved.encode()).hexdigest()[:8]}"


def export_name(split: str) -> str:
    """The folder of the evaluations of a run's exported split."""
    return f"export-{split}"


def load_file(path: Path, rule: TierRule, tokenizer) -> Dataset:
    """A dataset file in the release format; bad files raise DatasetError naming the row."""
    path = Path(path)
    unmapped: Counter = Counter()
    rows = [normalize(record, f"{path}: {where}", unmapped)
            for where, record in read_records(path)]
    if not rows:
        raise DatasetError(f"{path}: no samples")
    fill_tiers(rows, rule, tokenizer)
    origin = {"kind": "file", "path": str(path.resolve()), "format": FORMATS[path.suffix.lower()],
              "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    return Dataset(dataset_name(path), rows, origin, dict(unmapped))


def load_export(run_dir: Path, split: str, rule: TierRule, tokenizer) -> Dataset:
    """The exported samples of ``split`` in a run directory."""
    from longnovel.release.review import exported_rows
    from longnovel.state import read_manifest

    unmapped: Counter = Counter()
    rows = [normalize(r, f"export {r.get('tier')}/{split}: row {i}", unmapped)
            for i, r in enumerate(exported_rows(run_dir, split=split), 1)]
    fill_tiers(rows, rule, tokenizer)
    fingerprint = (read_manifest(Path(run_dir), "export") or {}).get("fingerprint")
    origin = {"kind": "export", "run_dir": str(Path(run_dir).resolve()), "split": split,
              "fingerprint": fingerprint}
    return Dataset(export_name(split), rows, origin, dict(unmapped))


def load_dataset(config, run_dir: Path, data: Path | None, split: str,
                 tiers: list[str] | None, tokenizer) -> Dataset:
    """The file ``data`` when given, else the run's exported ``split``; limited to ``tiers``."""
    rule = TierRule(dict(config.tiers), config.window.below, config.window.above)
    if data is not None:
        dataset = load_file(data, rule, tokenizer)
    else:
        dataset = load_export(run_dir, split, rule, tokenizer)
    return dataset.select(tiers)
