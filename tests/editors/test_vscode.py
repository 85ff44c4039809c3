"""sourcecheck in real VS Code: code-server 4.99.4 with the built .vsix, driven in headless Chromium;
and the extension's own checks that need no VS Code (its manifest, its unit tests).

One code-server and one Chromium serve every VS Code test of a run (this module's and
test_review_editors.py's): each test opens a folder of its own (its settings in the folder's
.vscode/settings.json) in a browser context of its own, so it gets its own window, extension
host and server. The drivers (vscode_*.mjs, with code_server.mjs) wait for what each step
needs, never a fixed time; each reports when its steps were done (``timings``, printed).
Only the test of an untrusted workspace starts a code-server of its own (workspace trust on).
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CODE_SERVER = ROOT / ".cache" / "code-server"
VSIX = ROOT / "vscode-extension" / "sourcecheck.vsix"
CHECK = Path(__file__).with_name("vscode_check.mjs")
FIXTURE = ROOT / "fixtures" / "broken" / "boundary-ambiguous.sourcecheck.json"
BIN = Path(sys.executable).parent

EXTENSION = ROOT / "vscode-extension"
MANIFEST = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
EXECUTED = ["sourcecheck.server.path", "sourcecheck.interpreter"]


# -- the extension, without VS Code


def test_untrusted_workspaces_are_supported_with_the_executed_settings_restricted():
    """In a workspace the user has not trusted the extension runs (diagnostics, hovers, the
    review), but a folder's own settings may not choose the program it starts."""
    trust = MANIFEST["capabilities"]["untrustedWorkspaces"]
    assert trust["supported"] == "limited"
    assert trust["restrictedConfigurations"] == EXECUTED
    assert all(name in trust["description"] for name in EXECUTED)


def test_the_executed_settings_are_machine_overridable_and_say_when_a_workspace_value_applies():
    properties = MANIFEST["contributes"]["configuration"]["properties"]
    for name in EXECUTED:
        assert properties[name]["scope"] == "machine-overridable", name
        assert "applies only once you trust the workspace" in properties[name]["markdownDescription"], name
    # the others are no program: a workspace may set them
    assert [n for n, p in properties.items() if "scope" in p] == EXECUTED


