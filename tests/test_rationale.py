"""Rationale keyword audit: lexicon boundaries, reason extraction, and rates on known counts."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from tjb_lib.paper import floats
from tjb_lib.analysis import rationale

stats = pytest.importorskip("tjb_lib.analysis.stats")


@pytest.mark.parametrize("text", [
    "Candidate A cites its sources.", "The CITATION block", "both are cited",
    "Source: Wikipedia", "references the page", "the evidence is the same",
    "the answer is traceable", "verifiable claims", "it is verified", "well supported",
    "an unsupported claim", "clear attribution", "as stated in [1]", "see [2, 3]",
])
def test_lexicon_finds_source_vocabulary(text):
    assert rationale.mentions_source(text)


@pytest.mark.parametrize("text", [
    "Both answers say yes.", "a resource allocation", "sourdough bread", "the preference",
    "B is more specific", "the supporting reasoning is longer", "list[0] index", "",
])
def test_lexicon_ignores_lookalikes(text):
    assert not rationale.mentions_source(text)


def test_rationale_is_the_reason_field_when_json_parses():
    reply = json.dumps({"verdict": "A", "reason": "A has citations."})
    assert rationale.rationale_text(reply) == "A has citations."
    fenced = "```json\n" + json.dumps({"label": "Tie", "reason": "Same answer."}) + "\n```"
    assert rationale.rationale_text(fenced) == "Same answer."
    assert rationale.rationale_text("I pick A because of its sources.") == \
        "I pick A because of its sources."
    # a JSON reply without a reason has no rationale; its keys ("source" ...) are not one
    assert rationale.rationale_text(json.dumps({"verdict": "A", "source": "x"})) is None
    assert rationale.rationale_text(None) is None
    assert rationale.rationale_text(float("nan")) is None
    assert rationale.mentions_source("cited [1] evidence") and \
        not rationale.mentions_source("the answer is Paris")


def _rows() -> pd.DataFrame:
    """Judge J on split S: 4 citation wins (all mention sources), 5 Ties (2 mention), 1 base win
    (no mention), 2 logit-scored Ties without text, 1 unparsed reply with text."""
    def row(decision, text):
        return {"judge": "J", "split": "S", "decision": decision, "raw_text": text}
    rows = [row("cited", json.dumps({"verdict": "A", "reason": f"A cites source {i}."}))
            for i in range(4)]
    rows += [row("tie", json.dumps({"verdict": "Tie", "reason": "Same evidence."})),
             row("tie", "Tie. Both give the same answer; the citations add nothing."),
             row("tie", json.dumps({"verdict": "Tie", "reason": "Same final answer."})),
             row("tie", "Tie"),
             row("tie", json.dumps({"verdict": "Tie", "reason": "Equivalent."}))]
    rows += [row("plain", json.dumps({"verdict": "B", "reason": "B is more specific."}))]
    rows += [row("tie", None), row("tie", np.nan)]
    rows += [row("unparsed", "I cannot decide between the sources.")]
    return pd.DataFrame(rows)


def test_keyword_rates_counts_wilson_and_rows_without_rationale():
    out = rationale.keyword_rates(_rows()).set_index("decision_type")
    assert list(out.index) == ["Tie", "base win", "citation win", "unparsed"]
    cw = out.loc["citation win"]
    assert (cw.n, cw.k, cw.rate, cw.n_without_rationale) == (4, 4, 100.0, 0)
    assert (cw.ci_low, cw.ci_high) == pytest.approx(tuple(100 * x for x in stats.wilson(4, 4)))
    tie = out.loc["Tie"]
    # the two logit-scored Ties count as without rationale, not as zero-keyword rationales
    assert (tie.n, tie.k, tie.n_without_rationale) == (5, 2, 2)
    assert tie.rate == pytest.approx(40.0)
    assert (tie.ci_low, tie.ci_high) == pytest.approx(tuple(100 * x for x in stats.wilson(2, 5)))
    assert (out.loc["base win"].n, out.loc["base win"].k) == (1, 0)
    assert out.loc["unparsed"].k == 1  # unparsed replies keep their own type, never a Tie


def test_group_with_no_rationale_has_undefined_rate():
    rows = pd.DataFrame({"judge": ["local"] * 3, "split": ["S"] * 3,
                         "decision": ["tie", "cited", "tie"], "raw_text": [None] * 3})
    out = rationale.keyword_rates(rows, by=("judge",))
    assert out.loc[0, "n"] == 0 and out.loc[0, "n_without_rationale"] == 3
    assert np.isnan(out.loc[0, "rate"]) and np.isnan(out.loc[0, "ci_low"])


def test_unknown_grouping_column_is_named():
    with pytest.raises(ValueError, match="protocol"):
        rationale.keyword_rates(_rows(), by=("protocol",))


def test_a20_beside_paper_says_where_no_rationale_exists():
    ours = pd.DataFrame({"judge": ["smollm2"], "split": ["mechanical_hotpotqa"],
                         "decision_type": ["citation win"], "n": [0], "k": [0],
                         "n_without_rationale": [12], "rate": [np.nan], "ci_low": [np.nan],
                         "ci_high": [np.nan]})
    paper = pd.DataFrame({"judge": ["GPT-5.5"], "split": ["HotpotQA mechanical"],
                          "decision_type": ["citation win"], "keyword_rate": [100.0]})
    out = rationale.a20_beside_paper(ours, paper, floats.PAPER_SPLIT_LABELS)
    assert list(out["source"]) == ["paper", "this run"]
    mine = out.iloc[1]
    assert mine["split"] == "HotpotQA mechanical" and mine["n_without_rationale"] == 12
    assert "no rationale text" in mine["note"] and np.isnan(mine["keyword_rate"])
