"""FinQA figure labels a reader stops at: a label must read as a noun phrase naming what its
figure is, and a step must not set a figure against one named alike.

Blind readers of 5 December stopped at "Arkansas for Residential are 390668 / 438701" (a row
label joined to its column header), "Dividing 100 by Furniture, fixtures and equipment gives
100 / 3" (a constant over a row that names an asset, not its useful life), "Taking tax
credit investments (2.6) from tax credit investments (2.6)" (a thing taken from itself),
"Dividing tax returns in 2008" (a label cut from another part of its sentence), "the change in
The Prudential Insurance Company of America" (a company for its balance), "As a share of total
revised" and a bare "Balance" asked as liabilities for litigation settlements. A
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
OBJECT = "a label cut from what its sentence's figure is not"
COMPANY = "a company's name used as a figure's label"
UNTIED = "a row the evidence never ties to what the question asks"
PREPOSITION = "a label that opens on a preposition"
NO_NOUN = "a label with no noun"
#: every reason ``label_problem`` gives, in the order it checks them
REASONS = (SAME_LABEL, FOR_COLUMN, GARBLED, REPEATED, PREPOSITION, NO_NOUN, CONSTANT_OVER_LABEL,
           OBJECT, COMPANY, UNTIED)

# "Balance as of December 31, 2008", "Ending balance": a row that says what it is only
# under the table's title, which the gold lines do not carry
_BALANCE = re.compile(r"^(?:(?:beginning|ending|opening|closing|total) )?balances?\b", re.I)
_ASKED_WORDS = re.compile(r"\b(?!(?:what|were|that|this|from|with|during|between|balance|"
                          r"ending|change|percent\w*|total|year|fiscal|period|amount|"
                          r"millions?|thousands?|december|would|have|been|what's|there|"
                          r"which|does|much|many|based|given|considering|assuming)\b)"
                          r"[a-z]{4,}\b")
_GENERIC = {"balance", "balances", "beginning", "ending", "end", "total", "year", "fiscal", "the",
            "and", "for", "net", "dec"}
_MARKET = re.compile(r"\b(?:index|stock|returns?|roi|performance|outperform\w*|invest\w*)\b",
                     re.I)

# "taken on our tax returns", "a fair value of approximately": a name that is the object
# of a preposition, or that a word other than its figure completes, not what the figure is
_OBJECT = (r"(?:\b(?:on|in|to|from|with|by|for|under) (?:our|the|its|their) {name}\b"
           r"|\b{name} of (?!(?:approximately |about )?\$? ?-?\d))")
_CUT = re.compile(r"\b(?:in the amount|with a (?:fair )?value)$")    # "cash in the amount"
# "The Prudential Insurance Company of America": a company, where the question asks its balance
_COMPANY = re.compile(r"^(?:The )?[A-Z][\w&.,' ]*\b(?:Company|Corporation|Inc|Ltd|plc)\b")
_MARKET_Q = re.compile(r"\b(?:index|stock|shares?|returns?|performance|cumulative|invest\w*)\b",
                       re.I)

# "Arkansas for Residential", "Warehouses for Approximate Size in square feet": a column
# header in title case after "for"; "the percentage for LKQ Corporation" names a result.
_FOR_COLUMN = re.compile(r"(?<!percentage)(?<!return)(?<!ratio)(?<!growth) for "
                         r"(?!(?:the|a|an|each|every)\b|(?:January|February|March|April|May|"
                         r"June|July|August|September|October|November|December) \d)"
                         r"[A-Z][\w&/.'-]*")                   # "for December 31 2011": a date
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
    if re.match(r"(?:the )?(?:for|of|in|at|to) ", label, re.I):    # "the for the fiscal year
        return PREPOSITION                                          # ended ... of deferral"
    if re.search(r"\b(?:revised|adjusted|reported|restated|preliminary|final)$", label, re.I):
        return NO_NOUN                                              # "total revised"
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
        for o in (a, b):
            f = o.figure
            if f is not None and f.quote is not None and f.name and (
                    _CUT.search(f.name) or re.search(_OBJECT.format(name=re.escape(f.name.lower())),
                                                     item.gold_inds[f.line][1])):
                return OBJECT
            if f is not None and _COMPANY.match(_label(o)) and not _MARKET_Q.search(item.question) \
                    and not any(g.number == 100 for g in figs):        # no index on a base of 100
                return COMPANY
    return UNTIED if untied_balance(item) else None


def untied_balance(item: FinQAItem) -> bool:
    """No gold line says any word the question names its figures by, where every figure the
    program reads is a bare balance ("Balance as of December 31, 2008" asked as "liabilities
    for litigation settlements") or the question names them by three words or more ("home
    equity unresolved asserted indemnification and repurchase claims" answered from "Private
    investors"): a reader cannot tell the rows answer it. An index on a base of 100 is
    named by its series, not by what the question says of its return."""
    figs = figures(item.gold_inds, item.table)
    read = [o.figure for i in range(len(item.steps)) for o in operands(i, item.steps, figs)
            if o.figure is not None]
    asked = _ASKED_WORDS.findall(_MARKET.sub(" ", item.question.lower()))
    shown = " ".join(t for _, t in item.gold_inds).lower()
    labels = {w for f in read for w in re.findall(r"[a-z]{3,}", (f.measure or f.name or "").lower())
              if w not in _GENERIC | _MONTHS}
    if not read or any(w[:5] in shown for w in asked) \
            or any(re.search(rf"\b{w}\b", item.question.lower()) for w in labels):
        return False                                     # "AAA/Aaa" asked by its own name
    if all(_BALANCE.match(f.measure or f.name or "") for f in read):
        return True
    return len(asked) >= 3 and not _MARKET.search(item.question) \
        and not any(f.number == 100 for f in figs)


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
