"""REPORT.md of one judge's results (outputs/judges/<judge>/): every table and figure the
notebooks wrote, each with a one-line reading computed from the numbers in its CSV (ours beside
the paper's), never typed in by hand.

The report opens, for each of our judges, with what its position-only controls show: a judge
that answers one slot on identical candidates has position-driven verdicts, and every reading
of its tables says so instead of setting its intervals against the paper's. The floats follow in
the registry's reading order (``tjb_lib.paper.floats``), then the paper's in-text numbers with ours
beside them (the ``claims_<notebook>`` tables).
"""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from tjb_lib.paper import floats, position, sections
from tjb_lib.paper.judge_identity import Identity
from tjb_lib.paper.paper_match import RULE
from tjb_lib.paper.position import caveat


def _num(x: float, digits: int = 1) -> str:
    return "n/a" if x is None or pd.isna(x) else f"{x:.{digits}f}"


def headline(cmp: pd.DataFrame, label: str, where: dict, position_driven: bool = False,
             not_papers: str = "") -> str:
    """'label: ours 12.3 [4.0, 30.1] (n=60, unparsed 0%) vs paper 47.2–85.8 (3 judges)' from the
    frame; a position-driven judge's value is never set against the paper's range, and a
    catalog name served by another model says so beside the paper's judges (``not_papers``)."""
    sub = cmp
    for col, val in where.items():
        if col not in sub.columns:
            return f"{label}: not in this table"
        sub = sub[sub[col] == val]
    if sub.empty:
        return f"{label}: no such cell"
    o = sub.iloc[0]
    paper = sub["paper"].dropna()
    who = "judge" if "paper_judge" in sub.columns else "value"
    ptxt = ("paper " + (_num(paper.iloc[0]) if paper.nunique() == 1 else
                        f"{_num(paper.min())}–{_num(paper.max())}")
            + f" ({len(paper)} {who}{'s' if len(paper) != 1 else ''}"
            + (f"; ours {not_papers}" if not_papers else "") + ")") if len(paper) \
        else "paper n/a"
    status = o.get("status", "ok")
    if "ours" not in sub.columns or pd.isna(o["ours"]):
        why = status if isinstance(status, str) and status != "ok" else "nothing to measure"
        unparsed = o.get("n_unparsed", float("nan"))
        extra = f", {int(unparsed)} unparsed" if pd.notna(unparsed) and unparsed else ""
        return f"{label}: ours {why}{extra}; {ptxt}"
    ci = (f" [{_num(o['ours_low'])}, {_num(o['ours_high'])}]"
          if "ours_low" in sub.columns and pd.notna(o["ours_low"]) else "")
    basis = f"n={int(o['n'])}"
    if "unparsed" in sub.columns and pd.notna(o["unparsed"]):
        basis += f", unparsed {_num(o['unparsed'], 0)}%"
    inside = ""
    if position_driven:
        inside = "; position-driven judge: not a content preference, not set against the paper"
    elif len(paper) and "ours_low" in sub.columns and pd.notna(o["ours_low"]):
        overlap = (o["ours_low"] <= paper.max()) and (o["ours_high"] >= paper.min())
        inside = "; our interval reaches the paper's range" if overlap \
            else "; our interval excludes the paper's range"
    return f"{label}: ours {_num(o['ours'])}{ci} ({basis}) vs {ptxt}{inside}"


def _frontier(t: pd.DataFrame) -> str:
    t = t[t["rule"] == t["rule"].iloc[0]].sort_values("threshold")
    lo, hi = t.iloc[0], t.iloc[-1]
    return (f"{lo['rule']} rule at {lo['level']}, threshold {_num(lo['threshold'], 2)} → "
            f"{_num(hi['threshold'], 2)}: equivalent-pair Tie {_num(lo['equivalent_tie'])} → "
            f"{_num(hi['equivalent_tie'])}%, moderate better-plain "
            f"{_num(lo['moderate_better_plain'])} → {_num(hi['moderate_better_plain'])}%")


def _calibration(t: pd.DataFrame) -> str:
    return "; ".join(f"{r.level} {r.correction}: control first-position win "
                     f"{_num(r.control_first_position)}%, moderate better-plain "
                     f"{_num(r.moderate_better_plain)}%, Tie {_num(r.moderate_tie)}%"
                     for r in t.itertuples())


