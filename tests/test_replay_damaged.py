"""A replay publishes only what it can stand behind: ``reproduce --replay-only`` on a store with
a damaged line exits 2 naming the file and the call, before any notebook runs, and publishes
nothing (it once exited 0 with ``n_without_rationale`` 150 -> 120 and four L3 cells blank)."""
from __future__ import annotations

from faults_figures import damaged_reproduce


def test_a_damaged_store_line_stops_a_replay_naming_the_call(tmp_path):
    got = damaged_reproduce(tmp_path)
    assert got["exit"] == 2 and got["names_call"], got
    assert len(got["said"]) == 1 and got["said"][0].startswith("error: ")
    assert "calls.jsonl" in got["said"][0] and got["published"] == []
