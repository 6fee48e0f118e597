"""Our numbers beside the paper's, float by float, and the tables of ours the paper prints none
of (order gaps, the Tie decomposition, paired contrasts, protocol cost).

Every comparison keeps the paper's rows: one output row per printed cell (paper judge x the
table's own keys x metric), with the paper's value, ours, our 95% interval, our counts and our
judge. Our value is the same for every paper judge of a row, because we ran one judge on the
same split and protocol setting; the paper's judges differ, ours is named in ``judge``. Which of
our settings stands behind each printed row is declared in ``tjb_lib.floats``.

Rates are over parsed verdicts; every cell carries ``n_unparsed``, ``n_failed`` and the
``unparsed`` share beside the rate, and a ``status``: ``ok``, ``not run`` (no verdict rows for
that setting) or ``no parsed verdict`` (rows, but none parsed), so a cell is never an empty 0%.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from tjb_lib import floats, metrics
from tjb_lib.protocols.specs import Spec, setting_name
from tjb_lib.report import paper_table

OUT_COLUMNS = ("paper_judge", "setting", "our_split", "metric", "paper", "ours", "ours_low",
               "ours_high", "interval", "n", "k", "n_unparsed", "n_failed", "unparsed", "status",
               "paper_n", "judge")
BY = floats.BY


# --------------------------------------------------------------------------- paper floats


def paper_values(name: str) -> pd.DataFrame:
    """The paper's printed rows for float ``name``."""
    spec = _comparison(name)
    return spec.paper() if callable(spec.paper) else paper_table(spec.paper)


