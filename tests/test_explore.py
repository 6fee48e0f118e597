"""Explorer views and beyond-the-paper helpers on small hand-built verdict rows."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from tjb_lib.teaching import explore
from tjb_lib.records import Pair, decision_from_label

SPLIT = {"equivalent": "mechanical_hotpotqa", "quality_soft": "soft_hotpotqa",
         "quality_moderate": "moderate_hotpotqa", "identical": "position_control"}


def _row(pair_id, relation, order, probs, level="L0", judge="toy"):
    p_a, p_b, p_tie = probs
    label = ["A", "B", "Tie"][int(np.argmax(probs))]
    return {"pair_id": pair_id, "split": SPLIT[relation], "target_relation": relation,
            "order": order, "protocol": "ladder", "level": level, "paraphrase": "p0",
            "judge": judge, "raw_text": None, "parsed": label,
            "decision": decision_from_label(label, order), "p_a": p_a, "p_b": p_b,
            "p_tie": p_tie}


def _a_loving_run(level="L0", judge="toy"):
    """A judge that prefers slot A on everything (the embedded judge's habit): every tier gets
    A in both orders, so cited and plain split 50/50; one moderate pair is a clear Tie."""
    rows = []
    for rel in SPLIT:
        for i in range(4):
            for order in ("cited_first", "plain_first"):
                probs = (0.7, 0.2, 0.1)
                if rel == "quality_moderate" and i == 0:
                    probs = (0.2, 0.1, 0.7)
                rows.append(_row(f"{rel}-{i}", rel, order, probs, level, judge))
    return pd.DataFrame(rows)


def _pairs():
    out = []
    for rel, split in SPLIT.items():
        for i in range(4):
            meta = {"dropped_hop": "Tara Strong"} if rel == "quality_moderate" else {}
            out.append(Pair(pair_id=f"{rel}-{i}", split=split, source="hotpotqa",
                            source_id=str(i), target_relation=rel,
                            gold="plain" if rel == "quality_moderate" else "tie",
                            task=f"Question {i}?", plain=f"Answer {i}", cited=f"Answer {i} [1]",
                            artifact="markers", meta=meta))
    return out


def test_static_view_reports_every_tier_with_its_meaning_of_tie():
    view = explore.static_view(_a_loving_run(), "toy", "L0")
    assert list(view["tier"]) == ["equivalent", "soft", "moderate", "control"]
    assert dict(zip(view["tier"], view["meaning_of_tie"])) == {
        "equivalent": "correct", "soft": "calibrated", "moderate": "costly", "control": ""}
    eq = view.set_index("tier").loc["equivalent"]
    assert eq["n"] == 8 and eq["cited"] == 50.0 and eq["plain"] == 50.0 and eq["tie"] == 0.0
    assert view.set_index("tier").loc["moderate", "tie"] == 25.0


def test_threshold_moves_verdicts_into_tie_and_never_out():
    rows = _a_loving_run()
    low = explore.static_view(rows, "toy", "L0", threshold=0.0).set_index("tier")["tie"]
    high = explore.static_view(rows, "toy", "L0", threshold=0.6).set_index("tier")["tie"]
    assert (high >= low).all()
    assert high["equivalent"] == 100.0  # |0.7 - 0.2| = 0.5 < 0.6


def test_threshold_on_text_verdicts_is_a_clear_error():
    rows = _a_loving_run()
    rows[["p_a", "p_b", "p_tie"]] = np.nan
    assert not explore.has_probabilities(rows)
    with pytest.raises(ValueError, match="no stored"):
        explore.static_view(rows, "toy", "L0", threshold=0.2)
    # the threshold at 0 still shows the verdicts as returned
    assert explore.static_view(rows, "toy", "L0")["n"].sum() == len(rows)


def test_setting_with_no_rows_gives_an_empty_table_not_an_error():
    view = explore.static_view(_a_loving_run(), "toy", "L3")
    assert view.empty and "meaning_of_tie" in view.columns


def test_options_list_judges_levels_and_tiers_present():
    rows = pd.concat([_a_loving_run("L0", "toy"), _a_loving_run("L4", "other")])
    opts = explore.options(rows)
    assert opts == {"judge": ["other", "toy"], "level": ["L0", "L4"],
                    "tier": ["equivalent", "soft", "moderate", "control"]}


def test_examples_prefer_pairs_the_judge_called_tie_and_are_seeded():
    rows, pairs = _a_loving_run(), _pairs()
    ex = explore.example_pairs(pairs, rows, "costly", "toy", "L0", n=2, seed=3)
    assert ex[0]["pair_id"] == "quality_moderate-0" and ex[0]["judge_tied"]
    assert not ex[1]["judge_tied"] and ex[1]["split"] == "moderate_hotpotqa"
    assert ex[0]["note"] == "dropped support hop: Tara Strong"
    assert {v["order"] for v in ex[0]["verdicts"]} == {"cited_first", "plain_first"}
    again = explore.example_pairs(pairs, rows, "costly", "toy", "L0", n=2, seed=3)
    assert [e["pair_id"] for e in again] == [e["pair_id"] for e in ex]
    text = explore.render_example(ex[0])
    assert "Tie is costly" in text and "| toy | L0 | cited_first | tie |" in text


def test_examples_for_each_meaning_come_from_its_own_tier():
    rows, pairs = _a_loving_run(), _pairs()
    for meaning, relation in (("correct", "equivalent"), ("calibrated", "quality_soft")):
        ex = explore.example_pairs(pairs, rows, meaning, n=10)
        assert len(ex) == 4 and all(e["pair_id"].startswith(relation) for e in ex)
    with pytest.raises(ValueError, match="meaning must be one of"):
        explore.example_pairs(pairs, rows, "lucky")


def test_load_shipped_rows_reads_row_files_and_skips_the_store(tmp_path):
    judge_dir = tmp_path / "toy"
    judge_dir.mkdir()
    rows = _a_loving_run()
    eq = rows[rows["target_relation"] == "equivalent"]
    (judge_dir / "mechanical_hotpotqa.L0.jsonl").write_text(
        "\n".join(json.dumps(r) for r in eq.to_dict("records")) + "\n", encoding="utf-8")
    (judge_dir / "calls.jsonl").write_text('{"not": "a verdict"}\n', encoding="utf-8")
    got = explore.load_shipped_rows(tmp_path)
    assert len(got) == len(eq) and set(got["split"]) == {"mechanical_hotpotqa"}
    assert explore.load_shipped_rows(tmp_path, judges=["nobody"]).empty
    (judge_dir / "soft_hotpotqa.L0.jsonl").write_text("{broken\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"soft_hotpotqa\.L0\.jsonl: line 1"):
        explore.load_shipped_rows(tmp_path)


def test_operating_point_adds_position_control_rates():
    point = explore.operating_point(_a_loving_run()).iloc[0]
    assert point["control_first_position"] == 100.0 and point["control_second_position"] == 0.0
    assert point["delta_citation"] == 0.0 and point["moderate_better_plain"] == 37.5


def test_order_calibration_removes_the_slot_a_preference_on_controls():
    rows = _a_loving_run()
    # vary the controls' confidence so the prior is an average, not every row
    ctrl = rows["target_relation"] == "identical"
    rows.loc[ctrl, ["p_a", "p_b", "p_tie"]] = np.tile([[0.8, 0.1, 0.1], [0.6, 0.3, 0.1]],
                                                      (int(ctrl.sum()) // 2, 1))
    points, priors = explore.calibration_audit(rows)
    assert priors.iloc[0]["p_a"] == pytest.approx(0.7) and priors.iloc[0]["n"] == 8
    by = points.set_index("correction")
    assert by.loc["none", "control_first_position"] == 100.0
    assert by.loc["full", "control_first_position"] < 100.0
    assert set(points["correction"]) == {"none", "full", "keep_tie"}


def test_calibration_audit_needs_controls_in_every_group():
    rows = _a_loving_run()
    rows = rows[rows["target_relation"] != "identical"]
    with pytest.raises(ValueError, match="no position-only control rows"):
        explore.calibration_audit(rows)


def _text_outside_code(markdown: str) -> str:
    """Everything a Markdown renderer would typeset as prose (not in a code span or block)."""
    from markdown_it import MarkdownIt

    out = []
    for token in MarkdownIt("commonmark").enable("table").parse(markdown):
        for child in token.children or ():
            if child.type == "text":
                out.append(child.content)
    return "\n".join(out)


def test_rendered_example_shows_finqa_dollars_and_code_fences_verbatim():
    task = ("what is the ratio of $ 450697000 to $ 595338000 ( in thousands ) ? *note* "
            "see # table")
    cited = "Answer: 0.76 [1]\n\n```python\nx = 1\n```\n\nSources:\n[1] “10-K”, $ 5 * 3"
    pair = Pair(pair_id="moderate_finqa:T/1:0", split="moderate_finqa", source="finqa",
                source_id="T/1", target_relation="quality_moderate", gold="plain", task=task,
                plain="Answer: 0.76\n\nReasoning: $ 450697000 / $ 595338000 = 0.76",
                cited=cited, artifact="markers",
                meta={"omitted_kind": "base", "omitted_text": "$ 1 / $ 2 = 0.5"})
    rows = pd.DataFrame([_row("moderate_finqa:T/1:0", "quality_moderate", "cited_first",
                              (0.2, 0.1, 0.7))]).assign(split="moderate_finqa")
    example = explore.example_pairs([pair], rows, "costly")[0]
    text = explore.render_example(example)
    prose = _text_outside_code(text)
    assert "$" not in prose and "*note*" not in prose and "Sources" not in prose
    from markdown_it import MarkdownIt

    fences = [t.content for t in MarkdownIt("commonmark").parse(text) if t.type == "fence"]
    assert fences == [task + "\n", pair.plain + "\n", cited + "\n"]  # each shown whole, as is


@pytest.mark.parametrize("split, says, key", [
    ("moderate_finqa", "skipped calculation step (", "omitted_text"),
    ("moderate_hotpotqa", "dropped support hop: ", "dropped_hop"),
])
def test_the_note_of_a_shipped_moderate_pair_names_what_its_cited_side_leaves_out(split, says,
                                                                                   key):
    from tjb_lib.pairs import load_split

    pair = load_split(split)[0]
    rows = pd.DataFrame([_row(pair.pair_id, "quality_moderate", "cited_first",
                              (0.2, 0.1, 0.7))]).assign(split=split)
    note = explore.example_pairs([pair], rows, "costly")[0]["note"]
    assert note.startswith(says) and str(pair.meta[key]) in note


def test_judge_labels_say_what_each_judges_verdicts_are():
    scored = _a_loving_run()
    text = _a_loving_run(judge="toy-rationales")
    text = text[text["target_relation"] == "equivalent"].assign(p_a=np.nan, p_b=np.nan,
                                                               p_tie=np.nan)
    text.loc[text.index[:3], "decision"] = "unparsed"
    labels = dict((judge, label) for label, judge in
                  explore.judge_labels(pd.concat([scored, text], ignore_index=True)))
    assert labels["toy"] == ("toy: 32 verdicts, scored from P(A)/P(B)/P(Tie), 0 unparsed; "
                             "equivalent, soft, moderate, control at L0")
    assert labels["toy-rationales"] == ("toy-rationales: 8 verdicts, text replies, 3 unparsed; "
                                        "equivalent at L0")


def test_paper_frontier_is_the_papers_tables_with_unprinted_cells_left_empty():
    paper = explore.paper_frontier().set_index(["judge", "level"])
    assert paper.loc[("Claude Sonnet 4.6", "L3"), "moderate_tie"] == 28.5  # Table A11
    assert paper.loc[("DeepSeek", "L0"), "soft_cited"] == 24.5  # Table A19
    assert paper.loc[("GPT-5.5", "L0"), "equivalent_cited"] == 85.8  # Table A9, plain
    assert paper.loc[("GPT-5.5", "L4"), "equivalent_tie"] == 100.0  # Table A9, strict
    assert np.isnan(paper.loc[("GPT-5.5", "L2"), "equivalent_cited"])  # A9 prints L0, L4 only
    assert np.isnan(paper.loc[("Gemma-3-12B-IT", "L0"), "soft_tie"])  # not in Table A19
    assert paper.loc[("Claude Sonnet 4.6", "L0"), "delta_citation"] == pytest.approx(50.7)
    assert list(paper.index.get_level_values("judge").unique()[:2]) == ["GPT-5.5",
                                                                       "Claude Sonnet 4.6"]


def test_plot_tiers_names_the_meaning_per_panel_and_never_draws_a_missing_level_as_zero():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ours = explore.operating_point(pd.concat([_a_loving_run("L0"), _a_loving_run("L4")]),
                                   by=("judge", "level"))
    fig = explore.plot_tiers(ours, explore.paper_frontier())
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["equivalent: cited wins; Tie is correct",
                      "soft: worse-cited wins; Tie is calibrated",
                      "moderate: better-plain wins; Tie is costly"]
    first = fig.axes[0].get_lines()[0].get_ydata()  # toy's cited wins on equivalence, L0..L4
    assert first[0] == 50.0 and np.isnan(first[1:4]).all() and first[4] == 50.0
    labels = [t.get_text() for t in fig.axes[-1].get_legend().get_texts()]
    assert labels[:2] == ["toy", "paper: GPT-5.5"] and "Tie" in labels
    plt.close(fig)


def test_same_splits_pools_each_tier_over_the_splits_every_level_holds_and_says_so():
    row = dict(judge="j", decision="tie", order="cited_first")
    rows = pd.DataFrame(
        [{**row, "level": lv, "split": "mechanical_hotpotqa", "target_relation": "equivalent"}
         for lv in ("L0", "L1", "L4")]
        + [{**row, "level": lv, "split": "natural_hotpotqa", "target_relation": "equivalent"}
           for lv in ("L0", "L4")]
        + [{**row, "level": lv, "split": "moderate_hotpotqa",
            "target_relation": "quality_moderate"} for lv in ("L0", "L1", "L4")])
    kept, notes = explore.same_splits(rows)
    assert set(kept["split"]) == {"mechanical_hotpotqa", "moderate_hotpotqa"}
    assert len(kept) == 6
    assert notes[0] == ("equivalent: mechanical_hotpotqa (left out, not held by every judge and "
                        "level: natural_hotpotqa at L0, L4)")
    assert notes[1] == "moderate: moderate_hotpotqa"
    # a level that holds only another split: nothing in common, pooled as it is, and said
    odd = pd.concat([rows.iloc[[0]], rows.iloc[[3]].assign(level="L2")])
    kept, notes = explore.same_splits(odd)
    assert len(kept) == 2 and "hold different splits" in notes[0]
