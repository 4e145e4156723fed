"""Format ``dir``: <root>/<book_id>/NNN.txt with NNN.summary.txt beside it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import yaml

from longnovel.corpus.common import (
    RawUnit,
    check_duplicates,
    check_unit_index,
    read_text_file,
    require_text,
    summary_or_none,
)
from longnovel.errors import InputError

TEXT_RE = re.compile(r"^(\d+)\.txt$")
SUMMARY_RE = re.compile(r"^(\d+)\.summary\.txt$")


def read_dir(root: Path, missing_summary: str = "error", ignored: list[str] | None = None
             ) -> Iterator[RawUnit]:
    """Yield units of every book folder under ``root``, ordered by book and unit number. Files
    of a book folder named neither ``NNN.txt`` nor ``NNN.summary.txt`` (``book.yaml`` and
    hidden files aside) are not units: their paths go into ``ignored``, for ingest to count
    and name."""
    if not root.is_dir():
        raise InputError(f"{root}: format 'dir' expects a folder of book folders")
    books = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    if not books:
        raise InputError(f"{root}: no book folders found")
    for book in books:
        yield from _read_book(book, missing_summary, ignored)


def book_yaml(book: Path) -> dict:
    """The book folder's ``book.yaml`` (empty without one); bad YAML is an InputError."""
    meta_path = book / "book.yaml"
    if not meta_path.is_file():
        return {}
    try:
        meta = yaml.safe_load(read_text_file(meta_path)) or {}
    except yaml.YAMLError as exc:
        raise InputError(f"{meta_path}: not valid YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(meta, dict):
        raise InputError(f"{meta_path}: expected a mapping (title, author, source, license)")
    return meta


def _index_files(book: Path, ignored: list[str] | None = None
                 ) -> tuple[dict[int, Path], dict[int, Path]]:
    texts: dict[int, Path] = {}
    summaries: dict[int, Path] = {}
    for path in sorted(book.iterdir()):
        matched = False
        for pattern, found in ((SUMMARY_RE, summaries), (TEXT_RE, texts)):
            match = pattern.match(path.name)
            if match:
                matched = True
                number = check_unit_index(int(match.group(1)), str(path))
                if number in found:
                    raise InputError(
                        f"{path}: duplicate unit number {number} (also {found[number].name})"
                    )
                found[number] = path
                break
        if not matched and ignored is not None and _counts_as_ignored(path):
            ignored.append(str(path))
    return texts, summaries


def _counts_as_ignored(path: Path) -> bool:
    """A file that looks meant as a unit but is not named ``NNN.txt``/``NNN.summary.txt``."""
    return not path.name.startswith(".") and path.name != "book.yaml"


def _read_book(book: Path, missing_summary: str, ignored: list[str] | None = None
               ) -> Iterator[RawUnit]:
    meta = book_yaml(book)
    texts, summaries = _index_files(book, ignored)
    if not texts and not summaries:
        raise InputError(f"{book}: no unit files (NNN.txt with NNN.summary.txt)")
    for number in sorted(set(texts) | set(summaries)):
        if number not in summaries and missing_summary != "drop":
            raise InputError(f"{texts[number]}: no summary file {texts[number].stem}.summary.txt"
                             " (set units.missing_summary: drop to drop such units)")
        if number not in texts:
            stem = summaries[number].name.removesuffix(".summary.txt")
            raise InputError(f"{summaries[number]}: no text file {stem}.txt for this summary")
    title = str(meta.get("title") or book.name)
    source = str(meta.get("source") or "dir")
    units = [
        RawUnit(book.name, title, n,
                require_text(read_text_file(texts[n]), "text", str(texts[n])),
                _summary(summaries.get(n), missing_summary), source, str(texts[n]))
        for n in sorted(texts)
    ]
    check_duplicates(units)
    yield from units


def _summary(path: Path | None, missing_summary: str) -> str | None:
    if path is None:
        return None
    return summary_or_none(read_text_file(path), str(path), missing_summary)
