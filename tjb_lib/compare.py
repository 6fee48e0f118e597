"""Our numbers beside the paper's, float by float (Tables A9-A20, Figures 2, 3, A1).

Every comparison keeps the paper's rows: one output row per printed cell (paper judge x the
table's own keys x metric), with the paper's value, ours, our 95% interval, n and our judge. Our
value is the same for every paper judge of a row, because we ran one judge on the same split
and protocol setting; the paper's judges differ, ours is named in the ``judge`` column.

Which of our (split, protocol, level) settings stands behind each printed row is declared in
:data:`SPECS`, next to the metric function that computes it, so a reader can audit the mapping.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from tjb_lib import metrics, paths, stats
from tjb_lib.report import paper_table

SCALES = ("default", "paper")
OUT_COLUMNS = ("paper_judge", "setting", "our_split", "metric", "paper", "ours", "ours_low",
               "ours_high", "interval", "n", "k", "paper_n", "judge")
BY = ("judge", "split", "protocol", "level")


# --------------------------------------------------------------------------- parameters


def check_parameters(judge: str, scale: str = "default", splits: Sequence[str] = ()) -> None:
    """Fail early, in one line, on a judge, scale or split name the library does not know."""
    from tjb_lib.judges.catalog import find_spec
    from tjb_lib.pairs import SPLIT_NAMES

    if not isinstance(judge, str) or not judge:
        raise ValueError(f"judge must be a judge name, got {judge!r}")
    find_spec(judge)  # ValueError naming the known judges
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; known scales: {', '.join(SCALES)}")
    unknown = [s for s in splits if s not in SPLIT_NAMES]
    if unknown:
        raise ValueError(f"unknown split(s) {unknown}; known splits: {', '.join(SPLIT_NAMES)}")


def output_dirs(outputs_dir: str | Path | None = None) -> tuple[Path, Path]:
    """(tables, figures) folders: the repository's outputs/ unless another root is given."""
    if not outputs_dir:
        return paths.TABLES, paths.FIGURES
    root = Path(outputs_dir)
    return root / "tables", root / "figures"


def setting_name(protocol: str, level: str | None) -> str:
    """L0..L4 for ladder rows, else the protocol name (trace_v2, trace_lite, ...)."""
    return level if protocol == "ladder" and level else protocol


# --------------------------------------------------------------------------- specifications


@dataclass(frozen=True)
class Metric:
    """One printed column: where our value comes from and how its interval was made."""

    paper: str                     # column in the paper's CSV
    ours: str                      # column in our metrics frame
    where: Mapping[str, object] = field(default_factory=dict)  # extra filter (list = isin)
    agg: str | None = None         # "min" / "max" over the matched rows (A13's L0-L2 ranges)
    interval: str = "wilson"       # how ours_low/ours_high were made
    low: str | None = None         # interval columns (default <ours>_low / <ours>_high)
    high: str | None = None
    paper_per: str | None = None   # paper prints a count: divide by this column, x 100


@dataclass(frozen=True)
class FloatSpec:
    """How one paper float maps onto our verdict rows."""

    paper: str | Callable[[], pd.DataFrame]  # reported CSV name, or a builder (Figure 3)
    judge_col: str                           # the paper's judge column ("model" or "judge")
    keys: tuple[str, ...]                    # the paper's other key columns, kept as printed
    rows: Mapping[tuple, Mapping[str, object] | Sequence[Mapping[str, object]]]
    metrics: tuple[Metric, ...]
    ours: Callable[..., pd.DataFrame]        # verdict rows (+ seed) -> our metrics frame
    paper_n: str | None = None               # the paper's n column, if printed
    match: tuple[str, ...] | None = None     # key columns used to look up ``rows`` (default keys)


def _ladder(split: str, level: str) -> dict:
    return {"split": split, "protocol": "ladder", "level": level}


def _equivalence(rows, seed):
    return metrics.equivalence_table(rows, BY, seed=seed)


def _graded(rows, seed):
    return metrics.graded_table(rows, BY, seed=seed)


def _correctness(rows, seed):
    conflicts = rows.loc[rows["target_relation"] == "correctness_conflict"]
    return metrics.correctness_table(conflicts, BY, seed=seed)


def _position(rows, seed):
    return metrics.position_table(rows, BY)


