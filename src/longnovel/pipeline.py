"""Runs stages in order, with fingerprints, manifests and atomic writes (DESIGN.md section 2)."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from types import ModuleType

import pyarrow as pa
import pyarrow.parquet as pq

from longnovel.config import Config
from longnovel.errors import StageError
from longnovel.stages.base import StageContext, StageResult

STAGES = ["ingest", "expand", "arbitrate", "inject", "export"]
TIERED = {"expand", "arbitrate", "inject", "export"}
MANIFEST = "manifest.json"


def stage_module(name: str) -> ModuleType:
    return importlib.import_module(f"longnovel.stages.{name}")


def _hash(obj) -> str:
    blob = json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


class Fingerprints(dict):
    """Lazily computed fingerprint of every stage: config section, code version, upstream."""

    def __init__(self, config: Config, tiers: list[str] | None):
        super().__init__()
        self.config = config
        self.tier_names = sorted(tiers) if tiers else sorted(config.tiers)
        self.sections: dict[str, dict] = {}  # each stage's config section, as fingerprinted

    def __missing__(self, name: str) -> str:
        module = stage_module(name)
        section = self.sections[name] = module.config_section(self.config)
        if name in TIERED:
            section = {**section, "tiers": self.tier_names}
        upstream = {u: self[u] for u in module.UPSTREAM}
        self[name] = _hash({"config": section, "code": module.CODE_VERSION, "up": upstream})
        return self[name]


def read_manifest(run_dir: Path, stage: str) -> dict | None:
    path = run_dir / stage / MANIFEST
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_table(path: Path, table: pa.Table) -> None:
    """Write a Parquet file atomically (zstd-compressed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def stage_state(run_dir: Path, stage: str, fingerprint: str) -> str:
    """``fresh``, ``stale`` or ``missing`` for one stage."""
    manifest = read_manifest(run_dir, stage)
    if manifest is None:
        return "missing"
    outputs = manifest.get("outputs", [])
    if any(not (run_dir / stage / rel).is_file() for rel in outputs):
        return "missing"
    if manifest.get("fingerprint") != fingerprint:
        return "stale"
    for up, recorded in (manifest.get("upstream") or {}).items():
        current = read_manifest(run_dir, up)
        if (current or {}).get("fingerprint") != recorded:
            return "stale"
    return "fresh"


def select_tiers(config: Config, tiers: list[str] | None) -> dict[str, int]:
    """Tier name -> target of the configured tiers, limited to ``tiers`` when given."""
    return {name: t for name, t in config.tiers.items() if not tiers or name in tiers}


class Pipeline:
    """The stages of one config and run directory."""

    def __init__(self, config: Config, tiers: list[str] | None = None, progress: bool = True):
        unknown = [t for t in tiers or [] if t not in config.tiers]
        if unknown:
            raise StageError(f"unknown tier(s) {unknown}; the config defines {list(config.tiers)}")
        self.config = config
        self.run_dir = Path(config.run_dir)
        self.tiers = sorted(set(tiers)) if tiers else None
        self.progress = progress
        self.fingerprints = Fingerprints(config, self.tiers)

    def selected_tiers(self) -> dict[str, int]:
        """The configured tiers, limited to ``--tier`` when given, in config order."""
        return select_tiers(self.config, self.tiers)

    def state(self, stage: str) -> str:
        return stage_state(self.run_dir, stage, self.fingerprints[stage])

    def build(self, until: str | None = None, force: bool = False, log=print) -> list[str]:
        """Run every stale or missing stage in order (all with ``force``); return those run."""
        last = STAGES.index(until) if until else len(STAGES) - 1
        ran: list[str] = []
        for name in STAGES[: last + 1]:
            if not force and not ran and self.state(name) == "fresh":
                log(f"{name}: fresh, skipped")
                continue
            self.run_stage(name, log=log)
            ran.append(name)
        return ran

    def run_stage(self, name: str, log=print) -> dict:
        """Run one stage now and write its outputs and manifest."""
        module = stage_module(name)
        ctx = StageContext(self.config, self.run_dir, self.tiers, self.progress, stage=name)
        started = datetime.now(timezone.utc)
        clock = time.perf_counter()
        result: StageResult = module.run(ctx)
        manifest = self._manifest(name, result, started, time.perf_counter() - clock)
        self._write(name, result, manifest)
        log(f"{name}: {result.rows_in} in, {result.rows_out} out"
            + (f", failures {sum(result.failures.values())}" if result.failures else "")
            + f" ({manifest['seconds']:.1f}s)")
        return manifest

    def _manifest(self, name: str, result: StageResult, started, seconds: float) -> dict:
        module = stage_module(name)
        upstream = {u: (read_manifest(self.run_dir, u) or {}).get("fingerprint")
                    for u in module.UPSTREAM}
        outputs = sorted(list(result.tables) + list(result.files))
        return {
            "stage": name,
            "fingerprint": self.fingerprints[name],
            "upstream": upstream,
            "code_version": module.CODE_VERSION,
            "tiers": self.tiers or list(self.config.tiers),
            "started_at": started.isoformat(timespec="seconds"),
            "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "seconds": round(seconds, 3),
            "rows_in": result.rows_in,
            "rows_out": result.rows_out,
            "dropped": result.dropped,
            "failures": result.failures,
            "usage": result.usage,
            "outputs": outputs,
            "config": self.fingerprints.sections[name],
            **result.extra,
        }

    def _write(self, name: str, result: StageResult, manifest: dict) -> None:
        folder = self.run_dir / name
        old = read_manifest(self.run_dir, name) or {}
        (folder / MANIFEST).unlink(missing_ok=True)
        for rel, table in result.tables.items():
            atomic_write_table(folder / rel, table)
        for rel, content in result.files.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            atomic_write_bytes(folder / rel, data)
        for rel in set(old.get("outputs", [])) - set(manifest["outputs"]):
            (folder / rel).unlink(missing_ok=True)
        text = json.dumps(manifest, indent=2, ensure_ascii=False, default=str)
        atomic_write_bytes(folder / MANIFEST, (text + "\n").encode("utf-8"))
