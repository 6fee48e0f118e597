"""FinQA figure labels a reader stops at: a label must read as a noun phrase naming what its
figure is, and a step must not set a figure against one named alike.

Blind readers of 5 December stopped at "Arkansas for Residential are 390668 / 438701" (a row
label joined to its column header), "Dividing 100 by Furniture, fixtures and equipment gives
100 / 3" (a constant over a row that names an asset, not its useful life) and "Taking tax
credit investments (2.6) from tax credit investments (2.6)" (a thing taken from itself). A
record whose labels cannot be made readable is rejected by ``finqa_check`` under the reason
``label_problem`` gives; ``text_problems`` finds the same defects in a candidate's reasoning
for the audit (budget 0).
"""
from __future__ import annotations

import re

from tjb_lib.data import FinQAItem
from tjb_lib.pairs.filing import figures
from tjb_lib.pairs.finqa_voice import _label, op_name, operands

FOR_COLUMN = "a row label joined to its column header by 'for'"
GARBLED = "a header run together or cut off"
REPEATED = "a label that repeats its own word"
SAME_LABEL = "a step that sets a figure against one named alike"
CONSTANT_OVER_LABEL = "a constant divided by a figure its label does not name"
#: every reason ``label_problem`` gives, in the order it checks them
REASONS = (SAME_LABEL, FOR_COLUMN, GARBLED, REPEATED, CONSTANT_OVER_LABEL)

# "Arkansas for Residential", "Warehouses for Approximate Size in square feet": a column
# header in title case after "for"; "the percentage for LKQ Corporation" names a result.
_FOR_COLUMN = re.compile(r"(?<!percentage)(?<!return)(?<!ratio)(?<!growth) for "
                         r"(?!(?:the|a|an|each|every)\b)[A-Z][\w&/.'-]*")
# "Amountper Share", "December 312011", "After-Tax Gain/": words run together or a header cut
_GARBLED = re.compile(r"\b[A-Z][a-z]+per\b|\b(?:January|February|March|April|May|June|July|"
                      r"August|September|October|November|December) \d{5,}\b|(?<=[A-Za-z])/(?= |$)")
_MONTHS = {"january", "february", "march", "april", "june", "july", "august", "september",
           "october", "november", "december", "through"}
# a step text that takes a thing from itself or sets it against itself
_SELF = re.compile(r"\b(?:Taking|Subtracting) (?P<x>[^,;:()]{3,80}?)(?: \([^)]*\))? from "
                   r"(?P=x)\b|(?:^|\. )(?P<y>[A-Z][^,;:()]{3,80}?)(?: \([^)]*\))? less "
                   r"(?P=y)(?: \(|\b)", re.I)


def label_issue(label: str) -> str | None:
    """Why a figure's label does not read as a noun phrase naming it (None: it does)."""
    if _FOR_COLUMN.search(label):
        return FOR_COLUMN
    if _GARBLED.search(label):
        return GARBLED
    words = [w for w in label.lower().split() if len(w) > 3 and w not in _MONTHS]
    if len(words) != len(set(words)):
        return REPEATED
    return None


def label_problem(item: FinQAItem) -> str | None:
    """The first label rule a record's program breaks (None: every figure it reads is named
    by a readable label)."""
    figs = figures(item.gold_inds, item.table)
    for i, st in enumerate(item.steps):
        a, b = operands(i, item.steps, figs)
        labels = [_label(o) for o in (a, b) if o.figure is not None]
        if len(labels) == 2 and labels[0].lower() == labels[1].lower():
            return SAME_LABEL
        for label in labels:
            why = label_issue(label)
            if why:
                return why
        if op_name(st) == "divide" and a.const and b.figure is not None:
            return CONSTANT_OVER_LABEL
    return None


def reasoning_problem(reasoning: str) -> str | None:
    """The label reason for a record whose own reasoning takes a thing from itself ("Taking
    the growth in balance (69.3%) from the growth in balance ..."), where its labels differ
    only in what the sentence leaves out."""
    return SAME_LABEL if _SELF.search(reasoning) else None


def text_problems(reasoning: str) -> list[str]:
    """Label defects in a candidate's reasoning, as the audit counts them: a thing taken from
    itself, a row label joined to its column header, a header run together."""
    found = [m.group(0) for m in _SELF.finditer(reasoning)]
    found += [m.group(0).strip() for m in _FOR_COLUMN.finditer(reasoning)]
    found += [m.group(0) for m in _GARBLED.finditer(reasoning)]
    found += [m.group(0) for m in re.finditer(r"\bDividing 100 by [A-Z]|As a share of [A-Z][^,]*, "
                                              r"100 is\b", reasoning)]
    return found
