"""The README's commands run as pasted: every block marked ``<!-- runnable -->`` is run, the
shell blocks in order in one shell started at the root of the checkout (as a reader pastes them
into one terminal), the Python blocks there too. A command's exit code is 0 unless its comment
says otherwise (``# exit 1: ...``). Nothing is written outside the system temp folder: the
blocks write in a folder of ``mktemp -d``, which points into this test's own."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCK = re.compile(r"<!-- runnable -->\n```(sh|python)\n(.*?)```", re.S)
EXIT = re.compile(r"#\s*exit (\d+)\b")


def blocks(kind: str) -> list[str]:
    return [body for found, body in BLOCK.findall(README.read_text(encoding="utf-8")) if found == kind]


def commands(block: str) -> list[str]:
    """The block's commands, each on one line (a line ending in ``\\`` goes on)."""
    found: list[str] = []
    pending = ""
    for line in block.splitlines():
        if pending:
            line = pending + " " + line.strip()
            pending = ""
        if line.endswith("\\"):
            pending = line[:-1].rstrip()
            continue
        if line.strip() and not line.lstrip().startswith("#"):
            found.append(line)
    assert not pending, "a block ends with a line that goes on"
    return found


def script(shell_blocks: list[str]) -> str:
    """One bash script: each command run in this shell (a `cd` stays), its exit code checked."""
    out = ["set -u"]
    for block in shell_blocks:
        for command in commands(block):
            wanted = EXIT.search(command)
            expected = int(wanted.group(1)) if wanted else 0
            shown = command.replace("'", "'\\''")
            out.append(f"{{ {command}\n}}; rc=$?")
            said = f"echo 'README: `{shown}` exited '$rc', not {expected}' >&2"
            out.append(f"if [ $rc -ne {expected} ]; then {said}; exit 99; fi")
    return "\n".join(out) + "\n"


def environment(tmp_path: Path) -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)  # (once for each Python block)
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "TMPDIR": str(tmp_path),
        "HOME": str(home),
        "NO_COLOR": "1",
    }


def test_the_readme_marks_its_walk_through_runnable():
    assert len(blocks("sh")) >= 4 and len(blocks("python")) >= 1
    assert any("sourcecheck add" in block for block in blocks("sh"))
    assert any("sourcecheck sync" in block for block in blocks("sh"))


def test_the_readmes_shell_blocks_run_as_pasted(tmp_path):
    result = subprocess.run(
        ["bash", "-c", script(blocks("sh"))],
        cwd=ROOT,
        env=environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:] + result.stdout[-3000:]
    assert "Traceback" not in result.stderr + result.stdout
    # what the walk-through says it does, it does
    assert "added annotation 2" in result.stdout
    assert "2 claims: 1 supported, 1 contested" in result.stdout
    assert 'claim "the new scheduler \\"never drops a frame\\"" is contested' in result.stdout
    assert 'was "frames are never dropped under nominal load"' in result.stdout
    # the output the README shows is the output the commands give
    shown = re.findall(r"^ *orbit\.sourcecheck\.json:.*$", README.read_text(encoding="utf-8"), re.M)
    assert shown and all(line in result.stdout.splitlines() for line in shown), shown


def test_the_readmes_python_blocks_run(tmp_path):
    for block in blocks("python"):
        result = subprocess.run(
            [sys.executable, "-c", block],
            cwd=ROOT,
            env=environment(tmp_path),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.parametrize("line", ["sourcecheck x.json   # exit 1: a ref fails", "sourcecheck x.json"])
def test_a_commands_expected_exit_is_read_from_its_comment(line):
    assert ("exit 1" in script([line + "\n"])) == ("# exit 1" in line)


def ci_command() -> str:
    """The command of the README's GitHub Actions job that checks the sessions."""
    (found,) = re.findall(r"^ +- run: (sourcecheck \. [^#\n]*?) +#", README.read_text(encoding="utf-8"), re.M)
    return found


def test_the_ci_jobs_command_exits_0_1_or_2_as_the_readme_says(tmp_path):
    """'exits 0, 1 or 2, as the table above' (once `xargs`, whose 123 the README called 1)."""
    orbit = json.loads((ROOT / "fixtures" / "orbit-article.sourcecheck.json").read_text(encoding="utf-8"))
    refuted = json.loads(json.dumps(orbit))
    for source in refuted["annotations"][0]["sources"]:
        source["polarity"] = "refutes"
    repositories = {
        "none": ({}, 0),  # a repository without sessions passes
        "clean": ({"a.sourcecheck.json": orbit}, 0),  # contested is not what the job fails on
        "refuted": ({"a.sourcecheck.json": orbit, "b.sourcecheck.json": refuted}, 1),
        "ambiguous": ({"a.sourcecheck.json": "broken/boundary-ambiguous"}, 1),
        "invalid": ({"a.sourcecheck.json": orbit, "b.sourcecheck.json": "broken/invalid-json"}, 2),
    }
    env = environment(tmp_path)
    for name, (files, expected) in repositories.items():
        folder = tmp_path / name
        folder.mkdir()
        for file, value in files.items():
            text = (
                (ROOT / "fixtures" / f"{value}.sourcecheck.json").read_text(encoding="utf-8")
                if isinstance(value, str)
                else json.dumps(value, ensure_ascii=False, indent=2)
            )
            (folder / file).write_text(text, encoding="utf-8")
        result = subprocess.run(["bash", "-c", ci_command()], cwd=folder, env=env, capture_output=True, text=True)
        assert result.returncode == expected, (name, result.stdout[-2000:], result.stderr[-2000:])
        assert "Traceback" not in result.stdout + result.stderr
