"""tjb_lib.analysis.metrics on hand-built verdict rows with known answers, and on frames shaped like the
paper's tables so that the printed numbers come back."""
from __future__ import annotations


import numpy as np
import pandas as pd
import pytest

from tjb_lib.analysis import metrics, stats
from tjb_lib.paper.report import paper_table, present


def rows(decisions, orders=None, **fields):
    """Verdict rows: one per decision, pair ids counting up, orders alternating by default."""
    n = len(decisions)
    orders = orders or [("cited_first", "plain_first")[i % 2] for i in range(n)]
    base = {"pair_id": [f"p{i // 2:04d}" for i in range(n)], "split": "hotpotqa_mechanical",
            "target_relation": "equivalent", "gold": "tie", "judge": "judge-x",
            "protocol": "ladder", "level": "L0", "paraphrase": 0, "variant": "",
            "decision": list(decisions), "order": orders}
    base.update(fields)
    return pd.DataFrame(base)


def repeat(counts: dict) -> list[str]:
    return [d for d, k in counts.items() for _ in range(k)]


# --------------------------------------------------------------------------- rate tables


def test_equivalence_rates_from_hand_counts():
    df = rows(repeat({"cited": 3, "plain": 1, "tie": 4}))
    t = metrics.equivalence_table(df, n_resamples=200).iloc[0]
    assert (t["n"], t["citation_win"], t["base_win"], t["tie"]) == (8, 37.5, 12.5, 50.0)
    assert t["signed_effect"] == 25.0
    assert t["signed_effect_low"] <= 25.0 <= t["signed_effect_high"]
    lo, hi = stats.wilson(3, 8)
    assert t["citation_win_low"] == pytest.approx(100 * lo)
    assert t["citation_win_high"] == pytest.approx(100 * hi)
    assert (t["n_unparsed"], t["n_failed"]) == (0, 0)


def test_rates_are_over_parsed_verdicts_with_the_unparsed_share_beside_them():
    df = rows(repeat({"cited": 3, "plain": 1, "tie": 4, "unparsed": 2, "failed": 1}))
    t = metrics.equivalence_table(df, n_resamples=100).iloc[0]
    assert (t["n"], t["n_unparsed"], t["n_failed"]) == (8, 2, 1)
    assert t["citation_win"] == 37.5 and t["unparsed"] == 20.0  # 2 of the 10 replies
    assert t["citation_win"] + t["base_win"] + t["tie"] == pytest.approx(100)
    assert t["unparsed_low"] < 20.0 < t["unparsed_high"]
    r = metrics.decision_rates(df).iloc[0]
    assert r["tie"] == 50.0 and r["n_tie"] == 4  # unparsed never becomes Tie


def test_a_group_with_no_parsed_verdict_has_no_rate_not_zero():
    df = rows(["unparsed"] * 6)
    for table in (metrics.equivalence_table(df, n_resamples=50), metrics.graded_table(df),
                  metrics.decision_rates(df)):
        t = table.iloc[0]
        assert t["n"] == 0 and t["n_unparsed"] == 6 and t["unparsed"] == 100.0
        assert np.isnan(t["tie"]) and np.isnan(t["tie_low"]) and np.isnan(t["tie_high"])


def test_groups_with_a_missing_level_are_kept():
    df = pd.concat([rows(["tie"] * 4), rows(["plain"] * 2, protocol="trace_v2", level=None)])
    t = metrics.equivalence_table(df, n_resamples=50)
    assert list(t["protocol"]) == ["ladder", "trace_v2"]
    assert list(t["level"]) == ["L0", ""]
    assert t["n"].sum() == 6


def test_bad_decision_names_the_field_and_item():
    df = rows(["cited", "Tie"])
    with pytest.raises(ValueError, match=r"'decision'.*'Tie'.*p0000"):
        metrics.equivalence_table(df)
    with pytest.raises(ValueError, match="missing column"):
        metrics.equivalence_table(df.drop(columns="order"))


def _counts_for(row):
    """Integer counts at the row's n that print as the row's rates (half-to-even, 1 decimal)."""
    n = int(row["n"])
    for c in range(n + 1):
        if round(100 * c / n, 1) != row["citation_win"]:
            continue
        for p in range(n - c + 1):
            t = n - c - p
            if (round(100 * p / n, 1) == row["base_win"] and round(100 * t / n, 1) == row["tie"]
                    and round(100 * (c - p) / n, 1) == row["signed_effect"]):
                return c, p, t
    return None


