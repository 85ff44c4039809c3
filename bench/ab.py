"""Two checkouts benched in one run, alternately, and every row of the one beside the other's.

    python -m bench.ab /path/to/other/checkout                     # the other is A, this one B
    python -m bench.ab ../base --rounds 3 -- --sizes 1M,12M --only open,typing --keystrokes 60

Each round runs ``python -m bench.run`` (with the arguments after ``--``) in A, then in B, with
this interpreter and each checkout's own package first on the path (``PYTHONPATH``): the same
machine, minutes apart, so that a refactoring is judged against its own before. For each row
it prints the best of the rounds on each side (the least disturbed) and B / A; a row that is
a time and more than 5% slower in B is marked. The exit status is 1 when one is.

    python -m bench.ab ../base --instructions bench/out/session-12M.sourcecheck.json

counts instead, with valgrind's callgrind, the instructions of analysing a session whole and
then after one edit in a ref (as the server does), less those of reading it and importing the
package: the same count for the same code and input whatever else the machine does, where
wall-clock rows on a busy virtual machine move by a third. With ``--careful``, of analysing
it whole with every fast path off (``fast=NONE``: each item parsed with positions by the
parser's careful loops, each rule asked), the code the fast paths skip; with ``--parse``,
of parsing its text as plain JSON (no hints: every value read by those loops, nothing else).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
TIME = re.compile(r"\b(ms|s)\b")
TOLERANCE = 1.05


def run(checkout: Path, args: list[str]) -> dict[str, tuple[float, str]]:
    """The rows ``bench.run`` prints in ``checkout``: name -> (first number of its value, its unit)."""
    env = {**os.environ, "PYTHONPATH": f"{checkout / 'server'}{os.pathsep}{checkout}"}
    done = subprocess.run(
        [sys.executable, "-m", "bench.run", *args], cwd=checkout, env=env, capture_output=True, text=True, check=True
    )
    rows: dict[str, tuple[float, str]] = {}
    group = ""  # the size (or group) the indented rows below a heading belong to
    for line in done.stdout.splitlines():
        if line.startswith(("machine:", "(run in")):
            continue
        parts = re.split(r"\s{2,}", line.strip(), maxsplit=2)
        if not line.startswith(" "):
            group = parts[0].split(" ")[0]
        if len(parts) < 2:
            continue
        indent = line[: len(line) - len(line.lstrip())]
        name, value = (f"{group}: {indent}{parts[0]}" if indent else parts[0]), parts[1]
        found = NUMBER.search(value)
        unit = TIME.search(value)
        if found:
            rows[name] = (float(found.group()), unit.group() if unit else "")
    return rows


MEASURED = """
import gc, sys
from pathlib import Path
text = Path(sys.argv[1]).read_text(encoding="utf-8")
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.text import Text
gc.disable()
if sys.argv[2] == "parse":
    from sourcecheck.core.syntax import parse
    parse(text)
elif sys.argv[2] == "careful":
    from sourcecheck.core.fastpaths import NONE
    len(Analysis(text, fast=NONE).findings)
elif sys.argv[2] == "analyse":
    analysis = Analysis(text)
    len(analysis.findings)
    at = text.index('"str": "', len(text) // 2) + len('"str": "')
    assert Analysis.incremental(Text(text[:at] + "x" + text[at:]), analysis, (at, at, "x")) is not None
"""


def instructions(checkout: Path, session: Path, mode: str) -> int:
    """The instructions callgrind counts for ``MEASURED`` in ``mode`` (read, analyse, careful or parse)."""
    env = {**os.environ, "PYTHONPATH": f"{checkout / 'server'}", "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={folder}/out",
                sys.executable,
                "-c",
                MEASURED,
                str(session),
                mode,
            ],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    assert found, done.stderr[-2000:]
    return int(found.group(1))


WHAT = {
    "analyse": "analysing {} whole, then after one edit",
    "careful": "analysing {} whole with every fast path off",
    "parse": "parsing {} as plain JSON",
}


def compare_instructions(other: Path, session: Path, mode: str = "analyse") -> int:
    counts = {}
    for side, checkout in (("A", other), ("B", HERE)):
        counts[side] = instructions(checkout, session, mode) - instructions(checkout, session, "read")
    ratio = counts["B"] / counts["A"]
    print(f"A = {other}, B = {HERE}; instructions of {WHAT[mode].format(session.name)}")
    print(f"A {counts['A']:,}  B {counts['B']:,}  B/A {ratio:.3f}" + ("  SLOWER than 5%" if ratio > TOLERANCE else ""))
    return 1 if ratio > TOLERANCE else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", type=Path, help="the checkout to compare this one with (A)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each, alternating (default 2)")
    parser.add_argument("--instructions", type=Path, metavar="SESSION", help="count instructions on SESSION instead")
    parser.add_argument("--careful", action="store_true", help="with --instructions: with every fast path off")
    parser.add_argument("--parse", action="store_true", help="with --instructions: only parsing, as plain JSON")
    argv = sys.argv[1:] if argv is None else argv
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    bench_args = argv[split + 1 :]
    if args.instructions is not None:
        mode = "parse" if args.parse else "careful" if args.careful else "analyse"
        return compare_instructions(args.other.resolve(), args.instructions.resolve(), mode)
    sides: dict[str, list[dict[str, tuple[float, str]]]] = {"A": [], "B": []}
    for _ in range(args.rounds):
        sides["A"].append(run(args.other.resolve(), bench_args))
        sides["B"].append(run(HERE, bench_args))
    names = [name for name in sides["B"][0] if all(name in r for r in sides["A"] + sides["B"])]
    width = max((len(n) for n in names), default=10) + 2
    print(f"A = {args.other.resolve()}, B = {HERE}; best of {args.rounds} rounds each, alternating")
    slower = 0
    for name in names:
        a = min(r[name][0] for r in sides["A"])
        b = min(r[name][0] for r in sides["B"])
        unit = sides["B"][0][name][1]
        ratio = b / a if a else float("nan")
        mark = ""
        if unit and a and ratio > TOLERANCE:
            mark = "  SLOWER than 5%"
            slower += 1
        print(f"{name:<{width}}A {a:>9.1f} {unit:<3} B {b:>9.1f} {unit:<3} B/A {ratio:5.2f}{mark}")
    return 1 if slower else 0


if __name__ == "__main__":
    raise SystemExit(main())
