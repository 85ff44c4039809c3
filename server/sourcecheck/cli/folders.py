"""The command's paths: folders walked for sessions, each file with its configuration
(``workspace.py``), and what ``--show-files`` prints. The command line wins over a
configuration: ``--format`` over ``output-format``, ``--fail-on`` over ``fail-on``."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field

from .. import workspace
from ..core.display import visible
from ..inputs import Refused


@dataclass
class Paths:
    """What to check: the files, the verdicts that fail each (by its configuration), and the
    output format a configuration asks for (None: none does)."""

    files: list[str]
    fail_on: dict[str, frozenset[str]] = field(default_factory=dict)
    output_format: str | None = None
    shown: list[str] = field(default_factory=list)  # --show-files: a line per file
    empty: list[str] = field(default_factory=list)  # folders that hold no session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of folders and configurations."""
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PATTERN",
        help="leave out files and folders matching this gitignore-style pattern when walking folders "
        "(repeatable; files named on the command line are always checked)",
    )
    parser.add_argument(
        "--show-files", action="store_true", help="print the files that would be checked, each with its configuration"
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="the configuration to use for every file (a sourcecheck.toml, or a pyproject.toml with "
        "[tool.sourcecheck]) instead of the nearest one above each",
    )
    parser.add_argument(
        "--isolated", action="store_true", help="ignore every configuration file (use the defaults and the flags)"
    )


def resolve(args: argparse.Namespace, given: list[str]) -> Paths:
    """The files under ``given`` (folders walked), each file's configuration applied."""
    try:
        configs = workspace.Configs(args.config, args.isolated)
        found = list(workspace.sessions(given, configs, args.exclude))
    except workspace.ConfigError as error:
        raise Refused(f"configuration: {error}") from None
    paths = Paths([item.path for item in found])
    walked = {os.path.abspath(path) for path in given if path != "-" and os.path.isdir(path)}
    for folder in sorted(walked):
        if not any(os.path.abspath(item.path).startswith(folder + os.sep) for item in found):
            paths.empty.append(folder)
    for item in found:
        if item.config.fail_on is not None:
            paths.fail_on[item.path] = item.config.fail_on
        source = item.config.source
        paths.shown.append(f"{visible(item.path)}" + (f"  ({visible(os.path.relpath(source))})" if source else ""))
    here = configs.of(os.getcwd()) if given else workspace.NO_CONFIG
    first = found[0].config if found else here
    paths.output_format = first.output_format or here.output_format
    return paths


__all__ = ["Paths", "add_arguments", "resolve"]
