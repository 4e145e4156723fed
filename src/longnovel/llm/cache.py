"""Durable reply cache in SQLite (WAL), safe for several threads and processes.

Each answer is committed as it arrives, so a killed run loses only its in-flight requests.
The same file holds the leases of requests in flight (``longnovel.llm.leases``), so two builds
sharing it never pay for one prompt twice.
The key hashes what decides a reply (provider, model, endpoint, messages, sampling parameters),
never the parser and never credentials: no API key is stored here. The endpoint is the model's
``cache_namespace`` when set, else its ``base_url``: two local servers that both call their
model ``local`` never share replies, and a server moved to another host keeps its cache when
``cache_namespace`` is set to the old value.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from longnovel.llm.config import ModelConfig

SCHEMA = """
CREATE TABLE IF NOT EXISTS replies (
    key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    text TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    finish_reason TEXT,
    created_at REAL NOT NULL,
    asks INTEGER NOT NULL DEFAULT 1
)
"""
COLUMNS = ("key, provider, model, text, prompt_tokens, completion_tokens, finish_reason, "
           "created_at, asks")
LOOKUP_CHUNK = 500


def request_key(config: ModelConfig, messages: list[dict]) -> str:
    """sha256 of the canonical JSON of the reply-deciding settings and the messages."""
    payload = {**config.reply_fields(), "messages": messages}
    canonical = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass
class CachedReply:
    """A stored answer."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str | None
    created_at: float
    asks: int = 1  # 2 when this reply answered a re-ask of an unusable one


class ReplyCache:
    """A SQLite file of replies keyed by ``request_key``."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._deferred = False
        self._db = sqlite3.connect(str(self.path), timeout=60.0, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode survives a killed process; only a power cut may lose the last commits.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(replies)")}
        if "asks" not in columns:  # a cache written before re-asks were recorded
            self._db.execute("ALTER TABLE replies ADD COLUMN asks INTEGER NOT NULL DEFAULT 1")
        self._db.commit()

    def get_many(self, keys: list[str]) -> dict[str, CachedReply]:
        """Stored replies for those of ``keys`` that are present."""
        found: dict[str, CachedReply] = {}
        unique = list(dict.fromkeys(keys))
        with self._lock:
            for start in range(0, len(unique), LOOKUP_CHUNK):
                chunk = unique[start : start + LOOKUP_CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    "SELECT key, text, prompt_tokens, completion_tokens, finish_reason, created_at,"
                    " asks"
                    f" FROM replies WHERE key IN ({marks})",
                    chunk,
                ).fetchall()
                found.update({row[0]: CachedReply(*row[1:]) for row in rows})
        return found

    def get(self, key: str) -> CachedReply | None:
        """The stored reply for ``key``, if any."""
        return self.get_many([key]).get(key)

    def put(self, key: str, config: ModelConfig, reply: CachedReply) -> None:
        """Store (or replace) one reply and commit at once."""
        row = (
            key,
            config.provider,
            config.model,
            reply.text,
            reply.prompt_tokens,
            reply.completion_tokens,
            reply.finish_reason,
            reply.created_at or time.time(),
            reply.asks,
        )
        with self._lock:
            self._db.execute(f"INSERT OR REPLACE INTO replies ({COLUMNS}) VALUES "
                             "(?,?,?,?,?,?,?,?,?)", row)
            if not self._deferred:
                self._db.commit()

    @contextmanager
    def locked(self):
        """The connection, held by this thread for the block (the leases' own statements)."""
        with self._lock:
            yield self._db

    @contextmanager
    def transaction(self):
        """Commit the replies ``put`` inside the block once, at its end (a batch's replies)."""
        self._deferred = True
        try:
            yield self
        finally:
            self._deferred = False
            with self._lock:
                self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM replies").fetchone()[0]

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
