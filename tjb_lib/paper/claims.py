"""The paper's in-text numbers with ours beside them, one table per notebook
(``claims_<notebook>``).

Each claim of data/paper_reported/in_text_claims.csv is declared in ``tjb_lib.paper.claim_registry``
with the notebook that computes ours and how: a :class:`~tjb_lib.paper.claim_registry.Cell` of one of
our floats, a function of ``tjb_lib.paper.claim_values`` on the notebook's verdict rows
(:class:`~tjb_lib.paper.claim_registry.FromRows`), or the reason ours cannot exist here
(:class:`~tjb_lib.paper.claim_registry.Absent`). Every row carries the paper's value and unit, ours
with its interval and counts where it has them, what of ours stands behind it (``setting``) and
a ``status``: ok, not run, no parsed verdict, needs human labels, ...
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tjb_lib.paper.claim_registry import (AT_LEAST, BOUNDS, CLAIMS, PAPER_RANGES, SAMPLE_SIZES, Absent,
                                    Cell, claims_of)
from tjb_lib.paper.claim_values import result
from tjb_lib.paper.paper_match import agrees, size_agrees
from tjb_lib.paper.report import paper_table

COLUMNS = ("claim_id", "section", "quantity", "paper", "unit", "ours", "ours_low", "ours_high",
           "agrees", "n", "n_unparsed", "n_failed", "setting", "status", "note", "judge")


def table(nb) -> pd.DataFrame:
    """The claims whose value of ours notebook ``nb`` computes, the paper's value beside it."""
    paper = paper_table("in_text_claims").set_index("claim_id")
    out = []
    for cid in claims_of(nb.name):
        how = CLAIMS[cid][1]
        if isinstance(how, Absent):
            value = result(status=how.status, note=how.note)
        elif isinstance(how, Cell):
            value = _cell(nb, how)
        elif missing := [f"{j.split} {j.protocol}" for j, _ in nb.not_stored
                         if (j.split, j.protocol) in how.runs]:
            value = result(setting=", ".join(missing), status="not run",
                           note="its run has no stored verdicts (replay only)")
        else:
            value = how.function(nb, **how.args)
        p = paper.loc[cid]
        if value.get("agrees") is None:
            value["agrees"] = _agrees(cid, paper, value, every_pair=nb.scale == "paper")
        out.append({"claim_id": cid, "section": p["section"], "quantity": p["quantity"],
                    "paper": float(p["value"]), "unit": p["unit"], **value, "judge": nb.judge})
    return pd.DataFrame(out, columns=list(COLUMNS))


def _agrees(cid: str, paper: pd.DataFrame, value: dict[str, Any], every_pair: bool) -> str:
    """The rule of ``tjb_lib.paper.paper_match`` for one claim, with the paper's own interval or
    range where it states one; a sample size is read with ``size_agrees``."""
    if cid in BOUNDS:
        return ""
    stated = float(paper.loc[cid, "value"])
    if cid in SAMPLE_SIZES:
        return size_agrees(stated, value["ours"], every_pair)
    if cid in AT_LEAST and pd.notna(value["ours"]) and value["ours"] >= stated:
        return "yes"
    low, high = (np.nan, np.nan)
    if cid in PAPER_RANGES:
        low, high = (float(paper.loc[c, "value"]) for c in PAPER_RANGES[cid])
    return agrees(stated, value["ours"], value["ours_low"], value["ours_high"], low, high)


#: columns a float's cell may lack (Table 2 has no verdict counts and no interval)
_CELL = ("ours_low", "ours_high", "n_unparsed", "n_failed", "setting")


def _cell(nb, how: Cell) -> dict[str, Any]:
    cmp = nb.comparison(how.float)
    sub = cmp
    for col, val in how.where.items():
        sub = sub[sub[col].isin(val if isinstance(val, (list, tuple)) else [val])]
    sub = sub.drop_duplicates([c for c in ("setting", "metric", "our_split", "validation_set")
                               if c in sub])
    if sub.empty or (sub["status"] == "not run").all():
        return result(setting=f"{how.float}", status="not run")
    sub = sub.reindex(columns=[*sub.columns, *(c for c in _CELL if c not in sub.columns)])
    sub["setting"] = sub["setting"].fillna("").astype(str)
    rated = sub.dropna(subset=["ours"])
    if how.column == "n":
        row = sub.loc[sub["n"].idxmin()] if how.agg == "min" else sub.iloc[0]
        return result(ours=float(row["n"]), n=row["n"], n_unparsed=row["n_unparsed"],
                      n_failed=row["n_failed"], setting=f"{how.float} {row['setting']}".strip(),
                      note="our sample size (parsed verdicts)")
    if rated.empty:
        return result(n=0, n_unparsed=sub["n_unparsed"].sum(), n_failed=sub["n_failed"].sum(),
                      setting=f"{how.float} {','.join(sorted(set(sub['setting'])))}".strip(),
                      status=sub["status"].iloc[0])
    row = rated.loc[getattr(rated["ours"], f"idx{how.agg}")()] if how.agg else rated.iloc[0]
    return result(row["ours"], row["ours_low"], row["ours_high"], row["n"], row["n_unparsed"],
                  row["n_failed"], f"{how.float} {row['setting']}".strip(),
                  note=f"{how.agg} over {len(rated)} settings" if how.agg else "")
