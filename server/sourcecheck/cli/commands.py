"""The subcommands' names, and whether a command line runs one: asked before anything else
is imported, so that checking files does not import the subcommands (cli/authoring.py)."""

from __future__ import annotations

import os
from collections.abc import Sequence

COMMANDS = ("new", "add", "ref", "show", "sync", "report", "import", "export")


def is_command(argv: Sequence[str]) -> bool:
    """Whether ``argv`` runs a subcommand: its first argument names one, and no file (a
    directory does not count: it could not be checked anyway) of that name exists here."""
    if not argv or argv[0] not in COMMANDS:
        return False
    return not (os.path.exists(argv[0]) and not os.path.isdir(argv[0]))


__all__ = ["COMMANDS", "is_command"]
