"""Fingerprints cover exactly the keys that change results; content, not timestamps, decides."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from helpers.builders import english_units, write_config, write_dir_book
from pydantic import BaseModel
from typer.testing import CliRunner

from longnovel.cli import app
from longnovel.config import Config
from longnovel.state import STAGES, RunState

runner = CliRunner()
LATER = {"ingest": STAGES, "expand": STAGES[1:]}

# Every config key (models.* for a model's fields), the stages whose fingerprint it must change,
# and a new value. A key missing here fails test_every_config_key_is_classified.
ALL_AFTER_EXPAND = {"expand", "arbitrate", "inject", "export"}
KEYS: dict[str, tuple[set[str], object]] = {
    "run_dir": (set(), "elsewhere"),
    "seed": (ALL_AFTER_EXPAND, 99),
    "tokenizer": ({"ingest", "expand"}, "TOKDIR"),
    "corpus.path": ({"ingest"}, "OTHER_CORPUS"),
    "corpus.format": ({"ingest"}, "table"),
    "corpus.language": ({"ingest"}, "zh"),
    "corpus.summary_sources": ({"ingest"}, ["sparknotes"]),
    "units.min_tokens": ({"ingest"}, 1),
    "units.max_tokens": ({"ingest"}, 99999),
    "units.out_of_range": ({"ingest"}, "keep"),
    "units.missing_summary": ({"ingest"}, "drop"),
    "tiers": ({"expand"}, {"T": 61}),
    "window.below": ({"expand"}, 21),
    "window.above": ({"expand"}, 41),
    "window.max_per_tier": ({"expand"}, 3),
    "window.max_per_book": ({"expand"}, 3),
    "arbitrate.summarizers": ({"arbitrate"}, ["a"]),
    "arbitrate.judges": ({"arbitrate"}, ["b"]),
    "arbitrate.use_reference": ({"arbitrate"}, False),
    "arbitrate.rule": ({"arbitrate"}, "unanimous"),
    "arbitrate.max_windows_per_tier": ({"arbitrate"}, 2),
    "inject.generator": ({"inject"}, "rules"),
    "inject.entities": ({"inject"}, "g"),
    "inject.types": ({"inject"}, ["entity", "number"]),
    "inject.types_per_window": ({"inject"}, 3),
    "inject.max_retries": ({"inject"}, 5),
    "inject.verify": ({"inject"}, "g"),
    "export.splits": ({"export"}, {"test": 0.5, "valid": 0.5}),
    "export.mix": ({"export"}, {"human": 0.5, "injection": 0.5}),
    "export.max_per_tier": ({"export"}, 7),
    "cache": (set(), "other.sqlite"),
    "workers": (set(), 1),
    "models": (set(), None),  # the map itself; its entries are classified per field below
}
# A model's fields: result-bearing for the stages that use the model ("USERS"), or neutral.
MODEL_KEYS: dict[str, tuple[bool, object]] = {
    "provider": (True, "zhipuai"),
    "model": (True, "other-model"),
    "base_url": (True, "http://127.0.0.1:9/v1"),
    "cache_namespace": (True, "vllm-box-1"),
    "temperature": (True, 0.7),
    "max_tokens": (True, 77),
    "context_window": (True, 4096),
    "extra_body": (True, {"top_p": 0.5}),
    "api_key_env": (False, "SOME_KEY"),
    "max_concurrency": (False, 3),
    "requests_per_minute": (False, 10),
    "tokens_per_minute": (False, 1000),
    "timeout_s": (False, 5.0),
    "max_retries": (False, 0),
    "retry_after_max_s": (False, 60.0),
    "price.input_per_mtok": (False, 2.5),
    "price.output_per_mtok": (False, 10.0),
    "price.batch_discount": (False, 0.25),
    "mode": (False, "batch"),
    "batch_poll_s": (False, 5.0),
}
USERS = {"a": {"arbitrate"}, "b": {"arbitrate"}, "g": {"inject"}, "unused": set()}


def base_config(tmp: Path) -> dict:
    write_dir_book(tmp / "en", "ferry", english_units(4))
    model = {"provider": "openai", "model": "m", "base_url": "http://127.0.0.1:1/v1"}
    return {
        "run_dir": str(tmp / "run"), "seed": 7, "tokenizer": "qwen3",
        "corpus": [{"path": str(tmp / "en"), "format": "dir", "language": "en"}],
        "tiers": {"T": 60}, "window": {"below": 20, "above": 40},
        "models": {name: dict(model) for name in USERS},
        "arbitrate": {"summarizers": ["a", "b"], "judges": ["a", "b"]},
        "inject": {"generator": "g", "entities": "lexical", "types_per_window": 2},
        "cache": str(tmp / "cache.sqlite"),
    }


def fingerprints(data: dict) -> dict[str, str]:
    config = Config.model_validate(data)
    state = RunState(config, Path(config.run_dir), config.select_tiers())
    return {stage: state.fingerprint(stage) for stage in STAGES}


def set_key(data: dict, path: str, value) -> dict:
    data = json.loads(json.dumps(data))
    parts = path.split(".")
    if parts[0] == "corpus":
        data["corpus"][0][parts[1]] = value
        return data
    node = data
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value
    return data


def config_keys(model: type[BaseModel], prefix: str = "") -> list[str]:
    """Every leaf key of a config model (lists of models and model maps are walked into)."""
    from longnovel.llm.config import ModelConfig

    keys = []
    for name, field in model.model_fields.items():
        path = f"{prefix}{name}"
        annotation = field.annotation
        inner = getattr(annotation, "__args__", ())
        nested = [a for a in (annotation, *inner) if isinstance(a, type)
                  and issubclass(a, BaseModel)]
        if nested and nested[0] is not ModelConfig:
            keys += config_keys(nested[0], f"{path}.")
        else:
            keys.append(path)
    return keys


def test_every_config_key_is_classified():
    from longnovel.llm.config import ModelConfig

    assert sorted(set(config_keys(Config)) - set(KEYS)) == []
    assert sorted(set(config_keys(ModelConfig)) - set(MODEL_KEYS)) == []


def _resolve(value, tmp: Path):
    if value == "TOKDIR":
        folder = tmp / "tok"
        folder.mkdir(exist_ok=True)
        (folder / "tokenizer.json").write_text("{}")
        return str(folder)
    if value == "OTHER_CORPUS":
        write_dir_book(tmp / "other", "ferry", english_units(5))
        return str(tmp / "other")
    return value


@pytest.mark.parametrize("key", sorted(KEYS))
def test_a_config_key_changes_exactly_its_stages(tmp_path, key):
    owners, value = KEYS[key]
    if value is None:
        return
    data = base_config(tmp_path)
    before = fingerprints(data)
    after = fingerprints(set_key(data, key, _resolve(value, tmp_path)))
    assert {s for s in STAGES if before[s] != after[s]} == owners


@pytest.mark.parametrize("model", sorted(USERS))
@pytest.mark.parametrize("key", sorted(MODEL_KEYS))
def test_a_model_key_changes_exactly_the_stages_using_the_model(tmp_path, model, key):
    bearing, value = MODEL_KEYS[key]
    data = base_config(tmp_path)
    before = fingerprints(data)
    after = fingerprints(set_key(data, f"models.{model}.{key}", value))
    expected = USERS[model] if bearing else set()
    assert {s for s in STAGES if before[s] != after[s]} == expected


def test_prompt_files_are_in_the_fingerprints_of_the_stages_that_send_them(tmp_path, monkeypatch):
    from longnovel import templates

    data = base_config(tmp_path)
    before = fingerprints(data)
    real = templates.prompts_digest
    for prefix, stage in (("detect", "export"), ("arbitrate_", "arbitrate"),
                          ("inject_", "inject")):
        monkeypatch.setattr(templates, "prompts_digest",
                            lambda p, prefix=prefix: "edited" if p == prefix else real(p))
        after = fingerprints(data)
        assert {s for s in STAGES if before[s] != after[s]} == {stage}


def test_corpus_digest_is_content_not_location_or_time(tmp_path):
    data = base_config(tmp_path)
    before = fingerprints(data)
    for path in (tmp_path / "en").rglob("*.txt"):
        os.utime(path, (1, 1))
    assert fingerprints(data) == before
    moved = tmp_path / "moved"
    (tmp_path / "en").rename(moved)
    assert fingerprints(set_key(data, "corpus.path", str(moved)))["ingest"] == before["ingest"]
    (moved / "ferry" / "002.txt").write_text("A different second unit.", encoding="utf-8")
    assert fingerprints(set_key(data, "corpus.path", str(moved)))["ingest"] != before["ingest"]


# --- builds --------------------------------------------------------------------------------------

def build(config: Path, *extra: str):
    return runner.invoke(app, ["build", "-c", str(config), "--no-progress", *extra])


def ran(result) -> list[str]:
    return [line.split(":")[0] for line in result.output.splitlines()
            if " in, " in line and " out" in line]


def rules_config(tmp: Path) -> Path:
    write_dir_book(tmp / "en", "ferry", english_units(10))
    return write_config(tmp, [{"path": str(tmp / "en"), "format": "dir", "language": "en"}],
                        inject={"types_per_window": 2}, models={
                            "spare": {"provider": "openai", "model": "m"}})


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("tiers", {"T": 200}, STAGES[1:]),
    ("inject.types_per_window", 3, ["inject", "export"]),
    ("export.splits", {"test": 0.5, "valid": 0.5}, ["export"]),
    ("models.spare.max_concurrency", 3, []),
    ("models.spare.timeout_s", 9.0, []),
])
def test_an_edit_re_runs_its_stage_and_what_follows(tmp_path, key, value, expected):
    config = rules_config(tmp_path)
    assert build(config).exit_code == 0
    data = set_key(yaml.safe_load(config.read_text()), key, value)
    config.write_text(yaml.safe_dump(data))
    result = build(config)
    assert result.exit_code == 0, result.output
    assert ran(result) == expected


def test_touch_re_runs_nothing_and_an_identical_ingest_cuts_the_cascade(tmp_path):
    config = rules_config(tmp_path)
    assert build(config).exit_code == 0
    for path in (tmp_path / "en").rglob("*"):
        path.touch()
    assert ran(build(config)) == []
    first = tmp_path / "en" / "ferry" / "001.txt"
    first.write_text(first.read_text() + "\n\n   \n")  # trailing blank lines: cleaned away
    result = build(config)
    assert ran(result) == ["ingest"]
    assert "expand: fresh, skipped" in result.output


def test_an_output_edited_by_hand_makes_its_stage_stale(tmp_path):
    config = rules_config(tmp_path)
    assert build(config).exit_code == 0
    stats = tmp_path / "run" / "export" / "stats.json"
    stats.write_text("edited")
    status = json.loads(runner.invoke(app, ["status", "-c", str(config), "--json"]).output)
    export = {r["stage"]: r for r in status}["export"]
    assert export["state"] == "stale" and "changed outside" in export["why"]
    assert ran(build(config)) == ["export"]
    assert json.loads(stats.read_text())["samples"] > 0


def test_a_card_edited_by_hand_is_rewritten_without_rerunning_export(tmp_path):
    config = rules_config(tmp_path)
    assert build(config).exit_code == 0
    card = tmp_path / "run" / "export" / "README.md"
    written = card.read_text()
    card.write_text("edited")
    status = runner.invoke(app, ["status", "-c", str(config)]).output
    assert "dataset card export/README.md: stale" in status
    result = build(config)
    assert ran(result) == [] and "release: wrote the dataset card" in result.output
    assert card.read_text() == written
    assert "dataset card export/README.md: fresh" in runner.invoke(
        app, ["status", "-c", str(config)]).output


def test_plan_writes_no_stage_output(tmp_path):
    config = rules_config(tmp_path)
    result = runner.invoke(app, ["plan", "-c", str(config), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "run" / "ingest").exists()
    assert build(config).exit_code == 0
    result = runner.invoke(app, ["plan", "-c", str(config), "--tier", "T", "--no-progress"])
    assert result.exit_code == 0
    assert ran(build(config)) == []


# --- the lock ------------------------------------------------------------------------------------

HOLDER = textwrap.dedent("""
    import sys, time
    from longnovel.state import RunLock
    lock = RunLock(sys.argv[1], command="holder").acquire()
    print("locked", flush=True)
    time.sleep(60)
""")


def test_a_second_build_stops_at_once_and_a_dead_holder_is_taken_over(tmp_path):
    config = rules_config(tmp_path)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(run_dir)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        # No clock here: a build that waited for the lock would get it when the holder's
        # sleep ends, and exit 0.
        result = build(config)
        assert result.exit_code == 1
        assert f"process {holder.pid}" in result.output and "holder" in result.output
        assert not (run_dir / "ingest").exists()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    result = build(config)
    assert result.exit_code == 0, result.output
    assert (run_dir / "export" / "manifest.json").is_file()
