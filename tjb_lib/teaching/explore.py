"""Views for the teaching explorer (notebook 08) and the tier operating points of notebook 09.

Everything works on verdict rows already produced (shipped raw outputs or a replayed run), so
nothing here calls a judge. The explorer's question is the paper's §5.3 one: what does a Tie mean?
The answer depends on the pair's tier, so every view is split by tier and each tier carries its
meaning of Tie: correct (content-equivalent pairs), calibrated (soft boundary), costly (moderate
gap). One run's operating point and its order-calibrated variant are tables the notebooks only
display.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from tjb_lib.analysis import frontier, metrics
from tjb_lib import paths
from tjb_lib.pairs.registry import explorer_splits
from tjb_lib.records import Pair

TIER_ORDER = ("equivalent", "soft", "moderate", "control", "conflict")


@dataclass(frozen=True)
class TieMeaning:
    """One meaning of Tie (paper §5.3): the tier where it holds and why a Tie there is what it is."""

    name: str
    tier: str
    splits: tuple[str, ...]
    why: str


TIE_MEANINGS: dict[str, TieMeaning] = {
    "correct": TieMeaning(
        "correct", "equivalent", explorer_splits("equivalent"),
        "The two candidates say the same thing; only the citation-like display differs. Tie is "
        "the right verdict, and a citation win is the presentation bias the strict rubric "
        "suppresses."),
    "calibrated": TieMeaning(
        "calibrated", "soft", explorer_splits("quality_soft"),
        "The candidates differ a little (the cited side's reasoning is vaguer) but human "
        "annotators mostly answer Tie themselves, so a Tie here is calibrated uncertainty, not "
        "lost resolution."),
    "costly": TieMeaning(
        "costly", "moderate", explorer_splits("quality_moderate"),
        "The plain side keeps a support hop (or a calculation step) that the cited side drops; "
        "humans prefer the plain side. A Tie here is resolution the protocol has lost."),
}
MEANING_OF_TIER = {m.tier: m.name for m in TIE_MEANINGS.values()}


def tier_of(target_relation) -> pd.Series:
    """The tier name of each target relation (equivalent, soft, moderate, control, conflict)."""
    s = pd.Series(target_relation)
    return s.map(frontier.TIERS).fillna(s)


def _check_rows(rows: pd.DataFrame, need: Iterable[str], where: str = "verdict rows") -> None:
    if not isinstance(rows, pd.DataFrame):
        raise TypeError(f"{where}: expected a pandas DataFrame, got {type(rows).__name__}")
    missing = [c for c in need if c not in rows.columns]
    if missing:
        raise ValueError(f"{where}: missing column(s) {missing}; have {list(rows.columns)}")


# --------------------------------------------------------------------------- shipped rows


def load_shipped_rows(root: Path | str | None = None, splits: Iterable[str] | None = None,
                      judges: Iterable[str] | None = None) -> pd.DataFrame:
    """Every verdict-row file under outputs/raw_outputs/<judge>/<split>.<protocol>.jsonl.

    The explorer offers every judge whose raw outputs ship with the compendium, not only the one
    a notebook replays. A line that is not JSON is an error naming the file and the line.
    """
    root = Path(root or paths.RAW_OUTPUTS)
    keep_splits = set(splits) if splits is not None else None
    keep_judges = set(judges) if judges is not None else None
    records = []
    for path in sorted(root.glob("*/*.jsonl")):
        judge, split = path.parent.name, path.name.split(".")[0]
        if path.name.startswith("calls") or path.name.count(".") != 2:
            continue  # the response store (calls.jsonl), not verdict rows
        if (keep_splits is not None and split not in keep_splits) or \
                (keep_judges is not None and judge not in keep_judges):
            continue
        recs = []
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                recs.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}: line {i} is not a JSON verdict row ({e.msg})") from e
        records.extend(recs)
    if not records:
        return pd.DataFrame()
    out = pd.DataFrame.from_records(records)  # one frame: dtypes inferred over every row
    # a row file may hold a comparison twice after an interrupted rewrite; keep the last
    key = [c for c in ("judge", "pair_id", "order", "protocol", "level", "paraphrase")
           if c in out.columns]
    return out.drop_duplicates(key, keep="last").reset_index(drop=True)


# --------------------------------------------------------------------------- explorer view


def options(rows: pd.DataFrame) -> dict[str, list[str]]:
    """The values the explorer's drop-downs offer: judges, levels and tiers present in the rows."""
    _check_rows(rows, ("judge", "level", "target_relation"))
    tiers = set(tier_of(rows["target_relation"]))
    levels = sorted({str(v) for v in rows["level"].dropna() if str(v)})
    return {"judge": sorted(rows["judge"].dropna().unique().tolist()),
            "level": levels,
            "tier": [t for t in TIER_ORDER if t in tiers] + sorted(tiers - set(TIER_ORDER))}


