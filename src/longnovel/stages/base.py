"""The stage contract: context handed to a stage, and the result it returns.

A stage module defines ``NAME``, ``READS`` (the upstream files it reads, ``stage/file``; its
upstream stages follow from them, and ``ctx.read`` refuses any other file), ``CODE_VERSION``,
``config_section(config, state) -> dict`` (the config its fingerprint covers; ``state`` is the
``longnovel.state.RunState``, for content digests) and ``run(ctx) -> StageResult``. Stages
return their outputs; the pipeline writes them atomically together with the manifest, so a
stage that fails writes nothing.
"""

from __future__ import annotations

import bisect
import itertools
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
    row_group_size: int | None = None
    notes: list[str] = field(default_factory=list)  # lines the user must see (and the manifest)


@dataclass
class StageContext:
    """Everything a stage may use: the config, the run directory and shared services."""

    config: Config
    run_dir: Path
    tiers: dict[str, int] | list[str] | None = None  # the selection; a list is resolved
    show_progress: bool = True
    stage: str = ""
    reads: list[str] | None = None  # the files ``read`` may open (None: the stage's READS)
    kept_tiers: list[str] = field(default_factory=list)  # built before, kept as they are
    _runners: list = field(default_factory=list, repr=False)
    writers: dict = field(default_factory=dict, repr=False)  # relpath -> state.TableWriter

    def __post_init__(self):
        if not isinstance(self.tiers, dict):
            self.tiers = self.config.select_tiers(self.tiers)
        if self.reads is None and self.stage:
            from longnovel.state import stage_module

            self.reads = list(stage_module(self.stage).READS)

    @cached_property
    def tokenizer(self):
        from longnovel.tokenizer import load_tokenizer

        return load_tokenizer(self.config.tokenizer)

    def selected_tiers(self) -> dict[str, int]:
        """The configured tiers, limited to ``--tier`` when given, in config order."""
        return self.tiers

    def upstream_path(self, relpath: str) -> Path:
        """The path of an upstream file the stage declares in ``READS`` (so that its fingerprint
        covers everything it reads); a missing file is a user error naming the stage to run."""
        if self.reads is not None and relpath not in self.reads:
            raise AssertionError(f"stage {self.stage} reads {relpath} but does not declare it "
                                 "in READS")
        path = self.run_dir / relpath
        if not path.is_file():
            stage = relpath.split("/")[0]
            raise StageError(f"{path}: missing; run `longnovel {stage}` first")
        return path

    def read(self, relpath: str, columns: list[str] | None = None,
             tiers: Iterable[str] | None = None) -> pa.Table:
        """Read an upstream Parquet file, e.g. ``expand/windows.parquet``, only ``columns``
        (all by default) and, with ``tiers``, only rows whose ``tier`` is one of them (a
        pyarrow filter, so other row groups' contents are never kept)."""
        path = self.upstream_path(relpath)
        filters = [("tier", "in", sorted(tiers))] if tiers is not None else None
        return pq.read_table(path, columns=columns, filters=filters)

    def iter_batches(self, relpath: str, columns: list[str] | None = None,
                     batch_size: int = 128):
        """Record batches of an upstream Parquet file, in file order."""
        return pq.ParquetFile(self.upstream_path(relpath)).iter_batches(
            batch_size=batch_size, columns=columns)

    def column(self, relpath: str, name: str) -> ColumnByRow:
        """Column ``name`` of an upstream Parquet file by row number, read a row group at a
        time (see ``ColumnByRow``)."""
        return ColumnByRow(self.upstream_path(relpath), name)

    def windows(self, columns: list[str] | None = None) -> list[dict]:
        """Rows of ``expand/windows.parquet`` in the selected tiers (all columns by default)."""
        wanted = list(dict.fromkeys([*columns, "tier"])) if columns else None
        rows = self.read("expand/windows.parquet", wanted).to_pylist()
        tiers = self.selected_tiers()
        return [row for row in rows if row["tier"] in tiers]

    def writer(self, relpath: str, schema: pa.Schema, row_group_size: int = 128):
        """A ``longnovel.state.TableWriter`` for the stage's output ``relpath``: rows go to a
        temporary file, which the pipeline renames into place (with the manifest) once the
        stage has returned, and removes if it fails."""
        from longnovel.state import TableWriter

        if relpath in self.writers:
            raise AssertionError(f"stage {self.stage} opened {relpath} twice")
        self.writers[relpath] = TableWriter(self.run_dir / self.stage / relpath, schema,
                                            row_group_size)
        return self.writers[relpath]

    def discard_writers(self) -> None:
        """Remove the temporary files of every writer (the stage failed)."""
        for writer in self.writers.values():
            writer.discard()
        self.writers.clear()

    def exists(self, relpath: str) -> bool:
        return (self.run_dir / relpath).is_file()

    def progress(self, iterable: Iterable, desc: str = "", total: int | None = None):
        """Wrap ``iterable`` in a tqdm bar on stderr (disabled when progress is off)."""
        from tqdm import tqdm

        return tqdm(iterable, desc=desc, total=total, disable=not self.show_progress,
                    leave=False, dynamic_ncols=True)

    def llm_runner(self):
        """An LLM runner for this stage, with the config's models and request cache; batches
        of models in batch mode are recorded in the run directory."""
        from longnovel.llm import LLMRunner
        from longnovel.llm.batch_store import store_path

        runner = LLMRunner(self.config.models, self.config.cache, lambda: self.tokenizer,
                           stage=self.stage, progress=self.show_progress,
                           batch_store=store_path(self.run_dir))
        self._runners.append(runner)
        return runner

    def unanswered(self) -> int:
        """Requests of this stage's runners that got no answer (transport failures): while any
        remain, the stage is partial and the next build re-sends them."""
        return sum(runner.unanswered() for runner in self._runners)


class ColumnByRow:
    """One column of a Parquet file by row number, read one row group at a time; the few row
    groups last used are kept, so a stage reading rows in about file order never holds the
    whole column (articles, summaries)."""

    def __init__(self, path: Path, name: str, keep: int = 4):
        self.file = pq.ParquetFile(path)
        self.name = name
        sizes = [self.file.metadata.row_group(g).num_rows
                 for g in range(self.file.num_row_groups)]
        self.starts = list(itertools.accumulate([0, *sizes[:-1]]))
        self.keep = keep
        self._groups: dict[int, list] = {}

    def __getitem__(self, number: int):
        group = bisect.bisect_right(self.starts, number) - 1
        if group not in self._groups:
            if len(self._groups) >= self.keep:
                self._groups.pop(next(iter(self._groups)))
            column = self.file.read_row_group(group, columns=[self.name]).column(0)
            self._groups[group] = column.to_pylist()
        return self._groups[group][number - self.starts[group]]
