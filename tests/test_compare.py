"""Paper-beside-ours comparisons on hand-built verdict rows (no judge, no files written)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tjb_lib.paper import compare, contrasts, floats, paper_match, position, report_index, tables
from tjb_lib.run import notebook
from tjb_lib.paper.report import paper_table, present


def _rows(split, protocol, level, decisions, *, relation="equivalent", gold="tie", pairs=None,
          judge="smollm2", **extra):
    """Verdict rows: decisions alternate cited_first / plain_first over consecutive pairs."""
    out = []
    for i, d in enumerate(decisions):
        out.append({"pair_id": f"{split}:{pairs[i] if pairs else i // 2}", "split": split,
                    "target_relation": relation, "gold": gold, "variant": "",
                    "order": ("cited_first", "plain_first")[i % 2], "protocol": protocol,
                    "level": level, "paraphrase": "p0", "judge": judge, "decision": d,
                    "raw_text": None, **{k: (v[i] if isinstance(v, list) else v)
                                         for k, v in extra.items()}})
    return out


def _frame(*parts):
    return pd.DataFrame([r for p in parts for r in p])


@pytest.fixture
def mechanical():
    # 20 ordered comparisons at L0: 6 cited, 2 plain, 12 tie; at L4: all tie
    return _frame(_rows("mechanical_hotpotqa", "ladder", "L0",
                        ["cited"] * 6 + ["plain"] * 2 + ["tie"] * 12),
                  _rows("mechanical_hotpotqa", "ladder", "L4", ["tie"] * 20))


def _nb(rows, name="04_resolution_loss", tmp_path="", seed=0):
    """A notebook context over hand-built rows (no judge, nothing loaded)."""
    nb = notebook.Notebook(name, "smollm2", "default", seed, True, str(tmp_path))
    nb.rows = rows
    return nb


def test_a9_keeps_every_paper_row_and_puts_ours_beside_it(mechanical):
    cmp = compare.compare_float("table_a9", mechanical, "smollm2", seed=1)
    paper = paper_table("table_a9")
    assert len(cmp) == len(paper) * 4
    assert set(zip(cmp["paper_judge"], cmp["protocol"])) == set(zip(paper["model"],
                                                                     paper["protocol"]))
    cell = cmp[(cmp["paper_judge"] == "GPT-5.5") & (cmp["protocol"] == "Mechanical Plain")]
    cell = cell.set_index("metric")
    assert cell.loc["citation_win", "paper"] == 85.8
    assert cell.loc["citation_win", "ours"] == pytest.approx(30.0)
    assert cell.loc["base_win", "ours"] == pytest.approx(10.0)
    assert cell.loc["signed_effect", "ours"] == pytest.approx(20.0)
    assert cell.loc["citation_win", "n"] == 20 and cell.loc["citation_win", "k"] == 6
    assert cell.loc["citation_win", "paper_n"] == 1200
    assert cell.loc["signed_effect", "interval"] == "pair-level bootstrap"  # §3
    assert cell.loc["citation_win", "interval"] == "wilson"
    assert (cell["ours_low"] <= cell["ours"]).all() and (cell["ours"] <= cell["ours_high"]).all()
    assert set(cell["setting"]) == {"L0"} and set(cmp["judge"]) == {"smollm2"}
    assert (cell["n_unparsed"] == 0).all() and (cell["n_failed"] == 0).all()
    assert set(cell["status"]) == {"ok"}


def test_each_row_says_whether_ours_agrees_with_the_paper(mechanical):
    cmp = compare.compare_float("table_a9", mechanical, "smollm2", seed=1)
    cell = cmp[(cmp["paper_judge"] == "GPT-5.5")].set_index(["protocol", "metric"])
    strict_tie = cell.loc[("Mechanical Strict", "tie")]  # paper 100.0, ours 100.0 of 20
    assert strict_tie["ours_low"] <= strict_tie["paper"] <= strict_tie["ours_high"]
    assert strict_tie["agrees"] == "yes"
    plain = cell.loc[("Mechanical Plain", "citation_win")]  # paper 85.8, ours 30 [~15, ~52]
    assert plain["ours_high"] < 85.8 and plain["agrees"] == "no"
    assert set(cell.loc["Natural Plain", "agrees"]) == {""}  # not run: nothing to set against


def test_the_agreement_rule_reads_intervals_ranges_and_tests_one_way():
    assert paper_match.agrees(89.0, 0.0, -5.0, 5.0) == "no"
    assert paper_match.agrees(89.0, 88.0, 80.0, 95.0) == "yes"
    assert paper_match.agrees(4.0, 4.0) == "yes" and paper_match.agrees(4.0, 3.0) == "no"
    assert paper_match.agrees(89.0, 86.0, paper_low=84.5, paper_high=93.0) == "yes"
    assert paper_match.agrees(89.0, np.nan) == ""
    assert paper_match.test_agrees(0.001, +1, 1.0, 0.0) == "no"  # C044 beside a null result
    assert paper_match.test_agrees(0.001, +1, 0.0001, 40.0) == "yes"
    assert paper_match.test_agrees(0.001, -1, 0.0001, 40.0) == "no"  # the other direction
    assert paper_match.test_agrees(1.0, 0, 0.6, -3.0) == "yes"  # neither significant


def test_cells_we_did_not_run_stay_empty_rather_than_failing(mechanical):
    cmp = compare.compare_float("table_a9", mechanical, "smollm2")
    natural = cmp[cmp["protocol"] == "Natural Plain"]
    assert natural["ours"].isna().all() and (natural["n"] == 0).all()
    assert natural["paper"].notna().all() and set(natural["status"]) == {"not run"}


def test_an_all_unparsed_cell_says_so_and_is_never_zero(mechanical):
    trace = _frame(_rows("mechanical_hotpotqa", "trace_v2", "", ["unparsed"] * 6))
    cmp = compare.compare_float("table_a9", pd.concat([mechanical, trace]), "smollm2")
    dec = cmp[cmp["protocol"] == "Decoupled Mechanical"]
    assert dec["ours"].isna().all() and (dec["n"] == 0).all()
    assert (dec["n_unparsed"] == 6).all() and (dec["unparsed"] == 100.0).all()
    assert set(dec["status"]) == {"no parsed verdict"}
    shown = present(cmp)
    assert set(shown.loc[cmp["protocol"].eq("Decoupled Mechanical").to_numpy(), "ours"]) == \
        {"no parsed verdict"}
    assert "ours 95% CI" in shown and "ours_low" not in shown and "paper_n" in shown
    assert "k" in shown


def test_a14_takes_each_column_from_its_own_level(mechanical):
    cmp = compare.compare_float("table_a14", mechanical, "smollm2")
    hot = cmp[(cmp["split"] == "HotpotQA mechanical") & (cmp["paper_judge"] == "DeepSeek")]
    hot = hot.set_index("metric")
    assert hot.loc["plain_cited_win", "ours"] == pytest.approx(30.0)
    assert hot.loc["plain_cited_win", "setting"] == "L0"
    assert hot.loc["strict_tie", "ours"] == pytest.approx(100.0)
    assert hot.loc["strict_tie", "setting"] == "L4"
    assert hot.loc["strict_tie", "ours_high"] == pytest.approx(100.0)


def test_a13_range_columns_are_the_min_and_max_over_l0_to_l2():
    rates = {"L0": 8, "L1": 4, "L2": 6}  # better-plain wins out of 10
    rows = _frame(*[_rows("moderate_finqa", "ladder", lv, ["plain"] * k + ["tie"] * (10 - k),
                          relation="quality_moderate", gold="plain")
                    for lv, k in rates.items()],
                  _rows("moderate_finqa", "ladder", "L4", ["tie"] * 10,
                        relation="quality_moderate", gold="plain"))
    cmp = compare.compare_float("table_a13", rows, "smollm2").query("paper_judge == 'GPT-5.5'")
    cmp = cmp.set_index("metric")
    assert cmp.loc["l0_l2_better_plain_low", "ours"] == pytest.approx(40.0)
    assert cmp.loc["l0_l2_better_plain_low", "setting"] == "L1"
    assert cmp.loc["l0_l2_better_plain_high", "ours"] == pytest.approx(80.0)
    assert cmp.loc["l4_tie", "ours"] == pytest.approx(100.0)
    assert np.isnan(cmp.loc["trace_better_plain", "ours"])  # no TRACE rows given


def _ranking_rows(protocol, level, decide):
    systems = ("answer_only", "plain_full", "cited_full", "cited_partial")
    pairs = [(a, b) for i, a in enumerate(systems) for b in systems[i + 1:]]
    out = []
    for q in range(3):
        for plain_sys, cited_sys in pairs:
            d = decide(plain_sys, cited_sys)
            out += _rows("ranking_hotpotqa", protocol, level, [d, d], relation="system",
                         gold="none", pairs=[f"{q}:{plain_sys}-{cited_sys}"] * 2,
                         system_plain=plain_sys, system_cited=cited_sys)
    return out


def test_ranking_scores_carry_intervals_and_a18_is_percent_of_the_papers_400():
    rank = {"answer_only": 0, "plain_full": 1, "cited_partial": 1, "cited_full": 2}

    def decide(p, c):
        return "tie" if rank[p] == rank[c] else ("plain" if rank[p] > rank[c] else "cited")

    rows = _frame(_ranking_rows("ladder", "L0", decide),
                  _ranking_rows("trace_v2", "", lambda p, c: "tie"))
    a17 = compare.compare_float("table_a17", rows, "smollm2", seed=3)
    plain = a17[(a17["protocol"] == "plain preference") & (a17["paper_judge"] == "GPT-5.5")]
    plain = plain.set_index("system")
    assert plain.loc["cited_full", "ours"] == pytest.approx(100.0)
    assert plain.loc["answer_only", "ours"] == pytest.approx(0.0)
    assert plain.loc["plain_full", "ours"] == pytest.approx(50.0)
    assert plain.loc["cited_full", "paper"] == 98.17
    assert plain["ours"].sum() == pytest.approx(200.0)
    assert (plain["ours_low"] <= plain["ours"]).all() and (plain["ours"] <= plain["ours_high"]).all()
    trace = a17[(a17["protocol"] == "TRACE")]
    assert (trace["ours"] == 50.0).all()

    a18 = compare.compare_float("table_a18", rows, "smollm2")
    gpt = a18[(a18["paper_judge"] == "GPT-5.5") & (a18["protocol"] == "plain preference")]
    gpt = gpt.set_index("metric")
    assert gpt.loc["cited_full_wins", "paper"] == pytest.approx(100 * 371 / 400)
    assert gpt.loc["cited_full_wins", "ours"] == pytest.approx(100.0)
    assert gpt.loc["cited_full_wins", "n"] == 6 and gpt.loc["cited_full_wins", "k"] == 6
    ct = a18[(a18["protocol"] == "correctness-first")]
    assert ct["ours"].isna().all()  # L3 not run here


def test_contrasts_pair_the_same_ordered_comparisons_and_say_their_direction():
    l0 = _rows("moderate_hotpotqa", "ladder", "L0", ["plain"] * 20, relation="quality_moderate",
               gold="plain")
    l4 = _rows("moderate_hotpotqa", "ladder", "L4", ["plain"] * 2 + ["tie"] * 18,
               relation="quality_moderate", gold="plain")
    trace = _rows("moderate_hotpotqa", "trace_v2", "", ["unparsed"] * 20,
                  relation="quality_moderate", gold="plain")
    out = contrasts.contrasts_e5(_nb(_frame(l0, l4, trace), "05_frontier")).set_index("contrast")
    r = out.loc["L0 vs L4"]
    assert r["n"] == 20 and r["difference"] == pytest.approx(90.0)
    assert r["discordant_a_only"] == 18 and r["discordant_b_only"] == 0
    assert r["mcnemar_p"] < 0.001 and r["p"] == "p<0.001"
    assert r["difference_low"] <= 90.0 <= r["difference_high"]
    assert r["direction"] == "better-plain higher under L0 (100.0%) than under L4 (10.0%)"
    assert r["paper"].startswith("better-plain falls from L0 to L4 by 89 points [84.5, 93] for "
                                 "Claude")  # readable text, numbers from in_text_claims.csv
    t = out.loc["L4 vs TRACE"]  # TRACE never parsed: no unit, said so, no p
    assert t["n"] == 0 and t["p"] == "" and np.isnan(t["difference"])
    assert np.isnan(t["mcnemar_p"]) and t["agrees"] == ""  # no unit: undefined, not 1.0
    assert r["agrees"] == "yes"  # falls from L0 to L4, p < 0.05, as the paper says
    assert t["direction"].startswith("no ordered comparison has a parsed verdict under both")
    assert t["n_unparsed"] == 20


def test_tie_decomposition_never_pools_tiers_and_quotes_human_prevalence():
    rows = _frame(_rows("soft_hotpotqa", "ladder", "L3", ["tie"] * 9 + ["plain"],
                        relation="quality_soft", gold="plain"),
                  _rows("moderate_hotpotqa", "ladder", "L3", ["tie"] * 2 + ["plain"] * 8,
                        relation="quality_moderate", gold="plain"))
    out = tables.tie_decomposition(_nb(rows)).set_index("target_relation")
    assert out.loc["quality_soft", "tie"] == pytest.approx(90.0)
    assert out.loc["quality_moderate", "tie"] == pytest.approx(20.0)
    assert out.loc["quality_soft", "paper_human_tie"] == 96
    assert out.loc["quality_moderate", "paper_human_tie"] == 9
    assert "resolution loss" in out.loc["quality_moderate", "tie_means"]


def test_table_2_without_labels_shows_the_paper_and_empty_ours(tmp_path):
    t2 = tables.table_2(root=tmp_path)
    assert set(t2["validation_set"]) == set(paper_table("table_2")["validation_set"])
    assert t2["ours"].isna().all() and (t2["n"] == 0).all()
    assert set(t2["status"]) == {"needs human labels"}
    assert t2.set_index(["validation_set", "metric"]).loc[("Graded moderate", "pabak"),
                                                          "paper"] == 1.0


def test_unknown_float_names_the_known_ones():
    with pytest.raises(ValueError, match="no float named 'table_a99'; known: table_1"):
        compare.compare_float("table_a99", pd.DataFrame(), "smollm2")


def test_report_reading_is_computed_from_the_numbers(mechanical):
    cmp = compare.compare_float("table_a9", mechanical, "smollm2", seed=1)
    line = report_index.reading("table_a9", cmp)
    assert line.startswith("Δcitation, mechanical plain: ours 20.0 [")
    # pair-level (§3): 10 pairs, both orders of pairs 0-2 cited, so the interval reaches 46.8
    assert "[-20.0, 60.0] (n=20, unparsed 0%) vs paper 46.8–85.8 (3 judges); our interval reaches" \
        in line
    assert "Tie, mechanical strict: ours 100.0" in line
    cmp.loc[cmp["metric"] == "signed_effect", "ours"] += 5
    assert "ours 25.0" in report_index.reading("table_a9", cmp)
    driven = report_index.reading("table_a9", cmp, position_driven=True)
    assert "interval" not in driven and "position-driven judge" in driven


def _controls(first: int, second: int, tie: int, level="L0"):
    return _rows("position_control", "ladder", level,
                 ["cited"] * first + ["plain"] * second + ["tie"] * tie, relation="identical")


def test_a_judge_that_answers_one_slot_is_read_as_position_driven(tmp_path):
    # decisions alternate orders: cited in cited_first and plain in plain_first both = slot A
    slot_a = _frame(_rows("position_control", "ladder", "L0", ["cited", "plain"] * 20,
                          relation="identical"))
    levels = position.position_levels(slot_a, "smollm2")
    assert levels[0]["first"] == 100.0 and levels[0]["first_low"] > 90
    assert position.slot_picking(levels) == "first"
    text = position.position_reading("smollm2", levels)
    assert "position-driven" in text and "not interpretable as content preferences" in text
    calm = position.position_levels(_frame(_controls(0, 0, 40)), "smollm2")
    assert position.slot_picking(calm) is None
    assert "No slot wins a majority" in position.position_reading("smollm2", calm)
    # the same reading from the written Table A16, as REPORT.md reads it
    a16 = compare.compare_float("table_a16", slot_a, "smollm2")
    assert position.slot_picking(position.position_levels_from_table(a16, "smollm2")) == "first"
