"""The tie-threshold frontier and order calibration, from stored label probabilities alone.

A judge scored by logits leaves P(A), P(B), P(Tie) for every ordered comparison (positional: A is
the first-shown candidate). Re-deciding those rows under a moving Tie rule traces a continuous
bias-resolution frontier (paper §5.4, Figure 3): presentation suppression on equivalence pairs
(Δcitation toward 0, Tie up) against moderate-gap resolution (better-plain rate), next to the
discrete L0-L4 points of the prompt ladder. No new judge call is made.

Order calibration removes the judge's positional prior, estimated on position-only controls
(identical candidates, §9), so the corrected judge can be audited on the same tiers.
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from tjb_lib.records import ORDERS

PROB_COLUMNS = ("p_a", "p_b", "p_tie")
LABELS = np.array(["A", "B", "Tie"], dtype=object)
RULES = ("margin", "bias")
TIERS = {"equivalent": "equivalent", "quality_moderate": "moderate", "quality_soft": "soft",
         "identical": "control", "correctness_conflict": "conflict"}


# --------------------------------------------------------------------------- decision rule


def _stack(p_a, p_b, p_tie) -> tuple[np.ndarray, np.ndarray]:
    """(n, 3) float array of the three label probabilities and a mask of usable rows."""
    p = np.column_stack([np.asarray(x, dtype=float).ravel() for x in (p_a, p_b, p_tie)])
    ok = np.isfinite(p).all(axis=1)
    if np.any(p[ok] < 0):
        raise ValueError("label probabilities must be non-negative")
    ok &= p.sum(axis=1, where=np.isfinite(p)) > 0
    return p, ok


def decide(p_a, p_b, p_tie, tie_margin: float = 0.0, tie_bias: float = 0.0) -> np.ndarray:
    """Positional labels ("A", "B", "Tie", or None) from label probabilities, vectorised.

    Rule: weight P(Tie) by exp(tie_bias) (a log-odds bias toward Tie), renormalise the three
    labels, declare Tie when |P(A) - P(B)| < tie_margin, otherwise take the most probable label.
    With the defaults this is plain argmax, the verdict the scored judge gave; an exact tie
    between the two most probable labels names no label (None, i.e. unparsed), as in
    ``tjb_lib.parse``. Rows with missing or all-zero probabilities give None.
    """
    if tie_margin < 0:
        raise ValueError(f"tie_margin must be >= 0, got {tie_margin}")
    p, ok = _stack(p_a, p_b, p_tie)
    q = p.copy()
    if tie_bias != 0.0:
        q[:, 2] = q[:, 2] * np.exp(tie_bias)
    q[~ok] = 0.0
    # argmax on the weighted (not renormalised) values, so the defaults reproduce parse exactly
    top = np.argmax(q, axis=1)
    srt = np.sort(q, axis=1)
    exact_tie = srt[:, 2] == srt[:, 1]
    out = LABELS[top].astype(object)
    with np.errstate(invalid="ignore", divide="ignore"):
        gap = np.abs(q[:, 0] - q[:, 1]) / q.sum(axis=1)
    out[exact_tie] = None
    out[gap < tie_margin] = "Tie"
    out[~ok] = None
    return out


def decisions_from_labels(labels: np.ndarray, order) -> np.ndarray:
    """Map positional labels to the side they name (cited | plain | tie | unparsed), vectorised
    ``records.decision_from_label``."""
    order = np.asarray(order, dtype=object)
    bad = ~np.isin(order, ORDERS)
    if bad.any():
        raise ValueError(f"field 'order' must be one of {ORDERS}, found {order[bad][0]!r}")
    labels = np.asarray(labels, dtype=object)
    first = np.where(order == "cited_first", "cited", "plain")
    second = np.where(order == "cited_first", "plain", "cited")
    out = np.full(labels.shape, "unparsed", dtype=object)
    out[labels == "A"] = first[labels == "A"]
    out[labels == "B"] = second[labels == "B"]
    out[labels == "Tie"] = "tie"
    return out


def redecide(rows: pd.DataFrame, tie_margin: float = 0.0, tie_bias: float = 0.0) -> pd.DataFrame:
    """Verdict rows with ``parsed`` and ``decision`` recomputed from their probabilities.

    Failed calls stay failed. Every other row must carry p_a, p_b and p_tie: a row without them
    (a text verdict) cannot be moved along the frontier, and is an error naming the item.
    """
    _need(rows, ("order", "decision", *PROB_COLUMNS), "verdict rows")
    replied = rows["decision"].to_numpy() != "failed"
    _, ok = _stack(*(rows[c] for c in PROB_COLUMNS))
    lacking = replied & ~ok
    if lacking.any():
        item = rows.loc[lacking].iloc[0].get("pair_id", rows.index[lacking][0])
        raise ValueError(f"verdict rows: item {item!r} has no usable p_a/p_b/p_tie; the frontier "
                         f"needs logit-scored rows ({int(lacking.sum())} row(s) lack them)")
    labels = decide(rows["p_a"], rows["p_b"], rows["p_tie"], tie_margin, tie_bias)
    out = rows.copy()
    out["parsed"] = np.where(replied, labels, None)
    out["decision"] = np.where(replied, decisions_from_labels(labels, rows["order"]), "failed")
    return out


def _need(rows: pd.DataFrame, cols: Iterable[str], where: str) -> None:
    if not isinstance(rows, pd.DataFrame):
        raise TypeError(f"{where}: expected a pandas DataFrame, got {type(rows).__name__}")
    missing = [c for c in cols if c not in rows.columns]
    if missing:
        raise ValueError(f"{where}: missing column(s) {missing}")
    if rows.empty:
        raise ValueError(f"{where}: no rows")


# --------------------------------------------------------------------------- tier summaries


def tier_rates(rows: pd.DataFrame, by: Sequence[str] = ()) -> pd.DataFrame:
    """One row per group: per tier (target relation) n and the cited / plain / tie rates in
    percent, plus Δcitation (equivalence: W_cited - W_plain) and Δquality (moderate:
    W_better-plain - W_worse-cited). Same denominator as ``tjb_lib.analysis.metrics``: parsed verdicts;
    ``unparsed`` is the share of the replies that did not parse (failed calls left out)."""
    _need(rows, ("decision", "target_relation", *by), "verdict rows")
    keys = list(by) or ["_all"]  # a constant key keeps the frame shape when there is no group
    d = rows.assign(_tier=rows["target_relation"].map(TIERS).fillna(rows["target_relation"]),
                    _all=0)
    d = d[d["decision"] != "failed"]
    counts = (d.groupby(keys + ["_tier"], dropna=False)["decision"].value_counts()
              .unstack(fill_value=0))
    for v in ("cited", "plain", "tie", "unparsed"):
        if v not in counts.columns:
            counts[v] = 0
    n = counts[["cited", "plain", "tie"]].sum(axis=1)
    rates = pd.DataFrame({"n": n})
    for v in ("cited", "plain", "tie"):
        rates[v] = 100.0 * counts[v] / n.where(n > 0)
    rates["unparsed"] = 100.0 * counts["unparsed"] / (n + counts["unparsed"])
    wide = rates.unstack("_tier")
    wide.columns = [f"{tier}_{stat}" for stat, tier in wide.columns]
    wide = wide.reset_index() if by else wide.reset_index(drop=True)
    wide.columns.name = None
    if "equivalent_cited" in wide:
        wide["delta_citation"] = wide["equivalent_cited"] - wide["equivalent_plain"]
    if "moderate_plain" in wide:
        wide["moderate_better_plain"] = wide["moderate_plain"]
        wide["delta_quality"] = wide["moderate_plain"] - wide["moderate_cited"]
    return wide


def sweep(rows: pd.DataFrame, thresholds: Iterable[float], rule: str = "margin",
          by: Sequence[str] = ()) -> pd.DataFrame:
    """The continuous frontier of one run: for each threshold, re-decide every row and report
    :func:`tier_rates`.

    ``rule="margin"``: Tie when |P(A) - P(B)| < t (t in [0, 1]); ``rule="bias"``: add t to the
    log-odds of Tie. Both start from argmax at t = 0, and the Tie rate can only grow with t.
    """
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}, got {rule!r}")
    parts = []
    for t in thresholds:
        kw = {"tie_margin": float(t)} if rule == "margin" else {"tie_bias": float(t)}
        part = tier_rates(redecide(rows, **kw), by)
        part.insert(0, "threshold", float(t))
        part.insert(0, "rule", rule)
        parts.append(part)
    if not parts:
        raise ValueError("no thresholds given")
    return pd.concat(parts, ignore_index=True)


# --------------------------------------------------------------------------- order calibration


def position_prior(control_rows: pd.DataFrame) -> dict[str, float]:
    """The judge's positional prior: mean P(A), P(B), P(Tie) over position-only controls.

    On identical candidates nothing but position can separate A from B, so these means are what
    the judge gives the slots themselves. Probabilities are renormalised per row first.
    """
    _need(control_rows, PROB_COLUMNS, "control rows")
    if "target_relation" in control_rows:
        other = control_rows["target_relation"] != "identical"
        if other.any():
            item = control_rows.loc[other].iloc[0].get("pair_id", "?")
            raise ValueError(f"control rows: item {item!r} has target relation "
                             f"{control_rows.loc[other, 'target_relation'].iloc[0]!r}; the prior "
                             f"must come from position-only controls (identical)")
    p, ok = _stack(*(control_rows[c] for c in PROB_COLUMNS))
    if not ok.any():
        raise ValueError("control rows: no row carries usable p_a/p_b/p_tie")
    q = p[ok] / p[ok].sum(axis=1, keepdims=True)
    mean = q.mean(axis=0)
    return {"p_a": float(mean[0]), "p_b": float(mean[1]), "p_tie": float(mean[2]),
            "n": int(ok.sum())}


def calibrate(rows: pd.DataFrame, prior: Mapping[str, float], keep_tie: bool = False,
              tie_margin: float = 0.0, tie_bias: float = 0.0) -> pd.DataFrame:
    """Rows with order-calibrated probabilities and the decisions they imply.

    Rule (contextual calibration, Zhao et al. 2021): P'(x) ∝ P(x) / prior(x) for x in A, B, Tie,
    renormalised over the three labels, so a judge answering exactly its prior becomes uniform.
    ``keep_tie=True`` corrects only the slots: A and B are divided by prior_A / m and prior_B / m
    (m their mean) and P(Tie) is kept, so the judge's Tie propensity is not touched.
    The prior is a mean of probabilities, so with noisy replies the corrected decisions are
    balanced only approximately (check it on the controls: ``metrics.position_table``).
    The original probabilities are kept as p_a_raw, p_b_raw, p_tie_raw; rows without
    probabilities keep their verdict and get ``calibrated = False``.
    """
    _need(rows, ("order", "decision", *PROB_COLUMNS), "verdict rows")
    w = np.array([prior.get(k, np.nan) for k in PROB_COLUMNS], dtype=float)
    if not np.all(np.isfinite(w)) or np.any(w <= 0):
        raise ValueError(f"prior must give positive p_a, p_b, p_tie, got {dict(prior)}")
    if keep_tie:
        w = np.array([w[0], w[1], 0.0]) / ((w[0] + w[1]) / 2)
        w[2] = 1.0
    p, ok = _stack(*(rows[c] for c in PROB_COLUMNS))
    q = p / w
    with np.errstate(invalid="ignore", divide="ignore"):
        q = q / q.sum(axis=1, keepdims=True)
    out = rows.copy()
    for j, c in enumerate(PROB_COLUMNS):
        out[f"{c}_raw"] = rows[c]
        out[c] = np.where(ok, q[:, j], rows[c].astype(float))
    replied = out["decision"].to_numpy() != "failed"
    use = ok & replied
    labels = decide(q[:, 0], q[:, 1], q[:, 2], tie_margin, tie_bias)
    out["calibrated"] = use
    out["parsed"] = np.where(use, labels, out["parsed"] if "parsed" in out else None)
    out["decision"] = np.where(use, decisions_from_labels(labels, out["order"]), out["decision"])
    return out
