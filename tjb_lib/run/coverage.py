"""How often our 95% intervals cover a planted value: verdict rows simulated at known rates, run
through the metric functions (``tjb_lib.analysis.metrics``), over many seeds, at the default sample's
size and at the paper's.

Each kind of interval the tables print is checked on the statistic it is printed for: Wilson
on a rate, the pair-level bootstrap on a signed effect and an order gap (§3), the pair-by-order
bootstrap on a paired protocol contrast (App. E.5). The two orders of a pair are planted as
correlated (a share ``SAME_PAIR`` of pairs gives both orders one draw), as a judge's are. Where
the paper's interval covers less than :data:`TRUSTED`, a covering alternative is computed
beside it on the same rows (BCa over the same pairs, scipy.stats.bootstrap; Agresti and Min's
interval for a paired difference; for a rate, Wilson on the distinct pairs), and ``trust`` says
which a reader should rely on.

``python -m tjb_lib coverage`` writes :data:`COVERAGE_CSV`, which notebook 09 reads, so a replay
never recomputes it; ``tests/test_coverage.py`` checks that the command reproduces its first
seeds.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd
from scipy import stats as sps

from tjb_lib.analysis import metrics, stats
from tjb_lib import paths
from tjb_lib.seeds import SEED

COVERAGE_CSV = paths.OUTPUTS / "stats" / "interval_coverage.csv"
N_SEEDS = 200
#: the first seeds, counted apart so a test can recompute them quickly
CHECK_SEEDS = 10
#: below this coverage the table shows a covering alternative beside the paper's interval
TRUSTED = 0.93
#: share of pairs whose two orders give one verdict (the rest draw each order on its own)
SAME_PAIR = 0.5
#: resamples of every bootstrap, as the paper's
N_RESAMPLES = metrics.N_RESAMPLES


@dataclass(frozen=True)
class Scenario:
    """One interval kind on one planted statistic, on the pairs of one split."""

    name: str
    interval: str                  # a key of stats.INTERVALS
    split: str                     # whose default and paper sizes are used
    planted: float                 # the planted value, percent
    draw: Callable[[np.random.Generator, int], pd.DataFrame]
    estimate: Callable[[pd.DataFrame, int], tuple[float, float, float]]
    alternative: Callable[[pd.DataFrame, int], tuple[float, float]]
    alternative_name: str


def _pairs(rng: np.random.Generator, n_pairs: int, p_first, p_second,
           labels=("cited", "plain", "tie")) -> pd.DataFrame:
    """Verdict rows of ``n_pairs`` pairs in both orders: the cited-first row drawn from
    ``p_first``, the plain-first one from ``p_second``, except that a share SAME_PAIR of pairs
    repeats its first draw (only where both orders share their rates)."""
    first = rng.choice(len(labels), size=n_pairs, p=p_first)
    second = rng.choice(len(labels), size=n_pairs, p=p_second)
    if np.allclose(p_first, p_second):
        same = rng.random(n_pairs) < SAME_PAIR
        second = np.where(same, first, second)
    ids = [f"p{i}" for i in range(n_pairs)]
    return pd.DataFrame({"pair_id": ids * 2, "paraphrase": "p0", "split": "s",
                         "protocol": "ladder", "level": "L0",
                         "order": ["cited_first"] * n_pairs + ["plain_first"] * n_pairs,
                         "decision": [labels[i] for i in np.concatenate([first, second])]})


def _ladder(rng: np.random.Generator, n_pairs: int, p_l0: float, p_l4: float) -> pd.DataFrame:
    """Better-plain indicators of the same pair-by-order units at L0 and L4: a unit that keeps
    better-plain at L4 had it at L0 (the ladder only converts wins into Tie)."""
    units = 2 * n_pairs
    l0 = rng.random(units) < p_l0
    l4 = l0 & (rng.random(units) < p_l4 / p_l0)
    ids = np.repeat([f"p{i}" for i in range(n_pairs)], 2)
    orders = np.tile(["cited_first", "plain_first"], n_pairs)
    return pd.concat([pd.DataFrame({"pair_id": ids, "order": orders, "paraphrase": "p0",
                                    "judge": "sim", "split": "s", "protocol": "ladder",
                                    "level": level,
                                    "decision": np.where(x, "plain", "tie")})
                      for level, x in (("L0", l0), ("L4", l4))], ignore_index=True)


# --------------------------------------------------------------------------- estimates


def _wilson_rate(rows, seed):
    t = metrics.equivalence_table(rows, by=(), n_resamples=1, seed=seed).iloc[0]
    return t["citation_win"], t["citation_win_low"], t["citation_win_high"]


def _signed(rows, seed):
    t = metrics.equivalence_table(rows, by=(), n_resamples=N_RESAMPLES, seed=seed).iloc[0]
    return t["signed_effect"], t["signed_effect_low"], t["signed_effect_high"]


def _gap(rows, seed):
    t = metrics.order_gap_table(rows, by=(), n_resamples=N_RESAMPLES, seed=seed).iloc[0]
    return t["order_gap"], t["order_gap_low"], t["order_gap_high"]


def _contrast(rows, seed):
    t = metrics.paired_contrast(rows, {"level": "L0"}, {"level": "L4"}, by=(),
                                keys=("pair_id", "order"), n_resamples=N_RESAMPLES,
                                seed=seed).iloc[0]
    return t["difference"], t["difference_low"], t["difference_high"]


# --------------------------------------------------------------------------- alternatives


def _per_pair(rows: pd.DataFrame, columns: dict[str, pd.Series]) -> list[np.ndarray]:
    frame = pd.DataFrame({k: v.to_numpy(float) for k, v in columns.items()})
    frame["pair_id"] = rows["pair_id"].to_numpy()
    sums = frame.groupby("pair_id", sort=True).sum()
    return [sums[k].to_numpy() for k in columns]


def _bca(samples: list[np.ndarray], statistic, seed: int) -> tuple[float, float]:
    """BCa interval (scipy.stats.bootstrap) resampling the units of ``samples`` together."""
    if np.all([np.all(s == s[0]) for s in samples]):  # one value repeated: nothing to resample
        value = float(statistic(*[s[None, :] for s in samples], axis=-1)[0])
        return value, value
    with np.errstate(invalid="ignore", divide="ignore"):
        res = sps.bootstrap(tuple(samples), statistic, paired=True, vectorized=True,
                            n_resamples=N_RESAMPLES, method="BCa",
                            random_state=np.random.default_rng(seed))
    return 100 * res.confidence_interval.low, 100 * res.confidence_interval.high


def _wilson_pairs(rows, seed):
    """Wilson on the rate with n = the distinct pairs (each pair's two orders averaged): the
    effective sample when the orders of a pair move together."""
    (k, n) = _per_pair(rows, {"k": rows["decision"].eq("cited"),
                              "n": rows["decision"].isin(metrics.VERDICTS)})
    share = k / n
    low, high = stats.wilson(round(share.sum()), len(share))
    return 100 * low, 100 * high


def _bca_signed(rows, seed):
    pos, neg, n = _per_pair(rows, {"pos": rows["decision"].eq("cited"),
                                   "neg": rows["decision"].eq("plain"),
                                   "n": rows["decision"].isin(metrics.VERDICTS)})
    return _bca([pos, neg, n], lambda a, b, c, axis: (a.sum(axis) - b.sum(axis)) / c.sum(axis),
                seed)


def _bca_gap(rows, seed):
    first, cited = rows["order"].eq("cited_first"), rows["decision"].eq("cited")
    parsed = rows["decision"].isin(metrics.VERDICTS)
    cols = _per_pair(rows, {"a": first & cited, "b": first & parsed, "c": ~first & cited,
                            "d": ~first & parsed})
    return _bca(cols, lambda a, b, c, d, axis: a.sum(axis) / b.sum(axis)
                - c.sum(axis) / d.sum(axis), seed)


def _agresti_min_pairs(rows, seed):
    """Agresti-Min on the signed effect, counted per pair (each pair's share of cited and of
    plain wins over its parsed verdicts): n is the distinct pairs, since a pair's orders move
    together."""
    pos, neg, n = _per_pair(rows, {"pos": rows["decision"].eq("cited"),
                                   "neg": rows["decision"].eq("plain"),
                                   "n": rows["decision"].isin(metrics.VERDICTS)})
    keep = n > 0
    low, high = stats.agresti_min((pos[keep] / n[keep]).sum(), (neg[keep] / n[keep]).sum(),
                                  int(keep.sum()))
    return 100 * low, 100 * high


def _agresti_min_units(rows, seed):
    """Agresti-Min on the paired contrast's pair-by-order units (its discordant counts)."""
    wide = rows.pivot_table(index=["pair_id", "order"], columns="level", values="decision",
                            aggfunc="first")
    a, b = (wide[lv].eq("plain").to_numpy() for lv in ("L0", "L4"))
    low, high = stats.agresti_min(int((a & ~b).sum()), int((~a & b).sum()), len(a))
    return 100 * low, 100 * high


SCENARIOS = (
    Scenario("rate 30%", stats.WILSON, "mechanical_hotpotqa", 30.0,
             lambda rng, n: _pairs(rng, n, [.3, .1, .6], [.3, .1, .6]), _wilson_rate,
             _wilson_pairs, "wilson on distinct pairs"),
    Scenario("rate 2%", stats.WILSON, "mechanical_hotpotqa", 2.0,
             lambda rng, n: _pairs(rng, n, [.02, .01, .97], [.02, .01, .97]), _wilson_rate,
             _wilson_pairs, "wilson on distinct pairs"),
    Scenario("signed effect 20 points", stats.PAIR_LEVEL, "mechanical_hotpotqa", 20.0,
             lambda rng, n: _pairs(rng, n, [.3, .1, .6], [.3, .1, .6]), _signed, _bca_signed,
             "BCa, pairs"),
    Scenario("signed effect 2 points", stats.PAIR_LEVEL, "mechanical_hotpotqa", 2.0,
             lambda rng, n: _pairs(rng, n, [.03, .01, .96], [.03, .01, .96]), _signed,
             _agresti_min_pairs, "Agresti-Min paired difference, n = pairs"),
    Scenario("order gap 20 points", stats.PAIR_LEVEL, "mechanical_hotpotqa", 20.0,
             lambda rng, n: _pairs(rng, n, [.4, .1, .5], [.2, .1, .7]), _gap, _bca_gap,
             "BCa, pairs"),
    Scenario("L0->L4 drop 65 points", stats.PAIR_BY_ORDER, "moderate_hotpotqa", 65.0,
             lambda rng, n: _ladder(rng, n, .85, .20), _contrast, _agresti_min_units,
             "Agresti-Min paired difference, pair-by-order units"),
    Scenario("L0->L4 drop 89 points", stats.PAIR_BY_ORDER, "moderate_hotpotqa", 89.0,
             lambda rng, n: _ladder(rng, n, 1.0, .11), _contrast, _agresti_min_units,
             "Agresti-Min paired difference, pair-by-order units"),
)


def sizes(split: str) -> dict[str, int]:
    """Pairs in the default sample and in the paper's split (every pair, both orders)."""
    from tjb_lib.pairs.registry import get
    from tjb_lib.run.sample import limit_for

    return {"default": limit_for(split, "ladder", "default"), "paper": get(split).size}


def _seed(scenario: int, scale: str, seed: int) -> np.random.Generator:
    return np.random.default_rng([SEED, scenario, ("default", "paper").index(scale), seed])


def run_one(index: int, scale: str, seed: int) -> dict:
    """One simulated study: the paper's interval and the alternative, and whether each covers."""
    s = SCENARIOS[index]
    rows = s.draw(_seed(index, scale, seed), sizes(s.split)[scale])
    _, low, high = s.estimate(rows, seed)
    alt_low, alt_high = s.alternative(rows, seed)
    eps = 1e-9
    return {"covered": low - eps <= s.planted <= high + eps, "width": high - low,
            "alt_covered": alt_low - eps <= s.planted <= alt_high + eps,
            "alt_width": alt_high - alt_low}


def coverage_table(n_seeds: int = N_SEEDS, check_seeds: int = CHECK_SEEDS) -> pd.DataFrame:
    """Per scenario and size: coverage of the paper's interval and of the alternative over
    ``n_seeds`` seeds (and over the first ``check_seeds``, for the reproduction test), mean
    widths, and which a reader should trust."""
    out = []
    for i, s in enumerate(SCENARIOS):
        for scale in ("default", "paper"):
            runs = pd.DataFrame([run_one(i, scale, seed) for seed in range(n_seeds)])
            first = runs.iloc[:check_seeds]
            cover, alt = runs["covered"].mean(), runs["alt_covered"].mean()
            out.append({"scenario": s.name, "interval": s.interval, "scale": scale,
                        "pairs": sizes(s.split)[scale], "planted": s.planted,
                        "seeds": n_seeds, "coverage": cover,
                        "mean_width": runs["width"].mean(),
                        "alternative": s.alternative_name, "alt_coverage": alt,
                        "alt_mean_width": runs["alt_width"].mean(),
                        "trust": _trust(cover, alt, s.alternative_name),
                        "check_seeds": check_seeds, "check_covered": int(first["covered"].sum()),
                        "check_alt_covered": int(first["alt_covered"].sum())})
    return pd.DataFrame(out)


def _trust(cover: float, alt: float, alt_name: str) -> str:
    if cover >= TRUSTED:
        return "the paper's interval"
    if alt >= TRUSTED:
        return alt_name
    return "neither: wider than both, read with care"


def write(n_seeds: int = N_SEEDS, path=COVERAGE_CSV) -> pd.DataFrame:
    """Compute :func:`coverage_table` and write it to ``path`` (the CSV notebook 09 reads)."""
    from pathlib import Path

    table = coverage_table(n_seeds)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(path, index=False, lineterminator="\n", float_format="%.6g")
    return table
