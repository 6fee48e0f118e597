"""Threads per forward pass: a pass's share of the cores other processes leave free."""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tjb_lib.judges.cpu_share import CoreShare, own_runnable, runnable_elsewhere


def fake_proc(tmp_path: Path, running: int, own_states: str) -> Path:
    """A /proc with ``running`` runnable threads machine-wide, this process's in ``own_states``."""
    proc = tmp_path / f"proc-{running}-{own_states}"
    (proc / "self" / "task").mkdir(parents=True)
    (proc / "stat").write_text(f"cpu  1 2 3 4\nprocs_running {running}\nprocs_blocked 0\n")
    for k, state in enumerate(own_states):
        (proc / "self" / "task" / str(100 + k)).mkdir()
        # a command with spaces and parentheses, as /proc may show it
        (proc / "self" / "task" / str(100 + k) / "stat").write_text(
            f"{100 + k} (py (thread) {k}) {state} 1 2 3\n")
    return proc


def test_other_processes_runnable_threads_are_the_machines_less_this_ones(tmp_path):
    proc = fake_proc(tmp_path, running=5, own_states="RRSS")
    assert own_runnable(proc) == 2 and runnable_elsewhere(proc) == 3
    assert runnable_elsewhere(fake_proc(tmp_path, running=1, own_states="RR")) == 0
    assert runnable_elsewhere(tmp_path / "no-proc") == 0  # not Linux: every core counts as free


@pytest.mark.skipif(not Path("/proc/stat").is_file(), reason="Linux's /proc")
def test_on_linux_the_calling_thread_counts_as_this_processs_own():
    assert own_runnable() >= 1 and runnable_elsewhere() >= 0


def test_a_pass_alone_on_an_idle_machine_takes_every_core_and_passes_side_by_side_share(tmp_path):
    share = CoreShare(cores=4, proc=fake_proc(tmp_path, running=1, own_states="R"), window=0)
    with share.one_pass() as first:
        assert first == 4 and share.in_flight == 1
        with share.one_pass() as second:
            assert second == 2 and share.in_flight == 2
            assert share.threads(3) == 1 and share.threads(8) == 1  # never below one thread
    assert share.in_flight == 0


def test_cores_other_processes_keep_busy_are_left_to_them(tmp_path):
    busy_one = CoreShare(cores=2, proc=fake_proc(tmp_path, running=2, own_states="R"))
    assert busy_one.threads(1) == 1
    busy_all = CoreShare(cores=2, proc=fake_proc(tmp_path, running=9, own_states="R"))
    assert busy_all.threads(1) == 1


def test_a_fixed_count_ignores_the_load(tmp_path):
    share = CoreShare(cores=2, fixed=3, proc=fake_proc(tmp_path, running=9, own_states="R"))
    with share.one_pass() as n:
        assert n == 3


def test_passes_in_flight_are_counted_across_threads_and_after_an_error(tmp_path):
    share = CoreShare(cores=2, proc=fake_proc(tmp_path, running=1, own_states="R"))
    inside, release, seen = threading.Barrier(3), threading.Event(), []

    def one():
        with share.one_pass() as n:
            seen.append(n)
            inside.wait()
            release.wait()

    workers = [threading.Thread(target=one) for _ in range(2)]
    for w in workers:
        w.start()
    inside.wait()
    assert share.in_flight == 2
    release.set()
    for w in workers:
        w.join()
    assert share.in_flight == 0 and sorted(seen)[0] == 1  # the second to start got its share
    with pytest.raises(RuntimeError):
        with share.one_pass():
            raise RuntimeError("a failed pass")
    assert share.in_flight == 0


def test_a_pass_in_the_gap_between_a_neighbours_passes_keeps_its_share(tmp_path):
    share = CoreShare(cores=2, proc=fake_proc(tmp_path, running=1, own_states="R"), window=60)
    with share.one_pass() as alone:
        with share.one_pass() as beside:
            assert (alone, beside) == (2, 1)
    with share.one_pass() as in_the_gap:  # the neighbour is between two of its passes
        assert in_the_gap == 1
    share.window = 0  # once nothing ran beside it for a window, a pass takes every core again
    with share.one_pass() as later:
        assert later == 2
