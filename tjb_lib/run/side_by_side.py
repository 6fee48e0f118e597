"""Our judges side by side, each beside the paper's judges (``reproduce --compare``).

Every judge's results folder (``outputs/judges/<judge>/``, ``tjb_lib.run.results``) holds the same
comparison tables, row for row: the paper's printed cells in the registry's order
(``tjb_lib.paper.compare``), ours beside each. This module lines those rows up across judges and
writes ``outputs/comparison/``: for Figure 2, Figure 3, the moderate frontier (Table A11), TRACE
recovery (Table A12) and the position-only controls (Table A16) one table with a column per
paper judge and a value, interval, n and status per judge of ours; the headline claims (the
in-text numbers of §5.2-§5.5) the same way; Figure 2 with a bar per judge of ours and Figure 3
with a panel per judge, ours and the paper's; and COMPARISON.md, which says first who each judge
is and what its position-only controls show.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from tjb_lib import paths
from tjb_lib.paper import position
from tjb_lib.run import results
from tjb_lib.paper.compare import OUT_COLUMNS
from tjb_lib.paper.figures import LEVEL_ORDER, PAPER_MARKERS, judge_name
from tjb_lib.paper.judge_identity import of_judge
from tjb_lib.paper.report import save_figure, write_table

#: the floats set side by side, with what each shows
FLOATS = {"figure_2": "Figure 2: cited wins under plain (L0) and Tie under strict (L4), per "
                      "equivalence split",
          "figure_3": "Figure 3: the moderate-tier frontier, L0-L4 and TRACE",
          "table_a11": "Table A11: the moderate frontier, better-plain win and Tie over the ladder",
          "table_a12": "Table A12: TRACE recovery on the moderate tier",
          "table_a16": "Table A16: the position-only controls (identical candidates)"}
#: the notebooks whose in-text numbers are the paper's headline claims (§5.2-§5.5)
HEADLINE_CLAIMS = ("03_strict_suppression", "04_resolution_loss", "05_frontier", "06_trace")
#: where the comparison goes
OUT = paths.OUTPUTS / "comparison"
_ROW = ["paper_judge", "metric", "paper"]  # what every judge's copy of a row must share


class ComparisonError(ValueError):
    """A judge named that has no results, or results that do not line up: one line."""


def judges_with_results(root: Path | None = None) -> list[str]:
    """Every judge with a results folder holding tables (``outputs/judges/<judge>/tables/``)."""
    root = Path(root or results.JUDGES)
    return sorted(p.name for p in root.iterdir()
                  if not p.name.startswith(".") and (p / "tables").is_dir()) \
        if root.is_dir() else []


def _read(root: Path, judge: str, name: str) -> pd.DataFrame | None:
    path = root / judge / "tables" / f"{name}.csv"
    return pd.read_csv(path) if path.exists() else None


def _interval(v: float, lo: float, hi: float) -> str:
    if pd.isna(v):
        return ""
    return f"{v:.1f}" + (f" [{lo:.1f}, {hi:.1f}]" if pd.notna(lo) and pd.notna(hi) else "")


def float_side_by_side(name: str, tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One float, every judge: a row per printed cell (its keys, setting and metric), the paper's
    value per paper judge (``paper: <judge>``), then per judge of ours its value, interval, n and
    status. The judges' tables must hold the same paper rows in the same order."""
    judges = list(tables)
    first = tables[judges[0]].reset_index(drop=True)
    for judge in judges[1:]:
        other = tables[judge].reset_index(drop=True)
        if len(other) != len(first) or not other[_ROW].equals(first[_ROW]):
            raise ComparisonError(f"outputs/judges/{judge}/tables/{name}.csv does not hold the "
                                  f"paper's rows of {judges[0]}'s; rerun `reproduce --judge "
                                  f"{judge}` so both come from this version")
    keys = [c for c in first.columns if c not in OUT_COLUMNS]
    base = first[["paper_judge", *keys, "metric", "paper"]].copy()
    settings = pd.DataFrame({j: t["setting"].fillna("").astype(str).to_numpy()
                             for j, t in tables.items()})
    base["setting"] = settings.apply(lambda r: next((s for s in r if s), ""), axis=1).to_numpy()
    cell = [*keys, "setting", "metric"]
    wide = (base.pivot_table(index=cell, columns="paper_judge", values="paper", sort=False,
                             aggfunc="first")
            .rename(columns=lambda j: f"paper: {judge_name(j)}"))
    out = base[cell].drop_duplicates(cell).set_index(cell)
    out = out.join(wide)
    for judge, t in tables.items():
        t = t.reset_index(drop=True).assign(**{c: base[c] for c in cell})
        t = t.drop_duplicates(cell).set_index(cell)
        out[judge] = t["ours"]
        out[f"{judge} low"], out[f"{judge} high"] = t["ours_low"], t["ours_high"]
        out[f"{judge} n"] = t["n"]
        out[f"{judge} status"] = t["status"]
    return out.reset_index()


