"""bench/diff_rows.py: the rows a code change changed, per type, and each one old -> new."""

from __future__ import annotations

import runpy

import pyarrow as pa
import pyarrow.parquet as pq
from helpers.builders import REPO


def _run(tmp_path, name: str, rows: list[dict]):
    folder = tmp_path / name / "inject"
    folder.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows), folder / "injections.parquet")
    return str(tmp_path / name)


def _row(window: str, kind: str, summary: str, valid: bool = True) -> dict:
    return {"window_id": window, "type": kind, "subtype": "swap", "summary": summary,
            "valid": valid, "reject_reason": "" if valid else "not_applicable: none",
            "original_span": "A.", "hallucinated_span": summary}


def test_diff_rows_counts_and_shows_only_what_changed(tmp_path, capsys, monkeypatch):
    old = _run(tmp_path, "old", [_row("w1", "entity", "Ann left."), _row("w2", "entity", "X."),
                                 _row("w1", "number", "Two men.")])
    new = _run(tmp_path, "new", [_row("w1", "entity", "Bob left."), _row("w2", "entity", "X."),
                                 _row("w1", "number", "Two men.", valid=False)])
    monkeypatch.setattr("sys.argv", ["diff_rows.py", old, new, "--type", "entity"])
    runpy.run_path(str(REPO / "bench" / "diff_rows.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "changed rows: 2 of 3; {'entity': 1, 'number': 1}" in out
    assert "== ('w1', 'entity')" in out and "'Bob left.'" in out and "w2" not in out
    assert "number: valid True -> False: 1" in out
