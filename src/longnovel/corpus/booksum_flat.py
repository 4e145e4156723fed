"""BookSum as most people have it: one CSV or Parquet row per (chapter, summary source).

This is the layout of the widely downloaded chapter-level release (one file per split:
train, validation, test). Columns read:

- ``bid``: the book (units of one book share it);
- ``chapter``: the chapter's text;
- ``summary_text``: one source's summary of it;
- ``source``: who wrote that summary (sparknotes, shmoop, cliffnotes, gradesaver, ...);
- ``is_aggregate`` (optional): the summary covers several chapters; such rows are skipped;
- the chapter number, from the first of ``chapter_path`` (``.../chapter_12.txt``),
  ``book_id`` (``Title.chapter 12``) and ``summary_id`` that holds one;
- the title, from ``book_title`` when present, else ``book_id`` before its first dot.

Other columns (``summary_path``, ``summary_url``, ``summary_analysis``, lengths) are ignored.
A chapter summarized by several sources gets one summary: the first source of the
``summary_sources`` list of the corpus entry that the chapter has (a chapter with none of them
is skipped and counted), or, without that list, the first of ``DEFAULT_PREFERENCE``, then any
other source in alphabetical order. So the choice never depends on row order.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from longnovel.corpus.common import RawUnit, check_duplicates, require_text
from longnovel.errors import InputError

REQUIRED = ("bid", "chapter", "summary_text", "source")
NUMBER_COLUMNS = ("chapter_path", "book_id", "summary_id")
DEFAULT_PREFERENCE = ("sparknotes", "shmoop", "cliffnotes", "gradesaver", "bookwolf",
                      "novelguide", "pinkmonkey", "thebestnotes")
SUFFIXES = (".csv", ".parquet")


def is_flat(path: Path) -> bool:
    """Whether a ``booksum`` path is this layout: a .csv or .parquet file, or a folder of
    them."""
    if path.is_dir():
        return any(p.suffix.lower() in SUFFIXES for p in path.iterdir())
    return path.suffix.lower() in SUFFIXES


def table_files(path: Path) -> list[Path]:
    if not path.is_dir():
        return [path]
    return sorted(p for p in path.iterdir() if p.suffix.lower() in SUFFIXES and p.is_file())


def read_file(path: Path):
    """The file as a pyarrow table; an unreadable file or a missing column stops with one
    line naming the file."""
    import pyarrow as pa

    try:
        if path.suffix.lower() == ".csv":
            import pyarrow.csv as pcsv

            table = pcsv.read_csv(path, parse_options=pcsv.ParseOptions(newlines_in_values=True))
        else:
            import pyarrow.parquet as pq

            table = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"{path}: cannot read as BookSum "
                         f"{path.suffix.lstrip('.').upper()}: {str(exc).splitlines()[0]}"
                         ) from None
    missing = [c for c in REQUIRED if c not in table.column_names]
    if not any(c in table.column_names for c in NUMBER_COLUMNS):
        missing.append(" or ".join(NUMBER_COLUMNS))
    if missing:
        raise InputError(f"{path}: missing column(s) {', '.join(missing)} (BookSum chapter "
                         f"rows need {', '.join(REQUIRED)} and one of "
                         f"{', '.join(NUMBER_COLUMNS)})")
    return table


def _flag(value) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes")
    return bool(value)


def chapter_number(row: dict, where: str) -> int:
    """The chapter number: the last number of ``chapter_path``'s file name, else of
    ``book_id``, else of ``summary_id``."""
    path = row.get("chapter_path")
    candidates = [Path(str(path)).stem if path else None, row.get("book_id"),
                  row.get("summary_id")]
    for value in candidates:
        found = re.findall(r"\d+", str(value or ""))
        if found:
            return int(found[-1])
    raise InputError(f"{where}: no chapter number in chapter_path, book_id or summary_id "
                     f"({', '.join(repr(v) for v in candidates if v)})")


def book_title(row: dict) -> str:
    if row.get("book_title"):
        return str(row["book_title"])
    if row.get("book_id"):
        return str(row["book_id"]).split(".")[0]
    return str(row["bid"])


def source_rank(source: str, preference: list[str] | None) -> tuple | None:
    """Sort key of a summary source (lower is preferred); None when the configured list
    leaves it out."""
    if preference:
        wanted = [s.lower() for s in preference]
        return (wanted.index(source),) if source in wanted else None
    if source in DEFAULT_PREFERENCE:
        return (0, DEFAULT_PREFERENCE.index(source), "")
    return (1, 0, source)


def _rows(file: Path) -> Iterator[tuple[int, str, dict]]:
    """(row number, where, row) of one file, a record batch at a time."""
    csv = file.suffix.lower() == ".csv"
    number = 1 if csv else 0  # a CSV's first line is its header
    for batch in read_file(file).to_batches():
        for row in batch.to_pylist():
            number += 1
            yield number, f"{file}:{'line' if csv else 'row'} {number}", row


def _candidates(path: Path, preference: list[str] | None, skipped: dict) -> dict:
    """Per (book, chapter): (rank, position, where, source, row) of its preferred summary,
    or None when no row of it has a source the preference allows."""
    best: dict[tuple[str, int], tuple | None] = {}
    for order, file in enumerate(table_files(path)):
        for number, where, row in _rows(file):
            if _flag(row.get("is_aggregate")):
                skipped["aggregate"] = skipped.get("aggregate", 0) + 1
                continue
            missing = [c for c in REQUIRED if row.get(c) in (None, "")]
            if missing:
                raise InputError(f"{where}: empty {', '.join(missing)}")
            source = str(row["source"]).strip().lower()
            rank = source_rank(source, preference)
            key = (str(row["bid"]), chapter_number(row, where))
            current = best.setdefault(key, None)
            if rank is not None and (current is None or (rank, (order, number)) < current[:2]):
                best[key] = (rank, (order, number), where, source, row)
    return best


def read_flat(path: Path, preference: list[str] | None, skipped: dict | None = None
              ) -> Iterator[RawUnit]:
    """One unit per non-aggregate chapter with its chosen summary, by book and chapter."""
    skipped = skipped if skipped is not None else {}
    files = table_files(path)
    if not files:
        raise InputError(f"{path}: no .csv or .parquet files in this folder")
    units = []
    for (book, number), chosen in sorted(_candidates(path, preference, skipped).items()):
        if chosen is None:
            skipped["no_preferred_summary"] = skipped.get("no_preferred_summary", 0) + 1
            continue
        _, _, where, source, row = chosen
        units.append(RawUnit(book, book_title(row), number,
                             require_text(row["chapter"], "chapter text", where),
                             require_text(row["summary_text"], "summary", where), source, where))
    if not units and not skipped:
        raise InputError(f"{path}: no rows")
    check_duplicates(units)
    return iter(units)
