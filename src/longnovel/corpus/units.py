"""Which units ingest keeps (the length and missing-summary policy) and the runs they form.
No I/O: units and their token counts in, indices and run numbers out."""

from __future__ import annotations

from dataclasses import dataclass, field

from longnovel.config import Config
from longnovel.corpus.common import RawUnit


@dataclass
class Kept:
    """Which units ingest keeps, the run each belongs to, and what broke the runs."""

    indices: list[int] = field(default_factory=list)
    runs: list[int] = field(default_factory=list)
    dropped: dict[str, int] = field(default_factory=dict)
    gaps: list[dict] = field(default_factory=list)  # missing unit numbers inside a book


def drop_reason(unit: RawUnit, n: int, config: Config) -> str | None:
    """Why ``unit`` (``n`` tokens) is dropped, or None when it is kept."""
    if unit.summary is None:
        return "missing_summary"
    if config.units.out_of_range == "keep":
        return None
    return "too_short" if n < config.units.min_tokens else (
        "too_long" if n > config.units.max_tokens else None)


def apply_unit_policy(units: list[RawUnit], counts: list[int], config: Config) -> Kept:
    """Kept units and their run numbers. A run is a maximal stretch of consecutive unit
    numbers of one book, all kept: a dropped unit ends it, and so does a gap in the numbers (a
    missing chapter), so no window ever spans text that is not there."""
    kept = Kept()
    run, previous, broken = -1, None, True
    for i, (unit, n) in enumerate(zip(units, counts, strict=True)):
        if previous is None or unit.book_id != previous.book_id:
            broken = True
        elif unit.unit_index != previous.unit_index + 1:
            broken = True
            kept.gaps.append({"book_id": unit.book_id, "after": previous.unit_index,
                              "before": unit.unit_index})
        previous = unit
        reason = drop_reason(unit, n, config)
        if reason:
            kept.dropped[reason] = kept.dropped.get(reason, 0) + 1
            broken = True
            continue
        if broken:
            run, broken = run + 1, False
        kept.indices.append(i)
        kept.runs.append(run)
    return kept