def _ranking(rows, seed):
    return ranking_scores_with_intervals(rows, seed=seed)


def _direct(rows, seed):
    return metrics.direct_comparison(rows, by=BY)


def _rationale(rows, seed):
    from tjb_lib.rationale import keyword_rates

    return keyword_rates(rows, by=("judge", "split", "decision_type"))


def figure_3_paper() -> pd.DataFrame:
    """Figure 3's values as Table A1 says: the A11 ladder plus A12's TRACE point per judge."""
    ladder = paper_table("table_a11")[["judge", "level", "better_plain", "tie"]]
    trace = paper_table("table_a12").rename(columns={"trace_better_plain": "better_plain",
                                                     "trace_tie": "tie"})
    trace = trace.assign(level="TRACE")[["judge", "level", "better_plain", "tie"]]
    return pd.concat([ladder, trace], ignore_index=True).assign(source="Figure 3")


_EQ = ("tie", "citation_win", "base_win")
_A9_ROWS = {("Mechanical Plain",): _ladder("mechanical_hotpotqa", "L0"),
            ("Mechanical Strict",): _ladder("mechanical_hotpotqa", "L4"),
            ("Decoupled Mechanical",): {"split": "mechanical_hotpotqa", "protocol": "trace_v2"},
            ("Natural Plain",): _ladder("natural_hotpotqa", "L0"),
            ("Natural Strict",): _ladder("natural_hotpotqa", "L4")}
_A10_ROWS = {(v,): _ladder(f"ablation_{s}", "L0") for v, s in (
    ("full citation", "full_citation"), ("source-only", "source_only"),
    ("empty shell", "empty_shell"), ("evidence-only", "evidence_only"),
    ("sentence-id-only", "sentence_id_only"), ("length-control", "length_control"))}
_STRICT_SPLITS = {"HotpotQA mechanical": "mechanical_hotpotqa",
                  "FinQA mechanical": "mechanical_finqa",
                  "Natural citation-looking": "natural_hotpotqa"}
_FIG2_SPLITS = {"HotpotQA": "mechanical_hotpotqa", "FinQA": "mechanical_finqa",
                "Natural": "natural_hotpotqa"}
_PLAIN_STRICT = (Metric("plain_cited_win", "citation_win", {"protocol": "ladder", "level": "L0"}),
                 Metric("strict_tie", "tie", {"protocol": "ladder", "level": "L4"}))
_RANK_PROTOCOLS = {"plain preference": {"protocol": "ladder", "level": "L0"},
                   "correctness-first": {"protocol": "ladder", "level": "L3"},
                   "TRACE": {"protocol": "trace_v2"}}
_SYSTEMS = ("answer_only", "plain_full", "cited_full", "cited_partial")

