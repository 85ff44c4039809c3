"""Checking many inputs at once: batches of inputs sent to worker processes started once.

The inputs (files, lines of JSON Lines) come in batches of up to ``BATCH_BYTES`` (or
``BATCH_ITEMS`` inputs); each batch is checked and rendered in a worker, forked from this
process on Linux (nothing to import again), and what it rendered comes back in one message.
At most ``IN_FLIGHT`` batches per worker are sent ahead, so memory is bounded by a few
batches, whatever the number of inputs; results are given in input order.

A pool costs its start (forking, the first messages) and every batch a round trip, so it
pays only when there is enough work, and cores to do it on. By default (``parallel=None``)
the first batches are checked here; once ``DECIDE_AFTER`` seconds have gone by, the work
left is estimated from the rate so far (``remaining``: bytes left, or None when unknown, as
on a stream), and the pool is started if that is at least ``PAYS_FROM`` seconds and at
least two cores are free (:func:`free_cores`: this process's, and those the system says
were idle meanwhile; on a machine other work keeps busy, more processes only share the
same cores, and the pool's cost is all that changes). Less work
is finished here, in the time the pool would take to start.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

Item = TypeVar("Item")
Result = TypeVar("Result")

BATCH_BYTES = 256_000
BATCH_ITEMS = 100
IN_FLIGHT = 2
DECIDE_AFTER = 0.1  # (long enough for the CPUs' idle time to say something: 10 ms ticks)
PAYS_FROM = 0.25


def batched(items: Iterable[tuple[Item, int]]) -> Iterator[tuple[list[Item], int]]:
    """``(item, bytes)`` pairs in batches of about ``BATCH_BYTES`` (at most ``BATCH_ITEMS``
    items, one item however large): ``(items, bytes)``."""
    batch: list[Item] = []
    size = 0
    for item, weight in items:
        batch.append(item)
        size += weight
        if size >= BATCH_BYTES or len(batch) >= BATCH_ITEMS:
            yield batch, size
            batch, size = [], 0
    if batch:
        yield batch, size


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def cpu_times() -> tuple[int, int] | None:
    """The time all CPUs have been idle and in all, in ticks (``/proc/stat``), or None where
    the system does not say."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            ticks = [int(part) for part in stat.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    return ticks[3] + ticks[4], sum(ticks)  # idle and iowait; user ... steal


def free_cores(jobs: int, since: tuple[int, int] | None = None) -> int:
    """How many of ``jobs`` processes would each find a core: this process's own, and those
    that were idle since ``since`` (:func:`cpu_times` then, while this process worked); where
    that is not known, the cores less the load of the last minute besides this process."""
    now = cpu_times()
    if since is not None and now is not None and now[1] > since[1]:
        idle = (now[0] - since[0]) / (now[1] - since[1]) * cores()
        return max(1, min(jobs, 1 + round(idle)))
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return jobs
    return max(1, min(jobs, round(cores() - max(0.0, load - 1))))


PR_SET_PDEATHSIG = 1
WATCH_PARENT_SECONDS = 0.5


