"""Human review round-trip: a spreadsheet of samples out, validated corrections in.

``review export`` writes one CSV row per exported sample (UTF-8 with a byte-order mark, so
spreadsheet programs open Chinese text correctly). ``review import`` checks an edited file and
appends its corrections to ``<run_dir>/reviews/reviews.jsonl``, an append-only store outside
every stage folder: re-running a stage never touches it. The export stage applies the stored
reviews (later corrections of a field win) and marks those samples ``reviewed``; the store's
hash is part of export's fingerprint, so ``build`` re-runs export after an import.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path

import pyarrow.parquet as pq

from longnovel.errors import LongnovelError
from longnovel.release.samples import label_of, relabel
from longnovel.taxonomy import (
    TYPE_IDS,
    UNKNOWN,
    is_hallucinated,
    normalize_types,
    split_type_names,
)

STORE = Path("reviews") / "reviews.jsonl"
SHOWN = ["id", "tier", "split", "language", "source", "excerpt", "changed_span", "summary",
         "label", "score", "types", "reason"]
EDITABLE = ["corrected_summary", "corrected_label", "corrected_score", "corrected_types",
            "corrected_reason", "note", "reviewer"]
COLUMNS = SHOWN + EDITABLE
EXCERPT_CHARS = {"en": 1500, "zh": 700}
REVIEWED_REASON = {"en": "Judgment corrected by human review.", "zh": "该判断经人工审核修正。"}


class ReviewError(LongnovelError):
    """A review file that cannot be imported; the message lists every problem by row."""


def store_path(run_dir: Path) -> Path:
    return Path(run_dir) / STORE


def store_hash(run_dir: Path) -> str | None:
    """sha256 of the review store (None when there is none): part of export's fingerprint."""
    path = store_path(run_dir)
    if not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


# -- export -----------------------------------------------------------------------------------


def exported_rows(run_dir: Path, tier: str | None = None, split: str | None = None) -> list[dict]:
    """Rows of the exported Parquet files, limited to a tier and split when given."""
    folder = Path(run_dir) / "export"
    files = sorted(folder.glob(f"{tier or '*'}/{split or '*'}.parquet"))
    if not files:
        what = f" for tier {tier}" if tier else ""
        what += f", split {split}" if split else ""
        raise LongnovelError(f"{folder}: no exported samples{what}; run `longnovel build` first")
    return [row for f in files for row in pq.read_table(f).to_pylist()]


def injection_spans(run_dir: Path) -> dict[str, tuple[str, str]]:
    """Sample id -> (original span, hallucinated span) for the valid injections of a run."""
    from longnovel.release.samples import sample_id, sample_kind

    run_dir = Path(run_dir)
    paths = [run_dir / "inject/injections.parquet", run_dir / "expand/windows.parquet"]
    if not all(p.is_file() for p in paths):
        return {}
    windows = {w["window_id"]: w for w in pq.read_table(
        paths[1], columns=["window_id", "tier", "language"]).to_pylist()}
    spans = {}
    for row in pq.read_table(paths[0]).to_pylist():
        window = windows.get(row["window_id"])
        if row["valid"] and window is not None:
            key = sample_id(window, "injection", row["generator"],
                            sample_kind([row["type"]], row["subtype"]), row["summary"])
            spans[key] = (row["original_span"] or "", row["hallucinated_span"] or "")
    return spans


def _bigrams(text: str) -> set[str]:
    text = re.sub(r"\s+", " ", text.lower())
    return {text[i:i + 2] for i in range(len(text) - 1)}


def locate(article: str, span: str) -> int | None:
    """Where ``span`` (a summary sentence) sits in ``article``: exact, else the paragraph
    sharing most character bigrams with it; None when nothing is shared."""
    span = span.strip()
    if not span:
        return None
    exact = article.find(span)
    if exact >= 0:
        return exact
    wanted = _bigrams(span)
    best, best_at, at = 0, None, 0
    for paragraph in article.split("\n"):
        shared = len(wanted & _bigrams(paragraph))
        if shared > best:
            best, best_at = shared, at
        at += len(paragraph) + 1
    return best_at


