"""Tie-threshold frontier and order calibration on synthetic logit-scored runs."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tjb_lib.analysis import frontier
from tjb_lib.records import decision_from_label

parse = pytest.importorskip("tjb_lib.parse")


def _run(seed: int = 0, n_pairs: int = 60, with_exact_ties: bool = True) -> pd.DataFrame:
    """A logit-scored run over equivalence, moderate and control pairs in both orders. The
    discrete verdicts come from the project's own parser (argmax of the label probabilities)."""
    rng = np.random.default_rng(seed)
    # concentration per tier, in (cited, plain, tie) terms: a citation-loving judge on
    # equivalence pairs, a judge that mostly sees the gap on moderate pairs, A-loving on controls
    tiers = {"equivalent": (3.0, 1.0, 2.0), "quality_moderate": (0.5, 4.0, 1.5)}
    rows = []
    for relation, alpha in tiers.items():
        for i in range(n_pairs):
            for order in ("cited_first", "plain_first"):
                c, pl, t = rng.dirichlet(alpha)
                a, b = (c, pl) if order == "cited_first" else (pl, c)
                rows.append({"pair_id": f"{relation}-{i}", "target_relation": relation,
                             "order": order, "p_a": a, "p_b": b, "p_tie": t})
    for i in range(n_pairs):
        for order in ("cited_first", "plain_first"):
            a, b, t = rng.dirichlet((14.0, 3.0, 3.0))
            rows.append({"pair_id": f"control-{i}", "target_relation": "identical",
                         "order": order, "p_a": a, "p_b": b, "p_tie": t})
    df = pd.DataFrame(rows)
    if with_exact_ties:  # exact ties between the top labels must come out unparsed
        df.loc[0, ["p_a", "p_b", "p_tie"]] = (0.4, 0.4, 0.2)
        df.loc[1, ["p_a", "p_b", "p_tie"]] = (0.45, 0.1, 0.45)
    df["judge"], df["protocol"], df["level"] = "toy", "ladder", "L0"
    verdicts = [parse.parse_verdict(None, {"A": r.p_a, "B": r.p_b, "Tie": r.p_tie})
                for r in df.itertuples()]
    df["parsed"] = [v.label for v in verdicts]
    df["decision"] = [decision_from_label(v.label, o) for v, o in zip(verdicts, df["order"])]
    return df


def test_default_rule_reproduces_the_discrete_verdicts_exactly():
    df = _run()
    labels = frontier.decide(df["p_a"], df["p_b"], df["p_tie"])
    assert list(labels) == list(df["parsed"])
    again = frontier.redecide(df)
    assert (again["decision"] == df["decision"]).all()
    assert (df["decision"] == "unparsed").sum() == 2  # the two exact ties
    # the sweep's first point is the run's own ladder point
    pt = frontier.tier_rates(df, by=("judge",))
    sw = frontier.sweep(df, [0.0], by=("judge",))
    cols = [c for c in pt.columns if c != "judge"]
    pd.testing.assert_frame_equal(sw[cols].reset_index(drop=True), pt[cols])


def test_decide_rules_and_missing_probabilities():
    p_a, p_b, p_tie = [0.5, 0.45, 0.2, np.nan], [0.3, 0.4, 0.2, 0.5], [0.2, 0.15, 0.6, 0.5]
    assert list(frontier.decide(p_a, p_b, p_tie)) == ["A", "A", "Tie", None]
    assert list(frontier.decide(p_a, p_b, p_tie, tie_margin=0.1)) == ["A", "Tie", "Tie", None]
    # a log-odds bias of log(3) lifts 0.2 to 0.6 > 0.5
    assert list(frontier.decide(p_a, p_b, p_tie, tie_bias=np.log(3.0)))[0] == "Tie"
    with pytest.raises(ValueError, match="tie_margin"):
        frontier.decide(p_a, p_b, p_tie, tie_margin=-0.1)


@pytest.mark.parametrize("rule,grid", [("margin", np.linspace(0, 1, 11)),
                                       ("bias", np.linspace(-2, 4, 13))])
def test_tie_rate_grows_with_the_threshold_on_every_tier(rule, grid):
    curve = frontier.sweep(_run(seed=3), grid, rule=rule)
    for tier in ("equivalent", "moderate", "control"):
        tie = curve[f"{tier}_tie"].to_numpy()
        assert np.all(np.diff(tie) >= 0), (tier, tie)
    assert curve["equivalent_tie"].iloc[-1] > curve["equivalent_tie"].iloc[0]
    # resolution is what the Tie rule costs: better-plain falls as Tie rises
    assert curve["moderate_better_plain"].iloc[-1] < curve["moderate_better_plain"].iloc[0]
    # n counts parsed verdicts; the few exact ties between top labels are unparsed beside it
    replied = curve["equivalent_n"] / (1 - curve["equivalent_unparsed"] / 100)
    assert np.allclose(replied, 120) and (curve["equivalent_n"] >= 118).all()
    if rule == "margin":  # margin 1 declares every scored comparison a Tie
        assert curve["equivalent_tie"].iloc[-1] == 100.0
        assert curve["delta_citation"].iloc[-1] == 0.0


