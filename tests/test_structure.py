"""The shape of src/longnovel, read with ast: no import cycle, no top-level name defined twice in
a module, no stage file over 250 lines."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "longnovel"
STAGE_LINES = 250


def _module_name(path: Path) -> str:
    parts = ["longnovel", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _statements(body: list[ast.stmt], nested: bool):
    """Statements of ``body``, and of the blocks inside it (``if``/``try``/``with`` always;
    functions and classes only when ``nested``), without ``if TYPE_CHECKING:`` blocks."""
    for node in body:
        if _is_type_checking(node):
            continue
        yield node
        if not nested and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                yield from _statements([child], nested)
        for handler in getattr(node, "handlers", []):
            yield from _statements(handler.body, nested)


def _imported(module: str, node: ast.stmt) -> list[str]:
    """Dotted names an import statement of ``module`` asks for (relative ones resolved)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        package = module.split(".")
        if MODULES[module].name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join([*package, *([node.module] if node.module else [])])
    return [base] + [f"{base}.{alias.name}" for alias in node.names]


def import_graph(nested: bool, with_parents: bool) -> dict[str, set[str]]:
    """Module -> the longnovel modules it imports. ``nested`` counts imports inside functions
    too; ``with_parents`` keeps the packages an import initializes first (importing ``a.b.c``
    runs ``a/__init__`` and ``a/b/__init__``) when they are the module's own packages too."""
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in _statements(tree.body, nested):
            for name in _imported(module, node):
                parts = name.split(".")
                prefixes = [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
                found.update(p for p in prefixes if p in MODULES
                             and (with_parents or not module.startswith(p + ".")))
        found.discard(module)
        graph[module] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle_and_only_one():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_relative_lazy_and_package_imports():
    eager = import_graph(nested=False, with_parents=True)
    lazy = import_graph(nested=True, with_parents=False)
    assert "longnovel.state" in eager["longnovel.pipeline"]
    assert {"longnovel.stages", "longnovel.stages.base"} <= eager["longnovel.stages.export"]
    assert "longnovel.stages.base" in lazy["longnovel.stages.export"]
    assert "longnovel.stages" not in lazy["longnovel.stages.export"]  # its own package
    assert "longnovel.tokenizer" in lazy["longnovel.stages.base"]  # inside a method
    assert "longnovel.tokenizer" not in eager["longnovel.stages.base"]


def test_no_import_cycle_when_modules_load():
    """Top-level imports, with the packages Python runs first: a cycle here means some module
    runs while another is half initialized (the old injection package's 13-module cycle)."""
    assert cycles(import_graph(nested=False, with_parents=True)) == []


def test_no_import_cycle_between_modules_at_all():
    """Every import, those inside functions too (a lazy import hides a cycle, it does not
    remove it), between modules (a module's own packages aside)."""
    assert cycles(import_graph(nested=True, with_parents=False)) == []


def top_level_names(tree: ast.Module) -> list[str]:
    """Names a module's own statements bind (defs, classes, assignments, imports), once per
    binding; blocks such as ``try: import x / except ImportError: x = None`` are left out."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names += [(a.asname or a.name).split(".")[0] for a in node.names]
    return names


def test_the_name_counter_sees_a_redefinition():
    tree = ast.parse("A = 1\nimport os\ndef f(): B = 2\nclass C: pass\nA = {1}\n")
    assert Counter(top_level_names(tree)) == {"A": 2, "os": 1, "f": 1, "C": 1}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_defines_a_top_level_name_twice(module):
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    twice = sorted(n for n, c in Counter(top_level_names(tree)).items() if c > 1)
    assert twice == [], f"{module} binds {twice} more than once"


@pytest.mark.parametrize("path", sorted((PACKAGE / "stages").glob("*.py")), ids=lambda p: p.name)
def test_no_stage_file_over_250_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= STAGE_LINES, f"{path.name}: {lines} lines"