def test_frame_shaped_like_table_a10_reproduces_the_printed_numbers():
    paper = paper_table("table_a10")
    frames = []
    for _, r in paper.iterrows():
        counts = _counts_for(r)
        assert counts is not None, f"no counts at n=400 print as {r.to_dict()}"
        c, p, t = counts
        frames.append(rows(repeat({"cited": c, "plain": p, "tie": t}),
                           judge=r["model"], variant=r["variant"]))
    ours = present(
        metrics.equivalence_table(pd.concat(frames), by=("judge", "variant"), n_resamples=50))
    merged = paper.merge(ours, left_on=["model", "variant"], right_on=["judge", "variant"],
                         suffixes=("_paper", ""))
    assert len(merged) == 18
    for col in ("tie", "citation_win", "base_win", "signed_effect"):
        assert (merged[f"{col}_paper"].map("{:.1f}".format) == merged[col]).all(), col
    assert (merged["n_paper"].astype(str) == merged["n"]).all()


def test_gpt_full_citation_counts_round_half_to_even_like_the_paper():
    # 298 cited, 1 plain, 101 tie of 400: 74.5 / 0.25 / 25.25, signed 74.25 (printed 74.2).
    df = rows(repeat({"cited": 298, "plain": 1, "tie": 101}))
    t = present(metrics.equivalence_table(df, n_resamples=50)).iloc[0]
    assert (t["citation_win"], t["base_win"], t["tie"], t["signed_effect"]) == \
        ("74.5", "0.2", "25.2", "74.2")


def test_correctness_conflicts_use_each_rows_gold_side():
    clear = rows(repeat({"plain": 5, "cited": 1, "tie": 2}), gold="plain")
    reverse = rows(repeat({"cited": 4, "plain": 0, "tie": 0}), gold="cited",
                   split="reverse_conflict")
    t = metrics.correctness_table(pd.concat([clear, reverse]), by=("judge",),
                                  n_resamples=100).iloc[0]
    assert t["n"] == 12
    assert t["correct_win"] == pytest.approx(100 * 9 / 12)
    assert t["wrong_win"] == pytest.approx(100 * 1 / 12)
    assert t["tie"] == pytest.approx(100 * 2 / 12)
    with pytest.raises(ValueError, match="gold plain|cited"):
        metrics.correctness_table(rows(["tie"], gold="tie"))


def test_graded_tier_better_plain_worse_cited_and_delta_quality():
    df = rows(repeat({"plain": 143, "tie": 57}), target_relation="quality_moderate")
    t = metrics.graded_table(df, n_resamples=200).iloc[0]
    assert (t["better_plain"], t["worse_cited"], t["tie"]) == (71.5, 0.0, 28.5)  # A11 Claude L3
    assert t["delta_quality"] == 71.5
    assert t["delta_quality_low"] < 71.5 < t["delta_quality_high"]
    assert t["worse_cited_low"] == 0.0 and 0 < t["worse_cited_high"] < 2.5  # Wilson at 0/200


def test_tie_is_decomposed_by_target_relation():
    df = pd.concat([rows(["tie"] * 4, target_relation="equivalent"),
                    rows(["tie", "plain", "plain", "plain"], target_relation="quality_moderate")])
    t = metrics.tie_by_relation(df).set_index("target_relation")
    assert t.loc["equivalent", "tie"] == 100.0
    assert t.loc["quality_moderate", "tie"] == 25.0


# --------------------------------------------------------------------------- order effects


def test_order_gap_is_cited_first_minus_cited_second():
    n = 40
    cf = ["cited"] * 24 + ["tie"] * 16   # cited shown first: 60% cited wins
    pf = ["cited"] * 8 + ["tie"] * 32    # cited shown second: 20%
    df = pd.DataFrame({"pair_id": [f"p{i}" for i in range(n)] * 2, "paraphrase": 0,
                       "judge": "j", "split": "s", "protocol": "ladder", "level": "L0",
                       "order": ["cited_first"] * n + ["plain_first"] * n,
                       "decision": cf + pf})
    t = metrics.order_gap_table(df, n_resamples=500, seed=1).iloc[0]
    assert (t["cited_win_cited_first"], t["cited_win_plain_first"]) == (60.0, 20.0)
    assert t["order_gap"] == pytest.approx(40.0)
    assert t["order_gap_low"] < 40.0 < t["order_gap_high"]
    again = metrics.order_gap_table(df, n_resamples=500, seed=1).iloc[0]
    assert again["order_gap_low"] == t["order_gap_low"]
    dup = pd.concat([df, df.iloc[:1]])
    with pytest.raises(ValueError, match="share the unit"):
        metrics.order_gap_table(dup, n_resamples=10)


