"""Checking JSON Lines past one machine: a Dask bag of parts of files, each checked where it lies.

    pip install 'sourcecheck[dask]'
    python docs/examples/dask_recipe.py 'batches/*.jsonl' > reports.jsonl          # local processes
    python docs/examples/dask_recipe.py big.jsonl --blocksize 64MiB --out reports/ # a file per part
    python docs/examples/dask_recipe.py big.jsonl --scheduler tcp://10.0.0.5:8786 --out /shared/reports/
                                                          # a dask.distributed cluster

Each file is cut into parts of about ``--blocksize`` bytes at line beginnings
(``sourcecheck.line_ranges``: each line in exactly one part, numbered as in the file), one
partition each, checked on the workers with ``sourcecheck.check_lines(path, part=...)``.
Each part's reports are written as it goes to a file of its own in ``--out``
(``part-000000.jsonl``, ...; written whole or not at all, so a part checked again replaces
its file): the driver never holds them, only a line of numbers per part, whatever the size
of the input. Read in order, the parts' files are exactly what ``sourcecheck --json`` prints
for the same files (one object per session, ``"line"`` its line in its file, ``"file"`` its
file when there are several); without ``--out`` they are written in a temporary folder and
copied to standard output in order, a block at a time.

:func:`write` is that run; :func:`reports` and :func:`objects` are the same parts as a bag
of ``sourcecheck.Report`` objects or of what ``--json`` prints, for a pipeline that goes on
(``.compute()`` of them brings every report to the driver: fine for thousands, not for a
file of gigabytes). The files, and ``--out``, must be readable and writable where the
workers run (a cluster of machines: a shared file system); the parts are cut by the
workers too. The exit status is the worst of the reports', as the command's.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import dask
import dask.bag as db
from dask.utils import parse_bytes

import sourcecheck

BLOCKSIZE = 64 * 2**20
Part = tuple[int, str, "sourcecheck.LineRange"]
"""A part to check: its number (in all the parts of all the files), its file, its range."""


def _ranges(path: str, blocksize: int) -> list[tuple[str, sourcecheck.LineRange]]:
    return [(path, part) for part in sourcecheck.line_ranges(Path(path), blocksize)]


def parts(paths: list[str], blocksize: int = BLOCKSIZE) -> list[Part]:
    """The parts of ``paths``, in order, cut on the workers (a task per file; what comes
    back is three numbers and a path per part)."""
    cut = db.from_sequence(paths, npartitions=max(1, len(paths))).map(_ranges, blocksize)
    return [
        (number, path, part) for number, (path, part) in enumerate(pair for found in cut.compute() for pair in found)
    ]


def _objects(path: str, part: sourcecheck.LineRange, several: bool) -> Iterator[dict[str, Any]]:
    for report in sourcecheck.check_lines(Path(path), part=part):
        yield {"file": path, **report.to_json()} if several else report.to_json()


def _bag(found: list[Part]) -> db.Bag:
    return db.from_sequence(found, npartitions=max(1, len(found)))


def reports(paths: list[str], blocksize: int = BLOCKSIZE) -> db.Bag:
    """One ``sourcecheck.Report`` per session of each file (blank lines have none), in order."""

    def checked(items: Iterable[Part]) -> list[sourcecheck.Report]:
        return [r for _, path, part in items for r in sourcecheck.check_lines(Path(path), part=part)]

    return _bag(parts(paths, blocksize)).map_partitions(checked)


def objects(paths: list[str], blocksize: int = BLOCKSIZE) -> db.Bag:
    """What ``sourcecheck --json PATH...`` prints, one object per session, in order."""
    several = len(paths) > 1

    def to_json(items: Iterable[Part]) -> list[dict[str, Any]]:
        return [value for _, path, part in items for value in _objects(path, part, several)]

    return _bag(parts(paths, blocksize)).map_partitions(to_json)


def write_part(item: Part, out: str, several: bool) -> dict[str, Any]:
    """Check one part, its reports written one line each to ``out/part-NNNNNN.jsonl`` as
    they come (a temporary name until the last, then renamed); what comes back is small:
    the file written, how many sessions, the worst exit code."""
    number, path, part = item
    target = os.path.join(out, f"part-{number:06d}.jsonl")
    sessions, worst = 0, 0
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=out, suffix=".partial", delete=False) as handle:
        for value in _objects(path, part, several):
            handle.write(sourcecheck.Report(value).to_json_text(indent=False) + "\n")
            sessions, worst = sessions + 1, max(worst, value["exit_code"])
    os.replace(handle.name, target)
    return {"file": target, "sessions": sessions, "exit_code": worst}


def write(paths: list[str], out: str, blocksize: int = BLOCKSIZE) -> list[dict[str, Any]]:
    """Check ``paths`` in parts, each part's reports in a file of its own in ``out``; what
    :func:`write_part` gives for each part, in order."""
    os.makedirs(out, exist_ok=True)
    found = parts(paths, blocksize)
    return list(_bag(found).map(write_part, out, len(paths) > 1).compute())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("patterns", nargs="+", help="JSON Lines files, or glob patterns of them")
    parser.add_argument(
        "--scheduler",
        default="processes",
        help="processes (default), threads, sync, or the address of a dask.distributed scheduler",
    )
    parser.add_argument("--blocksize", default="64MiB", help="the size of a part (default 64MiB)")
    parser.add_argument("--out", help="write each part's reports in this folder (default: print them in order)")
    args = parser.parse_args(argv)
    paths = [path for pattern in args.patterns for path in sorted(glob.glob(pattern)) or [pattern]]
    remote = "://" in args.scheduler
    if remote and args.out is None:
        parser.error("with a cluster's scheduler, --out names a folder the workers share")
    out = args.out or tempfile.mkdtemp(prefix="sourcecheck-dask-")
    try:
        if remote:
            from dask.distributed import Client  # the cluster's

            with Client(args.scheduler):
                written = write(paths, out, parse_bytes(args.blocksize))
        else:
            with dask.config.set(scheduler=args.scheduler):
                written = write(paths, out, parse_bytes(args.blocksize))
        if args.out is None:
            for each in written:  # in order, a block at a time
                with open(each["file"], "rb") as part:
                    shutil.copyfileobj(part, sys.stdout.buffer)
            sys.stdout.buffer.flush()
    finally:
        if args.out is None:
            shutil.rmtree(out, ignore_errors=True)
    return max((each["exit_code"] for each in written), default=0)


if __name__ == "__main__":
    raise SystemExit(main())