SPECS: dict[str, FloatSpec] = {
    "table_a9": FloatSpec(
        "table_a9", "model", ("protocol",), _A9_ROWS,
        (*(Metric(c, c) for c in _EQ), Metric("signed_effect", "signed_effect",
                                              interval="bootstrap")),
        _equivalence, paper_n="n"),
    "table_a10": FloatSpec(
        "table_a10", "model", ("variant",), _A10_ROWS,
        (*(Metric(c, c) for c in _EQ), Metric("signed_effect", "signed_effect",
                                              interval="bootstrap")),
        _equivalence, paper_n="n"),
    "table_a14": FloatSpec(
        "table_a14", "judge", ("split",), {(k,): {"split": v} for k, v in _STRICT_SPLITS.items()},
        _PLAIN_STRICT, _equivalence),
    "figure_2": FloatSpec(
        "figure_2", "judge", ("panel", "split"),
        {(k,): {"split": v} for k, v in _FIG2_SPLITS.items()}, _PLAIN_STRICT, _equivalence,
        match=("split",)),
    "table_a15": FloatSpec(
        "table_a15", "model", (), {(): {"split": "conflict", "protocol": "trace_v1"}},
        (Metric("correct_base_win", "correct_win"), Metric("wrong_cited_win", "wrong_win"),
         Metric("tie", "tie")), _correctness, paper_n="n"),
    "table_a16": FloatSpec(
        "table_a16", "model", (),
        {(): [_ladder("position_control", "L0"), _ladder("position_control", "L4")]},
        tuple(Metric(c, c) for c in ("first_position_win", "second_position_win", "tie")),
        _position, paper_n="n"),
    "table_a11": FloatSpec(
        "table_a11", "judge", ("level",),
        {(lv,): _ladder("moderate_hotpotqa", lv) for lv in ("L0", "L1", "L2", "L3", "L4")},
        (Metric("better_plain", "better_plain"), Metric("tie", "tie")), _graded),
    "figure_3": FloatSpec(
        figure_3_paper, "judge", ("level",),
        {**{(lv,): _ladder("moderate_hotpotqa", lv) for lv in ("L0", "L1", "L2", "L3", "L4")},
         ("TRACE",): {"split": "moderate_hotpotqa", "protocol": "trace_v2"}},
        (Metric("better_plain", "better_plain"), Metric("tie", "tie")), _graded),
    "table_a12": FloatSpec(
        "table_a12", "judge", (), {(): {"split": "moderate_hotpotqa", "protocol": "trace_v2"}},
        (Metric("trace_better_plain", "better_plain"), Metric("trace_worse_cited", "worse_cited"),
         Metric("trace_tie", "tie")), _graded),
    "table_a13": FloatSpec(
        "table_a13", "judge", (), {(): {"split": "moderate_finqa"}},
        (Metric("l0_l2_better_plain_low", "better_plain",
                {"protocol": "ladder", "level": ["L0", "L1", "L2"]}, agg="min"),
         Metric("l0_l2_better_plain_high", "better_plain",
                {"protocol": "ladder", "level": ["L0", "L1", "L2"]}, agg="max"),
         Metric("l4_tie", "tie", {"protocol": "ladder", "level": "L4"}),
         Metric("trace_better_plain", "better_plain", {"protocol": "trace_v2"}),
         Metric("trace_tie", "tie", {"protocol": "trace_v2"})),
        _graded, paper_n="n_ordered_per_condition"),
    "table_a19": FloatSpec(
        "table_a19", "judge", ("level",),
        {(lv,): _ladder("soft_hotpotqa", lv) for lv in ("L0", "L1", "L2", "L3", "L4")},
        (Metric("worse_cited", "worse_cited"), Metric("tie", "tie")), _graded),
    "table_a17": FloatSpec(
        "table_a17", "judge", ("protocol", "system"),
        {(p, s): {"split": "ranking_hotpotqa", "system": s, **_RANK_PROTOCOLS[p]}
         for p in ("plain preference", "TRACE") for s in _SYSTEMS},
        (Metric("score", "score", interval="bootstrap"),), _ranking),
    "table_a18": FloatSpec(
        "table_a18", "judge", ("protocol",),
        {(p,): {"split": "ranking_hotpotqa", **f} for p, f in _RANK_PROTOCOLS.items()},
        tuple(Metric(c, f"{c}_pct", paper_per="n_ordered_rows")
              for c in ("plain_full_wins", "cited_full_wins", "tie")),
        _direct, paper_n="n_ordered_rows"),
    "table_a20": FloatSpec(
        "table_a20", "judge", ("split", "decision_type"),
        {(k, d): {"split": v, "decision_type": d} for k, v in _STRICT_SPLITS.items()
         for d in ("citation win", "Tie")},
        (Metric("keyword_rate", "rate", low="ci_low", high="ci_high"),), _rationale),
}
SPECS["figure_a1"] = SPECS["table_a19"]


# --------------------------------------------------------------------------- our metrics


def ranking_scores_with_intervals(rows: pd.DataFrame, by: Sequence[str] = BY,
                                  n_resamples: int = metrics.N_RESAMPLES,
                                  seed: int = 0) -> pd.DataFrame:
    """Table A17 scores (metrics.ranking_scores) plus a bootstrap interval per system: the
    score is the mean of 1 / 0.5 / 0 points over the system's ordered comparisons, so those
    points are resampled (unparsed rows score 0 and stay in, as in the score)."""
    scores = metrics.ranking_scores(rows, by)
    by = list(by)
    keys = rows[by].astype(object).where(rows[by].notna(), "")  # as ranking_scores groups
    d = rows["decision"].to_numpy()
    long = []
    for side in ("cited", "plain"):
        part = keys.copy()
        part["system"] = rows[f"system_{side}"].to_numpy()
        part["points"] = np.where(d == side, 1.0, np.where(d == "tie", 0.5, 0.0))
        part["replied"] = d != "failed"
        long.append(part)
    long = pd.concat(long, ignore_index=True)
    long = long.loc[long["replied"]]
    ci = {}
    for key, g in long.groupby([*by, "system"], sort=True):
        _, lo, hi = stats.bootstrap_mean(g["points"].to_numpy(), n_resamples=n_resamples,
                                         seed=seed)
        ci[key if isinstance(key, tuple) else (key,)] = (100 * lo, 100 * hi)
    idx = list(scores[[*by, "system"]].itertuples(index=False, name=None))
    scores["score_low"] = [ci.get(k, (np.nan, np.nan))[0] for k in idx]
    scores["score_high"] = [ci.get(k, (np.nan, np.nan))[1] for k in idx]
    return scores


