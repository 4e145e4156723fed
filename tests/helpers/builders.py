"""Small builders for test corpora and configs."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def write_config(tmp: Path, corpus: list[dict], **overrides) -> Path:
    """A config for ``corpus`` with tiny limits, its run dir inside ``tmp``."""
    config = {
        "run_dir": str(tmp / "run"),
        "seed": 7,
        "corpus": corpus,
        "units": {"min_tokens": 0, "max_tokens": 100000, "out_of_range": "drop"},
        "tiers": {"T": 60},
        "window": {"below": 20, "above": 40},
        "cache": str(tmp / "cache.sqlite"),
    }
    config.update(overrides)
    path = tmp / "config.yaml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


def write_dir_book(root: Path, book: str, units: dict[int, tuple[str, str]], meta=None) -> Path:
    """A ``dir``-format book: NNN.txt and NNN.summary.txt per unit."""
    folder = root / book
    folder.mkdir(parents=True, exist_ok=True)
    for number, (text, summary) in units.items():
        if text is not None:
            (folder / f"{number:03d}.txt").write_text(text, encoding="utf-8")
        if summary is not None:
            (folder / f"{number:03d}.summary.txt").write_text(summary, encoding="utf-8")
    if meta:
        (folder / "book.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    return folder


def english_units(n: int, words: int = 30) -> dict[int, tuple[str, str]]:
    """``n`` distinct little units of about ``words`` words each."""
    return {
        i: (" ".join(f"Unit{i} word{w} of the ferry story." for w in range(words // 6)),
            f"Summary of unit {i}: the ferry crossed {i} times.")
        for i in range(1, n + 1)
    }


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n",
                    encoding="utf-8")
    return path


def repo_config_data(name: str) -> dict:
    """The YAML data of ``configs/<name>``, its corpus paths made absolute the way longnovel
    resolves them (against the config file's folder)."""
    from longnovel.config import load_config

    path = REPO / "configs" / name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for source, resolved in zip(data["corpus"], load_config(path).corpus, strict=True):
        source["path"] = resolved.path
    return data


def release_config(tmp: Path, run_dir: Path, **overrides) -> Path:
    """configs/fixture.yaml with absolute corpus paths and run dir and cache inside ``tmp``."""
    data = repo_config_data("fixture.yaml")
    data.update(run_dir=str(run_dir), cache=str(tmp / "cache.sqlite"), **overrides)
    path = tmp / "config.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def default_config(tmp: Path, run_dir: Path, **overrides) -> Path:
    """configs/default.yaml (the embedded default) with absolute corpus paths, its run dir
    ``run_dir`` and its cache inside ``tmp``; written as ``tmp/<run dir name>.yaml``."""
    data = repo_config_data("default.yaml")
    data.update(run_dir=str(run_dir), cache=str(tmp / f"{run_dir.name}.sqlite"), **overrides)
    path = tmp / f"{run_dir.name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def build(config: Path, tiers: list[str] | None = None, **kwargs) -> None:
    """Build every stage of ``config`` quietly (only ``tiers`` when given)."""
    from longnovel.config import load_config
    from longnovel.pipeline import Pipeline

    Pipeline(load_config(config), tiers, progress=False).build(log=lambda m: None, **kwargs)


def ingest(config: Path, *extra: str):
    """``longnovel ingest`` of ``config`` through the CLI (a ``CliRunner`` result)."""
    from typer.testing import CliRunner

    from longnovel.cli import app

    return CliRunner().invoke(app, ["ingest", "--config", str(config), "--no-progress", *extra])


def ingested_units(tmp: Path) -> list[dict]:
    """The rows of ``<tmp>/run/ingest/units.parquet`` (the run dir of ``write_config``)."""
    import pyarrow.parquet as pq

    return pq.read_table(tmp / "run" / "ingest" / "units.parquet").to_pylist()
