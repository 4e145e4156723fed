"""The ``longnovel`` command line. User errors become one line on stderr and exit code 1."""

from __future__ import annotations

import contextlib
import functools
import json
import signal
import sys
import time
from pathlib import Path

import typer

from longnovel.errors import LongnovelError

# Plain help (no rich panels): paragraphs re-wrapped to the terminal, no type placeholders.
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  context_settings=CONTEXT)

ConfigOpt = typer.Option(
    None, "--config", "-c", show_default=False, metavar="FILE",
    help="YAML config file. Default: ./longnovel.yaml, else ./configs/default.yaml, else the "
    "embedded default (the sample corpus, offline). Relative paths in it resolve against its "
    "folder.")
RunDirOpt = typer.Option(None, "--run-dir", metavar="DIR",
                         help="Override run_dir from the config (relative to this folder).")
TierOpt = typer.Option(None, "--tier", "-t", metavar="TIER",
                       help="Limit to this tier (repeatable).")
ForceOpt = typer.Option(False, "--force", help="Run even if the stage is fresh.")
DebugOpt = typer.Option(False, "--debug", help="Show tracebacks.")
QuietOpt = typer.Option(False, "--no-progress", help="Hide progress bars.")
ForceRunDirOpt = typer.Option(
    False, "--force-run-dir", help="Use the run directory even if it is a non-empty folder that "
    "is not a longnovel run directory (by default such a folder is refused, so that stages never "
    "write among, or delete, files that are not theirs).")
WorkersOpt = typer.Option(None, "--workers", min=1, metavar="N", help="Processes for work "
                          "that splits by book (default: config `workers`, else the cores "
                          "available).")
AcceptOpt = typer.Option(False, "--accept-failures",
                         help="Keep failed requests as final instead of re-sending them.")
PARTIAL_EXIT = 3  # a build that left a stage partial (requests without an answer)


_HELD: list = []  # run-directory locks taken by the running command


def _show_version(value: bool) -> None:
    if value:
        from longnovel import __version__

        typer.echo(f"longnovel {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(version: bool = typer.Option(
        False, "--version", "-V", callback=_show_version, is_eager=True,
        help="Print the version and exit.")):
    """Build LongNovel-style hallucination-detection benchmarks from long novels and their
    summaries. Start with `longnovel build --tier S` (the embedded default, offline) or
    `longnovel init DIR` (a project of your own)."""


def _err(message: str) -> None:
    typer.echo(message, err=True)


class Terminated(KeyboardInterrupt):
    """SIGTERM (what ``timeout``, systemd and batch schedulers send), unwound like Ctrl-C so
    that temporary files are removed and worker processes stopped on the way out."""


def _on_redelivered(signum, frame):
    signal.signal(signal.SIGINT, signal.default_int_handler)
    raise Terminated


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
    hook = sys.unraisablehook
    sys.unraisablehook = _redeliver_terminated(hook)
    try:
        yield
    finally:
        sys.unraisablehook = hook
        signal.signal(signal.SIGTERM, previous)
        if signal.getsignal(signal.SIGINT) is _on_redelivered:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def _redeliver_terminated(hook):
    """An unraisable-exception hook that delivers SIGTERM again when Python swallowed the
    ``Terminated`` raised by the handler: a signal arriving while a finalizer (``__del__``, a
    weakref callback) runs has its exception printed and ignored, and the build ran on to the
    end. The handler is put back and the main thread interrupted once more, from another
    thread (so that the handler runs in the main thread after the finalizer, not inside this
    hook)."""
    import _thread
    import threading

    def deliver_again():
        time.sleep(0.05)  # let the main thread leave the finalizer and this hook
        _thread.interrupt_main(signal.SIGINT)  # handled as Terminated, see below

    def handle(unraisable):
        if isinstance(unraisable.exc_value, Terminated):
            signal.signal(signal.SIGINT, _on_redelivered)
            threading.Thread(target=deliver_again, daemon=True).start()
            return
        hook(unraisable)

    return handle


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


