"""The suite's faults figures, measured by real processes (``faults_figures``), printed as one
line and held to: every failing command one clear line, no row lost to kill -9 and no lease left,
no call made twice by two processes and a failing key's attempts not doubled, no hostile reply
coerced into a verdict, no key in any file or output, a replay that changes nothing, a budget
that holds against overstated usage and is not cut short by concurrency, no paid batch result
lost to a damaged line, a notebook that writes only inside its own copy, two reproduce runs at
once that lose no table, a linear parser."""
from __future__ import annotations

import pytest

from faults_figures import figures


@pytest.mark.slow
def test_faults_figures(tmp_path, capsys):
    line, m = figures(tmp_path)
    with capsys.disabled():
        print(f"\nfaults: {line}")
    bad, kill, two, hostile = m["bad_inputs"], m["kill"], m["two_processes"], m["hostile"]
    assert bad["ok"] == bad["n"], bad["failures"]
    assert kill["kills"] >= 3 and kill["rows_lost"] == 0 and kill["rows_differ"] == 0
    assert kill["repeated_calls"] <= kill["in_flight_bound"]  # only calls in flight at a kill
    assert kill["leases_after"] == 0
    assert two["exits"] == [0, 0] and not two["errors"] and two["duplicates"] == 0
    assert two["calls"] == two["rows"] == two["expected_rows"] and not two["temp_files"]
    failing = m["failing_endpoint"]
    assert failing["exits"] == [0, 0]
    assert failing["requests"] == failing["keys"] * failing["attempts_per_key"]
    assert hostile["coerced"] == hostile["not_counted"] == 0
    assert hostile["exits"] == [0, 0, 0], hostile["errors"]
    keys = m["keys"]
    assert keys["key_sent"] and keys["echoed"] >= 3 and keys["leaked"] == 0
    replay = m["replay"]
    assert replay["exit"] == 2 and replay["files_changed"] == 0
    assert replay["store_lines"][0] == replay["store_lines"][1]
    full = m["full_disk"]
    if full["measured"]:  # a tmpfs could be mounted
        assert full["exits"] == [1, 1] and full["paid_twice"] == 0 and full["whole"]
        assert full["paid"] == full["stored"] > 0
        assert all(len(x) == 1 and "calls.jsonl" in x[0] for x in full["said"])
    damaged = m["damaged_reproduce"]
    assert damaged["exit"] == 2 and len(damaged["said"]) == 1 and damaged["names_call"]
    assert damaged["published"] == []
    budget = m["budget"]
    assert all(b["exit"] == 1 for b in budget.values())  # each stopped by the budget
    assert budget["c8"]["calls"] >= budget["c1"]["calls"] - 8
    assert budget["cached_2M"]["calls"] <= budget["c1"]["calls"] + 1  # not free: 200 before
    # zero usage (200 calls before) costs each call its reservation: never a call past honest
    assert 0 < budget["zero"]["calls"] <= budget["c1"]["calls"]
    assert 0 < budget["claude_zero"]["calls"] <= budget["claude"]["calls"]
    assert m["parser"]["worst_cpu_s"] <= 1.0
    assert all(b["unparsed"] for b in m["parser"]["big"].values())
    assert m["parser"]["big"]["10MB"]["cpu_s"] <= 0.2 and m["parser"]["big"]["10MB"]["peak_mb"] <= 100
    stop = m["sigint"]
    assert stop["before"] >= 10 and stop["after"] == 0 and stop["exit"] == 130
    assert len(stop["stderr"]) == 1 and not stop["staging"]
    for judge, b in m["batch_damaged"].items():  # 0 paid batch results lost to a damaged line
        assert b["exit"] == 0 and b["paid"] > 0 and b["lost"] == 0, (judge, b)
        assert b["kept"] == b["paid"] and b["damaged_kept_raw"] == b["sent"] - b["paid"]
    for how, c in m["notebook_copy"].items():  # writes only inside the copy it runs in
        assert c["exit"] == 0 and c["tables_in_copy"] == ["table_a9.csv", "table_a9.md"], how
        assert c["written_elsewhere"] == [], how
    both = m["concurrent_reproduce"]  # two at once: 0 tables lost, a refusal is one line
    assert both["tables_lost"] == 0 and not both["staging_left"] and not both["stale_left"]
    for code, said in zip(both["exits"], both["stderr"]):
        assert code == 0 or (code == 1 and len(said) == 1 and "another run" in said[0]), said
