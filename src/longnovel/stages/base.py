"""The stage contract: context handed to a stage, and the result it returns.

A stage module defines ``NAME``, ``UPSTREAM`` (stage names whose outputs it reads), ``READS``,
``WRITES``, ``CODE_VERSION``, ``config_section(config) -> dict`` (what its fingerprint covers)
and ``run(ctx) -> StageResult``. Stages compute their outputs in memory and return them; the
runner (``longnovel.pipeline``) writes them atomically together with the manifest, so a stage
that fails writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from longnovel.config import Config
from longnovel.errors import StageError


@dataclass
class StageResult:
    """What a stage produced. ``tables`` and ``files`` map paths relative to the stage folder."""

    tables: dict[str, pa.Table] = field(default_factory=dict)
    files: dict[str, str | bytes] = field(default_factory=dict)
    rows_in: int = 0
    rows_out: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    usage: dict[str, dict] = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


@dataclass
class StageContext:
    """Everything a stage may use: the config, the run directory and shared services."""

    config: Config
    run_dir: Path
    tiers: list[str] | None = None
    show_progress: bool = True
    stage: str = ""

    @cached_property
    def tokenizer(self):
        from longnovel.tokenizer import load_tokenizer

        return load_tokenizer(self.config.tokenizer)

    def selected_tiers(self) -> dict[str, int]:
        """The configured tiers, limited to ``--tier`` when given, in config order."""
        from longnovel.pipeline import select_tiers

        return select_tiers(self.config, self.tiers)

    def read(self, relpath: str) -> pa.Table:
        """Read an upstream Parquet file, e.g. ``expand/windows.parquet``."""
        path = self.run_dir / relpath
        if not path.is_file():
            stage = relpath.split("/")[0]
            raise StageError(f"{path}: missing; run `longnovel {stage}` first")
        return pq.read_table(path)

    def windows(self, columns: list[str] | None = None) -> list[dict]:
        """Rows of ``expand/windows.parquet`` in the selected tiers (all columns by default)."""
        table = self.read("expand/windows.parquet")
        if columns:
            table = table.select(list(dict.fromkeys([*columns, "tier"])))
        rows = table.to_pylist()
        tiers = self.selected_tiers()
        return [row for row in rows if row["tier"] in tiers]

    def exists(self, relpath: str) -> bool:
        return (self.run_dir / relpath).is_file()

    def progress(self, iterable: Iterable, desc: str = "", total: int | None = None):
        """Wrap ``iterable`` in a tqdm bar on stderr (disabled when progress is off)."""
        from tqdm import tqdm

        return tqdm(iterable, desc=desc, total=total, disable=not self.show_progress,
                    leave=False, dynamic_ncols=True)

    def llm_runner(self):
        """An LLM runner for this stage, with the config's models and request cache."""
        from longnovel.llm import LLMRunner

        return LLMRunner(self.config.models, self.config.cache, self.tokenizer,
                         stage=self.stage, progress=self.show_progress)
