"""The paper's figures, ours beside the paper's: Figure 2 (presentation vs strict Tie),
Figure 3 (moderate-tier frontier L0-L4 + TRACE) and Figure A1 (soft-tier ladder).

Each function takes the long comparison frame of :func:`tjb_lib.paper.compare.compare` for that float
and returns a matplotlib figure (the notebooks show it and save it). Our values are rates over
parsed verdicts with their 95% intervals; beside each one the figure says how many verdicts it
rests on and what share of replies did not parse, and a setting with no parsed verdict is
labelled so, never drawn as 0. A value of exactly 0 is drawn as a visible mark on the axis.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

plt.rcParams["svg.hashsalt"] = "tracejudgebench"  # stable SVG ids across reruns

PAPER_MARKERS = ("D", "s", "^", "v", "P")
LEVEL_ORDER = ("L0", "L1", "L2", "L3", "L4", "TRACE")
#: the paper's judges as every figure names them (its tables print "DeepSeek", its figure
#: panels "DeepSeek V4-Flash")
JUDGE_NAMES = {"DeepSeek": "DeepSeek V4-Flash"}
OURS_COLOR = sns.color_palette("deep")[0]


def judge_name(paper_judge: str) -> str:
    """One display name per paper judge, in every figure."""
    return JUDGE_NAMES.get(paper_judge, paper_judge)


def ours_name(cmp: pd.DataFrame) -> str:
    """Our judge(s), named the same way in every figure."""
    return "ours: " + ", ".join(sorted(set(cmp["judge"])))


def _need(cmp: pd.DataFrame, cols, name: str) -> None:
    missing = [c for c in cols if c not in cmp.columns]
    if missing:
        raise ValueError(f"{name}: comparison frame lacks column(s) {missing}")
    if cmp.empty:
        raise ValueError(f"{name}: comparison frame has no rows")


def _ours(cmp: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """One row per (keys, metric): our value is repeated across paper judges."""
    cols = [*keys, "metric", "ours", "ours_low", "ours_high", "n"]
    extra = [c for c in ("unparsed", "status") if c in cmp.columns]
    return cmp.drop_duplicates([*keys, "metric"])[cols + extra]


def _yerr(sub: pd.DataFrame) -> np.ndarray:
    low = (sub["ours"] - sub["ours_low"]).clip(lower=0).fillna(0)
    high = (sub["ours_high"] - sub["ours"]).clip(lower=0).fillna(0)
    return np.vstack([low.to_numpy(), high.to_numpy()])


def _basis(row: pd.Series) -> str:
    """'n=60, unparsed 0%' or 'no parsed verdict' for one of our values."""
    status = row.get("status", "ok")
    if pd.isna(row["ours"]):
        return "not run" if status == "not run" else "no parsed\nverdict"
    u = row.get("unparsed", np.nan)
    return f"n={int(row['n'])}" + (f", unparsed {u:.0f}%" if pd.notna(u) else "")


def figure_2(cmp: pd.DataFrame) -> plt.Figure:
    """Figure 2: (a) cited-win rate under plain preference, (b) Tie under the strict rubric, per
    equivalence split; bars are ours with Wilson intervals, markers the paper's judges."""
    _need(cmp, ("split", "metric", "paper_judge", "paper", "ours", "ours_low", "ours_high",
                "judge"), "figure_2")
    sns.set_theme(style="whitegrid", context="paper")
    splits = list(dict.fromkeys(cmp["split"]))
    judges = list(dict.fromkeys(cmp["paper_judge"]))
    ours = _ours(cmp, ["split"])
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), sharey=True)
    panels = (("plain_cited_win", "(a) plain preference (L0): cited wins (%)"),
              ("strict_tie", "(b) strict rubric (L4): Tie (%)"))
    x = np.arange(len(splits))
    width = 0.5
    for ax, (metric, title) in zip(axes, panels):
        sub = ours[ours["metric"] == metric].set_index("split").reindex(splits)
        drawn = sub["ours"].notna().to_numpy()
        ax.bar(x[drawn], sub["ours"][drawn], width=width, color=OURS_COLOR, alpha=0.85,
               yerr=_yerr(sub[drawn]), capsize=3, edgecolor=OURS_COLOR)
        zero = drawn & (sub["ours"].to_numpy() == 0)
        ax.hlines(np.zeros(zero.sum()), x[zero] - width / 2, x[zero] + width / 2,
                  colors=OURS_COLOR, linewidth=3, zorder=4)  # a zero bar stays visible
        for xi, (_, row) in zip(x, sub.iterrows()):
            if pd.isna(row["ours"]):
                ax.text(xi, 50, _basis(row), ha="center", va="center", fontsize=7,
                        color=OURS_COLOR, rotation=90)
        for j, (judge, marker) in enumerate(zip(judges, PAPER_MARKERS)):
            p = cmp[(cmp["metric"] == metric) & (cmp["paper_judge"] == judge)]
            p = p.set_index("split").reindex(splits)
            ax.scatter(x + (j - (len(judges) - 1) / 2) * 0.12, p["paper"], marker=marker,
                       color="black", s=22, zorder=5)
        labels = [f"{s}\n{_basis(r)}" if pd.notna(r["ours"]) else s
                  for s, (_, r) in zip(splits, sub.iterrows())]
        ax.set_xticks(x, labels, fontsize=7)
        ax.set_title(title, fontsize=9)
        ax.set_ylim(-2, 105)
    axes[0].set_ylabel("% of parsed ordered comparisons")
    handles = [Patch(facecolor=OURS_COLOR, alpha=0.85, label=ours_name(cmp))]
    handles += [Line2D([], [], marker=m, color="black", linestyle="", markersize=5,
                       label=f"paper: {judge_name(j)}") for j, m in zip(judges, PAPER_MARKERS)]
    fig.legend(handles=handles, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=7,
               frameon=False)
    fig.suptitle("Figure 2: citation display under plain vs strict judging", fontsize=10)
    fig.tight_layout()
    return fig


