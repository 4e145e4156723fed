"""Orders the stages and runs the stale ones (DESIGN.md section 2). Nothing imports it back.

Which stage is fresh, stale, missing or partial is decided in ``longnovel.state``; this module
runs stages, writes their outputs and manifests, and reports what a build left partial.
"""

from __future__ import annotations

import os
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from longnovel.config import Config
from longnovel.errors import StageError
from longnovel.stages.base import StageContext, StageResult
from longnovel.state import (
    FULL_DISK,
    NOT_WRITABLE,
    STAGES,
    STATE_DIR,
    RunState,
    confined_outputs,
    disk_error,
    hash_obj,
    is_tiered,
    merge_tier_rows,
    now_iso,
    read_manifest,
    sha256_file,
    stage_folder,
    stage_module,
    sweep_temp_files,
    tier_digest,
    tier_records,
    tiered_parquet,
    upstream_of,
    write_bytes_temp,
    write_manifest,
    write_table_temp,
    writing,
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
        if STAGES[last] == "export":
            self.release(log)
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
        self.run_stage(name, log=log, accept_failures=accept, force=force)
        report.ran.append(name)

    def release(self, log=print) -> None:
        """The release step after export: write the dataset card unless it is fresh."""
        from longnovel.release.publish import refresh_card

        written = refresh_card(self.run_dir, self.config)
        if written is not None:
            log(f"release: wrote the dataset card {written}")

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
            tiers = {t: {**r, "failures_accepted": True} if r.get("unanswered") else r
                     for t, r in tier_records(manifest).items()}
            write_manifest(self.run_dir, name, {**manifest, "failures_accepted": True,
                                                **({"tiers": tiers} if tiers else {})})

    def tiers_to_run(self, name: str, force: bool = False) -> dict[str, int]:
        """The selected tiers a run of stage ``name`` builds: those not fresh (all with
        ``force``). Other tiers' rows and files are kept as they are."""
        if force or not is_tiered(name):
            return dict(self.tier_targets)
        states = self.state.tier_states(name)
        return {t: target for t, target in self.tier_targets.items() if states[t] != "fresh"}

    def run_stage(self, name: str, log=print, accept_failures: bool = False,
                  force: bool = False) -> dict:
        """Run one stage now for the selected tiers that are not fresh (all of them with
        ``force``) and write its outputs and manifest, keeping other tiers' rows and files."""
        module = stage_module(name)
        stage_folder(self.run_dir, name)  # refused when a link: its files would live elsewhere
        sweep_temp_files(self.run_dir / name)  # left by a killed run of this stage
        self._note_stale_upstream(module, log)
        run_tiers = self.tiers_to_run(name, force) or dict(self.tier_targets)
        old = read_manifest(self.run_dir, name)
        kept = self._kept_tiers(name, old, run_tiers, log) if is_tiered(name) else {}
        ctx = StageContext(self.config, self.run_dir, run_tiers, self.progress,
                           stage=name, reads=list(module.READS), kept_tiers=list(kept))
        started, clock = now_iso(), time.perf_counter()
        records = {t: self.state.tier_record(name, t) for t in run_tiers} \
            if is_tiered(name) else {}
        fingerprint = self.state.fingerprint(name)
        read_before = self._read_signatures(module)
        try:
            with self._stage_faults(name):
                result: StageResult = module.run(ctx)
            self._check_reads_unchanged(module, read_before)
        except BaseException:
            ctx.discard_writers()
            raise
        written = self._write(name, result, ctx.writers, run_tiers, kept, old)
        tiers = self._tier_records(name, records, kept, written, ctx, accept_failures)
        manifest = self._manifest(name, fingerprint, result, ctx, written.outputs, started,
                                  time.perf_counter() - clock, accept_failures, old, tiers,
                                  run_tiers)
        write_manifest(self.run_dir, name, manifest)
        log(_summary_line(name, manifest, run_tiers if is_tiered(name) else None))
        for note in result.notes:
            log(f"{name}: {note}")
        return manifest

    @contextmanager
    def _stage_faults(self, name: str):
        """A full or read-only disk met inside a stage, and a failing LLM cache (SQLite), as
        one line naming the path and the fix."""
        import sqlite3

        try:
            yield
        except sqlite3.Error as exc:
            raise StageError(
                f"{self.config.cache}: the LLM cache failed ({exc}); free space on its disk or "
                "make its folder writable, or set `cache:` in the config to another path"
            ) from None
        except OSError as exc:
            if exc.errno in FULL_DISK | NOT_WRITABLE:
                raise disk_error(exc, exc.filename or self.run_dir / name) from None
            raise

    def _kept_tiers(self, name: str, old: dict | None, run_tiers: dict, log) -> dict[str, dict]:
        """The records of tiers built before and not re-run now, whose rows and files are
        still what their record says (a tier edited by hand is dropped, to be rebuilt)."""
        kept: dict[str, dict] = {}
        records = tier_records(old)
        for tier in self.config.tiers:
            record = records.get(tier)
            if tier in run_tiers or record is None:
                continue
            changed = self._changed_tier_outputs(name, tier, record)
            if changed:
                log(f"{name}: tier {tier}'s rows in {changed} were changed outside longnovel; "
                    "they are dropped (build that tier again)")
                continue
            kept[tier] = record
        return kept

    def _changed_tier_outputs(self, name: str, tier: str, record: dict) -> str | None:
        folder = self.run_dir / name
        for rel, digest in (record.get("outputs") or {}).items():
            if rel.startswith(f"{tier}/"):
                current = self.state.digests.digest(folder / rel)
            else:
                per_tier = self.state.digests.tier_digests(folder / rel)
                current = None if per_tier is None else tier_digest(per_tier, tier)
            if current != digest:
                return rel
        return None

    def _read_signatures(self, module) -> dict[str, tuple | None]:
        signatures = {}
        for rel in module.READS:
            try:
                stat = (self.run_dir / rel).stat()
                signatures[rel] = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
            except OSError:
                signatures[rel] = None
        return signatures

    def _check_reads_unchanged(self, module, before: dict) -> None:
        """A stage's recorded inputs are the digests of the files it read: refuse to record
        them when a file was replaced or edited while the stage ran."""
        after = self._read_signatures(module)
        for rel, signature in before.items():
            if after[rel] != signature:
                raise StageError(f"{self.run_dir / rel}: changed while stage {module.NAME} was "
                                 "reading it; run the build again")

    def _note_stale_upstream(self, module, log) -> None:
        for upstream in upstream_of(module):
            state = self.state.status(upstream).state
            if state in ("stale", "missing"):
                log(f"note: upstream stage {upstream} is {state}; this runs on its current files")

    def _tier_records(self, name, records, kept, written, ctx, accept) -> dict[str, dict]:
        if not is_tiered(name):
            return {}
        unanswered = ctx.unanswered()
        done = now_iso()
        for tier, record in records.items():
            record.update(outputs=written.tier_outputs.get(tier, {}), finished_at=done,
                          unanswered=unanswered, failures_accepted=bool(accept and unanswered))
        merged = {**kept, **records}
        return {t: merged[t] for t in self.config.tiers if t in merged}

    def _manifest(self, name, fingerprint, result: StageResult, ctx, outputs, started, seconds,
                  accept, old, tiers, run_tiers) -> dict:
        module = stage_module(name)
        unanswered = ctx.unanswered()
        if tiers:
            fingerprint = hash_obj({t: r["fingerprint"] for t, r in tiers.items()})
        return {
            "stage": name,
            "fingerprint": fingerprint,
            "upstream": {u: (read_manifest(self.run_dir, u) or {}).get("fingerprint")
                         for u in upstream_of(module)},
            "inputs": {t: r["inputs"] for t, r in tiers.items()} if tiers
            else self.state.inputs(name),
            "code_version": module.CODE_VERSION,
            "tiers": tiers or None,
            "ran_tiers": list(run_tiers) if tiers else None,
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
            **merge_tier_extras(result.extra, old, list(tiers), list(run_tiers)),
        }

    def _write(self, name: str, result: StageResult, writers: dict, run_tiers: dict,
               kept: dict, old_manifest: dict | None) -> Written:
        """Write the stage's files atomically, rows of kept tiers merged into its tiered
        Parquet files, and rename them into place; return their digests. The old manifest goes
        first, so a crash in between leaves the stage missing, never fresh with mixed files."""
        folder = self.run_dir / name
        old = confined_outputs(self.run_dir, name, old_manifest)
        staged: dict[str, str] = {}
        try:
            for rel, writer in (writers or {}).items():
                staged[rel] = writer.finish()
            for rel, table in result.tables.items():
                staged[rel] = write_table_temp(folder / rel, table,
                                               result.row_group_size or ROW_GROUP_ROWS)
            for rel, content in result.files.items():
                data = content.encode("utf-8") if isinstance(content, str) else content
                staged[rel] = write_bytes_temp(folder / rel, data)
            order = [t for t in self.config.tiers if t in run_tiers or t in kept]
            for rel, tmp in list(staged.items()):
                own_folder = "/" in rel and rel.split("/", 1)[0] in self.config.tiers
                if kept and not own_folder and tiered_parquet(Path(tmp)) \
                        and (folder / rel).is_file():
                    staged[rel] = merge_tier_rows(Path(tmp), folder / rel, set(run_tiers), order,
                                                  result.row_group_size or ROW_GROUP_ROWS)
                    Path(tmp).unlink(missing_ok=True)
            digests = {rel: sha256_file(Path(tmp)) for rel, tmp in staged.items()}
        except BaseException:
            for writer in (writers or {}).values():
                writer.discard()
            for tmp in staged.values():
                Path(tmp).unlink(missing_ok=True)
            raise
        try:
            with writing(folder / "manifest.json"):
                (folder / "manifest.json").unlink(missing_ok=True)
            for rel, tmp in staged.items():
                with writing(folder / rel):
                    os.replace(tmp, folder / rel)
                self.state.digests.remember(folder / rel, digests[rel])
        except BaseException:
            for tmp in staged.values():
                Path(tmp).unlink(missing_ok=True)
            raise
        for tier, record in kept.items():
            digests.update({rel: old[rel] for rel in record.get("outputs") or {}
                            if rel.startswith(f"{tier}/") and rel in old})
        for rel in set(old) - set(digests):
            with writing(folder / rel):
                (folder / rel).unlink(missing_ok=True)
        tier_outputs = self._tier_outputs(folder, digests, [*run_tiers, *kept])
        self.state.digests.save()
        return Written(dict(sorted(digests.items())), tier_outputs)

    def _tier_outputs(self, folder: Path, digests: dict, tiers: list[str]
                      ) -> dict[str, dict[str, str]]:
        """Per tier: its own files (``<tier>/...``) and the digest of its rows in each tiered
        Parquet file."""
        found: dict[str, dict[str, str]] = {t: {} for t in tiers}
        for rel, digest in digests.items():
            head = rel.split("/", 1)[0]
            if "/" in rel and head in found:
                found[head][rel] = digest
            elif rel.endswith(".parquet") and tiered_parquet(folder / rel):
                per_tier = self.state.digests.tier_digests(folder / rel) or {}
                for tier in tiers:
                    found[tier][rel] = tier_digest(per_tier, tier)
        return found


@dataclass
class Written:
    outputs: dict[str, str]  # every output file -> sha256
    tier_outputs: dict[str, dict[str, str]]  # tier -> its files and rows' digests


def merge_tier_extras(extra: dict, old: dict | None, tiers: list[str], ran: list[str]) -> dict:
    """The stage's extra manifest fields, with those keyed by tier (``windows_per_tier``...)
    completed with the kept tiers' entries from the old manifest, in config order."""
    merged = dict(extra)
    for key, value in extra.items():
        if not isinstance(value, dict) or not value or not set(value) <= set(ran):
            continue
        previous = (old or {}).get(key)
        previous = previous if isinstance(previous, dict) else {}
        combined = {t: value[t] if t in value else previous.get(t) for t in tiers
                    if t in value or (t not in ran and t in previous)}
        merged[key] = combined
    return merged


def _summary_line(name: str, manifest: dict, tiers: dict | None = None) -> str:
    line = f"{name}: {manifest['rows_in']} in, {manifest['rows_out']} out"
    if tiers is not None and set(tiers) != set(manifest.get("tiers") or {}):
        line += f" (tiers {', '.join(tiers)}; others kept)"
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
