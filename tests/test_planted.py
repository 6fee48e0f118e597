"""Planted-effect recovery: the simulated judge draws verdicts at planted rates (with a position
bias and unparsed replies if asked), and every table recovers the planted values within its
intervals; a metric with cited and plain (or better and worse) exchanged misses them."""
from __future__ import annotations

import os
import subprocess
import sys
import pandas as pd
import pytest

from tjb_lib.paper import compare, floats
from tjb_lib.analysis import metrics
from tjb_lib import paths
from tjb_lib.run import sample
from tjb_lib.judges.base import FatalJudgeError
from tjb_lib.judges.catalog import get_judge
from tjb_lib.judges.simulated import (POSITION_BIAS_ENV, RATES_ENV, UNPARSED_ENV, Planted,
                                      default_rates, read_rates)

from _planted import recovery, with_expected

#: floats whose runs the in-process check draws (ablations, the moderate ladder, TRACE on the
#: conflicts, the position-only controls)
FAST = ("table_a10", "table_a11", "table_a15", "table_a16")


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> pd.DataFrame:
    """The runs of :data:`FAST`, judged once by the simulated judge (10% of replies unparsed,
    a fifth of calls answering slot A whatever the rates), with each row's planted values."""
    root = tmp_path_factory.mktemp("simulated")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TJB_ROOT", str(root))
        mp.setenv(UNPARSED_ENV, "0.1")
        mp.setenv(POSITION_BIAS_ENV, "0.2")
        mp.delenv(RATES_ENV, raising=False)
        rows = sample.run_jobs(sample.jobs(list(FAST)), "simulated", progress=False,
                               raw_outputs=root / "raw")
    return with_expected(rows)


def _tables(rows: pd.DataFrame, names=FAST) -> dict[str, pd.DataFrame]:
    return {n: compare.compare_float(n, rows, "simulated", seed=0) for n in names}


def test_planted_rates_come_back_within_the_intervals(drawn):
    rows = drawn
    assert (rows["decision"] == "unparsed").any()        # planted unparsed replies, kept apart
    r = recovery(_tables(rows), rows)
    assert set(r["table"]) == set(FAST) and len(r) >= 40
    assert r["covered"].mean() >= 0.9, r.loc[~r["covered"]].to_string()
    # the unparsed share beside every rate recovers its planted 10%: pooled, and in most cells
    pooled = metrics.decision_rates(rows, ()).iloc[0]
    assert pooled["unparsed_low"] <= 10 <= pooled["unparsed_high"]
    # a reply's fate is drawn per request: identical candidates (position_control) make both
    # orders one request, which an interval over the cell's comparisons would count twice
    calls = rows.assign(request=rows["request_hashes"].astype(str)).drop_duplicates(
        ["split", "protocol", "level", "request"])
    assert len(calls) < len(rows)
    share = metrics.decision_rates(calls, ("split", "protocol", "level"))
    inside = (share["unparsed_low"] <= 10) & (10 <= share["unparsed_high"])
    assert inside.mean() >= 0.75, share.to_string()
    # the position bias is planted: a fifth of calls answer slot A on identical candidates
    a16 = r.loc[(r["table"] == "table_a16") & (r["metric"] == "first_position_win")]
    assert len(a16) == 2 and (a16["planted"] > 20).all()


def _exchanged(function, a: str, b: str):
    """``function`` with verdicts ``a`` and ``b`` exchanged inside it (a mutated metric)."""
    def mutated(df, *args, **kwargs):
        return function(df.assign(decision=df["decision"].replace({a: b, b: a})), *args, **kwargs)
    return mutated


