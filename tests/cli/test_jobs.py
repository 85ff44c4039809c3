"""--jobs: batches checked in worker processes, results in input order, the pool only when it pays."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import pytest

from bench.sessiongen import generate
from sourcecheck.cli import jobs
from tests.support import command

ROOT = Path(__file__).resolve().parents[2]


def doubled(batch):
    return [item * 2 for item in batch]


def run_main(*args):
    """The command in this process: exit code and stdout (bytes)."""
    return command.run_main(*args)[:2]


@pytest.fixture(scope="module")
def sessions(tmp_path_factory):
    """120 small sessions, some broken, and a JSON Lines file of them (and of a bad line)."""
    folder = tmp_path_factory.mktemp("many")
    texts = [generate(seed, documents=1, lines=4, annotations=3, broken=0.1).text(None) for seed in range(120)]
    paths = []
    for index, text in enumerate(texts):
        path = folder / f"s{index:03d}.json"
        path.write_text(text if index != 7 else text[:50], encoding="utf-8")
        paths.append(path)
    lines = folder / "all.jsonl"
    lines.write_text("".join(texts[:60]) + "nonsense\n" + "".join(texts[60:]), encoding="utf-8")
    return paths, lines


@pytest.mark.parametrize("fmt", [[], ["--json"], ["--format", "github"], ["--format", "sarif"]])
def test_the_default_and_jobs_give_what_one_job_gives(sessions, fmt, monkeypatch):
    paths, lines = sessions
    one = run_main(*fmt, "--jobs", "1", *paths, lines)
    assert one[0] == 2
    assert run_main(*fmt, "--jobs", "2", *paths, lines) == one
    started = []
    monkeypatch.setattr(jobs, "DECIDE_AFTER", 0.0)
    monkeypatch.setattr(jobs, "PAYS_FROM", 0.0)  # as if it always paid: the pool is started
    monkeypatch.setattr(jobs, "free_cores", lambda n, since=None: n)  # on a quiet machine
    monkeypatch.setattr(jobs, "BATCH_ITEMS", 7)
    real = jobs.pool
    monkeypatch.setattr(jobs, "pool", lambda n: started.append(n) or real(n))
    assert run_main(*fmt, *paths, lines) == one
    assert started, "the default did not start the pool"


def test_json_of_many_files_is_what_json_dumps_writes(sessions):
    from sourcecheck.core.jsonlex import escape_lone_surrogates
    from sourcecheck.formats.json import report_json
    from sourcecheck.inputs import check_file

    paths, _ = sessions
    code, out = run_main("--json", "--jobs", "2", *paths)
    each = [{"file": str(p), **report_json(check_file(str(p)))} for p in paths]
    payload = {"exit_code": code, "files": each}
    assert out.decode() == escape_lone_surrogates(json.dumps(payload, ensure_ascii=False, indent=2)) + "\n"


def test_little_work_is_done_here_without_a_pool(monkeypatch):
    monkeypatch.setattr(jobs, "pool", mock.Mock(side_effect=AssertionError("a pool for little work")))
    batches = [([i], 1000) for i in range(50)]
    assert list(jobs.in_order(batches, doubled, 2, None, lambda: 1000)) == [i * 2 for i in range(50)]


def test_much_work_left_starts_the_pool_and_keeps_the_order(monkeypatch):
    monkeypatch.setattr(jobs, "DECIDE_AFTER", 0.0)
    monkeypatch.setattr(jobs, "free_cores", lambda n, since=None: n)
    started = []
    real = jobs.pool
    monkeypatch.setattr(jobs, "pool", lambda n: started.append(n) or real(n))
    batches = [(list(range(i * 10, i * 10 + 10)), 1000) for i in range(40)]
    found = list(jobs.in_order(batches, doubled, 2, None, lambda: 10**12))
    assert found == [i * 2 for i in range(400)] and started == [2]


def test_on_a_busy_machine_the_default_starts_no_pool(monkeypatch):
    """Other work keeping the cores busy: more processes would share the same cores."""
    monkeypatch.setattr(jobs, "DECIDE_AFTER", 0.0)
    ticks = iter(range(0, 10**6, 100))
    monkeypatch.setattr(jobs, "cpu_times", lambda: (0, next(ticks)))  # never idle
    monkeypatch.setattr(jobs, "pool", mock.Mock(side_effect=AssertionError("a pool on a busy machine")))
    batches = [([i], 1000) for i in range(50)]
    assert list(jobs.in_order(batches, doubled, 2, None, lambda: 10**12)) == [i * 2 for i in range(50)]
    assert jobs.free_cores(2, (0, 0)) == 1
    monkeypatch.setattr(jobs, "cpu_times", lambda: (50, 100))  # half of all the time idle
    assert jobs.free_cores(2, (0, 0)) == min(2, 1 + round(jobs.cores() / 2))
    monkeypatch.setattr(jobs, "cpu_times", lambda: None)  # not said: the last minute's load
    monkeypatch.setattr(jobs.os, "getloadavg", lambda: (jobs.cores() + 1.0, 0.0, 0.0))
    assert jobs.free_cores(2) == 1


def test_batches_in_flight_are_bounded():
    pulled = []

    def batches():
        for i in range(100):
            pulled.append(i)
            yield [i], 1

    results = jobs.in_order(batches(), doubled, 2, True, lambda: None)
    assert next(results) == 0
    assert len(pulled) <= 2 * jobs.IN_FLIGHT + 1  # not all 100 read ahead
    assert list(results) == [i * 2 for i in range(1, 100)]


def test_many_files_through_the_program_keep_their_order(sessions):
    paths, _ = sessions
    done = subprocess.run([sys.executable, "-m", "sourcecheck", "--json", *map(str, paths)], capture_output=True)
    names = [f["file"] for f in json.loads(done.stdout)["files"]]
    assert names == [str(p) for p in paths] and done.returncode == 2


def test_fix_with_several_files_says_what_it_fixed_in_each_json_object(tmp_path):
    for name in ("bad-polarity", "bad-confidence"):
        fixture = ROOT / "fixtures" / "broken" / f"{name}.sourcecheck.json"
        (tmp_path / f"{name}.json").write_bytes(fixture.read_bytes())
    paths = [tmp_path / "bad-polarity.json", tmp_path / "bad-confidence.json"]
    code, out = run_main("--fix", "--json", *paths)
    found = json.loads(out)
    assert code == found["exit_code"] == 2  # 95 is fixed only by --unsafe-fixes
    assert [(f["file"], [x["code"] for x in f["fixed"]]) for f in found["files"]] == [
        (str(paths[0]), ["bad-polarity"]),
        (str(paths[1]), []),
    ]
    assert '"polarity": "supports"' in paths[0].read_text()


def children(pid: int) -> list[int]:
    """The processes ``pid`` started, from /proc."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as listing:
            found += [int(child) for child in listing.read().split()]
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.fixture
def many(tmp_path):
    """Enough sessions for a run of several seconds with two workers."""
    text = generate(3, documents=2, lines=40, annotations=60, broken=0.2).text(None)
    for index in range(1500):
        (tmp_path / f"s{index:04d}.json").write_text(text, encoding="utf-8")
    return sorted(str(path) for path in tmp_path.glob("*.json"))


