"""The ``workers`` setting: config key and ``--workers``, validated, shown, in no fingerprint."""

from __future__ import annotations

import os

import pytest
import yaml
from helpers.builders import english_units, write_config, write_dir_book
from typer.testing import CliRunner

from longnovel.cli import app
from longnovel.config import available_cores, load_config

runner = CliRunner()


def _config(tmp_path, **overrides):
    write_dir_book(tmp_path / "en", "ferry", english_units(6))
    corpus = [{"path": str(tmp_path / "en"), "format": "dir", "language": "en"}]
    return write_config(tmp_path, corpus, **overrides)


def test_the_default_is_the_cores_this_process_may_use(tmp_path):
    assert available_cores() == len(os.sched_getaffinity(0))
    assert load_config(_config(tmp_path)).workers == available_cores()


def test_a_configured_count_is_kept_and_shown_by_status(tmp_path):
    config = _config(tmp_path, workers=3)
    assert load_config(config).workers == 3
    result = runner.invoke(app, ["status", "-c", str(config)])
    assert result.exit_code == 0, result.output
    assert f"workers: 3 (cores available: {available_cores()})" in result.output


@pytest.mark.parametrize("value", [0, -2, "many"])
def test_a_bad_configured_count_is_one_line_naming_the_key(tmp_path, value):
    config = _config(tmp_path, workers=value)
    result = runner.invoke(app, ["status", "-c", str(config)])
    assert result.exit_code == 1
    line = result.output.strip()
    assert "\n" not in line and str(config) in line and "workers" in line


@pytest.mark.parametrize("command", ["build", "inject"])
def test_a_flag_below_one_is_a_usage_error(tmp_path, command):
    config = _config(tmp_path)
    result = runner.invoke(app, [command, "-c", str(config), "--workers", "0"])
    assert result.exit_code == 2 and "--workers" in result.output
    assert not (tmp_path / "run").exists()


def test_the_flag_reaches_the_inject_stage_as_config_workers(tmp_path, monkeypatch):
    import longnovel.stages.inject as inject

    seen = []
    real = inject.run

    def recording(ctx):
        seen.append(ctx.config.workers)
        return real(ctx)

    monkeypatch.setattr(inject, "run", recording)
    config = _config(tmp_path, workers=1)
    result = runner.invoke(app, ["build", "-c", str(config), "--workers", "3", "--no-progress"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["inject", "-c", str(config), "--force", "--workers", "2",
                                 "--no-progress"])
    assert result.exit_code == 0, result.output
    assert seen == [3, 2]


def test_the_count_changes_no_fingerprint_and_stays_off_the_card(tmp_path):
    config = _config(tmp_path, workers=1)
    assert runner.invoke(app, ["build", "-c", str(config), "--no-progress"]).exit_code == 0
    card = (tmp_path / "run/export/README.md").read_text(encoding="utf-8")
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    config.write_text(yaml.safe_dump({**data, "workers": 2}), encoding="utf-8")
    result = runner.invoke(app, ["build", "-c", str(config), "--workers", "3", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "done: 0 stage(s) run" in result.output and "release:" not in result.output
    assert (tmp_path / "run/export/README.md").read_text(encoding="utf-8") == card
    assert "workers" not in card