def _ladder_panels(cmp: pd.DataFrame, metrics: tuple[tuple[str, str], ...], title: str,
                   name: str) -> plt.Figure:
    """Ours in the first panel, then one panel per paper judge, on the same axes."""
    _need(cmp, ("level", "metric", "paper_judge", "paper", "ours", "ours_low", "ours_high",
                "judge"), name)
    sns.set_theme(style="whitegrid", context="paper")
    levels = [lv for lv in LEVEL_ORDER if lv in set(cmp["level"])]
    judges = list(dict.fromkeys(cmp["paper_judge"]))
    ours = _ours(cmp, ["level"])
    colors = sns.color_palette("deep")[:len(metrics)]
    x = np.arange(len(levels))
    fig, axes = plt.subplots(1, len(judges) + 1, figsize=(2.5 * (len(judges) + 1), 3.4),
                             sharey=True, squeeze=False)
    ax0 = axes[0][0]
    for (metric, label), c in zip(metrics, colors):
        o = ours[ours["metric"] == metric].set_index("level").reindex(levels)
        ax0.errorbar(x, o["ours"], yerr=_yerr(o), color=c, marker="o", ms=4, capsize=2,
                     label=label)
    first = ours[ours["metric"] == metrics[0][0]].set_index("level").reindex(levels)
    for xi, (_, row) in zip(x, first.iterrows()):
        u = row.get("unparsed", np.nan)
        if pd.isna(row["ours"]) or (pd.notna(u) and u > 0):
            ax0.text(xi, 3, _basis(row), ha="center", va="bottom", fontsize=6, rotation=90,
                     color="0.3")
    ax0.set_title(ours_name(cmp), fontsize=8, fontweight="bold")
    ax0.set_ylabel("% of parsed ordered comparisons")
    for ax, judge in zip(axes[0][1:], judges):
        for (metric, label), c in zip(metrics, colors):
            p = cmp[(cmp["metric"] == metric) & (cmp["paper_judge"] == judge)]
            p = p.set_index("level").reindex(levels)
            ax.plot(x, p["paper"], color=c, linestyle="--", marker="D", ms=3, label=label)
        ax.set_title(f"paper: {judge_name(judge)}", fontsize=8)
    for ax in axes[0]:
        ax.set_xticks(x, levels)
        ax.set_ylim(-3, 103)
    n_text = ", ".join(f"{lv} n={int(r['n'])}" for lv, (_, r) in zip(levels, first.iterrows())
                       if pd.notna(r["ours"]))
    handles, labels = ax0.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=7,
               bbox_to_anchor=(0.5, -0.02))
    fig.suptitle(f"{title}\nours (solid, 95% intervals; {n_text or 'no parsed verdict'}) "
                 "beside the paper's judges (dashed)", fontsize=9)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig


def figure_3(cmp: pd.DataFrame) -> plt.Figure:
    """Figure 3: moderate-tier better-plain win and Tie over L0-L4 and TRACE: ours once, then
    the paper's five judges."""
    return _ladder_panels(cmp, (("better_plain", "better-plain win"), ("tie", "Tie")),
                          "Figure 3: bias-resolution frontier on the moderate tier", "figure_3")


def figure_a1(cmp: pd.DataFrame) -> plt.Figure:
    """Figure A1: soft-tier worse-cited win and Tie over L0-L4: ours once, then the paper's
    three judges."""
    return _ladder_panels(cmp, (("worse_cited", "worse-cited win"), ("tie", "Tie")),
                          "Figure A1: soft-tier prompt ladder", "figure_a1")
