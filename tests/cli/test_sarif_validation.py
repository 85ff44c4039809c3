"""``--format sarif`` as real validators see it: the official SARIF 2.1.0 schema (jsonschema's
Draft4Validator, tests/cli/data/README.md says where the schema comes from), every URI an RFC 3986
URI reference, and Microsoft's SARIF Multitool from npm, with GitHub code scanning's rules
(``--rule-kind Gh``) and its default ones (marked ``editor``: it needs npm, and is slow)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import unquote, urlsplit

import pytest
from jsonschema import Draft4Validator, FormatChecker

from sourcecheck.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures").glob("*.json")) + sorted((ROOT / "fixtures" / "broken").glob("*.json"))
SCHEMA_FILE = Path(__file__).with_name("data") / "sarif-schema-2.1.0.json"
SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
ODD_NAME = "sub dir/a b%c é#1.json"  # a space, %, non-ASCII and #
DOCS = "https://git.example.org/team/sourcecheck/blob/main/docs/rules.md"  # test input only

# --- RFC 3986, appendix A: URI-reference = URI / relative-ref

_PCT = r"%[0-9A-Fa-f]{2}"
_UNRESERVED_SUB = r"A-Za-z0-9\-._~!$&'()*+,;="
_PCHAR = rf"(?:[{_UNRESERVED_SUB}:@]|{_PCT})"
_SEGMENT, _SEGMENT_NZ = rf"{_PCHAR}*", rf"{_PCHAR}+"
_SEGMENT_NZ_NC = rf"(?:[{_UNRESERVED_SUB}@]|{_PCT})+"
_AUTHORITY = (
    rf"(?:(?:[{_UNRESERVED_SUB}:]|{_PCT})*@)?"
    rf"(?:\[[0-9A-Fa-f:.]+\]|\[v[0-9A-Fa-f]+\.[{_UNRESERVED_SUB}:]+\]|(?:[{_UNRESERVED_SUB}]|{_PCT})*)"
    r"(?::[0-9]*)?"
)
_TAIL = rf"(?:\?(?:{_PCHAR}|[/?])*)?(?:#(?:{_PCHAR}|[/?])*)?"
_ABEMPTY = rf"(?:/{_SEGMENT})*"
_ABSOLUTE = rf"/(?:{_SEGMENT_NZ}{_ABEMPTY})?"
ABSOLUTE_URI = re.compile(
    rf"[A-Za-z][A-Za-z0-9+.\-]*:(?://{_AUTHORITY}{_ABEMPTY}|{_ABSOLUTE}|{_SEGMENT_NZ}{_ABEMPTY}|){_TAIL}"
)
RELATIVE_REF = re.compile(rf"(?://{_AUTHORITY}{_ABEMPTY}|{_ABSOLUTE}|{_SEGMENT_NZ_NC}{_ABEMPTY}|){_TAIL}")


def is_uri(text: object) -> bool:
    return isinstance(text, str) and ABSOLUTE_URI.fullmatch(text) is not None


def is_uri_reference(text: object) -> bool:
    return isinstance(text, str) and (is_uri(text) or RELATIVE_REF.fullmatch(text) is not None)


def test_the_uri_grammar_takes_uris_and_refuses_what_is_not_one():
    for good in ("file:///tmp/a%20b.json", "https://h.example/x#y", "a/b%25c.json", "stdin", "../x", "%C3%A9"):
        assert is_uri_reference(good), good
    for bad in ("a b.json", "<stdin>", "50%.json", "a#b#c", "é.json", "C:\\x.json", "x\\y"):
        assert not is_uri_reference(bad), bad
    assert not is_uri("relative/path") and is_uri("file:///x")


def format_checker() -> FormatChecker:
    """jsonschema's format checks, and RFC 3986 ones for ``uri`` and ``uri-reference`` where it
    has none (it checks those only with an optional package, not installed here)."""
    checker = FormatChecker()
    if "uri" not in checker.checkers:
        checker.checks("uri")(is_uri)
    if "uri-reference" not in checker.checkers:
        checker.checks("uri-reference")(is_uri_reference)
    return checker


SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
VALIDATOR = Draft4Validator(SCHEMA, format_checker=format_checker())


def schema_errors(log: dict[str, Any]) -> list[str]:
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in sorted(VALIDATOR.iter_errors(log), key=lambda e: list(map(str, e.absolute_path)))
    ]


def uris(value: Any, at: str = "") -> Iterator[tuple[str, str, Any]]:
    """Every (where, key, value) of a key naming a URI in a SARIF log."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("uri", "helpUri", "informationUri", "$schema", "downloadUri"):
                yield f"{at}/{key}", key, item
            yield from uris(item, f"{at}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from uris(item, f"{at}/{index}")


def uri_problems(log: dict[str, Any]) -> list[str]:
    problems = []
    for where, key, value in uris(log):
        if not isinstance(value, str) or any(c.isspace() for c in value) or not is_uri_reference(value):
            problems.append(f"{where}: {value!r} is not an RFC 3986 URI reference")
        elif key != "uri" and not is_uri(value):
            problems.append(f"{where}: {value!r} is not an absolute URI")
    return problems


def assert_valid(log: dict[str, Any]) -> None:
    assert schema_errors(log) == []
    assert uri_problems(log) == []


# --- the logs: sourcecheck --format sarif on every fixture and on the names that need encoding


def sourcecheck_sarif(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> dict[str, Any]:
    """``sourcecheck --format sarif ARGS`` in ``cwd``, with SOURCECHECK_DOCS_URL only from ``env``."""
    out = io.StringIO()
    with contextlib.chdir(cwd), mock.patch.dict(os.environ, env or {}), contextlib.redirect_stdout(out):
        if "SOURCECHECK_DOCS_URL" not in (env or {}):
            os.environ.pop("SOURCECHECK_DOCS_URL", None)
        main(["--jobs", "1", "--format", "sarif", *args])
    return dict(json.loads(out.getvalue()))


def odd_file(folder: Path) -> Path:
    path = folder / ODD_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "fixtures" / "broken" / "boundary-ambiguous.sourcecheck.json", path)
    return path


def odd_name_log(folder: Path) -> dict[str, Any]:
    odd_file(folder)
    return sourcecheck_sarif(ODD_NAME, cwd=folder)


def stdin_log(folder: Path) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "sourcecheck", "--format", "sarif", "-"],
        input=(ROOT / "fixtures" / "orbit-article.sourcecheck.json").read_bytes(),
        capture_output=True,
        cwd=folder,
        env={key: value for key, value in os.environ.items() if key != "SOURCECHECK_DOCS_URL"},
        check=False,
    )
    return dict(json.loads(result.stdout))


