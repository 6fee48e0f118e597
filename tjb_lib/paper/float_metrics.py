"""Our metrics behind the paper's floats: each function turns verdict rows (and a seed for the
intervals) into the metrics frame a float's printed cells are read from, grouped by :data:`BY`."""
from __future__ import annotations

import pandas as pd

from tjb_lib.analysis import metrics
from tjb_lib.protocols.specs import PARAPHRASES
from tjb_lib.analysis.rationale import DECISION_TYPES, keyword_rates

#: a level's own wording; our cells are this wording alone unless the paper's row pools them
ORIGINAL = PARAPHRASES[0]


def original_wording(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of each level's original wording: the other wordings of a paraphrase run are
    the paper's wording checks (App. A.4, C.1), reported on their own, never pooled into a
    level's cell."""
    return rows.loc[rows["paraphrase"] == ORIGINAL] if "paraphrase" in rows.columns else rows

#: one row of a metrics frame per judge, split and protocol setting
BY = ("judge", "split", "protocol", "level")


def equivalence(rows: pd.DataFrame, seed: int) -> pd.DataFrame:
    return metrics.equivalence_table(rows, BY, seed=seed)


def graded(rows: pd.DataFrame, seed: int) -> pd.DataFrame:
    return metrics.graded_table(rows, BY, seed=seed)


def correctness(rows: pd.DataFrame, seed: int) -> pd.DataFrame:
    conflicts = rows.loc[rows["target_relation"] == "correctness_conflict"]
    return metrics.correctness_table(conflicts, BY, seed=seed)


def position(rows: pd.DataFrame, seed: int) -> pd.DataFrame:
    return metrics.position_table(rows, BY)


def ranking(rows: pd.DataFrame, seed: int) -> pd.DataFrame:
    return metrics.ranking_scores_with_intervals(rows.loc[rows["target_relation"] == "system"],
                                                 seed=seed)


def direct(rows: pd.DataFrame, seed: int) -> pd.DataFrame:
    return metrics.direct_comparison(rows.loc[rows["target_relation"] == "system"], by=BY)


def rationale(rows: pd.DataFrame, seed: int) -> pd.DataFrame:
    """Keyword rates per judge x split x decision type, with a row (n = 0) for every decision
    type the run never returned, and ``n_verdicts``, the run's parsed verdicts: a run with no
    verdict of a type says "0 of n", never "not run"."""
    by = ["judge", "split", "decision_type"]
    rates = keyword_rates(rows, by=by)
    parsed = rows.loc[rows["decision"].isin(metrics.VERDICTS)]
    runs = parsed.groupby(["judge", "split"], sort=True).size().rename("n_verdicts").reset_index()
    every = runs.merge(pd.DataFrame({"decision_type": list(DECISION_TYPES.values())}),
                       how="cross")
    out = every.merge(rates, on=by, how="outer")
    for col in ("n", "k", "n_without_rationale"):
        out[col] = out[col].fillna(0).astype("int64")
    out["n_verdicts"] = out["n_verdicts"].fillna(0).astype("int64")
    return out.sort_values(by, kind="stable").reset_index(drop=True)
