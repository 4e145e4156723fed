"""A tier's injections depend only on its own windows: building one tier alone or beside the
others gives the same rows (nothing a generator remembers crosses tiers)."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import yaml
from helpers.builders import build, repo_config_data


def _config(tmp: Path, name: str) -> Path:
    data = repo_config_data("default.yaml")
    data.update(run_dir=str(tmp / name), cache=str(tmp / f"{name}.sqlite"))
    path = tmp / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def _rows(run_dir: Path, path: str, tier: str | None = None) -> list[dict]:
    rows = pq.read_table(run_dir / path).to_pylist()
    return [r for r in rows if tier is None or r["tier"] == tier]


def test_one_tier_alone_equals_that_tier_of_a_full_build(tmp_path):
    build(_config(tmp_path, "all"))
    build(_config(tmp_path, "xl"), tiers=["XL"])
    full, alone = _rows(tmp_path / "all", "inject/injections.parquet", "XL"), \
        _rows(tmp_path / "xl", "inject/injections.parquet")
    assert len(alone) >= 8 and {r["tier"] for r in alone} == {"XL"}
    assert full == alone
    assert _rows(tmp_path / "all", "export/XL/test.parquet") == \
        _rows(tmp_path / "xl", "export/XL/test.parquet")


def test_books_in_parallel_give_the_rows_of_one_process(tmp_path, monkeypatch):
    """The rules keep their state per book: two worker processes give the same rows as one."""
    from longnovel.stages import inject

    found = {}
    for workers in (1, 2):
        monkeypatch.setattr(inject, "_workers", lambda ctx, n=workers: n)
        build(_config(tmp_path, f"w{workers}"), tiers=["S"])
        found[workers] = _rows(tmp_path / f"w{workers}", "inject/injections.parquet")
    assert len(found[1]) >= 40 and sum(r["valid"] for r in found[1]) >= 40
    assert found[1] == found[2]
