"""The embedded default serves every tier; an empty tier is never silent."""

from __future__ import annotations

import json
import shutil

import pyarrow.parquet as pq
import yaml
from helpers.builders import REPO, english_units, write_config, write_dir_book
from typer.testing import CliRunner

from longnovel.cli import app
from longnovel.tokenizer import load_tokenizer

runner = CliRunner()


def test_the_sample_books_reach_tier_xl_in_units_of_2k_to_4k_tokens():
    tokenizer = load_tokenizer("qwen3")
    for book in ("zh/song-yan-ji", "en/salt-clock"):
        folder = REPO / "data/raw/sample" / book
        texts = sorted(folder.glob("[0-9][0-9][0-9].txt"))
        summaries = sorted(folder.glob("*.summary.txt"))
        assert [p.name.split(".")[0] for p in texts] == [p.name.split(".")[0] for p in summaries]
        numbers = [int(p.stem) for p in texts]
        assert numbers == list(range(1, len(numbers) + 1)), book  # no gap: one run
        counts = tokenizer.count_batch([p.read_text(encoding="utf-8") for p in texts])
        assert sum(counts) >= 110_000, book
        assert all(2000 <= n <= 4000 for n in counts), book
        summary_counts = tokenizer.count_batch([p.read_text(encoding="utf-8")
                                                for p in summaries])
        assert all(150 <= n <= 400 for n in summary_counts), book


def test_build_tier_xl_on_the_default_writes_xl_samples_in_both_languages(default_xl_alone):
    """``longnovel build --tier XL --run-dir DIR``, no config named (conftest)."""
    files = sorted((default_xl_alone / "export" / "XL").glob("*.parquet"))
    assert files and not (default_xl_alone / "export" / "S").exists()
    rows = [r for f in files for r in pq.read_table(f).to_pylist()]
    assert {r["language"] for r in rows} == {"zh", "en"}
    assert all(98_000 <= r["n_tokens"] <= 104_000 for r in rows)
    assert {r["source"] for r in rows} == {"human", "injection"}


def short_corpus(tmp):
    write_dir_book(tmp / "en", "ferry", english_units(6))
    write_dir_book(tmp / "zh", "dukou", {i: ("渡口。" * 20, f"第{i}段。") for i in range(1, 30)})
    return [{"path": str(tmp / "en"), "format": "dir", "language": "en"},
            {"path": str(tmp / "zh"), "format": "dir", "language": "zh"}]


def test_a_corpus_too_short_for_a_requested_tier_says_why_and_exits_non_zero(tmp_path):
    config = write_config(tmp_path, short_corpus(tmp_path), tiers={"T": 60, "BIG": 900},
                          window={"below": 20, "above": 40})
    result = runner.invoke(app, ["build", "-c", str(config), "--tier", "BIG", "--no-progress"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.startswith("error: ")]
    (en,) = lines  # zh reaches the tier; en does not
    assert "tier BIG (880-940 tokens) has no en window" in en
    assert "longest run of consecutive kept units is" in en and "ferry units 1-6" in en
    stats = json.loads((tmp_path / "run/export/stats.json").read_text())
    assert stats["by_tier_language"]["BIG"]["en"] == 0 and stats["by_tier_language"]["BIG"]["zh"]
    card = (tmp_path / "run/export/README.md").read_text()
    assert "| BIG | 0 |" in card  # the tier x language table, with the empty language
    ok = runner.invoke(app, ["build", "-c", str(config), "--tier", "T", "--no-progress"])
    assert ok.exit_code == 0, ok.output
    status = runner.invoke(app, ["status", "-c", str(config), "--tier", "BIG"])
    assert "BIG   en        0" in status.output and "T     en" in runner.invoke(
        app, ["status", "-c", str(config), "--tier", "T"]).output


def test_the_fixture_config_stays_small(tmp_path):
    data = yaml.safe_load((REPO / "configs/fixture.yaml").read_text())
    assert data["window"]["max_per_tier"] <= 12
    shutil.rmtree(tmp_path, ignore_errors=True)
