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
    summary: str | None  # None: missing, and ``units.missing_summary: drop`` drops the unit
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
    check_encodable(value, what, where)
    check_no_nul(value, what, where)
    return value


INT64 = (-(2**63), 2**63 - 1)


def check_unit_index(index: int, where: str) -> int:
    """A unit number that fits the 64-bit ``unit_index`` column, or an InputError."""
    if not INT64[0] <= index <= INT64[1]:
        shown = str(index) if len(str(index)) <= 30 else f"{str(index)[:20]}... "
        raise InputError(f"{where}: unit number {shown} is too large (at most {INT64[1]}); "
                         "renumber the units")
    return index


def check_no_nul(value: str, what: str, where: str) -> None:
    """Stop on a NUL character: no text file of a novel holds one (it is binary data or a
    broken conversion), and it would pass silently into units and prompts."""
    at = value.find("\0")
    if at >= 0:
        raise InputError(f"{where}: {what} holds a NUL byte (U+0000) at character {at}; this "
                         "is not plain text: check how the file was converted")


def summary_or_none(value, where: str, missing_summary: str) -> str | None:
    """The unit's summary; a missing or empty one is None under ``missing_summary: drop`` and
    an error naming the place otherwise."""
    if missing_summary == "drop" and (value is None or (isinstance(value, str)
                                                        and not clean(value))):
        return None
    if value is None:
        raise InputError(f"{where}: no summary (set units.missing_summary: drop to drop such "
                         "units)")
    return require_text(value, "summary", where)


def check_encodable(value: str, what: str, where: str) -> None:
    """Stop on text that is not valid Unicode (a lone surrogate from a JSON escape such as
    ``\\ud800``): it cannot be written as UTF-8 nor tokenized."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(
            f"{where}: {what} has an invalid character U+{ord(value[exc.start]):04X} (a lone "
            f"surrogate) at character {exc.start}; fix the escape sequence in the source"
        ) from None


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
