"""Generated reference pages for the docs site, so they cannot drift from the code.

``cli_reference()`` walks the click command tree behind the typer app; ``config_reference()``
walks the pydantic models of the config. mkdocs runs this file as a hook (see mkdocs.yml): a
page holding ``<!-- generated: cli -->`` or ``<!-- generated: config -->`` gets the reference
in place of the marker, and the benchmarks notebook page is made from bench/README.md.

Every config key needs a line in ``DESCRIPTIONS``: a key without one (or a description of a
key that no longer exists) stops the docs build, and tests/test_docs.py says which.
"""

from __future__ import annotations

import types
import typing
from pathlib import Path

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

REPO = Path(__file__).resolve().parent.parent
MARKERS = {"<!-- generated: cli -->": "cli", "<!-- generated: config -->": "config",
           "<!-- generated: types -->": "types"}
NOTEBOOK = "benchmarks/notebook.md"  # the docs page made from bench/README.md

# One line per config key: what it does. `corpus[]` is any corpus source, `models.<name>` any
# model entry.
DESCRIPTIONS: dict[str, str] = {
    "run_dir": "Where stage outputs go. Relative to the config file's folder (the embedded "
    "default's: the current folder); `--run-dir` overrides it.",
    "seed": "Seeds window caps, type assignment, injection, label balance and splits.",
    "tokenizer": "`qwen3` (the packaged Qwen3 tokenizer, sha256-checked) or a local Hugging "
    "Face tokenizer or model folder (needs the `local` extra).",
    "corpus": "The sources of books and their summaries, one entry per folder or file and "
    "language.",
    "corpus[].path": "A folder (`dir`) or a file or folder (`table`, `booksum`), relative to "
    "the config file's folder.",
    "corpus[].format": "How the source is laid out; see [Your own novels](../guide/corpus.md).",
    "corpus[].language": "The language of every book in the source.",
    "corpus[].summary_sources": "`booksum` only: which summary sources to take, in order of "
    "preference; a chapter with none of them is skipped and counted.",
    "units.min_tokens": "Units shorter than this (Qwen3 tokens) are out of range.",
    "units.max_tokens": "Units longer than this are out of range.",
    "units.out_of_range": "`drop` an out-of-range unit (counted by reason; it breaks the run of "
    "consecutive units) or `keep` it.",
    "units.missing_summary": "A unit without a summary stops ingest (`error`) or is dropped and "
    "counted as `missing_summary` (`drop`).",
    "tiers": "Tier name to target length T in tokens.",
    "window.below": "A window is at least `T - below` tokens long.",
    "window.above": "A window is at most `T + above` tokens long.",
    "window.max_per_tier": "Optional cap on windows per tier, sampled with the seed and spread "
    "across books.",
    "window.max_per_book": "Optional cap on windows per book and tier.",
    "models": "Named LLM endpoints that the keys below refer to by name; see "
    "[LLM setup](../guide/llm.md).",
    "models.<name>.provider": "`openai` (any OpenAI-compatible server), `zhipuai` (GLM) or "
    "`transformers` (a local model folder; needs the `local` extra).",
    "models.<name>.model": "The model name sent to the server.",
    "models.<name>.base_url": "The server's URL; none for the provider's own service.",
    "models.<name>.cache_namespace": "Names the endpoint in cache keys instead of `base_url`, "
    "so replies stay cached when a server moves.",
    "models.<name>.api_key_env": "The environment variable that holds the key (never the key "
    "itself); none for keyless local servers.",
    "models.<name>.max_concurrency": "Requests in flight for this model.",
    "models.<name>.requests_per_minute": "Optional rate limit.",
    "models.<name>.tokens_per_minute": "Optional token rate limit (counted with the "
    "tokenizer).",
    "models.<name>.temperature": "Sampling temperature (part of the cache key).",
    "models.<name>.max_tokens": "Completion limit; a reply cut there is a final `truncated` "
    "failure.",
    "models.<name>.timeout_s": "Seconds before a request times out (then retried).",
    "models.<name>.max_retries": "Retries of 429, 5xx, timeouts and dropped connections, with "
    "exponential backoff and Retry-After honoured.",
    "models.<name>.retry_after_max_s": "Longest Retry-After waited for; a longer one leaves the "
    "request unanswered (`retry_after`) for the next build.",
    "models.<name>.context_window": "Prompts that do not fit with `max_tokens` are refused "
    "before sending.",
    "models.<name>.extra_body": "Extra fields of the request body, e.g. `{chat_template_kwargs: "
    "{enable_thinking: false}}` (part of the cache key).",
    "models.<name>.price.input_per_mtok": "Price per million prompt tokens, for `plan` and "
    "usage reports.",
    "models.<name>.price.output_per_mtok": "Price per million completion tokens.",
    "models.<name>.price.batch_discount": "Share taken off both prices in batch mode (0.5: half "
    "price).",
    "models.<name>.mode": "`live` requests, or `batch` through the provider's batch API "
    "(`openai` and `zhipuai` only).",
    "models.<name>.batch_poll_s": "Seconds between polls of pending batches.",
    "arbitrate.summarizers": "Models that summarize every selected window; none: arbitrate "
    "writes empty files.",
    "arbitrate.judges": "Models that judge every summary except their own.",
    "arbitrate.use_reference": "Show the human reference summary to the judges as a trusted "
    "account.",
    "arbitrate.rule": "How judgments become a label: `majority` or `unanimous`.",
    "arbitrate.max_windows_per_tier": "Optional cap on arbitrated windows per tier (a cheap "
    "trial), sampled with the seed.",
    "inject.generator": "`rules` (offline, deterministic) or the name of a model.",
    "inject.entities": "`lexical` (offline), `spacy` (spaCy's English recogniser; the `ner` "
    "extra) or the name of a model that extracts the window's entities.",
    "inject.types": "`all` or a list of type ids.",
    "inject.types_per_window": "How many types each window gets, balanced per tier and "
    "language.",
    "inject.max_retries": "Retries of a rejected candidate.",
    "inject.verify": "Optional model that checks every valid candidate against the article.",
    "export.splits": "Split name to share (the shares sum to 1); splits are by book.",
    "export.mix": "`balanced` (as many consistent as hallucinated samples per tier and "
    "language), null (everything), or shares per source, e.g. `{human: 0.2, injection: 0.8}`.",
    "export.max_per_tier": "Optional cap on samples per tier.",
    "cache": "The SQLite LLM request cache, relative to the config file's folder (the embedded "
    "default's: the current folder).",
    "workers": "Processes for the work that splits by book (inject); at least 1. `--workers N` "
    "on `build` and `inject` overrides it; rows are the same for any count, so it is in no "
    "fingerprint and not on the dataset card. `status` shows it.",
}


