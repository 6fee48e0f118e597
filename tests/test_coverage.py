"""Coverage of the 95% intervals on simulated verdict rows: the shipped table is what the command
computes (its first seeds recomputed here), every kind is measured at both sizes, and a kind
below 93% has a covering alternative beside it or says that neither covers."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tjb_lib.run import coverage
from tjb_lib.analysis import stats


@pytest.fixture(scope="module")
def shipped() -> pd.DataFrame:
    assert coverage.COVERAGE_CSV.exists(), "run `python -m tjb_lib coverage`"
    return pd.read_csv(coverage.COVERAGE_CSV)


def test_every_interval_kind_is_measured_at_both_sizes_over_200_seeds(shipped):
    assert set(shipped["interval"]) == {stats.WILSON, stats.PAIR_LEVEL, stats.PAIR_BY_ORDER}
    assert set(shipped["scenario"]) == {s.name for s in coverage.SCENARIOS}
    assert (shipped.groupby("scenario")["scale"].apply(set) == {"default", "paper"}).all()
    assert (shipped["seeds"] == coverage.N_SEEDS).all() and coverage.N_SEEDS == 200
    assert (shipped.loc[shipped["scale"] == "paper", "pairs"]
            > shipped.loc[shipped["scale"] == "default", "pairs"].to_numpy()).all()


def test_below_93_percent_the_table_names_what_to_trust(shipped):
    for r in shipped.itertuples():
        assert r.trust == coverage._trust(r.coverage, r.alt_coverage, r.alternative)
        if r.coverage < coverage.TRUSTED:
            assert r.trust != "the paper's interval"
    # at the paper's size the paper's intervals cover close to 95% where counts are not tiny
    paper = shipped[(shipped["scale"] == "paper")]
    assert paper["coverage"].min() >= 0.85


def test_the_command_reproduces_the_first_seeds_of_the_shipped_table(shipped):
    n = int(shipped["check_seeds"].iloc[0])
    again = coverage.coverage_table(n_seeds=n, check_seeds=n)
    merged = shipped.merge(again, on=["scenario", "scale"], suffixes=("", "_again"))
    assert len(merged) == len(shipped)
    assert (merged["check_covered"] == merged["check_covered_again"]).all()
    assert (merged["check_alt_covered"] == merged["check_alt_covered_again"]).all()


def test_agresti_min_never_collapses_to_a_point():
    low, high = stats.agresti_min(0, 0, 30)
    assert low < 0 < high and high - low > 0.05
    assert stats.agresti_min(30, 0, 30)[1] == 1.0
    # (b - c) / n inside its interval, which narrows as n grows
    lo, hi = stats.agresti_min(12, 3, 100)
    lo2, hi2 = stats.agresti_min(120, 30, 1000)
    assert lo < 0.09 < hi and hi2 - lo2 < hi - lo
    assert np.isnan(stats.agresti_min(0, 0, 0)[0])
    with pytest.raises(ValueError):
        stats.agresti_min(5, 6, 10)
