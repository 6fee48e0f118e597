"""The float and claim registries: one entry per paper float and per in-text number, read by the
sample, the comparisons, the notebooks and REPORT.md; a new float is one entry, its CSV and one
notebook cell."""
from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest

from tjb_lib.paper import claim_registry, claim_values, claims, floats, report_index, sections, tables
from tjb_lib.run import notebook, sample
from tjb_lib import paths
from tjb_lib.paper.float_metrics import graded
from tjb_lib.paper.float_schema import Comparison, Float, Metric
from tjb_lib.protocols.specs import LEVELS
from tjb_lib.paper.report import paper_table


def _rows(split, protocol, level, decisions, *, relation="quality_moderate", gold="plain",
          paraphrase="p0", start=0, judge="smollm2"):
    """Verdict rows: decisions alternate cited_first / plain_first over consecutive pairs."""
    return [{"pair_id": f"{split}:{start + i // 2}", "split": split, "target_relation": relation,
             "gold": gold, "variant": "", "order": ("cited_first", "plain_first")[i % 2],
             "protocol": protocol, "level": level, "paraphrase": paraphrase, "judge": judge,
             "decision": d, "raw_text": None, "calls": 1, "input_tokens": 100,
             "output_tokens": 0}
            for i, d in enumerate(decisions)]


def _nb(name, rows, tmp_path, not_stored=()):
    nb = notebook.Notebook(name, "smollm2", "default", 0, True, str(tmp_path / "out"))
    nb.rows = pd.DataFrame(rows)
    nb.not_stored = list(not_stored)
    return nb


def test_every_float_is_declared_once_with_a_known_notebook_and_runs():
    assert [f.name for f in floats._ENTRIES] == list(floats.FLOATS)  # none replaced by another
    paper = [f for f in floats.FLOATS.values() if f.paper]
    assert {f.name for f in paper} >= {"table_1", "table_2", "table_a9", "table_a10",
                                       "table_a11", "table_a12", "table_a13", "table_a14",
                                       "table_a15", "table_a16", "table_a17", "table_a18",
                                       "table_a19", "table_a20", "figure_2", "figure_3",
                                       "figure_a1"}
    for f in floats.FLOATS.values():
        assert f.notebook in sections.NOTEBOOKS
        if f.comparison is not None:
            assert f.runs, f.name
            # every printed row maps to a setting of ours whose split the float runs
            splits = {s for s, _ in f.runs}
            for wheres in f.comparison.rows.values():
                for where in (wheres if isinstance(wheres, (list, tuple)) else [wheres]):
                    assert where.get("split", next(iter(splits))) in splits, f.name


def test_every_in_text_claim_is_filed_under_a_notebook_with_a_way_to_compute_it():
    ids = set(paper_table("in_text_claims")["claim_id"])
    registry = claim_registry.CLAIMS
    assert len(ids) == 122 and set(registry) == ids
    functions = set(dict(inspect.getmembers(claim_values, inspect.isfunction)).values())
    for cid, (nb, how) in registry.items():
        assert nb in sections.NOTEBOOKS, cid
        if isinstance(how, claim_registry.Cell):
            f = floats.get(how.float)
            assert f.comparison is not None or f.table is not None, cid
        elif isinstance(how, claim_registry.FromRows):
            assert how.function in functions, cid
        else:
            assert isinstance(how, claim_registry.Absent) and how.status, cid
    absent = {cid for cid, (_, how) in registry.items()
              if isinstance(how, claim_registry.Absent)}
    # only human labels and facts about the paper's annotators are out of reach here
    assert {registry[c][1].status for c in absent} == {"needs human labels",
                                                       "not measurable here"}
    assert len(absent) <= 9


def _moderate_l3(tmp_path):
    # 6 moderate pairs at L3: the judge says Tie (in one order) on pairs 0-2
    return _rows("moderate_hotpotqa", "ladder", "L3", ["tie", "plain"] * 3 + ["plain"] * 6)


def test_tie_precision_needs_human_labels_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "HUMAN_VALIDATION", tmp_path / "no_labels")
    t = claims.table(_nb("04_resolution_loss", _moderate_l3(tmp_path), tmp_path))
    t = t.set_index("claim_id")
    for cid in ("C034", "C037", "C038", "C039", "C042", "C043"):
        assert t.loc[cid, "status"] == "needs human labels" and np.isnan(t.loc[cid, "ours"])
    assert t.loc["C040", "ours"] == 50.0  # item-level Tie share needs no labels: 3 of 6


