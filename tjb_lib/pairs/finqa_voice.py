"""How a FinQA candidate words its reasoning: one sentence per program step, saying what its
numbers are.

Each step states its equation ("5829 - 5735 = 94") together with what the operands are, in
words taken from the gold lines: a table cell's row and column ("net revenue for 2015"), the
clause a figure sits in ("“$581 million pretax”"), or the earlier result it reuses ("the
change in net revenue (94)"). An earlier result is named, never pointed back to ("that",
"then"), so a candidate that leaves a step out shows its result underived rather than dangling.
Every step draws one number in a fixed order, whatever is later left out or changed, and the
phrasing is picked from a pool by that number, so the two sides of a pair word their shared
steps alike.
"""
from __future__ import annotations

import collections
import random
import re
from dataclasses import dataclass

from tjb_lib.data import FinQAStep
from tjb_lib.pairs.filing import Figure, is_period, locate, mid, when
from tjb_lib.pairs.filing_prose import name_case

# Within a pool, phrasings open and link with different words, and at most one opens on {x}
# (an earlier result, "the difference (94)", when a step is left out), so that no wording of
# a step only one side shows reaches many pairs.
# A change of one measure between two periods: {m} measure, {a}/{pa} and {b}/{pb} the figures
# and their periods.
CHANGE = (
    "{m} went from {b} {pb} to {a} {pa}: {eq}.",
    "{m} came to {a} {pa} and {b} {pb}, so {eq}.",
    "{m} moved by {eq} between {bare_b} and {bare_a}.",
    "{m} stood at {a} {pa} against {b} {pb}; {eq}.",
    "From {b} {pb}, {m} reached {a} {pa}, a change of {eq}.",
)
SUBTRACT = (
    "{x} less {y} is {eq}.",
    "Taking {y} from {x} leaves {eq}.",
    "What separates {x} from {y} amounts to {eq}.",
    "Subtracting {y} from {x} yields {eq}.",
    "Net of {y}, {x} comes to {eq}.",
)
# One measure over two periods, added.
COMBINED = (
    "{m} {pa} and {bare_b} comes to {eq}.",
    "Adding {m} {pa} and {bare_b} gives {eq}.",
    "Together, {m} {pa} and {bare_b} is {eq}.",
    "{m} sums to {eq} over {bare_a} and {bare_b}.",
)
ADD = (
    "{x} plus {y} makes {eq}.",
    "Adding {x} and {y} gives {eq}.",
    "Together, {x} and {y} come to {eq}.",
    "Summing {x} and {y} yields {eq}.",
    "With {y} added, {x} reaches {eq}.",
)
DIVIDE = (
    "{x} as a share of {y} is {eq}.",
    "Dividing {x} by {y} gives {eq}.",
    "Set against {y}, {x} works out to {eq}.",
    "Relative to {y}, {x} amounts to {eq}.",
    "As a proportion of {y}, {x} comes to {eq}.",
    "Measured against {y}, {x} yields {eq}.",
    "Compared with {y}, {x} represents {eq}.",
    "Taken as a fraction of {y}, {x} makes {eq}.",
)
# Division by a small count: an average.
AVERAGE = (
    "Averaged over {n}, {x} gives {eq}.",
    "Spread evenly over {n}, {x} is {eq}.",
    "Taking the mean over {n}, {x} comes to {eq}.",
    "Dividing {x} by {n} for the average yields {eq}.",
    "On average across {n}, {x} makes {eq}.",
)
# Division by 100 that prints a percentage.
PERCENT = (
    "As a percentage, {x} comes to {eq}.",
    "In percent, {x} is {eq}.",
    "Put as a percentage, {x} makes {eq}.",
    "Expressed per hundred, {x} gives {eq}.",
    "Turned into a percentage, {x} yields {eq}.",
)
# A change of unit: division or multiplication by 100, 1,000 or 1,000,000.
SCALE_DOWN = (
    "Scaled down by {n}, {x} is {eq}.",
    "Converting {x} by dividing by {n} gives {eq}.",
    "Changing the unit, {x} becomes {eq}.",
    "In the larger unit, {x} comes to {eq}.",
)
SCALE_UP = (
    "Scaled up by {n}, {x} is {eq}.",
    "Converting {x} by multiplying by {n} gives {eq}.",
    "Changing the unit, {x} becomes {eq}.",
    "In the smaller unit, {x} comes to {eq}.",
)
MULTIPLY = (
    "{x} times {y} is {eq}.",
    "Multiplying {x} by {y} gives {eq}.",
    "Applying {y} to {x} yields {eq}.",
    "Scaling {x} by {y} comes to {eq}.",
)
POWER = (
    "{x} raised to the power {y} is {eq}.",
    "Raising {x} to the power {y} gives {eq}.",
    "Compounding {x} over {y} yields {eq}.",
    "To the power of {y}, {x} comes to {eq}.",
)
# A comparison: parallel pools for yes and no, so a flipped outcome keeps its phrasing.
LARGER = (
    "{x} is larger than {y}: {eq}, so yes.",
    "{x} exceeds {y} ({eq}), so yes.",
    "Since {eq}, {x} is the larger figure, so yes.",
    "Comparing {x} with {y} gives {eq}, so yes.",
)
NOT_LARGER = (
    "{x} is not larger than {y}: {eq}, so no.",
    "{x} does not exceed {y} ({eq}), so no.",
    "Since {eq}, {x} is not the larger figure, so no.",
    "Comparing {x} with {y} gives {eq}, so no.",
)
# A step whose operands the gold lines do not name: its equation, in a few words.
BARE = (
    "Working it out, {eq}.",
    "In figures, {eq}.",
    "Numerically, {eq}.",
    "Step by step, {eq}.",
)
SCALES = {"100", "1000", "1000000"}
_ARITH = {"add": "+", "minus": "-", "subtract": "-", "multiply": "×", "divide": "/", "exp": "^"}
_COMPARE = ("greater", "compare_larger")