def test_the_extensions_unit_tests_pass():
    """``npm run test:unit``: the trust rule (settings.ts) and when the review panel asks
    (schedule.ts: the pause, visibility, one request in flight), with fake timers."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the extension's unit tests need them")
    require(EXTENSION / "node_modules" / "esbuild", "vscode-extension/node_modules (npm ci)")
    done = subprocess.run(
        ["npm", "run", "--silent", "test:unit"], cwd=EXTENSION, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# pass 10" in done.stdout, done.stdout[-2000:]


def test_the_vsix_declares_the_same_and_carries_the_reports_script_and_style():
    require(VSIX, "the .vsix")
    with zipfile.ZipFile(VSIX) as vsix:
        names = set(vsix.namelist())
        packaged = json.loads(vsix.read("extension/package.json"))
    assert packaged["capabilities"] == MANIFEST["capabilities"]
    static = "extension/bundled/libs/sourcecheck/review/static/"
    assert {static + "report.js", static + "report.css"} <= names
    # Nothing compiled for one platform (orjson, PyStemmer): the .vsix runs with any Python 3.11+.
    assert [name for name in names if name.endswith((".so", ".pyd", ".dylib"))] == []


# -- real VS Code


def require(path: Path, what: str) -> None:
    if not path.exists():
        message = f"{what} is missing ({path}); scripts/test installs and builds it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


USER_SETTINGS = {
    "security.workspace.trust.enabled": False,
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "telemetry.telemetryLevel": "off",
    "extensions.autoUpdate": False,
    "editor.hover.delay": 100,
}
# No sourcecheck on the PATH code-server runs with (the .vsix-alone test needs that); the
# others name their server by its full path in their folder's settings.
PATH_WITHOUT_BIN = os.pathsep.join(
    p for p in os.environ["PATH"].split(os.pathsep) if p and Path(p).resolve() != BIN.resolve()
)


class CodeServer:
    """code-server with the built .vsix installed, and one headless Chromium beside it.

    Both start once for every VS Code test of a run (:func:`shared_code_server`): each test
    opens a folder of its own, with its settings in the folder's .vscode/settings.json, in a
    browser context of its own, so each gets its own window, extension host and language
    server. Everything lives in a short folder under /tmp (a socket's path has at most 107
    bytes), HOME and the XDG folders too, removed at the end."""

    def __init__(self, user_settings: dict | None = None, path: str = PATH_WITHOUT_BIN) -> None:
        require(CODE_SERVER / "node_modules" / ".bin" / "code-server", "code-server")
        require(CODE_SERVER / "node_modules" / "playwright-core", "playwright-core")
        require(VSIX, "the .vsix")
        self.root = Path(tempfile.mkdtemp(prefix="sc-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.folders = 0
        data = self.root / "data"
        (data / "User").mkdir(parents=True)
        (data / "User" / "settings.json").write_text(json.dumps({**USER_SETTINGS, **(user_settings or {})}))
        config = self.root / "config.yaml"
        config.write_text(f"bind-addr: 127.0.0.1:{self.port}\nauth: none\ncert: false\n")
        self.env = {
            **os.environ,
            "PATH": path,
            "HOME": str(self.root / "home"),
            "TMPDIR": str(self.root),
            "XDG_RUNTIME_DIR": str(self.root),
            "XDG_DATA_HOME": str(self.root / "xdg-data"),
            "XDG_CONFIG_HOME": str(self.root / "xdg-config"),
            "XDG_CACHE_HOME": str(self.root / "xdg-cache"),
            "NODE_PATH": str(CODE_SERVER / "node_modules"),
        }
        common = [
            str(CODE_SERVER / "node_modules" / ".bin" / "code-server"),
            *("--config", str(config), "--user-data-dir", str(data), "--extensions-dir", str(self.root / "extensions")),
        ]
        began = time.perf_counter()
        subprocess.run(
            [*common, "--install-extension", str(VSIX)], check=True, capture_output=True, env=self.env, timeout=120
        )
        self.process = subprocess.Popen(
            [*common, "--auth", "none", "--bind-addr", f"127.0.0.1:{self.port}"]
            + ["--disable-telemetry", "--disable-update-check"],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # Chromium, as a server the drivers connect to (code_server.mjs serve)
        self.browser = subprocess.Popen(
            ["node", str(CODE_SERVER_MJS), "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=self.env,
            cwd=CODE_SERVER,
            text=True,
        )
        assert self.browser.stdout is not None
        self.ws = json.loads(self.browser.stdout.readline())["ws"]
        # /healthz answers {"status": "expired"} until a window connects: an answer is enough.
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(f"{self.url}/healthz", timeout=2).read()
                break
            except OSError:
                if time.time() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.1)
        self.started_in = time.perf_counter() - began

    def folder(self, fixture: Path, settings: dict | None = None) -> Path:
        """A new workspace folder holding ``fixture``, with ``settings`` as its own."""
        self.folders += 1
        folder = self.root / "workspaces" / f"w{self.folders}"
        (folder / ".vscode").mkdir(parents=True)
        shutil.copy(fixture, folder / fixture.name)
        (folder / ".vscode" / "settings.json").write_text(json.dumps(settings or {}))
        return folder

    def drive(self, check: Path, folder: Path, file: str, args: list[str], shots: Path, wait_ms: int) -> dict:
        """Runs a driver on ``file`` of ``folder``; what it saw, and the file afterwards."""
        shots.mkdir(parents=True, exist_ok=True)
        asked = {k: v for k, v in os.environ.items() if k.startswith("SOURCECHECK_")}  # e.g. SOURCECHECK_SUGGEST_AT
        env = {**self.env, **asked, "SOURCECHECK_WAIT_MS": str(wait_ms), "SOURCECHECK_BROWSER_WS": self.ws}
        began = time.perf_counter()
        result = subprocess.run(
            ["node", str(check), self.url, str(folder), file, *args, str(shots)],
            capture_output=True,
            timeout=400,
            env=env,
            cwd=CODE_SERVER,
        )
        try:
            seen = json.loads(result.stdout.decode())
        except json.JSONDecodeError:
            pytest.fail(
                f"the browser script printed no result: {result.stdout[-500:]!r} {result.stderr.decode()[-2000:]}"
            )
        seen["shots"] = str(shots)
        seen["seconds"] = round(time.perf_counter() - began, 1)
        seen["text"] = (folder / file).read_text()  # saved by the script, if it edits
        print(f"{check.name}: {seen['seconds']} s; steps at {seen.get('timings')} ms")
        return seen

    def stop(self) -> None:
        if self.browser.stdin is not None:
            self.browser.stdin.close()
        for process in (self.browser, self.process):
            try:
                process.wait(timeout=20 if process is self.browser else 0)
            except subprocess.TimeoutExpired:
                pass
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=20)
        shutil.rmtree(self.root, ignore_errors=True)


CODE_SERVER_MJS = Path(__file__).with_name("code_server.mjs")
_shared: list[CodeServer] = []


def shared_code_server() -> Iterator[CodeServer]:
    """The body of a session fixture: the one :class:`CodeServer` of the run, started on first
    use (by this module's tests or test_review_editors.py's), stopped at the end."""
    if not _shared:
        _shared.append(CodeServer())
        print(f"code-server and Chromium started in {_shared[0].started_in:.1f} s")
    yield _shared[0]
    while _shared:
        _shared.pop().stop()


@pytest.fixture(scope="session")
def code_server() -> Iterator[CodeServer]:
    yield from shared_code_server()


def caret_in_the_first_the() -> list[str]:
    """LINE and COLUMN of a place inside the ambiguous boundary ``"the"`` of the fixture."""
    text = FIXTURE.read_text()
    at = text.index('"the"') + 2
    before = text[:at]
    return [str(before.count("\n") + 1), str(len(before) - before.rfind("\n"))]


def run_vscode(
    code_server: CodeServer,
    tmp_path: Path,
    server_path: str,
    wait_ms: int = 90000,
    fixture: Path = FIXTURE,
    check: Path = CHECK,
    args: list[str] | None = None,
) -> dict:
    """Drives VS Code with ``check`` on a folder of its own holding ``fixture``, whose
    settings name ``server_path`` as the server (empty: the server bundled in the .vsix)."""
    folder = code_server.folder(fixture, {"sourcecheck.server.path": server_path})
    args = caret_in_the_first_the() if args is None else args
    return code_server.drive(check, folder, fixture.name, args, tmp_path / "shots", wait_ms)


def assert_works(seen: dict) -> None:
    assert seen["error"] is None, f"{seen['error']} (screenshots in {seen['shots']})"
    assert (
        "occurs twice on line 2 of `article`" in seen["problems"]
        or "occurs twice on line 2 of article" in seen["problems"]
    )
    assert "boundary-ambiguous" in seen["problems"]
    assert "claim does not resolve" in seen["hover"] and "The the the end." in seen["hover"]
    assert any('Extend start to "the the"' in title for title in seen["actions"]), seen["actions"]
    assert any('Extend start to "the end"' in title for title in seen["actions"]), seen["actions"]
    assert "boundary-ambiguous" not in seen["fixedProblems"]
    assert '"the the"' in seen["text"]


@pytest.mark.editor
def test_vscode_shows_problems_hover_and_applies_the_quick_fix(code_server, tmp_path):
    seen = run_vscode(code_server, tmp_path, str(BIN / "sourcecheck-ls"))
    assert_works(seen)
    keep = os.environ.get("SOURCECHECK_SCREENSHOTS")
    if keep:
        shutil.copytree(seen["shots"], keep, dirs_exist_ok=True)


@pytest.mark.editor
def test_the_vscode_check_fails_when_the_server_is_broken(code_server, tmp_path):
    fake = tmp_path / "broken-ls"
    fake.write_text("#!/bin/sh\nexit 3\n")
    fake.chmod(0o755)
    seen = run_vscode(code_server, tmp_path, str(fake), wait_ms=20000)
    with pytest.raises(AssertionError):
        assert_works(seen)
    assert "the server did not start: " in seen["error"], seen["error"]  # said, not waited out


ARTICLE = ROOT / "fixtures" / "orbit-article.sourcecheck.json"
VIEW_CHECK = Path(__file__).with_name("vscode_view_check.mjs")


@pytest.mark.editor
def test_a_document_view_opens_from_the_picker_and_a_selection_in_it_is_cited(code_server, tmp_path, monkeypatch):
    """The writer's loop in real VS Code: SourceCheck: Open Document View, pick a document,
    select a span of its text, choose "Cite … as a source that supports …"; the session
    file gets a source that resolves to exactly that span."""
    selected = "cold start p50 drops from 820ms to 517ms"
    text = ARTICLE.read_text(encoding="utf-8")
    at = text.index('"str": "cuts"') + len('"str": "')
    before = text[:at]
    monkeypatch.setenv("SOURCECHECK_SUGGEST_AT", f"{before.count(chr(10)) + 1}:{len(before) - before.rfind(chr(10))}")
    seen = run_vscode(
        code_server,
        tmp_path,
        str(BIN / "sourcecheck-ls"),
        fixture=ARTICLE,
        check=VIEW_CHECK,
        args=["release-notes", "3", "14", str(len(selected))],
    )
    assert seen["error"] is None, f"{seen['error']} (screenshots in {seen['shots']})"
    shown = seen["view"].replace("\xa0", " ")  # as the editor renders it
    assert "Orbit 2.4.0 release notes\nPerformance: cold start p50 drops from 820ms to 517ms" in shown, shown
    assert any("as a source that supports" in title for title in seen["actions"]), seen["actions"]
    assert any("cuts" in label for label in seen["suggestions"]), seen["suggestions"]  # completion works there too
    from sourcecheck.core.analysis import Analysis

    analysis = Analysis(seen["text"])
    cited = [ref.text for ref in analysis.session.refs if ref.is_source and ref.doc_path == "release-notes"]
    assert selected in cited, cited
    assert analysis.exit_code == Analysis(ARTICLE.read_text()).exit_code


@pytest.mark.editor
def test_the_vsix_alone_gives_diagnostics_hover_and_the_fix(code_server, tmp_path):
    """No sourcecheck installed anywhere but the .vsix: the extension runs the server it
    carries (bundled/libs) with the python3 on the PATH code-server runs with, which has no
    sourcecheck of its own."""
    probe = subprocess.run(["python3", "-c", "import sourcecheck"], env=code_server.env, capture_output=True)
    assert probe.returncode != 0, "the python3 on PATH has sourcecheck: the test would prove nothing"
    seen = run_vscode(code_server, tmp_path, "")
    assert_works(seen)


@pytest.mark.editor
def test_in_a_workspace_not_trusted_its_settings_cannot_choose_what_runs(tmp_path):
    """Workspace trust on, and the folder never trusted (Restricted Mode). Its
    .vscode/settings.json names a server and a Python that would leave a mark if they were
    run; the extension runs the server the .vsix carries, with the python3 on PATH, as the
    user's settings (none) say, and the session is checked as in any workspace. A package named
    `sourcecheck` in the folder is not imported: the server runs with `python -P` from the temp
    folder, not the workspace."""
    marks = tmp_path / "ran.txt"
    planted = {}
    for name in ("server.path", "interpreter"):
        script = tmp_path / f"planted-{name}"
        script.write_text(f'#!/bin/sh\necho "{name} $*" >> "{marks}"\nexit 3\n')
        script.chmod(0o755)
        planted[f"sourcecheck.{name}"] = str(script)
    trust = {
        "security.workspace.trust.enabled": True,
        "security.workspace.trust.startupPrompt": "never",
        "security.workspace.trust.banner": "always",
    }
    untrusted = CodeServer(user_settings=trust)
    try:
        folder = untrusted.folder(FIXTURE, planted)
        # and a package that would shadow the real one were the folder on the server's sys.path
        package = folder / "sourcecheck" / "lsp"
        package.mkdir(parents=True)
        (folder / "sourcecheck" / "__init__.py").write_text(f"open({str(marks)!r}, 'a').write('shadowed\\n')\n")
        (package / "__init__.py").write_text("")
        (package / "__main__.py").write_text("raise SystemExit(3)\n")
        seen = untrusted.drive(CHECK, folder, FIXTURE.name, caret_in_the_first_the(), tmp_path / "shots", 90000)
    finally:
        untrusted.stop()
    assert seen["restricted"] is True, "the workspace was trusted: the test would prove nothing"
    assert not marks.exists(), marks.read_text()
    assert_works(seen)


ARTICLE_CHECK = Path(__file__).with_name("vscode_article_check.mjs")


@pytest.mark.editor
def test_an_article_shows_its_claims_verdicts_and_its_session_follows_an_edit(code_server, tmp_path):
    """The article as the surface, in real VS Code: article.md of a folder with two sessions
    citing it shows its claims' verdicts (inlay hints) and a refuted claim (information), the
    Problems panel the broken claim of the session that is not open;
    typing into a claimed sentence is a warning on the spot, and its quick fix makes the
    session cite the edited sentence."""
    from tests.e2e.test_workspace import folder_of_sessions

    folder = code_server.folder(FIXTURE, {"sourcecheck.server.path": str(BIN / "sourcecheck-ls")})
    folder_of_sessions(folder)
    line, column = 1, len("Orbit starts in 40 ms. It never drops a ") + 1
    seen = code_server.drive(
        ARTICLE_CHECK,
        folder,
        "article.md",
        [f"{line}:{column}", "single ", "Accept this text in `a.sourcecheck.json`", "a.sourcecheck.json"],
        tmp_path / "shots",
        90000,
    )
    assert seen["error"] is None, f"{seen['error']} (screenshots in {tmp_path / 'shots'})"
    shown = seen["lines"].replace("\xa0", " ")
    assert "supported · 1 source" in shown and "refuted · 1 source" in shown, shown
    assert seen["infos"] >= 1 and seen["warnings"] >= 1
    # b.sourcecheck.json is not open: its problem is listed all the same, once
    assert seen["problems"].count("boundary-not-found") == 1, seen["problems"]
    from sourcecheck.core.analysis import Analysis

    cited = [ref.text for ref in Analysis(seen["session"]).session.refs]
    assert "It never drops a single frame." in cited, cited
    keep = os.environ.get("SOURCECHECK_SCREENSHOTS")
    if keep:
        shutil.copytree(tmp_path / "shots", keep, dirs_exist_ok=True)
