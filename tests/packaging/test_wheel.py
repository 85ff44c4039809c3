"""The package as a user gets it: an sdist and a wheel built from a clean copy of the
checkout, checked as PyPI checks them, the wheel installed into a fresh virtual environment
and its two commands run from there.

The clean copy is what ``git ls-files`` lists: tracked files, and new ones not ignored, so
that a module being added is built and checked before its commit. ``python -m build`` makes the sdist
from it and then the wheel from the unpacked sdist, which proves the sdist is enough to
build. Installing the wheel fetches pygls and lsprotocol from the package index; pip's cache
lives in the test's temporary folder, so nothing is written under ``$HOME``. About 10 to 20
seconds here, most of it creating the environments.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import threading
import zipfile
from pathlib import Path
from typing import Any

import pytest

from sourcecheck import __version__

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "server/sourcecheck/"
NAME = f"sourcecheck-{__version__}"


def run(args: list[str | Path], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Run a command; on failure, say what it printed."""
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=300, **kwargs)
    if done.returncode != 0:
        raise AssertionError(
            f"{' '.join(map(str, args))}: exit {done.returncode}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
        )
    return done


def git_files(*options: str) -> list[str]:
    """Files ``git ls-files`` lists that are present in the tree."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist, say): nothing to compare the dists with")
    listed = run(["git", "ls-files", "-z", *options], cwd=ROOT).stdout
    return sorted({name for name in listed.split("\0") if name and (ROOT / name).is_file()})


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of every command: pip's cache in the temporary folder, no venv or
    PYTHONPATH of the test run leaking into the fresh one."""
    environ = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    environ.update(
        PIP_CACHE_DIR=str(tmp_path_factory.mktemp("pip-cache")),
        PIP_NO_INPUT="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    return environ


@pytest.fixture(scope="module")
def files() -> list[str]:
    """A clean checkout with what is being added: tracked files and new ones not ignored."""
    return git_files("--cached", "--others", "--exclude-standard")


@pytest.fixture(scope="module")
def tracked() -> list[str]:
    """The tracked files alone (a scratch file at the top is no business of the sdist's)."""
    return git_files("--cached")


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory, files: list[str], env: dict[str, str]) -> dict[str, Path]:
    """The sdist and the wheel (built from the sdist) of a clean copy of the checkout."""
    src = tmp_path_factory.mktemp("checkout")
    for name in files:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--outdir", out, src], env=env)
    built = {"sdist": out / f"{NAME}.tar.gz", "wheel": out / f"{NAME}-py3-none-any.whl"}
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in built.values())
    return built


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory, dists: dict[str, Path], env: dict[str, str]) -> Path:
    """A fresh virtual environment with the wheel installed; its bin folder."""
    root = tmp_path_factory.mktemp("venv")
    run([sys.executable, "-m", "venv", root], env=env)
    bin_dir = root / ("Scripts" if os.name == "nt" else "bin")
    run([bin_dir / "python", "-m", "pip", "install", "-q", dists["wheel"]], env=env)
    return bin_dir


def test_sdist_holds_the_checkout_and_nothing_generated(
    dists: dict[str, Path], files: list[str], tracked: list[str]
) -> None:
    with tarfile.open(dists["sdist"]) as sdist:
        names = {m.name.removeprefix(f"{NAME}/") for m in sdist.getmembers() if m.isfile()}
    assert sorted(set(tracked) - names) == [], "tracked files missing from the sdist (MANIFEST.in)"
    extra = {n for n in names - set(files) if not n.startswith("server/sourcecheck.egg-info/")}
    assert sorted(extra) == ["PKG-INFO", "setup.cfg"]


def test_wheel_holds_the_whole_package_and_nothing_else(dists: dict[str, Path], files: list[str]) -> None:
    with zipfile.ZipFile(dists["wheel"]) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(f"{NAME}.dist-info/METADATA").decode()
        entry_points = wheel.read(f"{NAME}.dist-info/entry_points.txt").decode()
    package = {"sourcecheck/" + n.removeprefix(PACKAGE) for n in files if n.startswith(PACKAGE)}
    info = {n for n in names if n.startswith(f"{NAME}.dist-info/")}
    data = {n for n in names if n.startswith(f"{NAME}.data/")}
    assert sorted(data) == [f"{NAME}.data/data/share/doc/sourcecheck/{n}" for n in ("rules.md", "sourcecheck-spec.md")]
    assert sorted(names - info - data) == sorted(package)
    assert "sourcecheck/py.typed" in names  # PEP 561: type checkers read the API's types
    assert sorted(info) == sorted(
        f"{NAME}.dist-info/{n}"
        for n in ["METADATA", "WHEEL", "RECORD", "entry_points.txt", "top_level.txt", "licenses/LICENSE"]
    )
    for line in [
        "Name: sourcecheck",
        f"Version: {__version__}",
        "License-Expression: MIT",
        "Requires-Python: >=3.11",
        "Description-Content-Type: text/markdown",
    ]:
        assert line in metadata.splitlines()
    assert any(line.startswith("Requires-Dist: pygls") for line in metadata.splitlines())
    assert "sourcecheck = sourcecheck.cli.main:console" in entry_points
    assert "sourcecheck-ls = sourcecheck.lsp.main:main" in entry_points


