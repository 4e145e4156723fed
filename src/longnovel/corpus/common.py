"""Shared pieces of the corpus readers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from longnovel.errors import InputError


@dataclass
class RawUnit:
    """One unit as read from the corpus, before tokenization."""

    book_id: str
    title: str
    unit_index: int
    text: str
    summary: str
    source: str
    origin: str  # file (and line) it came from, for error messages


def check_path(path: str) -> Path:
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: corpus path not found")
    return p


def decode_utf8(data: bytes, where: str) -> str:
    """Decode strictly as UTF-8 (a BOM is dropped); anything else is reported, never guessed."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{where}: not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "convert it first, e.g. iconv -f GBK -t UTF-8"
        ) from None
    return text.removeprefix("\ufeff")


def read_text_file(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None
    return decode_utf8(data, str(path))


def clean(text: str) -> str:
    """Normalize line endings and strip surrounding whitespace."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def require_text(value, what: str, where: str) -> str:
    """A non-empty string after cleaning, or an InputError naming the place."""
    if not isinstance(value, str):
        raise InputError(f"{where}: {what} is not a string")
    value = clean(value)
    if not value:
        raise InputError(f"{where}: empty {what}")
    return value


def check_duplicates(units: list[RawUnit]) -> None:
    """Stop on two units with the same (book_id, unit_index)."""
    seen: dict[tuple[str, int], str] = {}
    for unit in units:
        key = (unit.book_id, unit.unit_index)
        if key in seen:
            raise InputError(
                f"{unit.origin}: duplicate unit {unit.unit_index} of book '{unit.book_id}' "
                f"(also in {seen[key]})"
            )
        seen[key] = unit.origin
