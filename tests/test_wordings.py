"""Every cell of our tables is one wording of a level: the paraphrases a run also judged (the
conflicts under three wordings, the FinQA wording check) never pool into a level's cell, except
in the rows the paper itself pools (Table A9, and A14 and Figure 2, which print the same cells).
Checked on the shipped verdict rows of every notebook, with another wording's verdicts added."""
from __future__ import annotations

from functools import lru_cache

import pandas as pd
import pytest

from tjb_lib.paper import claim_registry, claim_values, claims, floats
from tjb_lib.run import notebook, sample
from tjb_lib import paths
from tjb_lib.paper.float_metrics import ORIGINAL

SHIPPED = paths.RAW_OUTPUTS / "smollm2"
pytestmark = pytest.mark.skipif(not SHIPPED.is_dir(), reason="needs the shipped raw outputs")
#: the tables built from verdict rows, in their notebooks
TABLES = [f.name for f in floats.FLOATS.values()
          if f.runs and (f.comparison is not None or f.table is not None)]
#: claims that read the other wordings on purpose (how many there are; their lowest cell)
ABOUT_WORDINGS = (claim_values.paraphrase_count, claim_values.conflict_minimum)


def _pools(how) -> bool:
    """A claim that reads every wording: about the wordings, or a cell of a pooling float."""
    if isinstance(how, claim_registry.Cell):
        spec = floats.get(how.float).comparison
        return spec is not None and spec.pools_wordings
    return getattr(how, "function", None) in ABOUT_WORDINGS


@lru_cache(maxsize=None)
def _shipped(name: str) -> pd.DataFrame:
    return sample.run_jobs(sample.notebook_jobs(name), "smollm2", replay_only=True,
                           progress=False)


def _nb(name: str, rows: pd.DataFrame) -> notebook.Notebook:
    nb = notebook.Notebook(name, "smollm2", "default", 0, True, "")
    nb.rows = rows
    return nb


def _with_another_wording(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows plus each ladder verdict again under a wording "p9" that decides otherwise."""
    other = rows.loc[rows["protocol"] == "ladder"].assign(paraphrase="p9")
    other["decision"] = other["decision"].replace({"cited": "plain", "plain": "tie",
                                                   "tie": "cited"})
    return pd.concat([rows, other], ignore_index=True)


@pytest.mark.parametrize("name", TABLES)
def test_a_table_cell_is_one_wording_unless_the_papers_row_pools_them(name):
    f = floats.get(name)
    rows = _shipped(f.notebook)
    assert (rows["paraphrase"] == ORIGINAL).any()
    one = _nb(f.notebook, rows).comparison(name)
    two = _nb(f.notebook, _with_another_wording(rows)).comparison(name)
    pooled = f.comparison is not None and f.comparison.pools_wordings
    if not pooled:
        pd.testing.assert_frame_equal(one, two)
        return
    ladder = one["setting"].str.fullmatch(r"L\d") & (one["n"] > 0)
    assert ladder.any()
    assert (two.loc[ladder, "n"] == 2 * one.loc[ladder, "n"]).all()  # both wordings, pooled


@pytest.mark.parametrize("name", sorted({nb for nb, _ in claim_registry.CLAIMS.values()}))
def test_a_claim_is_one_wording_unless_it_is_about_them_or_its_table_pools_them(name):
    rows = _shipped(name)
    one = claims.table(_nb(name, rows)).set_index("claim_id")
    two = claims.table(_nb(name, _with_another_wording(rows))).set_index("claim_id")
    about = [cid for cid in one.index if _pools(claim_registry.CLAIMS[cid][1])]
    pd.testing.assert_frame_equal(one.drop(about), two.drop(about))


def test_table_a13_counts_the_original_wording_only():
    rows = _shipped("06_trace")
    a13 = _nb("06_trace", rows).comparison("table_a13")
    l4 = rows[(rows["split"] == "moderate_finqa") & (rows["level"] == "L4")]
    assert set(l4["paraphrase"]) == {ORIGINAL, "finqa_boundary"}  # both wordings were run
    parsed = l4[(l4["paraphrase"] == ORIGINAL) & l4["decision"].isin(("cited", "plain", "tie"))]
    cell = a13[a13["metric"] == "l4_tie"].iloc[0]
    assert cell["n"] == len(parsed) and cell["paper_n"] == 100
