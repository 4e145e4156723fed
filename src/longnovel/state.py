"""The state machinery of a run directory (DESIGN.md section 2), in one place.

- **Digests.** Every output file's sha256 is recorded in its stage's manifest. Files are hashed
  by content; a file's (size, mtime) is only a cache key of its hash (``FileDigests``), so an
  unchanged file is not re-read, and ``touch`` changes nothing.
- **Fingerprints.** A stage's fingerprint hashes its own config section, its code version, the
  tier selection and the digests of the upstream files it reads (``READS``). A stage that re-runs
  and writes byte-identical files therefore leaves the stages after it fresh (early cut-off).
- **States.** ``missing`` (never ran, or an output is gone), ``stale`` (fingerprint differs, an
  output was changed by hand, or an upstream stage is not fresh), ``partial`` (ran, but requests
  failed without an answer and the user has not accepted the failures), ``fresh``.
- **Writes** are atomic (temporary file in the same folder, then rename).
- **The lock.** One writer per run directory (``RunLock``); readers share it.

Stages, reports and the pipeline import this module; it imports none of them at load time.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import importlib
import json
import os
import socket
import sys
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from types import ModuleType

from longnovel.errors import StageError

STAGES = ["ingest", "expand", "arbitrate", "inject", "export"]
MANIFEST = "manifest.json"
STATE_DIR = ".state"
LOCK_FILE = ".lock"


def stage_module(name: str) -> ModuleType:
    """The module of stage ``name`` (imported on first use)."""
    return importlib.import_module(f"longnovel.stages.{name}")


def upstream_of(module: ModuleType) -> list[str]:
    """The stages whose files ``module`` reads, from its ``READS`` declaration."""
    return sorted({path.split("/")[0] for path in module.READS})


def hash_obj(obj) -> str:
    """A short sha256 of the canonical JSON of ``obj``."""
    blob = json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --- content digests with a stat cache -----------------------------------------------------------

class FileDigests:
    """sha256 of files by content, with (size, mtime_ns) as a cache key kept in the run dir."""

    def __init__(self, run_dir: Path):
        self.path = Path(run_dir) / STATE_DIR / "digests.json"
        self._entries: dict[str, list] | None = None
        self._dirty = False

    def _load(self) -> dict[str, list]:
        if self._entries is None:
            try:
                self._entries = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self._entries = {}
        return self._entries

    def digest(self, path: Path) -> str | None:
        """The file's sha256, or None when it does not exist."""
        try:
            stat = path.stat()
        except OSError:
            return None
        key = str(path.resolve())
        entry = self._load().get(key)
        if entry and entry[0] == stat.st_size and entry[1] == stat.st_mtime_ns:
            return entry[2]
        value = sha256_file(path)
        self.remember(path, value)
        return value

    def tier_digests(self, path: Path) -> dict[str, str] | None:
        """``{tier: digest of that tier's rows}`` of a Parquet file whose rows carry a ``tier``
        (or a ``window_id`` starting with it), or None when it does not exist; cached like
        ``digest``."""
        try:
            stat = path.stat()
        except OSError:
            return None
        key = "tiers:" + str(path.resolve())
        entry = self._load().get(key)
        if entry and entry[0] == stat.st_size and entry[1] == stat.st_mtime_ns:
            return entry[2]
        value = parquet_tier_digests(path)
        self._load()[key] = [stat.st_size, stat.st_mtime_ns, value]
        self._dirty = True
        return value

    def remember(self, path: Path, value: str) -> None:
        """Record ``path``'s digest as computed by a writer."""
        stat = path.stat()
        self._load()[str(path.resolve())] = [stat.st_size, stat.st_mtime_ns, value]
        self._dirty = True

    def save(self) -> None:
        """Persist the cache (best effort: it is only a cache)."""
        if not self._dirty or self._entries is None:
            return
        try:
            atomic_write_bytes(self.path, json.dumps(self._entries).encode("utf-8"))
            self._dirty = False
        except (OSError, StageError):  # a read-only run dir: only the cache is lost
            pass


