"""The paper's statistics (§3, §E.5, App. B): Wilson intervals, exact McNemar, paired bootstrap,
and two-rater agreement (raw, PABAK, Gwet's AC1, Cohen's kappa).

Everything here works on plain numbers or arrays; ``tjb_lib.analysis.metrics`` decides what the units are.
Conventions the paper leaves open, and the choice made here:

* bootstrap intervals are percentile intervals (the paper does not name a type);
* the bootstrap unit is the one the paper names for each statistic (:data:`INTERVALS`): a pair
  (both of its orders resampled together, :func:`pair_bootstrap`) for signed effects and order
  gaps, §3; a pair-by-order unit, kept paired across the two protocols, for the ladder and
  TRACE contrasts, App. E.5 (:func:`bootstrap` on the units the caller passes);
* McNemar with no discordant units returns p = 1.0 (no evidence of a difference);
* Gwet's AC1 interval is the t interval with n - 1 degrees of freedom, upper end capped at 1,
  as in Gwet's Handbook (4th ed.) and his irrCAC package.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from scipy import special

# scipy.stats is imported by the functions that use it: it costs a notebook kernel about half
# a second of CPU to import, and most notebooks only need the vectorised intervals below

# --------------------------------------------------------------------------- proportions


def _check_count(k, n) -> tuple[int, int]:
    if int(k) != k or int(n) != n:
        raise ValueError(f"counts must be whole numbers, got k={k!r}, n={n!r}")
    k, n = int(k), int(n)
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    return k, n


def wilson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (scipy's implementation).

    Used for rates near 0% or 100% where the normal interval breaks down. n == 0 gives (nan, nan).
    """
    k, n = _check_count(k, n)
    if n == 0:
        return (float("nan"), float("nan"))
    from scipy import stats as sps

    ci = sps.binomtest(k, n).proportion_ci(confidence_level=level, method="wilson")
    return (float(ci.low), float(ci.high))


