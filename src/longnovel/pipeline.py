"""Orders the stages and runs the stale ones (DESIGN.md section 2). Nothing imports it back.

Which stage is fresh, stale, missing or partial is decided in ``longnovel.state``; this module
runs stages, writes their outputs and manifests, and reports what a build left partial.
"""

from __future__ import annotations

import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from longnovel.config import Config
from longnovel.stages.base import StageContext, StageResult
from longnovel.state import (
    STAGES,
    STATE_DIR,
    RunState,
    atomic_write_bytes,
    atomic_write_table,
    confined_outputs,
    now_iso,
    read_manifest,
    stage_folder,
    stage_module,
    sweep_temp_files,
    upstream_of,
    write_manifest,
)

ROW_GROUP_ROWS = 128  # Parquet row group of stage outputs, unless a stage says otherwise


@dataclass
class BuildReport:
    """What one ``build`` did: the stages it ran and those it left partial."""

    ran: list[str] = field(default_factory=list)
    partial: dict[str, dict] = field(default_factory=dict)  # stage -> failures by reason


class Pipeline:
    """The stages of one config, tier selection and run directory."""

    def __init__(self, config: Config, tiers: list[str] | None = None, progress: bool = True):
        self.config = config
        self.run_dir = Path(config.run_dir)
        self.tier_targets = config.select_tiers(tiers)
        self.tiers = sorted(self.tier_targets) if tiers else None
        self.progress = progress
        self.state = RunState(config, self.run_dir, self.tier_targets)

    def selected_tiers(self) -> dict[str, int]:
        """The configured tiers, limited to ``--tier`` when given, in config order."""
        return self.tier_targets

    def status(self, stage: str):
        return self.state.status(stage)

    def build(self, until: str | None = None, force: bool = False,
              accept_failures: bool = False, log=print) -> BuildReport:
        """Run every stale, missing or partial stage in order (all with ``force``)."""
        last = STAGES.index(until) if until else len(STAGES) - 1
        report = BuildReport()
        sweep_temp_files(self.run_dir / STATE_DIR)
        try:
            for name in STAGES[: last + 1]:
                self._build_one(name, force, accept_failures, report, log)
        finally:
            self.state.digests.save()
        for name in STAGES[: last + 1]:
            manifest = read_manifest(self.run_dir, name) or {}
            if self.state.status(name).state == "partial":
                report.partial[name] = manifest.get("failures") or {}
        return report

    def _build_one(self, name: str, force: bool, accept: bool, report: BuildReport, log) -> None:
        status = self.state.status(name)
        if status.state == "fresh" and not force:
            log(f"{name}: fresh, skipped")
            return
        if status.state == "partial" and accept and not force:
            self.accept_failures(name)
            log(f"{name}: failures accepted as final")
            return
        if status.state == "partial":
            log(f"{name}: partial ({status.reason}); re-sending only those")
        elif status.state == "stale":
            log(f"{name}: stale ({status.reason})")
        self.run_stage(name, log=log, accept_failures=accept)
        report.ran.append(name)

    @contextmanager
    def windows_for_planning(self, log=print):
        """A run directory whose ingest and expand match the config: this one when both are
        fresh, else a scratch copy built in a temporary folder, so planning never writes stage
        outputs here (which would make later stages stale)."""
        if all(self.state.status(s).state == "fresh" for s in ("ingest", "expand")):
            yield self.run_dir
            return
        with tempfile.TemporaryDirectory(prefix="longnovel-plan-") as tmp:
            log("plan: ingest/expand are not fresh here; computing windows in a scratch folder "
                f"({self.run_dir} is left as it is)")
            config = self.config.model_copy(update={"run_dir": tmp})
            scratch = Pipeline(config, self.tiers, self.progress)
            scratch.build(until="expand", log=lambda _: None)
            yield Path(tmp)

    def accept_failures(self, name: str) -> None:
        """Mark a partial stage's failures as final: it becomes fresh and is not re-run."""
        manifest = read_manifest(self.run_dir, name)
        if manifest is not None:
            write_manifest(self.run_dir, name, {**manifest, "failures_accepted": True})

    def run_stage(self, name: str, log=print, accept_failures: bool = False) -> dict:
        """Run one stage now and write its outputs and manifest."""
        module = stage_module(name)
        stage_folder(self.run_dir, name)  # refused when a link: its files would live elsewhere
        sweep_temp_files(self.run_dir / name)  # left by a killed run of this stage
        self._note_stale_upstream(module, log)
        ctx = StageContext(self.config, self.run_dir, self.tier_targets, self.progress,
                           stage=name, reads=list(module.READS))
        started, clock = now_iso(), time.perf_counter()
        fingerprint = self.state.fingerprint(name)
        try:
            result: StageResult = module.run(ctx)
        except BaseException:
            ctx.discard_writers()
            raise
        outputs = self._write(name, result, ctx.writers)
        manifest = self._manifest(name, fingerprint, result, ctx, outputs, started,
                                  time.perf_counter() - clock, accept_failures)
        write_manifest(self.run_dir, name, manifest)
        log(_summary_line(name, manifest))
        for note in result.notes:
            log(f"{name}: {note}")
        return manifest

    def _note_stale_upstream(self, module, log) -> None:
        for upstream in upstream_of(module):
            state = self.state.status(upstream).state
            if state in ("stale", "missing"):
                log(f"note: upstream stage {upstream} is {state}; this runs on its current files")

    def _manifest(self, name, fingerprint, result: StageResult, ctx, outputs, started, seconds,
                  accept) -> dict:
        module = stage_module(name)
        unanswered = ctx.unanswered()
        return {
            "stage": name,
            "fingerprint": fingerprint,
            "upstream": {u: (read_manifest(self.run_dir, u) or {}).get("fingerprint")
                         for u in upstream_of(module)},
            "inputs": self.state.inputs(name),
            "code_version": module.CODE_VERSION,
            "tiers": self.state.tier_key(name),
            "started_at": started,
            "finished_at": now_iso(),
            "seconds": round(seconds, 3),
            "rows_in": result.rows_in,
            "rows_out": result.rows_out,
            "dropped": result.dropped,
            "failures": result.failures,
            "unanswered": unanswered,
            "failures_accepted": bool(accept and unanswered),
            "usage": result.usage,
            "outputs": outputs,
            "config": self.state.section(name),
            "notes": result.notes,
            **result.extra,
        }

    def _write(self, name: str, result: StageResult, writers: dict | None = None
               ) -> dict[str, str]:
        """Write the stage's files atomically, and rename the files it streamed into place;
        return ``{path: sha256}``. The old manifest goes first, so a crash in between leaves
        the stage missing, never fresh with mixed files."""
        folder = self.run_dir / name
        old = confined_outputs(self.run_dir, name, read_manifest(self.run_dir, name))
        (folder / "manifest.json").unlink(missing_ok=True)
        digests: dict[str, str] = {}
        for rel, writer in (writers or {}).items():
            digests[rel] = writer.commit()
        for rel, table in result.tables.items():
            digests[rel] = atomic_write_table(folder / rel, table,
                                              result.row_group_size or ROW_GROUP_ROWS)
        for rel, content in result.files.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            digests[rel] = atomic_write_bytes(folder / rel, data)
        for rel in set(old) - set(digests):
            (folder / rel).unlink(missing_ok=True)
        for rel, digest in digests.items():
            self.state.digests.remember(folder / rel, digest)
        self.state.digests.save()
        return dict(sorted(digests.items()))


def _summary_line(name: str, manifest: dict) -> str:
    line = f"{name}: {manifest['rows_in']} in, {manifest['rows_out']} out"
    failures = manifest.get("failures") or {}
    if failures:
        line += f", failures {sum(failures.values())}"
    if manifest.get("unanswered") and not manifest.get("failures_accepted"):
        line += f" ({manifest['unanswered']} without an answer: partial)"
    return line + f" ({manifest['seconds']:.1f}s)"


def partial_line(name: str, failures: dict) -> str:
    """One line for a stage a build left partial."""
    reasons = ", ".join(f"{reason} {n}" for reason, n in sorted(failures.items()))
    return (f"{name}: partial, failed requests: {reasons or 'none recorded'}; run `longnovel "
            "build` again to re-send only those, or add --accept-failures to keep them as final")