def _power(t: pd.DataFrame) -> str:
    need = t[t["kind"] == "pairs_needed"].dropna(subset=["pairs_needed"])
    return "pairs needed for 80% power at alpha 0.05: " + ", ".join(
        f"{_num(r.drop_points, 0)}-point drop ({r.scenario}) {int(r.pairs_needed)}"
        for r in need.itertuples())


def _rationale(t: pd.DataFrame) -> str:
    ours = t[t["source"] != "paper"]
    n = int(ours["n_rationales"].fillna(0).sum()) if len(ours) else 0
    return (f"{n} of our verdicts carry a rationale" + ("" if n else
            " (scored verdicts have none); the paper's rates are shown for reference"))


def _contrasts(t: pd.DataFrame) -> str:
    return "; ".join(f"{r.contrast}: {r.direction}" + (
        f", {_num(r.difference)} points [{_num(r.difference_low)}, "
        f"{_num(r.difference_high)}], {r.p} (n={int(r.n)})" if r.n else "")
        for r in t.itertuples())


def _cost(t: pd.DataFrame) -> str:
    t = t[t["protocol"].astype(str).str.startswith("trace_v")]
    return "; ".join(
        f"{r.protocol}: {int(r.calls_per_comparison)} calls per ordered comparison; "
        + (f"{_num(r.token_multiplier)}x the tokens of one call over {int(r.n_completed)} "
           "completed comparisons" if r.n_completed else
           f"no comparison made both calls (stage 1 did not parse in "
           f"{int(r.n_stopped_after_stage_1)} of {int(r.comparisons)}), so no token multiple")
        for r in t.itertuples()) + " (paper: 2 calls, 3.7–4.3x tokens)"


#: readings of the tables of ours, by name
_OURS = {"beyond_tie_frontier": _frontier, "beyond_order_calibration": _calibration,
         "beyond_power": _power, "beyond_table_a20": _rationale, "contrasts_e5": _contrasts,
         "protocol_cost": _cost}


def reading(name: str, table: pd.DataFrame, position_driven: bool = False,
            not_papers: str = "") -> str:
    """The one-line reading of one written table."""
    if {"status", "note"} <= set(table.columns) and (table["status"] == "not run").all():
        return f"not run: {table['note'].iloc[0]}"
    if name in _OURS and len(table):
        return _OURS[name](table)
    f = floats.FLOATS.get(name)
    if name == "table_1" and "pairs" in table.columns:
        return (f"{len(table)} components, {int(table['pairs'].sum()):,} pairs in all "
                f"(the paper's sizes are in column paper_size)")
    if f is not None and f.headlines and {"paper", "ours"} <= set(table.columns):
        return "; ".join(headline(table, label, where, position_driven, not_papers)
                         for label, where in f.headlines)
    numeric = table.select_dtypes("number")
    return f"{len(table)} rows" + (f"; columns {', '.join(numeric.columns[:4])}"
                                   if len(numeric.columns) else "")


def _position_section(tables_dir: Path, judges: set[str]) -> tuple[list[str], set[str]]:
    """Lines on each judge's position-only controls, and the judges that pick a slot."""
    csv = tables_dir / "table_a16.csv"
    a16 = pd.read_csv(csv) if csv.exists() else pd.DataFrame()
    lines, driven = ["## Position-only controls first", ""], set()
    for judge in sorted(judges):
        levels = position.position_levels_from_table(a16, judge) if len(a16) else []
        if position.slot_picking(levels):
            driven.add(judge)
        lines.append(f"- {position.position_reading(judge, levels)}")
    return lines + [""], driven


