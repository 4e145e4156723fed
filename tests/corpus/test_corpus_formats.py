"""The three corpus formats (dir, table, booksum) as ingest reads them, and every bad input of
each: one line naming the file (and line) and the problem, exit 1, nothing written (DESIGN.md
section 5)."""

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers.builders import REPO, english_units, ingest, write_config, write_dir_book, write_jsonl
from helpers.builders import ingested_units as units_of

from longnovel.tokenizer import load_tokenizer

BOOKSUM = REPO / "tests" / "data" / "booksum_sample.jsonl"


def test_dir_format_reads_units_in_numeric_order_with_exact_counts(tmp_path):
    root = tmp_path / "corpus"
    units = english_units(3)
    units[10] = ("Tenth unit text.\r\nWith CRLF.  ", "  Tenth summary. ")
    write_dir_book(root, "ferry", units, meta={"title": "The Ferry", "source": "test"})
    config = write_config(tmp_path, [{"path": str(root), "format": "dir", "language": "en"}])
    result = ingest(config)
    assert result.exit_code == 0, result.output
    rows = units_of(tmp_path)
    assert [r["unit_index"] for r in rows] == [1, 2, 3, 10]
    assert rows[3]["text"] == "Tenth unit text.\nWith CRLF."
    assert rows[3]["summary"] == "Tenth summary."
    assert {r["title"] for r in rows} == {"The Ferry"} and rows[0]["source"] == "test"
    tok = load_tokenizer("qwen3")
    assert [r["n_tokens"] for r in rows] == tok.count_batch([r["text"] for r in rows])
    assert [r["n_summary_tokens"] for r in rows] == tok.count_batch([r["summary"] for r in rows])


def test_table_jsonl_and_parquet(tmp_path):
    rows = [{"book_id": "b1", "unit_index": i, "text": f"text {i} " * 5, "summary": f"sum {i}",
             "title": "Book One"} for i in (2, 0, 1)]
    jsonl = write_jsonl(tmp_path / "units.jsonl", rows)
    parquet = tmp_path / "units.parquet"
    pq.write_table(pa.Table.from_pylist(rows), parquet)
    for path in (jsonl, parquet):
        config = write_config(tmp_path, [{"path": str(path), "format": "table", "language": "zh"}])
        result = ingest(config, "--force")
        assert result.exit_code == 0, result.output
        got = units_of(tmp_path)
        assert [r["unit_index"] for r in got] == [0, 1, 2]
        assert {r["language"] for r in got} == {"zh"} and got[0]["title"] == "Book One"


def test_booksum_skips_aggregates_sorts_chapters_and_prefers_sources(tmp_path):
    source = {"path": str(BOOKSUM), "format": "booksum", "language": "en",
              "summary_sources": ["sparknotes"]}
    config = write_config(tmp_path, [source])
    result = ingest(config)
    assert result.exit_code == 0, result.output
    rows = units_of(tmp_path)
    assert [r["unit_index"] for r in rows] == [1, 2, 3, 4, 5]  # chapter 6 has only shmoop
    assert {r["source"] for r in rows} == {"sparknotes"}
    manifest = (tmp_path / "run" / "ingest" / "manifest.json").read_text()
    assert '"aggregate": 1' in manifest and '"no_preferred_summary": 1' in manifest
    source["summary_sources"] = ["shmoop", "sparknotes"]
    write_config(tmp_path, [source])
    assert ingest(config).exit_code == 0
    assert [r["source"] for r in units_of(tmp_path)] == ["shmoop"] * 6


def _bad_dir(tmp, case):
    root = tmp / "corpus"
    units = english_units(2)
    if case == "missing_summary":
        units[3] = ("text only", None)
    elif case == "missing_text":
        units[3] = (None, "summary only")
    elif case == "empty_text":
        units[3] = ("   \n ", "a summary")
    elif case == "empty_summary":
        units[3] = ("a text", "")
    folder = write_dir_book(root, "book", units)
    if case == "gbk":
        (folder / "003.txt").write_bytes("第一章 风雪夜归人".encode("gbk"))
        (folder / "003.summary.txt").write_text("摘要", encoding="utf-8")
    if case == "duplicate":
        (folder / "1.txt").write_text("dup", encoding="utf-8")
    return root, {"missing_summary": "003.txt", "missing_text": "003.summary.txt",
                  "empty_text": "003.txt", "empty_summary": "003.summary.txt",
                  "gbk": "003.txt", "duplicate": "1.txt"}[case]


@pytest.mark.parametrize("case, words", [
    ("missing_summary", "no summary"), ("missing_text", "no text"),
    ("empty_text", "empty text"), ("empty_summary", "empty summary"),
    ("gbk", "not valid UTF-8"), ("duplicate", "duplicate unit"),
])
def test_bad_dir_input_exits_1_naming_the_file_and_writes_nothing(tmp_path, case, words):
    root, culprit = _bad_dir(tmp_path, case)
    config = write_config(tmp_path, [{"path": str(root), "format": "dir", "language": "en"}])
    result = ingest(config)
    assert result.exit_code == 1
    message = result.output.strip()
    assert len(message.splitlines()) == 1 and culprit in message and words in message
    assert not (tmp_path / "run" / "ingest").exists()


@pytest.mark.parametrize("lines, words", [
    (['{"book_id": "b", "unit_index": 1, "text": "t", "summary": "s"}', '{"book_id": "b",'],
     ":2: malformed JSON line"),
    (['{"book_id": "b", "unit_index": 1, "text": "t", "summary": "s"}',
      '{"book_id": "b", "unit_index": 1, "text": "u", "summary": "v"}'], "duplicate unit 1"),
    (['{"book_id": "b", "unit_index": 1, "text": "t"}'], "missing field(s) summary"),
    (['{"book_id": "b", "unit_index": 1, "text": "", "summary": "s"}'], "empty text"),
    (['{"book_id": "b", "unit_index": "one", "text": "t", "summary": "s"}'], "must be an integer"),
])
def test_bad_table_input(tmp_path, lines, words):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = write_config(tmp_path, [{"path": str(path), "format": "table", "language": "en"}])
    result = ingest(config)
    assert result.exit_code == 1 and "bad.jsonl" in result.output and words in result.output
    assert not (tmp_path / "run" / "ingest").exists()


def test_booksum_malformed_line_and_gbk_table(tmp_path):
    path = tmp_path / "b.jsonl"
    path.write_bytes(b'{"bid": 1, "chapter_id": "chapter 1", "text": "t", "summary": '
                     b'[{"source": "x", "text": "s"}]}\n{oops\n')
    config = write_config(tmp_path, [{"path": str(path), "format": "booksum", "language": "en"}])
    result = ingest(config)
    assert result.exit_code == 1 and "b.jsonl:2: malformed JSON line" in result.output
    path.write_bytes('{"book_id": "b"}'.encode("utf-16"))
    result = ingest(config)
    assert result.exit_code == 1 and "not valid UTF-8" in result.output


def test_a_lone_surrogate_in_jsonl_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "units.jsonl"
    good = json.dumps({"book_id": "b", "unit_index": 0, "text": "fine", "summary": "ok"})
    bad = '{"book_id": "b", "unit_index": 1, "text": "broken \\ud800 text", "summary": "ok"}'
    path.write_text(good + "\n" + bad + "\n", encoding="utf-8")
    config = write_config(tmp_path, [{"path": str(path), "format": "table", "language": "en"}])
    result = ingest(config)
    assert result.exit_code == 1
    assert "units.jsonl:line 2" in result.output and "surrogate" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "run" / "ingest").exists()
