"""Power of the exact McNemar contrast: monotone in n, tiny n for huge effects, alpha at none."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tjb_lib.analysis import power

stats = pytest.importorskip("tjb_lib.analysis.stats")


def test_cells_reproduce_the_marginal_rates_and_discordance():
    cells = power.cell_probabilities(0.9, 0.4, discordance=0.6)
    p11, p10, p01, p00 = cells
    assert cells.sum() == pytest.approx(1.0)
    assert p11 + p10 == pytest.approx(0.9) and p11 + p01 == pytest.approx(0.4)
    assert p10 + p01 == pytest.approx(0.6)
    assert power.cell_probabilities(0.9, 0.4)[2] == 0.0  # minimal discordance: one-way moves
    with pytest.raises(ValueError, match="discordance"):
        power.cell_probabilities(0.9, 0.4, discordance=0.3)
    with pytest.raises(ValueError, match="p_after"):
        power.cell_probabilities(0.9, 1.4)


def test_vectorised_mcnemar_matches_the_stats_module():
    b = np.array([0, 0, 3, 10, 7, 25, 1])
    c = np.array([0, 5, 3, 0, 12, 20, 40])
    expected = [stats.mcnemar_exact(int(x), int(y)) for x, y in zip(b, c)]
    assert power.mcnemar_p(b, c) == pytest.approx(expected)


def test_power_grows_with_the_number_of_pairs():
    grid = [5, 10, 20, 40, 80, 160, 320]
    curve = power.power_curve(0.5, 0.4, grid, discordance=0.3, n_sim=1000, seed=1)
    assert list(curve["n_pairs"]) == grid and list(curve["n_comparisons"]) == [2 * n for n in grid]
    pw = curve["power"].to_numpy()
    assert np.all(np.diff(pw) >= -0.03)  # allow Monte Carlo noise and the exact test's saw-tooth
    assert pw[0] < 0.2 and pw[-1] > 0.9
    assert (curve["power_low"] <= curve["power"]).all()
    assert (curve["power"] <= curve["power_high"]).all()


def test_more_churn_and_clustered_orders_cost_power():
    base = power.power_curve(0.5, 0.4, [60], discordance=0.15, n_sim=1000)["power"].item()
    churn = power.power_curve(0.5, 0.4, [60], discordance=0.5, n_sim=1000)["power"].item()
    clustered = power.power_curve(0.5, 0.4, [60], discordance=0.15, order_agreement=1.0,
                                  n_sim=1000)["power"].item()
    assert churn < base and clustered < base


def test_huge_effect_needs_few_pairs_and_zero_effect_holds_alpha():
    n = power.pairs_needed(0.98, 0.05, power=0.8, n_sim=500)
    assert 2 <= n <= 6
    # the paper's own scale: 200 ordered comparisons detect an 89-point drop trivially
    assert power.power_curve(0.9, 0.01, [100], n_sim=200)["power"].item() == 1.0
    null = power.power_curve(0.5, 0.5, [200], discordance=0.3, n_sim=2000, seed=3)
    assert 0.01 < null["power"].item() <= 0.07  # exact McNemar is at most alpha, up to MC error
    with pytest.raises(ValueError, match="no effect"):
        power.pairs_needed(0.5, 0.5)


def test_unpaired_design_needs_more_pairs_than_paired():
    paired = power.pairs_needed(0.6, 0.4, n_sim=400, seed=2)
    unpaired = power.pairs_needed(0.6, 0.4, n_sim=400, seed=2, paired=False)
    assert paired < unpaired


def test_seeded_runs_repeat_and_points_do_not_depend_on_the_grid():
    a = power.power_curve(0.6, 0.45, [30, 60], discordance=0.25, n_sim=300, seed=9)
    b = power.power_curve(0.6, 0.45, [60], discordance=0.25, n_sim=300, seed=9)
    assert a["power"].iloc[1] == b["power"].iloc[0]
    c = power.power_curve(0.6, 0.45, [30, 60], discordance=0.25, n_sim=300, seed=9)
    assert a.equals(c)


def test_contrast_churn_separates_the_drop_from_extra_flips():
    contrast = pd.DataFrame({"n": [100], "b_only": [30], "c_only": [5],
                             "rate_a": [80.0], "rate_b": [55.0]})
    got = power.contrast_churn(contrast).iloc[0]
    assert got["drop"] == pytest.approx(0.25) and got["discordance"] == pytest.approx(0.35)
    assert got["extra_churn"] == pytest.approx(0.10)


def test_power_plan_needs_more_pairs_for_smaller_drops_and_more_churn():
    plan = power.power_plan(0.9, [0.1, 0.3, 0.95], extra_churn=0.1, n_sim=300, seed=1)
    assert set(plan["drop_points"].round(6)) == {10.0, 30.0}  # 0.95 would go below zero
    one_way = plan[plan["scenario"] == "one-way"].set_index("drop_points")["pairs_needed"]
    churn = plan[plan["scenario"] == "observed churn"].set_index("drop_points")["pairs_needed"]
    assert one_way[10.0] > one_way[30.0]
    assert (churn >= one_way).all()