def _claims_section(tables_dir: Path, rel, driven: set[str]) -> list[str]:
    lines = []
    for nb, section in sections.NOTEBOOKS.items():
        csv = tables_dir / f"claims_{nb}.csv"
        if not csv.exists():
            continue
        t = pd.read_csv(csv)
        if not lines:
            lines = ["", "## The paper's numbers in the text, ours beside them", "",
                     "Each number the paper states in its text (data/paper_reported/"
                     "in_text_claims.csv) with ours where verdicts or splits can give it; the "
                     "status says why not otherwise. " + RULE
                     + "".join(f" {caveat(judge)}" for judge in sorted(driven)), ""]
        lines += [f"### {section} ({nb}; [table]({rel(tables_dir / f'claims_{nb}.md')}))", "",
                  "| claim | quantity | paper | ours | agrees | n | status |",
                  "|---|---|---|---|---|---|---|"]
        for r in t.itertuples():
            ours = _num(r.ours) + (f" [{_num(r.ours_low)}, {_num(r.ours_high)}]"
                                   if pd.notna(r.ours_low) else "") if pd.notna(r.ours) else "—"
            n = "" if pd.isna(r.n) else str(int(r.n))
            agreed = getattr(r, "agrees", "")  # a table written before the column existed
            agreed = agreed if isinstance(agreed, str) else ""
            lines.append(f"| {r.claim_id} | {r.quantity} | {r.paper:g} {r.unit} | {ours} | "
                         f"{agreed} | {n} | {r.status} |")
        lines.append("")
    return lines


def build(folder: Path, judge: Identity | None = None) -> str:
    """The Markdown text of REPORT.md in a judge's results ``folder`` (``tjb_lib.run.results``), from
    its tables/ and figures/: the judge that ran (``judge``: its endpoint and the ids it answered
    as), position controls, paper floats, tables of ours, then the paper's in-text numbers."""
    tables_dir, figures_dir = folder / "tables", folder / "figures"
    rel = lambda p: Path(os.path.relpath(p, folder)).as_posix()  # noqa: E731
    written = {p.stem for p in tables_dir.glob("*.csv")}
    tables = {name: pd.read_csv(tables_dir / f"{name}.csv") for name in sorted(written)}
    judges = {str(j) for t in tables.values() if {"judge", "ours"} <= set(t.columns)
              for j in t["judge"].dropna()}  # our judges (a paper judge is in paper_judge)
    lines = ["# TraceJudgeBench: our numbers beside the paper's", ""]
    if judge is not None:
        lines += [judge.describe(), ""]
    lines += ["Generated by `tjb_lib.paper.report_index` from tables/*.csv beside it; every reading is "
              "computed from the numbers. Rates are over parsed verdicts, with the unparsed share "
              "beside them. Our judge is named in each table's `judge` column.", ""]
    not_papers = judge.not_papers if judge is not None and judge.stand_ins else ""
    position, driven = _position_section(tables_dir, judges)
    lines += position
    for heading, paper in (("## The paper's floats", True), ("## Tables of ours", False)):
        lines += [heading, ""]
        for f in floats.FLOATS.values():
            if f.paper != paper:
                continue
            fig = figures_dir / f"{f.name}.png"
            if f.name not in tables and not fig.exists():
                lines.append(f"- **{f.name}** ({f.section}, {f.title}): not written yet")
                continue
            table = tables.get(f.name, pd.DataFrame())
            links = [f"[table]({rel(tables_dir / f'{f.name}.md')})"] if f.name in tables else []
            if fig.exists():
                links.append(f"[figure]({rel(fig)})")
            is_driven = bool(driven) and f.name != "table_a16" and "judge" in table.columns \
                and set(table["judge"].dropna().astype(str)) <= driven
            said = reading(f.name, table, is_driven, not_papers) if len(table) else "figure only"
            lines.append(f"- **{f.name}** ({f.section}, {f.title}; {', '.join(links)}): {said}"
                         + (f". *{f.caption}*" if f.caption and fig.exists() else ""))
        lines.append("")
    others = sorted(n for n in written - set(floats.FLOATS) if not n.startswith("claims_"))
    if others:
        lines += ["## Other tables", ""]
        for name in others:
            lines.append(f"- **{name}** ([table]({rel(tables_dir / f'{name}.md')})): "
                         f"{reading(name, tables[name])}")
        lines.append("")
    lines += _claims_section(tables_dir, rel, driven)
    if judges:
        lines += ["", f"Judges in these tables: {', '.join(sorted(judges))}."]
    return "\n".join(lines).rstrip("\n") + "\n"


def write(folder: Path, judge: Identity | None = None) -> Path:
    """Write REPORT.md into a judge's results ``folder`` and return its path."""
    out_path = Path(folder) / "REPORT.md"
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(build(Path(folder), judge), encoding="utf-8")
    return out_path