def test_tie_precision_from_filled_graded_workbooks(tmp_path, monkeypatch):
    from tjb_lib.validation import annotate
    from tjb_lib.records import Pair

    root = tmp_path / "human_validation"
    pairs = [Pair(pair_id=f"moderate_hotpotqa:{i}", split="moderate_hotpotqa",
                  source="hotpotqa", source_id=f"q{i}", target_relation="quality_moderate",
                  gold="plain", task=f"Question {i}?", plain=f"A{i}. Because {i}.",
                  cited=f"A{i}. [1]") for i in range(6)]
    out = annotate.export_workbooks(pairs, "graded", root, seed=1, name="graded_workbook")
    monkeypatch.setattr(paths, "HUMAN_VALIDATION", root)  # where the labels are looked for
    key = pd.read_csv(out["key"], dtype=str, keep_default_na=False)
    human_tie = {"moderate_hotpotqa:0", "moderate_hotpotqa:3"}  # one of the judge's Ties
    folder = root / "labels" / "graded_workbook"
    folder.mkdir(parents=True)
    for code in ("R1", "R2"):
        items = pd.read_csv(out["csv"], dtype=str, keep_default_na=False)
        pref = {k.item_id: "Tie" if k.pair_id in human_tie else
                ("A" if k.a_side == "plain" else "B") for k in key.itertuples()}
        items["q1_answers_equivalent"] = "yes"
        items["q2_more_complete_support"] = "neither"
        items["q3_more_specific_reasoning"] = "neither"
        items["q4_display_adds_substance"] = "no"
        items["q5_preference"] = items["item_id"].map(pref)
        items.to_csv(folder / f"{code}.csv", index=False)
    t = claims.table(_nb("04_resolution_loss", _moderate_l3(tmp_path), tmp_path))
    t = t.set_index("claim_id")
    assert t.loc["C039", "ours"] == pytest.approx(100 * 2 / 6)  # human Tie prevalence
    assert t.loc["C042", "ours"] == pytest.approx(1 / 3)  # 1 of the judge's 3 Tie items
    assert t.loc["C042", "n"] == 6 and t.loc["C042", "status"] == "ok"
    t2 = claims.table(_nb("01_human_validation", [], tmp_path)).set_index("claim_id")
    assert t2.loc["C014", "ours"] == 100.0  # Table 2's graded-moderate raw agreement


def test_a_new_float_is_one_entry_its_paper_csv_and_one_notebook_cell(tmp_path, monkeypatch):
    reported = tmp_path / "paper_reported"
    reported.mkdir()
    (reported / "table_toy_moderate_tie.csv").write_text(
        "judge,level,tie,source\nGPT-5.5,L0,0.0,Toy\nGPT-5.5,L4,98.0,Toy\n")
    monkeypatch.setattr(paths, "PAPER_REPORTED", reported)
    toy = Float(
        "table_toy", "§5.3", "Toy: moderate-tier Tie at L0 and L4", "04_resolution_loss",
        (("moderate_hotpotqa", "L0"), ("moderate_hotpotqa", "L4")),
        Comparison("table_toy", "judge", ("level",),
                   {(lv,): {"split": "moderate_hotpotqa", "protocol": "ladder", "level": lv}
                    for lv in ("L0", "L4")},
                   (Metric("tie", "tie"),), graded),
        headlines=(("Tie at L4", {"level": "L4", "metric": "tie"}),))
    monkeypatch.setitem(floats.FLOATS, "table_toy", toy)  # the one registry entry

    # the plan runs it, the notebook test expects it from notebook 04
    assert ("moderate_hotpotqa", "L4") in {(j.split, j.protocol) for j in sample.jobs(["table_toy"])}
    assert "table_toy" in [f.name for f in floats.of_notebook("04_resolution_loss")]
    # the notebook cell `nb.show("table_toy")` computes, writes and shows it
    rows = _rows("moderate_hotpotqa", "ladder", "L0", ["plain"] * 10) + \
        _rows("moderate_hotpotqa", "ladder", "L4", ["tie"] * 5 + ["plain"] * 5)
    nb = _nb("04_resolution_loss", rows, tmp_path)
    shown = nb.show("table_toy")
    written = pd.read_csv(tmp_path / "out" / "tables" / "table_toy.csv").set_index("level")
    assert written.loc["L4", "paper"] == 98.0 and written.loc["L4", "ours"] == 50.0
    assert list(shown["ours"]) == ["0.0", "50.0"]
    # and REPORT.md reads it with its headline
    text = report_index.build(tmp_path / "out")
    assert "**table_toy** (§5.3, Toy: moderate-tier Tie at L0 and L4" in text
    assert "Tie at L4: ours 50.0 [" in text and "vs paper 98.0 (1 judge)" in text


