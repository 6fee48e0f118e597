"""How many pairs a protocol contrast needs (paper §E.5): simulated power of the exact McNemar
test on the better-plain indicator, for a given drop in better-plain rate between two protocols.

Each pair gives two ordered comparisons (both presentation orders); each comparison is judged
under both protocols (paired), so a unit is the pair of indicators (before, after). The joint
law of a unit is fixed by the two marginal rates and the discordance P(before != after):

    P(1, 0) = (d + Δ) / 2,   P(0, 1) = (d - Δ) / 2,   Δ = p_before - p_after.

The smallest possible discordance, |Δ|, means the new protocol only ever moves comparisons one
way (better-plain turns into Tie, none the other way), the pattern of the L0 -> L4 drop; larger
discordance means more churn and less power. ``order_agreement`` is the chance that a pair's
second order repeats its first order's unit exactly (clustering within pairs; 0 = independent).
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd
from scipy import stats as sps


def _check_rate(name: str, p: float) -> float:
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"{name} must be a rate in [0, 1], got {p}")
    return p


def cell_probabilities(p_before: float, p_after: float,
                       discordance: float | None = None) -> np.ndarray:
    """(P(1,1), P(1,0), P(0,1), P(0,0)) of one ordered comparison under the two protocols."""
    pb, pa = _check_rate("p_before", p_before), _check_rate("p_after", p_after)
    delta = pb - pa
    lo, hi = abs(delta), min(pb + pa, 2.0 - pb - pa)
    d = lo if discordance is None else float(discordance)
    if not lo - 1e-12 <= d <= hi + 1e-12:
        raise ValueError(f"discordance {d} impossible for rates {pb} -> {pa}: it must lie in "
                         f"[{lo:.4g}, {hi:.4g}]")
    p10, p01 = (d + delta) / 2, (d - delta) / 2
    cells = np.array([pb - p10, p10, p01, 1.0 - pb - p01])
    return np.clip(cells, 0.0, 1.0) / np.clip(cells, 0.0, 1.0).sum()


def mcnemar_p(b, c) -> np.ndarray:
    """Vectorised two-sided exact McNemar p (binomial test at 1/2 on the discordant counts);
    no discordant units gives 1, as ``tjb_lib.analysis.stats.mcnemar_exact``."""
    b, c = np.asarray(b, dtype=np.int64), np.asarray(c, dtype=np.int64)
    n = b + c
    p = 2.0 * sps.binom.cdf(np.minimum(b, c), np.maximum(n, 1), 0.5)
    return np.where(n == 0, 1.0, np.minimum(p, 1.0))


def _fisher_p(k1: np.ndarray, k2: np.ndarray, m: int) -> np.ndarray:
    """Two-sided Fisher exact p for k1/m vs k2/m, computed once per distinct table."""
    tables, inverse = np.unique(np.column_stack([k1, k2]), axis=0, return_inverse=True)
    p = np.array([sps.fisher_exact([[x, m - x], [y, m - y]]).pvalue for x, y in tables])
    return p[inverse.ravel()]


def _unit_counts(rng: np.random.Generator, n_pairs: int, cells: np.ndarray, n_sim: int,
                 order_agreement: float) -> np.ndarray:
    """(n_sim, 4) cell counts over the 2 * n_pairs ordered comparisons of each simulated study."""
    repeated = rng.binomial(n_pairs, order_agreement, size=n_sim)  # pairs whose orders agree
    twice = rng.multinomial(repeated, cells)                       # each counts two units
    single = rng.multinomial(2 * (n_pairs - repeated), cells)
    return 2 * twice + single


def power_curve(p_before: float, p_after: float, n_pairs_grid: Iterable[int],
                alpha: float = 0.05, n_sim: int = 2000, seed: int = 0, paired: bool = True,
                discordance: float | None = None, order_agreement: float = 0.0) -> pd.DataFrame:
    """Simulated power per number of pairs (two ordered comparisons each).

    ``paired=True``: the same comparisons under both protocols, exact McNemar on the discordant
    counts. ``paired=False``: separate comparisons per protocol, two-sided Fisher exact test
    (``discordance`` and the pairing do not apply). Each n draws from its own stream
    ``default_rng([seed, n])``, so a point does not depend on the rest of the grid.
    Columns: n_pairs, n_comparisons, power and its Monte Carlo 95% Wilson interval.
    """
    from tjb_lib.analysis import stats

    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if not 0.0 <= order_agreement <= 1.0:
        raise ValueError(f"order_agreement must be in [0, 1], got {order_agreement}")
    if n_sim < 1:
        raise ValueError(f"n_sim must be >= 1, got {n_sim}")
    cells = cell_probabilities(p_before, p_after, discordance)
    rows = []
    for n in n_pairs_grid:
        n = int(n)
        if n < 1:
            raise ValueError(f"numbers of pairs must be >= 1, got {n}")
        rng = np.random.default_rng([seed, n])
        if paired:
            counts = _unit_counts(rng, n, cells, n_sim, order_agreement)
            p = mcnemar_p(counts[:, 1], counts[:, 2])
        else:
            m = 2 * n
            k1 = rng.binomial(m, p_before, size=n_sim)
            k2 = rng.binomial(m, p_after, size=n_sim)
            p = _fisher_p(k1, k2, m)
        k = int(np.sum(p <= alpha))
        low, high = stats.wilson(k, n_sim)
        rows.append({"n_pairs": n, "n_comparisons": 2 * n, "power": k / n_sim,
                     "power_low": low, "power_high": high})
    out = pd.DataFrame(rows)
    out.attrs.update({"p_before": p_before, "p_after": p_after, "alpha": alpha,
                      "n_sim": n_sim, "seed": seed, "paired": paired,
                      "discordance": discordance, "order_agreement": order_agreement})
    return out


def pairs_needed(p_before: float, p_after: float, power: float = 0.8, alpha: float = 0.05,
                 n_sim: int = 2000, seed: int = 0, max_pairs: int = 100_000,
                 **kwargs) -> int:
    """Smallest number of pairs whose simulated power reaches ``power``: doubling to bracket it,
    then bisection. The exact test's power saw-tooths slightly in n, so this is the first n on
    that search path that reaches the target. Raises if ``max_pairs`` is not enough."""
    if not 0 < power < 1:
        raise ValueError(f"power must be in (0, 1), got {power}")
    if p_before == p_after:
        raise ValueError("p_before == p_after: with no effect the power stays at about alpha")

    def ok(n: int) -> bool:
        return power_curve(p_before, p_after, [n], alpha, n_sim, seed,
                           **kwargs)["power"].iloc[0] >= power

    lo, hi = 0, 1
    while not ok(hi):
        if hi >= max_pairs:
            raise ValueError(f"power {power} not reached with {max_pairs} pairs "
                             f"({p_before} -> {p_after})")
        lo, hi = hi, min(2 * hi, max_pairs)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


# ------------------------------------------------------------ planning from an observed contrast


def contrast_churn(contrast: pd.DataFrame) -> pd.DataFrame:
    """From :func:`tjb_lib.analysis.metrics.paired_contrast` rows: the observed rates as proportions,
    the observed drop, the discordance (share of units that changed) and the extra churn beyond
    the one-way minimum (discordance - |drop|), which a power scenario can carry over."""
    missing = [c for c in ("n", "b_only", "c_only", "rate_a", "rate_b") if c not in contrast]
    if missing:
        raise ValueError(f"contrast rows: missing column(s) {missing}")
    out = contrast.copy()
    n = out["n"].where(out["n"] > 0)
    out["p_before"] = out["rate_a"] / 100
    out["p_after"] = out["rate_b"] / 100
    out["drop"] = out["p_before"] - out["p_after"]
    out["discordance"] = (out["b_only"] + out["c_only"]) / n
    out["extra_churn"] = (out["discordance"] - out["drop"].abs()).clip(lower=0)
    return out


def power_plan(p_before: float, drops: Iterable[float], extra_churn: float = 0.0,
               power: float = 0.8, alpha: float = 0.05, n_sim: int = 2000, seed: int = 0,
               max_pairs: int = 20_000) -> pd.DataFrame:
    """Pairs needed to detect each drop in better-plain rate from ``p_before`` (paired design,
    exact McNemar, :func:`pairs_needed`), under two churn scenarios: ``one-way`` (comparisons
    only move from better-plain to not) and ``observed churn`` (``extra_churn`` added to the
    discordance, capped at what the rates allow). Drops that leave the rate below 0 are
    skipped; an unreachable target gives NaN pairs."""
    rows = []
    scenarios = [("one-way", 0.0)] + ([("observed churn", float(extra_churn))]
                                      if extra_churn > 0 else [])
    for drop in drops:
        drop = float(drop)
        p_after = p_before - drop
        if drop <= 0 or p_after < 0:
            continue
        for name, extra in scenarios:
            hi = min(p_before + p_after, 2.0 - p_before - p_after)
            d = min(drop + extra, hi)
            try:
                need = pairs_needed(p_before, p_after, power=power, alpha=alpha, n_sim=n_sim,
                                    seed=seed, max_pairs=max_pairs, discordance=d)
            except ValueError:
                need = np.nan
            rows.append({"scenario": name, "p_before": p_before, "p_after": p_after,
                         "drop_points": 100 * drop, "discordance": d, "power": power,
                         "alpha": alpha, "pairs_needed": need})
    return pd.DataFrame(rows)