# ----------------------------------------------------------------------------- config


def config_rows(model: type[BaseModel] | None = None, prefix: str = "") -> list[dict]:
    """One row per config key, in the models' order: key, type, default, constraints."""
    from longnovel.config import Config

    rows = []
    for name, field in (model or Config).model_fields.items():
        key = f"{prefix}{name}"
        nested, shape = _nested_model(field.annotation)
        if shape:
            rows.append(_row(key, field))
            rows += config_rows(nested, f"{key}.<name>." if shape == "dict" else f"{key}[].")
        elif nested is not None:
            rows += config_rows(nested, f"{key}.")
        else:
            rows.append(_row(key, field))
    return rows


def config_keys() -> list[str]:
    """Every documented config key."""
    return [row["key"] for row in config_rows()]


def config_reference() -> str:
    """The config reference as Markdown: one table per top-level section."""
    missing = [k for k in config_keys() if k not in DESCRIPTIONS]
    unknown = [k for k in DESCRIPTIONS if k not in config_keys()]
    if missing or unknown:
        raise ValueError(f"scripts/docs_reference.py DESCRIPTIONS: missing {missing}, "
                         f"no such key {unknown}")
    sections: dict[str, list[dict]] = {}
    for row in config_rows():
        head = row["key"].split(".")[0].split("[")[0]
        sections.setdefault(head if "." in row["key"] or "[" in row["key"] else "", []).append(row)
    out = []
    for head, rows in sections.items():
        out.append(f"## `{head}`" if head else "## Top level")
        out.append("")
        out.append("| key | type | default | meaning |")
        out.append("|---|---|---|---|")
        for row in rows:
            kind = row["type"] + (f" ({row['limits']})" if row["limits"] else "")
            default = row["default"] if row["default"] in ("required", "null") \
                else f"`{row['default']}`"
            out.append(f"| `{row['key']}` | {kind} | {default} | "
                       f"{_escape(DESCRIPTIONS[row['key']])} |")
        out.append("")
    return "\n".join(out)


