"""The server's process policy: the cycle collector off while anything is built, in any
thread, and a due full collection only when the editor is idle."""

import gc
import threading
import weakref
from unittest.mock import patch

from sourcecheck.lsp import runtime
from sourcecheck.lsp.runtime import Collector


class Cycle:
    me: object = None


def test_the_collector_stays_off_until_every_thread_is_done_building():
    collector = Collector()
    first_in, second_done, first_may_finish = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []

    def first() -> None:
        with collector.building():
            first_in.set()
            first_may_finish.wait(5)

    thread = threading.Thread(target=first)
    thread.start()
    first_in.wait(5)
    with collector.building():
        pass
    second_done.set()
    seen.append(gc.isenabled())  # the other thread is still building: still off
    first_may_finish.set()
    thread.join(5)
    seen.append(gc.isenabled())
    assert seen == [False, True]
    gc.unfreeze()


def test_a_due_full_collection_waits_for_idle_and_frees_frozen_cyclic_garbage():
    collector = Collector()
    with patch.object(runtime, "FULL_COLLECTION_EVERY", 2):
        gc.collect()
        with collector.building():
            garbage = Cycle()
            garbage.me = garbage  # a cycle, frozen while alive
        alive = weakref.ref(garbage)
        del garbage
        gc.collect()
        assert alive() is not None  # frozen: out of the collector's sight
        assert not collector.due
        with collector.building():
            pass
        assert collector.due and alive() is not None  # due, but not run in the middle of work
        collector.touch()
        with patch.object(runtime, "IDLE_SECONDS", 3600):
            assert not collector.idle()
        assert collector.collect_if_due()
        assert alive() is None and not collector.due
    gc.unfreeze()


def test_no_full_collection_while_something_is_being_built():
    collector = Collector()
    collector.due = True
    with collector.building():
        assert not collector.collect_if_due()
    assert collector.collect_if_due()
    gc.unfreeze()
