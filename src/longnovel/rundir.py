"""A run directory belongs to one config file, so one config never overwrites another's results."""

from __future__ import annotations

import json
from pathlib import Path

from longnovel.errors import ConfigError

OWNER = "run.json"


def claim_run_dir(run_dir: Path, config_path: Path) -> None:
    """Record the config that owns ``run_dir``, or stop if another config owns it."""
    owner_file = run_dir / OWNER
    mine = str(Path(config_path).resolve())
    if owner_file.is_file():
        try:
            owner = json.loads(owner_file.read_text(encoding="utf-8")).get("config")
        except (OSError, json.JSONDecodeError):
            owner = None
        if owner and owner != mine:
            raise ConfigError(
                f"{run_dir}: run directory belongs to config {owner}; use --run-dir to pick "
                f"another folder, or delete {owner_file} to hand it over")
        if owner == mine:
            return
    from longnovel.state import atomic_write_bytes, writing

    with writing(run_dir):
        run_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(owner_file, (json.dumps({"config": mine}) + "\n").encode("utf-8"))
