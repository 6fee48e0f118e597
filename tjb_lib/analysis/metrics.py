"""Verdict rows -> the paper's tables (A9-A19): rates, signed effects, order gaps, Tie by target
relation, Tie precision, paired protocol contrasts and ranking scores (protocol cost is in
``tjb_lib.paper.cost``).

Conventions shared by every table (paper §3, §6-§7; choices the paper leaves open are marked):

* Unit: one verdict row = one ordered comparison (pair x order x protocol x level x paraphrase
  x judge). Rates are percent of ordered comparisons.
* Denominator ``n`` [our choice]: parsed verdicts, i.e. decision cited|plain|tie. An unparsed
  reply is never coerced into a verdict: it is counted in ``n_unparsed`` and shown beside the
  rates as ``unparsed``, its share of the replies that came back (parsed + unparsed). Failed
  calls produced no reply: they are counted in ``n_failed``. No row is dropped silently: every
  table carries ``n_unparsed`` and ``n_failed``. A group with no parsed verdict has ``n`` = 0
  and NaN rates (never 0%).
* Percentages are computed as 100 * k / n from integer counts, so exact quarters round
  half-to-even the way the paper's tables do (25.25 -> 25.2) when ``report.present`` shows
  them to one decimal.
* Every rate column ``r`` comes with ``r_low`` / ``r_high``: its 95% Wilson interval, in percent.
* Signed effects and order gaps carry the paper's pair-level bootstrap interval (§3: every row
  of a pair, both orders, resampled together); the paired protocol contrasts resample
  pair-by-order units, paired across the two protocols (App. E.5). Percentile intervals, 2,000
  resamples by default (``stats.INTERVALS`` names each kind).
* Missing grouping keys (e.g. no ``level`` for TRACE rows) become "" so no group is lost.
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from tjb_lib.analysis import stats
from tjb_lib.records import DECISIONS, ORDERS

DEFAULT_BY = ("judge", "split", "protocol", "level")
#: the unit of the pair-level bootstrap (§3): every row of one pair is resampled together
PAIR = "pair_id"
VERDICTS = ("cited", "plain", "tie")
N_RESAMPLES = 2000


# --------------------------------------------------------------------------- input checks


def check_verdicts(df: pd.DataFrame, need: Iterable[str] = (), where: str = "verdict rows") -> None:
    """Raise a clear error if the frame lacks a column or holds an unknown decision/order."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{where}: expected a pandas DataFrame, got {type(df).__name__}")
    missing = [c for c in ("decision", "order", *need) if c not in df.columns]
    if missing:
        raise ValueError(f"{where}: missing column(s) {missing}; have {list(df.columns)}")
    if df.empty:
        raise ValueError(f"{where}: no rows")
    for col, allowed in (("decision", DECISIONS), ("order", ORDERS)):
        bad = ~df[col].isin(allowed)
        if bad.any():
            row = df.loc[bad].iloc[0]
            item = row.get("pair_id", row.name)
            raise ValueError(f"{where}: field '{col}' has {row[col]!r} at item {item!r} "
                             f"(allowed: {allowed}); {int(bad.sum())} such row(s)")


def _keys(df: pd.DataFrame, by: Sequence[str]) -> tuple[pd.DataFrame, list[str]]:
    """Copy of the key columns with missing values as "" (so groupby loses nothing)."""
    by = list(by)
    missing = [c for c in by if c not in df.columns]
    if missing:
        raise ValueError(f"grouping column(s) {missing} not in verdict rows {list(df.columns)}")
    keys = pd.DataFrame(index=df.index)
    for c in by:
        col = df[c]
        keys[c] = col.astype(object).where(col.notna(), "") if col.isna().any() else col
    return keys, by


