"""export.mix and export.max_per_tier: seeded, shares kept, capped, spread over books and types."""

from __future__ import annotations

import random
from collections import Counter

import pyarrow.parquet as pq

from longnovel.release.samples import apply_mix

TYPES = ["entity", "number", "relation", "polarity"]


def rows() -> list[dict]:
    out = []
    for book in ("a", "b", "c"):
        for i in range(10):
            out.append({"source": "human", "book_id": book, "hallucination_types": [], "n": i})
            for t in TYPES:
                out.append({"source": "injection", "book_id": book, "hallucination_types": [t],
                            "n": i})
    return out


def test_mix_keeps_shares_and_cap_and_is_seeded():
    samples = rows()
    picked = apply_mix(samples, {"human": 0.25, "injection": 0.75}, 40, random.Random(1))
    assert len(picked) == 40
    assert Counter(r["source"] for r in picked) == {"human": 10, "injection": 30}
    again = apply_mix(samples, {"human": 0.25, "injection": 0.75}, 40, random.Random(1))
    assert [id(r) for r in again] == [id(r) for r in picked]


def test_mix_spreads_over_books_and_types():
    picked = apply_mix(rows(), {"human": 0.25, "injection": 0.75}, 40, random.Random(2))
    injected = [r for r in picked if r["source"] == "injection"]
    per_book = Counter(r["book_id"] for r in injected)
    per_type = Counter(r["hallucination_types"][0] for r in injected)
    per_pair = Counter((r["book_id"], r["hallucination_types"][0]) for r in injected)
    assert max(per_book.values()) - min(per_book.values()) <= 1
    assert max(per_type.values()) - min(per_type.values()) <= 1
    assert max(per_pair.values()) - min(per_pair.values()) <= 1


def test_missing_source_is_left_out_and_counts_never_exceed_the_cap():
    samples = rows()
    mix = {"human": 0.35, "arbitration": 0.3, "injection": 0.35}
    picked = apply_mix(samples, mix, 10, random.Random(3))
    assert len(picked) == 10  # arbitration has no rows: the others share the tier
    assert Counter(r["source"] for r in picked) == {"human": 5, "injection": 5}
    three = apply_mix(samples, {"human": 0.35, "injection": 0.65}, 7, random.Random(3))
    assert len(three) == 7


def test_export_applies_mix_per_tier(fixture_run):
    from helpers.builders import build

    make, run_dir = fixture_run
    config = make(export={"splits": {"test": 0.5, "valid": 0.5},
                          "mix": {"human": 0.5, "injection": 0.5}, "max_per_tier": 8})
    build(config)
    for tier in ("XS", "XS2"):
        rows_ = [r for f in (run_dir / "export" / tier).glob("*.parquet")
                 for r in pq.read_table(f).to_pylist()]
        assert len(rows_) == 8
        assert Counter(r["source"] for r in rows_) == {"human": 4, "injection": 4}
        assert len({r["book_id"] for r in rows_ if r["source"] == "injection"}) == 2
