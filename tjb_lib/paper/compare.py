"""Our numbers beside the paper's, float by float.

Every comparison keeps the paper's rows: one output row per printed cell (paper judge x the
table's own keys x metric), with the paper's value, ours, our 95% interval, our counts and our
judge. Our value is the same for every paper judge of a row, because we ran one judge on the
same split and protocol setting; the paper's judges differ, ours is named in ``judge``. Which of
our settings stands behind each printed row is declared in ``tjb_lib.paper.floats``.

Rates are over parsed verdicts; every cell carries ``n_unparsed``, ``n_failed`` and the
``unparsed`` share beside the rate, and a ``status``: ``ok``, ``not run`` (no verdict rows for
that setting) or ``no parsed verdict`` (rows, but none parsed), so a cell is never an empty 0%.
``agrees`` says whether ours agrees with the paper's value (``tjb_lib.paper.paper_match``).
"""
from __future__ import annotations

from typing import Mapping

import numpy as np
import pandas as pd

from tjb_lib.paper import floats
from tjb_lib.paper.float_metrics import original_wording
from tjb_lib.paper.float_schema import Comparison, Metric
from tjb_lib.paper.paper_match import agrees
from tjb_lib.protocols.specs import setting_name
from tjb_lib.paper.report import paper_table

OUT_COLUMNS = ("paper_judge", "setting", "our_split", "metric", "paper", "ours", "ours_low",
               "ours_high", "agrees", "interval", "n", "k", "n_unparsed", "n_failed", "unparsed",
               "status", "paper_n", "judge")


def paper_values(name: str) -> pd.DataFrame:
    """The paper's printed rows for float ``name``."""
    spec = _comparison(name)
    return spec.paper() if callable(spec.paper) else paper_table(spec.paper)