def judge_labels(rows: pd.DataFrame) -> list[tuple[str, str]]:
    """(label, judge) for the explorer's judge list. Each label says what the judge's verdicts
    are (scored from P(A), P(B), P(Tie), or text replies), how many there are, how many did not
    parse, and which tiers and levels they cover, so a partial run (a ``-rationales`` run of one
    split at one level, say) is not mistaken for a full judge."""
    _check_rows(rows, ("judge", "level", "decision", "target_relation"))
    out = []
    for judge, sub in rows.groupby("judge", sort=True):
        replied = sub[sub["decision"] != "failed"]
        probs = (replied.reindex(columns=list(frontier.PROB_COLUMNS))
                 .apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float))
        scored = int(np.isfinite(probs).all(axis=1).sum())
        how = ("scored from P(A)/P(B)/P(Tie)" if scored == len(replied) else
               "text replies" if scored == 0 else f"{scored} scored from P(A)/P(B)/P(Tie)")
        unparsed = int((replied["decision"] == "unparsed").sum())
        tiers = [t for t in TIER_ORDER if t in set(tier_of(sub["target_relation"]))]
        levels = sorted({str(v) for v in sub["level"].dropna() if str(v)})
        out.append((f"{judge}: {len(replied)} verdicts, {how}, {unparsed} unparsed; "
                    f"{', '.join(tiers)} at {', '.join(levels) or 'no level'}", judge))
    return out


def has_probabilities(rows: pd.DataFrame) -> bool:
    """True when every replied row carries P(A), P(B), P(Tie), so the Tie threshold can move."""
    if rows.empty or not all(c in rows.columns for c in frontier.PROB_COLUMNS):
        return False
    replied = rows["decision"] != "failed"
    p = rows.loc[replied, list(frontier.PROB_COLUMNS)].apply(pd.to_numeric, errors="coerce")
    return bool(np.isfinite(p.to_numpy(dtype=float)).all())


def select(rows: pd.DataFrame, judge: str | None = None, level: str | None = None,
           tier: str | None = None) -> pd.DataFrame:
    """The rows of one explorer setting; None (or "all") keeps every value of that field."""
    _check_rows(rows, ("judge", "level", "target_relation", "decision", "order"))
    mask = np.ones(len(rows), dtype=bool)
    if judge not in (None, "all"):
        mask &= (rows["judge"] == judge).to_numpy()
    if level not in (None, "all"):
        mask &= (rows["level"] == level).to_numpy()
    if tier not in (None, "all"):
        mask &= (tier_of(rows["target_relation"]) == tier).to_numpy()
    return rows.loc[mask]