def _conflict(level, paraphrase, decisions, start=0):
    return _rows("conflict", "ladder", level, decisions, relation="correctness_conflict",
                 gold="plain", paraphrase=paraphrase, start=start)


def test_conflict_accuracy_is_the_lowest_cell_across_paraphrases_and_orders(tmp_path):
    rows = []
    for level in LEVELS:
        for para in ("p0", "p1", "p2"):
            rows += _conflict(level, para, ["plain"] * 10)
    # L3 p2: the correct (plain) side loses every cited-first comparison
    rows = [r for r in rows if not (r["level"] == "L3" and r["paraphrase"] == "p2")]
    rows += _conflict("L3", "p2", ["cited", "plain"] * 5)
    # L4 p0 has more pairs (the L4 run's own sample); only the paraphrase run's pairs count
    rows += _conflict("L4", "p0", ["cited"] * 10, start=50)
    t = claims.table(_nb("03_strict_suppression", rows, tmp_path)).set_index("claim_id")
    c = t.loc["C003"]
    assert c["paper"] == 93.0 and c["ours"] == 0.0 and c["n"] == 5
    assert c["setting"] == "conflict L3 p2 cited_first" and c["status"] == "ok"
    assert t.loc["C120", "ours"] == 3  # three wordings per level


def test_a_claim_whose_run_was_not_stored_says_not_run(tmp_path):
    job = sample.Job("conflict", "paraphrases", 10)
    rows = _conflict("L4", "p0", ["plain"] * 4)
    t = claims.table(_nb("03_strict_suppression", rows, tmp_path,
                         not_stored=[(job, "0 of 300 comparisons on disk")])).set_index("claim_id")
    assert t.loc["C003", "status"] == "not run" and np.isnan(t.loc["C003", "ours"])
    assert t.loc["C084", "status"] == "not run"


def test_finqa_wording_check_and_l0_to_l4_drop_come_from_the_rows(tmp_path):
    rows = (_rows("moderate_finqa", "ladder", "L2", ["plain"] * 8 + ["tie"] * 2,
                  paraphrase="finqa_a")
            + _rows("moderate_finqa", "ladder", "L2", ["plain"] * 10, paraphrase="finqa_b")
            + _rows("moderate_finqa", "ladder", "L4", ["tie"] * 10, paraphrase="finqa_boundary")
            + _rows("moderate_finqa", "ladder", "L2", ["plain"] * 9 + ["cited"]))
    t = claims.table(_nb("06_trace", rows, tmp_path)).set_index("claim_id")
    assert t.loc["C090", "ours"] == 80.0 and t.loc["C091", "ours"] == 100.0
    assert t.loc["C093", "ours"] == 20.0 and t.loc["C098", "ours"] == 100.0
    assert t.loc["C094", "ours"] == 90.0  # the original L2 wording
    assert t.loc["C097", "status"] == "not run"  # no L3 rows given
    assert t.loc["C121", "ours"] == 2  # two extra L2 wordings

    moderate = (_rows("moderate_hotpotqa", "ladder", "L0", ["plain"] * 20)
                + _rows("moderate_hotpotqa", "ladder", "L4", ["plain"] * 2 + ["tie"] * 18))
    t = claims.table(_nb("05_frontier", moderate, tmp_path)).set_index("claim_id")
    drop = t.loc["C046"]
    assert drop["ours"] == 90.0 and drop["ours_low"] <= 90.0 <= drop["ours_high"]
    assert drop["n"] == 20 and "higher under L0" in drop["note"]
    assert drop["agrees"] == "yes"  # the paper's 89 [84.5, 93] is inside ours
    assert t.loc["C047", "agrees"] == ""  # a bound of the paper's interval, read with C046
    assert t.loc["C044", "ours"] < 0.001 and t.loc["C044", "agrees"] == "yes"
    flat = (_rows("moderate_hotpotqa", "ladder", "L0", ["plain"] * 20)
            + _rows("moderate_hotpotqa", "ladder", "L4", ["plain"] * 20))
    t = claims.table(_nb("05_frontier", flat, tmp_path)).set_index("claim_id")
    assert t.loc["C046", "ours"] == 0.0 and t.loc["C046", "agrees"] == "no"  # computed, not agreed
    assert t.loc["C044", "ours"] == 1.0 and t.loc["C044", "agrees"] == "no"
    assert t.loc["C045", "status"] == "not run"  # no TRACE rows


