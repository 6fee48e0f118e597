"""Rationale keyword audit (paper §5.1, Table A20): how often a judge's stated reason mentions
source or citation vocabulary, by judge × split × decision type.

Supporting evidence only, never causal: a citation-win rationale that names the citations shows
the judge noticed the cue; a Tie rationale that names them shows noticing without acting.
The paper does not print its keyword list; ours is :data:`LEXICON`.
"""
from __future__ import annotations

import re
from typing import Iterable, Mapping

import numpy as np
import pandas as pd

LEXICON: dict[str, str] = {
    "cite": r"\bcit(?:e|es|ed|ing)\b",
    "citation": r"\bcitations?\b",
    "source": r"\bsourc(?:e|es|ed|ing)\b",
    "reference": r"\breferenc(?:e|es|ed|ing)\b",
    "evidence": r"\bevidenc(?:e|es|ed)\b",
    "traceable": r"\btraceab(?:le|ility)\b",
    "verifiable": r"\bverifiab(?:le|ility)\b",
    "verified": r"\bverified\b",
    "supported": r"\b(?:un)?supported\b",
    "attribution": r"\battribut(?:ion|ions|ed)\b",
    "marker": r"(?<![\w\]])\[\s*\d{1,3}(?:\s*[,\u2013-]\s*\d{1,3})*\s*\]",
}
"""Source/citation vocabulary scanned in rationales: name -> regex (case-insensitive).

Word-boundary patterns so that "resource" or "sourdough" do not count while "sources", "cited",
"unsupported" do. ``marker`` catches bracketed numeric citation markers such as [1], [2, 3],
[4-6], but not an index like list[0] (a bracket right after a word). Deliberately absent:
"support"/"supporting" alone (graded rationales use them for reasoning chains with no reference
to display) and "verify"/"verification" as verbs of the judge's own checking. Changing the
lexicon changes Table A20; record it with the results.
"""

_PATTERN = re.compile("|".join(f"(?:{p})" for p in LEXICON.values()), re.IGNORECASE)
REASON_KEYS = ("reason", "rationale", "explanation")
DECISION_TYPES = {"cited": "citation win", "tie": "Tie", "plain": "base win"}


def rationale_text(raw_text: str | None) -> str | None:
    """The rationale of one reply: the JSON ``reason`` field when the reply parses as JSON, else
    the raw text. None when there is no text (logit-scored verdicts, failed calls), or when the
    JSON carries no reason field (its bare keys are not a rationale)."""
    if raw_text is None or (isinstance(raw_text, float) and np.isnan(raw_text)):
        return None
    from tjb_lib.parse import json_objects  # the verdict parser's JSON reader, fences included

    raw_text = str(raw_text)
    if not raw_text.strip():
        return None
    objects = json_objects(raw_text)
    if not objects:
        return raw_text
    for obj in objects:
        for k, v in obj.items():
            if k.strip().casefold() in REASON_KEYS and isinstance(v, str) and v.strip():
                return v
    return None


def mentions_source(text: str | None) -> bool:
    """Does the text use any source/citation vocabulary of :data:`LEXICON`?"""
    return bool(text) and _PATTERN.search(text) is not None


def decision_type(decision: str) -> str:
    """Table A20's decision types; unparsed and failed keep their own names, never folded in."""
    return DECISION_TYPES.get(decision, decision)


def flag_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """Verdict rows plus ``decision_type``, ``rationale`` and ``mentions_source`` (NA where
    there is no rationale text)."""
    missing = [c for c in ("raw_text", "decision") if c not in rows.columns]
    if missing:
        raise ValueError(f"verdict rows lack columns {missing}")
    out = rows.copy()
    out["decision_type"] = out["decision"].map(decision_type)
    out["rationale"] = out["raw_text"].map(rationale_text)
    has = out["rationale"].notna()
    out["mentions_source"] = pd.array([pd.NA] * len(out), dtype="boolean")
    out.loc[has, "mentions_source"] = out.loc[has, "rationale"].map(mentions_source).astype(bool)
    return out


def keyword_rates(rows: pd.DataFrame, by: Iterable[str] = ("judge", "split", "decision_type"),
                  level: float = 0.95) -> pd.DataFrame:
    """Keyword rate per group: n (rows with a rationale), k (rows mentioning the lexicon),
    rate and Wilson interval in percent, and ``n_without_rationale`` (rows with no text, which
    are not counted as zero)."""
    from tjb_lib.analysis import stats

    by = list(by)
    flagged = flag_rows(rows)
    unknown = [c for c in by if c not in flagged.columns]
    if unknown:
        raise ValueError(f"cannot group by {unknown}: not a column of the verdict rows")
    has = flagged["mentions_source"].notna()
    g = flagged.assign(_has=has, _k=flagged["mentions_source"].fillna(False).astype(int))
    out = g.groupby(by, dropna=False, sort=True).agg(
        n=("_has", "sum"), k=("_k", "sum"), n_rows=("_has", "size")).reset_index()
    out["n_without_rationale"] = out["n_rows"] - out["n"]
    out = out.drop(columns="n_rows")
    low, high = stats.wilson_many(out["k"], out["n"], level=level)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["rate"] = 100 * out["k"] / out["n"].where(out["n"] > 0)
    out["ci_low"], out["ci_high"] = 100 * low, 100 * high
    return out


# ------------------------------------------------------------ Table A20 beside the paper

def a20_beside_paper(ours: pd.DataFrame, paper: pd.DataFrame,
                     labels: Mapping[str, str]) -> pd.DataFrame:
    """Table A20 as the paper printed it beside ours, one row per judge x split x decision type.

    ``ours`` comes from :func:`keyword_rates` grouped by judge, split and decision_type; rows
    with no rationale text get a note saying so instead of a rate of zero. ``labels`` gives the
    paper's label of each of our splits (``tjb_lib.paper.floats.PAPER_SPLIT_LABELS``).
    """
    for frame, need, where in (
            (ours, ("judge", "split", "decision_type", "n", "k", "rate", "n_without_rationale"),
             "keyword rates"),
            (paper, ("judge", "split", "decision_type", "keyword_rate"), "paper Table A20")):
        missing = [c for c in need if c not in frame.columns]
        if missing:
            raise ValueError(f"{where}: missing column(s) {missing}")
    mine = ours.assign(split=ours["split"].map(labels).fillna(ours["split"]))
    mine = mine.rename(columns={"rate": "keyword_rate", "ci_low": "keyword_rate_low",
                                "ci_high": "keyword_rate_high", "n": "n_rationales",
                                "k": "n_mentioning"})
    mine["source"] = "this run"
    mine["note"] = np.where(mine["n_rationales"] > 0, "",
                            "no rationale text: logit-scored verdicts carry no reason")
    theirs = paper.assign(source="paper", note="")
    cols = ["source", "judge", "split", "decision_type", "keyword_rate", "keyword_rate_low",
            "keyword_rate_high", "n_rationales", "n_mentioning", "n_without_rationale", "note"]
    out = pd.concat([theirs, mine], ignore_index=True)
    for c in cols:
        if c not in out.columns:
            out[c] = np.nan
    return out[cols]
