"""The paper's printed numbers (its tables and in-text claims, data/paper_reported/), writing
tables (CSV + Markdown) and figures (PNG + SVG) under the paper's float names, and the readable
form of a table that the Markdown files and the notebooks show."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import matplotlib
import numpy as np
import pandas as pd

from tjb_lib import paths


def paper_table(name: str) -> pd.DataFrame:
    """A table as the paper printed it (data/paper_reported/<name>*.csv)."""
    matches = sorted(paths.PAPER_REPORTED.glob(f"{name}*.csv"))
    if len(matches) != 1:
        raise FileNotFoundError(f"expected one reported table named {name}* in "
                                f"{paths.PAPER_REPORTED}, found {[m.name for m in matches]}")
    return pd.read_csv(matches[0])


def claim_value(cid: str) -> float:
    """The number the paper states in its text for one claim (in_text_claims.csv)."""
    table = paper_table("in_text_claims").set_index("claim_id")
    if cid not in table.index:
        raise ValueError(f"claim id {cid!r} not in in_text_claims.csv")
    return float(table.loc[cid, "value"])


#: columns holding counts, shown as whole numbers
COUNT_COLUMNS = ("n", "k", "paper_n", "comparisons", "pairs", "wins", "losses", "ties", "calls")
#: quantities that are proportions or probabilities, not percentages: three significant digits
#: (a column or a ``metric`` naming one of these, or a ``unit`` saying proportion or p-value)
COEFFICIENTS = ("pabak", "gwet_ac1", "tie_precision", "item_agreement", "mcnemar_p", "power",
                "threshold", "prior", "p_before", "p_after", "discordance", "churn")


def _is_count(col: str) -> bool:
    return col in COUNT_COLUMNS or col.startswith("n_")


def _is_coefficient(name) -> bool:
    return isinstance(name, str) and any(c in name for c in COEFFICIENTS)


def _fmt(x, kind: str = "rate") -> str:
    """A number as a reader sees it: ``count`` whole, ``coefficient`` to three significant
    digits, a ``rate`` (percent) to one decimal, rounded half-to-even like the paper."""
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return ""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.number)):
        return str(x)
    if isinstance(x, (int, np.integer)) or (kind == "count" and float(x).is_integer()):
        return str(int(x))
    return f"{x:.3g}" if kind == "coefficient" else f"{x:.1f}"


def present(df: pd.DataFrame) -> pd.DataFrame:
    """A table as a reader sees it (the Markdown file and the notebook): rates to one decimal
    (coefficients below 1 to three significant digits), counts as whole numbers, each
    ``x_low``/``x_high`` pair as one ``x 95% CI`` column "[low, high]", a cell whose ``status``
    is not ok shown as that status (``no parsed verdict``, ``not run``, ...) instead of a
    number, no empty column and no text column that repeats an earlier one (``setting`` where
    it equals ``level``). The CSV keeps every column and every digit."""
    out = pd.DataFrame(index=df.index)
    cols = list(df.columns)
    row_coef = np.zeros(len(df), dtype=bool)  # rows whose paper/ours hold a coefficient
    if "metric" in cols:
        row_coef |= df["metric"].map(_is_coefficient).to_numpy(bool)
    if "unit" in cols:
        row_coef |= df["unit"].astype(str).str.contains("proportion|p-value").to_numpy(bool)
    bad = df["status"].ne("ok") if "status" in cols else pd.Series(False, index=df.index)
    value_col = "ours" if "ours" in cols else None
    for col in cols:
        if col.endswith(("_low", "_high")) and col.rsplit("_", 1)[0] in cols:
            continue
        if col in ("ci_low", "ci_high") or (col == "status" and value_col):
            continue
        kinds = np.where(row_coef, "coefficient", "rate") if not _is_count(col) else \
            np.full(len(df), "count")
        if _is_coefficient(col):
            kinds[:] = "coefficient"
        out[col] = [_fmt(v, k) for v, k in zip(df[col], kinds)]
        low, high = (f"{col}_low", f"{col}_high") if f"{col}_low" in cols else \
            (("ci_low", "ci_high") if col == "rate" and "ci_low" in cols else (None, None))
        if low and high in cols:
            out[f"{col} 95% CI"] = [f"[{_fmt(a, k)}, {_fmt(b, k)}]" if pd.notna(a) and pd.notna(b)
                                    else "" for a, b, k in zip(df[low], df[high], kinds)]
    if value_col:
        out.loc[bad, value_col] = df.loc[bad, "status"]
        if "ours 95% CI" in out:
            out.loc[bad, "ours 95% CI"] = ""
    elif {"n", "n_unparsed"} <= set(cols) and "status" not in cols:  # a metrics table
        none = pd.to_numeric(df["n"], errors="coerce").eq(0).to_numpy()
        out["status"] = ["no parsed verdict" if v else "" for v in none]
    keep, text = [], []  # a text column that repeats another (setting = level) is dropped
    for col in out.columns:
        values = out[col].astype(str)
        is_text = col in cols and not pd.api.types.is_numeric_dtype(df[col])
        if (values == "").all() or (is_text and any(values.equals(t) for t in text)):
            continue
        keep.append(col)
        if is_text:
            text.append(values)
    return out[keep].reset_index(drop=True)


def write_table(df: pd.DataFrame, name: str, out_dir: Path,
                notes: Sequence[str] = ()) -> tuple[Path, Path]:
    """Write ``<name>.csv`` (every column, every digit) and ``<name>.md`` (:func:`present`, then
    the ``notes`` a reader needs to read it, one paragraph each)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = out_dir / f"{name}.csv", out_dir / f"{name}.md"
    df.to_csv(csv_path, index=False, lineterminator="\n")
    md = present(df).to_markdown(index=False, disable_numparse=True)  # keep "100.0" as written
    md_path.write_text("\n\n".join([md, *notes]) + "\n", encoding="utf-8")
    return csv_path, md_path


def save_figure(fig, name: str, out_dir: Path) -> tuple[Path, Path]:
    """Save a matplotlib figure as PNG and SVG with fixed metadata (byte-stable reruns)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    png, svg = out_dir / f"{name}.png", out_dir / f"{name}.svg"
    fig.savefig(png, dpi=150, bbox_inches="tight", metadata={"Software": None})
    with matplotlib.rc_context({"svg.hashsalt": name}):  # stable element ids across reruns
        fig.savefig(svg, bbox_inches="tight", metadata={"Date": None, "Creator": None})
    return png, svg
