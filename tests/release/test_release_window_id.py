"""window_id in release rows: a window's human summary and its injected copies share it."""

from __future__ import annotations

from collections import defaultdict

import pyarrow.parquet as pq

from longnovel.release.review import exported_rows


def test_window_id_pairs_a_human_summary_with_its_injected_copies(built_fixture):
    rows = exported_rows(built_fixture)
    windows = {w["window_id"]: w for w in pq.read_table(
        built_fixture / "expand/windows.parquet").to_pylist()}
    originals = {(r["window_id"], r["summary"]): r["original_summary"] for r in pq.read_table(
        built_fixture / "inject/injections.parquet").to_pylist() if r["valid"]}
    by_window: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        window = windows[row["window_id"]]
        assert (row["article"], row["tier"], row["book_id"]) == (
            window["article"], window["tier"], window["book_id"])
        by_window[row["window_id"]].append(row)
    paired = 0
    for window_id, group in by_window.items():
        humans = [r for r in group if r["source"] == "human"]
        assert len(humans) <= 1
        for row in group:
            if row["source"] == "injection" and humans:
                assert originals[(window_id, row["summary"])] == humans[0]["summary"]
                paired += 1
    assert paired >= 4
