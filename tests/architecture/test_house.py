"""The house rules, checked: no module over 1,000 lines, no private name of one module
imported by another (a name another module needs is public), and no function above
complexity 15 (ruff's C901 in the test command, with no function exempt from it), and no
script or style sheet in a Python string."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted((ROOT / "server" / "sourcecheck").rglob("*.py")) + sorted((ROOT / "bench").glob("*.py"))
MAX_LINES = 1000


def test_no_module_is_over_a_thousand_lines():
    long = {
        str(p.relative_to(ROOT)): n
        for p in MODULES
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def private_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (
            node.level or (node.module or "").startswith(("sourcecheck", "bench"))
        ):
            found += [f"{node.lineno}: {a.name}" for a in node.names if re.match(r"_[^_]", a.name)]
    return found


def test_no_private_name_is_imported_from_another_module():
    found = {str(p.relative_to(ROOT)): names for p in MODULES if (names := private_imports(p))}
    assert found == {}


def test_no_function_is_exempt_from_the_complexity_limit():
    exempt = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in MODULES
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"#\s*noqa(?!:)|#\s*noqa:.*\bC901\b", line)
    ]
    assert exempt == []


# What only a script or a style sheet says: a DOM call, an arrow function's body, a rule
# (a selector, then a block of declarations). The report's are files (review/static/).
SCRIPT_OR_STYLE = re.compile(
    r"querySelector|addEventListener|getElementById|=>\s*\{"  # a script
    r"|[\w\])-]\s*\{\s*[a-z-]+\s*:\s*[^;{}]+;"  # a style sheet's rule
)


def scripts_and_styles(source: str) -> list[int]:
    """The lines of the string literals in ``source`` that hold script or style."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SCRIPT_OR_STYLE.search(node.value)
    ]


def test_no_script_or_style_is_a_python_string():
    found = {str(p.relative_to(ROOT)): lines for p in MODULES if (lines := scripts_and_styles(p.read_text("utf-8")))}
    assert found == {}


def test_a_script_or_a_style_in_a_python_string_is_seen():
    assert scripts_and_styles('S = """body { margin: 0; color: #222; }"""\n') == [1]
    assert scripts_and_styles("J = \"document.querySelector('#x').addEventListener('click', () => {})\"\n") == [1]
    assert scripts_and_styles('M = "a ref: `x`; a line: 3"\n') == []


def classes_named() -> dict[str, list[str]]:
    """The modules of the package defining each class name."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "server" / "sourcecheck").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    return found


def test_no_class_name_is_defined_twice():
    # (the API's report types are the public names, `sourcecheck.Finding` and the others;
    # the core's are named for what they are inside an analysis: docs/decisions.md, the house)
    assert {name: where for name, where in classes_named().items() if len(where) > 1} == {}
