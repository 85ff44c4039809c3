"""The server process's policy for memory and threads, in one place.

- glibc's malloc keeps large freed blocks instead of unmapping them (each edit of a big
  session makes a new text; mapping fresh pages cost twice the copy itself);
- the interpreter switches threads every 0.2 ms, so that the thread serving requests gets
  it back quickly while a full analysis runs in the worker thread;
- the cycle collector is off while an analysis (or its diagnostics) is being built, in any
  thread, and back on only when no thread is building; what was built is then frozen out of
  the collector's sight (``gc.freeze``): a big session is millions of objects that hold no
  reference cycles (a test checks) and would otherwise be scanned again and again. Reference
  counting still frees them. Every :data:`FULL_COLLECTION_EVERY` freezes a full collection is
  due, for cyclic garbage frozen by chance; it runs when the editor has been idle for
  :data:`IDLE_SECONDS`, never in the middle of a keystroke.

The command line tool has its own, simpler policy (the collector off for the whole run).
"""

from __future__ import annotations

import ctypes
import gc
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

FULL_COLLECTION_EVERY = 1000
"""Freezes between two full collections (each takes ~0.3 s while a 12 MB file is open)."""
IDLE_SECONDS = 2.0
"""How long without a message from the editor before a due full collection runs."""
SWITCH_INTERVAL = 0.0002


class Collector:
    """The cycle collector's state, shared by the event loop and the worker thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._building = 0
        self.freezes = 0
        self.due = False
        self.collections = 0
        self.last_activity = time.monotonic()

    @contextmanager
    def building(self) -> Iterator[None]:
        """Build something long-lived (an analysis, its diagnostics) with the collector off;
        freeze it afterwards. Safe when both threads build at once."""
        with self._lock:
            self._building += 1
            gc.disable()
        try:
            yield
        finally:
            with self._lock:
                self._building -= 1
                gc.freeze()
                self.freezes += 1
                if self.freezes % FULL_COLLECTION_EVERY == 0:
                    self.due = True
                if self._building == 0:
                    gc.enable()

    def touch(self) -> None:
        """The editor sent something: it is not idle."""
        self.last_activity = time.monotonic()

    def idle(self) -> bool:
        return time.monotonic() - self.last_activity >= IDLE_SECONDS

    def collect_if_due(self) -> bool:
        """Run the due full collection, if nothing is being built; True if it ran."""
        with self._lock:
            if not self.due or self._building:
                return False
            self.due = False
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.collections += 1
            return True


COLLECTOR = Collector()


def keep_large_blocks() -> None:
    """Let glibc's malloc reuse freed large blocks instead of returning them to the system
    (by default every block over 32 MB is mapped afresh and unmapped on free). A no-op
    where there is no glibc."""
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    mallopt(m_mmap_threshold, 1 << 30)
    mallopt(m_trim_threshold, 1 << 30)


def configure_process() -> None:
    """Apply the process-wide settings (called once, when the server starts)."""
    if sys.platform == "linux":
        keep_large_blocks()
    sys.setswitchinterval(SWITCH_INTERVAL)
