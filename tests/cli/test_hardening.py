"""Nothing lost, nothing read where it should not be, never a traceback (issue: hardening)."""

from __future__ import annotations

import contextlib
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


# --- the second round (issue 35) ----------------------------------------------------------


def test_a_save_landing_between_the_compare_and_the_rename_is_not_lost(in_tmp, monkeypatch):
    """An editor's save (a write of the file) right after the command compared the file with
    what it read: the new file is swapped in atomically and what it replaced compared, so the
    save is put back and the command refuses, instead of renaming over it."""
    from sourcecheck.cli import files

    with open("s.json", "w") as out:
        out.write("read")
    real = files._holds
    calls = []

    def compared_then_saved(name, expect):  # type: ignore[no-untyped-def]
        found = real(name, expect)
        calls.append(found)
        if len(calls) == 1:
            with open("s.json", "w") as out:  # the editor saves now
                out.write("saved in the editor")
        return found

    monkeypatch.setattr(files, "_holds", compared_then_saved)
    with pytest.raises(files.Refused, match="changed since it was read"):
        files.write_atomically("s.json", "the command's text", expect=b"read")
    assert open("s.json").read() == "saved in the editor"
    assert [name for name in os.listdir() if name.endswith(".tmp")] == []


def test_a_session_larger_than_the_read_limit_can_still_be_written(in_tmp):
    from sourcecheck.cli.files import write_atomically

    big = "x" * 70_000_000
    with open("s.json", "w") as out:
        out.write(big)
    write_atomically("s.json", "small now", expect=big.encode())
    assert open("s.json").read() == "small now"


def test_a_read_only_session_is_refused_and_a_replaced_one_keeps_its_mode(in_tmp):
    from sourcecheck.cli.files import write_atomically
    from sourcecheck.inputs import Refused

    with open("s.json", "w") as out:
        out.write("old")
    os.chmod("s.json", 0o444)
    with pytest.raises(Refused, match="is read-only"):
        write_atomically("s.json", "new", expect=b"old")
    assert open("s.json").read() == "old"
    os.chmod("s.json", 0o640)
    write_atomically("s.json", "new", expect=b"old")
    assert open("s.json").read() == "new" and os.stat("s.json").st_mode & 0o777 == 0o640


def test_a_planted_temporary_name_no_process_can_have_breaks_no_write(in_tmp):
    from sourcecheck.cli.files import write_atomically

    planted = ".sourcecheck-99999999999999999999-x.tmp"
    with open(planted, "w") as out:
        out.write("planted")
    write_atomically("s.json", "written")
    assert open("s.json").read() == "written" and os.path.exists(planted)  # not ours: left alone


def test_a_write_under_nohup_is_not_ended_by_sighup(in_tmp):
    with open("s.json", "w") as out:
        out.write("old text")
    hup = WRITER.replace("signal.SIGTERM", "signal.SIGHUP")
    script = "import signal; signal.signal(signal.SIGHUP, signal.SIG_IGN)\n" + hup  # as nohup starts it
    result = subprocess.run([sys.executable, "-c", script, "s.json"], capture_output=True)
    assert result.returncode == 0, result.stderr
    assert open("s.json").read() == "new text"


@pytest.mark.parametrize("value", ["-1", "0", "lots"])
def test_a_size_limit_that_is_no_size_is_one_line_not_a_traceback(capsys, value):
    with pytest.raises(SystemExit) as ended:
        main(["--max-size-mb", value, "-"])
    out, err = capsys.readouterr()
    assert ended.value.code == 2 and "Traceback" not in err and "--max-size-mb" in err


@pytest.mark.parametrize(
    "argument", ["--\x1b]0;X\x07", "--\u202eevil", "\x1b[2J.json", "--fail-on=\u200bweak\U000e0041", "--\x9b31m"]
)
def test_an_argument_echoed_in_an_error_is_escaped(capsys, argument):
    with contextlib.suppress(SystemExit):
        main([argument])
    for command in (["sync", argument], ["new", argument], ["report", argument]):
        with contextlib.suppress(SystemExit):
            main(command)
    out, err = capsys.readouterr()
    for raw in ("\x1b", "\x07", "\u202e", "\u200b", "\U000e0041", "\x9b"):
        assert raw not in out and raw not in err
