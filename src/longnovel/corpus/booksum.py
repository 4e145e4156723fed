"""Format ``booksum``: BookSum chapter-level JSONL (bid, book_title, chapter_id, text, summary)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from longnovel.corpus.common import RawUnit, check_duplicates, check_unit_index, require_text
from longnovel.corpus.table import iter_jsonl
from longnovel.errors import InputError


def chapter_number(chapter_id, where: str) -> int:
    """The integer in a chapter id such as ``3``, ``"chapter 3"`` or ``"12"``."""
    if isinstance(chapter_id, int) and not isinstance(chapter_id, bool):
        return check_unit_index(chapter_id, where)
    match = re.search(r"\d+", str(chapter_id or ""))
    if not match:
        raise InputError(f"{where}: chapter_id {chapter_id!r} has no chapter number")
    return check_unit_index(int(match.group()), where)


def pick_summary(summaries, preference: list[str] | None, where: str) -> tuple[str, str] | None:
    """The (source, text) of the first preferred source present; None if none is."""
    if isinstance(summaries, str):
        return ("booksum", summaries)
    if not isinstance(summaries, list) or not summaries:
        raise InputError(f"{where}: summary must be a non-empty list of {{source, text}}")
    by_source: dict[str, str] = {}
    for item in summaries:
        if not isinstance(item, dict) or "text" not in item:
            raise InputError(f"{where}: each summary needs 'source' and 'text'")
        by_source.setdefault(str(item.get("source", "")).lower(), item["text"])
    if not preference:
        source = next(iter(by_source))
        return source, by_source[source]
    for source in preference:
        if source.lower() in by_source:
            return source.lower(), by_source[source.lower()]
    return None


def read_booksum(path: Path, preference: list[str] | None, skipped: dict | None = None
                 ) -> Iterator[RawUnit]:
    """Yield one unit per non-aggregate chapter; ``skipped`` collects dropped rows by reason."""
    skipped = skipped if skipped is not None else {}
    units: list[RawUnit] = []
    for number, row in iter_jsonl(path):
        where = f"{path}:line {number}"
        if row.get("is_aggregate"):
            skipped["aggregate"] = skipped.get("aggregate", 0) + 1
            continue
        missing = [k for k in ("bid", "chapter_id", "text", "summary") if row.get(k) is None]
        if missing:
            raise InputError(f"{where}: missing field(s) {', '.join(missing)}")
        chosen = pick_summary(row["summary"], preference, where)
        if chosen is None:
            skipped["no_preferred_summary"] = skipped.get("no_preferred_summary", 0) + 1
            continue
        book_id = str(row["bid"])
        units.append(RawUnit(
            book_id, str(row.get("book_title") or book_id),
            chapter_number(row["chapter_id"], where),
            require_text(row["text"], "text", where),
            require_text(chosen[1], "summary", where), chosen[0], where))
    if not units and not skipped:
        raise InputError(f"{path}: no rows")
    check_duplicates(units)
    return iter(sorted(units, key=lambda u: (u.book_id, u.unit_index)))
