"""The benchmark of sourcecheck in pipelines: the Python API, many files, JSON Lines, --json.

    python -m bench.run --only pipelines          these rows (a few minutes: the 1 GB file)
    python -m bench.pipelines --jsonl-size 200M   the same, with a smaller JSON Lines file

Each row beside a baseline measured in the same run:

- in process, sessions of 2 KB per second: ``sourcecheck.check(text).to_json()`` beside
  ``json.loads`` plus ``json.dumps`` of the same texts (what a pipeline does at least with
  each: read it, write something of it; target: 6x at most);
- in process, sessions of 8 KB with about 22 findings each, the same way (target: 6x at
  most), beside the same sessions with none and the floor under it (see ``findings_rows``),
  and part by part: the analysis with its messages, the findings' ranges, their fixes;
- one call of the command over 3,000 files of 2 KB, files per second, with ``--jobs 1``
  and with the default (target: the default at least 1.3x ``--jobs 1`` on 2 cores), for the
  human output and for ``--json``; wall time and CPU time (of every process) of each;
- a 1 GB JSON Lines file (sessions of about 100 KB and one of 12 MB, made in a temporary
  folder and removed after) checked with ``--json``: the peak memory of the largest
  process and of all of them at once, beside checking its largest line alone;
- ``sourcecheck --json`` on the 12 MB session (target: under 0.8 s), and its parts in this
  process: reading, parsing and checking, the verdicts, building the object, encoding it
  (beside ``json.dumps`` with an indent, the encoder it had before);
- the human output on a one-line session of 8.6 MB with 4,000 warnings, beside ``--json``
  (target: within 3x).
"""

from __future__ import annotations

import argparse
import compileall
import gc
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.sessiongen import generate, generate_sized, parse_size

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
FILES = 3000
IN_PROCESS = 2000
Row = tuple[str, str, str]


def small_session(seed: int) -> str:
    """A session of about 2 KB, on one line (one annotation in thirty has a broken ref)."""
    return generate(seed, documents=1, lines=4, annotations=3, broken=0.03).text(None)


def best_of(runs: int, work: Any, clock: Any = time.perf_counter) -> float:
    best = float("inf")
    for _ in range(runs):
        start = clock()
        work()
        best = min(best, clock() - start)
    return best


def in_process_rows(texts: list[str]) -> list[Row]:
    import sourcecheck

    repeats = 8  # the baseline's run made as long as the others', to be timed alike

    def plain() -> None:
        for _ in range(repeats):
            for text in texts:
                json.dumps(json.loads(text))

    def checked() -> None:
        for text in texts:
            sourcecheck.check(text).to_json()

    def checked_only() -> None:
        for text in texts:
            sourcecheck.check(text)

    timed: dict[str, float] = {}
    # Interleaved, the best of each, in CPU time: on a machine other work keeps busy, a short
    # run (the baseline's) finds a quiet moment more often than a long one.
    for _ in range(5):
        for name, work in (("base", plain), ("full", checked), ("only", checked_only)):
            timed[name] = min(timed.get(name, float("inf")), best_of(1, work, time.process_time))
    base, full, only = timed["base"] / repeats, timed["full"], timed["only"]
    rate = len(texts) / full
    return [
        (f"in process, {len(texts)} sessions of 2 KB", "", ""),
        ("  baseline: json.loads + json.dumps", f"{len(texts) / base:,.0f} sessions/s", "per second of CPU"),
        (
            "  sourcecheck.check(text).to_json()",
            f"{rate:,.0f} sessions/s",
            f"{full / base:.1f}x baseline (target: 6x at most); check() alone {len(texts) / only:,.0f}/s",
        ),
    ]


def mistaken_session(seed: int, broken: float = 0.6) -> str:
    """A session of about 8 KB as a model writes it when it goes wrong: 12 annotations over a
    document of 20 lines, three refs in five broken (about 22 findings)."""
    return generate(seed, documents=1, lines=20, annotations=12, broken=broken).text(None)


