"""What the commands that write files share: the refusal that ends a command with one line,
and writing a file so that no reader (and no crash) ever sees half of it."""

from __future__ import annotations

import os
import tempfile

from ..core.display import visible


class Refused(Exception):
    """A request that cannot be done: the one line to print, and the exit code."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def write_atomically(name: str, text: str) -> None:
    """Write ``text`` to ``name`` through a temporary file beside it, then rename it into
    place. A file replaced keeps its mode; a new one gets the usual one (0666 less the umask),
    not the temporary file's 0600."""
    folder = os.path.dirname(os.path.abspath(name))
    try:
        mode = os.stat(name).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".sourcecheck-", suffix=".tmp")
    except OSError as error:
        raise Refused(f"{visible(name)}: cannot write there ({error.strerror or error})") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, name)
    except OSError as error:
        os.unlink(temporary)
        raise Refused(f"{visible(name)}: cannot write it ({error.strerror or error})") from None