def started_with_workers(files: list[str]) -> tuple[subprocess.Popen[bytes], list[int]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "sourcecheck", "--jobs", "2", *files],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    for _ in range(500):
        workers = children(process.pid)
        if len(workers) >= 2:
            return process, workers
        time.sleep(0.01)
    process.kill()
    raise AssertionError("no workers started")


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc (Linux)")
def test_workers_end_with_their_parent_however_it_ends(many):
    """`kill PID` of the parent alone (as `subprocess.terminate()` does): both workers end too,
    and the output closes (`| cat` ends)."""
    process, workers = started_with_workers(many)
    try:
        process.terminate()
        process.communicate(timeout=30)  # the pipe closes: no worker holds it
        for _ in range(300):
            if not any(alive(worker) for worker in workers):
                break
            time.sleep(0.01)
        assert not any(alive(worker) for worker in workers)
    finally:
        for worker in workers:  # (never left behind, should the test fail)
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker, signal.SIGKILL)


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc (Linux)")
def test_a_killed_worker_is_one_line_and_exit_2_not_a_traceback(many):
    process, workers = started_with_workers(many)
    os.kill(workers[0], signal.SIGKILL)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2, err.decode()[-2000:]
    assert b"Traceback" not in err and b"BrokenProcessPool" not in err
    assert err.decode().strip().endswith("Run again, or with --jobs 1")


def test_a_pool_no_faster_than_checking_here_is_given_up_and_the_rest_checked_here(monkeypatch):
    """On a machine other work keeps busy, the pool the default started checks more slowly
    than this process did: after its probe it is given up, so the default is never much
    slower than --jobs 1 (it was 0.90x on a busy machine)."""
    from concurrent.futures import ThreadPoolExecutor

    where: list[str] = []

    def work(batch):
        where.append("here")
        time.sleep(0.002)
        return [item * 2 for item in batch]

    class Busy(ThreadPoolExecutor):
        """A pool on busy cores: each batch takes long."""

        def submit(self, fn, *args, **kwargs):  # type: ignore[override]
            def slow(*a, **k):
                time.sleep(0.05)
                return [item * 2 for item in a[0]], where.append("pool")

            return super().submit(lambda *a, **k: slow(*a, **k)[0], *args, **kwargs)

    monkeypatch.setattr(jobs, "DECIDE_AFTER", 0.01)  # a few batches here first: the rate to beat
    monkeypatch.setattr(jobs, "PROBE_SECONDS", 0.2)
    monkeypatch.setattr(jobs, "free_cores", lambda n, since=None: n)
    monkeypatch.setattr(jobs, "pool", lambda n: Busy(max_workers=n))
    batches = [(list(range(i * 10, i * 10 + 10)), 1000) for i in range(200)]
    found = list(jobs.in_order(batches, work, 2, None, lambda: 10**12))
    assert found == [i * 2 for i in range(2000)]
    assert "pool" in where and where[-1] == "here"  # given up: the last batches were checked here
    assert where.count("pool") < 40
