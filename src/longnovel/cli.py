"""The ``longnovel`` command line. User errors become one line on stderr and exit code 1."""

from __future__ import annotations

import contextlib
import functools
import json
import signal
import sys
from pathlib import Path

import typer

from longnovel.errors import LongnovelError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Build LongNovel-style hallucination-detection benchmarks.")

ConfigOpt = typer.Option(Path("configs/default.yaml"), "--config", "-c",
                         help="YAML config file.")
RunDirOpt = typer.Option(None, "--run-dir", help="Override run_dir from the config.")
TierOpt = typer.Option(None, "--tier", "-t", help="Limit to this tier (repeatable).")
ForceOpt = typer.Option(False, "--force", help="Run even if the stage is fresh.")
DebugOpt = typer.Option(False, "--debug", help="Show tracebacks.")
QuietOpt = typer.Option(False, "--no-progress", help="Hide progress bars.")
AcceptOpt = typer.Option(False, "--accept-failures",
                         help="Keep failed requests as final instead of re-sending them.")
PARTIAL_EXIT = 3  # a build that left a stage partial (requests without an answer)


_HELD: list = []  # run-directory locks taken by the running command


def _err(message: str) -> None:
    typer.echo(message, err=True)


class Terminated(KeyboardInterrupt):
    """SIGTERM (what ``timeout``, systemd and batch schedulers send), unwound like Ctrl-C so
    that temporary files are removed and worker processes stopped on the way out."""


def _on_sigterm(signum, frame):
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process at once
    raise Terminated


@contextlib.contextmanager
def _sigterm_unwinds():
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def user_errors(func):
    """Turn LongnovelError into one line and exit 1 (re-raised with --debug); Ctrl-C exits
    130 and SIGTERM 143, after the stage's temporary files are removed."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            with _sigterm_unwinds():
                return func(*args, **kwargs)
        except LongnovelError as exc:
            if kwargs.get("debug"):
                raise
            _err(f"error: {exc}")
            raise typer.Exit(1) from None
        except Terminated:
            _err("terminated")
            raise typer.Exit(143) from None
        except KeyboardInterrupt:
            _err("interrupted")
            raise typer.Exit(130) from None
        finally:
            while _HELD:
                _HELD.pop().release()

    return wrapper


def make_pipeline(config: Path, run_dir: Path | None, tiers, progress: bool = True,
                  claim: bool = True, lock: str | None = "exclusive"):
    """The pipeline of a config; ``lock`` takes the run directory's lock for the rest of the
    command (``exclusive`` for commands that write stage outputs, ``shared`` for readers that
    write only their own report folder, None for read-only commands)."""
    from longnovel.config import load_config
    from longnovel.pipeline import Pipeline
    from longnovel.rundir import claim_run_dir
    from longnovel.state import RunLock

    cfg = load_config(config, str(run_dir) if run_dir else None)
    pipeline = Pipeline(cfg, list(tiers) if tiers else None, progress=progress)
    if claim:
        claim_run_dir(pipeline.run_dir, config)
    if lock:
        held = RunLock(pipeline.run_dir, exclusive=lock == "exclusive").acquire()
        _HELD.append(held)  # released when the command returns (see user_errors)
    return pipeline


def _log(message: str) -> None:
    typer.echo(message, err=True)


@app.command()
@user_errors
def build(config: Path = ConfigOpt, run_dir: Path | None = RunDirOpt,
          tier: list[str] | None = TierOpt,
          until: str | None = typer.Option(None, "--until", help="Stop after this stage."),
          force: bool = ForceOpt, accept_failures: bool = AcceptOpt, debug: bool = DebugOpt,
          no_progress: bool = QuietOpt):
    """Run every stale, missing or partial stage in order, skipping fresh ones.

    Exits 3 while a stage is partial (requests without an answer): run it again to re-send
    only those, or pass --accept-failures."""
    from longnovel.pipeline import partial_line
    from longnovel.state import STAGES

    if until is not None and until not in STAGES:
        raise typer.BadParameter(f"--until must be one of {', '.join(STAGES)}")
    pipeline = make_pipeline(config, run_dir, tier, not no_progress)
    report = pipeline.build(until=until, force=force, accept_failures=accept_failures, log=_log)
    typer.echo(f"done: {len(report.ran)} stage(s) run; outputs in {pipeline.run_dir}")
    for name, failures in report.partial.items():
        _err(partial_line(name, failures))
    empty = _empty_requested_tiers(pipeline, tier or [], until)
    for line in empty:
        _err(f"error: {line}")
    if empty:
        raise typer.Exit(1)
    if report.partial:
        raise typer.Exit(PARTIAL_EXIT)


def _empty_requested_tiers(pipeline, requested: list[str], until: str | None) -> list[str]:
    """Each (tier, language) the user asked for with ``--tier`` that ended with no sample (no
    window, when the build stopped before export), with expand's reason."""
    from longnovel.state import STAGES, read_manifest

    if not requested or (until and STAGES.index(until) < STAGES.index("expand")):
        return []
    expand = read_manifest(pipeline.run_dir, "expand") or {}
    stage = "export" if not until or until == "export" else "expand"
    key = "samples_by_tier_language" if stage == "export" else "windows_per_tier_language"
    counts = (read_manifest(pipeline.run_dir, stage) or {}).get(key) or {}
    languages = sorted({s.language for s in pipeline.config.corpus})
    lines = []
    for name in dict.fromkeys(requested):
        for language in languages:
            if (counts.get(name) or {}).get(language, 0) == 0:
                why = [n for n in expand.get("notes", [])
                       if n.startswith(f"tier {name} ") and f" no {language} " in n]
                lines += why or [f"tier {name} has no {language} sample"]
    return lines


