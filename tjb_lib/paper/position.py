"""The position-only controls: identical candidates in both slots, where the right verdict is
Tie. A judge that answers one slot there has verdicts that are position-driven everywhere; every
notebook and REPORT.md says so first."""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from tjb_lib.analysis import metrics
from tjb_lib.pairs.registry import with_role
from tjb_lib.protocols.specs import setting_name

#: the split of the controls (the registry's ``position_controls``)
POSITION_SPLIT = with_role("position_controls")
#: the runs of the controls, made in every notebook that reads verdicts
POSITION_RUNS = ((POSITION_SPLIT, "L0"), (POSITION_SPLIT, "L4"))
#: a judge picks a slot when one slot wins on identical candidates with the whole 95% Wilson
#: interval above this share of its parsed verdicts: its other verdicts are then position too
SLOT_PICKING = 50.0


def position_levels(rows: pd.DataFrame, judge: str) -> list[dict]:
    """Per setting of the position-only controls: first/second-slot win rates, their Wilson
    lower bounds and n (parsed verdicts), from verdict rows."""
    sub = rows.loc[(rows["judge"] == judge) & (rows["split"] == POSITION_SPLIT)] \
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


def caveat(judge: str, what: str = "table") -> str:
    """What every table (or figure) of a position-driven judge says beside it (notebooks,
    Markdown, REPORT.md)."""
    return (f"{judge}'s verdicts are position-driven (on the position-only controls, identical "
            f"candidates where the right verdict is Tie, it answers one slot): read this {what} "
            "as that artefact, not as content preferences; whether it agrees with the paper "
            "says nothing about the paper's effects.")


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


#: the column every table with an ``agrees`` column carries, so agreement is read with it
DRIVEN_COLUMN = "judge_position_driven"


def driven_mark(levels: Sequence[dict]) -> str:
    """The value of :data:`DRIVEN_COLUMN`: whether the judge's position-only controls show it
    answering one slot (``yes: first slot``; then an ``agrees = yes`` is a coincidence of that
    slot, not agreement), ``no``, or ``not known`` (no parsed control verdict)."""
    if not any(lv["n"] for lv in levels):
        return "not known"
    slot = slot_picking(levels)
    return f"yes: {slot} slot" if slot else "no"