def test_every_package_folder_is_a_package(files: list[str]) -> None:
    """A folder of modules without ``__init__.py`` would reach the wheel only as data files."""
    folders = {str(Path(n).parent) for n in files if n.startswith(PACKAGE) and n.endswith(".py")}
    assert sorted(f for f in folders if f"{f}/__init__.py" not in files) == []


def test_twine_check_strict(dists: dict[str, Path], env: dict[str, str]) -> None:
    done = run([sys.executable, "-m", "twine", "check", "--strict", dists["sdist"], dists["wheel"]], env=env)
    assert done.stdout.count("PASSED") == 2, done.stdout


def test_installed_cli_checks_the_example(venv: Path, env: dict[str, str], tmp_path: Path) -> None:
    where = run([venv / "python", "-c", "import sourcecheck; print(sourcecheck.__file__)"], env=env, cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(venv.parent), where.stdout
    done = run([venv / "sourcecheck", ROOT / "fixtures/orbit-article.sourcecheck.json"], env=env, cwd=tmp_path)
    assert "resolved" in done.stdout
    broken = subprocess.run(
        [venv / "sourcecheck", "--json", ROOT / "fixtures/broken/boundary-ambiguous.sourcecheck.json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert broken.returncode == 1, broken.stderr
    assert "boundary-ambiguous" in {f["code"] for f in json.loads(broken.stdout)["findings"]}
    # --help lists every command and names the installed rules by a path that exists
    helped = run([venv / "sourcecheck", "--help"], env=env, cwd=tmp_path).stdout
    assert all(f"sourcecheck {c} " in helped for c in ("new", "add", "ref", "show", "sync", "report"))
    rules = Path(helped.rsplit("the --json form: ", 1)[1].strip())
    assert rules.is_relative_to(venv.parent) and rules.read_text(encoding="utf-8") == (
        ROOT / "docs/rules.md"
    ).read_text(encoding="utf-8")


def test_installed_api_checks_the_example(venv: Path, env: dict[str, str], tmp_path: Path) -> None:
    script = (
        "import json, pathlib, sys, sourcecheck\n"
        "report = sourcecheck.check(pathlib.Path(sys.argv[1]))\n"
        "print(json.dumps([report.exit_code, [f.code for f in report.findings], report.to_json()]))\n"
    )
    session = ROOT / "fixtures/broken/boundary-ambiguous.sourcecheck.json"
    done = run([venv / "python", "-c", script, session], env=env, cwd=tmp_path)
    exit_code, codes, value = json.loads(done.stdout)
    assert (exit_code, codes) == (1, ["boundary-ambiguous"])
    printed = subprocess.run(
        [venv / "sourcecheck", "--json", session], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
    )
    assert json.loads(printed.stdout) == value


def test_installed_server_version(venv: Path, env: dict[str, str], tmp_path: Path) -> None:
    done = run([venv / "sourcecheck-ls", "--version"], env=env, cwd=tmp_path)
    assert done.stdout.strip() == f"sourcecheck-ls {__version__}"


class Wire:
    """The client end of LSP over stdio, in raw JSON-RPC."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdin is not None and proc.stdout is not None
        self.proc, self.stdin, self.stdout = proc, proc.stdin, proc.stdout

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.stdin.flush()

    def receive(self) -> dict[str, Any]:
        length = None
        while (line := self.stdout.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("ascii").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        assert length is not None, "the server closed stdout"
        message: dict[str, Any] = json.loads(self.stdout.read(length))
        return message

    def until(self, wanted: Any) -> dict[str, Any]:
        """Messages until one ``wanted`` accepts; the server's own requests get a null result."""
        while True:
            message = self.receive()
            if wanted(message):
                return message
            if "method" in message and "id" in message:
                self.send({"id": message["id"], "result": None})


def test_installed_server_speaks_lsp_over_stdio(venv: Path, env: dict[str, str], tmp_path: Path) -> None:
    session = ROOT / "fixtures/broken/boundary-ambiguous.sourcecheck.json"
    with (tmp_path / "stderr").open("wb") as stderr:
        proc = subprocess.Popen(
            [venv / "sourcecheck-ls"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env
        )
    watchdog = threading.Timer(30, proc.kill)  # a server that hangs fails the test, not the run
    watchdog.start()
    try:
        wire = Wire(proc)
        wire.send({"id": 1, "method": "initialize", "params": {"processId": os.getpid(), "capabilities": {}}})
        init = wire.until(lambda m: m.get("id") == 1 and "method" not in m)
        assert init["result"]["serverInfo"] == {"name": "sourcecheck", "version": __version__}
        wire.send({"method": "initialized", "params": {}})
        document = {"uri": session.as_uri(), "languageId": "json", "version": 1, "text": session.read_text()}
        wire.send({"method": "textDocument/didOpen", "params": {"textDocument": document}})
        pushed = wire.until(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        assert "boundary-ambiguous" in {d.get("code") for d in pushed["params"]["diagnostics"]}
        wire.send({"id": 2, "method": "shutdown"})
        assert wire.until(lambda m: m.get("id") == 2 and "method" not in m)["result"] is None
        wire.send({"method": "exit"})
        assert proc.wait(timeout=20) == 0, (tmp_path / "stderr").read_text()
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()
