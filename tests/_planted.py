"""What each written table should recover from the simulated judge's planted rates, computed
from the planted probabilities of the rows behind each cell, never from the metric code: a
metric that exchanged cited and plain (or better and worse) would then miss its planted value.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from tjb_lib.paper import floats
from tjb_lib.judges.simulated import expected_rates

#: the paper's printed column -> the planted value of one row (side probabilities e_cited,
#: e_plain, e_tie of that row; gold the correct side of a conflict row)
ORACLE = {
    "citation_win": lambda e: e.e_cited, "plain_cited_win": lambda e: e.e_cited,
    "worse_cited": lambda e: e.e_cited, "trace_worse_cited": lambda e: e.e_cited,
    "base_win": lambda e: e.e_plain, "better_plain": lambda e: e.e_plain,
    "trace_better_plain": lambda e: e.e_plain,
    "tie": lambda e: e.e_tie, "strict_tie": lambda e: e.e_tie, "l4_tie": lambda e: e.e_tie,
    "trace_tie": lambda e: e.e_tie,
    "signed_effect": lambda e: e.e_cited - e.e_plain,
    "correct_base_win": lambda e: np.where(e.gold == "cited", e.e_cited, e.e_plain),
    "wrong_cited_win": lambda e: np.where(e.gold == "cited", e.e_plain, e.e_cited),
    "first_position_win": lambda e: np.where(e.order == "cited_first", e.e_cited, e.e_plain),
    "second_position_win": lambda e: np.where(e.order == "cited_first", e.e_plain, e.e_cited),
    "keyword_rate": lambda e: np.zeros(len(e)),  # the simulated reason names no citation word
}


def with_expected(rows: pd.DataFrame) -> pd.DataFrame:
    rows = rows.reset_index(drop=True)
    rows["level"] = rows["level"].fillna("")
    return pd.concat([rows, expected_rates(rows)], axis=1)


def _setting(rows: pd.DataFrame, setting: str) -> pd.DataFrame:
    if setting.startswith("L") and setting[1:].isdigit():
        return rows.loc[(rows["protocol"] == "ladder") & (rows["level"] == setting)]
    return rows.loc[rows["protocol"] == setting]


def planted_value(table: str, cell: pd.Series, rows: pd.DataFrame) -> float:
    """The planted value (percent) of one written cell, or NaN where the oracle has none."""
    spec = floats.get(table).comparison
    sub = rows.loc[rows["split"] == cell["our_split"]]
    sub = _setting(sub, str(cell["setting"]))
    if not spec.pools_wordings:
        sub = sub.loc[sub["paraphrase"] == "p0"]
    sub = sub.loc[sub["decision"].isin(("cited", "plain", "tie"))]
    if "system" in cell.index and pd.notna(cell.get("system")):      # Table A17
        s = cell["system"]
        mine = sub.loc[(sub["system_cited"] == s) | (sub["system_plain"] == s)]
        points = np.where(mine["system_cited"] == s, mine["e_cited"], mine["e_plain"]) \
            + 0.5 * mine["e_tie"]
        return 100 * float(np.mean(points)) if len(mine) else np.nan
    if cell["metric"] in ("plain_full_wins", "cited_full_wins"):       # Table A18
        two = sub.loc[sub[["system_plain", "system_cited"]].isin(
            ["plain_full", "cited_full"]).all(axis=1)]
        name = cell["metric"].removesuffix("_wins")
        wins = np.where(two["system_cited"] == name, two["e_cited"], two["e_plain"])
        return 100 * float(np.mean(wins)) if len(two) else np.nan
    if table == "table_a18" and cell["metric"] == "tie":
        two = sub.loc[sub[["system_plain", "system_cited"]].isin(
            ["plain_full", "cited_full"]).all(axis=1)]
        return 100 * float(two["e_tie"].mean()) if len(two) else np.nan
    if table == "table_a16":          # one call answers both orders: count each call once
        sub = sub.drop_duplicates(subset=["pair_id"])
    f = ORACLE.get(cell["metric"])
    if f is None or sub.empty:
        return np.nan
    return 100 * float(np.mean(f(sub)))


def recovery(tables: dict[str, pd.DataFrame], rows: pd.DataFrame) -> pd.DataFrame:
    """One row per checked cell of the comparison ``tables`` (name -> table): table, metric,
    setting, planted, ours, low, high, covered."""
    out = []
    for name, t in tables.items():
        for _, cell in t.loc[t["status"] == "ok"].iterrows():
            if "," in str(cell["setting"]):  # a range over settings (A13's L0-L2): no one value
                continue
            value = planted_value(name, cell, rows)
            if np.isnan(value):
                continue
            out.append({"table": name, "metric": cell["metric"], "setting": cell["setting"],
                        "split": cell["our_split"], "planted": value, "ours": cell["ours"],
                        "low": cell["ours_low"], "high": cell["ours_high"],
                        "covered": cell["ours_low"] - 1e-9 <= value <= cell["ours_high"] + 1e-9})
    return pd.DataFrame(out).drop_duplicates(["table", "metric", "setting", "split", "ours"])
