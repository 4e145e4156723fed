"""A run directory belongs to one config file, so one config never overwrites another's results,
and longnovel never takes over a folder that is not a run directory."""

from __future__ import annotations

import json
from pathlib import Path

from longnovel.errors import ConfigError

OWNER = "run.json"
OWN_ENTRIES = {OWNER, ".lock", ".state"}  # what longnovel itself may have put in a new run dir


def is_run_dir(run_dir: Path) -> bool:
    """True for a folder longnovel has built in: it has ``run.json`` or a stage manifest."""
    from longnovel.state import MANIFEST, STAGES

    return (run_dir / OWNER).is_file() or any((run_dir / stage / MANIFEST).is_file()
                                               for stage in STAGES)


def check_not_foreign(run_dir: Path) -> None:
    """Stop when ``run_dir`` is a non-empty folder that is not a run directory: stages would
    write, and later delete, files among someone else's."""
    if not run_dir.exists() and not run_dir.is_symlink():
        return
    if not run_dir.is_dir():
        raise ConfigError(f"{run_dir}: run directory is not a folder; choose another --run-dir")
    if is_run_dir(run_dir):
        return
    others = sorted(p.name for p in run_dir.iterdir() if p.name not in OWN_ENTRIES)
    if others:
        shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3
                                         else "")
        raise ConfigError(
            f"{run_dir}: not empty and not a longnovel run directory (it holds {shown}); choose "
            "a new or empty folder with --run-dir, or pass --force-run-dir to build there "
            "anyway")


def claim_run_dir(run_dir: Path, config_path: Path, force: bool = False) -> None:
    """Record the config that owns ``run_dir``, or stop if another config owns it, or if it is
    a non-empty folder that is not a run directory (unless ``force``)."""
    owner_file = run_dir / OWNER
    mine = str(Path(config_path).resolve())
    if not force:
        check_not_foreign(run_dir)
    if owner_file.is_symlink():
        raise ConfigError(f"{owner_file}: must be a plain file, not a link; delete it")
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
