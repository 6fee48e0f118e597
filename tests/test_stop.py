"""Stop means stop: SIGINT or SIGTERM on ``reproduce`` kills the running notebook's kernel at
once (it runs in its own session, so Ctrl-C never reached it), makes no further judge call,
keeps every call made in the store, publishes nothing and says so in one line."""
from __future__ import annotations

import signal

import pytest

from faults_figures import stop_signal


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_on_reproduce_stops_the_spending_kernel_at_once(tmp_path, signum):
    got = stop_signal(tmp_path, signum)
    assert got["before"] >= 10
    assert got["after"] == 0, got  # no request after the signal: the kernel is gone
    assert got["exit"] == 128 + signum
    name = signal.Signals(signum).name
    assert len(got["stderr"]) == 1 and got["stderr"][0].startswith(f"error: stopped by {name}")
    assert "Traceback" not in "".join(got["stderr"] + got["stdout"])
    assert got["stored"] >= got["before"] - 8  # the calls answered are stored
    assert not [p for p in got["published"] if p not in ("notebooks",)], got["published"]
    assert not got["staging"]