def test_tier_rates_match_hand_counts():
    df = _run(seed=5)
    pt = frontier.tier_rates(df, by=("judge",)).iloc[0]
    eq = df[(df.target_relation == "equivalent") & (df.decision != "unparsed")]
    assert pt["equivalent_n"] == len(eq)
    w_c = 100 * (eq.decision == "cited").mean()
    w_p = 100 * (eq.decision == "plain").mean()
    assert pt["equivalent_cited"] == pytest.approx(w_c)
    assert pt["delta_citation"] == pytest.approx(w_c - w_p)
    assert pt["delta_citation"] > 0  # the toy judge likes the citation display
    mod = df[(df.target_relation == "quality_moderate") & (df.decision != "unparsed")]
    assert pt["moderate_better_plain"] == pytest.approx(100 * (mod.decision == "plain").mean())


def test_failed_rows_stay_failed_and_text_verdicts_are_refused():
    df = _run(seed=1, with_exact_ties=False)
    df.loc[5, "decision"] = "failed"
    df.loc[5, ["p_a", "p_b", "p_tie"]] = np.nan
    out = frontier.redecide(df, tie_margin=0.2)
    assert out.loc[5, "decision"] == "failed"
    pt = frontier.tier_rates(out)
    assert pt["equivalent_n"].iloc[0] == 119  # failed calls leave the denominator
    df.loc[6, ["p_a", "p_b", "p_tie"]] = np.nan
    with pytest.raises(ValueError, match=r"item 'equivalent-3'.*p_a/p_b/p_tie"):
        frontier.redecide(df)


def test_position_prior_and_calibration_balance_an_A_loving_judge():
    df = _run(seed=2, n_pairs=200, with_exact_ties=False)
    controls = df[df.target_relation == "identical"]
    first = lambda d: (((d.decision == "cited") & (d.order == "cited_first"))  # noqa: E731
                       | ((d.decision == "plain") & (d.order == "plain_first"))).mean()
    second = lambda d: (((d.decision == "cited") & (d.order == "plain_first"))  # noqa: E731
                        | ((d.decision == "plain") & (d.order == "cited_first"))).mean()
    assert first(controls) > 0.9 and second(controls) < 0.05

    prior = frontier.position_prior(controls)
    assert prior["n"] == 400
    assert prior["p_a"] == pytest.approx(0.7, abs=0.02)
    assert prior["p_b"] == pytest.approx(0.15, abs=0.02)

    fixed = frontier.calibrate(df, prior)
    fc = fixed[fixed.target_relation == "identical"]
    assert abs(first(fc) - second(fc)) < 0.1  # balanced positions on the controls
    # a reply equal to the prior carries no information and becomes uniform
    at_prior = df.iloc[:1].assign(p_a=prior["p_a"], p_b=prior["p_b"], p_tie=prior["p_tie"])
    assert frontier.calibrate(at_prior, prior)[["p_a", "p_b", "p_tie"]].iloc[0].tolist() == \
        pytest.approx([1 / 3] * 3)
    assert np.allclose(fixed[["p_a", "p_b", "p_tie"]].sum(axis=1), 1.0)
    assert (fixed["p_a_raw"] == df["p_a"]).all()
    assert fixed["calibrated"].all()

    slots = frontier.calibrate(df, prior, keep_tie=True)
    sc = slots[slots.target_relation == "identical"]
    # looser: the mean-probability prior leaves a small residual when Tie mass is not rebalanced
    assert abs(first(sc) - second(sc)) < 0.15
    # P(Tie) relative to P(A) + P(B) is untouched when only the slots are corrected
    ratio_raw = df["p_tie"] / (df["p_a"] / prior["p_a"] + df["p_b"] / prior["p_b"])
    ratio_new = slots["p_tie"] / (slots["p_a"] / 1 + slots["p_b"] / 1)
    m = (prior["p_a"] + prior["p_b"]) / 2
    assert np.allclose(ratio_new, ratio_raw / m)


def test_uniform_prior_is_the_identity_and_bad_priors_are_refused():
    df = _run(seed=4)
    same = frontier.calibrate(df, {"p_a": 1 / 3, "p_b": 1 / 3, "p_tie": 1 / 3})
    assert (same["decision"] == df["decision"]).all()
    assert np.allclose(same["p_a"], df["p_a"] / df[["p_a", "p_b", "p_tie"]].sum(axis=1))
    with pytest.raises(ValueError, match="prior"):
        frontier.calibrate(df, {"p_a": 0.5, "p_b": 0.5})
    with pytest.raises(ValueError, match="identical"):
        frontier.position_prior(df)
