"""The docs: README stays a front page whose links and commands are true, the generated CLI
and config references cover every command, option and key, and the site builds with --strict."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys

import pytest
from helpers.builders import REPO
from pydantic import BaseModel

from longnovel.config import Config
from longnovel.taxonomy import TYPE_IDS

README = REPO / "README.md"
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def load_reference():
    spec = importlib.util.spec_from_file_location(
        "docs_reference", REPO / "scripts" / "docs_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def reference():
    return load_reference()


def leaf_keys(model: type[BaseModel], prefix: str = "") -> set[str]:
    """Every leaf key of a config model, walked independently of the docs generator."""
    keys = set()
    for name, field in model.model_fields.items():
        inner = [a for a in (field.annotation, *getattr(field.annotation, "__args__", ()))
                 if isinstance(a, type) and issubclass(a, BaseModel)]
        if not inner:
            keys.add(prefix + name)
            continue
        origin = getattr(field.annotation, "__origin__", None)
        step = {list: f"{name}[].", dict: f"{name}.<name>."}.get(origin, f"{name}.")
        keys |= leaf_keys(inner[0], prefix + step)
    return keys


def test_readme_is_a_front_page():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    for heading in ("## Install and run the embedded default", "## Run the tests",
                    "## Bring your own novels", "## The eight hallucination types"):
        assert heading in text
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert [t for t in TYPE_IDS if not any(row.startswith(f"| `{t}` |") for row in rows)] == []


def test_readme_commands_are_the_ones_ci_runs():
    readme = README.read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    for command in ('pip install ".[test]" && longnovel build --tier S',
                    ". .venv/bin/activate && python -m pytest"):
        assert command in readme and command in ci


def test_every_relative_link_in_readme_and_docs_resolves():
    pages = [README, *sorted((REPO / "docs").rglob("*.md"))]
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            path = target.split("#")[0]
            if not path or re.match(r"[a-z]+:", path):
                continue
            resolved = (page.parent / path).resolve()
            generated = resolved == REPO / "docs" / "benchmarks" / "notebook.md"
            if not resolved.exists() and not generated:
                broken.append(f"{page.relative_to(REPO)}: {target}")
    assert broken == []


def test_every_yaml_example_in_the_docs_is_a_valid_config():
    import yaml

    checked = 0
    for page in [README, *sorted((REPO / "docs").rglob("*.md"))]:
        for block in re.findall(r"```yaml\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            data = yaml.safe_load(block)
            data.setdefault("corpus", [{"path": "x", "format": "dir", "language": "en"}])
            Config.model_validate(data)  # a stale key or value fails here, naming it
            checked += 1
    assert checked >= 4


def test_every_command_line_in_the_docs_uses_real_commands_and_options(reference):
    commands = {name.split(" ", 1)[1]: c for name, c in reference.cli_commands()}
    options = {name: {o for p in c.params for o in (*p.opts, *p.secondary_opts)}
               for name, c in commands.items()}
    wrong, checked = [], 0
    for page in [README, *sorted((REPO / "docs").rglob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"```(?:bash|text)?\n(.*?)```", text, re.S):
            for line in block.replace("\\\n", " ").splitlines():
                for part in re.split(r"&&|;|\s\|\s", line.split(" #")[0]):
                    words = [w.lstrip("[") for w in part.split()]
                    if len(words) < 2 or words[0] != "longnovel" or words[1].startswith("-"):
                        continue
                    name = " ".join(words[1:3]) if words[1] == "review" else words[1]
                    unknown = [w for w in words if w.startswith("-")
                               and w.split("=")[0] not in options.get(name, ())]
                    if name not in commands or unknown:
                        wrong.append(f"{page.relative_to(REPO)}: {part.strip()}")
                    checked += 1
    assert wrong == []
    assert checked >= 20


def test_cli_reference_has_every_command_and_option(reference):
    import typer.main

    from longnovel.cli import app

    text = reference.cli_reference()
    root = typer.main.get_command(app)
    names = {name for name, _ in reference.cli_commands()}
    assert {"longnovel build", "longnovel init", "longnovel review import"} <= names
    assert set(root.list_commands(root.context_class(root))) == {n.split()[1] for n in names}
    for name, command in reference.cli_commands():
        assert f"## `{name}`" in text
        section = text.split(f"## `{name}`", 1)[1].split("\n## ", 1)[0]
        for param in command.params:
            if param.param_type_name == "option":
                assert f"`{param.opts[0]}`" in section or f"`{param.opts[0]}`" in text, param
            else:
                assert f"`{param.metavar or param.name.upper()}`" in section


def test_config_reference_has_every_key(reference):
    keys = leaf_keys(Config)
    assert {"inject.types_per_window", "corpus[].format", "models.<name>.price.batch_discount",
            "export.mix", "cache"} <= keys
    text = reference.config_reference()
    assert [k for k in sorted(keys) if f"| `{k}` |" not in text] == []
    assert "| `units.min_tokens` | integer (≥ 0) | `2000` |" in text
    assert "| `corpus[].format` | `dir` \\| `table` \\| `booksum` | required |" in text


def test_types_reference_lists_every_type_and_subtype(reference):
    from longnovel.taxonomy import TYPES

    text = reference.types_reference()
    for type_id, spec in TYPES.items():
        row = next(line for line in text.splitlines() if line.startswith(f"| `{type_id}` |"))
        assert spec["zh"] in row and all(f"`{s}`" in row for s in spec["subtypes"])
    assert ("| `temporal` | Timeline error | 时序错乱 | `swap` | "
            "Timeline Disruption / 时间线乱序 |") in text


def test_a_key_without_description_stops_the_reference(reference, monkeypatch):
    monkeypatch.delitem(reference.DESCRIPTIONS, "window.above")
    with pytest.raises(ValueError, match=r"missing \['window.above'\]"):
        reference.config_reference()
    monkeypatch.setitem(reference.DESCRIPTIONS, "window.sideways", "no such key")
    with pytest.raises(ValueError, match="no such key .*window.sideways"):
        reference.config_reference()


def test_site_builds_strict_with_generated_pages(tmp_path):
    # mkdocs comes with the test extra (CI installs it); a venv made before it was added skips
    pytest.importorskip("mkdocs", reason='pip install -e ".[test]" again to get mkdocs')
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        check=False, cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    cli = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    assert "longnovel review import" in cli and "--accept-failures" in cli
    config = (site / "reference" / "config" / "index.html").read_text(encoding="utf-8")
    assert "inject.types_per_window" in config and "generated:" not in config
    types = (site / "reference" / "types" / "index.html").read_text(encoding="utf-8")
    assert "fabrication" in types and "generated:" not in types
    notebook = (site / "benchmarks" / "notebook" / "index.html").read_text(encoding="utf-8")
    assert "Re-running them" in notebook