def wilson_many(k, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised Wilson interval (same closed form as :func:`wilson`), for whole count tables.

    Entries with n == 0 give nan. Used by the metrics so that a table of thousands of groups
    needs no Python loop.
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    if np.any(k < 0) or np.any(k > n):
        raise ValueError("need 0 <= k <= n in every entry")
    z = special.ndtri(0.5 + level / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 2 * (n + z**2)
        center = (2 * n * p + z**2) / denom
        half = z * np.sqrt(4 * n * p * (1 - p) + z**2) / denom
        low = np.clip(center - half, 0.0, 1.0)
        high = np.clip(center + half, 0.0, 1.0)
    low = np.where(k == 0, np.where(n > 0, 0.0, np.nan), low)
    high = np.where(k == n, np.where(n > 0, 1.0, np.nan), high)
    return low, high


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p on the discordant counts b and c (binomial test at p = 0.5).

    Convention: b == c == 0 (no discordant units) returns 1.0.
    """
    b, c = (_check_count(v, v)[0] for v in (b, c))
    if b + c == 0:
        return 1.0
    from scipy import stats as sps

    return float(sps.binomtest(b, b + c, 0.5, alternative="two-sided").pvalue)


def agresti_min(b: float, c: float, n: float, level: float = 0.95) -> tuple[float, float]:
    """Agresti & Min's (2005) adjusted Wald interval for a paired difference of proportions,
    (b - c) / n: b units with the first indicator only, c with the second only, n units. Half
    a unit is added to b and c (and 2 to n), which keeps the interval from collapsing to a point
    when few units are discordant, where bootstrap intervals cover poorly."""
    if n < 0 or b < 0 or c < 0 or b + c > n:
        raise ValueError(f"need 0 <= b + c <= n, got b={b}, c={c}, n={n}")
    if n == 0:
        return (float("nan"), float("nan"))
    bt, ct, nt = b + 0.5, c + 0.5, n + 2.0
    diff = (bt - ct) / nt
    se = np.sqrt(max((bt + ct) / nt - diff**2, 0.0) / nt)
    z = special.ndtri(0.5 + level / 2)
    return (float(max(-1.0, diff - z * se)), float(min(1.0, diff + z * se)))


# --------------------------------------------------------------------------- bootstrap

Stat = Callable[..., np.ndarray]

#: the paper's two sentences on the bootstrap unit, quoted where an interval is named
PAPER_PAIR_LEVEL = ("For signed effects and order gaps, we use pair-level bootstrap confidence "
                    "intervals with 2,000 resamples; for proportions near 0% or 100%, we use "
                    "Wilson score intervals. (§3)")
PAPER_PAIR_BY_ORDER = "Bootstrap intervals use 2,000 resamples over pair-by-order units. (App. E.5)"
#: what each ``interval`` column says: how the interval beside a value was made
WILSON = "wilson"
WILSON_CALLS = "wilson over distinct judge calls"
PAIR_LEVEL = "pair-level bootstrap"
PAIR_BY_ORDER = "pair-by-order bootstrap"
ORDERED = "bootstrap over ordered comparisons"
INTERVALS = {
    WILSON: "95% Wilson score interval on parsed verdicts (§3)",
    WILSON_CALLS: "95% Wilson score interval whose n is the distinct judge calls: both orders of "
                  "a position-only control are one prompt, so one call",
    PAIR_LEVEL: "95% percentile bootstrap, 2,000 resamples of pairs, both orders of a pair "
                "together (§3: signed effects and order gaps)",
    PAIR_BY_ORDER: "95% percentile bootstrap, 2,000 resamples of pair-by-order units, each unit "
                   "paired across the two protocols (App. E.5: the L0->L4, L4->TRACE and "
                   "L3->TRACE contrasts)",
    ORDERED: "95% percentile bootstrap, 2,000 resamples of a system's ordered comparisons "
             "(Table A17 scores; the paper names no unit for them)",
}


def _as_units(x, y) -> tuple[np.ndarray, np.ndarray | None]:
    x = np.asarray(x)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x must be a non-empty 1-D array of units, got shape {x.shape}")
    if y is None:
        return x, None
    y = np.asarray(y)
    if y.shape != x.shape:
        raise ValueError(f"x and y must be paired unit by unit: shapes {x.shape} and {y.shape}")
    return x, y


def mean_difference(x, y=None):
    """The default statistic: nanmean(x) - nanmean(y) along the last axis (or nanmean(x))."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if y is None:
            return np.nanmean(x, axis=-1)
        return np.nanmean(x, axis=-1) - np.nanmean(y, axis=-1)


#: how the resamples are drawn: as how often each distinct unit is drawn, or as indices
RESAMPLING = ("counts", "indices")


def bootstrap(x, y=None, stat: Stat | None = None, n_resamples: int = 2000, seed: int = 0,
              level: float = 0.95, resampling: str | None = None) -> tuple[float, float, float]:
    """(estimate, low, high): ``stat`` on the units and its percentile bootstrap interval.

    Units are resampled with replacement, x[i] and y[i] together so pairs stay pairs; with
    ``y=None`` it is a one-sample bootstrap. ``stat`` maps (x_sample, y_sample) arrays to one
    value along the last axis; the default is :func:`mean_difference` (NaN marks a missing side,
    e.g. a pair judged in only one order, and is left out of that side's mean). ``resampling``:
    "counts" (the default for the mean difference, which depends only on how often each distinct
    unit is drawn, so it costs the same at any n) or "indices" (any statistic); both give the
    same distribution. The resamples depend only on (seed, n, n_resamples) and the resampling.
    """
    x, y = _as_units(x, y)
    resampling = resampling or ("counts" if stat is None else "indices")
    if resampling not in RESAMPLING:
        raise ValueError(f"resampling must be one of {RESAMPLING}, got {resampling!r}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    if resampling == "counts":
        if stat is not None:
            raise ValueError("resampling by counts computes the mean difference only; "
                             "pass resampling='indices' with a statistic of your own")
        estimate = float(mean_difference(np.asarray(x, float),
                                          None if y is None else np.asarray(y, float)))
        return _interval(estimate, _count_resamples(x, y, n_resamples, seed), level)
    stat = stat or mean_difference
    estimate = np.asarray(stat(x) if y is None else stat(x, y), dtype=float)
    if estimate.ndim != 0:
        raise ValueError(f"stat must reduce the last axis: got shape {estimate.shape} for "
                         f"input {x.shape}")
    return _interval(float(estimate), _index_resamples(x, y, stat, n_resamples, seed), level)


def _index_resamples(x, y, stat: Stat, n_resamples: int, seed: int,
                     max_block: int = 2**22) -> np.ndarray:
    """``stat`` on ``n_resamples`` index resamples, the same indices for x and y. Vectorised over
    blocks of resamples (memory stays under ``max_block`` gathered elements); the block size
    does not change the stream."""
    n = x.size
    rng = np.random.default_rng(seed)
    block = max(1, max_block // n)
    out = np.empty(n_resamples, dtype=float)
    for start in range(0, n_resamples, block):  # blocks of resamples, not one resample at a time
        m = min(block, n_resamples - start)
        idx = rng.integers(0, n, size=(m, n))
        vals = stat(x[idx]) if y is None else stat(x[idx], y[idx])
        vals = np.asarray(vals, dtype=float)
        if vals.shape != (m,):
            raise ValueError(f"stat must reduce the last axis: got shape {vals.shape} for "
                             f"input {(m, n)}")
        out[start:start + m] = vals
    return out


def _count_resamples(x, y, n_resamples: int, seed: int) -> np.ndarray:
    """The mean difference on ``n_resamples`` resamples drawn as counts.

    Resampling n units with replacement and then averaging depends only on how often each
    distinct (x, y) row is drawn, which is Multinomial(n, share of that row). Drawing those
    counts directly gives the same distribution as index resampling at a cost that does not grow
    with n, so 0/1 indicators over 100,000 comparisons bootstrap in milliseconds.
    """
    cols = [np.asarray(x, dtype=float)] + ([] if y is None else [np.asarray(y, dtype=float)])
    miss = [np.isnan(c) for c in cols]
    rows = np.column_stack([np.where(m, 0.0, c) for c, m in zip(cols, miss)]
                           + [m.astype(float) for m in miss])
    uniq, counts = np.unique(rows, axis=0, return_counts=True)
    n = int(counts.sum())
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(n, counts / n, size=n_resamples).astype(float)  # (B, k)
    k = len(cols)
    means = []
    with np.errstate(invalid="ignore", divide="ignore"):
        for j in range(k):
            present = 1.0 - uniq[:, k + j]
            means.append((draws @ (uniq[:, j] * present)) / (draws @ present))
    return means[0] if y is None else means[0] - means[1]


def pair_bootstrap(units, stat: Callable[[np.ndarray], np.ndarray], n_resamples: int = 2000,
                   seed: int = 0, level: float = 0.95) -> tuple[float, float, float]:
    """(estimate, low, high) of a statistic of column totals, resampling whole units (pairs).

    ``units`` is one row per pair and one column per count (e.g. cited wins, plain wins, parsed
    verdicts over both orders of the pair); ``stat`` maps an array of column totals, shape
    (..., m), to the statistic, e.g. ``lambda t: (t[..., 0] - t[..., 1]) / t[..., 2]``. A
    resample draws as many pairs as there are, with replacement, so both orders of a pair stay
    together (the paper's pair-level bootstrap, §3). Drawn as counts of each distinct row
    (Multinomial), the same distribution as drawing indices at a cost that does not grow with
    the number of pairs.
    """
    units = np.asarray(units, dtype=float)
    if units.ndim != 2 or units.shape[0] == 0:
        raise ValueError(f"units must be a non-empty 2-D array (pairs x counts), "
                         f"got shape {units.shape}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    with np.errstate(invalid="ignore", divide="ignore"):
        estimate = float(stat(units.sum(axis=0)))
        uniq, counts = np.unique(units, axis=0, return_counts=True)
        n = int(counts.sum())
        draws = np.random.default_rng(seed).multinomial(n, counts / n, size=n_resamples)
        resamples = np.asarray(stat(draws.astype(float) @ uniq), dtype=float)
    return _interval(estimate, resamples, level)


def _interval(estimate: float, resamples: np.ndarray, level: float) -> tuple[float, float, float]:
    alpha = (1 - level) / 2
    if np.all(np.isnan(resamples)):
        return (estimate, float("nan"), float("nan"))
    low, high = np.nanquantile(resamples, [alpha, 1 - alpha])
    return (float(estimate), float(low), float(high))


# --------------------------------------------------------------------------- agreement


def _as_table(table) -> np.ndarray:
    try:
        t = np.asarray(table, dtype=float)
    except (TypeError, ValueError) as e:
        raise ValueError(f"agreement table must be numeric counts: {e}") from None
    if t.ndim != 2 or t.shape[0] != t.shape[1]:
        raise ValueError(f"agreement table must be square (rater 1 rows x rater 2 columns), "
                         f"got shape {t.shape}")
    if t.size == 0:
        raise ValueError("agreement table is empty")
    if not np.all(np.isfinite(t)) or np.any(t < 0):
        raise ValueError("agreement table must hold finite, non-negative counts")
    if t.sum() <= 0:
        raise ValueError("agreement table has no rated items (all counts are 0)")
    return t


def raw_agreement(table) -> float:
    """Share of items on the diagonal (both raters chose the same category)."""
    t = _as_table(table)
    return float(np.trace(t) / t.sum())


def pabak(table, q: int | None = None) -> float:
    """Prevalence- and bias-adjusted kappa, (q * p_o - 1) / (q - 1) for q categories.

    With q = 2 this is Byrt, Bishop & Carlin's 2 * p_o - 1, the form every printed PABAK in the
    paper follows; pass ``q=2`` to get it from a larger table. Default q = the table's size.
    """
    t = _as_table(table)
    q = t.shape[0] if q is None else int(q)
    if q < 2:
        raise ValueError(f"PABAK needs at least 2 categories, got q={q}")
    return float((q * raw_agreement(t) - 1) / (q - 1))


def cohen_kappa(table) -> float:
    """Cohen's kappa (for comparison only: the paper leaves it out under skewed prevalence).
    Returns nan when chance agreement is 1 (both raters used a single category)."""
    t = _as_table(table)
    p = t / t.sum()
    pe = float(p.sum(axis=1) @ p.sum(axis=0))
    po = float(np.trace(p))
    return float("nan") if np.isclose(pe, 1.0) else (po - pe) / (1 - pe)


def gwet_ac1(table, level: float = 0.95) -> dict[str, float]:
    """Gwet's AC1 for two raters with its standard error and confidence interval.

    AC1 = (p_a - p_e) / (1 - p_e), p_e = sum_k pi_k (1 - pi_k) / (q - 1), pi_k the mean of the
    two raters' marginal shares (Gwet 2008). The variance is Gwet's Handbook estimator for two
    raters, which does not assume independent raters; the interval is t with n - 1 df, capped at 1.
    Returns dict(coefficient, se, low, high, pa, pe, n).
    """
    t = _as_table(table)
    q = t.shape[0]
    if q < 2:
        raise ValueError("AC1 needs at least 2 categories")
    n = t.sum()
    p = t / n
    pa = float(np.trace(p))
    pi = (p.sum(axis=1) + p.sum(axis=0)) / 2
    pe = float(np.sum(pi * (1 - pi)) / (q - 1))
    ac1 = (pa - pe) / (1 - pe)
    # Linearised influence of each cell (identity weights, sum of weights = q).
    term = np.eye(q) - 2 * (1 - ac1) * q * (1 - (pi[:, None] + pi[None, :]) / 2) / (q * (q - 1))
    var = (np.sum(p * term**2) - (pa - 2 * (1 - ac1) * pe) ** 2) / (n * (1 - pe) ** 2)
    se = float(np.sqrt(max(var, 0.0)))
    if n > 1:
        from scipy import stats as sps

        tq = float(sps.t.ppf(0.5 + level / 2, df=n - 1))
        low, high = ac1 - tq * se, min(1.0, ac1 + tq * se)
    else:
        low = high = float("nan")
    return {"coefficient": float(ac1), "se": se, "low": float(low), "high": float(high),
            "pa": pa, "pe": pe, "n": float(n)}