def unreadable_log(folder: Path) -> dict[str, Any]:
    (folder / "latin1.json").write_bytes(b'{"documents": "\xe9"}')
    return sourcecheck_sarif(
        "missing.json", "latin1.json", "a missing file.json", str(folder / "missing #2.json"), cwd=folder
    )


CASES: dict[str, Callable[[Path], dict[str, Any]]] = {
    **{
        str(path.relative_to(ROOT)): (lambda _, path=path: sourcecheck_sarif(str(path.relative_to(ROOT))))
        for path in FIXTURES
    },
    "every fixture at once": lambda _: sourcecheck_sarif(*(str(path.relative_to(ROOT)) for path in FIXTURES)),
    "a relative path with a space, %, non-ASCII and #": odd_name_log,
    "absolute paths": lambda tmp: sourcecheck_sarif(str(odd_file(tmp)), str(FIXTURES[0]), cwd=tmp),
    "claims failing --fail-on": lambda _: sourcecheck_sarif(
        *(str(path.relative_to(ROOT)) for path in FIXTURES), "--fail-on", "unresolved,unverified,contested,weak"
    ),
    "standard input": stdin_log,
    "unreadable files": unreadable_log,
    "rules linked to the docs (SOURCECHECK_DOCS_URL)": lambda _: sourcecheck_sarif(
        str(FIXTURES[0].relative_to(ROOT)), env={"SOURCECHECK_DOCS_URL": DOCS}
    ),
}


