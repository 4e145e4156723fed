"""A tier's injections depend only on its own windows: building one tier alone or beside the
others gives the same rows (nothing a generator remembers crosses tiers), and books built in
parallel give the rows of one process."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
from helpers.builders import build, default_config


def _rows(run_dir: Path, path: str, tier: str | None = None) -> list[dict]:
    rows = pq.read_table(run_dir / path).to_pylist()
    return [r for r in rows if tier is None or r["tier"] == tier]


def test_one_tier_alone_equals_that_tier_of_a_full_build(default_build, default_xl_alone):
    _, full_run = default_build
    full, alone = _rows(full_run, "inject/injections.parquet", "XL"), \
        _rows(default_xl_alone, "inject/injections.parquet")
    assert len(alone) >= 8 and {r["tier"] for r in alone} == {"XL"}
    assert full == alone
    assert _rows(full_run, "export/XL/test.parquet") == \
        _rows(default_xl_alone, "export/XL/test.parquet")


def test_books_in_parallel_give_the_rows_of_one_process(default_build, tmp_path,
                                                         monkeypatch):
    """The rules keep their state per book: tier S built by one process gives the rows of
    the full build's tier S, whose books ran on two worker processes (``workers: 2``). With
    ``workers: 1`` no stage starts a process, the entity extraction included."""
    import longnovel.workers

    config, full_run = default_build
    assert "workers: 2" in config.read_text(encoding="utf-8")

    def no_pool(workers):
        raise AssertionError(f"a pool of {workers} processes with workers: 1")

    monkeypatch.setattr(longnovel.workers, "process_pool", no_pool)
    build(default_config(tmp_path, tmp_path / "one", workers=1), tiers=["S"])
    one = _rows(tmp_path / "one", "inject/injections.parquet")
    assert len(one) >= 40 and sum(r["valid"] for r in one) >= 40
    assert one == _rows(full_run, "inject/injections.parquet", "S")
