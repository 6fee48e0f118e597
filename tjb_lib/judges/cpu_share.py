"""How many threads one forward pass of a local judge gets on CPU: its share of the free cores.

One pass in flight on an idle machine takes every core (a verdict at a time, the way a person
tries the judge, is then as fast as the cores allow); several passes in flight split the cores
between them; cores that other processes keep busy are left to them. The last matters most: a
pass split over threads waits at every operator for its slowest thread, so a thread that shares
its core with another process makes the whole pass several times slower (README, performance).
Other processes' load is read at each pass's start from Linux's count of runnable threads
(``/proc/stat``), less this process's own; without it (not Linux) every core counts as free.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from tjb_lib.judges.local_lazy import usable_cores

PROC = Path("/proc")


def runnable_elsewhere(proc: Path | None = None, samples: int = 3) -> int:
    """Threads of other processes runnable now: the most of ``samples`` readings a millisecond
    apart, since a shared machine's other jobs run in bursts (0 where Linux's counts are not
    readable)."""
    proc = Path(proc or PROC)
    most = 0
    for k in range(samples):
        if k:
            time.sleep(0.001)
        try:
            stat = (proc / "stat").read_text()
        except OSError:
            return 0
        running = next((int(line.split()[1]) for line in stat.splitlines()
                        if line.startswith("procs_running ")), 0)
        most = max(most, running - own_runnable(proc))
    return most


def own_runnable(proc: Path | None = None) -> int:
    """Threads of this process that are runnable right now (state R)."""
    own = 0
    for task in (Path(proc or PROC) / "self" / "task").glob("*/stat"):
        try:
            text = task.read_text()
        except OSError:  # the thread ended meanwhile
            continue
        own += text[text.rfind(")") + 2:][:1] == "R"  # the state follows the command's ")"
    return own


class CoreShare:
    """Threads per forward pass: a fixed count, or (``fixed=None``) the pass's share of the cores
    other processes leave free, split among the passes this judge has in flight.

    Passes in flight counts the most seen within ``window`` seconds, not only this instant: two
    requests driven side by side leave a gap between one's passes, and a pass that started in
    that gap on every core would crowd its neighbour for the whole of its run."""

    def __init__(self, cores: int | None = None, fixed: int | None = None, proc: Path | None = None,
                 window: float = 2.0):
        self.cores = cores or usable_cores()
        self.fixed = fixed
        self.proc = proc
        self.window = window
        self.in_flight = 0
        self._peak, self._peak_at = 0, float("-inf")
        self._lock = threading.Lock()

    def threads(self, in_flight: int) -> int:
        if self.fixed:
            return self.fixed
        free = self.cores - runnable_elsewhere(self.proc)
        return max(1, min(self.cores, free) // max(1, in_flight))

    @contextmanager
    def one_pass(self) -> Iterator[int]:
        """Count a pass in flight while it runs; yields the threads it may use."""
        with self._lock:
            self.in_flight += 1
            now = time.monotonic()
            if self.in_flight >= self._peak or now - self._peak_at > self.window:
                self._peak, self._peak_at = self.in_flight, now
            n = self._peak
        try:
            yield self.threads(n)
        finally:
            with self._lock:
                self.in_flight -= 1