def our_metrics(name: str, rows: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """The metrics frame behind float ``name``, computed from our verdict rows."""
    return _comparison(name).ours(rows, seed)


def _comparison(name: str) -> floats.Comparison:
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


def cell_status(n: float, matched: bool, has_rationale_column: bool = False) -> str:
    """What an empty cell means: never a rate of 0."""
    if not matched:
        return "not run"
    if not n:
        return "no rationale text" if has_rationale_column else "no parsed verdict"
    return "ok"


def _cell(ours: pd.DataFrame, where: Mapping[str, object], m: floats.Metric) -> dict:
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
            "k": float(row[count_col]) if count_col and m.interval == "wilson" else np.nan,
            "n_unparsed": _count_of(row, "n_unparsed"), "n_failed": _count_of(row, "n_failed"),
            "unparsed": _count_of(row, "unparsed"),
            "setting": ",".join(settings) or str(row.get("protocol", "")),
            "our_split": str(row.get("split", where.get("split", ""))),
            "status": cell_status(n, True, "n_without_rationale" in hit.columns)}


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
                             f"tjb_lib.floats")
        wheres = spec.rows[key]
        for where in (wheres if isinstance(wheres, (list, tuple)) else [wheres]):
            for m in spec.metrics:
                value = prow[m.paper]
                if m.paper_per:
                    value = 100.0 * value / prow[m.paper_per]
                cell = _cell(ours, where, m)
                out.append({"paper_judge": prow[spec.judge_col],
                            **{c: prow[c] for c in spec.keys}, **cell, "metric": m.paper,
                            "paper": float(value) if pd.notna(value) else np.nan,
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


# --------------------------------------------------------------------------- position controls

#: a judge picks a slot when one slot wins on identical candidates with the whole 95% Wilson
#: interval above this share of its parsed verdicts: its other verdicts are then position too
SLOT_PICKING = 50.0


def position_levels(rows: pd.DataFrame, judge: str) -> list[dict]:
    """Per setting of the position-only controls: first/second-slot win rates, their Wilson
    lower bounds and n (parsed verdicts), from verdict rows."""
    sub = rows.loc[(rows["judge"] == judge) & (rows["split"] == "position_control")] \
        if len(rows) else rows
    if sub.empty:
        return []
    t = metrics.position_table(sub, ("judge", "protocol", "level"))
    return [{"setting": setting_name(r.protocol, r.level), "n": int(r.n),
             "first": r.first_position_win, "first_low": r.first_position_win_low,
             "first_high": r.first_position_win_high, "second": r.second_position_win,
             "second_low": r.second_position_win_low,
             "second_high": r.second_position_win_high, "tie": r.tie}
            for r in t.itertuples()]


def position_levels_from_table(a16: pd.DataFrame, judge: str) -> list[dict]:
    """The same per-setting values, read back from the written Table A16 comparison."""
    sub = a16.loc[(a16["judge"] == judge) & (a16["status"] == "ok")] \
        if "status" in a16.columns else a16.iloc[0:0]
    out = []
    for setting, g in sub.groupby("setting", sort=True):
        cells = g.drop_duplicates("metric").set_index("metric")
        if not {"first_position_win", "second_position_win"} <= set(cells.index):
            continue
        f, s = cells.loc["first_position_win"], cells.loc["second_position_win"]
        out.append({"setting": setting, "n": int(f["n"]), "first": f["ours"],
                    "first_low": f["ours_low"], "first_high": f["ours_high"],
                    "second": s["ours"], "second_low": s["ours_low"],
                    "second_high": s["ours_high"],
                    "tie": cells["ours"].get("tie", np.nan)})
    return out


def slot_picking(levels: Sequence[dict]) -> str | None:
    """'first' or 'second' when the controls show the judge answering one slot at any
    setting (see :data:`SLOT_PICKING`), else None."""
    for lv in levels:
        for slot in ("first", "second"):
            if pd.notna(lv[f"{slot}_low"]) and lv[f"{slot}_low"] > SLOT_PICKING:
                return slot
    return None


def position_reading(judge: str, levels: Sequence[dict]) -> str:
    """One paragraph on what the position-only controls say about reading this judge."""
    if not levels:
        return (f"{judge}: no position-only control verdicts, so whether its verdicts follow a "
                "slot rather than the content is not known; read its tables with that caveat.")
    parts = "; ".join(f"{lv['setting']}: first slot {lv['first']:.1f}% "
                      f"[{lv['first_low']:.1f}, {lv['first_high']:.1f}], second slot "
                      f"{lv['second']:.1f}%, Tie {lv['tie']:.1f}% (n={lv['n']})"
                      for lv in levels if lv["n"])
    slot = slot_picking(levels)
    if slot:
        return (f"{judge} answers the {slot} slot on the position-only controls (identical "
                f"candidates, where the right answer is Tie): {parts}. Its verdicts are "
                "position-driven and are not interpretable as content preferences; its tables "
                "describe that artefact, not the paper's effects.")
    if not parts:
        return f"{judge}: no position-only control verdict parsed, so slot picking is not known."
    return (f"{judge} on the position-only controls: {parts}. No slot wins a majority, so its "
            "verdicts elsewhere can be read as responses to the candidates.")


# --------------------------------------------------------------------------- tables of ours


def _judge_rows(nb) -> pd.DataFrame:
    rows = nb.rows
    return rows.loc[rows["judge"] == nb.judge] if len(rows) else rows


def order_gaps(nb) -> pd.DataFrame:
    """Order gaps (§E.8) per split and setting, with the paper's one printed gap (GPT-5.5,
    HotpotQA mechanical, plain: 2.7 points) beside ours where it applies."""
    rows = _judge_rows(nb)
    rows = rows.loc[rows["target_relation"] == "equivalent"]
    out = metrics.order_gap_table(rows, BY, seed=nb.seed)
    is_ref = (out["split"] == "mechanical_hotpotqa") & (out["level"] == "L0")
    out["paper"] = np.where(is_ref, claim_value("C111"), np.nan)
    out["paper_judge"] = np.where(is_ref, "GPT-5.5", "")
    return out


#: what a Tie means on each tier (§0), and the human Tie prevalence the paper gives (claims)
TIE_READING = {"equivalent": ("bias suppression (gold Tie)", None),
               "quality_soft": ("possibly calibrated (humans mostly Tie)", "C034"),
               "quality_moderate": ("resolution loss (humans better-plain)", "C039"),
               "identical": ("position control (gold Tie)", None)}


def tie_decomposition(nb) -> pd.DataFrame:
    """Tie rate per target relation and setting (§5.3), never pooled, with what a Tie means on
    that tier and the paper's human Tie prevalence where printed (soft 96%, moderate 9%)."""
    rows = _judge_rows(nb)
    sub = rows.loc[rows["target_relation"].isin(TIE_READING)]
    out = metrics.tie_by_relation(sub, ("judge", "protocol", "level"))
    out["tie_means"] = out["target_relation"].map(lambda r: TIE_READING[r][0])
    out["paper_human_tie"] = out["target_relation"].map(
        lambda r: claim_value(TIE_READING[r][1]) if TIE_READING[r][1] else np.nan)
    keep = ["judge", "protocol", "level", "target_relation", "tie_means", "n", "tie", "tie_low",
            "tie_high", "paper_human_tie", "cited", "plain", "n_unparsed", "unparsed",
            "n_failed"]
    return out[keep]


def conflict_protocols(nb) -> pd.DataFrame:
    """Correctness conflicts under every protocol we ran (p0 wording): A15's decoupled probe
    beside L4 and TRACE-lite, which the paper does not print (data/paper_reported/NOTES.md)."""
    rows = _judge_rows(nb)
    rows = rows.loc[(rows["split"] == "conflict") & (rows["paraphrase"] == "p0")]
    return metrics.correctness_table(rows, seed=nb.seed)


def moderate_protocols(nb) -> pd.DataFrame:
    """Every protocol we ran on the HotpotQA moderate tier, side by side."""
    rows = _judge_rows(nb)
    return metrics.graded_table(rows.loc[rows["split"] == "moderate_hotpotqa"], seed=nb.seed)


def _side_name(side: Mapping[str, object]) -> str:
    return setting_name(str(side.get("protocol", "ladder")), str(side.get("level", "")))


def contrast(rows: pd.DataFrame, c: floats.Contrast, judge: str, seed: int = 0) -> dict:
    """One paired contrast on the better-plain indicator (§5.4, §E.5), with its direction in
    words and the paper's statement of it."""
    sub = rows.loc[(rows["split"] == c.split) & (rows["judge"] == judge)] if len(rows) else rows
    a, b = _side_name(c.a), _side_name(c.b)
    out = {"contrast": c.label, "split": c.split, "n": 0, "rate_a": np.nan, "rate_b": np.nan,
           "difference": np.nan, "difference_low": np.nan, "difference_high": np.nan,
           "discordant_a_only": 0, "discordant_b_only": 0, "mcnemar_p": np.nan, "p": "",
           "n_unparsed": 0, "n_failed": 0, "judge": judge}
    try:
        r = metrics.paired_contrast(sub, c.a, c.b, outcome="plain", by=("judge", "split"),
                                    keys=("pair_id", "order"), seed=seed).iloc[0]
    except ValueError:  # one side was not run
        return {**out, "direction": f"not run: no verdict rows for {a} or {b}",
                "paper": contrast_paper_text(c)}
    p = r["mcnemar_p"]
    out.update(n=int(r["n"]), rate_a=r["rate_a"], rate_b=r["rate_b"],
               difference=r["difference"], difference_low=r["difference_low"],
               difference_high=r["difference_high"], discordant_a_only=int(r["b_only"]),
               discordant_b_only=int(r["c_only"]), mcnemar_p=p,
               p="" if not r["n"] else ("p<0.001" if p < 0.001 else f"p={p:.3g}"),
               n_unparsed=int(r["n_unparsed"]), n_failed=int(r["n_failed"]))
    if not r["n"]:
        direction = (f"no ordered comparison has a parsed verdict under both {a} and {b} "
                     f"({int(r['n_unparsed'])} with an unparsed side)")
    elif r["difference"] == 0:
        direction = f"no difference: better-plain {r['rate_a']:.1f}% under both {a} and {b}"
    else:
        word = "higher" if r["difference"] > 0 else "lower"
        direction = (f"better-plain {word} under {a} ({r['rate_a']:.1f}%) than under {b} "
                     f"({r['rate_b']:.1f}%)")
    return {**out, "direction": direction, "paper": contrast_paper_text(c)}


def contrasts_e5(nb) -> pd.DataFrame:
    """The paired contrasts of ``floats.CONTRASTS`` (L0 vs L4, L4 vs TRACE, L3 vs TRACE)."""
    return pd.DataFrame([contrast(nb.rows, c, nb.judge, nb.seed) for c in floats.CONTRASTS])


def contrast_paper_text(c: floats.Contrast) -> str:
    """The paper's statement of a contrast, its numbers filled in from in_text_claims.csv."""
    import re

    ids = re.findall(r"\{(C\d{3})\}", c.paper)
    return c.paper.format(**{i: f"{claim_value(i):g}" for i in ids})


def planned_calls(protocol: str) -> int:
    """Calls one ordered comparison makes under ``protocol`` (2 for TRACE v1/v2)."""
    level = "L0" if protocol == "ladder" else ""
    return 1 if Spec(protocol, level).single_call else 2


def protocol_cost(nb, split: str = "moderate_hotpotqa", relative_to: str = "L0",
                  prices=None) -> pd.DataFrame:
    """Calls and tokens per ordered comparison per setting on one split (§6), as multiples of
    the one-call ``relative_to`` setting, with the paper's TRACE figures beside the TRACE rows
    (2 calls; 3.7-4.3x the tokens; 5.3-5.9x the dollars).

    ``calls_per_comparison`` is what the protocol makes for one ordered comparison (2 for
    TRACE); ``calls_made_per_comparison`` what our rows show, which is less where a TRACE
    stage 1 did not parse and no stage 2 was made (``n_stopped_after_stage_1``). Tokens and
    dollars are over the comparisons that made every call (``n_completed``), so an unfinished
    TRACE comparison does not make TRACE look cheap; no completed comparison leaves them NaN.
    """
    from tjb_lib import cost

    rows = _judge_rows(nb)
    sub = rows.loc[rows["split"] == split]
    planned = sub["protocol"].map(planned_calls)
    done = pd.to_numeric(sub["calls"], errors="coerce") >= planned
    settings = [setting_name(p, lv) for p, lv in zip(sub["protocol"], sub["level"].fillna(""))]
    base = pd.DataFrame({"setting": settings, "planned": planned.to_numpy(),
                         "calls": pd.to_numeric(sub["calls"], errors="coerce").to_numpy(),
                         "done": done.to_numpy()})
    counts = base.groupby("setting", sort=True).agg(
        comparisons=("done", "size"), n_completed=("done", "sum"),
        calls_per_comparison=("planned", "max"), calls_made_per_comparison=("calls", "mean"))
    counts["n_stopped_after_stage_1"] = counts["comparisons"] - counts["n_completed"]
    counts.index = counts.index.astype(object)
    completed = sub.loc[done]
    if completed.empty:
        priced = pd.DataFrame({"setting": pd.Series(dtype=object)})
    else:
        ref = relative_to if relative_to in {setting_name(p, lv) for p, lv in zip(
            completed["protocol"], completed["level"].fillna(""))} else None
        priced = cost.protocol_cost(completed, prices=prices, by=("setting",), relative_to=ref)
    keep = ["input_tokens_per_comparison", "output_tokens_per_comparison",
            "tokens_per_comparison", "usd_per_1000_comparisons", "token_multiplier",
            "dollar_multiplier"]
    out = counts.reset_index().merge(priced.reindex(columns=["setting", *keep]), on="setting",
                                     how="left")
    trace = out["setting"].isin(("trace_v1", "trace_v2"))
    out["paper_calls_per_comparison"] = np.where(trace, claim_value("C080"), 1.0)
    for col, lo, hi in (("token_multiplier", "C074", "C075"),
                        ("dollar_multiplier", "C076", "C077")):
        out[f"paper_{col}_low"] = np.where(trace, claim_value(lo), np.nan)
        out[f"paper_{col}_high"] = np.where(trace, claim_value(hi), np.nan)
    return out.rename(columns={"setting": "protocol"}).assign(split=split, judge=nb.judge)


def table_1(nb) -> pd.DataFrame:
    """Table 1 from the manifest the notebook built or verified."""
    from tjb_lib.pairs import table1

    return table1.table_1(nb.manifest)


#: Table 2 rows -> (workbook set, as notebook 10 names it; agreement_table group)
TABLE_2_ROWS = {"Natural equivalence": ("natural_workbook", "equivalent"),
                "Graded soft": ("graded_workbook", "quality_soft"),
                "Graded moderate": ("graded_workbook", "quality_moderate"),
                "Graded overall": ("graded_workbook", "overall")}
TABLE_2_METRICS = ("raw_agreement_pct", "pabak", "gwet_ac1")


def table_2(nb=None, root=None) -> pd.DataFrame:
    """Table 2 with our agreement beside the paper's, from the filled workbooks found under
    data/human_validation/labels/ (ours = NaN, n = 0, status "needs human labels" without)."""
    from tjb_lib import annotate

    ours = annotate.human_agreement(root)
    paper = paper_table("table_2")
    out = []
    for _, prow in paper.iterrows():
        kind, group = TABLE_2_ROWS[prow["validation_set"]]
        hit = ours[(ours["kind"] == kind) & (ours["validation_set"] == group)] \
            if len(ours) else ours
        for m in TABLE_2_METRICS:
            out.append({"validation_set": prow["validation_set"], "metric": m,
                        "paper": float(prow[m]),
                        "ours": float(hit[m].iloc[0]) if len(hit) else np.nan,
                        "n": int(hit["n"].iloc[0]) if len(hit) else 0, "paper_n": prow["n"],
                        "status": "ok" if len(hit) else "needs human labels",
                        "paper_signal": prow["main_human_label_signal"],
                        "our_signal": hit["main_human_label_signal"].iloc[0] if len(hit)
                        else "no human labels"})
    return pd.DataFrame(out)


# --------------------------------------------------------------------------- in-text claims


def claims(ids: Sequence[str]) -> pd.DataFrame:
    """Rows of data/paper_reported/in_text_claims.csv, in the order asked for."""
    table = paper_table("in_text_claims").set_index("claim_id")
    unknown = [i for i in ids if i not in table.index]
    if unknown:
        raise ValueError(f"claim id(s) {unknown} not in in_text_claims.csv")
    return table.loc[list(ids)].reset_index()


def claim_value(cid: str) -> float:
    """The number the paper states for one claim."""
    return float(claims([cid])["value"].iloc[0])
