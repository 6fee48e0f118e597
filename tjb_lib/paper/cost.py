"""Dollars for judge calls, the paper's sixth reporting axis: calls x tokens x dollars per
protocol setting.

A model's price, and so the dollars of one call, come from its provider
(``tjb_lib.judges.prices``); a model that no provider prices has no dollar cost (NaN), never a
silent zero. This module is the one place protocol cost is computed; ``tables.protocol_cost``
calls it.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from tjb_lib.judges.prices import rates
from tjb_lib.protocols.specs import setting_name

#: usage columns of verdict rows and responses that change the price of the input
CACHE_COLUMNS = ("cached_input_tokens", "cache_write_tokens")


def _row_rates(rows: pd.DataFrame, prices) -> tuple[np.ndarray, ...]:
    """(input, cached input, cache write, output) USD per Mtok for every row.

    ``prices``: None (each row's ``judge`` looked up in the price table), a model name, one
    (input, output) pair, or a mapping judge -> (input, output) pair.
    """
    n = len(rows)
    if prices is None or isinstance(prices, str):
        if prices is None and "judge" not in rows.columns:
            raise ValueError("pricing rows by their judge needs a 'judge' column")
        names = rows["judge"] if prices is None else pd.Series(prices, index=rows.index)
        table = {name: rates(str(name)) for name in names.unique()}
        cols = [np.array([np.nan if table[m] is None else getattr(table[m], f) for m in names],
                         dtype=float) for f in ("input", "cached_input", "cache_write", "output")]
        return tuple(cols)
    if isinstance(prices, Mapping):
        if "judge" not in rows.columns:
            raise ValueError("per-judge prices need a 'judge' column")
        unknown = sorted(set(rows["judge"]) - set(prices))
        if unknown:
            raise ValueError(f"no price for judge(s) {unknown}")
        p_in = rows["judge"].map(lambda j: prices[j][0]).to_numpy(float)
        p_out = rows["judge"].map(lambda j: prices[j][1]).to_numpy(float)
    else:
        p_in, p_out = np.full(n, float(prices[0])), np.full(n, float(prices[1]))
    return p_in, p_in, p_in, p_out  # a plain pair prices cached input as fresh input


def protocol_cost(rows: pd.DataFrame, prices=None,
                  by: Sequence[str] = ("judge", "setting"),
                  relative_to: str | None = None) -> pd.DataFrame:
    """Calls, tokens and dollars per ordered comparison, one row per group of ``by``.

    One verdict row per ordered comparison in. ``by`` may name any row column plus ``setting``
    (L0..L4 for ladder rows, else the protocol: ``specs.setting_name``). Every row counts, failed
    calls too (they were paid for); per-comparison token and dollar means use the rows that
    report usage (``n_missing_usage`` says how many do not). Cached and cache-write input tokens
    (columns ``cached_input_tokens``, ``cache_write_tokens`` where present) are priced at their
    own rates. ``usd_per_1000_comparisons`` is NaN for an unpriced judge. ``relative_to`` names a
    setting to express tokens and dollars as multiples of, within each other group (the paper
    puts TRACE at 3.7-4.3x the tokens and 5.3-5.9x the dollars of a one-call judge).
    """
    need = ("protocol", "calls", "input_tokens", "output_tokens")
    missing = [c for c in need if c not in rows.columns]
    if missing:
        raise ValueError(f"verdict rows lack column(s) {missing} needed for protocol cost")
    if rows.empty:
        raise ValueError("protocol cost: no verdict rows")
    frame = pd.DataFrame(index=rows.index)
    levels = rows["level"] if "level" in rows.columns else pd.Series("", index=rows.index)
    frame["setting"] = [setting_name(p, lv) for p, lv in zip(rows["protocol"],
                                                               levels.fillna(""))]
    by = list(by)
    unknown = [c for c in by if c != "setting" and c not in rows.columns]
    if unknown:
        raise ValueError(f"grouping column(s) {unknown} not in verdict rows {list(rows.columns)}")
    for c in by:
        if c != "setting":
            frame[c] = rows[c].astype(object).where(rows[c].notna(), "")
    num = {c: pd.to_numeric(rows[c], errors="coerce").to_numpy(float)
           for c in ("calls", "input_tokens", "output_tokens")}
    cache = {c: (pd.to_numeric(rows[c], errors="coerce").fillna(0).to_numpy(float)
                 if c in rows.columns else np.zeros(len(rows))) for c in CACHE_COLUMNS}
    p_in, p_cached, p_write, p_out = _row_rates(rows, prices)
    fresh = num["input_tokens"] - cache["cached_input_tokens"] - cache["cache_write_tokens"]
    frame["usd"] = (fresh * p_in + cache["cached_input_tokens"] * p_cached
                    + cache["cache_write_tokens"] * p_write + num["output_tokens"] * p_out) / 1e6
    for c, v in {**num, **cache}.items():
        frame[c] = v
    frame["n_comparisons"] = 1
    usage = ~(np.isnan(num["input_tokens"]) | np.isnan(num["output_tokens"]))
    frame["n_missing_usage"] = (~usage).astype(np.int64)
    g = frame.groupby(by, sort=True) if by else frame.groupby(np.zeros(len(frame), dtype=int))
    out = g.agg(n_comparisons=("n_comparisons", "sum"), n_missing_usage=("n_missing_usage", "sum"),
                calls=("calls", "sum"), input_tokens=("input_tokens", "sum"),
                cached_input_tokens=("cached_input_tokens", "sum"),
                output_tokens=("output_tokens", "sum"), calls_per_comparison=("calls", "mean"),
                input_tokens_per_comparison=("input_tokens", "mean"),
                output_tokens_per_comparison=("output_tokens", "mean"),
                usd_per_comparison=("usd", "mean")).reset_index(drop=not by)
    out["tokens_per_comparison"] = (out["input_tokens_per_comparison"]
                                    + out["output_tokens_per_comparison"])
    out["usd_per_1000_comparisons"] = 1000 * out.pop("usd_per_comparison")
    if relative_to is not None:
        out = _relative(out, [c for c in by if c != "setting"], relative_to)
    return out


def _relative(out: pd.DataFrame, groups: list[str], relative_to: str) -> pd.DataFrame:
    if "setting" not in out.columns or relative_to not in set(out["setting"]):
        have = sorted(set(out["setting"])) if "setting" in out.columns else "no setting column"
        raise ValueError(f"relative_to={relative_to!r} is not among the protocol settings {have}")
    ref = out.loc[out["setting"] == relative_to, [*groups, "tokens_per_comparison",
                                                   "usd_per_1000_comparisons"]]
    ref = ref.rename(columns={"tokens_per_comparison": "_ref_tokens",
                              "usd_per_1000_comparisons": "_ref_usd"})
    out = out.merge(ref, on=groups, how="left") if groups else out.assign(
        _ref_tokens=ref["_ref_tokens"].iloc[0], _ref_usd=ref["_ref_usd"].iloc[0])
    out["token_multiplier"] = out["tokens_per_comparison"] / out.pop("_ref_tokens")
    out["dollar_multiplier"] = out["usd_per_1000_comparisons"] / out.pop("_ref_usd")
    return out
