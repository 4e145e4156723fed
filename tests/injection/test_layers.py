"""The injection package's layers: no import cycle (function-level imports included), each layer
imports only from the layers below it, and the lexicon is data defined once."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import longnovel.injection

PACKAGE = "longnovel.injection"
ROOT = Path(longnovel.injection.__file__).parent


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join((PACKAGE, *parts))] = path
    return out


MODULES = _modules()



def test_the_tests_below_read_the_injection_package():
    """Each test below loops over MODULES: an empty walk would pass them all."""
    assert len(MODULES) > 20 and f"{PACKAGE}.generators.rules.event" in MODULES, sorted(MODULES)


def _imports(path: Path) -> set[str]:
    """Every longnovel module ``path`` imports, at any level of its code: ``from a.b import c``
    is a.b.c when that is a module, else a.b; importing a module runs its packages first."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in MODULES
                     else node.module for alias in node.names]
        else:
            continue
        for name in names:
            if name.startswith("longnovel"):
                parts = name.split(".")
                found.update(".".join(parts[:k]) for k in range(2, len(parts) + 1))
    return found


GRAPH = {name: {m for m in _imports(path) if m in MODULES} - {name}
         for name, path in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_in_injection():
    assert len(GRAPH) > 30  # every module was read
    assert _cycles(GRAPH) == []


def test_package_files_import_nothing():
    """Importing one module must not load the package: every ``__init__`` is a docstring."""
    for name, path in MODULES.items():
        if path.name == "__init__.py":
            body = ast.parse(path.read_text(encoding="utf-8")).body
            assert all(isinstance(n, ast.Expr) for n in body), name


LAYERS = {  # a layer may import from itself and the layers listed
    "lexicon": set(),
    "nlp": {"lexicon"},
    "candidate": set(),
    "generators": {"lexicon", "nlp", "candidate"},
}


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_a_layer_imports_only_from_below(layer):
    prefix = f"{PACKAGE}.{layer}"
    allowed = {f"{PACKAGE}.{below}" for below in LAYERS[layer] | {layer}} | {PACKAGE}
    for name, path in MODULES.items():
        if name == prefix or name.startswith(prefix + "."):
            outside = {m for m in _imports(path) if m.startswith(PACKAGE)
                       and not any(m == a or m.startswith(a + ".") for a in allowed)}
            assert not outside, (name, outside)


def test_injection_does_not_reach_the_stages():
    for name, path in MODULES.items():
        assert not any(m.startswith(("longnovel.stages", "longnovel.pipeline"))
                       for m in _imports(path)), name


def _top_level_names(path: Path) -> list[str]:
    """Names a module's top-level statements bind (assignments, definitions, imports)."""
    names = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names += [(a.asname or a.name).split(".")[0] for a in node.names]
    return names


def test_no_injection_module_defines_a_name_twice():
    """A second definition silently replaces the first (lexicon.py's second
    ZH_PLACE_SUFFIXES took 园国宫殿江岛峰庵渡谷 from entity extraction)."""
    for name, path in MODULES.items():
        names = [n for n in _top_level_names(path) if n != "annotations"]
        twice = sorted({n for n in names if names.count(n) > 1})
        assert not twice, (name, twice)


def test_the_lexicon_is_data_with_one_name_per_word_list():
    """lexicon/: each language's module binds only its own names (EN_ / ZH_, private ones
    with a leading underscore), imports no module of the package, and no name is in two."""
    seen: dict[str, str] = {}
    languages = sorted(p for p in (ROOT / "lexicon").glob("*.py") if p.name != "__init__.py")
    assert [p.stem for p in languages] == ["en", "zh"]
    for path in languages:
        prefix = path.stem.upper() + "_"
        assert not {m for m in _imports(path) if m.startswith("longnovel")}, path.name
        for name in _top_level_names(path):
            if name in ("annotations", "re"):
                continue
            assert name.lstrip("_").startswith(prefix), (path.name, name)
            assert name not in seen, (name, seen.get(name), path.name)
            seen[name] = path.name
    assert {"EN_CONTRACTIONS", "EN_NEGATED_AUXILIARIES", "ZH_PLACE_SUFFIXES",
            "ZH_PLACE_HEADS"} <= set(seen)


def test_every_longnovel_import_names_a_module_that_exists():
    """Code written against the old layout (``longnovel.injection.text``, ``...ops.base``)
    fails here rather than when its script is next run."""
    import importlib.util

    repo = Path(__file__).resolve().parents[2]
    missing = []
    for folder in ("src", "tests", "bench"):
        for path in sorted((repo / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                elif isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                else:
                    continue
                missing += [f"{path.relative_to(repo)}: {m}" for m in modules
                            if m.startswith("longnovel.") and importlib.util.find_spec(m) is None]
    assert not missing
