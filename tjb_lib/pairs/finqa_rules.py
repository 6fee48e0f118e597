"""Audit rules for FinQA candidates that a reader would stop at, each with a budget of 0.

A figure named by a quoted fragment of a clause (“company acquired $8.5 million of ...”),
operands given as label soup ("arkansas, total customers, arkansas, residential"), filing
text left lowercased ("as of december 31, 2015 ..."), a table row left in FinQA's
linearisation ("the net revenue of 2015 is $ 5829 ;"), and a record whose question and program
disagree on the year (or that the sanity filter rejects for any other reason) used anyway.
"""
from __future__ import annotations

import functools
import re

from tjb_lib.pairs.coherence import parts
from tjb_lib.data import FinQAItem, load_finqa
from tjb_lib.pairs.candidates import finqa_check
from tjb_lib.records import Pair
from tjb_lib.text import MONTHS

_QUOTED = re.compile(r"[“\"][^”\"]{3,}[”\"]")
_FRAGMENT = r"[A-Za-z][\w/&'’.-]*(?: [\w/&'’.-]+){0,3}"
_SOUP = re.compile(rf"(?:^|[\s(])(?:{_FRAGMENT}, ){{3,}}{_FRAGMENT}(?= (?:represents|is|are|comes|"
                   rf"come|gives|makes|yields|amounts|works|reaches|less|plus|times|as|by|from|"
                   rf"and|to)\b)")
_REPEATED = re.compile(r"\b([a-z][a-z ]{3,40}), [^,.;]{1,60}, \1\b", re.I)
_LOWER_MONTH = re.compile(r"\b(?:%s) \d" % MONTHS.lower())
_LINEARISED = re.compile(r"\bis \$?\s?-?[\d,.]+\s?(?:\(\s?[\d,.]+\s?\)\s?)?;|\s;\s*$")


def quoted_subspans(reasoning: str) -> list[str]:
    """Figures named by a quoted fragment instead of by what they are."""
    return _QUOTED.findall(reasoning)


def label_soup(reasoning: str) -> list[str]:
    """Operands given as a comma list of bare labels, or a label list that repeats itself."""
    return [m.group(0).strip() for m in (*_SOUP.finditer(reasoning), *_REPEATED.finditer(reasoning))]


def lowercased(line: str) -> bool:
    """A line of filing text left as FinQA lowercased it."""
    return (line[:1].islower() or bool(_LOWER_MONTH.search(line))
            or bool(re.search(r"(?:^|\s)u\.s\.", line)))


def linearised(line: str) -> bool:
    """A table row left in FinQA's linearisation ("the net revenue of 2015 is $ 5829 ;")."""
    return bool(_LINEARISED.search(line))


@functools.lru_cache(maxsize=1)
def _items() -> dict[str, FinQAItem]:
    return {i.id: i for i in load_finqa()}


def pair_problems(p: Pair) -> list[str]:
    """Every rule a FinQA pair breaks, as "rule: example" lines (empty for other pairs)."""
    if p.source != "finqa":
        return []
    out = []
    item = _items().get(p.source_id)
    why = finqa_check(item) if item is not None else "no such FinQA record"
    if why:
        out.append(f"unusable record: {why}")
    for side in ("plain", "cited"):
        part = parts(p, side)
        for q in quoted_subspans(part["reasoning"]):
            out.append(f"quoted sub-span ({side}): {q}")
        for soup in label_soup(part["reasoning"]):
            out.append(f"label soup ({side}): {soup}")
        for line in part["evidence"]:
            if linearised(line):
                out.append(f"linearised table row ({side}): {line}")
            elif lowercased(line):
                out.append(f"lowercased filing text ({side}): {line}")
    return out


def breaches(pairs: list[Pair]) -> list[str]:
    """The audit's breach lines for a split: pairs that break a FinQA rule (budget 0)."""
    bad = [(p, pair_problems(p)) for p in pairs]
    bad = [(p, why) for p, why in bad if why]
    if not bad:
        return []
    p, why = bad[0]
    return [f"{len(bad)} FinQA pairs break a reading rule (budget 0), e.g. {p.pair_id}: {why[0]}"]
