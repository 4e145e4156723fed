"""Corpus readers: each yields RawUnit records for one configured source (DESIGN.md section 5)."""

from __future__ import annotations

from collections.abc import Iterator

from longnovel.config import CorpusSource
from longnovel.corpus.common import RawUnit, check_path


def read_source(source: CorpusSource, skipped: dict | None = None,
                missing_summary: str = "error", ignored: list[str] | None = None
                ) -> Iterator[RawUnit]:
    """Yield the units of one corpus source, raising InputError on bad input.

    Rows a format skips on purpose (BookSum aggregates, chapters without a preferred summary
    source) are counted by reason into ``skipped``. A unit without its summary is an error, or
    yielded with ``summary=None`` under ``missing_summary="drop"`` (ingest drops and counts it).
    Files of a ``dir`` source that are not unit files go into ``ignored``.
    """
    path = check_path(source.path)
    if source.format == "dir":
        from longnovel.corpus.dirs import read_dir

        return read_dir(path, missing_summary, ignored)
    if source.format == "table":
        from longnovel.corpus.table import read_table

        return read_table(path, missing_summary)
    from longnovel.corpus.booksum_flat import is_flat, read_flat

    if is_flat(path):  # the per-(chapter, source) CSV/Parquet release
        return read_flat(path, source.summary_sources, skipped)
    from longnovel.corpus.booksum import read_booksum

    return read_booksum(path, source.summary_sources, skipped)


BOOK_FIELDS = ("author", "source", "license", "attribution")


def book_metadata(source: CorpusSource, book_id: str, title: str) -> dict:
    """What the dataset card says of a book: its title and language and, for a ``dir`` book,
    ``author``, ``source``, ``license`` and ``attribution`` from its ``book.yaml``."""
    meta = {"title": title, "language": source.language}
    if source.format == "dir":
        from pathlib import Path

        from longnovel.corpus.dirs import book_yaml

        found = book_yaml(Path(source.path) / book_id)
        meta.update({k: str(found[k]).strip() for k in BOOK_FIELDS if found.get(k)})
    return meta


__all__ = ["RawUnit", "book_metadata", "read_source"]