def op_name(step: FinQAStep) -> str:
    m = re.match(r"([a-z_]+?)(?:\d+-\d+)?$", step.op)
    return m.group(1) if m else step.op


def arg_text(arg: str, steps: tuple[FinQAStep, ...]) -> str:
    """An operand as the equation prints it: an earlier step's result, a constant, a number."""
    if re.fullmatch(r"#\d+", arg):
        return steps[int(arg[1:])].res
    if arg.startswith("const_"):
        return arg[len("const_"):].replace("m", "-")
    return arg


def equation(i: int, steps: tuple[FinQAStep, ...]) -> str:
    """Step i as an equation: "5829 - 5735 = 94", or "178.93 > 105.34" for a comparison."""
    st = steps[i]
    a, b = (arg_text(x, steps) for x in (st.arg1, st.arg2))
    b = f"({b})" if b.startswith("-") else b             # "438 - (-291)", not "438 - -291"
    op = op_name(st)
    if op in _COMPARE:
        return f"{a} > {b}" if st.res.strip().lower() == "yes" else f"{a} ≤ {b}"
    sign = _ARITH.get(op)
    text = f"{a} {sign} {b} = {st.res}" if sign else f"{st.op}({a}, {b}) = {st.res}"
    return " ".join(text.split())


@dataclass(frozen=True)
class Operand:
    text: str                    # as the equation prints it
    figure: Figure | None = None
    step: int | None = None      # the earlier step whose result it is
    const: bool = False