def static_view(rows: pd.DataFrame, judge: str | None, level: str | None,
                tier: str | None = None, threshold: float = 0.0,
                rule: str = "margin") -> pd.DataFrame:
    """One explorer setting as a table: per tier, n and the cited / plain / tie / unparsed rates
    (percent, with Wilson intervals), the meaning of a Tie in that tier, and the threshold used.

    ``threshold`` > 0 re-decides the rows from their stored probabilities (``rule`` as in
    :func:`tjb_lib.analysis.frontier.sweep`); it is an error on text verdicts, which have none. A setting
    with no rows gives an empty table with the same columns, so a widget can show it.
    """
    sub = select(rows, judge, level, tier)
    cols = ["tier", "meaning_of_tie", "n", "cited", "plain", "tie", "unparsed", "cited_low",
            "cited_high", "plain_low", "plain_high", "tie_low", "tie_high", "n_failed",
            "threshold", "rule"]
    if sub.empty:
        return pd.DataFrame(columns=cols)
    if threshold:
        if not has_probabilities(sub):
            raise ValueError(f"judge {judge!r} level {level!r}: these verdicts have no stored "
                             "P(A)/P(B)/P(Tie), so the Tie threshold cannot move (text verdicts)")
        if rule not in frontier.RULES:
            raise ValueError(f"rule must be one of {frontier.RULES}, got {rule!r}")
        kw = {"tie_margin": float(threshold)} if rule == "margin" else {"tie_bias": float(threshold)}
        sub = frontier.redecide(sub, **kw)
    sub = sub.assign(tier=tier_of(sub["target_relation"]).to_numpy())
    out = metrics.decision_rates(sub, by=("tier",))
    out["meaning_of_tie"] = out["tier"].map(MEANING_OF_TIER).fillna("")
    out["threshold"], out["rule"] = float(threshold), rule
    out["_o"] = out["tier"].map({t: i for i, t in enumerate(TIER_ORDER)}).fillna(99)
    return out.sort_values("_o")[cols].reset_index(drop=True)


def example_pairs(pairs: Sequence[Pair], rows: pd.DataFrame, meaning: str,
                  judge: str | None = None, level: str | None = None, threshold: float = 0.0,
                  n: int = 1, seed: int = 0) -> list[dict]:
    """Real pairs that show one meaning of Tie, with the judge's verdicts on them.

    Candidates are the pairs of the meaning's tier that this setting judged; the ones the judge
    called Tie in at least one order come first (they show the meaning itself), then the rest.
    Within each group the pick is a seeded shuffle, so the same seed shows the same pairs.
    Each example: the pair's fields, the meaning, the construction note and one verdict per order.
    """
    if meaning not in TIE_MEANINGS:
        raise ValueError(f"meaning must be one of {list(TIE_MEANINGS)}, got {meaning!r}")
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    m = TIE_MEANINGS[meaning]
    sub = select(rows, judge, level, m.tier)
    if threshold and not sub.empty:
        sub = frontier.redecide(sub, tie_margin=float(threshold))
    by_id = {p.pair_id: p for p in pairs if p.split in m.splits}
    sub = sub[sub["pair_id"].isin(by_id)]
    if sub.empty:
        return []
    judged = sorted(sub["pair_id"].unique())
    tied = set(sub.loc[sub["decision"] == "tie", "pair_id"])
    rng = np.random.default_rng([seed, len(judged)])
    first = [judged[i] for i in rng.permutation(len(judged)) if judged[i] in tied]
    rest = [judged[i] for i in rng.permutation(len(judged)) if judged[i] not in tied]
    out = []
    for pid in (first + rest)[:n]:
        p = by_id[pid]
        verdicts = []
        for r in sub[sub["pair_id"] == pid].sort_values(["order", "judge", "level"]).itertuples():
            verdicts.append({"judge": r.judge, "level": r.level, "order": r.order,
                             "decision": r.decision,
                             **{c: _num(getattr(r, c, None)) for c in frontier.PROB_COLUMNS}})
        note = p.meta.get("gold_note") or (
            f"dropped support hop: {p.meta['dropped_hop']}" if p.meta.get("dropped_hop") else
            f"skipped calculation step ({p.meta['omitted_kind']}): {p.meta['omitted_text']}"
            if p.meta.get("omitted_text")
            else f"cited side carries: {p.artifact}")
        out.append({"pair_id": pid, "split": p.split, "meaning": meaning, "why": m.why,
                    "task": p.task, "plain": p.plain, "cited": p.cited, "gold": p.gold,
                    "note": note, "judge_tied": pid in tied, "verdicts": verdicts})
    return out


