"""The ``sourcecheck`` command run in the test's own process, as the CLI tests run it."""

from __future__ import annotations

import io
import sys
from typing import Any
from unittest import mock

from sourcecheck.cli.main import main


def run_main(*args: Any, stdin: bytes = b"") -> tuple[int, bytes, str]:
    """The command with ``args`` (each made a string) and ``stdin``: its exit code, what it
    wrote on standard output (bytes, as a pipe gets them) and on standard error."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.StringIO()
    source = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    with mock.patch.object(sys, "stdout", out), mock.patch.object(sys, "stderr", err):
        with mock.patch.object(sys, "stdin", source):
            code = main([str(a) for a in args])
    out.flush()
    return code, out.buffer.getvalue(), err.getvalue()  # type: ignore[attr-defined]


def sc(capsys: Any, *args: Any) -> tuple[int, str, str]:
    """The command with ``args``, its output taken by pytest's ``capsys``: (exit code,
    stdout, stderr)."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err
