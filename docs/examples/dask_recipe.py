"""Checking JSON Lines past one machine: a Dask bag of sessions, each checked where it lies.

    pip install 'sourcecheck[dask]'
    python docs/examples/dask_recipe.py 'batches/*.jsonl' > reports.jsonl       # local processes
    python docs/examples/dask_recipe.py 'batches/*.jsonl' --scheduler tcp://10.0.0.5:8786
                                             # a dask.distributed cluster (pip install distributed)
    python docs/examples/dask_recipe.py 'big.jsonl' --blocksize 64MiB          # one file, split

Each file is one partition, read a line at a time and checked in order on one worker, the
files spread over the workers: :func:`objects` gives exactly what ``sourcecheck --json``
prints for the same files (one object per session, ``"line"`` its line in its file,
``"file"`` its file when there are several), :func:`reports` the same as typed
``sourcecheck.Report`` objects. With ``--blocksize`` a large file is split into blocks
checked apart (:func:`quick`): the line of each session is not known then, and the reports
have none. Paths are named as the file system names them (``read_text`` gives local files
as absolute paths).

The exit status is the worst of the reports', as the command's.
"""

from __future__ import annotations

import argparse
import glob
import itertools
import sys
from collections.abc import Iterable, Iterator
from typing import Any

import dask
import dask.bag as db

import sourcecheck


def _checked(pairs: Iterable[tuple[str, str]]) -> tuple[str, Iterator[sourcecheck.Report]]:
    """The path of one partition (the lines of one file: ``read_text``'s ``(line, path)``
    pairs, in order) and its reports, each session checked alone with its line number."""
    pairs = iter(pairs)
    first = next(pairs, None)
    if first is None:
        return "", iter(())
    lines = itertools.chain([first[0]], (line for line, _ in pairs))
    return first[1], sourcecheck.check_lines(lines, name=first[1])


def _read(paths: list[str], blocksize: str | int | None = None) -> db.Bag:
    # A line ends at "\n" only, as for the command (no universal newlines: a "\r" inside a
    # line stays there); what is not UTF-8 is kept, to be reported as the command does.
    return db.read_text(paths, blocksize=blocksize, linedelimiter="\n", errors="surrogateescape", include_path=True)


def reports(paths: list[str]) -> db.Bag:
    """One ``sourcecheck.Report`` per session of each file (blank lines have none), in order."""
    return _read(paths).map_partitions(lambda pairs: list(_checked(pairs)[1]))


def objects(paths: list[str]) -> db.Bag:
    """What ``sourcecheck --json PATH...`` prints, one object per session, in order."""
    several = len(paths) > 1

    def to_json(pairs: Iterable[tuple[str, str]]) -> list[dict[str, Any]]:
        path, found = _checked(pairs)
        return [{"file": path, **r.to_json()} if several else r.to_json() for r in found]

    return _read(paths).map_partitions(to_json)


def session(line: str) -> bytes | None:
    """The session on a line as read (its ending dropped as the command drops it, its bytes
    as they were in the file); None for a blank line."""
    if line.endswith("\n"):
        line = line[:-2] if line.endswith("\r\n") else line[:-1]
    return line.encode("utf-8", "surrogateescape") if line.strip(" \t\r") else None


def quick(paths: list[str], blocksize: str | int) -> db.Bag:
    """The reports of the sessions of ``paths``, each file split into blocks of about
    ``blocksize`` (``"64MiB"``) checked on several workers at once: the line a session is on
    is not known then (its report has no ``line``)."""
    lines = db.read_text(paths, blocksize=blocksize, linedelimiter="\n", errors="surrogateescape")
    return lines.map(session).filter(lambda held: held is not None).map(sourcecheck.check)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("patterns", nargs="+", help="JSON Lines files, or glob patterns of them")
    parser.add_argument(
        "--scheduler",
        default="processes",
        help="processes (default), threads, sync, or the address of a dask.distributed scheduler",
    )
    parser.add_argument("--blocksize", default=None, help="split files into blocks of this size (no line numbers)")
    args = parser.parse_args(argv)
    paths = [path for pattern in args.patterns for path in sorted(glob.glob(pattern)) or [pattern]]
    bag = objects(paths) if args.blocksize is None else quick(paths, args.blocksize).map(sourcecheck.Report.to_json)
    if "://" in args.scheduler:
        from dask.distributed import Client  # the cluster's

        with Client(args.scheduler):
            found = bag.compute()
    else:
        with dask.config.set(scheduler=args.scheduler):
            found = bag.compute()
    for value in found:
        sys.stdout.write(sourcecheck.Report(value).to_json_text(indent=False) + "\n")
    return max((value["exit_code"] for value in found), default=0)


if __name__ == "__main__":
    raise SystemExit(main())
