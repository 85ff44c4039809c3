"""Nothing lost, nothing read where it should not be, never a traceback (issue: hardening)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from sourcecheck.cli.main import main


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path


def sc(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def session(capsys) -> str:
    with open("notes.txt", "w") as out:
        out.write("The flag is optional.\n")
    assert sc(capsys, "new", "notes.txt", "-o", "s.sourcecheck.json")[0] == 0
    return "s.sourcecheck.json"


def test_report_never_writes_over_the_session_or_a_documents_file(capsys):
    name = session(capsys)
    before = open(name).read()
    for output in (name, "notes.txt", "./s.sourcecheck.json"):
        code, _, err = sc(capsys, "report", name, "-o", output, "--force")
        assert code == 2 and "writing there would replace it" in err
    assert open(name).read() == before and open("notes.txt").read() == "The flag is optional.\n"


def test_report_replaces_a_file_it_wrote_but_no_other_without_force(capsys):
    name = session(capsys)
    assert sc(capsys, "report", name, "-o", "review.html")[0] == 0
    assert sc(capsys, "report", name, "-o", "review.html")[0] == 0  # its own page: replaced
    with open("mine.html", "w") as out:
        out.write("<html>my notes</html>")
    code, _, err = sc(capsys, "report", name, "-o", "mine.html")
    assert code == 2 and "was not written by this command; add --force" in err
    assert open("mine.html").read() == "<html>my notes</html>"
    assert sc(capsys, "report", name, "-o", "mine.html", "--force")[0] == 0


def test_new_refuses_an_output_that_is_one_of_its_inputs_even_with_force(capsys):
    session(capsys)
    code, _, err = sc(capsys, "new", "notes.txt", "-o", "notes.txt", "--force")
    assert code == 2 and "is one of the files to read" in err
    assert open("notes.txt").read() == "The flag is optional.\n"


def test_new_says_what_it_wrote(capsys):
    with open("a.txt", "w") as out:
        out.write("a\n")
    code, out, err = sc(capsys, "new", "a.txt", "-o", "s.json")
    assert code == 0 and out == "" and err.startswith("sourcecheck: wrote s.json: 1 document")


@pytest.mark.parametrize("command", [[], ["report"], ["show"]])
def test_a_device_is_refused_in_one_line_never_read_to_the_end(capsys, command):
    args = [*command, "/dev/zero"] + (["x"] if command == ["show"] else [])
    code, out, err = sc(capsys, *args)
    assert code == 2 and "is a device, not a regular file" in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_a_fifo_is_refused_without_blocking(capsys):
    os.mkfifo("pipe.json")
    code, _, err = sc(capsys, "pipe.json")
    assert code == 2 and "is a pipe or socket" in err


def test_running_out_of_memory_is_one_line_not_a_traceback(capsys, monkeypatch):
    from sourcecheck.cli import main as cli

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cli, "check_file", exhausted)  # where the command reads and checks a file
    with open("a.json", "w") as out:
        out.write("{}")
    code, _, err = sc(capsys, "a.json")
    assert code == 2 and err.startswith("sourcecheck: out of memory") and err.count("\n") == 1


WRITER = textwrap.dedent(
    """
    import os, signal, sys
    from sourcecheck.cli import files
    real = os.fsync
    def killed(fd):
        real(fd)
        os.kill(os.getpid(), signal.SIGTERM)  # as if the user's session ended mid-write
    os.fsync = killed
    files.write_atomically(sys.argv[1], "new text")
    """
)


def test_a_write_ended_by_sigterm_leaves_the_file_and_no_temporary_file(in_tmp):
    with open("s.json", "w") as out:
        out.write("old text")
    result = subprocess.run([sys.executable, "-c", WRITER, "s.json"], capture_output=True)
    assert result.returncode == -signal.SIGTERM
    assert open("s.json").read() == "old text"
    assert [name for name in os.listdir() if name.endswith(".tmp")] == []


def test_a_temporary_file_left_by_a_killed_write_is_removed_by_the_next(in_tmp):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    left = f".sourcecheck-{int(dead.stdout)}-abc.tmp"  # a process that no longer runs
    with open(left, "w") as out:
        out.write("half")
    from sourcecheck.cli.files import write_atomically

    write_atomically("s.json", json.dumps({"documents": [], "annotations": []}))
    assert not os.path.exists(left) and os.path.exists("s.json")