def make_pipeline(config: Path | None, run_dir: Path | None, tiers, progress: bool = True,
                  claim: bool = True, lock: str | None = "exclusive",
                  force_run_dir: bool = False, workers: int | None = None):
    """The pipeline of a config; ``lock`` takes the run directory's lock for the rest of the
    command (``exclusive`` for commands that write stage outputs, ``shared`` for readers that
    write only their own report folder, None for read-only commands); ``workers`` (from
    ``--workers``) replaces the config's ``workers``."""
    from longnovel.config import load_config
    from longnovel.pipeline import Pipeline
    from longnovel.rundir import claim_run_dir
    from longnovel.state import RunLock

    cfg = load_config(config, str(run_dir) if run_dir else None)
    if workers is not None:
        cfg.workers = workers
    pipeline = Pipeline(cfg, list(tiers) if tiers else None, progress=progress)
    if claim:
        claim_run_dir(pipeline.run_dir, cfg.file, force=force_run_dir)
    if lock:
        held = RunLock(pipeline.run_dir, exclusive=lock == "exclusive").acquire()
        _HELD.append(held)  # released when the command returns (see user_errors)
    return pipeline


def _bars(no_progress: bool) -> bool:
    """Progress bars only on a terminal: piped or redirected stderr gets no carriage returns."""
    return not no_progress and sys.stderr.isatty()


def _log(message: str) -> None:
    typer.echo(message, err=True)


@app.command()
@user_errors
def build(config: Path | None = ConfigOpt, run_dir: Path | None = RunDirOpt,
          tier: list[str] | None = TierOpt,
          until: str | None = typer.Option(None, "--until", metavar="STAGE",
                                           help="Stop after this stage."),
          force: bool = ForceOpt, accept_failures: bool = AcceptOpt,
          workers: int | None = WorkersOpt, debug: bool = DebugOpt,
          no_progress: bool = QuietOpt, force_run_dir: bool = ForceRunDirOpt):
    """Run the stale stages in order.

    Runs every stale, missing or partial stage in order and skips fresh ones. Exits 3 while a
    stage is partial (requests without an answer): run it again to re-send only those, or pass
    --accept-failures."""
    from longnovel.pipeline import partial_line
    from longnovel.state import STAGES

    if until is not None and until not in STAGES:
        raise typer.BadParameter(f"--until must be one of {', '.join(STAGES)}")
    pipeline = make_pipeline(config, run_dir, tier, _bars(no_progress),
                             force_run_dir=force_run_dir, workers=workers)
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


def _run_one_stage(name: str, config, run_dir, tier, force: bool, accept_failures: bool,
                   no_progress: bool, force_run_dir: bool, workers: int | None = None) -> None:
    from longnovel.pipeline import partial_line

    pipeline = make_pipeline(config, run_dir, tier, _bars(no_progress),
                             force_run_dir=force_run_dir, workers=workers)
    state = pipeline.status(name).state
    if not force and state == "fresh":
        typer.echo(f"{name}: fresh, nothing to do (use --force to re-run)")
        if name == "export":
            pipeline.release(log=_log)
        return
    if state == "partial" and accept_failures and not force:
        pipeline.accept_failures(name)
        typer.echo(f"{name}: failures accepted as final")
        return
    manifest = pipeline.run_stage(name, log=_log, accept_failures=accept_failures, force=force)
    if name == "export":
        pipeline.release(log=_log)
    if manifest["unanswered"] and not manifest["failures_accepted"]:
        _err(partial_line(name, manifest["failures"]))
        raise typer.Exit(PARTIAL_EXIT)


def _stage_command(name: str):
    @user_errors
    def command(config: Path | None = ConfigOpt, run_dir: Path | None = RunDirOpt,
                tier: list[str] | None = TierOpt, force: bool = ForceOpt,
                accept_failures: bool = AcceptOpt, debug: bool = DebugOpt,
                no_progress: bool = QuietOpt, force_run_dir: bool = ForceRunDirOpt):
        _run_one_stage(name, config, run_dir, tier, force, accept_failures, no_progress,
                       force_run_dir)

    command.__doc__ = f"Run the {name} stage only."
    command.__name__ = name
    return command


@user_errors
def _inject_command(config: Path | None = ConfigOpt, run_dir: Path | None = RunDirOpt,
                    tier: list[str] | None = TierOpt, force: bool = ForceOpt,
                    accept_failures: bool = AcceptOpt, workers: int | None = WorkersOpt,
                    debug: bool = DebugOpt, no_progress: bool = QuietOpt,
                    force_run_dir: bool = ForceRunDirOpt):
    """Run the inject stage only."""
    _run_one_stage("inject", config, run_dir, tier, force, accept_failures, no_progress,
                   force_run_dir, workers)