@pytest.mark.parametrize("metric, table", [
    ("equivalence_table", "table_a10"),   # cited <-> plain in W_cited, W_plain, Δcitation
    ("graded_table", "table_a11"),        # better-plain <-> worse-cited in the ladder
    ("correctness_table", "table_a15"),   # the correct side <-> the wrong one
])
def test_a_metric_with_cited_and_plain_exchanged_misses_the_planted_values(
        drawn, monkeypatch, metric, table):
    rows = drawn
    assert recovery(_tables(rows, (table,)), rows)["covered"].mean() >= 0.9
    monkeypatch.setattr(metrics, metric, _exchanged(getattr(metrics, metric), "cited", "plain"))
    missed = recovery(_tables(rows, (table,)), rows)
    moved = missed[missed["metric"] != "tie"]   # a Tie rate is the same with the sides exchanged
    assert len(moved) and moved["covered"].mean() < 0.5, missed.to_string()


def test_the_simulated_judge_never_writes_into_this_checkout(monkeypatch):
    monkeypatch.delenv("TJB_ROOT", raising=False)
    with pytest.raises(FatalJudgeError, match="TJB_ROOT"):
        get_judge("simulated").check_ready()


def test_planted_rates_from_a_table_a_user_gives(tmp_path):
    rates = default_rates()
    path = tmp_path / "rates.csv"
    rates.to_csv(path, index=False)
    back = read_rates(path)
    assert Planted(back).digest() == Planted(rates).digest()
    p = Planted(back, position_bias=0.5)
    assert p.slot_probabilities("moderate_hotpotqa", "plain", "ladder", "L0", "plain_first") \
        == pytest.approx({"A": 0.5 + 0.5 * 0.85, "B": 0.5 * 0.05, "Tie": 0.5 * 0.10})
    bad = rates.assign(tie=rates["tie"] + 0.5)
    bad.to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"rates.csv row 2: .*add to 1"):
        read_rates(path)


@pytest.mark.slow
def test_every_notebook_runs_on_the_simulated_judge_and_recovers_what_was_planted(tmp_path):
    """The whole set of notebooks, judged by the simulated judge in a temporary root (the
    checkout's data and notebooks linked in, its outputs untouched)."""
    root = tmp_path / "root"
    root.mkdir()
    for name in ("data", "notebooks"):
        (root / name).symlink_to(paths.CHECKOUT / name)
    env = {**os.environ, "TJB_ROOT": str(root), "PYTHONPATH": paths.python_path(),
           POSITION_BIAS_ENV: "0.2", UNPARSED_ENV: "0.05"}
    env.pop(RATES_ENV, None)
    done = subprocess.run([sys.executable, "-m", "tjb_lib", "reproduce", "--judge", "simulated"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert not (paths.OUTPUTS / "judges" / "simulated").exists()
    assert not (paths.RAW_OUTPUTS / "simulated").exists()
    out = root / "outputs" / "judges" / "simulated"
    written = [n for n, f in floats.FLOATS.items() if f.comparison is not None
               and n not in ("table_1", "table_2")]  # splits and human labels: no verdicts
    for name, f in floats.FLOATS.items():
        assert (out / "tables" / f"{name}.csv").exists(), name
        if f.figure is not None:
            assert (out / "figures" / f"{name}.png").exists(), name
    raw = root / "outputs" / "raw_outputs" / "simulated"
    rows = pd.concat([pd.read_json(p, lines=True) for p in sorted(raw.glob("*.jsonl"))
                      if p.name != "calls.jsonl"], ignore_index=True)
    rows = with_expected(rows.drop_duplicates(["pair_id", "order", "protocol", "level",
                                               "paraphrase"]))
    r = recovery({n: pd.read_csv(out / "tables" / f"{n}.csv") for n in written}, rows)
    assert len(r) >= 100 and set(r["table"]) >= {"table_a9", "table_a11", "figure_3"}
    assert r["covered"].mean() >= 0.9, r.loc[~r["covered"]].to_string()
    # a table is held to its planted values where its intervals can tell (narrower than 50
    # points, at least 3 cells): the default TRACE sample is 2 pairs per split, whose 4 verdicts
    # cover or miss a planted 82% by the luck of the draw
    told = r[(r["high"] - r["low"]) < 50]
    per_table = told.groupby("table")["covered"].agg(["mean", "size"])
    per_table = per_table[per_table["size"] >= 3]
    assert len(per_table) >= 10 and (per_table["mean"] >= 0.6).all(), per_table.to_string()