def _num(v) -> float | None:
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return v if np.isfinite(v) else None


def literal_block(text: str, info: str = "text") -> str:
    """Text shown verbatim in Markdown: a fenced block longer than any backtick run inside it,
    so nothing in a pair (FinQA's "$" amounts, which notebooks render as LaTeX; a code answer's
    own fences; "*" or "#") is read as Markdown or math."""
    fence = "`" * max(3, _longest_backtick_run(text) + 1)
    return f"{fence}{info}\n{text}\n{fence}"


def literal_inline(text: str) -> str:
    """One line of text shown verbatim inside a Markdown paragraph (a code span)."""
    ticks = "`" * (_longest_backtick_run(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _longest_backtick_run(text: str) -> int:
    return max((len(m) for m in re.findall(r"`+", text)), default=0)


def render_example(example: Mapping, max_chars: int = 900) -> str:
    """One example as Markdown: the meaning, the task, both candidates (shortened) and the
    verdicts per order, with the label probabilities where the judge has them. Every piece of
    pair text is shown verbatim (:func:`literal_block`, :func:`literal_inline`)."""
    def cut(text: str) -> str:
        text = text.strip()
        return text if len(text) <= max_chars else text[:max_chars].rstrip() + " [...]"

    lines = [f"**Tie is {example['meaning']}** ({example['split']}, `{example['pair_id']}`): "
             f"{example['why']}", "", f"*Construction:* {literal_inline(example['note'])}; "
             f"gold: {literal_inline(str(example['gold']))}.", "", "**Task**", "",
             literal_block(cut(example["task"])), "", "**Plain candidate**", "",
             literal_block(cut(example["plain"])), "", "**Cited candidate**", "",
             literal_block(cut(example["cited"])), "",
             "| judge | level | order | verdict | P(A) | P(B) | P(Tie) |",
             "|---|---|---|---|---|---|---|"]
    for v in example["verdicts"]:
        probs = [("" if v[c] is None else f"{v[c]:.3f}") for c in frontier.PROB_COLUMNS]
        lines.append(f"| {v['judge']} | {v['level']} | {v['order']} | {v['decision']} | "
                     + " | ".join(probs) + " |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- same splits


def same_splits(rows: pd.DataFrame, by: Sequence[str] = ("judge", "level")
                ) -> tuple[pd.DataFrame, list[str]]:
    """The rows of each tier's splits that every group of ``by`` (each judge at each level)
    holds, so a line over the levels (or across judges) moves with the judge, not with what it
    pools; and one sentence per tier saying what is pooled and what is left out. A tier whose
    groups share no split is kept whole, and its sentence says its splits differ by group."""
    _check_rows(rows, ("split", "target_relation", *by))
    tier = tier_of(rows["target_relation"]).to_numpy()
    keep = np.ones(len(rows), dtype=bool)
    notes = []
    for name in [t for t in TIER_ORDER if t in set(tier)] + sorted(set(tier) - set(TIER_ORDER)):
        mine = rows[tier == name]
        held = mine.groupby(list(by), sort=True)["split"].agg(lambda s: frozenset(s))
        common = frozenset.intersection(*held) if len(held) else frozenset()
        every = sorted(set(mine["split"]))
        if not common:
            notes.append(f"{name}: the groups hold different splits ({', '.join(every)}), "
                         "so its lines pool what each group holds")
            continue
        left = [s for s in every if s not in common]
        keep &= ~((tier == name) & rows["split"].isin(left).to_numpy())
        where = {s: sorted({str(k[-1] if isinstance(k, tuple) else k)
                            for k, splits in held.items() if s in splits}) for s in left}
        notes.append(f"{name}: {', '.join(sorted(common))}" + (
            " (left out, not held by every judge and level: " + "; ".join(
                f"{s} at {', '.join(lv)}" for s, lv in where.items()) + ")" if left else ""))
    return rows.loc[keep], notes


# --------------------------------------------------------------------------- operating points


def operating_point(rows: pd.DataFrame, by: Sequence[str] = ("judge", "level")) -> pd.DataFrame:
    """The paper's joint frontier vector per group: per-tier rates from
    :func:`tjb_lib.analysis.frontier.tier_rates` (Δcitation on equivalence, better-plain and Δquality on
    moderate, Tie on every tier) plus, where position-only controls are present, the
    first-position win rate on them (identical candidates: any non-Tie is position bias)."""
    _check_rows(rows, ("decision", "order", "target_relation", *by))
    out = frontier.tier_rates(rows, by)
    ctrl = rows[rows["target_relation"] == "identical"]
    if not ctrl.empty:
        pos = metrics.position_table(ctrl, by=tuple(by))
        pos = pos[[*by, "first_position_win", "second_position_win"]].rename(
            columns={"first_position_win": "control_first_position",
                     "second_position_win": "control_second_position"})
        out = out.merge(pos, on=list(by), how="left") if by else out.assign(
            **pos.iloc[0].to_dict())
    return out


def calibration_audit(rows: pd.DataFrame, by: Sequence[str] = ("judge", "level")
                      ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Order calibration as a debiasing intervention, audited on the same tiers.

    Per group of ``by`` (a judge at one level), the positional prior is estimated on that
    group's position-only controls (:func:`tjb_lib.analysis.frontier.position_prior`) and every row of
    the group is corrected two ways (``full``: A, B and Tie divided by the prior; ``keep_tie``:
    only the slots). Returns (operating points with a ``correction`` column none | full |
    keep_tie, the priors). The prior is fitted on the same controls it is then checked on, so
    the controls' balance after correction is in-sample; the other tiers are out-of-sample.
    """
    _check_rows(rows, ("decision", "order", "target_relation", *frontier.PROB_COLUMNS, *by))
    points, priors = [], []
    groups = rows.groupby(list(by), sort=True) if by else [((), rows)]
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        ctrl = g[g["target_relation"] == "identical"]
        if ctrl.empty:
            raise ValueError(f"group {dict(zip(by, key))}: no position-only control rows "
                             "(target relation 'identical') to estimate the positional prior")
        prior = frontier.position_prior(ctrl)
        priors.append({**dict(zip(by, key)), **prior})
        for name, frame in (("none", g), ("full", frontier.calibrate(g, prior)),
                            ("keep_tie", frontier.calibrate(g, prior, keep_tie=True))):
            points.append(operating_point(frame, by).assign(correction=name))
    out = pd.concat(points, ignore_index=True)
    lead = [*by, "correction"]
    return out[lead + [c for c in out.columns if c not in lead]], pd.DataFrame(priors)


# --------------------------------------------------------------------------- the paper's frontier

#: Table A9's HotpotQA mechanical rows as ladder levels: plain preference and the strict rubric
A9_LEVELS = {"Mechanical Plain": "L0", "Mechanical Strict": "L4"}
#: per tier, the rate that shows a preference and its name; every panel also draws Tie
TIER_PANELS = (("equivalent", "equivalent_cited", "cited wins"),
               ("soft", "soft_cited", "worse-cited wins"),
               ("moderate", "moderate_better_plain", "better-plain wins"))


def paper_frontier() -> pd.DataFrame:
    """The paper's judges as operating points per level, in the columns of
    :func:`tjb_lib.analysis.frontier.tier_rates`: equivalence from Table A9 (HotpotQA mechanical; the
    paper prints L0 and L4 only), soft from Table A19 (worse-cited wins, Tie), moderate from
    Table A11 (better-plain wins, Tie). A cell the paper did not print is NaN, never 0."""
    from tjb_lib.paper.report import paper_table

    a9 = paper_table("table_a9")
    a9 = a9[a9["protocol"].isin(A9_LEVELS)]
    equivalent = pd.DataFrame({
        "judge": a9["model"], "level": a9["protocol"].map(A9_LEVELS),
        "equivalent_cited": a9["citation_win"], "equivalent_plain": a9["base_win"],
        "equivalent_tie": a9["tie"]})
    a19 = paper_table("table_a19")
    soft = pd.DataFrame({"judge": a19["judge"], "level": a19["level"],
                         "soft_cited": a19["worse_cited"], "soft_tie": a19["tie"]})
    a11 = paper_table("table_a11")
    moderate = pd.DataFrame({"judge": a11["judge"], "level": a11["level"],
                             "moderate_better_plain": a11["better_plain"],
                             "moderate_tie": a11["tie"]})
    out = (moderate.merge(soft, on=["judge", "level"], how="outer")
           .merge(equivalent, on=["judge", "level"], how="outer"))
    out["delta_citation"] = out["equivalent_cited"] - out["equivalent_plain"]
    judges = list(dict.fromkeys(moderate["judge"]))  # the paper's order of judges
    out["_j"] = out["judge"].map({j: i for i, j in enumerate(judges)}).fillna(len(judges))
    return out.sort_values(["_j", "judge", "level"]).drop(columns="_j").reset_index(drop=True)


def plot_tiers(ours: pd.DataFrame, paper: pd.DataFrame | None = None,
               levels: Sequence[str] = ("L0", "L1", "L2", "L3", "L4")):
    """Per tier, its preference rate (solid) and its Tie rate (dashed) over the prompt levels:
    ``ours`` (one bold line per judge: a run's operating points, or a person's verdicts) beside
    the paper's judges (thin, from :func:`paper_frontier`). Each panel names what a Tie means in
    its tier. A level a judge has no value for is left out, never drawn as 0."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    _check_rows(ours, ("judge", "level"), "operating points")
    fig, axes = plt.subplots(1, len(TIER_PANELS), figsize=(13, 4.2), sharey=True)
    strong = ["#222222", "#c44e52", "#4c72b0", "#55a868"]
    light = ["#8da0cb", "#e78ac3", "#a6d854", "#ffd92f", "#e5c494"]
    groups = [(j, g, strong[i % len(strong)], 2.2, 6)
              for i, (j, g) in enumerate(ours.groupby("judge", sort=False))]
    if paper is not None:
        groups += [(f"paper: {j}", g, light[i % len(light)], 1.2, 4)
                   for i, (j, g) in enumerate(paper.groupby("judge", sort=False))]
    handles = []
    for label, g, color, lw, ms in groups:
        drawn = False
        for ax, (tier, win, _) in zip(axes, TIER_PANELS):
            for col, style in ((win, "-"), (f"{tier}_tie", "--")):
                if col not in g.columns:
                    continue
                y = g.drop_duplicates("level").set_index("level")[col].reindex(levels)
                if y.isna().all():
                    continue
                # a level without a value breaks the line: nothing is drawn between known levels
                ax.plot(range(len(levels)), y.to_numpy(dtype=float), style, color=color, lw=lw,
                        marker="o", ms=ms)
                drawn = True
        if drawn:
            handles.append(Line2D([], [], color=color, lw=lw, marker="o", ms=ms, label=label))
    handles += [Line2D([], [], color="#555555", ls="-", label="preference (panel title)"),
                Line2D([], [], color="#555555", ls="--", label="Tie")]
    for ax, (tier, _, win_label) in zip(axes, TIER_PANELS):
        ax.set_title(f"{tier}: {win_label}; Tie is {MEANING_OF_TIER[tier]}", fontsize=10)
        ax.set_xticks(range(len(levels)), list(levels))
        ax.set_ylim(-3, 103)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("% of verdicts")
    axes[-1].legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                    frameon=False, fontsize=8)
    fig.tight_layout()
    return fig