for _name in ("ingest", "expand", "arbitrate", "inject", "export"):
    app.command(name=_name)(_inject_command if _name == "inject" else _stage_command(_name))


@app.command()
@user_errors
def init(folder: Path = typer.Argument(..., metavar="DIR", help="Folder to create (must be "
                                       "empty or absent)."),
         debug: bool = DebugOpt):
    """Write a starter project into DIR.

    The project holds longnovel.yaml (the embedded default's settings), a copy of the sample
    corpus and a README on where to put your own novels. Then `cd DIR && longnovel build`."""
    from longnovel.starter import init_project

    written = init_project(folder)
    typer.echo(f"wrote a project with {written} files to {folder}; next: cd {folder} && "
               "longnovel build --tier S")


@app.command()
@user_errors
def status(config: Path | None = ConfigOpt, run_dir: Path | None = RunDirOpt,
           tier: list[str] | None = TierOpt, debug: bool = DebugOpt,
           as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
           verify: bool = typer.Option(False, "--verify", help="Re-hash every recorded output "
                                       "(every byte, not size and time) first; exit 1 if any "
                                       "file differs from its manifest.")):
    """Show each stage's state and where files are.

    Prints the resolved config, run dir, cache and corpus paths, then one row per stage
    (fresh / stale / missing / partial and why, rows, failures, tokens, cost, when), then
    windows and samples per tier and language."""
    from longnovel.checks import table
    from longnovel.state import verify_outputs
    from longnovel.status import card_line, paths_lines, status_rows, status_table, tier_rows

    pipeline = make_pipeline(config, run_dir, tier, claim=False, lock=None)
    problems: list[str] = []
    if verify:
        checked, problems = verify_outputs(pipeline.run_dir, pipeline.state.digests)
        for line in problems:
            _err(f"verify: {line}")
        _err(f"verify: {checked} file(s) re-hashed, {len(problems)} differ")
    rows = status_rows(pipeline)
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        if problems:
            raise typer.Exit(1)
        return
    typer.echo(paths_lines(pipeline.config) + "\n")
    typer.echo(status_table(rows))
    typer.echo(card_line(pipeline))
    typer.echo("\n" + table(tier_rows(pipeline), ["tier", "language", "windows", "samples"]))
    if problems:
        raise typer.Exit(1)


@app.command()
@user_errors
def doctor(config: Path | None = ConfigOpt, run_dir: Path | None = RunDirOpt,
           debug: bool = DebugOpt):
    """Check the config, keys and model servers.

    Checks the config, the tokenizer, the corpus paths and each model's API key, then sends one
    tiny request per configured model."""
    from longnovel.checks import doctor_rows, table

    pipeline = make_pipeline(config, run_dir, None, claim=False, lock=None)
    rows = doctor_rows(pipeline)
    typer.echo(table(rows, ["check", "status", "detail"]))
    if any(r["status"] != "ok" for r in rows):
        raise typer.Exit(1)