def excerpt(article: str, position: int | None, language: str) -> str:
    """About EXCERPT_CHARS characters of ``article`` around ``position`` (or its start)."""
    size = EXCERPT_CHARS.get(language, 1500)
    start = 0 if position is None else max(0, position - size // 3)
    end = min(len(article), start + size)
    text = article[start:end]
    return ("…" if start else "") + text + ("…" if end < len(article) else "")


def review_row(row: dict, spans: dict[str, tuple[str, str]]) -> dict:
    """The CSV row of one sample: what the annotator reads, and empty columns to fill."""
    original, hallucinated = spans.get(row["id"], ("", ""))
    position = locate(row["article"], original) if original else None
    return {
        "id": row["id"], "tier": row["tier"], "split": row["split"],
        "language": row["language"], "source": row["source"],
        "excerpt": excerpt(row["article"], position, row["language"]),
        "changed_span": hallucinated, "summary": row["summary"], "label": row["label"],
        "score": row["score"], "types": ", ".join(row["hallucination_types"]),
        "reason": row["reason"], **{c: "" for c in EDITABLE},
    }


def write_review_file(run_dir: Path, tier: str, split: str, out: Path | None) -> tuple[Path, int]:
    """Write the review CSV of one tier and split; return its path and row count."""
    from longnovel.state import atomic_write_bytes

    rows = exported_rows(run_dir, tier, split)
    spans = injection_spans(run_dir)
    out = Path(out) if out else Path(run_dir) / "reviews" / f"review-{tier}-{split}.csv"
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(review_row(r, spans) for r in rows)
    atomic_write_bytes(out, buffer.getvalue().encode("utf-8-sig"))
    return out, len(rows)


# -- import -----------------------------------------------------------------------------------


def read_review_file(path: Path) -> list[dict]:
    """Rows of an edited review file (CSV, or TSV by extension), with spreadsheet row numbers."""
    path = Path(path)
    if not path.is_file():
        raise ReviewError(f"{path}: review file not found")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReviewError(f"{path}: not UTF-8 text; save it as CSV UTF-8") from exc
    delimiter = "\t" if path.suffix.lower() in (".tsv", ".tab") else ","
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    missing = [c for c in ["id", *EDITABLE] if c not in (reader.fieldnames or [])]
    if missing:
        raise ReviewError(f"{path}: missing column(s) {', '.join(missing)}; start from a file "
                          "written by `longnovel review export`")
    rows = []
    for number, row in enumerate(reader, start=2):  # the spreadsheet's row; header is row 1
        cells = {k: (v or "").strip() for k, v in row.items() if k is not None}
        rows.append({**cells, "row": number})
    return rows


def parse_types(text: str) -> tuple[list[str], list[str]]:
    """Type ids from a cell (ids or names, comma separated); returns (ids, unknown names)."""
    ids, bad = normalize_types(split_type_names(text))
    return [t for t in ids if t != UNKNOWN], bad


def _score(cell: str, errors: list[str], where: str) -> int | None:
    if not cell:
        return None
    try:
        value = float(cell)
    except ValueError:
        errors.append(f"{where}: corrected_score '{cell}' is not a number 0-5")
        return None
    if value != int(value) or not 0 <= value <= 5:
        errors.append(f"{where}: corrected_score '{cell}' is out of range (an integer 0-5)")
        return None
    return int(value)


def check_row(cells: dict, current: dict | None, reviewer: str | None,
              errors: list[str]) -> dict | None:
    """The review record of one edited row, or None when the row is blank or has errors."""
    where = f"row {cells['row']}"
    edits = {c: cells.get(c, "") for c in EDITABLE}
    if not any(edits.values()):
        return None
    if current is None:
        errors.append(f"{where}: unknown id '{cells.get('id', '')}' (not in the current export)")
        return None
    found = len(errors)
    score = _score(edits["corrected_score"], errors, where)
    effective = score if score is not None else current["score"]
    label = edits["corrected_label"].lower()
    if label and label not in ("hallucinated", "consistent"):
        errors.append(f"{where}: corrected_label '{edits['corrected_label']}' must be "
                      "hallucinated or consistent")
    elif label and label != label_of(effective):
        errors.append(f"{where}: corrected_label '{label}' is inconsistent with score "
                      f"{effective} (hallucinated means score below 3); set corrected_score too")
    types, bad = parse_types(edits["corrected_types"])
    if bad:
        errors.append(f"{where}: corrected_types: unknown type(s) {', '.join(bad)} "
                      f"(known: {', '.join(TYPE_IDS)})")
    if types and effective >= 3:
        errors.append(f"{where}: corrected_types given but the score is {effective}; types are "
                      "listed only for hallucinated samples (score below 3)")
    if is_hallucinated(effective) and not types and not current["hallucination_types"]:
        errors.append(f"{where}: a hallucinated sample needs corrected_types")
    who = edits["reviewer"] or reviewer
    if not who:
        errors.append(f"{where}: no reviewer; fill the reviewer column or pass --reviewer")
    if len(errors) > found:
        return None
    fields = {"summary": edits["corrected_summary"] or None, "score": score,
              "hallucination_types": types or None, "reason": edits["corrected_reason"] or None}
    return {"id": current["id"], "fields": {k: v for k, v in fields.items() if v is not None},
            "note": edits["note"], "reviewer": who, "row": cells["row"]}


def check_review_file(path: Path, known: dict[str, dict], reviewer: str | None) -> list[dict]:
    """Validate every row of an edited file; raise ReviewError listing all problems."""
    errors: list[str] = []
    records: list[dict] = []
    seen: dict[str, int] = {}
    for cells in read_review_file(path):
        sample = cells.get("id", "")
        if sample in seen and any(cells.get(c) for c in EDITABLE):
            errors.append(f"row {cells['row']}: id '{sample}' already edited on row {seen[sample]}")
            continue
        record = check_row(cells, known.get(sample), reviewer, errors)
        if record is not None:
            seen[sample] = cells["row"]
            records.append(record)
    if errors:
        raise ReviewError(f"{path}: {len(errors)} problem(s), nothing recorded:\n  "
                          + "\n  ".join(errors))
    return records


def import_review_file(run_dir: Path, path: Path, reviewer: str | None) -> int:
    """Validate ``path`` against the current export and append its edits to the store."""
    known = {row["id"]: row for row in exported_rows(run_dir)}
    records = check_review_file(path, known, reviewer)
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    lines = "".join(json.dumps({**r, "reviewed_at": now, "file": str(Path(path).name)},
                               ensure_ascii=False) + "\n" for r in records)
    store = store_path(run_dir)
    store.parent.mkdir(parents=True, exist_ok=True)
    with open(store, "a", encoding="utf-8") as handle:  # one append: the store only grows
        handle.write(lines)
        handle.flush()
        os.fsync(handle.fileno())
    return len(records)


# -- applying ---------------------------------------------------------------------------------


def load_reviews(run_dir: Path) -> dict[str, dict]:
    """Sample id -> merged review: later records' fields, notes and reviewers win."""
    path = store_path(run_dir)
    merged: dict[str, dict] = {}
    if not path.is_file():
        return merged
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LongnovelError(f"{path}: line {number} is not JSON; restore it from a "
                                 "backup or remove the line") from exc
        entry = merged.setdefault(record["id"], {"fields": {}, "note": "", "reviewers": []})
        entry["fields"].update(record.get("fields", {}))
        entry["note"] = record.get("note") or entry["note"]
        if record.get("reviewer") not in entry["reviewers"]:
            entry["reviewers"].append(record.get("reviewer"))
    return merged


def apply_reviews(rows: list[dict], reviews: dict[str, dict]) -> tuple[list[dict], int]:
    """Rows with their reviews applied and ``reviewed`` set; and how many were applied."""
    out, applied = [], 0
    for row in rows:
        review = reviews.get(row["id"])
        if review is None:
            out.append(row)
            continue
        out.append(reviewed_row(row, review))
        applied += 1
    return out, applied


def reviewed_row(row: dict, review: dict) -> dict:
    fields = review["fields"]
    score = fields.get("score", row["score"])
    types = fields.get("hallucination_types", row["hallucination_types"])
    reason = fields.get("reason")
    if reason is None:
        changed = label_of(score) != row["label"]
        reason = row["reason"]
        if changed:
            reason = review["note"] or REVIEWED_REASON.get(row["language"], REVIEWED_REASON["en"])
    new = relabel(row, summary=fields.get("summary", row["summary"]), score=score, types=types,
                  reason=reason)
    return {**new, "reviewed": True, "review_note": review["note"]}