def _stage_command(name: str):
    @user_errors
    def command(config: Path = ConfigOpt, run_dir: Path | None = RunDirOpt,
                tier: list[str] | None = TierOpt, force: bool = ForceOpt,
                accept_failures: bool = AcceptOpt, debug: bool = DebugOpt,
                no_progress: bool = QuietOpt):
        from longnovel.pipeline import partial_line

        pipeline = make_pipeline(config, run_dir, tier, not no_progress)
        state = pipeline.status(name).state
        if not force and state == "fresh":
            typer.echo(f"{name}: fresh, nothing to do (use --force to re-run)")
            return
        if state == "partial" and accept_failures and not force:
            pipeline.accept_failures(name)
            typer.echo(f"{name}: failures accepted as final")
            return
        manifest = pipeline.run_stage(name, log=_log, accept_failures=accept_failures)
        if manifest["unanswered"] and not manifest["failures_accepted"]:
            _err(partial_line(name, manifest["failures"]))
            raise typer.Exit(PARTIAL_EXIT)

    command.__doc__ = f"Run the {name} stage only."
    command.__name__ = name
    return command


for _name in ("ingest", "expand", "arbitrate", "inject", "export"):
    app.command(name=_name)(_stage_command(_name))


@app.command()
@user_errors
def status(config: Path = ConfigOpt, run_dir: Path | None = RunDirOpt,
           tier: list[str] | None = TierOpt, debug: bool = DebugOpt,
           as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")):
    """One row per stage: fresh / stale / missing, rows, failures, tokens, cost, when."""
    from longnovel.checks import table
    from longnovel.status import status_rows, status_table, tier_rows

    pipeline = make_pipeline(config, run_dir, tier, claim=False, lock=None)
    rows = status_rows(pipeline)
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    typer.echo(status_table(rows))
    typer.echo("\n" + table(tier_rows(pipeline), ["tier", "language", "windows", "samples"]))


@app.command()
@user_errors
def doctor(config: Path = ConfigOpt, run_dir: Path | None = RunDirOpt,
           debug: bool = DebugOpt):
    """Check config, tokenizer, corpus paths, API keys, and send one tiny request per model."""
    from longnovel.checks import doctor_rows, table

    pipeline = make_pipeline(config, run_dir, None, claim=False, lock=None)
    rows = doctor_rows(pipeline)
    typer.echo(table(rows, ["check", "status", "detail"]))
    if any(r["status"] != "ok" for r in rows):
        raise typer.Exit(1)


@app.command()
@user_errors
def plan(config: Path = ConfigOpt, run_dir: Path | None = RunDirOpt,
         tier: list[str] | None = TierOpt, debug: bool = DebugOpt,
         no_progress: bool = QuietOpt,
         as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
         model: list[str] | None = typer.Option(
             None, "--model", help="Also estimate `evaluate --model NAME` on the exported test "
             "split (repeatable; needs a built export).")):
    """Estimate LLM requests, tokens and cost per stage and model; sends no request."""
    from longnovel.checks import estimate_table, plan_rows

    pipeline = make_pipeline(config, run_dir, tier, not no_progress, lock="shared")
    with pipeline.windows_for_planning(log=_log) as windows_dir:
        rows = plan_rows(pipeline.config, windows_dir, pipeline.selected_tiers())
    rows += _evaluate_plan(pipeline, model or [])
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        typer.echo("no LLM requests: no model is configured for arbitrate or inject")
        return
    typer.echo(estimate_table(rows))


def _evaluate_plan(pipeline, models: list[str], dataset=None, repeats: int = 1,
                   prompt: str = "plain", order: str = "article-first",
                   tokenizer=None) -> list[dict]:
    """Estimates of `evaluate` for ``models`` (default dataset: the export's test split)."""
    from longnovel.evaluation.datasets import load_dataset
    from longnovel.evaluation.requests import plan_requests
    from longnovel.llm import estimate
    from longnovel.tokenizer import load_tokenizer

    if not models:
        return []
    tokenizer = tokenizer or load_tokenizer(pipeline.config.tokenizer)
    if dataset is None:
        dataset = load_dataset(pipeline.config, pipeline.run_dir, None, "test", pipeline.tiers,
                               tokenizer)
    planned = [p for name in models for p in plan_requests(
        dataset.rows, pipeline.config.models, name, repeats, prompt, order)]
    return estimate(planned, pipeline.config.models, tokenizer)


@app.command()
@user_errors
def stats(config: Path = ConfigOpt, run_dir: Path | None = RunDirOpt,
          tier: list[str] | None = TierOpt, debug: bool = DebugOpt):
    """Counts, length and score distributions, judge agreement: stats/stats.json and PNG plots."""
    from longnovel.stats import write_stats
    from longnovel.tokenizer import load_tokenizer

    pipeline = make_pipeline(config, run_dir, tier, lock="shared")
    folder, result = write_stats(pipeline.run_dir, load_tokenizer(pipeline.config.tokenizer),
                                 list(pipeline.selected_tiers()))
    by_tier = ", ".join(f"{t} {n}" for t, n in result["by_tier"].items())
    typer.echo(f"{result['samples']} samples ({by_tier}); wrote {folder / 'stats.json'} "
               f"and {len(result['plots'])} plots")
    for key, cell in result.get("type_balance", {}).items():
        typer.echo(f"  {key}: {len(cell['types'])} types, {cell['min']}-{cell['max']} per type "
                   f"(max/min {cell['max_over_min']})")


@app.command()
@user_errors
def audit(config: Path = ConfigOpt, run_dir: Path | None = RunDirOpt,
          tier: list[str] | None = TierOpt,
          group_by: str = typer.Option("book", "--group-by", help="Fold groups: book (no book "
                                       "in train and test), or window (weaker; one-book corpora)."),
          debug: bool = DebugOpt):
    """Article-free baseline: how often a summary-only classifier (grouped by book) tells an
    injected summary from its original (0.5 = no shortcut); writes stats/audit.json."""
    from longnovel.audit import audit_table, write_audit

    pipeline = make_pipeline(config, run_dir, tier, lock="shared")
    path, result = write_audit(pipeline.run_dir, list(tier) if tier else None, group_by)
    typer.echo(audit_table(result))
    for language, grams in result["shortcuts"].items():
        shown = ", ".join(repr(g["ngram"]) for g in grams["injected"][:8])
        typer.echo(f"top shortcuts ({language}): {shown}")
    typer.echo(f"wrote {path}")


DataOpt = typer.Option(None, "--data", help="A dataset file in the release format (JSON, "
                       "JSONL or Parquet) instead of the run's exported split.")
SplitOpt = typer.Option("test", "--split", help="Exported split (without --data).")


def _check_choice(option: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise typer.BadParameter(f"{option} must be one of {', '.join(choices)}")


def _show_report(report: dict, folder: Path) -> None:
    from longnovel.evaluation.tables import metrics_table

    typer.echo(f"{report['run']} on {report['dataset']} ({report['samples']} samples):")
    typer.echo(metrics_table(report))
    for warning in report["warnings"]:
        _err(f"warning: {warning}")
    if report["unmapped_types"]:
        names = ", ".join(f"{k!r} ({n})" for k, n in report["unmapped_types"].items())
        _err(f"warning: gold type names that map to no type id, counted as unknown: {names}")
    typer.echo(f"wrote {folder / 'metrics.json'}")


@app.command()
@user_errors
def evaluate(config: Path = ConfigOpt, run_dir: Path | None = RunDirOpt,
             model: list[str] = typer.Option(..., "--model", "-m",
                                             help="A model under models: (repeatable)."),
             tier: list[str] | None = TierOpt, split: str = SplitOpt,
             data: Path | None = DataOpt,
             repeats: int = typer.Option(1, "--repeats", min=1, help="Independent runs."),
             prompt: str = typer.Option("plain", "--prompt", help="plain or cot (reason first)."),
             order: str = typer.Option("article-first", "--order",
                                       help="article-first or summary-first."),
             resamples: int = typer.Option(1000, "--resamples", min=0,
                                           help="Bootstrap resamples for the 95% intervals."),
             dry_run: bool = typer.Option(False, "--dry-run",
                                          help="Only estimate requests, tokens and cost."),
             debug: bool = DebugOpt, no_progress: bool = QuietOpt):
    """Run configured models as hallucination detectors over exported samples or a file."""
    from longnovel.checks import estimate_table
    from longnovel.evaluation.datasets import load_dataset
    from longnovel.evaluation.requests import ORDERS, PROMPTS, repeat_models
    from longnovel.evaluation.run import EvalOptions, output_dir, run_evaluation
    from longnovel.tokenizer import load_tokenizer

    _check_choice("--prompt", prompt, PROMPTS)
    _check_choice("--order", order, ORDERS)
    pipeline = make_pipeline(config, run_dir, None if data else tier, not no_progress,
                             lock="shared")
    for name in model:
        repeat_models(pipeline.config.models, name, repeats)  # every name checked up front
    tokenizer = load_tokenizer(pipeline.config.tokenizer)
    dataset = load_dataset(pipeline.config, pipeline.run_dir, data, split, tier, tokenizer)
    if dry_run:
        typer.echo(estimate_table(_evaluate_plan(pipeline, model, dataset, repeats, prompt,
                                                 order, tokenizer)))
        return
    for name in model:
        options = EvalOptions(name, repeats, prompt, order, resamples, pipeline.config.seed)
        report = run_evaluation(pipeline.config, pipeline.run_dir, dataset, options, tokenizer,
                                not no_progress)
        _show_report(report, output_dir(pipeline.run_dir, dataset, options))


@app.command()
@user_errors
def compare(config: Path = ConfigOpt, run_dir: Path | None = RunDirOpt,
            data: Path | None = DataOpt, split: str = SplitOpt,
            model: list[str] | None = typer.Option(
                None, "--model", "-m", help="Only this model's runs (repeatable)."),
            debug: bool = DebugOpt):
    """A leaderboard, a models x types heatmap and a metric-by-length plot over evaluated runs."""
    from longnovel.evaluation.compare import load_runs, write_comparison
    from longnovel.evaluation.datasets import dataset_name, export_name

    pipeline = make_pipeline(config, run_dir, None, claim=False, lock="shared")
    name = dataset_name(data) if data else export_name(split)
    folder, markdown = write_comparison(pipeline.run_dir, load_runs(pipeline.run_dir, name,
                                                                    model))
    typer.echo(markdown)
    typer.echo(f"wrote leaderboard.md, leaderboard.json, heatmap.png and length.png to {folder}")


review_app = typer.Typer(no_args_is_help=True, help="Human review: export a sheet, import edits.")
app.add_typer(review_app, name="review")


@review_app.command("export")
@user_errors
def review_export(config: Path = ConfigOpt, run_dir: Path | None = RunDirOpt,
                  tier: str = typer.Option(..., "--tier", "-t", help="Tier to review."),
                  split: str = typer.Option("test", "--split", help="Split to review."),
                  out: Path | None = typer.Option(
                      None, "--out", "-o",
                      help="CSV to write (default <run_dir>/reviews/review-<tier>-<split>.csv)."),
                  debug: bool = DebugOpt):
    """Write a CSV (UTF-8 with BOM) of one tier and split for annotators to edit."""
    from longnovel.release.review import write_review_file

    pipeline = make_pipeline(config, run_dir, [tier], lock="shared")
    path, n = write_review_file(pipeline.run_dir, tier, split, out)
    typer.echo(f"wrote {n} rows to {path}")


@review_app.command("import")
@user_errors
def review_import(file: Path = typer.Argument(..., help="The edited review CSV (or .tsv)."),
                  config: Path = ConfigOpt, run_dir: Path | None = RunDirOpt,
                  reviewer: str | None = typer.Option(
                      None, "--reviewer", help="Reviewer for rows whose reviewer cell is empty."),
                  debug: bool = DebugOpt):
    """Validate an edited review file and record its edits; the next export applies them."""
    from longnovel.release.review import import_review_file, store_path

    pipeline = make_pipeline(config, run_dir, None)
    n = import_review_file(pipeline.run_dir, file, reviewer)
    typer.echo(f"recorded {n} review(s) in {store_path(pipeline.run_dir)}; "
               "run `longnovel build` (or `longnovel export`) to apply them")


def main() -> None:  # pragma: no cover - entry point for python -m
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
