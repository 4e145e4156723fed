"""longnovel stats: stats.json with counts, lengths, scores, agreement; three PNG plots."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
from typer.testing import CliRunner

from longnovel.cli import app

runner = CliRunner()


def test_stats_writes_json_and_plots(fixture_run):
    make, run_dir = fixture_run
    config = make()
    result = runner.invoke(app, ["stats", "-c", str(config)])
    assert result.exit_code == 0, result.output
    rows = [r for f in run_dir.glob("export/*/*.parquet") for r in pq.read_table(f).to_pylist()]
    stats = json.loads((run_dir / "stats/stats.json").read_text(encoding="utf-8"))
    assert stats["samples"] == len(rows) and stats["tiers"] == ["XS", "XS2"]
    assert sum(stats["by_language"].values()) == len(rows)
    assert sum(stats["by_source"].values()) == len(rows)
    injected = [r for r in rows if r["source"] == "injection"]
    assert sum(stats["by_subtype"].values()) == len(injected)
    assert stats["by_type"] == json.loads(
        (run_dir / "export/stats.json").read_text(encoding="utf-8"))["by_type"]
    assert stats["article_tokens"]["by_tier"]["XS"]["max"] == max(
        r["n_tokens"] for r in rows if r["tier"] == "XS")
    assert stats["summary_tokens"]["all"]["count"] == len(rows)
    assert stats["summary_tokens"]["all"]["min"] > 0
    assert stats["scores"]["human"] == {"5": sum(r["source"] == "human" for r in rows)}
    assert stats["judge_agreement"] is None  # no arbitration in the fixture
    for name in stats["plots"].values():
        assert (run_dir / "stats" / name).read_bytes()[:4] == b"\x89PNG"


def test_stats_without_an_export_is_a_one_line_error(tmp_path):
    from helpers.builders import release_config

    config = release_config(tmp_path, tmp_path / "empty")
    result = runner.invoke(app, ["stats", "-c", str(config)])
    assert result.exit_code == 1 and "run `longnovel build`" in result.output