def operands(i: int, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> tuple[Operand, Operand]:
    """Step i's two operands, each located in the gold lines where it comes from them (the
    second is looked for next to the first, so "100" is the base of the same table row)."""
    out: list[Operand] = []
    first: Figure | None = None
    for arg in (steps[i].arg1, steps[i].arg2):
        text = arg_text(arg, steps)
        if re.fullmatch(r"#\d+", arg):
            out.append(Operand(text, step=int(arg[1:])))
            first = first or origin(int(arg[1:]), steps, figs)
        elif arg.startswith("const_") and (text in SCALES or locate(text, figs) is None):
            out.append(Operand(text, const=True))
        else:
            fig = locate(arg, figs, first)
            first = first or fig
            out.append(Operand(text, figure=fig))
    a, b = out
    if a.figure is not None and b.figure is not None:  # the first, read again next to the second
        a = Operand(a.text, figure=locate(a.text, figs, b.figure))
    if a.figure is not None and a.figure == b.figure:     # "2.6 - 2.6": two figures, not one
        other = [f for f in figs if f != a.figure and f.printed == a.figure.printed]
        if other:
            b = Operand(b.text, figure=other[0])
    return a, b


def origin(k: int, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> Figure | None:
    """The first gold-line figure step k's result is computed from."""
    for o in operands(k, steps, figs):
        found = o.figure or (origin(o.step, steps, figs) if o.step is not None else None)
        if found is not None:
            return found
    return None


def topic(k: int, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> str | None:
    """The one measure step k's result is about, if the table figures it is computed from
    (directly or through earlier results) share one; constants do not count."""
    measures = []
    for o in operands(k, steps, figs):
        if o.figure is not None:
            measures.append(what(o.figure)[0])
        elif o.step is not None:
            measures.append(topic(o.step, steps, figs))
    return measures[0] if measures and len(set(measures)) == 1 else None


def what(fig: Figure) -> tuple[str | None, str | None]:
    """(measure, period) of a figure: a table cell's headers, a sentence figure's name and
    year."""
    if fig.quote is not None:
        return (name_case(fig.name) if fig.name else None), (str(fig.year) if fig.year else None)
    if fig.period and fig.measure and not is_period(fig.measure):
        return mid(fig.measure), fig.period
    return None, None


def _change(a: Operand, b: Operand) -> bool:
    """Two figures of one measure in different periods (a change or a combination over time)."""
    if a.figure is None or b.figure is None:
        return False
    (ma, pa), (mb, pb) = what(a.figure), what(b.figure)
    return bool(ma) and ma == mb and bool(pa) and bool(pb) and pa != pb


def noun(k: int, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> str:
    """What step k's result is, as a noun phrase that does not point back to the step ("the
    change in net revenue", "the percentage for lkq corporation")."""
    about = topic(k, steps, figs)
    op = op_name(steps[k])
    pool = _pool(k, steps, *operands(k, steps, figs))
    if op in ("minus", "subtract"):
        return f"the change in {about}" if about else "the difference"
    if op == "add":
        return f"the combined {about}" if about else "the total"
    if pool in (SCALE_UP, SCALE_DOWN):
        return f"the rescaled {about}" if about else "the rescaled figure"
    if pool is AVERAGE:
        base = "the average"
    elif op == "divide" or pool is PERCENT:
        base = "the percentage" if steps[k].res.strip().endswith("%") else "the ratio"
    elif op == "multiply":
        base = "the product"
    else:
        base = "the result"
    return f"{base} for {about}" if about else base


def period_clash(steps: tuple[FinQAStep, ...], figs: list[Figure]) -> bool:
    """Does a step set figures of two different measures against each other from different
    periods (a 2014 share computed against the 2018 row, 2010 compared with 2009)?"""
    for i in range(len(steps)):
        a, b = operands(i, steps, figs)
        if a.figure is None or b.figure is None or _change(a, b):
            continue
        (ma, pa), (mb, pb) = what(a.figure), what(b.figure)
        if ma and mb and ma != mb and pa and pb and pa != pb:
            return True
    return False


def unnamed(steps: tuple[FinQAStep, ...], figs: list[Figure]) -> bool:
    """Does a step read a figure its gold line gives no name (a number found in no gold line,
    other than a small count the question states, or one whose line does not say what it is)?"""
    for i in range(len(steps)):
        a, b = operands(i, steps, figs)
        for o in (a, b):
            if o.step is not None:
                continue
            count = (op_name(steps[i]) == "divide" and o is b and not steps[i].res.endswith("%")
                     and re.fullmatch(r"\d{1,2}", o.text))
            if o.const and not (count or o.text in SCALES or o.text in ("1", "-1")):
                return True                         # a figure from the question, not the lines
            if o.const:
                continue
            if o.figure is None and not count:
                return True
            if o.figure is not None and o.figure.label() is None:
                return True
    read = [(k, o.figure) for k in range(len(steps)) for o in operands(k, steps, figs)
            if o.figure is not None]
    labels = collections.defaultdict(set)
    for k, f in read:
        labels[f.label()].add((f.line, f.printed, f.row, f.col, f.number))
    if any(len(found) > 1 for found in labels.values()):
        return True                 # two figures the reader cannot tell apart by their names
    for i in range(len(steps)):                    # a step with nothing named: bare arithmetic
        a, b = operands(i, steps, figs)
        if op_name(steps[i]) not in _COMPARE and a.figure is None and a.step is None \
                and b.figure is None and b.step is None:
            return True
    adds = [f for k, f in read if op_name(steps[k]) == "add"]
    return len(adds) != len(set(adds))      # one figure summed twice: the program misreads a row


def _phrase(o: Operand, steps: tuple[FinQAStep, ...], figs: list[Figure],
            omitted: frozenset[int] = frozenset()) -> str:
    if o.step is not None and o.step in omitted:
        return derived(o.step, steps, figs, omitted, o.text)
    if o.step is not None:
        return f"{noun(o.step, steps, figs)} ({o.text})"
    label = o.figure.label() if o.figure is not None else None
    if label and o.figure.quote is not None:
        label = name_case(label)                      # "specific reserves in the ALLL"
    return label or o.text


def _pool(i: int, steps: tuple[FinQAStep, ...], a: Operand, b: Operand) -> tuple[str, ...]:
    op = op_name(steps[i])
    if op in _COMPARE:
        return LARGER if steps[i].res.strip().lower() == "yes" else NOT_LARGER
    if op in ("minus", "subtract"):
        return CHANGE if _change(a, b) else SUBTRACT
    if op == "add":
        return COMBINED if _change(a, b) else ADD
    if op == "divide" and b.const:
        if b.text == "100" and steps[i].res.strip().endswith("%"):
            return PERCENT
        if b.text in SCALES:
            return SCALE_DOWN
        return AVERAGE
    if op == "divide" and b.figure is None and b.step is None and re.fullmatch(r"\d{1,2}", b.text):
        return AVERAGE                                  # a count read from the question
    if op == "divide":
        return DIVIDE
    if op == "multiply" and b.const and b.text == "100" and steps[i].res.strip().endswith("%"):
        return PERCENT
    if op == "multiply" and b.const and b.text in SCALES:
        return SCALE_UP
    if op == "multiply":
        return MULTIPLY
    return POWER


def derived(k: int, steps: tuple[FinQAStep, ...], figs: list[Figure],
            omitted: frozenset[int], shown: str) -> str:
    """What a left-out step k's result is, with what it is computed from but not how ("the
    change in net revenue from 2014 to 2015", "the ratio of a to b"): a later step that reads
    it shows a skipped step, not a miscalculation."""
    a, b = operands(k, steps, figs)
    op = op_name(steps[k])
    if _change(a, b) and op in ("minus", "subtract", "add"):
        (m, pa), (_, pb) = what(a.figure), what(b.figure)
        pa, pb = (when(p).split(" ", 1)[1] for p in (pa, pb))    # "year ended ...", not "Year"
        return (f"the change in {m} from {pb} to {pa} ({shown})" if op != "add"
                else f"the combined {m} for {pb} and {pa} ({shown})")
    x, y = (_phrase(o, steps, figs, omitted) for o in (a, b))
    return {"minus": f"the difference ({shown}) between {x} and {y}",
            "subtract": f"the difference ({shown}) between {x} and {y}",
            "add": f"the sum ({shown}) of {x} and {y}", "divide": f"the ratio ({shown}) of {x} to {y}",
            "multiply": f"the product ({shown}) of {x} and {y}"}.get(op, f"{noun(k, steps, figs)} "
                                                                  f"({shown})")


def step_sentence(i: int, steps: tuple[FinQAStep, ...], figs: list[Figure], draw: float,
                  omitted: frozenset[int] = frozenset()) -> str:
    """Step i in words and as an equation; ``draw`` (in [0, 1)) picks the phrasing; a result
    of a step in ``omitted`` is named by what it is computed from (``derived``)."""
    a, b = operands(i, steps, figs)
    if op_name(steps[i]) == "multiply" and a.const and not b.const:
        a, b = b, a                                   # "scaled up by 100", not "100 times x"
    pool = _pool(i, steps, a, b)
    x, y = _phrase(a, steps, figs, omitted), _phrase(b, steps, figs, omitted)
    if x == a.text and y == b.text and pool not in (LARGER, NOT_LARGER):
        pool = BARE                                   # nothing to name: the equation alone
    if (a.step is not None and b.step is not None          # "the ratio" twice
            and noun(a.step, steps, figs) == noun(b.step, steps, figs)):
        x = derived(a.step, steps, figs, frozenset({a.step}), a.text)
        y = derived(b.step, steps, figs, frozenset({b.step}), b.text)
    if x == y and a.figure is not None:               # two figures the lines label alike
        x, y = f"{x} ({a.text})", f"{y} ({b.text})"
    names = {"x": x, "y": y, "n": b.text,
             "a": a.text, "b": b.text, "eq": equation(i, steps)}
    if pool in (CHANGE, COMBINED) and a.figure and b.figure:
        (m, pa), (_, pb) = what(a.figure), what(b.figure)
        names.update(m=m or "", pa=when(pa or ""), pb=when(pb or ""), bare_a=pa or "",
                     bare_b=pb or "")
    first = int(draw * len(pool))
    for k in range(len(pool)):          # a sentence opens on a word, never on a figure or on
        text = pool[(first + k) % len(pool)].format(**names)    # "the total (37)"
        if (text[0].isalpha() or text[0] in "“(") and not text.startswith("the "):
            break
    return text[0].upper() + text[1:]


def step_sentences(steps: tuple[FinQAStep, ...], figs: list[Figure], r: random.Random,
                   omitted: frozenset[int] = frozenset()) -> tuple[str, ...]:
    """One sentence per step not in ``omitted``, each phrasing drawn in step order (one draw
    per step, the left-out ones too)."""
    draws = [r.random() for _ in steps]
    return tuple(step_sentence(i, steps, figs, u, omitted) for i, u in enumerate(draws)
                 if i not in omitted)