def copied(value: Any) -> Any:
    """``value`` made again in Python, object by object (what building it costs at least)."""
    if isinstance(value, dict):
        return {key: copied(item) for key, item in value.items()}
    return [copied(item) for item in value] if isinstance(value, list) else value


def findings_rows(count: int = 300) -> list[Row]:
    """``sourcecheck.check(text).to_json()`` on sessions with many findings and on the same
    sessions with none, each beside ``json.loads`` + ``json.dumps`` of its texts; and the
    floor under the first: checking the clean ones, plus building the mistaken ones' reports
    at the speed of C (``json.loads`` of their JSON: the objects ``to_json`` returns, made by
    the C decoder), or made in Python (a plain copy of the findings' objects: what a check
    written in Python spends making them, with nothing to search)."""
    import sourcecheck

    mistaken = [mistaken_session(seed) for seed in range(count)]
    clean = [mistaken_session(seed, broken=0.0) for seed in range(count)]
    reports = [json.dumps(sourcecheck.check(text).to_json()) for text in mistaken]
    findings = sum(report.count('"code":') for report in reports) / count
    repeats = 8

    def plain(texts: list[str]) -> Any:
        def work() -> None:
            for _ in range(repeats):
                for text in texts:
                    json.dumps(json.loads(text))

        return work

    def checked(texts: list[str]) -> Any:
        def work() -> None:
            for text in texts:
                sourcecheck.check(text).to_json()

        return work

    def built() -> None:
        for report in reports:
            json.loads(report)

    objects = [json.loads(report)["findings"] for report in reports]

    def made() -> None:
        for each in objects:
            copied(each)

    works = {
        "base": plain(mistaken),
        "base clean": plain(clean),
        "mistaken": checked(mistaken),
        "clean": checked(clean),
        "built": built,
        "made": made,
    }
    timed: dict[str, float] = {}
    for _ in range(5):
        for name, work in works.items():
            timed[name] = min(timed.get(name, float("inf")), best_of(1, work, time.process_time))
        for name, seconds in finding_parts(mistaken).items():
            timed[name] = min(timed.get(name, float("inf")), seconds)
    base, base_clean = timed["base"] / repeats, timed["base clean"] / repeats
    rest = timed["mistaken"] - timed["analysis"] - timed["ranges"] - timed["fixes"]
    floor = (timed["clean"] * base / base_clean + timed["built"]) / base
    python_floor = (timed["clean"] * base / base_clean + timed["made"]) / base
    return [
        (f"in process, {count} sessions of 8 KB with {findings:.0f} findings each", "", ""),
        (
            "  sourcecheck.check(text).to_json()",
            f"{count / timed['mistaken']:,.0f} sessions/s",
            f"{timed['mistaken'] / base:.1f}x json.loads + json.dumps (target: 6x at most)",
        ),
        (
            "  the same sessions, no mistakes",
            f"{count / timed['clean']:,.0f} sessions/s",
            f"{timed['clean'] / base_clean:.1f}x json.loads + json.dumps of theirs",
        ),
        (
            "  floor: the clean check + the report built in C",
            f"{floor:.1f}x",
            f"the reports are {sum(map(len, reports)) / sum(map(len, mistaken)):.1f}x the size of the sessions;"
            f" json.loads of them alone {timed['built'] / base:.1f}x",
        ),
        (
            "  floor: the clean check + the findings made in Python",
            f"{python_floor:.1f}x",
            f"a plain copy of the findings' objects, no search: {timed['made'] / base:.1f}x,"
            f" {timed['made'] / (findings * count) * 1e6:.1f} us a finding",
        ),
        (
            "  part by part: the analysis (the rules, messages)",
            f"{timed['analysis'] / base:.1f}x",
            "parsing, the rules and each finding's message with its near misses",
        ),
        (
            "    the findings' ranges",
            f"{timed['ranges'] / base:.1f}x",
            f"each value located in its item, its range in UTF-16: "
            f"{timed['ranges'] / (findings * count) * 1e6:.0f} us a finding",
        ),
        (
            "    the findings' fixes",
            f"{timed['fixes'] / base:.1f}x",
            f"near misses and placements of the refs: {timed['fixes'] / (findings * count) * 1e6:.0f} us a finding",
        ),
        ("    the rest of the report", f"{rest / base:.1f}x", "verdicts, refs, coverage, the objects"),
    ]


