"""The paper's figures, ours beside the paper's: Figure 2 (presentation vs strict Tie),
Figure 3 (moderate-tier frontier L0-L4 + TRACE) and Figure A1 (soft-tier ladder).

Each function takes the long comparison frame of :func:`tjb_lib.compare.compare` for that float
and returns a matplotlib figure: our values as bars or solid lines with their 95% intervals,
the paper's judges as reference markers (dashed grey lines where the paper draws a ladder).
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # figures are files; no display is needed (also inside papermill)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402

matplotlib.rcParams["svg.hashsalt"] = "tracejudgebench"  # stable SVG ids across reruns

PAPER_MARKERS = ("D", "s", "^", "v", "P")
LEVEL_ORDER = ("L0", "L1", "L2", "L3", "L4", "TRACE")


def _need(cmp: pd.DataFrame, cols, name: str) -> None:
    missing = [c for c in cols if c not in cmp.columns]
    if missing:
        raise ValueError(f"{name}: comparison frame lacks column(s) {missing}")
    if cmp.empty:
        raise ValueError(f"{name}: comparison frame has no rows")


def _judge_label(cmp: pd.DataFrame) -> str:
    judges = sorted(set(cmp["judge"]))
    return "ours (" + ", ".join(judges) + ")"


def _ours(cmp: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """One row per (keys, metric): our value is repeated across paper judges."""
    return cmp.drop_duplicates([*keys, "metric"])[[*keys, "metric", "ours", "ours_low",
                                                   "ours_high", "n"]]


def _yerr(sub: pd.DataFrame) -> np.ndarray:
    low = (sub["ours"] - sub["ours_low"]).clip(lower=0).fillna(0)
    high = (sub["ours_high"] - sub["ours"]).clip(lower=0).fillna(0)
    return np.vstack([low.to_numpy(), high.to_numpy()])


def figure_2(cmp: pd.DataFrame) -> plt.Figure:
    """Figure 2: (a) cited-win rate under plain preference, (b) Tie under the strict rubric, per
    equivalence split; bars are ours with Wilson intervals, markers the paper's judges."""
    _need(cmp, ("split", "metric", "paper_judge", "paper", "ours", "ours_low", "ours_high",
                "judge"), "figure_2")
    sns.set_theme(style="whitegrid", context="paper")
    splits = list(dict.fromkeys(cmp["split"]))
    judges = list(dict.fromkeys(cmp["paper_judge"]))
    ours = _ours(cmp, ["split"])
    color = sns.color_palette("deep")
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
    panels = (("plain_cited_win", "(a) plain preference: cited wins (%)", color[3]),
              ("strict_tie", "(b) strict rubric (L4): Tie (%)", color[0]))
    x = np.arange(len(splits))
    for ax, (metric, title, c) in zip(axes, panels):
        sub = ours[ours["metric"] == metric].set_index("split").reindex(splits)
        ax.bar(x, sub["ours"].fillna(0), width=0.55, color=c, alpha=0.85,
               label=_judge_label(cmp), yerr=_yerr(sub), capsize=3)
        for j, (judge, marker) in enumerate(zip(judges, PAPER_MARKERS)):
            p = cmp[(cmp["metric"] == metric) & (cmp["paper_judge"] == judge)]
            p = p.set_index("split").reindex(splits)
            ax.scatter(x + (j - (len(judges) - 1) / 2) * 0.12, p["paper"], marker=marker,
                       color="black", s=22, zorder=3, label=f"paper: {judge}")
        ax.set_xticks(x, splits)
        ax.set_title(title, fontsize=9)
        ax.set_ylim(0, 105)
    axes[0].set_ylabel("% of ordered comparisons")
    axes[1].legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    fig.suptitle("Figure 2: citation display under plain vs strict judging", fontsize=10)
    fig.tight_layout()
    return fig


def _ladder_panels(cmp: pd.DataFrame, metrics: tuple[tuple[str, str], ...], title: str,
                   name: str) -> plt.Figure:
    _need(cmp, ("level", "metric", "paper_judge", "paper", "ours", "ours_low", "ours_high",
                "judge"), name)
    sns.set_theme(style="whitegrid", context="paper")
    levels = [lv for lv in LEVEL_ORDER if lv in set(cmp["level"])]
    judges = list(dict.fromkeys(cmp["paper_judge"]))
    ours = _ours(cmp, ["level"])
    colors = sns.color_palette("deep")
    x = np.arange(len(levels))
    fig, axes = plt.subplots(1, len(judges), figsize=(2.6 * len(judges), 3.2), sharey=True,
                             squeeze=False)
    for ax, judge in zip(axes[0], judges):
        for (metric, label), c in zip(metrics, (colors[0], colors[1])):
            o = ours[ours["metric"] == metric].set_index("level").reindex(levels)
            ax.errorbar(x, o["ours"], yerr=_yerr(o), color=c, marker="o", ms=4, capsize=2,
                        label=f"{label}, {_judge_label(cmp)}")
            p = cmp[(cmp["metric"] == metric) & (cmp["paper_judge"] == judge)]
            p = p.set_index("level").reindex(levels)
            ax.plot(x, p["paper"], color=c, linestyle="--", marker="D", ms=3, alpha=0.6,
                    label=f"{label}, paper")
        ax.set_xticks(x, levels)
        ax.set_title(judge, fontsize=8)
        ax.set_ylim(-3, 103)
    axes[0][0].set_ylabel("% of ordered comparisons")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=7,
               bbox_to_anchor=(0.5, -0.02))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


def figure_3(cmp: pd.DataFrame) -> plt.Figure:
    """Figure 3: moderate-tier better-plain win and Tie over L0-L4 and TRACE, one panel per
    paper judge; solid = ours (same in every panel), dashed = that paper judge."""
    return _ladder_panels(cmp, (("better_plain", "better-plain win"), ("tie", "Tie")),
                          "Figure 3: bias-resolution frontier on the moderate tier", "figure_3")


def figure_a1(cmp: pd.DataFrame) -> plt.Figure:
    """Figure A1: soft-tier worse-cited win and Tie over L0-L4, one panel per paper judge."""
    return _ladder_panels(cmp, (("worse_cited", "worse-cited win"), ("tie", "Tie")),
                          "Figure A1: soft-tier prompt ladder", "figure_a1")