def row_tier(row: dict) -> str:
    """The tier a row belongs to: its ``tier``, else the first part of its ``window_id``."""
    if "tier" in row:
        return str(row["tier"])
    return str(row.get("window_id") or "").split(":", 1)[0]


def tier_digest(per_tier: dict[str, str], tier: str) -> str:
    """One tier's digest from ``parquet_tier_digests`` (``empty`` for a tier without rows)."""
    return per_tier.get(tier) or per_tier.get("*") or "empty"


def parquet_tier_digests(path: Path) -> dict[str, str]:
    """A digest per tier of the rows of a Parquet file (column names, then each row's values
    as canonical JSON, in file order): the same rows give the same digest whatever else the
    file holds, so a tier's inputs change only when its own rows do. An unreadable file gets
    one digest (``*``) of its bytes."""
    import pyarrow.parquet as pq

    hashers: dict[str, object] = {}
    try:
        parquet = pq.ParquetFile(path)
        header = json.dumps(parquet.schema_arrow.names).encode("utf-8") + b"\n"
        for batch in parquet.iter_batches(batch_size=64):
            for row in batch.to_pylist():
                tier = row_tier(row)
                if tier not in hashers:
                    hashers[tier] = hashlib.sha256(header)
                line = json.dumps(list(row.values()), ensure_ascii=False, default=str,
                                  separators=(",", ":"))
                hashers[tier].update(line.encode("utf-8", "surrogatepass") + b"\n")
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        return {"*": f"unreadable ({type(exc).__name__}) {sha256_file(path)[:16]}"}
    return {tier: h.hexdigest() for tier, h in sorted(hashers.items())}


def tree_digest(root: Path, digests: FileDigests) -> str:
    """A digest of every file under ``root`` (or of ``root`` itself): relative paths and
    contents, not location or timestamps, so a moved or re-cloned corpus keeps its digest."""
    root = Path(root)
    if not root.exists():
        return "missing"
    files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
    names = [p.relative_to(root).as_posix() if root.is_dir() else "" for p in files]
    return hash_obj([[name, digests.digest(p)] for name, p in zip(names, files, strict=True)])


# --- atomic writes -----------------------------------------------------------------------------

FULL_DISK = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
NOT_WRITABLE = {errno.EROFS, errno.EACCES, errno.EPERM}


def disk_error(exc: OSError, path: Path | str) -> StageError:
    """One line for a failed write: the path, what the system said, and what to do."""
    where = exc.filename or path
    reason = exc.strerror or str(exc)
    if exc.errno in FULL_DISK:
        fix = ("no space left for it: free space on that disk (or raise your quota or file size "
               "limit), or point run_dir / cache at another disk")
    elif exc.errno in NOT_WRITABLE:
        fix = ("the folder is not writable: make it writable, or use another run directory "
               "(--run-dir) or cache folder")
    else:
        fix = "check the disk and the folder's permissions, then run again"
    return StageError(f"{where}: cannot write ({reason}); {fix}")


@contextlib.contextmanager
def writing(path: Path | str):
    """Turn an OSError of a write to ``path`` (a full disk, a read-only folder) into one line
    (``disk_error``); the caller's cleanup still runs on the way out."""
    try:
        yield
    except OSError as exc:
        raise disk_error(exc, path) from None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _temp_beside(path: Path) -> str:
    """A new empty temporary file beside ``path`` (created with its folder), readable as the
    umask says: mkstemp's 0600 would leave release files unreadable to others."""
    with writing(path.parent):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            os.fchmod(fd, 0o666 & ~_umask())
        finally:
            os.close(fd)
    return tmp


def sweep_temp_files(folder: Path) -> int:
    """Remove the temporary files a killed writer left under ``folder`` (``.<name>.*.tmp``,
    see ``_temp_beside``); return how many. Call it only under the exclusive run lock, when
    no other process can be writing there."""
    removed = 0
    for path in Path(folder).rglob(".*.tmp"):
        if path.is_file() and not path.is_symlink():
            with writing(path):
                path.unlink(missing_ok=True)
            removed += 1
    return removed


