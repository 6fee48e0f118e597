"""The few lines a judge run prints when it ends."""
from __future__ import annotations

from collections import Counter

import pandas as pd

from tjb_lib.judges.prices import call_cost


def summary(df: pd.DataFrame) -> str:
    """A few lines for the terminal: rows, decisions, failures, calls, tokens, dollars, time."""
    r = df.attrs.get("run", {})
    dec = Counter(df["decision"]) if len(df) else Counter()
    decisions = ", ".join(f"{k} {v}" for k, v in sorted(dec.items())) or "none"
    tin = int(pd.to_numeric(df.get("input_tokens"), errors="coerce").sum()) if len(df) else 0
    tout = int(pd.to_numeric(df.get("output_tokens"), errors="coerce").sum()) if len(df) else 0
    usd = "unpriced" if r.get("usd") is None else f"${r['usd']:.4f}"
    total = call_cost(r.get("model", ""), tin, tout)
    total_s = "unpriced" if total is None else f"${total:.4f}"
    return "\n".join([
        f"{r.get('judge')} on {r.get('split')} / {r.get('protocol')}: {len(df)} rows "
        f"-> {r.get('rows_path')}",
        f"  decisions: {decisions}",
        f"  unparsed {dec.get('unparsed', 0)}, failed {dec.get('failed', 0)}",
        f"  calls: {r.get('calls', 0)} made ({r.get('failed_calls', 0)} failed), "
        f"{r.get('hits', 0)} from the store"
        + (f" ({r['batched']} sent by batch)" if r.get("batched") else ""),
        f"  tokens (all rows): {tin} in / {tout} out; this run's calls: "
        f"{r.get('input_tokens', 0)} in / {r.get('output_tokens', 0)} out",
        f"  dollars: {usd} spent by this run, {total_s} for all rows at list price",
        f"  wall time: {r.get('wall_s', 0.0):.1f} s",
    ])
