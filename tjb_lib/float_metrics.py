"""Our metrics behind the paper's floats: each function turns verdict rows (and a seed for the
intervals) into the metrics frame a float's printed cells are read from, grouped by :data:`BY`."""
from __future__ import annotations

import pandas as pd

from tjb_lib import metrics
from tjb_lib.rationale import keyword_rates

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
    return keyword_rates(rows, by=("judge", "split", "decision_type"))
