"""The suite's faults figures, measured by real judge processes (``faults_figures``), printed
as one line and held to: every bad input one clear line, no row lost to kill -9, no call made
twice by two processes, no hostile reply coerced into a verdict."""
from __future__ import annotations

import pytest

from faults_figures import figures


@pytest.mark.slow
def test_faults_figures_bad_inputs_kills_two_processes_hostile_replies(tmp_path, capsys):
    line, m = figures(tmp_path)
    with capsys.disabled():
        print(f"\nfaults: {line}")
    bad, kill, two, hostile = m["bad_inputs"], m["kill"], m["two_processes"], m["hostile"]
    assert bad["ok"] == bad["n"], bad["failures"]
    assert kill["kills"] >= 3 and kill["rows_lost"] == 0 and kill["rows_differ"] == 0
    assert kill["repeated_calls"] <= kill["in_flight_bound"]  # only calls in flight at a kill
    assert two["exits"] == [0, 0] and not two["errors"] and two["duplicates"] == 0
    assert two["calls"] == two["rows"] == two["expected_rows"] and not two["temp_files"]
    assert hostile["coerced"] == hostile["not_counted"] == 0
    assert hostile["exits"] == [0, 0, 0], hostile["errors"]
