"""Status words that say what happened: "0 of n" for a run with no verdict of the asked kind,
`scope` for a sample size that differs only by the sample judged, and the position-driven mark
every table with an `agrees` column carries."""
from __future__ import annotations

import pandas as pd
import pytest

from tjb_lib.paper import claims, compare, paper_match
from tjb_lib.run import notebook
from tjb_lib.paper.position import DRIVEN_COLUMN


def _rows(split, level, decisions, relation="equivalent", raw=None):
    return pd.DataFrame([{"pair_id": f"{split}:{i // 2}", "split": split,
                          "target_relation": relation, "gold": "tie", "variant": "",
                          "order": ("cited_first", "plain_first")[i % 2], "protocol": "ladder",
                          "level": level, "paraphrase": "p0", "judge": "smollm2", "decision": d,
                          "raw_text": raw, "calls": 1, "input_tokens": 10, "output_tokens": 5}
                         for i, d in enumerate(decisions)])


def _nb(name, rows, tmp_path, scale="default"):
    nb = notebook.Notebook(name, "smollm2", scale, 0, True, str(tmp_path / "out"))
    nb.rows = rows
    return nb


def test_a20_tie_rows_of_a_judge_that_never_says_tie_say_0_of_n():
    reason = '{"verdict": "A", "reason": "A cites its sources [1]."}'
    rows = pd.concat([_rows("mechanical_hotpotqa", "L0", ["cited", "plain"] * 10, raw=reason),
                      _rows("mechanical_hotpotqa", "L4", ["cited", "plain"] * 10, raw=reason)])
    t = compare.compare_float("table_a20", rows, "smollm2")
    hot = t.loc[t["split"] == "HotpotQA mechanical"].set_index(["paper_judge", "decision_type"])
    assert hot.loc[("GPT-5.5", "Tie"), "status"] == "0 of 40 verdicts"
    assert hot.loc[("GPT-5.5", "citation win"), "status"] == "ok"
    assert hot.loc[("GPT-5.5", "citation win"), "ours"] == 100.0
    # a split with no rows at all was not run
    fin = t.loc[t["split"] == "FinQA mechanical"]
    assert set(fin["status"]) == {"not run"}
    # verdicts of the kind, but no rationale text in them: said so, not 0 of n
    quiet = compare.compare_float("table_a20",
                                  _rows("mechanical_hotpotqa", "L0", ["cited", "tie"] * 4),
                                  "smollm2")
    assert set(quiet.loc[quiet["split"] == "HotpotQA mechanical", "status"]) == \
        {"no rationale text"}


@pytest.mark.parametrize("paper, ours, every_pair, word", [
    (400, 40, False, "scope"), (400, 400, False, "yes"), (400, 40, True, "no"),
    (400, 800, False, "no"), (400, float("nan"), False, "")])
def test_a_sample_size_that_differs_only_by_the_sample_reads_scope(paper, ours, every_pair,
                                                                    word):
    assert paper_match.size_agrees(paper, ours, every_pair) == word
    assert "scope" in paper_match.RULE


def test_the_claims_of_sample_sizes_say_scope_on_the_default_sample(tmp_path):
    rows = _rows("ranking_hotpotqa", "L0", ["cited", "plain", "tie"] * 4, relation="system")
    rows["system_plain"], rows["system_cited"] = "plain_full", "cited_full"
    t = claims.table(_nb("07_ranking", rows, tmp_path)).set_index("claim_id")
    assert t.loc["C113", "ours"] == 12 and t.loc["C113", "agrees"] == "scope"
    assert t.loc["C117", "agrees"] == "scope"
    t = claims.table(_nb("07_ranking", rows, tmp_path, scale="paper")).set_index("claim_id")
    assert t.loc["C113", "agrees"] == "no"  # every pair judged and still fewer: a difference


def test_every_table_with_agrees_carries_whether_the_judge_is_position_driven(tmp_path):
    slot_a = _rows("position_control", "L0", ["cited", "plain"] * 20, relation="identical")
    mech = _rows("mechanical_hotpotqa", "L0", ["cited", "plain"] * 10)
    nb = _nb("02_presentation", pd.concat([slot_a, mech]), tmp_path)
    nb.show("table_a9")
    nb.claims()
    for name in ("table_a9", "claims_02_presentation"):
        csv = pd.read_csv(nb.tables / f"{name}.csv")
        cols = list(csv.columns)
        assert cols[cols.index("agrees") + 1] == DRIVEN_COLUMN, name
        assert set(csv[DRIVEN_COLUMN]) == {"yes: first slot"}, name
    calm = _nb("02_presentation", pd.concat([
        _rows("position_control", "L0", ["tie"] * 40, relation="identical"), mech]), tmp_path)
    calm.show("table_a9")
    assert set(pd.read_csv(calm.tables / "table_a9.csv")[DRIVEN_COLUMN]) == {"no"}
    blind = _nb("02_presentation", mech, tmp_path)
    blind.show("table_a9")
    assert set(pd.read_csv(blind.tables / "table_a9.csv")[DRIVEN_COLUMN]) == {"not known"}