@app.command()
@user_errors
def plan(config: Path | None = ConfigOpt, run_dir: Path | None = RunDirOpt,
         tier: list[str] | None = TierOpt, debug: bool = DebugOpt,
         no_progress: bool = QuietOpt,
         as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
         model: list[str] | None = typer.Option(
             None, "--model", metavar="NAME", help="Also estimate `evaluate --model NAME` on "
             "the exported test split (repeatable; needs a built export).")):
    """Estimate LLM requests, tokens and cost.

    Counts the requests a build would send, per stage and model, with prompt and completion
    tokens and cost; sends no request."""
    from longnovel.checks import estimate_table, plan_rows

    pipeline = make_pipeline(config, run_dir, tier, _bars(no_progress), lock="shared")
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
    from longnovel.evaluation.baselines import is_baseline
    from longnovel.evaluation.datasets import load_dataset
    from longnovel.evaluation.requests import plan_requests
    from longnovel.llm import estimate
    from longnovel.tokenizer import load_tokenizer

    models = [m for m in models if not is_baseline(m)]  # built in: no request to estimate
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
def stats(config: Path | None = ConfigOpt, run_dir: Path | None = RunDirOpt,
          tier: list[str] | None = TierOpt, debug: bool = DebugOpt):
    """Write counts and distributions of a build.

    Counts, length and score distributions and judge agreement, in stats/stats.json with PNG
    plots."""
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
def audit(config: Path | None = ConfigOpt, run_dir: Path | None = RunDirOpt,
          tier: list[str] | None = TierOpt,
          group_by: str = typer.Option(
              "book", "--group-by", metavar="book|window", help="Fold groups: book (no book "
              "in train and test), or window (weaker; one-book corpora)."),
          debug: bool = DebugOpt):
    """Measure shortcuts with an article-free classifier.

    How often a classifier that sees only the summary (folds grouped by book) tells an injected
    summary from its original (0.5 = no shortcut); writes stats/audit.json and, when export
    has run, the dataset card with these figures (export itself stays fresh)."""
    from longnovel.audit import audit_table, write_audit

    pipeline = make_pipeline(config, run_dir, tier, lock="shared")
    path, result = write_audit(pipeline.run_dir, list(tier) if tier else None, group_by)
    typer.echo(audit_table(result))
    for language, grams in result["shortcuts"].items():
        shown = ", ".join(repr(g["ngram"]) for g in grams["injected"][:8])
        typer.echo(f"top shortcuts ({language}): {shown}")
    typer.echo(f"wrote {path}")
    pipeline.release(log=typer.echo)


DataOpt = typer.Option(None, "--data", metavar="FILE", help="A dataset file in the release "
                       "format (JSON, JSONL or Parquet) instead of the run's exported split.")
SplitOpt = typer.Option("test", "--split", metavar="SPLIT", help="Exported split (without --data).")


def _check_choice(option: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise typer.BadParameter(f"{option} must be one of {', '.join(choices)}")


def _show_report(report: dict, folder: Path) -> None:
    from longnovel.evaluation.tables import metrics_table

    typer.echo(f"{report['run']} on {report['dataset']} ({report['samples']} samples):")
    for language, how in report.get("baseline", {}).get("fitted_on", {}).items():
        typer.echo(f"  {report['model']} fitted on ({language}): {how}")
    typer.echo(metrics_table(report))
    for warning in report["warnings"]:
        _err(f"warning: {warning}")
    if report["unmapped_types"]:
        names = ", ".join(f"{k!r} ({n})" for k, n in report["unmapped_types"].items())
        _err(f"warning: gold type names that map to no type id, counted as unknown: {names}")
    typer.echo(f"wrote {folder / 'metrics.json'}")


@app.command()
@user_errors
def evaluate(config: Path | None = ConfigOpt, run_dir: Path | None = RunDirOpt,
             model: list[str] = typer.Option(..., "--model", "-m", metavar="NAME",
                                             help="A model under models:, or a built-in "
                                             "baseline:random, baseline:summary-only or "
                                             "baseline:lexical (repeatable)."),
             tier: list[str] | None = TierOpt, split: str = SplitOpt,
             data: Path | None = DataOpt,
             repeats: int = typer.Option(1, "--repeats", min=1, metavar="N",
                                         help="Independent runs."),
             prompt: str = typer.Option("plain", "--prompt", metavar="plain|cot",
                                        help="plain or cot (reason first)."),
             order: str = typer.Option("article-first", "--order", metavar="ORDER",
                                       help="article-first or summary-first."),
             resamples: int = typer.Option(1000, "--resamples", min=0, metavar="N",
                                           help="Bootstrap resamples for the 95% intervals."),
             dry_run: bool = typer.Option(False, "--dry-run",
                                          help="Only estimate requests, tokens and cost."),
             debug: bool = DebugOpt, no_progress: bool = QuietOpt):
    """Run detectors over a split or a file.

    Runs configured models, or the built-in baselines (baseline:random, baseline:summary-only,
    baseline:lexical), as hallucination detectors over exported samples or a release-format
    file, and reports detection metrics with 95% intervals."""
    from longnovel.checks import estimate_table
    from longnovel.evaluation.baselines import check_name, is_baseline
    from longnovel.evaluation.datasets import load_dataset
    from longnovel.evaluation.requests import ORDERS, PROMPTS, repeat_models
    from longnovel.evaluation.run import EvalOptions, output_dir, run_evaluation
    from longnovel.tokenizer import load_tokenizer

    _check_choice("--prompt", prompt, PROMPTS)
    _check_choice("--order", order, ORDERS)
    pipeline = make_pipeline(config, run_dir, None if data else tier, _bars(no_progress),
                             lock="shared")
    for name in model:  # every name checked up front
        if is_baseline(name):
            check_name(name)
        else:
            repeat_models(pipeline.config.models, name, repeats)
    tokenizer = load_tokenizer(pipeline.config.tokenizer)
    dataset = load_dataset(pipeline.config, pipeline.run_dir, data, split, tier, tokenizer)
    if dry_run:
        typer.echo(estimate_table(_evaluate_plan(pipeline, model, dataset, repeats, prompt,
                                                 order, tokenizer)))
        return
    for name in model:
        options = EvalOptions(name, repeats, prompt, order, resamples, pipeline.config.seed)
        report = run_evaluation(pipeline.config, pipeline.run_dir, dataset, options, tokenizer,
                                _bars(no_progress))
        _show_report(report, output_dir(pipeline.run_dir, dataset, options))


@app.command()
@user_errors
def compare(config: Path | None = ConfigOpt, run_dir: Path | None = RunDirOpt,
            data: Path | None = DataOpt, split: str = SplitOpt,
            model: list[str] | None = typer.Option(
                None, "--model", "-m", metavar="NAME", help="Only this model's runs (repeatable)."),
            debug: bool = DebugOpt):
    """Rank evaluated detectors.

    A leaderboard (Markdown and JSON), a models x types heatmap and a metric-by-length plot
    over the evaluated runs of one dataset."""
    from longnovel.evaluation.compare import load_runs, write_comparison
    from longnovel.evaluation.datasets import dataset_name, export_name

    pipeline = make_pipeline(config, run_dir, None, claim=False, lock="shared")
    name = dataset_name(data) if data else export_name(split)
    folder, markdown = write_comparison(pipeline.run_dir, load_runs(pipeline.run_dir, name,
                                                                    model))
    typer.echo(markdown)
    typer.echo(f"wrote leaderboard.md, leaderboard.json, heatmap.png and length.png to {folder}")


review_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, context_settings=CONTEXT,
                         help="Human review: export a sheet, import edits.")
