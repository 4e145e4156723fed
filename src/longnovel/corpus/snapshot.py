"""A cheap snapshot of corpus files (path, size, mtime) so edits to the corpus make ingest stale."""

from __future__ import annotations

import hashlib
from pathlib import Path

from longnovel.config import CorpusSource


def corpus_snapshot(sources: list[CorpusSource]) -> str:
    """Hash of every corpus file's relative path, size and modification time."""
    digest = hashlib.sha256()
    for source in sources:
        root = Path(source.path)
        files = sorted(root.rglob("*")) if root.is_dir() else [root]
        for path in files:
            try:
                stat = path.stat()
            except OSError:
                digest.update(f"{path}:missing".encode())
                continue
            if path.is_file():
                digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]