def _count(df: pd.DataFrame, by: Sequence[str], flags: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """Sum boolean flags per group; always adds n (parsed verdicts), n_unparsed and n_failed."""
    d = df["decision"].to_numpy()
    cols = {"n": np.isin(d, VERDICTS), "n_unparsed": d == "unparsed", "n_failed": d == "failed",
            **flags}
    frame, by = _keys(df, by)
    for name, flag in cols.items():
        frame[name] = np.asarray(flag, dtype=np.int64)
    if not by:
        return frame.groupby(np.zeros(len(frame), dtype=int)).sum().reset_index(drop=True)
    return frame.groupby(by, sort=True).sum().reset_index()


def _add_rate(out: pd.DataFrame, name: str, count_col: str, n_col: str = "n") -> None:
    """Percent column plus Wilson interval columns, from counts."""
    k, n = out[count_col].to_numpy(), out[n_col].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        out[name] = np.where(n > 0, 100.0 * k / np.where(n > 0, n, 1), np.nan)
    low, high = stats.wilson_many(k, n)
    out[f"{name}_low"], out[f"{name}_high"] = 100 * low, 100 * high


def _add_unparsed(out: pd.DataFrame) -> None:
    """``unparsed``: percent of the replies that came back (parsed + unparsed) that did not
    parse, with its Wilson interval; shown beside every rate, never inside one."""
    out["n_replied"] = out["n"] + out["n_unparsed"]
    _add_rate(out, "unparsed", "n_unparsed", "n_replied")
    out.drop(columns="n_replied", inplace=True)


def _pair_units(df: pd.DataFrame, by: Sequence[str], flags: Mapping[str, np.ndarray]
                ) -> dict[tuple, np.ndarray]:
    """Per group of ``by``: one row per pair (:data:`PAIR`), the flags summed over its rows
    (both orders, every wording pooled in the group), the units of the pair-level bootstrap."""
    if PAIR not in df.columns:
        raise ValueError(f"verdict rows need a '{PAIR}' column: signed effects and order gaps "
                         f"resample pairs (§3); have {list(df.columns)}")
    frame, by = _keys(df, by)
    names = list(flags)
    for name, flag in flags.items():
        frame[name] = np.asarray(flag, dtype=np.int64)
    frame["_pair"] = df[PAIR].to_numpy()
    sums = frame.groupby([*by, "_pair"], sort=True)[names].sum()
    if not by:
        return {(): sums.to_numpy()}
    level = list(range(len(by))) if len(by) > 1 else 0
    return {(k if isinstance(k, tuple) else (k,)): g.to_numpy()
            for k, g in sums.groupby(level=level, sort=True)}


def _pair_intervals(out: pd.DataFrame, by: Sequence[str], units: Mapping[tuple, np.ndarray],
                    name: str, stat, n_resamples: int, seed: int) -> None:
    """``name_low`` / ``name_high``: the pair-level bootstrap interval of ``stat`` (a function
    of the flags' totals) per row of ``out``, in percent."""
    lows, highs = [], []
    for key in (out[list(by)].itertuples(index=False, name=None) if by else [()]):
        u = units.get(tuple(key))
        if u is None:
            lows.append(np.nan), highs.append(np.nan)
            continue
        _, lo, hi = stats.pair_bootstrap(u, stat, n_resamples=n_resamples, seed=seed)
        lows.append(100 * lo), highs.append(100 * hi)
    out[f"{name}_low"], out[f"{name}_high"] = lows, highs


def _difference_of_rates(t: np.ndarray) -> np.ndarray:
    """(first - second) / parsed, from totals (..., 3)."""
    return (t[..., 0] - t[..., 1]) / t[..., 2]


def _signed_effect(out: pd.DataFrame, df: pd.DataFrame, by: Sequence[str], name: str,
                   pos: str, neg: str, flags: Mapping[str, np.ndarray], n_resamples: int,
                   seed: int) -> None:
    """name = rate(pos) - rate(neg) over the same parsed verdicts, with the pair-level bootstrap
    interval (§3: both orders of a pair resampled together)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        out[name] = 100.0 * (out[pos] - out[neg]) / out["n"].where(out["n"] > 0)
    parsed = np.isin(df["decision"].to_numpy(), VERDICTS)
    units = _pair_units(df, by, {"pos": flags[pos], "neg": flags[neg], "n": parsed})
    _pair_intervals(out, by, units, name, _difference_of_rates, n_resamples, seed)


def _tail(out: pd.DataFrame, by: Sequence[str], front: Sequence[str]) -> pd.DataFrame:
    """Order columns: keys, n, the table's own columns, then everything else."""
    lead = [*by, "n", *front]
    return out[lead + [c for c in out.columns if c not in lead]]


# --------------------------------------------------------------------------- rate tables


def decision_rates(df: pd.DataFrame, by: Sequence[str] = DEFAULT_BY) -> pd.DataFrame:
    """Counts and percent of cited, plain, tie and unparsed per group, with Wilson intervals."""
    check_verdicts(df, by)
    d = df["decision"].to_numpy()
    out = _count(df, by, {f"n_{v}": d == v for v in VERDICTS})
    for v in VERDICTS:
        _add_rate(out, v, f"n_{v}")
    _add_unparsed(out)
    return _tail(out, by, ["cited", "plain", "tie", "unparsed"])


def equivalence_table(df: pd.DataFrame, by: Sequence[str] = DEFAULT_BY,
                      n_resamples: int = N_RESAMPLES, seed: int = 0) -> pd.DataFrame:
    """Tables A9/A10/A14 (equivalence, natural and ablation splits; put ``variant`` in ``by``
    for A10): tie, citation_win (W_cited), base_win (W_plain) and signed_effect = Δcitation =
    W_cited - W_plain, with a pair-level bootstrap interval (§3)."""
    check_verdicts(df, by)
    d = df["decision"].to_numpy()
    flags = {"n_citation_win": d == "cited", "n_base_win": d == "plain", "n_tie": d == "tie"}
    out = _count(df, by, flags)
    for name in ("tie", "citation_win", "base_win"):
        _add_rate(out, name, f"n_{name}")
    _add_unparsed(out)
    _signed_effect(out, df, by, "signed_effect", "n_citation_win", "n_base_win", flags,
                   n_resamples, seed)
    return _tail(out, by, ["tie", "citation_win", "base_win", "signed_effect"])


def correctness_table(df: pd.DataFrame, by: Sequence[str] = ("judge", "split", "protocol", "level"),
                      n_resamples: int = N_RESAMPLES, seed: int = 0) -> pd.DataFrame:
    """Table A15 (correctness conflicts): correct_win, wrong_win, tie. The correct side of each
    row is its ``gold`` (plain for clear conflicts, cited for reverse ones); A15 prints these as
    "correct base win" and "wrong cited win". correct_margin = correct_win - wrong_win."""
    check_verdicts(df, ("gold", *by))
    bad = ~df["gold"].isin(("plain", "cited"))
    if bad.any():
        row = df.loc[bad].iloc[0]
        raise ValueError(f"correctness rows need gold plain|cited; item {row.get('pair_id')!r} "
                         f"has gold {row['gold']!r}")
    d, g = df["decision"].to_numpy(), df["gold"].to_numpy()
    flags = {"n_correct_win": d == g, "n_wrong_win": np.isin(d, ("plain", "cited")) & (d != g),
             "n_tie": d == "tie"}
    out = _count(df, by, flags)
    for name in ("correct_win", "wrong_win", "tie"):
        _add_rate(out, name, f"n_{name}")
    _add_unparsed(out)
    _signed_effect(out, df, by, "correct_margin", "n_correct_win", "n_wrong_win", flags,
                   n_resamples, seed)
    return _tail(out, by, ["correct_win", "wrong_win", "tie"])


def graded_table(df: pd.DataFrame, by: Sequence[str] = DEFAULT_BY,
                 n_resamples: int = N_RESAMPLES, seed: int = 0) -> pd.DataFrame:
    """Tables A11/A12/A13/A19 (graded soft and moderate tiers): better_plain (W_better-plain),
    worse_cited (W_worse-cited), tie and delta_quality = better_plain - worse_cited."""
    check_verdicts(df, by)
    d = df["decision"].to_numpy()
    flags = {"n_better_plain": d == "plain", "n_worse_cited": d == "cited", "n_tie": d == "tie"}
    out = _count(df, by, flags)
    for name in ("better_plain", "worse_cited", "tie"):
        _add_rate(out, name, f"n_{name}")
    _add_unparsed(out)
    _signed_effect(out, df, by, "delta_quality", "n_better_plain", "n_worse_cited", flags,
                   n_resamples, seed)
    return _tail(out, by, ["better_plain", "worse_cited", "tie", "delta_quality"])


def distinct_calls(df: pd.DataFrame) -> pd.DataFrame:
    """One row per distinct judge call: rows whose ``request_hashes`` are the same stored calls
    (both orders of a position-only control are one prompt, so one call answers both) keep only
    their first row. Rows without hashes count as calls of their own."""
    if "request_hashes" not in df.columns:
        return df
    key = [tuple(h) if isinstance(h, (list, tuple, np.ndarray)) and len(h) else ("row", i)
           for i, h in enumerate(df["request_hashes"])]
    return df.loc[~pd.Series(key, index=df.index).duplicated().to_numpy()]


def position_table(df: pd.DataFrame, by: Sequence[str] = ("judge", "split", "protocol", "level")
                   ) -> pd.DataFrame:
    """Table A16 (position-only controls, identical candidates): first_position_win,
    second_position_win and tie. The first position is slot A, read off decision and order.

    ``n`` counts distinct judge calls (:func:`distinct_calls`): the two orders of identical
    candidates are one prompt, answered once, so counting both rows would count one call twice
    and narrow the Wilson interval. ``n_comparisons`` is the ordered comparisons they stand for.
    """
    check_verdicts(df, by)
    calls = distinct_calls(df)
    d, o = calls["decision"].to_numpy(), calls["order"].to_numpy()
    first = ((d == "cited") & (o == "cited_first")) | ((d == "plain") & (o == "plain_first"))
    second = ((d == "cited") & (o == "plain_first")) | ((d == "plain") & (o == "cited_first"))
    out = _count(calls, by, {"n_first_position_win": first, "n_second_position_win": second,
                             "n_tie": d == "tie"})
    comparisons = _count(df, by, {}).rename(columns={"n": "n_comparisons"})
    out = (out.merge(comparisons[[*by, "n_comparisons"]], on=list(by), how="left") if by
           else out.assign(n_comparisons=comparisons["n_comparisons"].to_numpy()))
    for name in ("first_position_win", "second_position_win", "tie"):
        _add_rate(out, name, f"n_{name}")
    _add_unparsed(out)
    return _tail(out, by, ["n_comparisons", "first_position_win", "second_position_win", "tie"])


def tie_by_relation(df: pd.DataFrame, by: Sequence[str] = ("judge", "protocol", "level")
                    ) -> pd.DataFrame:
    """Tie decomposition (§5.3): the Tie rate per target relation, never only pooled, because a
    Tie means bias suppression on equivalent pairs, possible calibration on soft pairs and lost
    resolution on moderate pairs."""
    return decision_rates(df, (*by, "target_relation"))


# --------------------------------------------------------------------------- order effects


def order_gap_table(df: pd.DataFrame, by: Sequence[str] = DEFAULT_BY,
                    unit: Sequence[str] = ("pair_id", "paraphrase"),
                    n_resamples: int = N_RESAMPLES, seed: int = 0) -> pd.DataFrame:
    """Order gap (§6) = cited-win rate when the cited side is shown first minus when it is shown
    second [sign convention inferred], with the pair-level bootstrap interval (§3): each
    resample draws pairs, a pair's rows in both orders together. ``unit`` names one verdict per
    order (two rows sharing it and the order are an error). A pair judged in only one order
    still counts for that order. Only parsed verdicts count (unparsed and failed rows are
    counted in n_unparsed and n_failed)."""
    check_verdicts(df, (*by, *unit))
    keyframe, keys = _keys(df, (*by, *unit))
    keyframe["order"] = df["order"].to_numpy()
    dup = keyframe.duplicated(keys + ["order"])
    if dup.any():
        row = keyframe.loc[dup].iloc[0]
        raise ValueError(f"two rows share the unit {dict(row[keys + ['order']])}: add the "
                         f"column that tells them apart to `by` or `unit`")
    parsed = df["decision"].isin(VERDICTS).to_numpy()
    cited = (df["decision"] == "cited").to_numpy()
    first, second = (df["order"] == "cited_first").to_numpy(), \
        (df["order"] == "plain_first").to_numpy()
    flags = {"n_cw_cited_first": first & cited, "n_cited_first": first & parsed,
             "n_cw_plain_first": second & cited, "n_plain_first": second & parsed}
    counts = _count(df, by, flags)
    _add_rate(counts, "cited_win_cited_first", "n_cw_cited_first", "n_cited_first")
    _add_rate(counts, "cited_win_plain_first", "n_cw_plain_first", "n_plain_first")
    counts["order_gap"] = counts["cited_win_cited_first"] - counts["cited_win_plain_first"]
    _add_unparsed(counts)
    _pair_intervals(counts, by, _pair_units(df, by, flags), "order_gap",
                    lambda t: t[..., 0] / t[..., 1] - t[..., 2] / t[..., 3], n_resamples, seed)
    return _tail(counts, by, ["cited_win_cited_first", "cited_win_plain_first", "order_gap"])


# --------------------------------------------------------------------------- human agreement


def tie_agreement(df: pd.DataFrame, human: pd.DataFrame,
                  by: Sequence[str] = ("judge", "protocol", "level")) -> pd.DataFrame:
    """Item-level Tie agreement with human labels (§5.3): Tie precision = share of the judge's
    Tie items that humans also labeled Tie [inferred definition], plus item-level raw agreement.

    An item counts as a judge Tie when either order (any paraphrase) returned Tie [inferred;
    it reproduces the paper's 42 and 33 L3 Tie items]. Items with no parsed verdict in any row
    are counted in n_items_no_verdict and left out; items without a human label are counted in
    n_items_unlabeled and left out. ``human`` has columns pair_id and human_tie (bool).
    """
    check_verdicts(df, ("pair_id", *by))
    for col in ("pair_id", "human_tie"):
        if col not in human.columns:
            raise ValueError(f"human labels: missing column '{col}'; have {list(human.columns)}")
    if human["pair_id"].duplicated().any():
        dup = human.loc[human["pair_id"].duplicated(), "pair_id"].iloc[0]
        raise ValueError(f"human labels: pair_id {dup!r} appears more than once")
    if not human["human_tie"].isin((True, False)).all():
        bad = human.loc[~human["human_tie"].isin((True, False))].iloc[0]
        raise ValueError(f"human labels: human_tie must be True/False; item {bad['pair_id']!r} "
                         f"has {bad['human_tie']!r}")
    keyframe, keys = _keys(df, (*by, "pair_id"))
    d = df["decision"].to_numpy()
    keyframe["judge_tie"] = d == "tie"
    keyframe["has_verdict"] = np.isin(d, VERDICTS)
    items = keyframe.groupby(keys, sort=True)[["judge_tie", "has_verdict"]].any().reset_index()
    labels = human.set_index("pair_id")["human_tie"].astype(bool)
    items["human_tie"] = items["pair_id"].map(labels)
    items["labeled"] = items["human_tie"].notna()
    usable = items["has_verdict"] & items["labeled"]
    ht = items["human_tie"].eq(True)
    flags = pd.DataFrame({
        "n_items": usable, "n_items_no_verdict": ~items["has_verdict"],
        "n_items_unlabeled": items["has_verdict"] & ~items["labeled"],
        "judge_tie_items": usable & items["judge_tie"], "human_tie_items": usable & ht,
        "both_tie_items": usable & items["judge_tie"] & ht,
        "agree_items": usable & (items["judge_tie"] == ht)}).astype(np.int64)
    flags[list(by)] = items[list(by)]
    out = (flags.groupby(list(by), sort=True).sum().reset_index() if by
           else flags.groupby(np.zeros(len(flags), dtype=int)).sum().reset_index(drop=True))
    for name, k, n in (("tie_precision", "both_tie_items", "judge_tie_items"),
                       ("item_agreement", "agree_items", "n_items"),
                       ("judge_any_tie", "judge_tie_items", "n_items"),
                       ("human_tie", "human_tie_items", "n_items")):
        _add_rate(out, name, k, n)
    # Precision and agreement are proportions in the paper (0.119), the prevalences percent.
    for name in ("tie_precision", "item_agreement"):
        for suffix in ("", "_low", "_high"):
            out[name + suffix] = out[name + suffix] / 100
    return out[[*by, "n_items", "tie_precision", "item_agreement", "judge_any_tie", "human_tie"]
               + [c for c in out.columns if c not in (*by, "n_items", "tie_precision",
                                                     "item_agreement", "judge_any_tie",
                                                     "human_tie")]]


# --------------------------------------------------------------------------- paired contrasts


def _select(df: pd.DataFrame, spec: Mapping[str, object], name: str) -> pd.DataFrame:
    mask = np.ones(len(df), dtype=bool)
    for col, val in spec.items():
        if col not in df.columns:
            raise ValueError(f"contrast side {name}: column {col!r} not in verdict rows")
        mask &= (df[col] == val).to_numpy()
    if not mask.any():
        raise ValueError(f"contrast side {name}: no verdict rows match {dict(spec)}")
    return df.loc[mask]


def paired_contrast(df: pd.DataFrame, a: Mapping[str, object], b: Mapping[str, object],
                    outcome: str = "plain", by: Sequence[str] = ("judge", "split"),
                    keys: Sequence[str] = ("pair_id", "order", "paraphrase"),
                    n_resamples: int = N_RESAMPLES, seed: int = 0) -> pd.DataFrame:
    """Paired protocol contrast (§E.5), e.g. L0 vs L4 on the better-plain indicator.

    ``a`` and ``b`` select the two protocols as column filters ({"level": "L0"},
    {"protocol": "trace_v2"}); rows are joined on ``by`` + ``keys`` so both sides judge the same
    ordered comparisons. The indicator is decision == ``outcome``; a unit counts only when both
    sides hold a parsed verdict (units with an unparsed or failed row on either side are left
    out and counted in n_unparsed and n_failed). difference = rate_a - rate_b in
    points with a paired bootstrap interval; mcnemar_p is the exact McNemar test on the
    discordant units (b_only: indicator 1 under a only; c_only: under b only). The bootstrap
    unit is one pair-by-order unit (a row of ``keys``), kept paired across a and b, as App. E.5
    states for the L0->L4 and L4->TRACE contrasts.
    """
    check_verdicts(df, (*by, *keys))
    sides = {}
    for name, spec in (("a", a), ("b", b)):
        rows = _select(df, spec, name)
        frame, cols = _keys(rows, (*by, *keys))
        if frame.duplicated(cols).any():
            dup = frame.loc[frame.duplicated(cols)].iloc[0]
            raise ValueError(f"contrast side {name} {dict(spec)}: two rows share "
                             f"{dict(dup[cols])}; add the column that tells them apart to keys")
        frame[f"x_{name}"] = (rows["decision"] == outcome).to_numpy(float)
        frame[f"failed_{name}"] = (rows["decision"] == "failed").to_numpy()
        frame[f"unparsed_{name}"] = (rows["decision"] == "unparsed").to_numpy()
        sides[name] = frame
    cols = [*by, *keys]
    m = sides["a"].merge(sides["b"], on=cols, how="outer", indicator=True)
    both = m["_merge"] == "both"
    m["failed"] = both & (m["failed_a"].eq(True) | m["failed_b"].eq(True))
    m["unparsed"] = both & ~m["failed"] & (m["unparsed_a"].eq(True) | m["unparsed_b"].eq(True))
    m["paired"] = both & ~m["failed"] & ~m["unparsed"]
    m["only_a"] = m["_merge"] == "left_only"
    m["only_b"] = m["_merge"] == "right_only"
    rows = []
    grouped = m.groupby(list(by), sort=True) if by else [((), m)]
    for key, g in grouped:
        p = g.loc[g["paired"]]
        x, y = p["x_a"].to_numpy(), p["x_b"].to_numpy()
        row = dict(zip(by, key if isinstance(key, tuple) else (key,)))
        n = len(p)
        bb, cc = int(np.sum((x == 1) & (y == 0))), int(np.sum((x == 0) & (y == 1)))
        est = lo = hi = np.nan
        if n:
            est, lo, hi = stats.bootstrap(x, y, n_resamples=n_resamples, seed=seed)
        row.update(n=n, a=str(dict(a)), b=str(dict(b)), outcome=outcome,
                   n_a=int(x.sum()), n_b=int(y.sum()),
                   difference=100 * est, difference_low=100 * lo, difference_high=100 * hi,
                   b_only=bb, c_only=cc,
                   mcnemar_p=stats.mcnemar_exact(bb, cc) if n else np.nan,  # no unit: undefined
                   n_unmatched_a=int(g["only_a"].sum()), n_unmatched_b=int(g["only_b"].sum()),
                   n_unparsed=int(g["unparsed"].sum()), n_failed=int(g["failed"].sum()))
        rows.append(row)
    out = pd.DataFrame(rows)
    _add_rate(out, "rate_a", "n_a")
    _add_rate(out, "rate_b", "n_b")
    return _tail(out, by, ["a", "b", "rate_a", "rate_b", "difference", "difference_low",
                           "difference_high", "mcnemar_p"])


# --------------------------------------------------------------------------- ranking probe


def ranking_scores(df: pd.DataFrame, by: Sequence[str] = ("judge", "protocol")) -> pd.DataFrame:
    """Table A17: per system, (wins + 0.5 * ties) / its ordered comparisons * 100. Each row
    counts once for the system on each side. Only parsed verdicts count (n); unparsed and failed
    rows are counted in n_unparsed and n_failed, so the scores in a setting sum to 200."""
    check_verdicts(df, ("system_plain", "system_cited", *by))
    keyframe, by = _keys(df, by)
    d = df["decision"].to_numpy()
    sides = []
    for side, other in (("cited", "plain"), ("plain", "cited")):
        s = keyframe.copy()
        s["system"] = df[f"system_{side}"].to_numpy()
        s["n"] = np.isin(d, VERDICTS)
        s["wins"], s["losses"], s["ties"] = d == side, d == other, d == "tie"
        s["n_unparsed"], s["n_failed"] = d == "unparsed", d == "failed"
        sides.append(s)
    long = pd.concat(sides, ignore_index=True)
    if long["system"].isna().any():
        raise ValueError("ranking rows need system_plain and system_cited on every row")
    num = ["n", "wins", "losses", "ties", "n_unparsed", "n_failed"]
    long[num] = long[num].astype(np.int64)
    out = long.groupby([*by, "system"], sort=True)[num].sum().reset_index()
    with np.errstate(invalid="ignore", divide="ignore"):
        out["score"] = 100.0 * (out["wins"] + 0.5 * out["ties"]) / out["n"].where(out["n"] > 0)
    return out[[*by, "system", "score", *num]]


def ranking_scores_with_intervals(rows: pd.DataFrame, by: Sequence[str] = DEFAULT_BY,
                                  n_resamples: int = N_RESAMPLES, seed: int = 0) -> pd.DataFrame:
    """Table A17 scores (:func:`ranking_scores`) plus a bootstrap interval per system: the score
    is the mean of 1 / 0.5 / 0 points over the system's parsed ordered comparisons, so those
    points are resampled. Also the unparsed share of the system's replies."""
    scores = ranking_scores(rows, by)
    by = list(by)
    keys = rows[by].astype(object).where(rows[by].notna(), "")  # as ranking_scores groups
    d = rows["decision"].to_numpy()
    long = []
    for side in ("cited", "plain"):
        part = keys.copy()
        part["system"] = rows[f"system_{side}"].to_numpy()
        part["points"] = np.where(d == side, 1.0, np.where(d == "tie", 0.5, 0.0))
        part["parsed"] = np.isin(d, VERDICTS)
        long.append(part)
    long = pd.concat(long, ignore_index=True)
    long = long.loc[long["parsed"]]
    ci = {}
    for key, g in long.groupby([*by, "system"], sort=True):
        _, lo, hi = stats.bootstrap(g["points"].to_numpy(), n_resamples=n_resamples, seed=seed)
        ci[key if isinstance(key, tuple) else (key,)] = (100 * lo, 100 * hi)
    idx = list(scores[[*by, "system"]].itertuples(index=False, name=None))
    scores["score_low"] = [ci.get(k, (np.nan, np.nan))[0] for k in idx]
    scores["score_high"] = [ci.get(k, (np.nan, np.nan))[1] for k in idx]
    _add_unparsed(scores)
    return scores


def direct_comparison(df: pd.DataFrame, first: str = "plain_full", second: str = "cited_full",
                      by: Sequence[str] = ("judge", "protocol")) -> pd.DataFrame:
    """Table A18: counts of ``first`` wins, ``second`` wins and ties over the ordered rows that
    put exactly these two systems against each other (400 per judge x protocol in the paper)."""
    check_verdicts(df, ("system_plain", "system_cited", *by))
    sp, sc = df["system_plain"].to_numpy(), df["system_cited"].to_numpy()
    sel = ((sp == first) & (sc == second)) | ((sp == second) & (sc == first))
    if not sel.any():
        raise ValueError(f"no ranking rows compare {first!r} with {second!r}")
    sub = df.loc[sel]
    d = sub["decision"].to_numpy()
    winner = np.where(d == "cited", sub["system_cited"].to_numpy(),
                      np.where(d == "plain", sub["system_plain"].to_numpy(), None))
    out = _count(sub, by, {f"{first}_wins": winner == first, f"{second}_wins": winner == second,
                           "tie": d == "tie"})
    for name in (f"{first}_wins", f"{second}_wins", "tie"):
        _add_rate(out, f"{name}_pct", name)
    _add_unparsed(out)
    return _tail(out, by, [f"{first}_wins", f"{second}_wins", "tie", "n_unparsed", "n_failed"])