def atomic_write_bytes(path: Path, data: bytes) -> str:
    """Write ``data`` via a temporary file in the same folder and a rename; return its sha256."""
    _replace(write_bytes_temp(path, data), path)
    return hashlib.sha256(data).hexdigest()


def _replace(tmp: str, path: Path) -> None:
    """Rename the temporary file ``tmp`` onto ``path`` (removed when that fails)."""
    try:
        with writing(path):
            os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_table(path: Path, table, row_group_size: int | None = None) -> str:
    """Write a Parquet file atomically (zstd); return its sha256."""
    tmp = write_table_temp(path, table, row_group_size)
    try:
        digest = sha256_file(Path(tmp))
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _replace(tmp, path)
    return digest


def write_table_temp(path: Path, table, row_group_size: int | None = None) -> str:
    """Write a Parquet file (zstd) to a temporary file beside ``path``; return its name (the
    caller renames it into place, or removes it)."""
    import pyarrow.parquet as pq

    tmp = _temp_beside(path)
    try:
        with writing(path):
            pq.write_table(table, tmp, compression="zstd", row_group_size=row_group_size)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def write_bytes_temp(path: Path, data: bytes) -> str:
    """Write ``data`` to a temporary file beside ``path``, synced; return its name."""
    tmp = _temp_beside(path)
    try:
        with writing(path), open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def tiered_parquet(path: Path) -> bool:
    """True for a Parquet file whose rows belong to tiers (a ``tier`` or ``window_id``
    column)."""
    import pyarrow.parquet as pq

    try:
        names = pq.read_schema(path).names
    except (OSError, ValueError):
        return False
    return "tier" in names or "window_id" in names