def test_position_controls_read_first_slot_from_decision_and_order():
    # Identical candidates, judge always answers A: the first slot wins in both orders.
    df = rows(["cited", "plain", "cited", "plain"], target_relation="identical")
    t = metrics.position_table(df).iloc[0]
    assert (t["first_position_win"], t["second_position_win"], t["tie"]) == (100.0, 0.0, 0.0)


# --------------------------------------------------------------------------- human agreement


def test_tie_precision_reproduces_the_papers_five_of_forty_two():
    # 100 moderate items, humans say Tie on 9; the judge says Tie in at least one order on 42,
    # five of them human Tie items: precision 5/42 = 0.119 (Claude L3, §5.3).
    items = [f"m{i:03d}" for i in range(100)]
    human = pd.DataFrame({"pair_id": items, "human_tie": [i < 9 for i in range(100)]})
    judge_tie = set(items[:5]) | set(items[20:57])
    both_orders_tie = set(items[20:30])
    dec = []
    for it in items:
        dec += ["tie" if it in judge_tie else "plain",
                "tie" if it in both_orders_tie else "plain"]
    df = pd.DataFrame({"pair_id": np.repeat(items, 2), "judge": "claude", "protocol": "ladder",
                       "level": "L3", "order": ["cited_first", "plain_first"] * 100,
                       "decision": dec})
    t = metrics.tie_agreement(df, human).iloc[0]
    assert t["judge_tie_items"] == 42 and t["both_tie_items"] == 5
    assert round(t["tie_precision"], 3) == 0.119
    assert t["judge_any_tie"] == 42.0 and t["human_tie"] == 9.0
    assert t["item_agreement"] == pytest.approx((5 + 54) / 100)
    assert t["tie_precision_low"] < t["tie_precision"] < t["tie_precision_high"]


def test_tie_agreement_counts_items_without_verdict_or_label():
    df = rows(["unparsed", "failed", "tie", "plain"])
    human = pd.DataFrame({"pair_id": ["p0000"], "human_tie": [True]})
    t = metrics.tie_agreement(df, human).iloc[0]
    assert (t["n_items"], t["n_items_no_verdict"], t["n_items_unlabeled"]) == (0, 1, 1)


# --------------------------------------------------------------------------- paired contrasts


def _ladder(judge, counts_by_level, n_pairs=100):
    out = []
    for level, k in counts_by_level.items():
        dec = ["plain"] * k + ["tie"] * (2 * n_pairs - k)
        out.append(pd.DataFrame({"pair_id": np.repeat([f"m{i}" for i in range(n_pairs)], 2),
                                 "order": ["cited_first", "plain_first"] * n_pairs,
                                 "paraphrase": 0, "judge": judge, "split": "moderate",
                                 "protocol": "ladder", "level": level, "decision": dec}))
    return pd.concat(out, ignore_index=True)


@pytest.mark.parametrize("judge, l4_plain, low, high", [
    ("Claude Sonnet 4.6", 22, 84.5, 93.0),   # §5.4: drop 89.0 [84.5, 93.0]
    ("GPT-5.5", 4, 96.0, 99.5),              # §5.4: drop 98.0 [96.0, 99.5]
])
def test_l0_to_l4_drop_reproduces_the_papers_paired_bootstrap(judge, l4_plain, low, high):
    df = _ladder(judge, {"L0": 200, "L4": l4_plain})
    t = metrics.paired_contrast(df, {"level": "L0"}, {"level": "L4"}, seed=0).iloc[0]
    assert (t["rate_a"], t["rate_b"]) == (100.0, 100 * l4_plain / 200)
    assert t["difference"] == pytest.approx(100 - 100 * l4_plain / 200)
    assert abs(t["difference_low"] - low) <= 0.5 and abs(t["difference_high"] - high) <= 0.5
    assert (t["b_only"], t["c_only"]) == (200 - l4_plain, 0)
    assert t["mcnemar_p"] == stats.mcnemar_exact(200 - l4_plain, 0) and t["mcnemar_p"] < 1e-3


def test_paired_contrast_counts_unmatched_and_failed_units():
    df = _ladder("j", {"L0": 200, "L4": 20}, n_pairs=100)
    df = df.drop(index=df.index[(df["level"] == "L4")][:2])          # two L4 units missing
    df.loc[df.index[(df["level"] == "L0")][5], "decision"] = "failed"
    t = metrics.paired_contrast(df, {"level": "L0"}, {"level": "L4"}, n_resamples=100).iloc[0]
    assert (t["n"], t["n_unmatched_a"], t["n_unmatched_b"], t["n_failed"]) == (197, 2, 0, 1)
    with pytest.raises(ValueError, match="no verdict rows match"):
        metrics.paired_contrast(df, {"level": "L9"}, {"level": "L4"})


