"""Each interval as the paper defines it (§3: pair-level bootstrap for signed effects and order
gaps; App. E.5: pair-by-order units for the protocol contrasts), n as distinct judge calls on
the position-only controls, and cells that mix parsed and unparsed rows."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tjb_lib.analysis import metrics, stats


def _pairs(n_pairs: int, cited_first: list[str], plain_first: list[str], **fields) -> pd.DataFrame:
    """Verdict rows of ``n_pairs`` pairs in both orders: pair i's decisions are
    cited_first[i] and plain_first[i]."""
    ids = [f"p{i:03d}" for i in range(n_pairs)]
    return pd.DataFrame({"pair_id": ids * 2, "paraphrase": "p0", "judge": "j", "split": "s",
                         "protocol": "ladder", "level": "L0",
                         "order": ["cited_first"] * n_pairs + ["plain_first"] * n_pairs,
                         "decision": list(cited_first) + list(plain_first), **fields})


def test_a_slot_a_judge_has_a_zero_width_pair_level_signed_effect():
    # Answering slot A picks cited when cited is first and plain when plain is first: every
    # pair nets to 0, so resampling pairs can only give 0. Resampling ordered comparisons (the
    # old unit) gave an interval about +/-25 points wide on the same rows.
    df = _pairs(30, ["cited"] * 30, ["plain"] * 30)
    t = metrics.equivalence_table(df, n_resamples=2000).iloc[0]
    assert t["signed_effect"] == 0.0
    assert (t["signed_effect_low"], t["signed_effect_high"]) == (0.0, 0.0)
    rows = df["decision"].map({"cited": 1.0, "plain": -1.0}).to_numpy()
    _, lo, hi = stats.bootstrap(rows, n_resamples=2000)
    assert hi - lo > 0.3  # what the ordered-comparison unit would have said


def test_pair_bootstrap_matches_resampling_pair_indices():
    rng = np.random.default_rng(3)
    units = rng.integers(0, 3, size=(40, 3)).astype(float)
    units[:, 2] = units[:, 0] + units[:, 1] + rng.integers(0, 2, 40)

    def stat(t):
        return (t[..., 0] - t[..., 1]) / t[..., 2]

    est, lo, hi = stats.pair_bootstrap(units, stat, n_resamples=4000, seed=1)
    idx = rng.integers(0, 40, size=(4000, 40))
    ref = stat(units[idx].sum(axis=1))
    assert est == pytest.approx(stat(units.sum(axis=0)))
    assert lo == pytest.approx(np.quantile(ref, 0.025), abs=0.03)
    assert hi == pytest.approx(np.quantile(ref, 0.975), abs=0.03)


def test_order_gap_resamples_pairs_and_keeps_its_estimate():
    # cited first: cited wins on pairs 0-23 of 40; plain first: on pairs 0-7. Per pair the two
    # orders are linked (pairs 0-7 win both), which pair-level resampling keeps.
    cf = ["cited"] * 24 + ["tie"] * 16
    pf = ["cited"] * 8 + ["tie"] * 32
    t = metrics.order_gap_table(_pairs(40, cf, pf), n_resamples=2000, seed=0).iloc[0]
    assert t["order_gap"] == pytest.approx(40.0)
    units = np.array([[cf[i] == "cited", 1, pf[i] == "cited", 1] for i in range(40)], float)
    _, lo, hi = stats.pair_bootstrap(units, lambda s: s[..., 0] / s[..., 1] - s[..., 2] / s[..., 3],
                                     n_resamples=2000, seed=0)
    assert (t["order_gap_low"], t["order_gap_high"]) == (pytest.approx(100 * lo),
                                                         pytest.approx(100 * hi))
    # linked orders give a narrower interval than two independent halves would
    _, ilo, ihi = stats.bootstrap(np.array([c == "cited" for c in cf], float),
                                  np.array([c == "cited" for c in pf], float)[::-1],
                                  n_resamples=2000)
    assert hi - lo < ihi - ilo


def test_signed_effects_need_the_pair_column():
    df = _pairs(4, ["cited"] * 4, ["tie"] * 4).drop(columns="pair_id")
    with pytest.raises(ValueError, match="pair_id"):
        metrics.graded_table(df)


def test_every_interval_kind_is_named_and_the_papers_sentences_quoted():
    assert set(stats.INTERVALS) == {stats.WILSON, stats.WILSON_CALLS, stats.PAIR_LEVEL,
                                    stats.PAIR_BY_ORDER, stats.ORDERED}
    assert "pair-level bootstrap" in stats.PAPER_PAIR_LEVEL
    assert "pair-by-order units" in stats.PAPER_PAIR_BY_ORDER


# --------------------------------------------------------------------------- position controls


def test_position_controls_count_one_call_once():
    # 20 identical-candidate pairs, both orders answered by one stored call each.
    df = _pairs(20, ["cited"] * 20, ["plain"] * 20, split="position_control",
                target_relation="identical")
    df["request_hashes"] = [[f"h{i % 20}"] for i in range(40)]
    t = metrics.position_table(df).iloc[0]
    assert (t["n"], t["n_comparisons"], t["first_position_win"]) == (20, 40, 100.0)
    assert t["first_position_win_low"] == pytest.approx(100 * stats.wilson(20, 20)[0])
    assert round(t["first_position_win_low"], 1) == 83.9      # not 91.2, as 40 would say
    # rows without stored calls (e.g. typed verdicts) each count as a call of their own
    t = metrics.position_table(df.drop(columns="request_hashes")).iloc[0]
    assert (t["n"], t["n_comparisons"]) == (40, 40)


# --------------------------------------------------------------------------- mixed cells


def test_a_cell_with_parsed_and_unparsed_rows_rates_over_the_parsed_ones():
    # 10 pairs: cited-first says cited on 6, unparsed on 4; plain-first says plain on 3,
    # tie on 5, unparsed on 2. Parsed: 14 of 20.
    cf = ["cited"] * 6 + ["unparsed"] * 4
    pf = ["plain"] * 3 + ["tie"] * 5 + ["unparsed"] * 2
    df = _pairs(10, cf, pf)
    eq = metrics.equivalence_table(df, n_resamples=500).iloc[0]
    assert (eq["n"], eq["n_unparsed"], eq["n_failed"]) == (14, 6, 0)
    assert eq["citation_win"] == pytest.approx(100 * 6 / 14)
    assert eq["base_win"] == pytest.approx(100 * 3 / 14)
    assert eq["tie"] == pytest.approx(100 * 5 / 14)
    assert eq["unparsed"] == pytest.approx(100 * 6 / 20)
    assert eq["signed_effect"] == pytest.approx(100 * 3 / 14)
    assert eq["signed_effect_low"] <= eq["signed_effect"] <= eq["signed_effect_high"]
    gr = metrics.graded_table(df, n_resamples=500).iloc[0]
    assert gr["better_plain"] == pytest.approx(100 * 3 / 14)
    assert gr["delta_quality"] == pytest.approx(-100 * 3 / 14)
    og = metrics.order_gap_table(df, n_resamples=500).iloc[0]
    assert og["cited_win_cited_first"] == 100.0              # 6 of the 6 parsed
    assert og["cited_win_plain_first"] == 0.0                # 0 of the 8 parsed
    assert og["n_unparsed"] == 6
    rates = metrics.decision_rates(df).iloc[0]
    assert rates["n_tie"] == 5 and rates["tie"] == pytest.approx(100 * 5 / 14)


def test_a_contrast_leaves_out_units_with_an_unparsed_side():
    df = pd.concat([_pairs(10, ["plain"] * 10, ["plain"] * 10, level="L0"),
                    _pairs(10, ["tie"] * 8 + ["unparsed"] * 2, ["tie"] * 10, level="L4")])
    t = metrics.paired_contrast(df, {"level": "L0"}, {"level": "L4"}, n_resamples=200).iloc[0]
    assert (t["n"], t["n_unparsed"], t["difference"]) == (18, 2, 100.0)
