"""Leases on requests in flight, kept in the reply cache's SQLite file.

Two builds (or any two runners) that share one cache file would otherwise both send every
prompt neither has answered yet. Before sending, a runner takes a lease on the request's cache
key: a row naming its owner (a token, the process id and the host) and an expiry, renewed
while the runner runs and deleted once the request is settled. A runner that finds another's
lease leaves the request alone and waits for its reply to appear in the cache. It takes the
lease over when it is free again without a reply (the owner failed the request), when it has
expired (its owner stopped renewing), or at once when the owner was a process of this host
that no longer runs (killed).
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from longnovel.llm.cache import ReplyCache

SCHEMA = """
CREATE TABLE IF NOT EXISTS leases (
    key TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    expires_at REAL NOT NULL
)
"""
LEASE_TTL_S = 120.0  # a lease not renewed for this long is taken over
LIVE_OWNERS: set[str] = set()  # the owners of this process's running runners


@dataclass(frozen=True)
class Holder:
    """Who holds a lease."""

    owner: str
    pid: int
    host: str
    expires_at: float

    def describe(self) -> str:
        return f"pid {self.pid} on {self.host}"


class Leases:
    """The leases one runner takes in ``cache``'s file."""

    def __init__(self, cache: ReplyCache, ttl_s: float = LEASE_TTL_S):
        self.cache = cache
        self.ttl_s = ttl_s
        self.owner = uuid.uuid4().hex
        self.pid = os.getpid()
        self.host = socket.gethostname()
        self.held: Counter[str] = Counter()  # a key two jobs share (other schemas) twice
        with cache.locked() as db:
            db.execute(SCHEMA)
            db.commit()

    @property
    def path(self) -> Path:
        return self.cache.path

    def claim(self, key: str) -> Holder | None:
        """Take the lease on ``key``; None when taken, else the live holder that keeps it."""
        LIVE_OWNERS.add(self.owner)
        now = time.time()
        with self.cache.locked() as db:
            if db.in_transaction:
                db.commit()
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute("SELECT owner, pid, host, expires_at FROM leases WHERE key = ?",
                                 (key,)).fetchone()
                holder = Holder(*row) if row else None
                if holder is not None and holder.owner != self.owner and self._alive(holder):
                    return holder
                db.execute("INSERT OR REPLACE INTO leases (key, owner, pid, host, expires_at) "
                           "VALUES (?,?,?,?,?)", (key, self.owner, self.pid, self.host,
                                                  now + self.ttl_s))
            finally:
                db.commit()
        self.held[key] += 1
        return None

    def free(self, keys: list[str]) -> set[str]:
        """Those of ``keys`` no live runner holds (their reply, if any, is in the cache)."""
        holders = self._holders(keys)
        return {key for key in keys if key not in holders or not self._alive(holders[key])}

    def release(self, key: str) -> None:
        """Give up the lease on ``key`` (its request is settled)."""
        if self.held[key] > 1:
            self.held[key] -= 1
            return
        self.held.pop(key, None)
        with self.cache.locked() as db:
            db.execute("DELETE FROM leases WHERE key = ? AND owner = ?", (key, self.owner))
            db.commit()

    def release_all(self) -> None:
        """Give up every lease of this runner (at its end, whatever happened)."""
        self.held.clear()
        LIVE_OWNERS.discard(self.owner)
        with self.cache.locked() as db:
            db.execute("DELETE FROM leases WHERE owner = ?", (self.owner,))
            db.commit()

    def renew(self) -> None:
        """Push back the expiry of every lease of this runner."""
        with self.cache.locked() as db:
            db.execute("UPDATE leases SET expires_at = ? WHERE owner = ?",
                       (time.time() + self.ttl_s, self.owner))
            db.commit()

    async def keep_renewed(self) -> None:
        """Renew the leases four times per lifetime until cancelled."""
        while True:
            await asyncio.sleep(self.ttl_s / 4)
            if self.held:
                self.renew()

    def _holders(self, keys: list[str]) -> dict[str, Holder]:
        found: dict[str, Holder] = {}
        with self.cache.locked() as db:
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows = db.execute("SELECT key, owner, pid, host, expires_at FROM leases "
                                  f"WHERE key IN ({marks})", chunk).fetchall()
                found.update({row[0]: Holder(*row[1:]) for row in rows})
        return found

    def _alive(self, holder: Holder) -> bool:
        """False when the lease has expired or its owner no longer runs."""
        if holder.expires_at < time.time():
            return False
        if holder.host != self.host:
            return True  # only its expiry tells
        if holder.pid == self.pid:
            return holder.owner in LIVE_OWNERS
        return process_runs(holder.pid)


def process_runs(pid: int) -> bool:
    """True when process ``pid`` of this host runs (a zombie, killed but not reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"
