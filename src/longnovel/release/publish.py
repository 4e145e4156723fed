"""The release step: the dataset card, ``export/README.md``, written after export and the reports.

Export writes the release Parquet files and ``stats.json``, and no report's content. The card
renders those counts, the file list, the config as written and, once ``longnovel audit`` has run,
the audit's figures. It has a fingerprint of its own (kept in ``<run_dir>/.state/card.json``), so
an audit rewrites the card and leaves export fresh. ``build`` and ``export`` write the card after
export; ``audit`` rewrites it when export has run.
"""

from __future__ import annotations

import json
from pathlib import Path

from longnovel.state import (
    STATE_DIR,
    atomic_write_bytes,
    hash_obj,
    output_digests,
    read_manifest,
    sha256_file,
)

CODE_VERSION = "1"
CARD = "export/README.md"
RECORD = "card.json"  # under STATE_DIR: the card's fingerprint and the digest of what it wrote


def card_inputs(run_dir: Path, config) -> dict | None:
    """What the card is made from (None before export has run): its code version, the config
    as written, the digest of ``export/stats.json``, the release files and the audit."""
    from longnovel.audit import audit_digest

    outputs = output_digests(read_manifest(run_dir, "export"))
    if "stats.json" not in outputs:
        return None
    books = output_digests(read_manifest(run_dir, "ingest")).get("books.json")
    return {"code": CODE_VERSION, "config": config.as_written(), "stats": outputs["stats.json"],
            "files": {p: d for p, d in sorted(outputs.items()) if p.endswith(".parquet")},
            "books": books, "audit": audit_digest(run_dir)}


def exported_books(run_dir: Path, files: list[str]) -> dict[str, dict]:
    """Title, language and licence (``ingest/books.json``) of the books the release holds."""
    import pyarrow.parquet as pq

    path = run_dir / "ingest" / "books.json"
    if not path.is_file():
        return {}
    books = json.loads(path.read_text(encoding="utf-8"))
    held: set[str] = set()
    for rel in files:
        held.update(pq.read_table(run_dir / "export" / rel, columns=["book_id"])
                    .column(0).to_pylist())
    return {book: meta for book, meta in books.items() if book in held}


def card_state(run_dir: Path, config) -> str:
    """``fresh``, ``stale`` (its inputs changed, or it was edited by hand) or ``missing``
    (no card, or export has not run)."""
    run_dir = Path(run_dir)
    inputs = card_inputs(run_dir, config)
    card = run_dir / CARD
    if inputs is None or not card.is_file():
        return "missing"
    record = _read_record(run_dir)
    if record.get("fingerprint") != hash_obj(inputs) or record.get("sha256") != sha256_file(card):
        return "stale"
    return "fresh"


def write_card(run_dir: Path, config) -> Path | None:
    """Write the dataset card from export's outputs and the audit (None before export ran)."""
    from longnovel.audit import read_audit
    from longnovel.release.card import dataset_card

    run_dir = Path(run_dir)
    inputs = card_inputs(run_dir, config)
    if inputs is None:
        return None
    stats = json.loads((run_dir / "export" / "stats.json").read_text(encoding="utf-8"))
    files = list(inputs["files"])
    text = dataset_card(config, stats, files, read_audit(run_dir), exported_books(run_dir, files))
    digest = atomic_write_bytes(run_dir / CARD, text.encode("utf-8"))
    record = {"fingerprint": hash_obj(inputs), "sha256": digest}
    atomic_write_bytes(run_dir / STATE_DIR / RECORD, json.dumps(record).encode("utf-8"))
    return run_dir / CARD


def refresh_card(run_dir: Path, config) -> Path | None:
    """Write the card unless it is fresh; the path written, or None."""
    if card_state(run_dir, config) == "fresh":
        return None
    return write_card(run_dir, config)


def _read_record(run_dir: Path) -> dict:
    try:
        record = json.loads((run_dir / STATE_DIR / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}
