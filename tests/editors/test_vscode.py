"""sourcecheck in real VS Code: code-server 4.99.4 with the built .vsix, driven in headless Chromium;
and the extension's own checks that need no VS Code (its manifest, its unit tests)."""

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


def run_vscode(
    tmp_path: Path,
    server_path: str,
    wait_ms: int = 90000,
    fixture: Path = FIXTURE,
    check: Path = CHECK,
    args: list[str] | None = None,
    path: str | None = None,
) -> dict:
    require(CODE_SERVER / "node_modules" / ".bin" / "code-server", "code-server")
    require(VSIX, "the .vsix")
    code_server = str(CODE_SERVER / "node_modules" / ".bin" / "code-server")
    config, data, extensions, shots = (
        tmp_path / "config.yaml",
        tmp_path / "data",
        tmp_path / "extensions",
        tmp_path / "shots",
    )
    workspace = tmp_path / "workspace"
    for folder in (data / "User", extensions, shots, workspace):
        folder.mkdir(parents=True)
    shutil.copy(fixture, workspace / fixture.name)
    port = free_port()
    config.write_text(f"bind-addr: 127.0.0.1:{port}\nauth: none\ncert: false\n")
    (data / "User" / "settings.json").write_text(
        json.dumps(
            {
                "sourcecheck.server.path": server_path,
                "security.workspace.trust.enabled": False,
                "workbench.startupEditor": "none",
                "workbench.tips.enabled": False,
                "telemetry.telemetryLevel": "off",
                "extensions.autoUpdate": False,
                "editor.hover.delay": 100,
            }
        )
    )
    common = [code_server, "--config", str(config), "--user-data-dir", str(data), "--extensions-dir", str(extensions)]
    # code-server's IPC and git sockets, and Chromium's: in a short folder of their own (a
    # socket's path has at most 107 bytes), removed afterwards.
    sockets = Path(tempfile.mkdtemp(prefix="sc-"))
    env = {
        **os.environ,
        "PATH": path if path is not None else f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "SOURCECHECK_WAIT_MS": str(wait_ms),
        "TMPDIR": str(sockets),
        "XDG_RUNTIME_DIR": str(sockets),
        "XDG_DATA_HOME": str(tmp_path / "xdg-data"),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg-config"),
        "XDG_CACHE_HOME": str(tmp_path / "xdg-cache"),
    }
    subprocess.run([*common, "--install-extension", str(VSIX)], check=True, capture_output=True, env=env, timeout=120)
    server = subprocess.Popen(
        [
            *common,
            "--auth",
            "none",
            "--bind-addr",
            f"127.0.0.1:{port}",
            "--disable-telemetry",
            "--disable-update-check",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if b"alive" in urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read():
                    break
            except OSError:
                time.sleep(0.3)
        if args is None:
            text = FIXTURE.read_text()
            at = text.index('"the"') + 2
            before = text[:at]
            args = [str(before.count("\n") + 1), str(len(before) - before.rfind("\n"))]
        node_path = str(CODE_SERVER / "node_modules")
        result = subprocess.run(
            [
                "node",
                str(check),
                f"http://127.0.0.1:{port}",
                str(workspace),
                fixture.name,
                *args,
                str(shots),
            ],
            capture_output=True,
            timeout=400,
            env={**env, "NODE_PATH": node_path},
            cwd=CODE_SERVER,
        )
        try:
            seen = json.loads(result.stdout.decode())
        except json.JSONDecodeError:
            pytest.fail(
                f"the browser script printed no result: {result.stdout[-500:]!r} {result.stderr.decode()[-2000:]}"
            )
        seen["shots"] = str(shots)
        seen["text"] = (workspace / fixture.name).read_text()  # saved by the script after the fix
        return seen
    finally:
        server.terminate()
        server.wait(timeout=20)
        shutil.rmtree(sockets, ignore_errors=True)


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
def test_vscode_shows_problems_hover_and_applies_the_quick_fix(tmp_path):
    seen = run_vscode(tmp_path, str(BIN / "sourcecheck-ls"))
    assert_works(seen)
    keep = os.environ.get("SOURCECHECK_SCREENSHOTS")
    if keep:
        shutil.copytree(seen["shots"], keep, dirs_exist_ok=True)


@pytest.mark.editor
def test_the_vscode_check_fails_when_the_server_is_broken(tmp_path):
    fake = tmp_path / "broken-ls"
    fake.write_text("#!/bin/sh\nexit 3\n")
    fake.chmod(0o755)
    seen = run_vscode(tmp_path, str(fake), wait_ms=20000)
    with pytest.raises(AssertionError):
        assert_works(seen)


ARTICLE = ROOT / "fixtures" / "orbit-article.sourcecheck.json"
VIEW_CHECK = Path(__file__).with_name("vscode_view_check.mjs")


@pytest.mark.editor
def test_a_document_view_opens_from_the_picker_and_a_selection_in_it_is_cited(tmp_path, monkeypatch):
    """The writer's loop in real VS Code: SourceCheck: Open Document View, pick a document,
    select a span of its text, choose "Cite … as a source that supports …"; the session
    file gets a source that resolves to exactly that span."""
    selected = "cold start p50 drops from 820ms to 517ms"
    text = ARTICLE.read_text(encoding="utf-8")
    at = text.index('"str": "cuts"') + len('"str": "')
    before = text[:at]
    monkeypatch.setenv("SOURCECHECK_SUGGEST_AT", f"{before.count(chr(10)) + 1}:{len(before) - before.rfind(chr(10))}")
    seen = run_vscode(
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
def test_the_vsix_alone_gives_diagnostics_hover_and_the_fix(tmp_path):
    """No sourcecheck installed anywhere but the .vsix: the extension runs the server it
    carries (bundled/libs) with the python3 on PATH, which has no sourcecheck of its own."""
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if Path(p).resolve() != BIN.resolve())
    probe = subprocess.run(
        ["python3", "-c", "import sourcecheck"], env={**os.environ, "PATH": path}, capture_output=True
    )
    assert probe.returncode != 0, "the python3 on PATH has sourcecheck: the test would prove nothing"
    seen = run_vscode(tmp_path, "", path=path)
    assert_works(seen)