def claims_side_by_side(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The headline claims (:data:`HEADLINE_CLAIMS`), the paper's number then each judge's."""
    out = None
    for judge, t in tables.items():
        mine = t.set_index("claim_id")
        if out is None:
            out = mine[["section", "quantity", "paper", "unit"]].copy()
        out[judge] = mine["ours"]
        out[f"{judge} low"], out[f"{judge} high"] = mine["ours_low"], mine["ours_high"]
        out[f"{judge} agrees"] = mine["agrees"].fillna("")
        out[f"{judge} status"] = mine["status"]
    return out.reset_index() if out is not None else pd.DataFrame()


def shown(table: pd.DataFrame, judges: Sequence[str]) -> pd.DataFrame:
    """A side-by-side table as a reader reads it: each judge's value with its interval and n in
    one column, its status only where it is not ok."""
    out = table.drop(columns=[c for j in judges for c in
                              (j, f"{j} low", f"{j} high", f"{j} n", f"{j} status",
                               f"{j} agrees") if c in table.columns])
    for j in judges:
        ok = table[f"{j} status"].eq("ok")
        value = [_interval(v, lo, hi) for v, lo, hi in
                 zip(table[j], table[f"{j} low"], table[f"{j} high"])]
        if f"{j} n" in table.columns:
            value = [f"{v} (n={int(n)})" if v and pd.notna(n) else v
                     for v, n in zip(value, table[f"{j} n"])]
        out[j] = [v if k else f"{v} {s}".strip() for v, k, s in
                  zip(value, ok, table[f"{j} status"].fillna(""))]
    return out


# --------------------------------------------------------------------------- figures


def figure_2(table: pd.DataFrame, judges: Sequence[str]) -> plt.Figure:
    """Figure 2 side by side: per equivalence split a bar per judge of ours (95% intervals), the
    paper's judges as black markers; (a) cited wins under L0, (b) Tie under L4."""
    sns.set_theme(style="whitegrid", context="paper")
    splits = list(dict.fromkeys(table["split"]))
    papers = [c for c in table.columns if c.startswith("paper: ")]
    colors = sns.color_palette("deep", len(judges))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4), sharey=True)
    x = np.arange(len(splits))
    width = 0.8 / max(1, len(judges))
    for ax, (metric, title) in zip(axes, (
            ("plain_cited_win", "(a) plain preference (L0): cited wins (%)"),
            ("strict_tie", "(b) strict rubric (L4): Tie (%)"))):
        sub = table[table["metric"] == metric].set_index("split").reindex(splits)
        for k, (judge, c) in enumerate(zip(judges, colors)):
            xs = x - 0.4 + width * (k + 0.5)
            v = sub[judge].to_numpy(dtype=float)
            err = np.vstack([(v - sub[f"{judge} low"]).clip(lower=0).fillna(0),
                             (sub[f"{judge} high"] - v).clip(lower=0).fillna(0)])
            drawn = ~np.isnan(v)
            ax.bar(xs[drawn], v[drawn], width=width * 0.9, color=c, alpha=0.85,
                   yerr=err[:, drawn], capsize=2, label=f"ours: {judge}" if ax is axes[0]
                   else None)
            ax.hlines(np.zeros((drawn & (v == 0)).sum()), xs[drawn & (v == 0)] - width * 0.45,
                      xs[drawn & (v == 0)] + width * 0.45, colors=[c], linewidth=3, zorder=4)
            for xi in xs[~drawn]:
                ax.text(xi, 50, "no parsed verdict", rotation=90, fontsize=6, ha="center",
                        va="center", color=c)
        for j, (col, marker) in enumerate(zip(papers, PAPER_MARKERS)):
            ax.scatter(x + (j - (len(papers) - 1) / 2) * 0.1, sub[col], marker=marker,
                       color="black", s=20, zorder=5,
                       label=col if ax is axes[0] else None)
        ax.set_xticks(x, splits, fontsize=7)
        ax.set_title(title, fontsize=9)
        ax.set_ylim(-2, 105)
    axes[0].set_ylabel("% of parsed ordered comparisons")
    fig.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=7, frameon=False)
    fig.suptitle("Figure 2, judges side by side: citation display under plain vs strict "
                 "judging", fontsize=10)
    fig.tight_layout()
    return fig


