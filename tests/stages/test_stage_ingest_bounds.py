"""Input bounds (issue 21 item 8): a huge unit is judged too long before it is tokenized, files
of a book folder that are not unit files are counted and named, NUL bytes are refused, the
config's impossible settings and duplicate keys are one line, and a missing tokenizer is
blamed on the tokenizer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.builders import english_units, write_config, write_dir_book
from typer.testing import CliRunner

from longnovel.cli import app

runner = CliRunner()


def en_config(tmp: Path, **overrides) -> Path:
    return write_config(tmp, [{"path": str(tmp / "en"), "format": "dir", "language": "en"}],
                        **overrides)


def invoke(*args: str):
    return runner.invoke(app, [*args])


def one_line(result, *needles: str) -> str:
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_a_huge_unit_is_dropped_as_too_long_without_being_tokenized(tmp_path, monkeypatch):
    from longnovel.tokenizer import QwenTokenizer

    units = english_units(4)
    units[2] = ("The river rose. " * 200_000, units[2][1])  # 3.2M characters, one line
    write_dir_book(tmp_path / "en", "ferry", units)
    config = en_config(tmp_path, units={"min_tokens": 0, "max_tokens": 2000,
                                        "out_of_range": "drop"})
    seen: list[int] = []
    original = QwenTokenizer.count_batch

    def spy(self, texts, progress=None):
        seen.extend(len(t) for t in texts)
        return original(self, texts, progress)

    monkeypatch.setattr(QwenTokenizer, "count_batch", spy)
    result = invoke("ingest", "-c", str(config), "--no-progress")
    assert result.exit_code == 0, result.output
    assert seen and max(seen) < 100_000  # the huge text never reached the tokenizer
    manifest = json.loads((tmp_path / "run" / "ingest" / "manifest.json").read_text())
    assert manifest["dropped"]["too_long"] == 1 and manifest["rows_out"] == 3


def test_the_bound_never_drops_a_unit_that_fits(tmp_path):
    from longnovel.stages.ingest import CHARS_PER_TOKEN_BOUND, longest_token
    from longnovel.tokenizer import load_tokenizer

    tokenizer = load_tokenizer("qwen3")
    longest = longest_token(tokenizer)
    assert 0 < longest <= CHARS_PER_TOKEN_BOUND // 2
    # the text that packs the most characters into its tokens: runs of one long token
    vocab = tokenizer.backend.get_vocab(with_added_tokens=True)
    token = max(vocab, key=len)
    text = tokenizer.backend.decode([vocab[token]]) * 50
    assert len(text) / tokenizer.count(text) <= CHARS_PER_TOKEN_BOUND


def test_files_that_are_not_unit_files_are_counted_and_named(tmp_path):
    folder = write_dir_book(tmp_path / "en", "ferry", english_units(4))
    (folder / "chapter5.txt").write_text("A chapter with a name, not a number.")
    (folder / "006a.summary.txt").write_text("A summary with a letter in its number.")
    (folder / ".DS_Store").write_bytes(b"\0\0")
    config = en_config(tmp_path)
    result = invoke("ingest", "-c", str(config), "--no-progress")
    assert result.exit_code == 0, result.output
    assert "2 file(s) in book folders are not named NNN.txt" in result.output
    assert "chapter5.txt" in result.output and "006a.summary.txt" in result.output
    manifest = json.loads((tmp_path / "run" / "ingest" / "manifest.json").read_text())
    assert manifest["dropped"]["not_a_unit_file"] == 2


def test_a_nul_byte_is_refused_naming_the_file(tmp_path):
    folder = write_dir_book(tmp_path / "en", "ferry", english_units(3))
    (folder / "002.txt").write_text("Before the NUL\0after it.")
    result = invoke("ingest", "-c", str(en_config(tmp_path)), "--no-progress")
    one_line(result, str(folder / "002.txt"), "NUL byte", "character 14")
    assert not (tmp_path / "run" / "ingest" / "units.parquet").exists()


@pytest.mark.parametrize(("overrides", "needles"), [
    ({"tiers": {"T": 0}}, ["tier T's target must be a positive number"]),
    ({"tiers": {"T": -5}}, ["tier T's target must be a positive number"]),
    ({"tiers": {"T": 60}, "window": {"below": 60, "above": 40}},
     ["window.below (60) must be less than every tier's target (tier T is 60)"]),
    ({"units": {"min_tokens": 500, "max_tokens": 100}},
     ["units:", "min_tokens (500) is above max_tokens (100)"]),
])
def test_impossible_settings_are_one_line(tmp_path, overrides, needles):
    write_dir_book(tmp_path / "en", "ferry", english_units(3))
    config = en_config(tmp_path, **overrides)
    one_line(invoke("build", "-c", str(config), "--no-progress"), str(config), *needles)


def test_a_duplicate_key_is_one_line_with_both_lines(tmp_path):
    write_dir_book(tmp_path / "en", "ferry", english_units(3))
    config = en_config(tmp_path)
    text = config.read_text() + "seed: 8\n"
    config.write_text(text)
    last = len(text.splitlines())
    first = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("seed:"))
    one_line(invoke("build", "-c", str(config), "--no-progress"),
             f"{config}:{last}:", f"duplicate key 'seed' (first on line {first})")


def test_a_missing_tokenizer_is_blamed_on_the_tokenizer(tmp_path):
    write_dir_book(tmp_path / "en", "ferry", english_units(3))
    config = en_config(tmp_path, tokenizer="/nonexistent")
    line = one_line(invoke("build", "-c", str(config), "--no-progress"), "tokenizer",
                    "/nonexistent")
    assert ".txt" not in line