def our_metrics(name: str, rows: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """The metrics frame behind float ``name``, computed from our verdict rows."""
    return _spec(name).ours(rows, seed)


# --------------------------------------------------------------------------- comparison


def _spec(name: str) -> FloatSpec:
    if name not in SPECS:
        raise ValueError(f"no comparison is defined for {name!r}; known: {sorted(SPECS)}")
    return SPECS[name]


def paper_values(name: str) -> pd.DataFrame:
    """The paper's printed rows for float ``name``."""
    spec = _spec(name)
    return spec.paper() if callable(spec.paper) else paper_table(spec.paper)


def _filter(frame: pd.DataFrame, where: Mapping[str, object]) -> pd.DataFrame:
    mask = np.ones(len(frame), dtype=bool)
    for col, val in where.items():
        if col not in frame.columns:
            return frame.iloc[0:0]
        values = val if isinstance(val, (list, tuple)) else [val]
        mask &= frame[col].isin(values).to_numpy()
    return frame.loc[mask]


def _cell(ours: pd.DataFrame, where: Mapping[str, object], m: Metric) -> dict:
    hit = _filter(ours, {**where, **m.where})
    empty = {"ours": np.nan, "ours_low": np.nan, "ours_high": np.nan, "n": 0, "k": np.nan,
             "setting": "", "our_split": where.get("split", "")}
    if hit.empty:
        return empty
    if m.agg in ("min", "max"):
        hit = hit.dropna(subset=[m.ours])
        if hit.empty:
            return empty
        hit = hit.loc[[getattr(hit[m.ours], f"idx{m.agg}")()]]
    elif len(hit) > 1:
        raise ValueError(f"{len(hit)} rows of our metrics match {dict(where, **m.where)} for "
                         f"{m.paper!r}: the filter must name one setting")
    row = hit.iloc[0]
    settings = sorted({setting_name(p, lv) for p, lv in
                       zip(hit.get("protocol", [""]), hit.get("level", [""]))} - {""})
    count_col = next((c for c in (f"n_{m.ours}", "k", m.ours.removesuffix("_pct"))
                      if c in hit.columns and c != m.ours), None)
    return {"ours": float(row[m.ours]), "ours_low": float(row[m.low or f"{m.ours}_low"]),
            "ours_high": float(row[m.high or f"{m.ours}_high"]), "n": int(row["n"]),
            "k": float(row[count_col]) if count_col and m.interval == "wilson" else np.nan,
            "setting": ",".join(settings) or str(row.get("protocol", "")),
            "our_split": str(row.get("split", where.get("split", "")))}


def compare(name: str, ours: pd.DataFrame, judge: str) -> pd.DataFrame:
    """Paper's rows for float ``name`` with our value beside each printed cell.

    ``ours`` is :func:`our_metrics` (one judge). Output columns: the paper's judge and key
    columns as printed, then setting, our_split, metric, paper, ours, ours_low, ours_high,
    interval, n (our ordered comparisons in the cell), k (our count), paper_n, judge (ours).
    A cell we did not run gets ours = NaN and n = 0 rather than an error.
    """
    spec = _spec(name)
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
                             f"tjb_lib.compare.SPECS")
        wheres = spec.rows[key]
        for where in (wheres if isinstance(wheres, (list, tuple)) else [wheres]):
            for m in spec.metrics:
                value = prow[m.paper]
                if m.paper_per:
                    value = 100.0 * value / prow[m.paper_per]
                cell = _cell(ours, where, m)
                out.append({"paper_judge": prow[spec.judge_col],
                            **{c: prow[c] for c in spec.keys},
                            "setting": cell["setting"], "our_split": cell["our_split"],
                            "metric": m.paper, "paper": float(value) if pd.notna(value)
                            else np.nan,
                            "ours": cell["ours"], "ours_low": cell["ours_low"],
                            "ours_high": cell["ours_high"], "interval": m.interval,
                            "n": cell["n"], "k": cell["k"],
                            "paper_n": prow[spec.paper_n] if spec.paper_n else np.nan,
                            "judge": judge})
    cols = ["paper_judge", *spec.keys, *(c for c in OUT_COLUMNS if c != "paper_judge")]
    return pd.DataFrame(out, columns=cols)