def merge_tier_rows(new: Path, old: Path, new_tiers: set[str], order: list[str],
                    row_group_size: int) -> str:
    """A temporary file beside ``old`` holding, tier by tier in ``order``, the rows of
    ``new_tiers`` from ``new`` and those of the other tiers from ``old`` (each tier in its own
    row groups); return its name. A file of another schema (written by older code) gives
    nothing for its tiers: they were stale anyway and are built again."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pq.read_schema(new)
    old_ok = pq.read_schema(old).equals(schema)
    tmp = _temp_beside(old)
    try:
        with writing(old), pq.ParquetWriter(tmp, schema, compression="zstd") as writer:
            for tier in order:
                source = new if tier in new_tiers else old if old_ok else None
                if source is None:
                    continue
                rows: list = []
                for batch in pq.ParquetFile(source).iter_batches(batch_size=row_group_size):
                    rows += [r for r in batch.to_pylist() if row_tier(r) == tier]
                    while len(rows) >= row_group_size:
                        writer.write_table(pa.Table.from_pylist(rows[:row_group_size], schema))
                        rows = rows[row_group_size:]
                if rows:
                    writer.write_table(pa.Table.from_pylist(rows, schema))
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


class TableWriter:
    """A Parquet file written in row groups as rows come, to a temporary file beside ``path``;
    ``commit`` renames it into place and returns its sha256, ``discard`` removes it. Stages
    that produce many rows write through one so that only a row group is held in memory."""

    def __init__(self, path: Path, schema, row_group_size: int = 128):
        import pyarrow.parquet as pq

        self.path, self.schema, self.row_group_size = Path(path), schema, row_group_size
        self._new_folder = not self.path.parent.exists()  # removed again by ``discard``
        self.tmp = _temp_beside(self.path)
        try:
            with writing(self.path):
                self._writer = pq.ParquetWriter(self.tmp, schema, compression="zstd")
        except BaseException:
            Path(self.tmp).unlink(missing_ok=True)
            raise
        self._rows: list[dict] = []
        self._closed = False
        self.num_rows = 0

    def write_rows(self, rows) -> None:
        """Append rows (dicts with the schema's columns); a full row group is written out."""
        for row in rows:
            self._rows.append(row)
            if len(self._rows) >= self.row_group_size:
                self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if self._rows:
            with writing(self.path):
                self._writer.write_table(pa.Table.from_pylist(self._rows, schema=self.schema))
            self.num_rows += len(self._rows)
            self._rows = []

    def finish(self) -> str:
        """Write what is left and close (once); return the temporary file's name (not yet in
        place: the pipeline renames it, together with the stage's other files)."""
        if not self._closed:
            self._flush()
            with writing(self.path):
                self._writer.close()
            self._closed = True
        return self.tmp

    def sha256(self) -> str:
        """The finished file's sha256 (for a checksum file written beside it)."""
        return sha256_file(Path(self.finish()))

    def commit(self) -> str:
        """Write what is left, close, rename into place; return the file's sha256."""
        digest = sha256_file(Path(self.finish()))
        with writing(self.path):
            os.replace(self.tmp, self.path)
        return digest

    def discard(self) -> None:
        """Remove the temporary file (the stage failed); a close that fails too (a full
        disk) is not reported again."""
        try:
            if not self._closed:
                self._closed = True
                with contextlib.suppress(Exception):
                    self._writer.close()
        finally:
            Path(self.tmp).unlink(missing_ok=True)
            if self._new_folder:
                with contextlib.suppress(OSError):  # only when nothing else is in it
                    self.path.parent.rmdir()


# --- manifests ---------------------------------------------------------------------------------

def read_manifest(run_dir: Path, stage: str) -> dict | None:
    """A stage's manifest, or None when it is missing or unreadable. A manifest that is a
    link, or whose stage folder is one, is refused (a run directory received from someone
    else is untrusted input: nothing it holds may make longnovel read outside it)."""
    path = Path(run_dir) / stage / MANIFEST
    if not path.exists() and not path.is_symlink():
        return None
    stage_folder(run_dir, stage)
    if path.is_symlink():
        raise StageError(f"{path}: a manifest must be a plain file, not a link; delete it to "
                         f"rebuild stage {stage}")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def stage_folder(run_dir: Path, stage: str) -> Path:
    """``<run_dir>/<stage>``, refused when it is a link (its files would live elsewhere)."""
    folder = Path(run_dir) / stage
    if folder.is_symlink():
        raise StageError(f"{folder}: a stage folder must not be a link (it points to "
                         f"{os.readlink(folder)}); replace it with a plain folder")
    return folder


def confined_outputs(run_dir: Path, stage: str, manifest: dict | None) -> dict[str, str]:
    """``{relative path: sha256}`` of a manifest's outputs, each checked to name a file inside
    the stage folder: relative, no ``..``, not absolute, not reached through a link. Any other
    path is refused with one line naming the manifest, before anything is read or deleted."""
    outputs = output_digests(manifest)
    folder = stage_folder(run_dir, stage)
    root = folder.resolve()
    manifest_path = folder / MANIFEST
    for rel, digest in outputs.items():
        problem = _output_path_problem(rel, digest, folder, root)
        if problem:
            raise StageError(f"{manifest_path}: output {rel!r} {problem}; a manifest may name "
                             f"only files in its stage folder: delete {manifest_path} to "
                             f"rebuild stage {stage}")
    return outputs


def _output_path_problem(rel, digest, folder: Path, root: Path) -> str | None:
    if not isinstance(rel, str) or not rel or not isinstance(digest, str):
        return "is not a path with a digest"
    if "\\" in rel or "\0" in rel:
        return "holds a backslash or NUL byte"
    pure = PurePosixPath(rel)
    if pure.is_absolute() or rel.startswith("~"):
        return "is an absolute path"
    if any(part in ("..", ".", "") for part in rel.split("/")):
        return "goes up with '..' (or has an empty or '.' part)"
    path = folder / rel
    for parent in [*reversed(path.relative_to(folder).parents), path.relative_to(folder)]:
        if str(parent) != "." and (folder / parent).is_symlink():
            return f"is reached through a link ({folder / parent})"
    if not path.resolve().is_relative_to(root):
        return "resolves outside the stage folder"
    return None


def write_manifest(run_dir: Path, stage: str, manifest: dict) -> None:
    text = json.dumps(manifest, indent=2, ensure_ascii=False, default=str) + "\n"
    atomic_write_bytes(Path(run_dir) / stage / MANIFEST, text.encode("utf-8"))


def output_digests(manifest: dict | None) -> dict[str, str]:
    """``{relative path: sha256}`` of a manifest's outputs (empty for old or missing ones)."""
    outputs = (manifest or {}).get("outputs")
    return outputs if isinstance(outputs, dict) else {}


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# --- fingerprints and states -------------------------------------------------------------------

@dataclass
class StageStatus:
    """Where a stage stands, and why."""

    state: str  # fresh | stale | missing | partial
    reason: str = ""
    fingerprint: str | None = None


TIERED_STAGES = ["expand", "arbitrate", "inject", "export"]  # each tier is its own unit


def is_tiered(stage: str) -> bool:
    return stage in TIERED_STAGES


class RunState:
    """Fingerprints and states of the stages of one config, tier selection and run directory.

    Tiers are the unit of freshness of every stage after ingest: a stage's manifest keeps one
    record per built tier (``tiers``: fingerprint, inputs, outputs), so building one tier leaves
    the others' records, rows and files as they are, and a tier's state depends only on its
    own inputs. A tier's inputs are the digests of the rows of that tier in the upstream files
    it reads (``FileDigests.tier_digests``), as found on disk, never as an upstream manifest
    says. Nothing is cached between calls except file digests, so a state asked for after an
    upstream stage ran reflects that stage's new outputs.
    """

    def __init__(self, config, run_dir: Path, tiers: dict[str, int]):
        self.config = config
        self.run_dir = Path(run_dir)
        self.tiers = tiers  # the selected tiers, name -> target, in config order
        self.digests = FileDigests(self.run_dir)
        self._sections: dict[str, dict] = {}

    def section(self, stage: str) -> dict:
        """The stage's config section as fingerprinted (computed once per run)."""
        if stage not in self._sections:
            module = stage_module(stage)
            self._sections[stage] = module.config_section(self.config, self)
        return self._sections[stage]

    def inputs(self, stage: str, tier: str | None = None) -> dict[str, str | None]:
        """Digest of every upstream file the stage reads, from the files as they are now:
        for a tier, the digest of that tier's rows in each tiered file."""
        found: dict[str, str | None] = {}
        for relpath in stage_module(stage).READS:
            path = self.run_dir / relpath
            if path.is_symlink():
                raise StageError(f"{path}: a stage output must be a plain file, not a link; "
                                 f"delete it and run `longnovel {relpath.split('/')[0]}`")
            if tier is not None and is_tiered(relpath.split("/")[0]):
                per_tier = self.digests.tier_digests(path)
                found[relpath] = None if per_tier is None else tier_digest(per_tier, tier)
            else:
                found[relpath] = self.digests.digest(path)
        return found

    def tier_key(self, stage: str, tier: str):
        """What of a tier a stage depends on: expand its target, later stages its name (their
        windows already carry the target)."""
        return [tier, self.config.tiers.get(tier)] if stage == "expand" else tier

    def tier_fingerprint(self, stage: str, tier: str) -> str:
        module = stage_module(stage)
        return hash_obj({"config": self.section(stage), "code": module.CODE_VERSION,
                         "tier": self.tier_key(stage, tier), "inputs": self.inputs(stage, tier)})

    def fingerprint(self, stage: str) -> str:
        """The stage's fingerprint for the selected tiers (one per tier, hashed together)."""
        if not is_tiered(stage):
            module = stage_module(stage)
            return hash_obj({"config": self.section(stage), "code": module.CODE_VERSION,
                             "inputs": self.inputs(stage)})
        return hash_obj({t: self.tier_fingerprint(stage, t) for t in self.tiers})

    def tier_record(self, stage: str, tier: str) -> dict:
        """What a stage's manifest keeps about one tier it built (see ``tier_status``)."""
        return {"fingerprint": self.tier_fingerprint(stage, tier),
                "target": self.config.tiers.get(tier),
                "code_version": stage_module(stage).CODE_VERSION,
                "config": hash_obj(self.section(stage)),
                "inputs": self.inputs(stage, tier)}

    def status(self, stage: str) -> StageStatus:
        """The stage's state over the selected tiers: stale if any tier is, else missing if any
        tier was never built, else partial if any is, else fresh."""
        manifest = read_manifest(self.run_dir, stage)
        if manifest is None:
            return StageStatus("missing", "never ran")
        changed = self._changed_outputs(stage, manifest)
        if changed is not None:
            return StageStatus(*changed)
        if not is_tiered(stage):
            return self._whole_status(stage, manifest)
        states = {t: self.tier_status(stage, t, manifest) for t in self.tiers}
        for state in ("stale", "missing", "partial"):
            hit = {t: s for t, s in states.items() if s.state == state}
            if hit:
                reasons = sorted({s.reason for s in hit.values()})
                where = ", ".join(hit) if len(hit) < len(states) or len(states) > 1 else ""
                reason = "; ".join(reasons)
                return StageStatus(state, f"tier {where}: {reason}" if where else reason,
                                   self.fingerprint(stage))
        return StageStatus("fresh", "", self.fingerprint(stage))

    def tier_states(self, stage: str) -> dict[str, str]:
        """Each selected tier's state (``{tier: state}``; ingest has one, under ``""``)."""
        manifest = read_manifest(self.run_dir, stage)
        if manifest is None:
            return {t: "missing" for t in self.tiers} if is_tiered(stage) else {"": "missing"}
        changed = self._changed_outputs(stage, manifest)
        if not is_tiered(stage):
            return {"": changed[0] if changed else self._whole_status(stage, manifest).state}
        return {t: changed[0] if changed else self.tier_status(stage, t, manifest).state
                for t in self.tiers}

    def tier_status(self, stage: str, tier: str, manifest: dict | None = None) -> StageStatus:
        """One tier of a tiered stage (its outputs already checked against the manifest)."""
        manifest = manifest if manifest is not None else read_manifest(self.run_dir, stage)
        record = tier_records(manifest).get(tier)
        if record is None:
            return StageStatus("missing", "never built")
        if record.get("fingerprint") != self.tier_fingerprint(stage, tier):
            return StageStatus("stale", self._stale_reason(stage, tier, record))
        for upstream in upstream_of(stage_module(stage)):
            state = (self.tier_states(upstream).get(tier) if is_tiered(upstream)
                     else self.tier_states(upstream)[""])
            if state in ("stale", "missing"):
                return StageStatus("stale", f"upstream {upstream} is not fresh")
        if record.get("unanswered") and not record.get("failures_accepted"):
            return StageStatus("partial", f"{record['unanswered']} request(s) without an answer")
        return StageStatus("fresh")

    def _whole_status(self, stage: str, manifest: dict) -> StageStatus:
        fingerprint = self.fingerprint(stage)
        if manifest.get("fingerprint") != fingerprint:
            if manifest.get("code_version") != stage_module(stage).CODE_VERSION:
                reason = "code changed"
            elif manifest.get("config") != self.section(stage):
                reason = "config changed"
            else:
                reason = "fingerprint changed"
            return StageStatus("stale", reason, fingerprint)
        return StageStatus("fresh", "", fingerprint)

    def _changed_outputs(self, stage: str, manifest: dict) -> tuple[str, str] | None:
        outputs = confined_outputs(self.run_dir, stage, manifest)
        if not outputs:
            return ("stale", "manifest records no output digests")
        for rel, digest in outputs.items():
            current = self.digests.digest(self.run_dir / stage / rel)
            if current is None:
                return ("missing", f"output {rel} is gone")
            if current != digest:
                return ("stale", f"output {rel} was changed outside longnovel")
        return None

    def _stale_reason(self, stage: str, tier: str, record: dict) -> str:
        if record.get("code_version") != stage_module(stage).CODE_VERSION:
            return "code changed"
        if record.get("config") != hash_obj(self.section(stage)):
            return "config changed"
        if stage == "expand" and record.get("target") != self.config.tiers.get(tier):
            return "tier target changed"
        inputs = self.inputs(stage, tier)
        changed = [rel for rel, digest in inputs.items()
                   if (record.get("inputs") or {}).get(rel) != digest]
        if changed:
            return f"upstream {', '.join(changed)} changed"
        return "fingerprint changed"


def verify_outputs(run_dir: Path, digests: FileDigests | None = None) -> tuple[int, list[str]]:
    """Re-hash every output each stage's manifest records, reading every byte (no stat
    cache: a flipped bit with the same size and time is found); return how many files were
    checked and one line per file that is gone or differs. Files found different are
    remembered in the digest cache, so ``status`` calls their stage stale from then on."""
    run_dir = Path(run_dir)
    digests = digests or FileDigests(run_dir)
    checked, problems = 0, []
    for stage in STAGES:
        manifest = read_manifest(run_dir, stage)
        for rel, recorded in confined_outputs(run_dir, stage, manifest).items():
            path = run_dir / stage / rel
            checked += 1
            try:
                found = sha256_file(path)
            except OSError as exc:
                problems.append(f"{path}: cannot read ({exc.strerror}); run `longnovel build`")
                continue
            if found != recorded:
                digests.remember(path, found)
                problems.append(f"{path}: sha256 {found[:12]}… differs from {recorded[:12]}… "
                                f"in {stage}/{MANIFEST}; run `longnovel build` to rebuild it")
    digests.save()
    return checked, problems


def tier_records(manifest: dict | None) -> dict[str, dict]:
    """``{tier: record}`` of the tiers a manifest says were built (empty for old manifests)."""
    tiers = (manifest or {}).get("tiers")
    if not isinstance(tiers, dict):
        return {}
    return {t: r for t, r in tiers.items() if isinstance(r, dict)}


# --- the run-directory lock --------------------------------------------------------------------

# The run-directory locks this process holds, by descriptor (the handle is kept here so that
# it is never closed behind our back, and its number never reused while listed).
_HELD_LOCKS: dict[int, object] = {}


def _drop_locks_in_child() -> None:
    """After a fork: point the child's copies of held lock descriptors at /dev/null. An
    ``flock`` belongs to the open file, which a forked child shares; a child that kept it (a
    pool worker outliving a killed build) would hold the run directory for a dead builder."""
    if not _HELD_LOCKS:
        return
    null = os.open(os.devnull, os.O_RDONLY)
    for fd in _HELD_LOCKS:
        os.dup2(null, fd)
    os.close(null)
    _HELD_LOCKS.clear()


os.register_at_fork(after_in_child=_drop_locks_in_child)


class RunLock:
    """An advisory lock on ``<run_dir>/.lock``: exclusive for writers, shared for readers.

    The lock is an ``flock`` held by this process only (forked children drop their copy), and
    the kernel releases it when the process dies, however it dies: a lock left by a killed
    build is taken over at once, and a pid reused by another program holds nothing. The
    holder's pid and command are written into the file only for the message a second process
    sees.
    """

    def __init__(self, run_dir: Path, exclusive: bool = True, command: str | None = None):
        self.path = Path(run_dir) / LOCK_FILE
        self.exclusive = exclusive
        self.command = command or " ".join(["longnovel", *sys.argv[1:3]])
        self._handle = None

    def acquire(self) -> RunLock:
        with writing(self.path):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.is_symlink():
                raise StageError(f"{self.path}: the lock file must not be a link; delete it")
            handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - until release
        mode = fcntl.LOCK_EX if self.exclusive else fcntl.LOCK_SH
        try:
            fcntl.flock(handle.fileno(), mode | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(handle)
            handle.close()
            raise StageError(f"{self.path.parent}: in use by {holder}; wait for it to finish "
                             "or stop it, then try again") from None
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                 "command": self.command, "since": now_iso()}) + "\n")
        handle.flush()
        self._handle = handle
        _HELD_LOCKS[handle.fileno()] = handle
        return self

    def release(self) -> None:
        if self._handle is not None:
            _HELD_LOCKS.pop(self._handle.fileno(), None)
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()


def _holder(handle) -> str:
    handle.seek(0)
    try:
        info = json.loads(handle.read() or "{}")
    except ValueError:
        info = {}
    if not info.get("pid"):
        return "another longnovel process"
    return f"process {info['pid']} (`{info.get('command', 'longnovel')}` since {info.get('since')})"