# --------------------------------------------------------------------------- ranking probe

SYSTEMS = ("answer_only", "plain_full", "cited_full", "cited_partial")


def _ranking(decide, n_queries=5):
    recs = []
    for q in range(n_queries):
        for i, s1 in enumerate(SYSTEMS):
            for s2 in SYSTEMS[i + 1:]:
                for order in ("cited_first", "plain_first"):
                    recs.append({"pair_id": f"q{q}-{s1}-{s2}", "judge": "j",
                                 "protocol": "plain preference", "order": order,
                                 "system_plain": s1, "system_cited": s2,
                                 "decision": decide(s1, s2, q, order)})
    return pd.DataFrame(recs)


def test_ranking_scores_sum_to_200_and_count_ties_half():
    rank = {s: i for i, s in enumerate(("answer_only", "cited_partial", "plain_full",
                                        "cited_full"))}

    def decide(s_plain, s_cited, q, order):
        if {s_plain, s_cited} == {"plain_full", "cited_full"}:
            return "tie"
        return "cited" if rank[s_cited] > rank[s_plain] else "plain"

    t = metrics.ranking_scores(_ranking(decide)).set_index("system")
    assert t["score"].sum() == pytest.approx(200.0)
    assert (t["n"] == 30).all()  # 5 queries x 3 opponents x 2 orders
    assert t.loc["answer_only", "score"] == 0.0
    assert t.loc["plain_full", "score"] == pytest.approx(100 * (20 + 5) / 30)
    assert t.loc["cited_full", "score"] == pytest.approx(100 * (20 + 5) / 30)


def test_unparsed_ranking_rows_are_left_out_of_the_scores_and_reported():
    df = _ranking(lambda *a: "tie")
    df.loc[0, "decision"] = "unparsed"
    t = metrics.ranking_scores(df)
    assert t["n_unparsed"].sum() == 2  # one row, two systems
    assert t["n"].sum() == 2 * len(df) - 2
    assert t["score"].sum() == pytest.approx(200)


def test_direct_plain_full_vs_cited_full_counts_like_table_a18():
    def decide(s_plain, s_cited, q, order):
        return "cited" if (s_plain, s_cited) == ("plain_full", "cited_full") and q < 4 else "tie"

    t = metrics.direct_comparison(_ranking(decide)).iloc[0]
    assert (t["plain_full_wins"], t["cited_full_wins"], t["tie"], t["n"]) == (0, 8, 2, 10)


# --------------------------------------------------------------------------- scale


def test_100k_verdict_rows_summarise_with_2000_resample_bootstraps():
    """The paper-scale row count goes through every table (how long it takes is measured by the
    benchmarks, not asserted here)."""
    rng = np.random.default_rng(0)
    n = 100_000
    df = pd.DataFrame({
        "pair_id": np.repeat([f"p{i}" for i in range(n // 2)], 2),
        "order": np.tile(["cited_first", "plain_first"], n // 2),
        "paraphrase": 0, "judge": rng.choice(["a", "b"], n), "split": "s",
        "protocol": "ladder", "level": "L0",
        "decision": rng.choice(["cited", "plain", "tie", "unparsed"], n, p=[.5, .1, .38, .02]),
    })
    df["judge"] = np.repeat(rng.choice(["a", "b"], n // 2), 2)  # both orders share a judge
    eq = metrics.equivalence_table(df, n_resamples=2000)
    gr = metrics.graded_table(df, n_resamples=2000)
    og = metrics.order_gap_table(df, n_resamples=2000)
    parsed = int((df["decision"] != "unparsed").sum())
    assert eq["n"].sum() == parsed and gr["n"].sum() == parsed and len(og) == 2
    assert (eq["n"] + eq["n_unparsed"]).sum() == n


def test_tables_work_pooled_without_grouping_keys():
    df = rows(repeat({"cited": 3, "plain": 1, "tie": 4, "unparsed": 1}))
    eq = metrics.equivalence_table(df, by=(), n_resamples=50)
    og = metrics.order_gap_table(df, by=(), n_resamples=50)
    assert len(eq) == 1 and eq["n"].dtype.kind == "i" and eq.loc[0, "n"] == 8
    # rows alternate orders: the unparsed 9th row is cited-first, so 4 parsed in each order
    assert og.loc[0, "order_gap"] == pytest.approx(100 * 2 / 4 - 100 * 1 / 4)
    assert not np.isnan(og.loc[0, "order_gap_low"])