def finding_parts(texts: list[str]) -> dict[str, float]:
    """CPU time of the parts of ``check(text).to_json()`` on ``texts``, each once: analysing
    them, then the ranges of their findings, then their fixes (which find the values the
    ranges located already), each on analyses made afresh (the fixes' searches are kept on
    their analysis)."""
    from sourcecheck.core.analysis import Analysis
    from sourcecheck.core.fixes import FIXERS, fix_of

    at = time.process_time()
    analyses = [Analysis(text) for text in texts]
    analysed = time.process_time()
    for analysis in analyses:
        for finding in analysis.findings:
            analysis.finding_span(finding)
    ranged = time.process_time()
    for analysis in analyses:
        for finding in analysis.findings:
            if finding.code in FIXERS:
                fix_of(analysis, finding)
    return {"analysis": analysed - at, "ranges": ranged - analysed, "fixes": time.process_time() - ranged}


def times_of(command: list[str], stdout: Any = subprocess.DEVNULL) -> tuple[float, float]:
    """Wall time and CPU time (user and system, the command's and its children's) of a command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=stdout, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def files_rows(folder: Path, runs: int) -> list[Row]:
    names = sorted(str(p) for p in folder.glob("*.json"))
    rows: list[Row] = [(f"one call over {len(names)} files of 2 KB ({os.cpu_count()} cores)", "", "")]
    for shown, fmt in (("human", []), ("--json", ["--json"])):
        timed: dict[str, list[tuple[float, float]]] = {"--jobs 1": [], "default": []}
        for _ in range(runs):  # interleaved: the machine's speed varies
            for label, jobs in (("--jobs 1", ["--jobs", "1"]), ("default", [])):
                timed[label].append(times_of([sys.executable, "-m", "sourcecheck", *fmt, *jobs, *names]))
        one = statistics.median(w for w, _ in timed["--jobs 1"])
        for label, values in timed.items():
            wall = statistics.median(w for w, _ in values)
            cpu = statistics.median(c for _, c in values)
            beside = f"{one / wall:.2f}x --jobs 1 (target: 1.3x at least)" if label == "default" else ""
            each = ", ".join(f"{len(names) / w:,.0f}" for w, _ in values)
            rows.append(
                (
                    f"  {shown}, {label}",
                    f"{len(names) / wall:,.0f} files/s",
                    f"{wall:.2f} s wall, {cpu:.2f} s CPU; runs {each} files/s" + (f"; {beside}" if beside else ""),
                )
            )
    return rows


def tree_memory(pid: int) -> tuple[int, int]:
    """The resident memory of a process and its children together, and the peak of the
    largest of them so far (``VmHWM``), in bytes."""
    total = largest = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
                elif line.startswith("VmHWM:"):
                    largest = max(largest, int(line.split()[1]) * 1024)
            for task in Path(f"/proc/{current}/task").iterdir():
                stack.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue
    return total, largest


def peak_memory(command: list[str]) -> tuple[float, int, int]:
    """Wall time, and the peak memory of all its processes at once and of the largest one
    (sampled every 20 ms), of a command, its output thrown away."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = largest = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak, largest
        while not done.is_set():
            total, high = tree_memory(process.pid)
            peak, largest = max(peak, total), max(largest, high)
            done.wait(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    process.wait()
    done.set()
    sampler.join()
    return time.perf_counter() - start, peak, largest


def write_jsonl(path: Path, size: int, lines: list[bytes], largest: bytes | None = None) -> tuple[int, int]:
    """A JSON Lines file of ``size`` bytes at least, of ``lines`` over and over (``largest``
    the 501st): its size and how many lines."""
    count = written = 0
    with path.open("wb") as out:
        while written < size:
            line = largest if count == 500 and largest is not None else lines[count % len(lines)]
            out.write(line)
            written += len(line)
            count += 1
    return written, count


def jsonl_rows(size: int, big: Path) -> list[Row]:
    folder = Path(tempfile.mkdtemp(prefix="sourcecheck-bench-"))
    try:
        lines = [
            json.dumps(generate_sized(100_000, 300, seed=seed).session, ensure_ascii=False).encode() + b"\n"
            for seed in range(20)
        ]
        largest = json.dumps(json.loads(big.read_text(encoding="utf-8")), ensure_ascii=False).encode() + b"\n"
        path = folder / "sessions.jsonl"
        written, count = write_jsonl(path, size, lines, largest)
        alone = folder / "largest.json"
        alone.write_bytes(largest)
        command = [sys.executable, "-m", "sourcecheck", "--json"]
        _, alone_peak, alone_largest = peak_memory([*command, str(alone)])
        wall, peak, largest_process = peak_memory([*command, str(path)])
        mb = 1024 * 1024
        return [
            (f"JSON Lines: {written / 1e9:.2f} GB, {count:,} sessions, largest {len(largest) / 1e6:.0f} MB", "", ""),
            ("  baseline: its largest line alone (--json)", f"{alone_peak / mb:.0f} MB peak", ""),
            (
                "  the whole file (--json)",
                f"{peak / mb:.0f} MB peak",
                f"{peak / alone_peak:.1f}x its largest line, all processes at once; the largest process "
                f"{largest_process / mb:.0f} MB ({largest_process / max(alone_largest, 1):.1f}x); "
                f"{wall:.0f} s, {written / wall / 1e6:.0f} MB/s",
            ),
        ]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def big_json_rows(big: Path, runs: int) -> list[Row]:
    try:
        from sourcecheck.formats.json import report_payload
        from sourcecheck.inputs import check_bytes
    except ImportError:  # a checkout before the inputs layer and the table of formats
        from sourcecheck.api import report_payload  # type: ignore[no-redef,attr-defined]
        from sourcecheck.cli.files import check_bytes  # type: ignore[no-redef]
    from sourcecheck.core import jsontext

    command = [sys.executable, "-m", "sourcecheck", "--json", str(big)]
    walls = [times_of(command)[0] for _ in range(runs)]
    text = big.read_text(encoding="utf-8")
    loads = best_of(3, lambda: json.loads(text))
    start_only = min(times_of([sys.executable, "-c", "import sourcecheck.cli.main"])[0] for _ in range(3))
    gc.disable()  # as the command runs
    try:
        data = big.read_bytes()
        parts: dict[str, list[float]] = {}
        for _ in range(3):
            at = time.perf_counter()
            checked = check_bytes(str(big), data)
            after_check = time.perf_counter()
            assert checked.analysis is not None
            checked.analysis.summary  # noqa: B018 - computed here, to be timed alone
            after_summary = time.perf_counter()
            payload, plain = report_payload(checked)
            after_payload = time.perf_counter()
            jsontext.dumps(payload, floats_plain=plain)
            after_encode = time.perf_counter()
            jsontext.python_dumps(payload)
            after_python = time.perf_counter()
            for name, seconds in (
                ("check", after_check - at),
                ("summary", after_summary - after_check),
                ("payload", after_payload - after_summary),
                ("encode", after_encode - after_payload),
                ("json.dumps", after_python - after_encode),
            ):
                parts.setdefault(name, []).append(seconds)
            del checked, payload
    finally:
        gc.enable()
    best = {name: min(values) * 1000 for name, values in parts.items()}
    wall = statistics.median(walls)
    return [
        (f"sourcecheck --json, {big.name} ({big.stat().st_size / 1e6:.1f} MB)", f"{wall * 1000:.0f} ms", ""),
        (
            f"  {runs} runs: median, min",
            f"{wall * 1000:.0f}, {min(walls) * 1000:.0f} ms",
            f"target: under 0.8 s; runs {', '.join(f'{w * 1000:.0f}' for w in walls)} ms",
        ),
        (
            "  baseline: json.loads of the same text",
            f"{loads * 1000:.0f} ms",
            f"the command takes {wall / loads:.0f}x it (the machine's speed varies: compare within a run)",
        ),
        ("  baseline: starting Python and importing the command", f"{start_only * 1000:.0f} ms", ""),
        ("  part by part (in this process): reading, parsing, checking", f"{best['check']:.0f} ms", ""),
        ("    verdicts and coverage", f"{best['summary']:.0f} ms", ""),
        ("    building the --json object", f"{best['payload']:.0f} ms", ""),
        (
            "    encoding it (orjson, else json)",
            f"{best['encode']:.0f} ms",
            f"beside json.dumps with an indent {best['json.dumps']:.0f} ms "
            f"({best['json.dumps'] / best['encode']:.0f}x)",
        ),
    ]


def one_line_session(path: Path, warnings: int = 4000) -> None:
    """A session of about 8.6 MB written on one line (as a line of JSON Lines is), with
    ``warnings`` warnings (sources citing their claim's own span: self-citation)."""
    session = generate_sized(12_200_000, 30000, seed=3, broken=0).session
    for annotation in session["annotations"][:warnings]:
        claim = annotation["claim"]
        annotation["sources"][0].update(path=claim["path"], start=claim["start"], end=claim["end"])
    path.write_text(json.dumps(session, ensure_ascii=False), encoding="utf-8")


def human_rows(runs: int) -> list[Row]:
    """The human output beside ``--json`` on a one-line session of 8.6 MB with 4,000
    warnings (target: within 3x; it was 9.6 s against 0.5 s, each finding reading its whole
    line)."""
    folder = Path(tempfile.mkdtemp(prefix="sourcecheck-bench-human-"))
    try:
        path = folder / "one-line.sourcecheck.json"
        one_line_session(path)
        command = [sys.executable, "-m", "sourcecheck", str(path)]
        human = min(times_of(command)[0] for _ in range(runs))
        as_json = min(times_of([*command, "--json"])[0] for _ in range(runs))
        return [
            (f"one-line session, {path.stat().st_size / 1e6:.1f} MB, 4,000 warnings", "", ""),
            ("  baseline: --json", f"{as_json * 1000:.0f} ms", f"best of {runs}"),
            ("  the human output", f"{human * 1000:.0f} ms", f"{human / as_json:.1f}x --json (target: 3x at most)"),
        ]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def rows(jsonl_size: int = 1_000_000_000, runs: int = 3) -> list[Row]:
    """Every row of this benchmark. The package's bytecode is compiled first, as an install
    has it (with PYTHONDONTWRITEBYTECODE set, each command would compile every module anew)."""
    compileall.compile_dir(str(ROOT / "server" / "sourcecheck"), quiet=1)
    OUT.mkdir(parents=True, exist_ok=True)
    big = OUT / "session-12M.sourcecheck.json"
    if not big.exists():
        big.write_text(generate_sized(parse_size("12M"), 30000, seed=1).text(), encoding="utf-8")
    found: list[Row] = in_process_rows([small_session(seed) for seed in range(IN_PROCESS)])
    found += findings_rows()
    folder = Path(tempfile.mkdtemp(prefix="sourcecheck-bench-files-"))
    try:
        for seed in range(FILES):
            (folder / f"s{seed:04d}.json").write_text(small_session(seed), encoding="utf-8")
        found += files_rows(folder, runs)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    found += big_json_rows(big, runs)
    found += human_rows(runs)
    if jsonl_size:
        found += jsonl_rows(jsonl_size, big)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jsonl-size", default="1G", help="the JSON Lines file's size (default 1G; 0: no such row)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each command timed (default 3)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    found = rows(parse_size(args.jsonl_size), args.runs)
    print_rows(found)
    print(f"(run in {time.perf_counter() - started:.0f} s)")
    return 0


def print_rows(found: list[Row]) -> None:
    width = max(len(r[0]) for r in found) + 2
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    for name, a, b in found:
        print(f"{name:<{width}}{a:<20}{b}")


if __name__ == "__main__":
    raise SystemExit(main())
