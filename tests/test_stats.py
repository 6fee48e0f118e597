"""tjb_lib.analysis.stats against published worked examples, plus properties where no reference exists."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats as sps

from tjb_lib.analysis import stats

# --------------------------------------------------------------------------- Wilson


@pytest.mark.parametrize("k, n, low, high", [
    (81, 263, 0.2553, 0.3662),  # Newcombe (1998), Table I, method 3
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
])
def test_wilson_matches_newcombe_1998(k, n, low, high):
    lo, hi = stats.wilson(k, n)
    assert round(lo, 4) == low and round(hi, 4) == high


def test_wilson_with_no_trials_is_nan():
    assert all(math.isnan(v) for v in stats.wilson(0, 0))


def test_wilson_rejects_impossible_counts():
    with pytest.raises(ValueError, match="0 <= k <= n"):
        stats.wilson(5, 3)
    with pytest.raises(ValueError, match="whole numbers"):
        stats.wilson(1.5, 3)


def test_vectorised_wilson_equals_scipy_wilson_everywhere():
    ks, ns = [], []
    for n in (1, 2, 7, 20, 200, 1200):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            ks.append(k), ns.append(n)
    low, high = stats.wilson_many(ks, ns)
    for k, n, lo, hi in zip(ks, ns, low, high):
        ref = stats.wilson(k, n)
        assert lo == pytest.approx(ref[0], abs=1e-12) and hi == pytest.approx(ref[1], abs=1e-12)
    low0, high0 = stats.wilson_many([0], [0])
    assert np.isnan(low0[0]) and np.isnan(high0[0])


# --------------------------------------------------------------------------- McNemar


def test_mcnemar_exact_on_agresti_presidential_approval_table():
    # R's mcnemar.test example (Agresti 1990): 794, 86 / 150, 570; discordant 86 and 150.
    p = stats.mcnemar_exact(86, 150)
    assert p == pytest.approx(sps.binomtest(86, 236, 0.5).pvalue, rel=1e-12)
    assert p < 1e-4
    assert stats.mcnemar_exact(150, 86) == p


def test_mcnemar_exact_small_cases_by_hand():
    assert stats.mcnemar_exact(0, 5) == pytest.approx(2 / 32)          # 2 * 0.5**5
    assert stats.mcnemar_exact(1, 9) == pytest.approx(2 * 11 / 1024)   # 2 * (1 + 10) / 2**10
    assert stats.mcnemar_exact(4, 4) == 1.0


def test_mcnemar_without_discordant_units_is_one_by_convention():
    assert stats.mcnemar_exact(0, 0) == 1.0


# --------------------------------------------------------------------------- agreement

# irrCAC's cont3x3abstractors (Gwet, Handbook of Inter-Rater Reliability, 4th ed.), with the
# values printed in the irrCAC documentation.
ABSTRACTORS = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]


def test_gwet_ac1_matches_handbook_example():
    r = stats.gwet_ac1(ABSTRACTORS)
    assert r["coefficient"] == pytest.approx(0.8493305, abs=5e-8)
    assert r["se"] == pytest.approx(0.04321747, abs=5e-9)
    assert (round(r["low"], 5), round(r["high"], 5)) == (0.76358, 0.93508)
    assert round(r["pa"], 5) == 0.89 and round(r["pe"], 5) == 0.26992


def test_kappa_pabak_and_raw_agreement_match_handbook_example():
    assert stats.cohen_kappa(ABSTRACTORS) == pytest.approx(0.7964094, abs=5e-8)
    assert stats.raw_agreement(ABSTRACTORS) == pytest.approx(0.89)
    # q-category PABAK is Brennan-Prediger's coefficient, printed as 0.835 for this table.
    assert stats.pabak(ABSTRACTORS) == pytest.approx(0.835)
    assert stats.pabak(ABSTRACTORS, q=2) == pytest.approx(2 * 0.89 - 1)


@pytest.mark.parametrize("table, kappa", [
    ([[40, 9], [6, 45]], 0.70),  # Feinstein & Cicchetti (1990): same p_o = 0.85 ...
    ([[80, 10], [5, 5]], 0.32),  # ... but skewed prevalence pulls kappa down
])
def test_pabak_ignores_the_prevalence_that_moves_kappa(table, kappa):
    assert round(stats.cohen_kappa(table), 2) == kappa
    assert stats.pabak(table) == pytest.approx(0.70)  # Byrt, Bishop & Carlin: 2 p_o - 1


def test_paper_natural_set_pabak_is_two_p_o_minus_one():
    # Table 2: natural set, 92.0% raw agreement on 200 items -> PABAK 0.840.
    table = [[183, 9], [7, 1]]
    assert stats.raw_agreement(table) == pytest.approx(0.92)
    assert round(stats.pabak(table), 3) == 0.840


def test_perfect_agreement_gives_ac1_one_like_the_moderate_set():
    r = stats.gwet_ac1([[91, 0], [0, 9]])  # Table 2 moderate: 100% agreement, AC1 1.000
    assert r["coefficient"] == pytest.approx(1.0) and r["se"] == pytest.approx(0.0)
    assert stats.pabak([[91, 0], [0, 9]]) == pytest.approx(1.0)


@pytest.mark.parametrize("bad, msg", [
    ([[1, 2, 3], [4, 5, 6]], "square"),
    ([[1, -1], [0, 2]], "non-negative"),
    ([[0, 0], [0, 0]], "no rated items"),
    (np.zeros((0, 0)), "empty"),
    ([["a", "b"], ["c", "d"]], "numeric"),
])
def test_agreement_rejects_bad_tables(bad, msg):
    for fn in (stats.raw_agreement, stats.pabak, stats.gwet_ac1, stats.cohen_kappa):
        with pytest.raises(ValueError, match=msg):
            fn(bad)


# --------------------------------------------------------------------------- bootstrap

SAMPLE = np.array([0.0, 1.0, 1.0, 3.0, 7.0])


def _exact_distribution(x):
    """Means of all n**n equally likely resamples."""
    idx = np.array(list(itertools.product(range(len(x)), repeat=len(x))))
    return x[idx].mean(axis=1)


def _cdf_gap(a, b):
    grid = np.union1d(a, b)
    fa = np.searchsorted(np.sort(a), grid, side="right") / len(a)
    fb = np.searchsorted(np.sort(b), grid, side="right") / len(b)
    return np.max(np.abs(fa - fb))


@pytest.mark.parametrize("draw", [
    lambda x, s: stats._index_resamples(x, None, stats.mean_difference, 20000, s),
    lambda x, s: stats._count_resamples(x, None, 20000, s),
], ids=["index-resampling", "count-resampling"])
def test_bootstrap_matches_exact_enumeration_of_all_resamples(draw):
    exact = _exact_distribution(SAMPLE)  # 5**5 = 3125 resamples
    boot = draw(SAMPLE, 7)
    se = exact.std() / np.sqrt(len(boot))
    assert abs(boot.mean() - exact.mean()) < 5 * se
    assert _cdf_gap(boot, exact) < 0.02  # DKW: P(gap > 0.02) < 1e-6 at 20,000 draws
    for q in (0.025, 0.5, 0.975):
        lo, hi = np.quantile(exact, [max(q - 0.01, 0), min(q + 0.01, 1)])
        assert lo <= np.quantile(boot, q) <= hi


def test_paired_bootstrap_resamples_both_sides_with_the_same_indices():
    x = np.arange(50, dtype=float)
    for resampling in stats.RESAMPLING:  # independent resampling would scatter around 0
        assert stats.bootstrap(x, x.copy(), n_resamples=200, seed=3,
                               resampling=resampling) == (0.0, 0.0, 0.0)


def test_bootstrap_interval_brackets_estimate_and_reruns_identically():
    rng = np.random.default_rng(0)
    x, y = rng.integers(0, 2, 300), rng.integers(0, 2, 300)
    for resampling in stats.RESAMPLING:
        first = stats.bootstrap(x, y, n_resamples=300, seed=11, resampling=resampling)
        assert first == stats.bootstrap(x, y, n_resamples=300, seed=11, resampling=resampling)
        assert first != stats.bootstrap(x, y, n_resamples=300, seed=12, resampling=resampling)
        est, lo, hi = first
        assert lo <= est <= hi
        assert est == pytest.approx(x.mean() - y.mean())


def test_block_size_does_not_change_the_resamples():
    x = np.random.default_rng(1).normal(size=40)
    whole = stats._index_resamples(x, None, stats.mean_difference, 100, 5)
    blocked = stats._index_resamples(x, None, stats.mean_difference, 100, 5, max_block=40 * 7)
    assert np.array_equal(whole, blocked)


def test_custom_statistic_and_one_sample_bootstrap():
    x = np.array([1.0, 2.0, 3.0, 10.0])
    est, lo, hi = stats.bootstrap(x, stat=lambda s: np.median(s, axis=-1), n_resamples=500,
                                  seed=0)
    assert est == 2.5 and 1.0 <= lo <= est <= hi <= 10.0
    est2, lo2, hi2 = stats.bootstrap(x, n_resamples=500, seed=0)
    assert est2 == pytest.approx(4.0) and lo2 <= 4.0 <= hi2


def test_count_resampling_ignores_missing_sides():
    x = np.array([1.0, 1.0, np.nan, 0.0])
    y = np.array([0.0, np.nan, 0.0, 0.0])
    est, lo, hi = stats.bootstrap(x, y, n_resamples=500, seed=0)
    assert est == pytest.approx(2 / 3)
    assert lo <= est <= hi


def test_bootstrap_rejects_unpaired_or_reducing_badly():
    with pytest.raises(ValueError, match="paired"):
        stats.bootstrap([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="reduce"):
        stats.bootstrap([1.0, 2.0], stat=lambda s: s, n_resamples=10)
    with pytest.raises(ValueError, match="non-empty"):
        stats.bootstrap([])
    with pytest.raises(ValueError, match="mean difference only"):
        stats.bootstrap([1.0, 2.0], stat=stats.mean_difference, resampling="counts")
    with pytest.raises(ValueError, match="resampling must be one of"):
        stats.bootstrap([1.0, 2.0], resampling="blocks")
