"""The report's script and style sheet are package files, read at run time, allowed by hash,
type-checked, and share their constants with the Python side from one place."""

from __future__ import annotations

import ast
import base64
import hashlib
import os
import re
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import pytest

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.verdicts import VERDICTS, WEAK
from sourcecheck.review import assets, render
from sourcecheck.review.model import HIDDEN_CLASS, LETTER, SHOWN, UNCITED, shared
from tests.review.test_render import ORBIT, Page

ROOT = Path(__file__).resolve().parents[2]
REVIEW = ROOT / "server" / "sourcecheck" / "review"
EXTENSION = ROOT / "vscode-extension"


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_the_page_inlines_the_package_files_and_its_policy_allows_exactly_them():
    html = render_orbit()
    static = resources.files("sourcecheck.review") / "static"
    script = (static / "report.js").read_text(encoding="utf-8")
    style = (static / "report.css").read_text(encoding="utf-8")
    page = Page(html)
    assert page.scripts[1][1] == script
    inline_style = re.search(r"<style>(.*?)</style>", html, re.S)
    assert inline_style is not None and inline_style.group(1) == style
    (policy,) = [a["content"] for t, a in page.elements if t == "meta" and a.get("http-equiv")]
    assert f"script-src {sha256(script)};" in policy and f"style-src {sha256(style)};" in policy


def render_orbit() -> str:
    return render(Analysis(ORBIT.read_text()), "orbit.json")


def test_no_python_module_of_the_report_holds_script_or_style():
    looks_like_code = re.compile(r"addEventListener|=>|function\s*\(|@media|:root\s*\{|\{\s*[a-z-]+\s*:[^}]*;")
    for module in sorted(REVIEW.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert not looks_like_code.search(node.value), (module.name, node.value[:80])
    assert not (REVIEW / "script.py").exists() and not (REVIEW / "style.py").exists()


def test_what_the_script_shares_with_python_comes_from_the_data():
    script = assets.script().text
    k = shared()
    assert k["hidden"] == HIDDEN_CLASS
    assert k["letters"] == [LETTER[v] for v in VERDICTS] and k["weak"] == WEAK and k["uncited"] == UNCITED
    assert [k["shown"].index(v) for v in SHOWN] == list(SHOWN.values())
    # ...and is not written again in the script
    assert HIDDEN_CLASS not in script and "\\u202e" not in script
    assert '"S", "C"' not in script and "0.3" not in script
    assert not re.search(r"kind & \d", script)
    data = Page(render_orbit()).data()
    assert data["k"] == k


@pytest.mark.parametrize(
    ("name", "text", "found"),
    [
        ("report.js", 'const a = "</script>";', "</script"),
        ("report.js", "// <!-- a comment that opens an HTML comment", "<!--"),
        ("report.css", "a::after { content: '</STYLE>'; }", "</STYLE"),
    ],
)
def test_a_file_that_could_end_its_element_is_refused(name, text, found):
    with pytest.raises(ValueError, match=re.escape(found)):
        assets.checked(name, text)
    assert assets.checked(name, "ok").text == "ok"


def npm() -> str | None:
    return shutil.which("npm") if shutil.which("node") else None


def test_the_script_type_checks_with_the_extensions_typescript():
    """``npm run typecheck:report``: TypeScript's checkJs over static/report.js, strict."""
    if npm() is None:
        pytest.skip("node and npm are not installed: the script's type check needs them")
    if not (EXTENSION / "node_modules" / "typescript").exists():
        reason = "vscode-extension/node_modules has no typescript (run npm ci in vscode-extension)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    done = subprocess.run(
        [npm() or "npm", "run", "--silent", "typecheck:report"],
        cwd=EXTENSION,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert assets.script().text.startswith("// @ts-check\n")