app.add_typer(review_app, name="review")


@review_app.command("export")
@user_errors
def review_export(config: Path | None = ConfigOpt, run_dir: Path | None = RunDirOpt,
                  tier: str = typer.Option(..., "--tier", "-t", metavar="TIER",
                                           help="Tier to review."),
                  split: str = typer.Option("test", "--split", metavar="SPLIT",
                                            help="Split to review."),
                  out: Path | None = typer.Option(
                      None, "--out", "-o", metavar="FILE",
                      help="CSV to write (default <run_dir>/reviews/review-<tier>-<split>.csv)."),
                  debug: bool = DebugOpt):
    """Write a review sheet of one tier and split.

    A CSV (UTF-8 with BOM) for annotators to edit."""
    from longnovel.release.review import write_review_file

    pipeline = make_pipeline(config, run_dir, [tier], lock="shared")
    path, n = write_review_file(pipeline.run_dir, tier, split, out)
    typer.echo(f"wrote {n} rows to {path}")


@review_app.command("import")
@user_errors
def review_import(file: Path = typer.Argument(..., metavar="FILE",
                                              help="The edited review CSV (or .tsv)."),
                  config: Path | None = ConfigOpt, run_dir: Path | None = RunDirOpt,
                  reviewer: str | None = typer.Option(
                      None, "--reviewer", metavar="NAME",
                      help="Reviewer for rows whose reviewer cell is empty."),
                  debug: bool = DebugOpt):
    """Record the edits of a review sheet.

    Validates the edited file and records its edits; the next export applies them."""
    from longnovel.release.review import import_review_file, store_path

    pipeline = make_pipeline(config, run_dir, None)
    n = import_review_file(pipeline.run_dir, file, reviewer)
    typer.echo(f"recorded {n} review(s) in {store_path(pipeline.run_dir)}; "
               "run `longnovel build` (or `longnovel export`) to apply them")


def main() -> None:  # pragma: no cover - entry point for python -m
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