def compare_float(name: str, rows: pd.DataFrame, judge: str, seed: int = 0) -> pd.DataFrame:
    """:func:`our_metrics` then :func:`compare`, for the notebooks."""
    return compare(name, our_metrics(name, rows, seed), judge)


# --------------------------------------------------------------------------- in-text claims


def claims(ids: Sequence[str]) -> pd.DataFrame:
    """Rows of data/paper_reported/in_text_claims.csv, in the order asked for."""
    table = paper_table("in_text_claims").set_index("claim_id")
    unknown = [i for i in ids if i not in table.index]
    if unknown:
        raise ValueError(f"claim id(s) {unknown} not in in_text_claims.csv")
    return table.loc[list(ids)].reset_index()


def contrasts(rows: pd.DataFrame, pairs: Mapping[str, tuple[Mapping, Mapping]], judge: str,
              split: str, seed: int = 0) -> pd.DataFrame:
    """Paired protocol contrasts (§5.4, §E.5) on the better-plain indicator: the difference in
    points with its paired bootstrap interval and the exact McNemar p, one row per named
    contrast, e.g. {"L0 vs L4": ({"level": "L0"}, {"level": "L4"})}. Units are ordered
    comparisons judged under both settings (pair x order)."""
    sub = rows.loc[(rows["split"] == split) & (rows["judge"] == judge)]
    out = []
    for label, (a, b) in pairs.items():
        res = metrics.paired_contrast(sub, a, b, outcome="plain", by=("judge", "split"),
                                      keys=("pair_id", "order"), seed=seed)
        r = res.iloc[0].to_dict()
        p = r["mcnemar_p"]
        out.append({"contrast": label, "split": split, "n": r["n"],
                    "rate_a": r["rate_a"], "rate_b": r["rate_b"],
                    "difference": r["difference"], "difference_low": r["difference_low"],
                    "difference_high": r["difference_high"],
                    "discordant_a_only": r["b_only"], "discordant_b_only": r["c_only"],
                    "mcnemar_p": p, "p": "p<0.001" if p < 0.001 else f"p={p:.3g}",
                    "judge": judge})
    return pd.DataFrame(out)


# --------------------------------------------------------------------------- human validation

#: Table 2 rows -> (workbook kind, agreement_table group)
TABLE_2_ROWS = {"Natural equivalence": ("natural", "equivalent"),
                "Graded soft": ("graded", "quality_soft"),
                "Graded moderate": ("graded", "quality_moderate"),
                "Graded overall": ("graded", "overall")}
TABLE_2_METRICS = ("raw_agreement_pct", "pabak", "gwet_ac1")


def human_agreement(root: str | Path | None = None) -> pd.DataFrame:
    """Our Table 2 rows from the filled workbooks found by ``annotate.label_sets`` (the layout is
    in data/human_validation/README.md): the two original annotators of each workbook, before
    adjudication, as in the paper. Empty frame when there are no labels."""
    from tjb_lib import annotate

    frames = []
    for found in annotate.label_sets(root):
        raters = found["annotators"]
        if len(raters) != 2:
            raise ValueError(f"labels/{found['stem']}: need exactly two annotator files (plus an "
                             f"optional ADJ), found {sorted(p.name for p in raters.values())}")
        a, b = (annotate.import_workbook(p, found["key"], annotator=code)
                for code, p in sorted(raters.items()))
        frames.append(annotate.agreement_table(a, b).assign(kind=found["stem"]))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["kind", "validation_set", "n", *TABLE_2_METRICS, "main_human_label_signal"])