def test_the_schema_is_the_official_one_unchanged():
    assert hashlib.sha256(SCHEMA_FILE.read_bytes()).hexdigest() == SCHEMA_SHA256
    assert SCHEMA["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    Draft4Validator.check_schema(SCHEMA)


def test_the_schema_and_the_uri_check_catch_what_they_should():
    """The check is not vacuous: the old output (names as given) fails it, and so does a
    wrong level."""
    log = sourcecheck_sarif("fixtures/broken/boundary-ambiguous.sourcecheck.json")
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    location["uri"] = "fixtures/a b.json"
    log["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = "rules.md#invalid-json"
    assert any("a b.json" in problem for problem in uri_problems(log))
    assert any("a b.json" in error for error in schema_errors(log))  # format "uri-reference"
    assert any("helpUri" in error for error in schema_errors(log))  # format "uri": absolute
    log["runs"][0]["results"][0]["level"] = "fatal"
    assert any("fatal" in error for error in schema_errors(log))


@pytest.mark.parametrize("case", CASES)
def test_the_sarif_log_is_valid_against_the_official_schema(case, tmp_path):
    log = CASES[case](tmp_path)
    assert log["runs"][0]["results"] or log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    linked = ["helpUri" in rule for rule in log["runs"][0]["tool"]["driver"]["rules"]]
    assert all(linked) if "SOURCECHECK_DOCS_URL" in case else not any(linked)
    assert_valid(log)


# --- the URI forms


def artifact_uris(log: dict[str, Any]) -> list[dict[str, Any]]:
    (run,) = log["runs"]
    locations = [loc for result in run["results"] for loc in result["locations"]]
    locations += [loc for n in run["invocations"][0]["toolExecutionNotifications"] for loc in n["locations"]]
    return [loc["physicalLocation"]["artifactLocation"] for loc in locations]


def test_a_relative_path_is_a_percent_encoded_reference_on_the_source_root(tmp_path):
    log = odd_name_log(tmp_path)
    expected = {"uri": "sub%20dir/a%20b%25c%20%C3%A9%231.json", "uriBaseId": "%SRCROOT%"}
    assert artifact_uris(log) == [expected, expected]  # the finding and the verdicts
    assert unquote(expected["uri"]) == ODD_NAME
    root = log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]
    assert root["uri"] == tmp_path.as_uri() + "/"


def test_an_absolute_path_is_a_file_uri(tmp_path):
    path = odd_file(tmp_path)
    log = sourcecheck_sarif(str(path), cwd=tmp_path)
    (uri,) = {location["uri"] for location in artifact_uris(log)}
    assert "uriBaseId" not in artifact_uris(log)[0]
    assert (
        uri == path.as_uri() and uri.startswith("file:///") and uri.endswith("/sub%20dir/a%20b%25c%20%C3%A9%231.json")
    )
    assert unquote(urlsplit(uri).path) == str(path)


def test_a_path_with_dots_or_a_colon_stays_a_relative_reference(tmp_path):
    (tmp_path / "a:b.json").write_text(json.dumps({"documents": [], "annotations": [], "x": 1}))
    log = sourcecheck_sarif("./a:b.json", "../missing?.json", cwd=tmp_path)
    assert [location["uri"] for location in artifact_uris(log)] == ["a%3Ab.json", "../missing%3F.json"]
    assert_valid(log)


def test_standard_input_is_named_stdin(tmp_path):
    log = stdin_log(tmp_path)
    assert set(map(json.dumps, artifact_uris(log))) == {
        json.dumps({"uri": "stdin", "description": {"text": "standard input"}})
    }
    (run,) = log["runs"]
    assert run["results"] == [] and run["invocations"][0]["toolExecutionNotifications"][0]["message"][
        "text"
    ].startswith("4 claims")


def test_unreadable_files_keep_their_message_and_get_a_valid_uri(tmp_path):
    log = unreadable_log(tmp_path)
    results = log["runs"][0]["results"]
    assert [r["message"]["text"].split(":")[0] for r in results] == [
        "missing.json",
        "latin1.json",
        "a missing file.json",
        str(tmp_path / "missing #2.json"),
    ]
    assert [loc["uri"] for loc in artifact_uris(log)] == [
        "missing.json",
        "latin1.json",
        "a%20missing%20file.json",
        (tmp_path / "missing #2.json").as_uri(),
    ]
    assert {r["ruleId"] for r in results} == {"unreadable"}


# --- Microsoft's SARIF Multitool (npm)

MULTITOOL = "@microsoft/sarif-multitool@5.7.0"
NPM_CACHE = ROOT / ".cache" / "npm"


def unavailable(reason: str) -> None:
    """Skip, saying why; under CI (CI set) fail instead: the Multitool must run there."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}, and CI is set: the SARIF Multitool must run there")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def multitool(tmp_path_factory) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``npx @microsoft/sarif-multitool ARGS`` (installed by npx into .cache/npm on first use)."""
    npx = shutil.which("npx")
    if npx is None:
        unavailable("npx is not on PATH, and the SARIF Multitool comes from npm")
    assert npx is not None
    scratch = tmp_path_factory.mktemp("multitool")
    env = {
        **os.environ,
        "npm_config_cache": str(NPM_CACHE),  # never under $HOME
        "npm_config_yes": "true",
        "npm_config_update_notifier": "false",
        "npm_config_fund": "false",
        "npm_config_audit": "false",
        "DOTNET_CLI_TELEMETRY_OPTOUT": "1",
        "DOTNET_BUNDLE_EXTRACT_BASE_DIR": str(scratch / "dotnet"),
    }

    def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        # npx hands its arguments to a shell: keep them to plain words and paths
        assert all(re.fullmatch(r"[\w./@:=+-]+", arg) for arg in args), args
        return subprocess.run(
            [npx, "--yes", MULTITOOL, *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=scratch,
            stdin=subprocess.DEVNULL,
            timeout=timeout,
            check=False,
        )

    try:
        version = run("--version", timeout=900)  # the first run downloads it (about 45 MB)
    except subprocess.TimeoutExpired:
        unavailable(f"npx {MULTITOOL} did not start within 15 minutes")
    if version.returncode != 0 or "SARIF Multitool" not in version.stdout + version.stderr:
        tail = (version.stderr or version.stdout).strip().splitlines()[-3:]
        unavailable(f"npx {MULTITOOL} cannot run here (exit {version.returncode}: {' / '.join(tail)})")
    return run


def multitool_errors(
    multitool: Callable[..., subprocess.CompletedProcess[str]], files: list[Path], out: Path, *options: str
) -> dict[str, list[str]]:
    """{file name: the Multitool's errors about it} after ``validate``, read from its own SARIF
    log (it exits 0 whatever it finds); every file must have been scanned."""
    result = multitool("validate", *map(str, files), *options, "--output", str(out), "--log", "ForceOverwrite")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Done. {len(files)} files scanned." in result.stdout, result.stdout
    (run,) = json.loads(out.read_text(encoding="utf-8-sig"))["runs"]
    failures = [n for n in run["invocations"][0].get("toolExecutionNotifications", []) if n.get("level") == "error"]
    assert failures == [], failures
    found: dict[str, list[str]] = {file.name: [] for file in files}
    for item in run["results"]:
        if item.get("level", "warning") == "error":
            where = unquote(urlsplit(item["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]).path)
            found[Path(where).name].append(f"{item['ruleId']}: {item['message'].get('text', item['message'])}")
    return found


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> list[Path]:
    """Every case's SARIF log as a file, and a control that both rule kinds must reject: the
    old output (names as given, rules without fullDescription and help)."""
    folder = tmp_path_factory.mktemp("sarif")
    files = []
    for index, make in enumerate(CASES.values()):
        work = folder / f"work{index}"
        work.mkdir()
        files.append(folder / f"case{index:02}.sarif")
        files[-1].write_text(json.dumps(make(work), indent=2), encoding="utf-8")
    control = json.loads(files[list(CASES).index("fixtures/broken/boundary-ambiguous.sourcecheck.json")].read_text())
    for rule in control["runs"][0]["tool"]["driver"]["rules"]:
        del rule["fullDescription"], rule["help"]
    control["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] = {"uri": "a b.json"}
    files.append(folder / "control.sarif")
    files[-1].write_text(json.dumps(control, indent=2), encoding="utf-8")
    return files


@pytest.mark.editor
@pytest.mark.parametrize("rule_kind", ["Gh", None], ids=["github-rules", "default-rules"])
def test_the_sarif_multitool_finds_no_error(multitool, logs, tmp_path, rule_kind):
    options = ("--rule-kind", rule_kind) if rule_kind else ()
    errors = multitool_errors(multitool, logs, tmp_path / "validation.sarif", *options)
    control = errors.pop("control.sarif")
    names = dict(zip((f"case{i:02}.sarif" for i in range(len(CASES))), CASES, strict=True))
    assert {names[name]: found for name, found in errors.items() if found} == {}
    expected = "GH2012" if rule_kind == "Gh" else "SARIF1002"  # no fullDescription / help; `a b.json`
    assert any(error.startswith(expected) for error in control), control
