"""Protocol cost, the paper's sixth reporting axis: calls x tokens, and dollars where priced.

Prices come from the dated table ``tjb_lib/prices.csv`` (USD per million tokens); a model that
is not in it has no dollar cost (None / NaN), never a silent zero.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pandas as pd

PRICES_CSV = Path(__file__).with_name("prices.csv")
PRICE_COLUMNS = ("model", "provider", "usd_per_mtok_input", "usd_per_mtok_output",
                 "price_date", "source")


@lru_cache(maxsize=4)
def load_prices(path: str | Path = PRICES_CSV) -> pd.DataFrame:
    """The price table, checked: every column present, prices non-negative, models unique."""
    path = Path(path)
    df = pd.read_csv(path, dtype={"price_date": str})
    missing = [c for c in PRICE_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}")
    for col in ("usd_per_mtok_input", "usd_per_mtok_output"):
        num = pd.to_numeric(df[col], errors="coerce")
        bad = df[num.isna() | (num < 0)]
        if len(bad):
            raise ValueError(f"{path}: model {bad['model'].iloc[0]!r} has a bad {col} "
                             f"({bad[col].iloc[0]!r}); expected a non-negative number")
        df[col] = num
    dup = df["model"].str.lower().duplicated()
    if dup.any():
        raise ValueError(f"{path}: model {df['model'][dup].iloc[0]!r} is listed twice")
    return df


def price(model: str, path: str | Path = PRICES_CSV) -> tuple[float, float] | None:
    """(USD per Mtok input, USD per Mtok output) for ``model``, or None if unpriced.

    Matches the exact id, then case-insensitively, then the last path component with any
    ``@revision`` suffix dropped, so ``Qwen/Qwen2.5-14B-Instruct-AWQ`` served by vLLM and the
    embedded ``HuggingFaceTB/SmolLM2-135M-Instruct@...gguf`` find their local-model rows.
    """
    df = load_prices(path)
    lower = df["model"].str.lower()
    base = model.split("@", 1)[0].rsplit("/", 1)[-1].lower()
    for cand in (model, model.lower(), base):
        hit = df[(df["model"] == cand) | (lower == cand)]
        if len(hit):
            row = hit.iloc[0]
            return float(row["usd_per_mtok_input"]), float(row["usd_per_mtok_output"])
    return None


def call_cost(model: str, input_tokens: int | None, output_tokens: int | None) -> float | None:
    """Dollars for one call; None when the model is unpriced or usage is unknown."""
    p = price(model)
    if p is None or input_tokens is None or output_tokens is None:
        return None
    return (input_tokens * p[0] + output_tokens * p[1]) / 1e6


def setting(protocol: str, level: str | None) -> str:
    """The CLI name of a protocol setting: the ladder level (L0..L4) or the protocol name."""
    return level if protocol == "ladder" and level else protocol


def protocol_cost(rows: pd.DataFrame, model: str, relative_to: str | None = None) -> pd.DataFrame:
    """Cost per protocol setting (L0..L4, trace_v1, trace_v2, trace_lite) from verdict rows.

    One row per ordered comparison in; out: comparisons, calls per comparison, input/output
    tokens per comparison (averaged over rows that report usage; ``usage_rows`` says how many)
    and dollars per 1,000 comparisons at list price. ``relative_to`` names a setting to express
    tokens and dollars as multiples of (the paper puts TRACE at 3.7-4.3x the tokens and
    5.3-5.9x the dollars of a one-call judge).
    """
    need = ("protocol", "calls", "input_tokens", "output_tokens")
    missing = [c for c in need if c not in rows.columns]
    if missing:
        raise ValueError(f"verdict rows lack column(s) {missing} needed for protocol cost")
    levels = rows["level"] if "level" in rows.columns else pd.Series("", index=rows.index)
    names = [setting(p, lv) for p, lv in zip(rows["protocol"], levels.fillna(""))]
    p = price(model)
    out = []
    for name, g in rows.groupby(pd.Series(names, index=rows.index), sort=True):
        usage = g.dropna(subset=["input_tokens", "output_tokens"])
        tin = usage["input_tokens"].astype(float).mean() if len(usage) else float("nan")
        tout = usage["output_tokens"].astype(float).mean() if len(usage) else float("nan")
        usd = float("nan") if p is None else (tin * p[0] + tout * p[1]) / 1e6 * 1000
        out.append({"protocol": name, "comparisons": len(g),
                    "calls_per_comparison": g["calls"].astype(float).mean(),
                    "input_tokens_per_comparison": tin, "output_tokens_per_comparison": tout,
                    "tokens_per_comparison": tin + tout, "usage_rows": len(usage),
                    "usd_per_1000_comparisons": usd})
    df = pd.DataFrame(out)
    if relative_to is not None and len(df):
        if relative_to not in set(df["protocol"]):
            raise ValueError(f"relative_to={relative_to!r} is not among the protocol settings "
                             f"{sorted(df['protocol'])}")
        ref = df.set_index("protocol").loc[relative_to]
        df["token_multiplier"] = df["tokens_per_comparison"] / ref["tokens_per_comparison"]
        df["dollar_multiplier"] = df["usd_per_1000_comparisons"] / ref["usd_per_1000_comparisons"]
    return df