def compare_table_2(ours: pd.DataFrame) -> pd.DataFrame:
    """Table 2 with our agreement beside the paper's (ours = NaN, n = 0 without labels)."""
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
                        "paper_signal": prow["main_human_label_signal"],
                        "our_signal": hit["main_human_label_signal"].iloc[0] if len(hit)
                        else "no human labels"})
    return pd.DataFrame(out)


# --------------------------------------------------------------------------- prose numbers


def _claim(cid: str) -> float:
    return float(claims([cid])["value"].iloc[0])


def order_gaps(rows: pd.DataFrame, judge: str, seed: int = 0) -> pd.DataFrame:
    """Order gaps (§E.8) per split and setting, with the paper's one printed gap (GPT-5.5,
    HotpotQA mechanical, plain: 2.7 points) beside ours where it applies."""
    out = metrics.order_gap_table(rows.loc[rows["judge"] == judge], BY, seed=seed)
    is_ref = (out["split"] == "mechanical_hotpotqa") & (out["level"] == "L0")
    out["paper"] = np.where(is_ref, _claim("C111"), np.nan)
    out["paper_judge"] = np.where(is_ref, "GPT-5.5", "")
    return out


#: what a Tie means on each tier (§0), and the human Tie prevalence the paper gives (claims)
TIE_READING = {"equivalent": ("bias suppression (gold Tie)", None),
               "quality_soft": ("possibly calibrated (humans mostly Tie)", "C034"),
               "quality_moderate": ("resolution loss (humans better-plain)", "C039"),
               "identical": ("position control (gold Tie)", None)}


def tie_decomposition(rows: pd.DataFrame, judge: str) -> pd.DataFrame:
    """Tie rate per target relation and setting (§5.3), never pooled, with what a Tie means on
    that tier and the paper's human Tie prevalence where printed (soft 96%, moderate 9%)."""
    sub = rows.loc[(rows["judge"] == judge) & rows["target_relation"].isin(TIE_READING)]
    out = metrics.tie_by_relation(sub, ("judge", "protocol", "level"))
    out["tie_means"] = out["target_relation"].map(lambda r: TIE_READING[r][0])
    out["paper_human_tie"] = out["target_relation"].map(
        lambda r: _claim(TIE_READING[r][1]) if TIE_READING[r][1] else np.nan)
    keep = ["judge", "protocol", "level", "target_relation", "tie_means", "n", "tie", "tie_low",
            "tie_high", "paper_human_tie", "cited", "plain", "unparsed"]
    return out[keep]


def protocol_cost(rows: pd.DataFrame, judge: str, split: str,
                  relative_to: str = "L0") -> pd.DataFrame:
    """Calls and tokens per ordered comparison per setting on one split (§6), as multiples of
    the one-call ``relative_to`` setting, with the paper's TRACE figures beside the TRACE rows
    (2 calls; 3.7-4.3x the tokens; 5.3-5.9x the dollars)."""
    from tjb_lib import cost

    sub = rows.loc[(rows["judge"] == judge) & (rows["split"] == split)]
    out = cost.protocol_cost(sub, by=("setting",), relative_to=relative_to).rename(
        columns={"setting": "protocol"})
    trace = out["protocol"].isin(("trace_v1", "trace_v2"))
    out["paper_calls_per_comparison"] = np.where(trace, _claim("C080"), 1.0)
    for col, lo, hi in (("token_multiplier", "C074", "C075"),
                        ("dollar_multiplier", "C076", "C077")):
        out[f"paper_{col}_low"] = np.where(trace, _claim(lo), np.nan)
        out[f"paper_{col}_high"] = np.where(trace, _claim(hi), np.nan)
    return out.assign(split=split, judge=judge)


def contrast_paper_text(ids: Sequence[str]) -> str:
    """The paper's numbers for a contrast, quoted from in_text_claims.csv (quantity=value)."""
    c = claims(ids)
    return "; ".join(f"{q} = {v:g}" for q, v in zip(c["quantity"], c["value"]))


def manifest_frame(manifest: Mapping) -> pd.DataFrame:
    """The split manifest as a table: split, pairs, target relation, source, sha256 prefix."""
    return pd.DataFrame([{"split": name, "pairs": s["count"],
                          "target_relation": s["target_relation"], "source": s["source"],
                          "sha256": s["sha256"][:12]}
                         for name, s in manifest["splits"].items()])
