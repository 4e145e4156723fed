"""Durable records of submitted batches (SQLite), so that a killed build polls them again.

One row per uploaded request file of a model: the file id (known first), the batch id (once
created), the stage and model that sent it, and the cache keys of its lines (their
``custom_id``). A row is written right after the upload and updated right after the batch is
created, each committed at once; it is marked ``collected`` only after its replies are in the
reply cache. A build reads the rows not yet collected whose keys it needs, and polls those
batches instead of sending the requests again.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS batches (
    file_id TEXT NOT NULL,
    batch_id TEXT,
    stage TEXT NOT NULL,
    model TEXT NOT NULL,
    keys TEXT NOT NULL,
    requests INTEGER NOT NULL,
    state TEXT NOT NULL,
    created_at REAL NOT NULL,
    collected_at REAL,
    PRIMARY KEY (model, file_id)
)
"""
UPLOADED, SUBMITTED, COLLECTED = "uploaded", "submitted", "collected"
STORE_FILE = "batches.sqlite"


def store_path(run_dir: str | Path) -> Path:
    """Where a run directory keeps its batch records: ``<run_dir>/.state/batches.sqlite``."""
    from longnovel.state import STATE_DIR

    return Path(run_dir) / STATE_DIR / STORE_FILE


@dataclass
class BatchRecord:
    """One request file and the batch made from it."""

    file_id: str
    batch_id: str | None
    stage: str
    model: str
    keys: list[str]
    state: str


class BatchStore:
    """The ``batches`` table of one SQLite file (WAL, safe across processes)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), timeout=60.0, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(SCHEMA)
        self._db.commit()

    def uploaded(self, file_id: str, stage: str, model: str, keys: list[str]) -> BatchRecord:
        """Record an uploaded request file before its batch is created."""
        row = (file_id, stage, model, json.dumps(keys), len(keys), UPLOADED, time.time())
        self._write("INSERT OR REPLACE INTO batches (file_id, stage, model, keys, requests, "
                    "state, created_at) VALUES (?,?,?,?,?,?,?)", row)
        return BatchRecord(file_id, None, stage, model, list(keys), UPLOADED)

    def submitted(self, record: BatchRecord, batch_id: str) -> None:
        """Record the batch created from ``record``'s file."""
        self._write("UPDATE batches SET batch_id = ?, state = ? "
                    "WHERE model = ? AND file_id = ?",
                    (batch_id, SUBMITTED, record.model, record.file_id))
        record.batch_id, record.state = batch_id, SUBMITTED

    def collected(self, record: BatchRecord) -> None:
        """Mark a batch whose replies and errors are all in the reply cache."""
        self._write("UPDATE batches SET state = ?, collected_at = ? "
                    "WHERE model = ? AND file_id = ?",
                    (COLLECTED, time.time(), record.model, record.file_id))
        record.state = COLLECTED

    def forget(self, record: BatchRecord) -> None:
        """Drop the row of a file whose batch could not be created."""
        self._write("DELETE FROM batches WHERE model = ? AND file_id = ?",
                    (record.model, record.file_id))

    def pending(self) -> list[BatchRecord]:
        """Every record not yet collected, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT file_id, batch_id, stage, model, keys, state FROM batches "
                "WHERE state != ? ORDER BY created_at", (COLLECTED,)).fetchall()
        return [BatchRecord(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def _write(self, sql: str, params: tuple) -> None:
        with self._lock:
            self._db.execute(sql, params)
            self._db.commit()


def pending_counts(path: str | Path) -> dict[str, dict[str, dict[str, int]]]:
    """Batches not yet collected, per stage and model: ``{stage: {model: {batches, requests}}}``.
    Reads without creating anything; an absent file means none."""
    path = Path(path)
    if not path.is_file():
        return {}
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10.0)
    try:
        rows = db.execute("SELECT stage, model, COUNT(*), SUM(requests) FROM batches "
                          "WHERE state != ? GROUP BY stage, model", (COLLECTED,)).fetchall()
    except sqlite3.OperationalError:  # a file without the table
        rows = []
    finally:
        db.close()
    counts: dict[str, dict[str, dict[str, int]]] = {}
    for stage, model, batches, requests in rows:
        counts.setdefault(stage, {})[model] = {"batches": batches, "requests": int(requests)}
    return counts