def test_trace_cost_counts_two_calls_and_only_completed_comparisons(tmp_path):
    l0 = _rows("moderate_hotpotqa", "ladder", "L0", ["plain"] * 4)
    trace = _rows("moderate_hotpotqa", "trace_v2", "", ["plain", "plain", "unparsed", "unparsed"])
    for r in trace[:2]:
        r.update(calls=2, input_tokens=300, output_tokens=100)  # both calls made
    for r in trace[2:]:
        r.update(calls=1, input_tokens=150, output_tokens=256)  # stage 1 did not parse
    nb = _nb("06_trace", l0 + trace, tmp_path)
    cost = tables.protocol_cost(nb).set_index("protocol")
    t = cost.loc["trace_v2"]
    assert t["calls_per_comparison"] == 2 and t["calls_made_per_comparison"] == 1.5
    assert t["n_completed"] == 2 and t["n_stopped_after_stage_1"] == 2
    assert t["token_multiplier"] == pytest.approx(400 / 100)
    c = claims.table(nb).set_index("claim_id")
    assert c.loc["C080", "ours"] == 2.0 and c.loc["C074", "ours"] == pytest.approx(4.0)
    assert "2 of 4 comparisons made every call" in c.loc["C074", "note"]


def test_a_misspelt_name_fails_where_it_is_written_not_when_a_notebook_runs():
    with pytest.raises(ValueError, match="no float named 'table_a99'"):
        claim_registry.Cell("table_a99", {"metric": "tie"})
    with pytest.raises(ValueError, match="unknown notebook '04_resolution'"):
        Float("table_x", "§5.3", "x", "04_resolution")
    for f in floats.FLOATS.values():  # tables and figures are the functions themselves
        assert f.table is None or callable(f.table)
        assert f.figure is None or callable(f.figure)


def test_the_markdown_table_carries_the_position_caveat_and_the_agreement_rule(tmp_path):
    from tjb_lib.paper.paper_match import RULE

    slot_a = _rows("position_control", "ladder", "L0", ["cited", "plain"] * 20,
                   relation="identical")
    rows = slot_a + _rows("moderate_hotpotqa", "ladder", "L0", ["plain"] * 10)
    nb = _nb("04_resolution_loss", rows, tmp_path)
    assert nb.position_driven
    nb.show("table_a11")
    md = (tmp_path / "out" / "tables" / "table_a11.md").read_text()
    assert "smollm2's verdicts are position-driven" in md and RULE in md
    nb.claims()
    assert "position-driven" in (tmp_path / "out" / "tables" / "claims_04_resolution_loss.md"
                                 ).read_text()


def test_a_notebook_shows_the_columns_a_reader_needs_and_links_the_full_csv(tmp_path,
                                                                           monkeypatch):
    from tjb_lib.run import notebook

    said = []
    monkeypatch.setattr(notebook, "_display", lambda obj: said.append(str(obj)))
    slot_a = _rows("position_control", "ladder", "L0", ["cited", "plain"] * 20,
                   relation="identical")
    rows = slot_a + _rows("moderate_hotpotqa", "ladder", "L0", ["plain"] * 10)
    nb = _nb("04_resolution_loss", rows, tmp_path)
    shown = nb.show("table_a11")
    assert [c for c in shown.columns if c != "setting"] == ["paper_judge", "level", "metric",
                                                            "paper", "ours",
                                                            "ours 95% CI", "n", "unparsed",
                                                            "agrees", "status"]
    written = pd.read_csv(tmp_path / "out" / "tables" / "table_a11.csv")
    assert {"n_unparsed", "n_failed", "judge"} <= set(written.columns)  # a link away
    printed = "\n".join(said)
    assert "[table_a11.csv](" in printed and "Ours: `smollm2`" in printed
    claims = nb.claims()
    assert "claim_id" in claims.columns and "note" not in claims.columns
    assert "smollm2's verdicts are position-driven" in said[-2]  # above it, as in REPORT.md