def _nested_model(annotation) -> tuple[type[BaseModel] | None, str]:
    """The model a field holds and how: alone (``""``), in a list or as dict values."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, ""
    if origin is list and args and _is_model(args[0]):
        return args[0], "list"
    if origin is dict and len(args) == 2 and _is_model(args[1]):
        return args[1], "dict"
    return None, ""


def _is_model(value) -> bool:
    return isinstance(value, type) and issubclass(value, BaseModel)


def _row(key: str, field) -> dict:
    return {"key": key, "type": _type_name(field.annotation), "default": _default(field),
            "limits": _limits(field)}


def _type_name(annotation) -> str:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal:
        return " \\| ".join(f"`{a}`" for a in args)
    if origin in (typing.Union, types.UnionType):
        return " \\| ".join(_type_name(a) for a in args)
    if annotation is type(None):
        return "null"
    if origin is list:
        return f"list of {_type_name(args[0])}" if args else "list"
    if annotation is dict or origin is dict:
        if args and _is_model(args[1]):
            return "map of name to model"
        return f"map of {_type_name(args[0])} to {_type_name(args[1])}" if args else "map"
    if _is_model(annotation):
        return annotation.__name__
    return {str: "string", int: "integer", float: "number", bool: "boolean"}.get(
        annotation, getattr(annotation, "__name__", str(annotation)))


def _default(field) -> str:
    if field.default is PydanticUndefined and field.default_factory is None:
        return "required"
    factory = field.default_factory
    if factory is not None and getattr(factory, "__module__", "").startswith("longnovel"):
        return factory.__name__.replace("_", " ")  # computed where it runs: "available cores"
    value = factory() if factory else field.default
    if isinstance(value, BaseModel):
        value = value.model_dump()
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).replace("'", "")


def _limits(field) -> str:
    signs = {"ge": "≥", "gt": ">", "le": "≤", "lt": "<"}
    parts = []
    for item in field.metadata:
        for attr, sign in signs.items():
            if getattr(item, attr, None) is not None:
                parts.append(f"{sign} {getattr(item, attr)}")
    return ", ".join(parts)


def _escape(text: str) -> str:
    """Text for a table cell: one line, pipes outside code spans escaped."""
    parts = text.replace("\n", " ").split("`")
    return "`".join(p if i % 2 else p.replace("|", "\\|").replace("<", "&lt;")
                    for i, p in enumerate(parts))


# ----------------------------------------------------------------------------- CLI


def cli_commands() -> list[tuple[str, object]]:
    """(full name, click command) for every command and sub-command, in the order of `--help`.
    (Typer may bring its own copy of click, so commands are recognised by what they do.)"""
    import typer.main

    from longnovel.cli import app

    root = typer.main.get_command(app)
    found = []

    def walk(group, prefix: str) -> None:
        ctx = group.context_class(group, info_name=prefix)
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if hasattr(command, "list_commands"):
                walk(command, f"{prefix} {name}")
            else:
                found.append((f"{prefix} {name}", command))

    walk(root, "longnovel")
    return found


def cli_reference() -> str:
    """The CLI reference as Markdown: the options most commands share, then every command
    with its usage, help and its own options."""
    import typer.main

    from longnovel.cli import app

    root = typer.main.get_command(app)
    commands = cli_commands()
    params = {name: [p for p in c.get_params(c.context_class(c, info_name=name))
                     if p.name != "help"] for name, c in commands}
    shared = _shared_options(params)
    out = [_paragraphs(root.help or ""), "",
           ("`longnovel --version` (`-V`) prints the version; `-h` or `--help` after any "
            "command prints its help."), "", "## Options most commands take", "",
           "| option | meaning |", "|---|---|"]
    out += ["| {} | {} |".format(*_param_cells(p)[:2]) for p in shared.values()]
    out.append("")
    for name, command in commands:
        ctx = command.context_class(command, info_name=name)
        out += [f"## `{name}`", "", "```text", command.get_usage(ctx), "```", ""]
        out += [_paragraphs(command.help or ""), ""]
        common = [f"`{p.opts[0]}`" for p in params[name] if (p.name, p.help) in shared]
        own = ["| {} | {} | {} |".format(*_param_cells(p)) for p in params[name]
               if (p.name, p.help) not in shared]
        if own:
            out += ["| option | meaning | default |", "|---|---|---|", *own, ""]
        if common:
            out += [f"Also takes {', '.join(common)} (see above).", ""]
    return "\n".join(out)


def _shared_options(params: dict[str, list]) -> dict[tuple, object]:
    """Options that at least half the commands take with the same help, by (name, help)."""
    seen: dict[tuple, list] = {}
    for plist in params.values():
        for p in plist:
            if p.param_type_name == "option":
                seen.setdefault((p.name, p.help), []).append(p)
    half = len(params) / 2
    return {key: found[0] for key, found in seen.items() if len(found) >= half}


def _paragraphs(text: str) -> str:
    """Help text as Markdown paragraphs (click keeps the docstring's line breaks)."""
    blocks = [" ".join(line.strip() for line in block.splitlines())
              for block in text.strip().split("\n\n")]
    return "\n\n".join(block.replace("\b ", "") for block in blocks if block)


def _param_cells(param) -> tuple[str, str, str]:
    """An option's or argument's names, meaning and default, as table cells."""
    if param.param_type_name == "argument":
        names = f"`{param.metavar or param.name.upper()}`"
        return names, _escape(param.help or "") + ("" if param.required else " (optional)"), ""
    names = ", ".join(f"`{o}`" for o in [*param.opts, *param.secondary_opts])
    if not getattr(param, "is_flag", False) and param.metavar:
        names += f" `{param.metavar}`"
    default = "" if param.default in (None, False, ()) or param.is_flag else f"`{param.default}`"
    return names, _escape(param.help or ""), default


# ----------------------------------------------------------------------------- types


def types_reference() -> str:
    """The hallucination types as a Markdown table: id, names, sub-types, the official
    release's names (from ``longnovel.taxonomy``)."""
    from longnovel.taxonomy import OFFICIAL_NAMES, TYPES

    out = ["| id | en name | zh name | sub-types | official release's names |",
           "|---|---|---|---|---|"]
    for type_id, spec in TYPES.items():
        subtypes = ", ".join(f"`{s}`" for s in spec["subtypes"])
        official = " / ".join(OFFICIAL_NAMES[type_id].values())
        out.append(f"| `{type_id}` | {spec['en']} | {spec['zh']} | {subtypes} | {official} |")
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- mkdocs hooks

GENERATORS = {"cli": cli_reference, "config": config_reference, "types": types_reference}


def _site_anchors(markdown: str) -> str:
    """Rewrite ``](#github-anchor)`` links to the anchors Python-Markdown gives the same
    headings (GitHub keeps every hyphen; Python-Markdown folds runs of them)."""
    import re

    from markdown.extensions.toc import slugify

    for heading in re.findall(r"^#+ (.+)$", markdown, flags=re.MULTILINE):
        github = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        markdown = markdown.replace(f"](#{github})", f"](#{slugify(heading, '-')})")
    return markdown


def on_files(files, config):
    """Add the benchmarks notebook page, made from bench/README.md."""
    from mkdocs.structure.files import File

    text = (REPO / "bench" / "README.md").read_text(encoding="utf-8")
    files.append(File.generated(config, NOTEBOOK, content=text))
    return files


def on_page_markdown(markdown, page, config, files):
    """Put the generated references in place of their markers; in the notebook, turn
    GitHub's heading anchors into the ones this site makes."""
    if page.file.src_uri == NOTEBOOK:
        markdown = _site_anchors(markdown)
    for marker, kind in MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, GENERATORS[kind]())
    return markdown