def die_with_parent(parent: int) -> None:
    """In a worker, as it starts: end when the process that started it ends, however it ends
    (``kill PID``, ``subprocess.terminate()``, a crash), so that no worker lives on holding
    the output (``| cat`` would never end). On Linux the kernel sends SIGKILL
    (``prctl(PR_SET_PDEATHSIG)``); elsewhere a thread watches the parent. Ctrl-C is the
    parent's to handle (the whole process group gets it)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # it ended before the line above
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_PARENT_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="sourcecheck-parent", daemon=True).start()


class WorkerDied(Exception):
    """A worker process ended before it gave its results (killed, out of memory)."""


def pool(jobs: int) -> ProcessPoolExecutor:
    """``jobs`` worker processes that end with this one (:func:`die_with_parent`): forked
    where the platform can and this process has no other thread (forking a process with
    threads may deadlock), else started afresh. (multiprocessing is imported here, when a
    run needs it: 10 ms of every start else.)"""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    fork = "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("fork" if fork else "spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


PROBE_SECONDS = 0.5
"""How long a pool started by default runs before its rate is compared with the one here."""


class _Run(Generic[Item, Result]):
    """One :func:`in_order`: the batches checked here until a pool pays, then in the pool,
    which is given up (by default) if it proves no faster than checking here was."""

    def __init__(self, work: Callable[[list[Item]], list[Result]], jobs: int, parallel: bool | None) -> None:
        self.work = work
        self.jobs = jobs
        self.parallel = parallel
        self.executor: ProcessPoolExecutor | None = None
        self.pending: deque[tuple[Future[list[Result]], int]] = deque()
        self.local_bytes, self.local_seconds = 0, 0.0
        self.pool_bytes, self.pool_since = 0, 0.0
        self.given_up = False

    def here(self, batch: list[Item], size: int) -> list[Result]:
        began = time.perf_counter()
        results = self.work(batch)
        self.local_seconds += time.perf_counter() - began
        self.local_bytes += size
        return results

    def start(self, jobs: int) -> None:
        self.jobs = jobs
        self.executor = pool(jobs)
        self.pool_since = time.perf_counter()

    def taken(self) -> list[Result]:
        """The oldest batch's results from the pool."""
        from concurrent.futures.process import BrokenProcessPool

        future, size = self.pending.popleft()
        try:
            results = future.result()
        except BrokenProcessPool:
            raise WorkerDied() from None
        self.pool_bytes += size
        return results

    def slower(self) -> bool:
        """Whether the pool, started by default, has proved no faster than working here (a
        busy machine: more processes only share its cores): then it is given up."""
        if self.parallel is not None or self.local_seconds <= 0 or not self.local_bytes:
            return False
        running = time.perf_counter() - self.pool_since
        if running < PROBE_SECONDS or self.pool_bytes == 0:
            return False
        return self.pool_bytes / running < self.local_bytes / self.local_seconds

    def submit(self, batch: list[Item], size: int) -> Iterator[Result]:
        from concurrent.futures.process import BrokenProcessPool

        assert self.executor is not None
        try:
            self.pending.append((self.executor.submit(self.work, batch), size))
        except BrokenProcessPool:
            raise WorkerDied() from None
        if len(self.pending) >= self.jobs * IN_FLIGHT:
            yield from self.taken()
        if self.slower():
            while self.pending:
                yield from self.taken()
            self.stop()
            self.given_up = True

    def stop(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(cancel_futures=True)
            self.executor = None


def in_order(
    batches: Iterable[tuple[list[Item], int]],
    work: Callable[[list[Item]], list[Result]],
    jobs: int,
    parallel: bool | None,
    remaining: Callable[[], int | None],
) -> Generator[Result, None, None]:
    """``work`` of each batch, in order: here, or in ``jobs`` worker processes (``work``
    must then be picklable): when there is more than one batch (``parallel``), never (False,
    or one job), or when it pays (None, see the module's docstring; a pool that then checks
    no faster than this process did is given up, so that the default is never slower than
    ``--jobs 1`` but for the probe). One batch is read ahead: a last batch is never what
    starts the pool."""
    run: _Run[Item, Result] = _Run(work, jobs, parallel)
    decided = parallel is not None or jobs < 2
    began, idle_then = time.perf_counter(), cpu_times()
    ahead = iter(batches)
    following = next(ahead, None)
    try:
        while following is not None:
            (batch, size), following = following, next(ahead, None)
            if run.executor is None and not run.given_up and following is not None and jobs > 1:
                if parallel:
                    run.start(jobs)
                elif not decided and time.perf_counter() - began >= DECIDE_AFTER:
                    decided = True
                    left = remaining()
                    rate = (time.perf_counter() - began) / max(run.local_bytes, 1)
                    if left is None or (left + size + following[1]) * rate >= PAYS_FROM:
                        free = free_cores(jobs, idle_then)
                        if free > 1:
                            run.start(free)
            if run.executor is None:
                yield from run.here(batch, size)
                continue
            yield from run.submit(batch, size)
        while run.pending:
            yield from run.taken()
    finally:
        run.stop()


__all__ = ["BATCH_BYTES", "WorkerDied", "batched", "die_with_parent", "in_order", "pool"]
