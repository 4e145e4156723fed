"""BookSum's per-(chapter, source) CSV/Parquet layout: columns picked, aggregates skipped, one
source per chapter whatever the row order, one-line errors."""

from __future__ import annotations

import csv
import json
import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers.builders import write_config

from longnovel.config import CorpusSource
from longnovel.corpus import read_source
from longnovel.errors import InputError

COLUMNS = ["bid", "is_aggregate", "source", "chapter_path", "summary_path", "book_id",
           "summary_id", "content", "summary", "chapter", "chapter_length", "summary_name",
           "summary_url", "summary_text", "summary_analysis", "summary_length",
           "analysis_length"]


def chapter_row(bid, title, number, source, aggregate=False, text=None, summary=None):
    """One row as the widely used release has it (fields the reader ignores filled too)."""
    text = text or f"Text of {title} chapter {number}.\nA second line, with \"quotes\", too."
    return {"bid": bid, "is_aggregate": aggregate, "source": source,
            "chapter_path": f"all_chapterized_books/{bid}-{title.lower()}/chapter_{number}.txt",
            "summary_path": f"finished_summaries/{source}/{title}/section_{number}/part_0.txt",
            "book_id": f"{title}.chapter {number}", "summary_id": f"chapter {number}",
            "content": None, "summary": "{}", "chapter": text,
            "chapter_length": len(text.split()), "summary_name": f"Chapter {number}",
            "summary_url": "https://example.org", "analysis_length": 0,
            "summary_text": summary or f"{source} on {title} {number}.",
            "summary_analysis": "", "summary_length": 5}


def rows() -> list[dict]:
    return [
        chapter_row(7, "Emma", 1, "shmoop"), chapter_row(7, "Emma", 1, "sparknotes"),
        chapter_row(7, "Emma", 1, "cliffnotes"),
        chapter_row(7, "Emma", 2, "gradesaver"), chapter_row(7, "Emma", 2, "pinkmonkey"),
        chapter_row(7, "Emma", 3, "shmoop", aggregate=True),
        chapter_row(12, "Persuasion", 10, "zzz-notes"), chapter_row(12, "Persuasion", 10, "aaa"),
        chapter_row(12, "Persuasion", 11, "bookwolf"),
    ]


def write_csv(path, records):
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows({k: ("" if v is None else v) for k, v in r.items()} for r in records)
    return path


def write_parquet(path, records):
    pq.write_table(pa.Table.from_pylist(records), path)
    return path


def units(path, sources=None, skipped=None):
    source = CorpusSource(path=str(path), format="booksum", language="en",
                          summary_sources=sources)
    return [(u.book_id, u.title, u.unit_index, u.source, u.summary, u.text)
            for u in read_source(source, skipped)]


def test_csv_one_unit_per_chapter_with_the_preferred_source(tmp_path):
    skipped: dict = {}
    found = units(write_csv(tmp_path / "train.csv", rows()), skipped=skipped)
    assert [(b, t, n, s) for b, t, n, s, _, _ in found] == [
        ("12", "Persuasion", 10, "aaa"),  # neither is preferred: alphabetical
        ("12", "Persuasion", 11, "bookwolf"),
        ("7", "Emma", 1, "sparknotes"), ("7", "Emma", 2, "gradesaver")]
    assert found[2][4] == "sparknotes on Emma 1."
    assert found[2][5] == 'Text of Emma chapter 1.\nA second line, with "quotes", too.'
    assert skipped == {"aggregate": 1}


def test_the_choice_does_not_depend_on_row_order_or_file_type(tmp_path):
    shuffled = rows()
    random.Random(3).shuffle(shuffled)
    first = units(write_csv(tmp_path / "a.csv", rows()))
    assert units(write_csv(tmp_path / "b.csv", shuffled)) == first
    assert units(write_parquet(tmp_path / "c.parquet", shuffled)) == first


def test_configured_sources_decide_and_chapters_without_them_are_counted(tmp_path):
    skipped: dict = {}
    found = units(write_csv(tmp_path / "t.csv", rows()), ["Shmoop", "pinkmonkey"], skipped)
    assert [(b, n, s) for b, _, n, s, _, _ in found] == [("7", 1, "shmoop"),
                                                          ("7", 2, "pinkmonkey")]
    assert skipped == {"aggregate": 1, "no_preferred_summary": 2}


def test_a_folder_of_split_files_is_read_whole(tmp_path):
    folder = tmp_path / "booksum"
    folder.mkdir()
    write_csv(folder / "train.csv", rows()[:5])
    write_parquet(folder / "test.parquet", rows()[5:])
    assert units(folder) == units(write_csv(tmp_path / "all.csv", rows()))


def test_missing_columns_are_one_line_naming_the_file(tmp_path):
    path = tmp_path / "bad.csv"
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["bid", "source", "chapter"], ["1", "shmoop", "x"]])
    with pytest.raises(InputError) as error:
        units(path)
    assert str(error.value) == (
        f"{path}: missing column(s) summary_text, chapter_path or book_id or summary_id "
        "(BookSum chapter rows need bid, chapter, summary_text, source and one of "
        "chapter_path, book_id, summary_id)")


def test_an_empty_summary_names_its_line(tmp_path):
    bad = rows()
    bad[3]["summary_text"] = ""
    path = write_csv(tmp_path / "t.csv", bad)
    with pytest.raises(InputError, match=r"t\.csv:line 5: empty summary_text"):
        units(path)


def test_ingest_reads_the_csv_layout(tmp_path):
    from longnovel.config import load_config
    from longnovel.pipeline import Pipeline

    path = write_csv(tmp_path / "chapters.csv", rows())
    config = write_config(tmp_path, [{"path": str(path), "format": "booksum",
                                      "language": "en"}])
    Pipeline(load_config(config), progress=False).run_stage("ingest", log=lambda m: None)
    table = pq.read_table(tmp_path / "run/ingest/units.parquet").to_pylist()
    assert [(r["book_id"], r["unit_index"], r["source"]) for r in table] == [
        ("12", 10, "aaa"), ("12", 11, "bookwolf"), ("7", 1, "sparknotes"),
        ("7", 2, "gradesaver")]
    manifest = json.loads((tmp_path / "run/ingest/manifest.json").read_text())
    assert manifest["dropped"] == {"aggregate": 1}
