"""The Dask recipe's driver memory (``python -m bench.dask_driver``, or ``python -m bench.run
--only dask``): the peak resident memory of the process that runs the recipe (the driver,
its workers not counted: ``RUSAGE_SELF`` of it, the workers being its child processes) on
generated JSON Lines files of growing size (sessions of about 100 KB), 2 workers.

- the recipe's run (``write``: parts of 16 MiB, each part's reports written to a file of
  its own by its worker): target flat, whatever the size (the issue's: under 1 GB on 1 GiB);
- beside it, up to 30 MB, the same parts collected in the driver (``objects(...).compute()``,
  what the recipe did before: every report held), which grows with the size.

Needs the ``[dask]`` extra. ``--sizes 10M,30M,100M`` by default (about a minute and a half
on 2 cores when nothing else runs).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.pipelines import print_rows, write_jsonl
from bench.sessiongen import generate_sized, parse_size

ROOT = Path(__file__).resolve().parent.parent
RECIPE = ROOT / "docs" / "examples" / "dask_recipe.py"
Row = tuple[str, str, str]
PART = 16 * 2**20
SIZES = [10_000_000, 30_000_000, 100_000_000]
HELD_UP_TO = 30_000_000  # (the reports held: only that far, it doubles the run)


def drive(path: str, out: str, how: str) -> dict[str, float]:
    """The recipe run in this process (``--drive``): its wall time, its sessions and this
    process's peak memory (the workers are its children, not counted)."""
    import dask

    spec = importlib.util.spec_from_file_location("dask_recipe", RECIPE)
    assert spec is not None and spec.loader is not None
    recipe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(recipe)
    start = time.perf_counter()
    with dask.config.set(scheduler="processes", num_workers=2):
        if how == "write":
            sessions = sum(each["sessions"] for each in recipe.write([path], out, PART))
        else:
            sessions = len(recipe.objects([path], PART).compute())
    wall = time.perf_counter() - start
    return {"peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "wall": wall, "sessions": sessions}


def driver(path: Path, out: Path, how: str) -> dict[str, float]:
    """:func:`drive` in a process of its own."""
    command = [sys.executable, "-m", "bench.dask_driver", "--drive", str(path), str(out), how]
    done = subprocess.run(command, capture_output=True, check=True, cwd=ROOT)
    return json.loads(done.stdout.splitlines()[-1])


def rows(sizes: list[int]) -> list[Row]:
    found: list[Row] = [("Dask recipe: the driver's peak memory, 2 workers, parts of 16 MiB", "", "")]
    if importlib.util.find_spec("dask") is None or importlib.util.find_spec("distributed") is None:
        return [(found[0][0], "skipped", "needs the [dask] extra (pip install -e '.[dask]')")]
    folder = Path(tempfile.mkdtemp(prefix="sourcecheck-bench-dask-"))
    mb = 1024 * 1024
    try:
        lines = [
            json.dumps(generate_sized(100_000, 300, seed=seed).session, ensure_ascii=False).encode() + b"\n"
            for seed in range(20)
        ]
        for size in sizes:
            path = folder / "sessions.jsonl"
            written, count = write_jsonl(path, size, lines)
            out = folder / "reports"
            streamed = driver(path, out, "write")
            shutil.rmtree(out, ignore_errors=True)
            found.append(
                (
                    f"  {written / 1e6:.0f} MB, {count:,} sessions: write (a file per part)",
                    f"{streamed['peak'] / mb:.0f} MB peak",
                    f"{streamed['wall']:.0f} s, {written / streamed['wall'] / 1e6:.1f} MB/s",
                )
            )
            if size <= HELD_UP_TO:
                held = driver(path, out, "compute")
                found.append(
                    (
                        "    beside every report held in the driver (objects().compute())",
                        f"{held['peak'] / mb:.0f} MB peak",
                        f"{held['peak'] / streamed['peak']:.1f}x",
                    )
                )
            path.unlink()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10M,30M,100M", help="the JSON Lines files' sizes (default 10M,30M,100M)")
    parser.add_argument("--drive", nargs=3, metavar=("PATH", "OUT", "HOW"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.drive:
        print(json.dumps(drive(*args.drive)))
        return 0
    started = time.perf_counter()
    print_rows(rows([parse_size(size) for size in args.sizes.split(",")]))
    print(f"(run in {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