def our_metrics(name: str, rows: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """The metrics frame behind float ``name``, computed from our verdict rows: each level's
    original wording alone, unless the float declares that the paper's rows pool them."""
    spec = _comparison(name)
    return spec.ours(rows if spec.pools_wordings else original_wording(rows), seed)


def _comparison(name: str) -> Comparison:
    spec = floats.get(name).comparison
    if spec is None:
        raise ValueError(f"{name} is not compared cell by cell with a paper table")
    return spec


def _filter(frame: pd.DataFrame, where: Mapping[str, object]) -> pd.DataFrame:
    mask = np.ones(len(frame), dtype=bool)
    for col, val in where.items():
        if col not in frame.columns:
            return frame.iloc[0:0]
        values = val if isinstance(val, (list, tuple)) else [val]
        mask &= frame[col].isin(values).to_numpy()
    return frame.loc[mask]


def _count_of(row: pd.Series, col: str) -> float:
    return float(row[col]) if col in row.index and pd.notna(row[col]) else np.nan


def cell_status(n: float, matched: bool, has_rationale_column: bool = False,
                n_verdicts: float = np.nan, n_of_kind: float = np.nan) -> str:
    """What an empty cell means: never a rate of 0. A run that returned ``n_verdicts`` parsed
    verdicts, none of the kind the cell asks for (``n_of_kind`` = 0: e.g. no Tie to read a
    rationale of), says "0 of n"."""
    if not matched:
        return "not run"
    if not n:
        if n_of_kind == 0 and n_verdicts > 0:
            return f"0 of {int(n_verdicts)} verdicts"
        return "no rationale text" if has_rationale_column else "no parsed verdict"
    return "ok"


def _cell(ours: pd.DataFrame, where: Mapping[str, object], m: Metric) -> dict:
    hit = _filter(ours, {**where, **m.where})
    base = {"ours": np.nan, "ours_low": np.nan, "ours_high": np.nan, "n": 0, "k": np.nan,
            "n_unparsed": np.nan, "n_failed": np.nan, "unparsed": np.nan,
            "setting": "", "our_split": where.get("split", ""), "status": "not run"}
    if hit.empty:
        return base
    if m.agg in ("min", "max"):
        rated = hit.dropna(subset=[m.ours])
        if rated.empty:  # rows, but no parsed verdict in any of them
            return {**base, "n_unparsed": hit.get("n_unparsed", pd.Series(np.nan)).sum(),
                    "n_failed": hit.get("n_failed", pd.Series(np.nan)).sum(),
                    "status": cell_status(0, True, "n_without_rationale" in hit.columns)}
        hit = rated.loc[[getattr(rated[m.ours], f"idx{m.agg}")()]]
    elif len(hit) > 1:
        raise ValueError(f"{len(hit)} rows of our metrics match {dict(where, **m.where)} for "
                         f"{m.paper!r}: the filter must name one setting")
    row = hit.iloc[0]
    settings = sorted({setting_name(p, lv) for p, lv in
                       zip(hit.get("protocol", [""]), hit.get("level", [""]))} - {""})
    count_col = next((c for c in (f"n_{m.ours}", "k", m.ours.removesuffix("_pct"))
                      if c in hit.columns and c != m.ours), None)
    n = int(row["n"])
    return {"ours": float(row[m.ours]), "ours_low": float(row[m.low or f"{m.ours}_low"]),
            "ours_high": float(row[m.high or f"{m.ours}_high"]), "n": n,
            "k": float(row[count_col]) if count_col and m.interval.startswith("wilson")
            else np.nan,
            "n_unparsed": _count_of(row, "n_unparsed"), "n_failed": _count_of(row, "n_failed"),
            "unparsed": _count_of(row, "unparsed"),
            "setting": ",".join(settings) or str(row.get("protocol", "")),
            "our_split": str(row.get("split", where.get("split", ""))),
            "status": cell_status(n, True, "n_without_rationale" in hit.columns,
                                  _count_of(row, "n_verdicts"),
                                  n + _count_of(row, "n_without_rationale"))}


def compare(name: str, ours: pd.DataFrame, judge: str) -> pd.DataFrame:
    """Paper's rows for float ``name`` with our value beside each printed cell.

    ``ours`` is :func:`our_metrics` (one judge). Output columns: the paper's judge and key
    columns as printed, then :data:`OUT_COLUMNS`. A cell we did not run gets ours = NaN, n = 0
    and status "not run" rather than an error.
    """
    spec = _comparison(name)
    paper = paper_values(name)
    need = [spec.judge_col, *spec.keys, *(m.paper for m in spec.metrics)]
    missing = [c for c in need if c not in paper.columns]
    if missing:
        raise ValueError(f"paper table for {name}: missing column(s) {missing}")
    if "judge" in ours.columns:
        ours = ours.loc[ours["judge"] == judge]
    match = spec.match or spec.keys
    out = []
    for _, prow in paper.iterrows():
        key = tuple(prow[c] for c in match)
        if key not in spec.rows:
            raise ValueError(f"{name}: the paper row {key} has no setting of ours in "
                             f"tjb_lib.paper.floats")
        wheres = spec.rows[key]
        for where in (wheres if isinstance(wheres, (list, tuple)) else [wheres]):
            for m in spec.metrics:
                value = prow[m.paper]
                if m.paper_per:
                    value = 100.0 * value / prow[m.paper_per]
                cell = _cell(ours, where, m)
                value = float(value) if pd.notna(value) else np.nan
                out.append({"paper_judge": prow[spec.judge_col],
                            **{c: prow[c] for c in spec.keys}, **cell, "metric": m.paper,
                            "paper": value,
                            "agrees": agrees(value, cell["ours"], cell["ours_low"],
                                             cell["ours_high"]),
                            "interval": m.interval,
                            "paper_n": prow[spec.paper_n] if spec.paper_n else np.nan,
                            "judge": judge})
    cols = ["paper_judge", *spec.keys, *(c for c in OUT_COLUMNS if c != "paper_judge")]
    return pd.DataFrame(out, columns=cols)


def compare_float(name: str, rows: pd.DataFrame, judge: str, seed: int = 0) -> pd.DataFrame:
    """:func:`our_metrics` then :func:`compare`. No verdict rows at all: every cell not run."""
    if rows.empty or "decision" not in rows.columns:
        return compare(name, pd.DataFrame(columns=["judge"]), judge)
    return compare(name, our_metrics(name, rows, seed), judge)