def figure_3(table: pd.DataFrame, judges: Sequence[str]) -> plt.Figure:
    """Figure 3 side by side: a panel per judge, ours first (solid, 95% intervals), then the
    paper's (dashed), each with better-plain win and Tie over L0-L4 and TRACE."""
    sns.set_theme(style="whitegrid", context="paper")
    levels = [lv for lv in LEVEL_ORDER if lv in set(table["level"])]
    papers = [c for c in table.columns if c.startswith("paper: ")]
    panels = [(j, True) for j in judges] + [(p, False) for p in papers]
    colors = sns.color_palette("deep", 2)
    fig, axes = plt.subplots(1, len(panels), figsize=(2.4 * len(panels), 3.4), sharey=True,
                             squeeze=False)
    x = np.arange(len(levels))
    for ax, (col, ours) in zip(axes[0], panels):
        for (metric, label), c in zip((("better_plain", "better-plain win"), ("tie", "Tie")),
                                      colors):
            sub = table[table["metric"] == metric].set_index("level").reindex(levels)
            v = sub[col].to_numpy(dtype=float)
            if ours:
                err = np.vstack([(v - sub[f"{col} low"]).clip(lower=0).fillna(0),
                                 (sub[f"{col} high"] - v).clip(lower=0).fillna(0)])
                ax.errorbar(x, v, yerr=err, color=c, marker="o", ms=4, capsize=2, label=label)
                if metric == "tie":  # a level with no value says why, never drawn as 0
                    for xi in x[np.isnan(v)]:
                        ax.text(xi, 50, sub[f"{col} status"].iloc[xi], rotation=90,
                                fontsize=6, ha="center", va="center", color="0.3")
            else:
                ax.plot(x, v, color=c, linestyle="--", marker="D", ms=3, label=label)
        ax.set_title(f"ours: {col}" if ours else col, fontsize=8,
                     fontweight="bold" if ours else "normal")
        ax.set_xticks(x, levels, fontsize=7)
        ax.set_ylim(-3, 103)
    axes[0][0].set_ylabel("% of parsed ordered comparisons")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=7,
               bbox_to_anchor=(0.5, -0.02))
    fig.suptitle("Figure 3, judges side by side: the bias-resolution frontier on the moderate "
                 "tier (ours solid, the paper's dashed)", fontsize=9)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig


# --------------------------------------------------------------------------- writing


def write(judges: Sequence[str] | None = None, root: Path | None = None,
          out: Path | None = None) -> Path:
    """Write the comparison of ``judges`` (default: every judge with results under ``root``,
    outputs/judges/) into ``out`` (outputs/comparison/); returns COMPARISON.md's path."""
    root, out = Path(root or results.JUDGES), Path(out or OUT)
    found = judges_with_results(root)
    judges = list(judges or found)
    missing = [j for j in judges if j not in found]
    if missing:
        raise ComparisonError(f"no results under {root} for {', '.join(missing)}; judges with "
                              f"results: {', '.join(found) or 'none'} (run `reproduce --judge "
                              "NAME` first)")
    if not judges:
        raise ComparisonError(f"no judge has results under {root}")
    rel = lambda p: Path(os.path.relpath(p, out)).as_posix()  # noqa: E731
    lines = ["# Our judges side by side, beside the paper's", "",
             f"Generated by `tjb_lib.run.side_by_side` from the tables of {len(judges)} judge(s) "
             f"under `{rel(root)}/`. Each value of ours is a rate over parsed verdicts with its "
             "95% interval and n, as in each judge's REPORT.md; a status other than ok is "
             "written beside it.", "", "## The judges", ""]
    driven = []
    for judge in judges:
        a16 = _read(root, judge, "table_a16")
        levels = position.position_levels_from_table(a16, judge) if a16 is not None else []
        if position.slot_picking(levels):
            driven.append(judge)
        who = of_judge(judge, root.parent / "metadata").describe()  # outputs/metadata/
        lines += [f"- {who} [REPORT]({rel(root / judge / 'REPORT.md')})",
                  f"  {position.position_reading(judge, levels)}"]
    lines += [""] + [f"*{position.caveat(j)}*" for j in driven] + [""]
    for name, title in FLOATS.items():
        tables = {j: t for j in judges if (t := _read(root, j, name)) is not None}
        if not tables:
            lines += [f"## {title}", "", "No judge has this table yet.", ""]
            continue
        table = float_side_by_side(name, tables)
        write_table(table, name, out / "tables")
        lines += [f"## {title}", "", f"[full table]({rel(out / 'tables' / f'{name}.csv')})", ""]
        if name in ("figure_2", "figure_3"):
            fig = (figure_2 if name == "figure_2" else figure_3)(table, list(tables))
            save_figure(fig, name, out / "figures")
            plt.close(fig)
            lines += [f"![{title}]({rel(out / 'figures' / f'{name}.png')})", ""]
        lines += [shown(table, list(tables)).to_markdown(index=False, disable_numparse=True), ""]
    claims = {}
    for judge in judges:
        frames = [t for nb in HEADLINE_CLAIMS if (t := _read(root, judge, f"claims_{nb}"))
                  is not None]
        if frames:
            claims[judge] = pd.concat(frames, ignore_index=True)
    if claims:
        table = claims_side_by_side(claims)
        write_table(table, "headline_claims", out / "tables")
        lines += ["## The headline claims (§5.2-§5.5)", "",
                  f"[full table]({rel(out / 'tables' / 'headline_claims.csv')})", "",
                  shown(table.drop(columns=[f"{j} agrees" for j in claims]), list(claims))
                  .to_markdown(index=False, disable_numparse=True), ""]
    path = out / "COMPARISON.md"
    path.write_text("\n".join(lines).rstrip("\n") + "\n", encoding="utf-8")
    return path
