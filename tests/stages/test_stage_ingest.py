"""Ingest's policies: unit lengths, missing chapters and summaries, config errors (the corpus
formats and their bad inputs: tests/corpus/)."""

import json

import pyarrow.parquet as pq
from helpers.builders import english_units, ingest, write_config, write_dir_book, write_jsonl
from helpers.builders import ingested_units as units_of
from typer.testing import CliRunner

from longnovel.cli import app

runner = CliRunner()


def test_length_policy_drops_and_breaks_runs(tmp_path):
    root = tmp_path / "corpus"
    units = english_units(5)
    units[3] = ("Short.", "Tiny.")
    write_dir_book(root, "b", units)
    source = [{"path": str(root), "format": "dir", "language": "en"}]
    config = write_config(tmp_path, source, units={"min_tokens": 10, "max_tokens": 1000})
    assert ingest(config).exit_code == 0
    rows = units_of(tmp_path)
    assert [(r["unit_index"], r["run"]) for r in rows] == [(1, 0), (2, 0), (4, 1), (5, 1)]
    assert '"too_short": 1' in (tmp_path / "run" / "ingest" / "manifest.json").read_text()
    write_config(tmp_path, source, units={"min_tokens": 10, "max_tokens": 1000,
                                          "out_of_range": "keep"})
    assert ingest(config).exit_code == 0
    assert [r["run"] for r in units_of(tmp_path)] == [0, 0, 0, 0, 0]


def test_missing_path_unknown_format_and_unknown_key(tmp_path):
    config = write_config(tmp_path, [{"path": str(tmp_path / "nope"), "format": "dir",
                                      "language": "en"}])
    result = ingest(config)
    assert result.exit_code == 1 and "nope: corpus path not found" in result.output
    config = write_config(tmp_path, [{"path": str(tmp_path), "format": "epub", "language": "en"}])
    result = ingest(config)
    assert result.exit_code == 1
    assert "config.yaml" in result.output and "corpus.0.format" in result.output
    config = write_config(tmp_path, [{"path": str(tmp_path), "format": "dir", "language": "en"}],
                          windw={"below": 1})
    result = ingest(config)
    assert result.exit_code == 1 and "unknown key 'windw'" in result.output


def test_unknown_export_mix_source_is_a_config_error(tmp_path):
    config = write_config(tmp_path, [{"path": str(tmp_path), "format": "dir", "language": "en"}],
                          export={"mix": {"humans": 0.5, "injection": 0.5}})
    result = ingest(config)
    assert result.exit_code == 1
    assert "config.yaml:7: export.mix: unknown source(s)" in result.output
    assert "humans" in result.output


# --- corpus integrity: gaps, missing summaries, invalid text -------------------------------------

def test_a_missing_chapter_breaks_the_run_and_no_window_spans_it(tmp_path):
    root = tmp_path / "corpus"
    units = english_units(6)
    del units[4]  # chapters 1-3 and 5-6: chapter 4 is missing
    write_dir_book(root, "ferry", units)
    config = write_config(tmp_path, [{"path": str(root), "format": "dir", "language": "en"}],
                          tiers={"T": 100}, window={"below": 40, "above": 400})
    result = runner.invoke(app, ["build", "-c", str(config), "--until", "expand",
                                 "--no-progress"])
    assert result.exit_code == 0, result.output
    rows = units_of(tmp_path)
    runs = {r["unit_index"]: r["run"] for r in rows}
    assert runs[3] != runs[5] and runs[1] == runs[3] and runs[5] == runs[6]
    manifest = json.loads((tmp_path / "run/ingest/manifest.json").read_text())
    assert manifest["gaps"] == 1
    assert manifest["gap_details"] == [{"book_id": "ferry", "after": 3, "before": 5}]
    windows = pq.read_table(tmp_path / "run/expand/windows.parquet").to_pylist()
    assert windows
    assert not any(w["unit_start"] <= 3 and w["unit_end"] >= 5 for w in windows)


def test_missing_summary_is_an_error_by_default_and_dropped_on_request(tmp_path):
    root = tmp_path / "corpus"
    units = english_units(5)
    units[3] = (units[3][0], None)  # chapter 3 has its text but no summary file
    write_dir_book(root, "ferry", units)
    source = [{"path": str(root), "format": "dir", "language": "en"}]
    result = ingest(write_config(tmp_path, source))
    assert result.exit_code == 1
    assert "003.txt: no summary file" in result.output and "missing_summary: drop" in result.output
    assert not (tmp_path / "run" / "ingest").exists()
    config = write_config(tmp_path, source, units={"min_tokens": 0, "max_tokens": 100000,
                                                   "missing_summary": "drop"})
    result = ingest(config)
    assert result.exit_code == 0, result.output
    rows = units_of(tmp_path)
    assert [r["unit_index"] for r in rows] == [1, 2, 4, 5]
    assert len({r["run"] for r in rows}) == 2  # the dropped unit breaks the run
    manifest = json.loads((tmp_path / "run/ingest/manifest.json").read_text())
    assert manifest["dropped"]["missing_summary"] == 1


def test_missing_summary_drop_in_a_table(tmp_path):
    rows = [{"book_id": "b", "unit_index": i, "text": f"text {i}",
             "summary": None if i == 1 else f"sum {i}"} for i in range(3)]
    path = write_jsonl(tmp_path / "units.jsonl", rows)
    source = [{"path": str(path), "format": "table", "language": "en"}]
    result = ingest(write_config(tmp_path, source))
    assert result.exit_code == 1 and "units.jsonl:line 2" in result.output
    config = write_config(tmp_path, source, units={"min_tokens": 0, "max_tokens": 100000,
                                                   "missing_summary": "drop"})
    assert ingest(config).exit_code == 0
    assert [r["unit_index"] for r in units_of(tmp_path)] == [0, 2]

