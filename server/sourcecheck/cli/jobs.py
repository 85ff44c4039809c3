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
from typing import TYPE_CHECKING, TypeVar

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


def in_order(
    batches: Iterable[tuple[list[Item], int]],
    work: Callable[[list[Item]], list[Result]],
    jobs: int,
    parallel: bool | None,
    remaining: Callable[[], int | None],
) -> Generator[Result, None, None]:
    """``work`` of each batch, in order: here, or in ``jobs`` worker processes (``work``
    must then be picklable): when there is more than one batch (``parallel``), never (False,
    or one job), or when it pays (None, see the module's docstring). One batch is read ahead:
    a last batch is never what starts the pool."""
    from concurrent.futures.process import BrokenProcessPool

    executor: ProcessPoolExecutor | None = None
    decided = parallel is not None or jobs < 2
    began, idle_then = time.perf_counter(), cpu_times()
    done = 0
    pending: deque[Future[list[Result]]] = deque()
    ahead = iter(batches)
    following = next(ahead, None)
    try:
        while following is not None:
            (batch, size), following = following, next(ahead, None)
            if executor is None and following is not None and jobs > 1:
                if parallel:
                    executor = pool(jobs)
                elif not decided and time.perf_counter() - began >= DECIDE_AFTER:
                    decided = True
                    left = remaining()
                    rate = (time.perf_counter() - began) / max(done, 1)
                    if left is None or (left + size + following[1]) * rate >= PAYS_FROM:
                        free = free_cores(jobs, idle_then)
                        if free > 1:
                            jobs = free
                            executor = pool(jobs)
            if executor is None:
                yield from work(batch)
                done += size
                continue
            try:
                pending.append(executor.submit(work, batch))
                if len(pending) >= jobs * IN_FLIGHT:
                    yield from pending.popleft().result()
            except BrokenProcessPool:
                raise WorkerDied() from None
        try:
            while pending:
                yield from pending.popleft().result()
        except BrokenProcessPool:
            raise WorkerDied() from None
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)


__all__ = ["BATCH_BYTES", "WorkerDied", "batched", "die_with_parent", "in_order", "pool"]
