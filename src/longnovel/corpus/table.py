"""Format ``table``: JSONL or Parquet with columns book_id, unit_index, text, summary [, title]."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from longnovel.corpus.common import (
    RawUnit,
    check_duplicates,
    check_unit_index,
    decode_utf8,
    require_text,
    summary_or_none,
)
from longnovel.errors import InputError

REQUIRED = ("book_id", "unit_index", "text", "summary")


def read_table(path: Path, missing_summary: str = "error") -> Iterator[RawUnit]:
    """Yield units of a JSONL or Parquet table, checked row by row."""
    rows = _parquet_rows(path) if path.suffix == ".parquet" else _jsonl_rows(path)
    units = [_unit(row, f"{path}:{where}", missing_summary) for where, row in rows]
    if not units:
        raise InputError(f"{path}: no rows")
    check_duplicates(units)
    return iter(sorted(units, key=lambda u: (u.book_id, u.unit_index)))


def iter_jsonl(path: Path) -> Iterator[tuple[int, dict]]:
    """Yield (line number, object) for each non-blank line; malformed lines stop with the line."""
    if path.is_dir():
        raise InputError(f"{path}: expected a JSONL or Parquet file, found a folder")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None
    for number, line in enumerate(decode_utf8(data, str(path)).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{number}: malformed JSON line: {exc.msg}") from None
        if not isinstance(obj, dict):
            raise InputError(f"{path}:{number}: expected a JSON object")
        yield number, obj


def _jsonl_rows(path: Path) -> Iterator[tuple[str, dict]]:
    for number, obj in iter_jsonl(path):
        yield f"line {number}", obj


def _parquet_rows(path: Path) -> Iterator[tuple[str, dict]]:
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for corrupt files
        raise InputError(f"{path}: cannot read Parquet: {str(exc).splitlines()[0]}") from None
    missing = [c for c in REQUIRED if c not in table.column_names]
    if missing:
        raise InputError(f"{path}: missing column(s) {', '.join(missing)}")
    for number, row in enumerate(table.to_pylist(), start=1):
        yield f"row {number}", row


def _unit(row: dict, where: str, missing_summary: str) -> RawUnit:
    needed = [c for c in REQUIRED if c != "summary" or missing_summary != "drop"]
    missing = [c for c in needed if row.get(c) is None]
    if missing:
        raise InputError(f"{where}: missing field(s) {', '.join(missing)}")
    index = row["unit_index"]
    if isinstance(index, bool) or not isinstance(index, int):
        raise InputError(f"{where}: unit_index must be an integer, got {index!r}")
    check_unit_index(index, where)
    book_id = str(row["book_id"]).strip()
    if not book_id:
        raise InputError(f"{where}: empty book_id")
    title = str(row.get("title") or book_id)
    return RawUnit(book_id, title, index, require_text(row["text"], "text", where),
                   summary_or_none(row.get("summary"), where, missing_summary), "table", where)
