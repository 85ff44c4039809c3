"""The package's design, checked: no import cycles, and the core free of LSP.

Imports are read from the source (every ``import`` statement, at module level or inside a
function, except those under ``if TYPE_CHECKING:``, which never run), resolved to modules
of the package, and the graph is searched for cycles.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "server"
PACKAGE = ROOT / "sourcecheck"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path) -> set[str]:
    """Every module (of any package) that ``path`` imports when it runs."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and is_type_checking(child):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in child.names)  # `from . import x` may name a module
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    edges = {}
    for name, path in modules.items():
        edges[name] = {target for target in imports_of(path) if target in modules and target != name}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
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

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return found


def test_the_package_has_no_import_cycle():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_only_the_language_server_imports_lsprotocol_or_pygls():
    outside = {}
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        if name.startswith("sourcecheck.lsp"):
            continue
        bad = {target for target in imports_of(path) if target.split(".")[0] in ("lsprotocol", "pygls", "cattrs")}
        if bad:
            outside[name] = sorted(bad)
    assert outside == {}


def test_the_core_imports_neither_the_cli_nor_the_server():
    for path in (PACKAGE / "core").rglob("*.py"):
        bad = {target for target in imports_of(path) if target.startswith(("sourcecheck.cli", "sourcecheck.lsp"))}
        assert not bad, (module_name(path), bad)


def test_no_feature_imports_another_feature_or_the_server():
    """Features see a view (lsp/app.py) and the core; the server assembles them."""
    for path in (PACKAGE / "lsp" / "features").glob("*.py"):
        bad = {
            target
            for target in imports_of(path)
            if target.startswith("sourcecheck.lsp.features.")
            and target != module_name(path)
            or target in ("sourcecheck.lsp.server", "sourcecheck.lsp.sync", "sourcecheck.lsp.protocol")
        }
        assert not bad, (module_name(path), bad)


LAYERS = (
    ("core", "version"),
    ("disk", "interchange", "review"),
    ("inputs",),
    ("formats",),
    ("api", "arguments", "workspace"),
    ("", "cli", "lsp", "__main__"),  # "": the package itself (sourcecheck/__init__.py)
)
"""The house from the bottom up (docs/architecture.md): a module imports only from its own
layer and those below it."""


def layer_of(module: str) -> int:
    part = module.split(".")[1] if "." in module else ""
    for rank, names in enumerate(LAYERS):
        if part in names:
            return rank
    raise AssertionError(f"{module} is in no layer: add it to LAYERS (and to docs/architecture.md)")


def test_no_import_runs_up_a_layer():
    up = sorted(
        (source, target)
        for source, targets in graph().items()
        for target in targets
        if layer_of(target) > layer_of(source)
    )
    assert up == []


def test_the_cli_and_the_server_do_not_import_each_other():
    for source, targets in graph().items():
        for target in targets:
            pair = {
                source.split(".")[1:2][0] if "." in source else "",
                target.split(".")[1:2][0] if "." in target else "",
            }
            assert pair != {"cli", "lsp"}, (source, target)


def modules_imported_by(statement: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``statement``."""
    import subprocess
    import sys

    shown = "import sys; print('\\n'.join(sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", f"{statement}; {shown}"], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return set(done.stdout.split())


# What checking files and writing their report never uses: the subcommands, the interchange
# formats, the sync's re-anchoring, the review page, the whole API, gitignore patterns.
NOT_FOR_A_CHECK = {
    "sourcecheck.api",
    "sourcecheck.cli.authoring",
    "sourcecheck.core.resync",
    "sourcecheck.interchange",
    "sourcecheck.review",
    "pathspec",
}


def test_the_command_imports_only_what_a_check_uses():
    """``sourcecheck FILE`` starts by importing cli/main.py: what it does not need is
    imported when a subcommand, a folder's patterns or the API ask for it (a fifth of the
    command's time on a small file was importing)."""
    assert NOT_FOR_A_CHECK & modules_imported_by("import sourcecheck.cli.main") == set()


def test_the_package_imports_its_api_when_a_name_of_it_is_asked_for():
    assert "sourcecheck.api" not in modules_imported_by("import sourcecheck")
    assert "sourcecheck.api" in modules_imported_by("import sourcecheck; sourcecheck.check")
    assert "sourcecheck.interchange" in modules_imported_by("from sourcecheck.formats import INTERCHANGE")
    # A module of the package is an attribute of it when first asked for, as it was when the
    # whole API was imported with it.
    assert "sourcecheck.workspace" in modules_imported_by("import sourcecheck; sourcecheck.workspace.Configs")
