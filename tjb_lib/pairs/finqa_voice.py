"""How a FinQA candidate words its reasoning: one sentence per program step, saying what its
numbers are.

Each step states its equation ("5829 - 5735 = 94") together with what the operands are, in
words taken from the gold lines: a table cell's row and column ("net revenue for 2015"), the
clause a figure sits in ("“$581 million pretax”"), or the earlier result it reuses ("the
change in net revenue (94)", "the trading assets total in 2008 (505519)"). An earlier result
is named by a short name, never pointed back to ("that", "then") and never by a description
that holds another result in brackets, so a candidate that leaves a step out shows its result
underived ("the change in net revenue from 2014 to 2015, 94,") rather than dangling.
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
from tjb_lib.pairs.filing import (Figure, is_period, locate, mid, period_years, plain_label,
                                  undated, when)
from tjb_lib.text import pronoun_led
from tjb_lib.pairs.filing_prose import be, name_case

# Within a pool, phrasings open and link with different words, and at least one opens on a
# word of its own, not on {x} (an earlier result, "the difference (94)"), so that a sentence
# never opens on a figure or a bare result; none opens on the base it divides by or on a unit
# ("Of total revised, ...", "In full, ..."). Each says the operation in plain words.
# A change of one measure between two periods: {m} measure ({mt} as a sentence's subject:
# "The fair value per share went from ...", never "Fair value per share went"), {a}/{pa} and
# {b}/{pb} the figures and their periods.
CHANGE = (
    "{mt} went from {b} {pb} to {a} {pa}, a change of {eq}.",
    "{mt} {be} {a} {pa} and {b} {pb}, so {eq}.",
    "Between {bare_b} and {bare_a}, {mt} moved from {b} to {a}: {eq}.",
    "From {b} {pb}, {mt} {reached} {a} {pa}: {eq}.",
    "The change in {m} from {bare_b} to {bare_a} is {eq}.",
)
# The same where the program takes the later period from the earlier one.
CHANGE_BACK = (
    "{mt} {be} {a} {pa} and {b} {pb}, a difference of {eq}.",
    "Comparing {bare_a} with {bare_b}, {mt} {be} {a} against {b}: {eq}.",
    "The difference in {m} between {bare_a} and {bare_b} is {eq}.",
)
SUBTRACT = (
    "{x} less {y} is {eq}.",
    "Subtracting {y} from {x} gives {eq}.",
    "Taking {y} from {x} leaves {eq}.",
)
# A figure indexed to a base of 100 (a five-year return table), less that base: the base is
# named as what it is, {since} the period it was set in, {gl} "gain" or "loss".
# {s} is the figure's measure and {at} its period ("S&P 500", " on December 31, 2014": a level
# stands at a figure on a date, never "at 108.59 at December 31, 2012").
BASE = (
    "{s} stood at {a}{at} against its base of 100{since}, a {gl} of {eq}.",
    "On a base of 100{since}, {s} stood at {a}{at}, a {gl} of {eq}.",
    "{s} was at {a}{at}: a {gl} of {eq} on the base of 100{since}.",
)
# A ratio less 1: the growth it shows.
GROWTH = (
    "{x} less 1 is a growth of {eq}.",
    "Less 1, {x} give{v} the growth, {eq}.",
)
# One measure over two periods, added.
# One measure is one noun: never "the service cost in 2018 and 2017 come to", whose verb
# agrees with neither reading.
COMBINED = (
    "Adding {the_m} {pa} and {bare_b} gives {eq}.",
    "The sum of {the_m} {pa} and {bare_b} is {eq}.",
)
# A figure added to a running total of its own measure: the total is not named again
# ("Adding basic net income ... in 2005 and the combined basic net income ... for 2006 and
# 2007, 362787, gives").
RUNNING = (
    "Adding {f} brings the total to {eq}.",
    "With {f} added, the total comes to {eq}.",
)
ADD = (
    "{x} plus {y} is {eq}.",
    "Adding {x} and {y} gives {eq}.",
    "Together, {x} and {y} come to {eq}.",
)
# A sentence names what is divided before what it is divided by: one that opens on the base
# ("Of total revised, goodwill ...", "Taking shares as the base, ...") reads as a label used
# as a noun.
DIVIDE = (
    "{x} divided by {y} is {eq}.",
    "Dividing {x} by {y} gives {eq}.",
    "The ratio of {x} to {y} is {eq}.",
)
# A division that prints a percentage: a part as a share of a whole, or a change on its base.
SHARE = (
    "{x} as a share of {y} is {eq}.",
    "{x} {is_x} {eq} of {y}.",
    "Dividing {x} by {y} gives {eq}.",
    "As a share of {y}, {x} {is_x} {eq}.",
)
# A change (an earlier result) on its base: never "Compared with {y}, the change in ... comes
# to", which names the measure twice before the figure, nor "Divided by {y}, the total (16769)
# comes to", which opens on the base, nor "Dividing the change ... by", which only the side
# that shows the change would say (the side that skips it opens on the change's value).
SHARE_OF_CHANGE = tuple(t for t in SHARE if not t.startswith("Dividing"))
# A part of a whole in one period: it may open on the period ("In 2015, EMEA was ...").
SHARE_IN_PERIOD = SHARE + ("{period}, {part} {be_part} {eq} of {whole}.",)
# Division by a small count: an average.
AVERAGE = (
    "Averaged over {over}, {x} come{v} to {eq}.",
    "Dividing {x} by {n} gives the average, {eq}.",
    "{x} averaged over {over} {is_x} {eq}.",
)
# Division by 100 (or multiplication by 100) that prints a percentage.
PERCENT = (
    "As a percentage, {x} {is_x} {eq}.",
    "{x} as a percentage is {eq}.",
    "Written as a percentage, {x} {is_x} {eq}.",
)
# A gain or loss on a base of 100 as a percentage return.
BASE_PERCENT = (
    "As a return, {x} {is_x} {eq}.",
    "In percent, {x} {is_x} a return of {eq}.",
    "{x} {is_x} a return of {eq}.",
)
# A change of unit by 1,000 or 1,000,000: {unit} the unit it gives ("in millions", "in
# full"), {word} the same after a number ("29.9 million"); scaling up, {scale} the unit the
# figure is given in ("million").
SCALE_DOWN = (
    "{x} {is_x} {eq} {word}.",
    "{x} come{v} to {eq} {word}.",
)
SCALE_UP = (
    "{x} {be_x} {a} {scale}, or {eq} {unit}.",
    "{x} of {a} {scale} {is_x} {eq} {unit}.",
)
MULTIPLY = (
    "{x} times {y} is {eq}.",
    "Multiplying {x} by {y} gives {eq}.",
    "{x} multiplied by {y} {is_x} {eq}.",
)
# A multiplication by 100 whose result prints no "%": a change of percentages said in basis
# points, a fraction said as a percentage ("0.14 × 100 = 14%"), never "times 100 is".
IN_POINTS = (
    "{x} come{v} to {eq} basis points.",
    "Multiplied by 100, {x} give{v} {eq} basis points.",
)
AS_PERCENT = (
    "As a percentage, {x} come{v} to {eq}%.",
    "Multiplied by 100, {x} give{v} {eq}%.",
)
POWER = (
    "{x} raised to the power {y} is {eq}.",
    "Raising {x} to the power {y} gives {eq}.",
)
# A comparison: parallel pools for yes and no, so a flipped outcome keeps its phrasing.
LARGER = (
    "{x} {is_x} larger than {y}: {eq}, so yes.",
    "{x} exceed{v} {y} ({eq}), so yes.",
    "Comparing {x} with {y} gives {eq}, so yes.",
)
NOT_LARGER = (
    "{x} {is_x} not larger than {y}: {eq}, so no.",
    "{x} {does} not exceed {y} ({eq}), so no.",
    "Comparing {x} with {y} gives {eq}, so no.",
)
# A step whose operands the gold lines do not name: its equation, in a few words.
BARE = (
    "In figures, {eq}.",
    "The arithmetic is {eq}.",
)
SCALES = {"100", "1000", "1000000"}
WORDS = {"1000": 1, "1000000": 2}
_SCALES = ("", "thousand", "million", "billion")
_ARITH = {"add": "+", "minus": "-", "subtract": "-", "multiply": "×", "divide": "/", "exp": "^"}
_COMPARE = ("greater", "compare_larger")


# The unit a question asks its answer in, as the answer line writes it after the number.
_ASKED = (("million", re.compile(r"\bin (?:us)?\$? ?millions?\b|\(in millions\)", re.I)),
          ("thousand", re.compile(r"\bin (?:us)?\$? ?thousands?\b|\(in thousands\)", re.I)),
          ("billion", re.compile(r"\bin (?:us)?\$? ?billions?\b|\(in billions\)", re.I)),
          ("per share", re.compile(r"\bper (?:common |basic |diluted )?share\b|\bshare price\b",
                                   re.I)))
#: a figure per share that is money: a price, a cost, an income or earnings, a dividend
PER_SHARE_MONEY = re.compile(r"\b(?:price|cost|income|earnings|dividends?)\b", re.I)


def unit_asked(question: str, last_op: str = "divide") -> str | None:
    """The unit a question asks its answer in ("million", "per share"), or None; a figure
    per share only where the answer is a division (``last_op``), not a price times shares."""
    return next((u for u, pat in _ASKED if pat.search(question)
                 and (u != "per share" or last_op == "divide")), None)


def answer_text(question: str, answer: str, last_op: str = "") -> str:
    """The answer with the unit its question asks for ("719.7 per share", "410.08 million";
    money per share with its "$": "$1.56 per share" for a net income per common share);
    a percentage, a yes/no or an answer that states its unit already is left as it is. Only
    a division (``last_op``) gives a figure per share."""
    want = unit_asked(question, last_op)
    if want is None or want in answer or re.search(r"%|^(?:yes|no)$", answer.strip(), re.I):
        return answer
    money = want == "per share" and PER_SHARE_MONEY.search(question)
    answer = re.sub(r"^(-?)\.", r"\g<1>0.", answer)                 # "$0.385", not "$.385"
    if money:                                      # "$0.42", not "$0.420": cents and beyond
        answer = re.sub(r"(\.\d\d\d*?)0+$", r"\1", answer)   # only where they show more
    return f"${answer} {want}" if money and not answer.startswith("$") else f"{answer} {want}"


# A question that counts things (shares, awards), not money: its scale word takes no "$".
COUNTED = re.compile(r"\bhow many\b|\bshares\b|\bstocks\b|\bawards\b|\bunits\b", re.I)
_MONEY = re.compile(r"(-?)(\$?)(\d+)((?:\.\d+)?)( (?:thousand|million|billion))?")


def dollars(question: str, answer: str) -> str:
    """A money answer as an analyst prints it: with its "$" where it carries a scale word and
    its question counts no things ("$3,138 million", not "3138 million"), and with thousands
    separators ("$643,822.41", not "$643822.41"); a count with its scale word grouped, no "$"
    ("1,152 million", not "1152 million")."""
    m = _MONEY.fullmatch(answer.strip())
    if m is not None and m.group(5) and not m.group(2) and COUNTED.search(question):
        return f"{m.group(1)}{int(m.group(3)):,}{m.group(4)}{m.group(5)}"   # "1,152 million"
    if m is None or not (m.group(2) or (m.group(5) and not COUNTED.search(question))):
        return answer
    return f"{m.group(1)}${int(m.group(3)):,}{m.group(4)}{m.group(5) or ''}"


#: a thing a question counts, by the noun the answer names it with ("how many shares", "cruise
#: guests")
_COUNT_NOUN = re.compile(r"\b(shares|guests|employees|customers|units|stores|berths|subscribers|"
                         r"members|vessels|ships|aircraft|restaurants|locations|properties|"
                         r"facilities|holders|passengers|households)\b", re.I)
_NOT_A_COUNT = re.compile(r"\b(?:ratio|times|per|average|percent\w*|portion|proportion|price|"
                          r"value|cost|rate|return)\b", re.I)


def counted(question: str, answer: str, scale: str = "") -> str:
    """A count answered with the noun its question counts and the scale its figures carry
    ("995,365 guests", "0.1 million shares"), never a bare "995365"; any other answer as it
    is."""
    m = _COUNT_NOUN.search(question)
    if m is None or _NOT_A_COUNT.search(question) or \
            not re.fullmatch(r"-?\d+(?:\.\d+)?", answer.strip()):
        return answer
    whole, _, frac = answer.strip().partition(".")
    number = f"{int(whole):,}{'.' + frac if frac else ''}"
    return f"{number} {scale + ' ' if scale else ''}{m.group(1).lower()}"


def op_name(step: FinQAStep) -> str:
    m = re.match(r"([a-z_]+?)(?:\d+-\d+)?$", step.op)
    return m.group(1) if m else step.op


def zero_led(text: str) -> str:
    """A number with its leading zero ("0.385", "-0.5"), never ".385" as FinQA keeps it."""
    return re.sub(r"(?<![\d.])(-?)\.(?=\d)", r"\g<1>0.", text)


def arg_text(arg: str, steps: tuple[FinQAStep, ...]) -> str:
    """An operand as the equation prints it: an earlier step's result as its own equation
    printed it ("203.9%" where FinQA keeps "204%"; a difference of percentages as FinQA keeps
    it, "4.9%"), a constant, a number."""
    if re.fullmatch(r"#\d+", arg):
        k = int(arg[1:])
        return result_text(k, steps).removesuffix(" percentage points") + \
            ("%" if result_text(k, steps).endswith(" percentage points") else "")
    if arg.startswith("const_"):
        return arg[len("const_"):].replace("m", "-")
    return zero_led(arg)


def equation(i: int, steps: tuple[FinQAStep, ...], percent: bool = False) -> str:
    """Step i as an equation: "5829 - 5735 = 94", or "178.93 > 105.34" for a comparison
    ("14% ≤ 19%" where the figures compared are ``percent``ages)."""
    st = steps[i]
    a, b = (arg_text(x, steps) for x in (st.arg1, st.arg2))
    b = f"({b})" if b.startswith("-") else b             # "438 - (-291)", not "438 - -291"
    op = op_name(st)
    if op in _COMPARE:
        if percent:
            a, b = (f"{x}%" if x[-1:].isdigit() else x.replace(")", "%)") for x in (a, b))
        return f"{a} > {b}" if st.res.strip().lower() == "yes" else f"{a} ≤ {b}"
    sign = _ARITH.get(op)
    res = result_text(i, steps)
    text = f"{a} {sign} {b} = {res}" if sign else f"{st.op}({a}, {b}) = {res}"
    return " ".join(text.split())


def _number(text: str) -> float | None:
    try:
        return float(re.sub(r"[$,%()]", "", text))
    except ValueError:
        return None


def result_text(i: int, steps: tuple[FinQAStep, ...]) -> str:
    """Step i's result as an analyst prints it: a difference of two percentages in percentage
    points ("26.8% - 21.9% = 4.9 percentage points", not "4.9%"), and a share FinQA rounds
    to a whole percent given to one decimal where that shows more ("17.7 / 488.8 = 3.6%",
    not "4%")."""
    st, res = steps[i], zero_led(steps[i].res.strip())
    a, b = (arg_text(x, steps) for x in (st.arg1, st.arg2))
    op = op_name(st)
    if op in ("minus", "subtract") and res.endswith("%") and a.endswith("%") \
            and b.endswith("%"):
        return f"{res[:-1]} percentage points"
    x, y = _number(a), _number(b)
    if op == "divide" and re.fullmatch(r"-?\d+%", res) and x is not None and y \
            and "%" not in a + b:
        v = x / y * 100
        if abs(v - round(v)) >= .05 and abs(v - int(res[:-1])) < 1:
            return f"{v:.1f}%"
    return res


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
    if op_name(steps[i]) == "divide" and a.step is not None and b.figure is not None:
        b = Operand(b.text, figure=_base(a.step, b.figure, steps, figs))
    return a, b


def _base(k: int, fig: Figure, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> Figure:
    """The figure a change (step k) is divided by, where both its years print the same number
    ("$2.6 billion in 2013 and $2.6 billion in 2012"): the earlier year, a change's base."""
    x, y = operands(k, steps, figs)
    if op_name(steps[k]) not in ("minus", "subtract") or not _change(x, y) \
            or not x.figure.printed == y.figure.printed == fig.printed:
        return fig
    return min((x.figure, y.figure), key=lambda f: max(period_years(what(f)[1]) or {0}))


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
        return (name_case(plain_label(fig.name)) if fig.name else None), \
            (str(fig.year) if fig.year else None)
    if fig.period and fig.measure and not is_period(fig.measure):
        return mid(undated(fig.measure)), fig.period
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
    pool = _pool(k, steps, *operands(k, steps, figs), figs)
    if pool is BASE:                  # a loss named as a change: never "the loss (-21.08)"
        gl, about = _gain(steps[k].res).replace("loss", "change"), named(about)
        return f"the {gl} in {about}" if about else f"the {gl} on a base of 100"
    if pool is BASE_PERCENT:
        return f"the return on {named(about)}" if about else "the return"
    if pool is GROWTH:                              # "the change in the S&P 500 Index"
        return f"the growth in {indexed(about)}" if about else "the growth"
    if op in ("minus", "subtract"):                 # an earlier period less a later one is a
        head = "difference" if pool is CHANGE_BACK else "change"       # difference, no change
        return f"the {head} in {indexed(about)}" if about else "the difference"
    if op == "add":
        return f"the combined {about}" if about else "the total"
    a, b = operands(k, steps, figs)
    if pool in (SCALE_UP, SCALE_DOWN):
        about = about or next((o.figure.label() for o in (a, b) if o.figure is not None), None)
        unit = scaled(k, steps, figs)[1]
        return f"the {about} {unit}" if about else f"the figure {unit}"
    if pool is AVERAGE:
        base = "the average"
    elif op == "divide" or pool is PERCENT:
        base = "the percentage" if steps[k].res.strip().endswith("%") else "the ratio"
    elif op == "multiply":
        base = "the product"
    else:
        base = "the result"
    return f"{base} for {about}" if about else base


def periods(k: int, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> set[str]:
    """The periods of the gold-line figures step k's result is computed from (directly or
    through earlier results)."""
    return set().union(*(_periods(o, steps, figs) for o in operands(k, steps, figs)))


def _periods(o: Operand, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> set[str]:
    if o.figure is not None and what(o.figure)[1]:
        return {what(o.figure)[1]}
    return periods(o.step, steps, figs) if o.step is not None else set()


def span(k: int, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> str | None:
    """The periods step k's result covers, as a short name says them: "from 2009 to 2010"
    for a difference between two periods, "in 2010" for one, "for 2016, 2017 and 2018"."""
    x, y = operands(k, steps, figs)
    a, b = _periods(x, steps, figs), _periods(y, steps, figs)
    over_time = (x.step is not None and y.step is not None) or _change(x, y)
    if op_name(steps[k]) in ("minus", "subtract") and over_time and len(a) == len(b) == 1 \
            and a != b:
        return f"from {next(iter(b))} to {next(iter(a))}"
    found = sorted(a | b)
    if len(found) == 1:
        return when(found[0])
    return f"for {', '.join(found[:-1])} and {found[-1]}" if found else None


def name(k: int, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> str:
    """Step k's result by a short name (``noun``), with the periods it covers where another
    step's result goes by the same noun ("the difference in 2010", "the change from 2009 to
    2010", "the combined service cost for 2017 and 2018"), or else by what it is computed
    from (``_described``): a later step refers to it without nesting one result's value
    inside another's description."""
    own = noun(k, steps, figs)
    alike = [j for j in range(len(steps)) if noun(j, steps, figs) == own]
    if alike == [k]:
        return own
    named = {j: _dated(j, own, steps, figs) for j in alike}
    if named[k] is not None and list(named.values()).count(named[k]) == 1:
        return named[k]
    return _described(k, steps, figs)


def _dated(k: int, own: str, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> str | None:
    when_ = span(k, steps, figs)
    if when_ is None or re.search(r"\b(?:in|for|from) (?:19|20)\d\d\b", own):
        return None
    a, b = operands(k, steps, figs)
    if own == "the total" and a.figure is not None and b.figure is not None:
        heads = [(what(o.figure)[0] or "").split() for o in (a, b)]
        shared = " ".join(w for w, v in zip(*heads) if w == v).rstrip(" –-")
        if shared and shared == " ".join(heads[0][:len(shared.split())]):
            own = f"the {shared} total"                # "the trading assets total in 2009"
    return f"the change {when_}" if own == "the difference" and when_.startswith("from") \
        else f"{own} {when_}"


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
            omitted: frozenset[int] = frozenset(), draw: float = 0.0) -> str:
    if o.step is not None and o.step in omitted:
        return derived(o.step, steps, figs, o.text, draw)
    if o.step is not None:
        said = name(o.step, steps, figs)        # "the total in 2008"; a description sets its
        described = said == _described(o.step, steps, figs)          # value off by commas; a
        return f"{said}, {grouped(o.text)}," if described else said   # short name takes none:
    return with_the(_label(o))              # its equation shows it ("The change in gasoline
                                            # (28) as a share" read as a template tag)


def _brief(o: Operand, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> str:
    """An operand without its value: a figure's label, an earlier result's short name (a
    description of a result never holds another result in brackets)."""
    return name(o.step, steps, figs) if o.step is not None else with_the(_label(o))


#: a label that reads as a noun with "the": a common noun phrase, or one led by its year
#: ("2016 benefit payments for international"), not one with a determiner of its own
_COMMON_LABEL = re.compile(r"(?!(?:the|a|an|its|their|our|each|per)\b)(?:[a-z]|(?:19|20)\d\d [a-z])")


#: a label that is a name in a period ("JP Morgan Chase in 2014", "S&P 500 at December 31,
#: 2005"): every word of the name capitalised, the period after it
_NAME_IN_PERIOD = re.compile(r"(?P<name>[A-Z0-9&(][^\s,]*(?:,? [A-Z0-9&(][^\s,]*)*) "
                             r"(?P<period>(?:in|at|on|for) (?:(?:19|20)\d\d|[A-Z][a-z]+ \d).*)")


def with_the(label: str) -> str:
    """A figure's label as the noun of a sentence, with its article ("Taking the net fair
    value ... at December 31, 2007 from ..."): blind readers stopped at bare labels ("Dividing
    large utilities in 2001 by ..."), and at a name in a period used as the figure ("JP Morgan
    Chase in 2014 does not exceed KBW Bank Index in 2014"): that is "the JP Morgan Chase
    figure in 2014"; an index opens on its article ("the S&P 500 Index at 12/14"). Any other
    name or a bare figure as it is."""
    if _COMMON_LABEL.match(label):
        return f"the {label}"
    m = _NAME_IN_PERIOD.fullmatch(label)
    if m:
        return f"the {m.group('name')} figure {m.group('period')}"
    return indexed(label)                             # "the S&P 500 Index at 12/14"


def _label(o: Operand) -> str:
    label = o.figure.label() if o.figure is not None else None
    if label and o.figure.quote is not None:
        label = name_case(label)                      # "specific reserves in the ALLL"
    return label or o.text


def _described(k: int, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> str:
    """Step k's result by what it is computed from, one level deep ("the difference between
    cost in 2010 and tax benefit in 2010"): two results that share a name told apart."""
    x, y = (_brief(o, steps, figs) for o in operands(k, steps, figs))
    op = op_name(steps[k])
    if op == "add":                                  # a sum of sums: one list of what is added
        over = _one_measure(k, steps, figs)
        if over:                                     # "the combined other income, net for
            m, when_ = over                          # 2016, 2017 and 2018", not a list of
            return f"the combined {m} for {', '.join(when_[:-1])} and {when_[-1]}"   # labels
        said = _addends(k, steps, figs)                # a label said once ("the sum of
        said = [said[0], *(_tail(said[0], w) for w in said[1:])]   # revenues in the first
        return f"the sum of {', '.join(said[:-1])} and {said[-1]}"  # quarter, in the second")
    head = {"minus": "the difference between", "subtract": "the difference between",
            "add": "the sum of", "divide": "the ratio of", "multiply": "the product of"}
    joint = "to" if op == "divide" else "and"
    if joint == "and":
        y = _tail(x, y)
    return f"{head.get(op, noun(k, steps, figs) + ' of')} {x} {joint} {y}"


def _tail(x: str, y: str) -> str:
    """``y`` from the last preposition of the long words it shares with ``x`` on ("at
    December 31, 2007" after "net fair value of derivatives outstanding at December 31,
    2008"), so that a label is not said twice in one description; ``y`` where they share
    under four words."""
    xs, ys = x.split(), y.split()
    n = next((k for k, (a, b) in enumerate(zip(xs, ys)) if a != b), min(len(xs), len(ys)))
    cut = max((k for k in range(n) if ys[k] in ("at", "in", "for", "on", "as")), default=None)
    return " ".join(ys[cut:]) if n >= 4 and cut is not None and cut >= 3 and n < len(ys) else y


def _one_measure(k: int, steps: tuple[FinQAStep, ...],
                 figs: list[Figure]) -> tuple[str, list[str]] | None:
    """(measure, its periods in order) where every figure a sum of sums adds is one measure in
    distinct periods; None otherwise."""
    def read(i: int) -> list[Figure | None]:
        return [f for o in operands(i, steps, figs)
                for f in (read(o.step) if o.step is not None and op_name(steps[o.step]) == "add"
                          else [o.figure])]
    found = [what(f) if f is not None else (None, None) for f in read(k)]
    if any(m is None or p is None for m, p in found) or len({m for m, _ in found}) != 1 \
            or len({p for _, p in found}) != len(found):
        return None
    return found[0][0], sorted(p for _, p in found)


def _addends(k: int, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> list[str]:
    return [w for o in operands(k, steps, figs)
            for w in (_addends(o.step, steps, figs)
                      if o.step is not None and op_name(steps[o.step]) == "add"
                      else [_brief(o, steps, figs).removeprefix("the ")])]   # one "the
                                                               # sum of" for the whole list


#: the names of index families, one alternation (the builder's ``indexed`` and the reader rule
#: ``finqa_units.index_unnamed`` read the same list)
INDEX_FAMILIES = (r"(?:S&P|Standard & Poor'?s|Nasdaq|NASDAQ|Dow Jones|NYSE|Russell|KBW|NAREIT|"
                  r"FTSE|MSCI|AMEX|PHLX)")
#: a market index or a peer group, which a sentence names with "the" ("the S&P 500 Index",
#: "the Nasdaq Composite"), unlike a company ("LKQ Corporation stood at 204")
_INDEX_NAME = re.compile(rf"{INDEX_FAMILIES}\b|(?:[A-Z][\w&.'-]* )+(?:Index|Composite|"
                         r"Average|Peer Group)\b")


def indexed(label: str) -> str:
    """A label that opens on an index's name with its article: blind readers stopped at "S&P
    500 Index was at 180.75" and "Between 2011 and 2012, S&P 500 Index moved"."""
    return f"the {label}" if _INDEX_NAME.match(label) and not re.match(r"the\b", label, re.I) \
        else label


def subject(measure: str) -> str:
    """A measure as the subject of a sentence on its figures: a singular common noun with its
    article ("the fair value per share went from $11.75"), a plural or a name as it is
    ("cabinets were", "LKQ Corporation stood at"), an index with its own ("the S&P 500")."""
    if _COMMON_LABEL.match(measure) and be(measure) == "was":
        return f"the {measure}"
    return indexed(measure)


def named(series: str | None) -> str | None:
    """The series of an index table (a company or an index) as the name the table prints it
    by: "Masco", not "masco" (which other filings use as a word, so ``mid`` lowers it); an
    index with its article ("the S&P 500 Index")."""
    return indexed(series[:1].upper() + series[1:]) if series else series


def amount(o: Operand, index: bool = False) -> str:
    """A figure as the words around an equation state it: with the "$", the "%", the thousands
    separators and the scale its line or table gives ("$26,410 thousand", "1.5 million"), a
    figure of four digits or more grouped ("from 9,165 in 2000", "from 5,540,000 to
    6,535,365"), an ``index`` in points ("from 63.45", never "$63.45"), so that no figure of
    the working reads without its unit; the operand as printed where it has none."""
    f, text = o.figure, o.text
    if f is None:
        return text
    m = re.fullmatch(r"(-?)\$?(\d+)(\.\d+)?", text)
    if m and f.unit == "$" and index:
        return text
    if m and f.unit == "$":
        text = f"{m.group(1)}${int(m.group(2)):,}{m.group(3) or ''}"
    elif m and len(m.group(2)) > 3:
        text = f"{m.group(1)}{int(m.group(2)):,}{m.group(3) or ''}"
    elif m and f.unit == "%":
        return f"{text}%"                             # "from 2.36% in 2017", never "2.36"
    return f"{text} {f.scale}" if f.scale and m else text


def grouped(text: str) -> str:
    """A bare figure of four digits or more with its thousands separators, as prose states
    it ("-55,267", "-3,234"); any other text as it is (an equation keeps its plain operands)."""
    m = re.fullmatch(r"(-?)(\d{4,})(\.\d+)?", text.strip())
    return f"{m.group(1)}{int(m.group(2)):,}{m.group(3) or ''}" if m else text


def on_date(period: str) -> str:
    """A period after a level a series stands at: "on December 31, 2012" where ``when`` says
    "at December 31, 2012", so that no figure sits between two "at"s."""
    said = when(period)
    return f"on {said[3:]}" if said.startswith("at ") else said


def _of_percents(o: Operand, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> bool:
    """Is an operand a percentage the lines print, or a result computed from one (a change of
    yields is in percentage points, and a hundred times it in basis points)?"""
    found = o.figure or (origin(o.step, steps, figs) if o.step is not None else None)
    return found is not None and found.unit == "%"


def _hundred(text: str) -> bool:
    return bool(re.fullmatch(r"100(?:\.0+)?", text.strip()))


def _gain(res: str) -> str:
    return "loss" if res.strip().startswith("-") else "gain"


def _pool(i: int, steps: tuple[FinQAStep, ...], a: Operand, b: Operand,
          figs: list[Figure]) -> tuple[str, ...]:
    op = op_name(steps[i])
    if op in _COMPARE:
        return LARGER if steps[i].res.strip().lower() == "yes" else NOT_LARGER
    if op in ("minus", "subtract"):
        if a.figure is not None and _hundred(b.text) and (b.const or b.figure is not None):
            return BASE                               # an index less its base of 100
        if b.const and b.text == "1" and a.step is not None and op_name(steps[a.step]) == "divide":
            return GROWTH
        if not _change(a, b):
            return SUBTRACT
        (_, pa), (_, pb) = what(a.figure), what(b.figure)
        later = max(period_years(pa) or {0}) >= max(period_years(pb) or {0})
        return CHANGE if later else CHANGE_BACK
    if op == "add":
        return COMBINED if _change(a, b) else ADD
    if op == "divide" and _hundred(b.text) and b.figure is not None and a.step is not None \
            and steps[i].res.strip().endswith("%") \
            and _pool(a.step, steps, *operands(a.step, steps, figs), figs) is BASE:
        return BASE_PERCENT                           # a gain over the table's own 100
    if op == "divide" and b.const:
        if b.text == "100" and steps[i].res.strip().endswith("%"):
            if a.step is not None and _pool(a.step, steps, *operands(a.step, steps, figs),
                                            figs) is BASE:
                return BASE_PERCENT
            return PERCENT
        if b.text in WORDS and scaled(i, steps, figs):
            return SCALE_DOWN
        if b.text in SCALES:
            return DIVIDE
        return AVERAGE
    if op == "divide" and b.figure is None and b.step is None and re.fullmatch(r"\d{1,2}", b.text):
        return AVERAGE                                  # a count read from the question
    if op == "divide":
        if not steps[i].res.strip().endswith("%"):
            return DIVIDE
        if a.step is not None:
            return SHARE_OF_CHANGE
        return SHARE_IN_PERIOD if _one_period(a, b) else SHARE
    if op == "multiply" and b.const and b.text == "100" and steps[i].res.strip().endswith("%"):
        return PERCENT
    if op == "multiply" and b.const and b.text == "100":
        return IN_POINTS if _of_percents(a, steps, figs) else AS_PERCENT
    if op == "multiply" and b.const and b.text in WORDS and scaled(i, steps, figs):
        return SCALE_UP
    if op == "multiply":
        return MULTIPLY
    return POWER


def _one_period(a: Operand, b: Operand) -> bool:
    """Two figures whose labels are their measures in one and the same period ("EMEA in
    2015", "total operating income in 2015"), so the period can be said once."""
    if a.figure is None or b.figure is None:
        return False
    (ma, pa), (mb, pb) = what(a.figure), what(b.figure)
    return bool(ma and mb and pa) and pa == pb and all(
        o.figure.label() == f"{m} {when(pa)}" for o, m in ((a, ma), (b, mb)))


def scaled(k: int, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> tuple[str, str] | None:
    """Step k as a change of unit: (the unit its figure is in, the unit it gives: "million",
    "in full"), where the figure's own line says its unit ("$2 million") or, dividing, a
    figure given in units; None where the unit is not known (then it is plain arithmetic)."""
    a, b = operands(k, steps, figs)
    if op_name(steps[k]) == "multiply" and a.const:
        a, b = b, a
    if b.text not in WORDS:
        return None
    said = None
    if a.figure is not None and a.figure.quote is not None:
        m = re.search(rf"{re.escape(a.figure.printed)}\s*(thousand|million|billion)\b",
                      a.figure.quote, re.I)
        said = _SCALES.index(m.group(1).lower()) if m else None
    down = op_name(steps[k]) == "divide"
    if said is None and not down:
        return None
    base = said or 0
    to = base + WORDS[b.text] if down else base - WORDS[b.text]
    if not 0 <= to < len(_SCALES):
        return None
    return _SCALES[base], (f"in {_SCALES[to]}s" if to else "in full")


def derived(k: int, steps: tuple[FinQAStep, ...], figs: list[Figure], shown: str,
            draw: float = 0.0) -> str:
    """What a left-out step k's result is: its value with what it is computed from but not
    how ("the change in net revenue from 2014 to 2015, 94,", "the 2016-to-2017 change in
    cabinets, 69.3,"), its operands named without values and no value in brackets: a later
    step that reads it shows a skipped step, not a miscalculation or a nested reference.
    ``draw`` picks among phrasings, so no one phrase marks the side that skips."""
    a, b = operands(k, steps, figs)
    op = op_name(steps[k])
    pool = _pool(k, steps, a, b, figs)
    shown = grouped(shown)                           # "of -55,267", never "of -55267"
    pick = (draw * 7) % 1                            # apart from the draw's pick of the pool
    if pool is BASE:
        m, pa = what(a.figure)
        gl = "change" if shown.strip().startswith("-") else "gain"
        who, at = (named(m), f" {on_date(pa)}") if m and pa else (_brief(a, steps, figs), "")
        return f"the {gl} in {who} from its base of 100 to {a.text}{at}, {shown},"
    if pool is BASE_PERCENT and a.step is not None:
        about = topic(k, steps, figs)
        return (f"the return on {named(about) or 'a base of 100'}, {shown} from a {_gain(a.text)} of "
                f"{a.text.lstrip('-')} on its base of 100,")
    if _change(a, b) and op in ("minus", "subtract", "add"):
        (m, pa), (_, pb) = what(a.figure), what(b.figure)
        m = indexed(m)
        years = re.fullmatch(r"(?:19|20)\d\d", pa) and re.fullmatch(r"(?:19|20)\d\d", pb)
        pa, pb = (when(p).split(" ", 1)[1] for p in (pa, pb))    # "year ended ...", not "Year"
        if op == "add":
            return (f"the combined {m} for {pb} and {pa}, {shown}," if pick < .5
                    else f"the combined {m} of {shown} for {pb} and {pa}")
        if pool is CHANGE_BACK:                 # an earlier period less a later one
            return f"the difference in {m} between {pa} and {pb}, {shown},"
        if years and pick < 1 / 3:
            return f"the change in {m} over {pb}-{pa}, {shown},"
        return (f"the change in {m} of {shown} from {pb} to {pa}" if pick < 2 / 3
                else f"the change in {m} from {pb} to {pa}, {shown},")
    return f"{_described(k, steps, figs)}, {shown},"      # ", 327," (a stray comma goes)


def index_move(i: int, steps: tuple[FinQAStep, ...], figs: list[Figure], eq: str,
               omitted: frozenset[int] = frozenset()) -> list[str]:
    """A return on a base of 100 (step i divides a gain on that base by 100) as an analyst
    writes it: where the index stands, its gain and the return that makes ("Nasdaq Composite
    stood at 165.84 at 12/29/2018 against its base of 100, a gain of 65.84: a return of
    65.84 / 100 = 65.84%"), the gain named by what it is computed from where its step is
    skipped: never the gain as a label ("the gain in Nasdaq Composite on its base of 100
    (65.84)"). Where the gain's own step is shown, where the index stands was just said: the
    return follows from the gain alone ("The gain of 65.84 in Nasdaq Composite is ..."). A
    loss is given by its size ("a loss of 16.34"), never as "a loss of -16.34". Empty where
    the index has no name."""
    a, _ = operands(i, steps, figs)
    if a.step is None:
        return []
    level, _ = operands(a.step, steps, figs)
    m, at = what(level.figure) if level.figure is not None else (None, None)
    series = named(m or topic(a.step, steps, figs))
    if not series:
        return []
    gl, at = _gain(steps[a.step].res), f" {on_date(at)}" if at else ""
    size = a.text.lstrip("-")
    if a.step not in omitted:
        return [f"That {gl} of {size} is a return of {eq}.",       # the series was just named
                f"The {gl} of {size} is a return of {eq}."]      # the base said once
    if series.startswith("the "):                    # an index opens no skip's sentence
        return [f"Against its base of 100, {series} stood at {level.text}{at}, a {gl} of "
                f"{size}: a return of {eq}.",
                f"On a base of 100, {series} was at {level.text}{at}, a {gl} of {size}, which "
                f"is a return of {eq}."]
    return [f"{series} stood at {level.text}{at} against its base of 100, a {gl} of {size}: a "
            f"return of {eq}.",
            f"{series} was at {level.text}{at}, a {gl} of {size} on its base of 100, which "
            f"is a return of {eq}.",
            f"On a base of 100, {series} was at {level.text}{at}, a {gl} of {size} and so a "
            f"return of {eq}."]


def repeated_runs(text: str, n: int = 4) -> list[str]:
    """Runs of n words said twice in a text, the second after the first ends."""
    words = re.findall(r"[a-z][\w'&-]*", text.lower())
    first: dict[tuple[str, ...], int] = {}
    out = []
    for k in range(len(words) - n + 1):
        run = tuple(words[k:k + n])
        if run in first and first[run] + n <= k:
            out.append(" ".join(run))
        first.setdefault(run, k)
    return out


def _running(i: int, steps: tuple[FinQAStep, ...], a: Operand, b: Operand, x: str, y: str,
             omitted: frozenset[int]) -> str | None:
    """The figure's phrase where step i adds a figure to a shown running total whose name
    repeats the figure's label; None otherwise."""
    if op_name(steps[i]) != "add":
        return None
    (fig, f), (total, _) = ((a, x), (b, y)) if a.figure is not None else ((b, y), (a, x))
    if fig.figure is None or total.step is None or total.step in omitted:
        return None
    return f if repeated_runs(f"{x} {y}") else None


def step_sentence(i: int, steps: tuple[FinQAStep, ...], figs: list[Figure], draw: float,
                  omitted: frozenset[int] = frozenset()) -> str:
    """Step i in words and as an equation; ``draw`` (in [0, 1)) picks the phrasing; a result
    of a step in ``omitted`` is named by what it is computed from (``derived``)."""
    a, b = operands(i, steps, figs)
    if op_name(steps[i]) == "multiply" and a.const and not b.const:
        a, b = b, a                                   # "scaled up by 100", not "100 times x"
    pool = _pool(i, steps, a, b, figs)
    x, y = _phrase(a, steps, figs, omitted, draw), _phrase(b, steps, figs, omitted, draw)
    if x == a.text and y == b.text and pool not in (LARGER, NOT_LARGER):
        pool = BARE                                   # nothing to name: the equation alone
    if x == y and a.figure is not None:               # two figures the lines label alike
        x, y = f"{x} ({a.text})", f"{y} ({b.text})"
    running = _running(i, steps, a, b, x, y, omitted)
    if running is not None:
        pool = RUNNING
    plural = be(x) == "were"                        # "finished products ... are"
    unit = scaled(i, steps, figs) or ("", "")
    names = {"x": x, "y": y, "n": b.text, "over": over(a, b, steps, figs),
             "scale": unit[0], "unit": unit[1],
             "word": re.sub(r"^in |s$", "", unit[1]),
             "is_x": "are" if plural else "is", "be_x": "were" if plural else "was", "v": "" if plural else "s",
             "does": "do" if plural else "does",
             "a": a.text, "b": b.text, "f": running,
             "gl": "return" if steps[i].res.strip().endswith("%") else _gain(steps[i].res),
             "eq": equation(i, steps, percent=all(o.figure is not None and o.figure.unit == "%"
                                                  for o in (a, b)))}
    if pool is BASE and names["gl"] == "loss":
        names["gl"] = "change"                     # "a change of 83.66 - 100 = -16.34", never
                                                   # "a loss of" a negative
    since = what(b.figure)[1] if b.figure is not None else None
    names["since"] = f" {when(since)}" if since else ""
    m, at = what(a.figure) if a.figure is not None else (None, None)
    names.update(s=named(m) if m and at else x, at=f" {on_date(at)}" if m and at else "")
    dated = _DATED_TAIL.search(x)
    if pool is MULTIPLY and dated and y.endswith(dated.group(0)):   # the date said once, never
        when_, x0, y0 = dated.group(1), x[:dated.start()], y[:-len(dated.group(0))]  # "The
        pool = (f"{when_[:1].upper() + when_[1:]}, multiplying {x0} by {y0} gives {{eq}}.",  # options
                f"Multiplying {x0} by {y0} {when_} gives {{eq}}.")      # at January 1, 2000
                                                         # multiplied by the ... at January 1, 2000 are"
    if pool is SHARE_IN_PERIOD:                      # "In 2015, EMEA was 3122 / 408547 = 1%
        (part, p), (whole, _) = what(a.figure), what(b.figure)        # of total operating
        names.update(period=when(p)[:1].upper() + when(p)[1:], part=part, whole=whole,
                     be_part=be(part))                                # income."
    if pool in (CHANGE, CHANGE_BACK, COMBINED) and a.figure and b.figure:
        (m, pa), (_, pb) = what(a.figure), what(b.figure)
        if pool is not COMBINED and a.figure.unit == b.figure.unit == "%" \
                and "point" not in names["eq"]:
            names["eq"] += " percentage points"     # a change of two rates, not a rate
        index = bool(_INDEX_NAME.match(m or ""))       # "the S&P 500 Index moved from 63.45"
        names.update(a=amount(a, index), b=amount(b, index),      # "1.5 million"
                     reached="fell to" if steps[i].res.strip().startswith("-") else "reached",
                     m=indexed(m or ""), mt=subject(m or ""), pa=when(pa or ""), pb=when(pb or ""), be=be(m or ""),
                     the_m=with_the(m or ""),      # "Together, the service cost in ..."
                     bare_a=when(pa or "").split(" ", 1)[-1],      # "year ended ...", not
                     bare_b=when(pb or "").split(" ", 1)[-1])      # "Year ended ..."
    if pool is SHARE_OF_CHANGE:    # the base said as a level, never the measure said twice
        names["y"] = level(a, b, steps, figs) or y    # ("As a share of X in 2009, the change
                                                      # in X ...")
    texts = [re.sub(r",(?=[.,:])", "", t.format(**names)) for t in pool]   # "..., 327." ends
    if pool is BASE:                                  # "On a base of 100, the S&P 500 Index
        texts = [t for t in texts if not t.startswith("the ")] or texts      # stood at"
    two = (None if pool is RUNNING else onto_total(steps[i], x, y, names["eq"])) \
        or both_shown(i, steps, x, y, names["eq"], omitted) \
        or two_clauses(pool, x, names, draw, a.step is not None and a.step == _before(i, omitted)) \
        or (stated_second(pool, x, y, names) if b.step in omitted else None)
    if two is not None:
        texts = [two]
    elif pool is ADD and ", " in x and ", " not in y:  # a label with a comma goes last, or
        texts = [f"Adding {y} to {x} gives {names['eq']}."]   # the list reads as three items
    elif _VALUED.search(x):                           # a value inside the opening clause's
        texts = [t for t in texts if not re.match(    # subject: never "Divided by y, the
            r"(?:Divided by|Averaged over|As a share of) ", t)] or texts    # sum ..., 18658,"
    moved = index_move(i, steps, figs, names["eq"], omitted)   # the same where the gain is skipped
    if pool is BASE_PERCENT and moved:
        texts = moved
    texts = [t for t in texts if not re.match(r"Together, the (?:combined|sum)\b", t)] \
        or texts                                    # "Together, the combined ...": redundant
    texts = [SAID_TWICE.sub(r"\2", t) for t in texts]     # "rates is -1.8 / 5.3", not "rates
                                                         # (-1.8) is -1.8 / 5.3"
    opens = [t for t in texts                       # a sentence opens on a word, never on a
             if (t[0].isalpha() or t[0] in "“(")    # figure, on a bare "the total (37)" or
             and not re.match(r"the [\w-]+ \(", t)     # on what reads as a bare description
             and not pronoun_led(t[0].upper() + t[1:])]    # ("The combined contributions
                                                           # ... is"); the draw picks evenly
    if any(o.step in omitted for o in (a, b)) and (draw * 11) % 1 < .45:
        opens = [t for t in opens if not t.startswith(x)] or opens   # a skip, spread over
    text = (opens or texts)[int(draw * len(opens or texts))]        # openings
    if a.step is None and x != _label(a) and text.startswith(x) \
            and pronoun_led(text[0].upper() + text[1:]):
        text = text.removeprefix("the ")   # "Intangible assets were ...", never "Euro in 2017"
    return text[0].upper() + text[1:]


def over(a: Operand, b: Operand, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> str:
    """What an average divides by, as a count of what it counts: "3 years" where the total
    sums that many years, or the figure a line gives it by where the program writes it as a
    constant ("the total transactions of American Express (5)"), never a bare "Averaged over
    3"; the count as printed otherwise."""
    if b.figure is not None or b.step is not None:
        return b.text
    years = _periods(a, steps, figs)
    if years and all(re.fullmatch(r"(?:19|20)\d\d", y) for y in years) \
            and str(len(years)) == b.text.strip():
        return f"the {b.text.strip()} years"
    said = next((f.label() for f in figs if f is not a.figure and _number(b.text) == f.number
                 and f.label()), None)
    return with_the(said) if said else b.text      # the count shows in the equation


def level(a: Operand, b: Operand, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> str | None:
    """The base a change (operand ``a``, an earlier result) is divided by, where it is the same
    measure's figure in its first period, as an analyst names it: "the 2008 level", "the level
    at December 31, 2009" (never the label said again: "the change in S&P 500 Index ... as a
    share of S&P 500 Index in 2008"); None for any other division."""
    if a.step is None or b.figure is None or op_name(steps[a.step]) not in ("minus", "subtract"):
        return None
    m, p = what(b.figure)
    if not m or not p or topic(a.step, steps, figs) != m:
        return None
    said = when(p)
    year = said.split(" ", 1)[-1]
    if re.fullmatch(r"(?:19|20)\d\d", year):
        return f"the {year} level"
    return "the level " + re.sub(r"^for (?=(?:fiscal )?year\b)", "for the ", said)


def _before(i: int, omitted: frozenset[int]) -> int | None:
    """The step whose sentence comes just before step i's (the last shown step before it)."""
    return max((j for j in range(i) if j not in omitted), default=None)


#: the date a label ends on ("options at January 1, 2000")
_DATED_TAIL = re.compile(r" ((?:at|in|as of|on) (?:[A-Z][a-z]+ \d{1,2}, )?(?:19|20)\d\d)$")
#: a value in brackets read out again at once ("the change in rates (-1.8) is -1.8 / 5.3")
SAID_TWICE = re.compile(r" \((-?\$?[\d.,]*\d%?)\)(,? (?:is|are|was|were) \1 )")
_VALUED = re.compile(r"(.+), (-?\$?[\d.,]*\d%?),$")
_HEADS = {"minus": "difference", "subtract": "difference", "add": "sum", "divide": "ratio",
          "multiply": "product"}


def both_shown(i: int, steps: tuple[FinQAStep, ...], x: str, y: str, eq: str,
               omitted: frozenset[int]) -> str | None:
    """A step on two results the reasoning has just shown, each named by a description with
    its value, as one short sentence ("So the difference is 48224 - 41404 = 6820."), never the
    two descriptions stacked ("Taking the product of ... as 48224, less the product of ...,
    41404, it is"); None for any other step."""
    a, b = steps[i].arg1, steps[i].arg2
    shown = all(re.fullmatch(r"#\d+", o) and int(o[1:]) not in omitted for o in (a, b))
    head = _HEADS.get(op_name(steps[i]))
    if not shown or head is None or not (_VALUED.fullmatch(x) or _VALUED.fullmatch(y)):
        return None
    head = "percentage" if head == "ratio" and steps[i].res.strip().endswith("%") else head
    return f"So the {head} is {eq}."             # "The difference is": a bare description
#: a left-out sum of one measure over periods ("the combined X for 2016 and 2017, 5.8,")
_YEARS = r"(?:19|20)\d\d(?:, (?:19|20)\d\d)*(?:,? and (?:19|20)\d\d)?"
_GROUPED = r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?"                 # "362,787"
_COMBINED = re.compile(rf"the combined (?P<m>.+?) (?:for (?P<p>{_YEARS}), "
                       rf"(?P<v>{_GROUPED}|[^, ]+),|of (?P<v2>\S+) for (?P<p2>{_YEARS}))")


def onto_total(step: FinQAStep, x: str, y: str, eq: str) -> str | None:
    """A figure added to a left-out sum of its own measure, the sum named by its periods
    alone ("Adding state taxes ... in 2015 to the 2016 and 2017 total of 5.8 gives 3.0 + 5.8
    = 8.8"), never the measure said twice in one sentence; None for any other step."""
    m = _COMBINED.fullmatch(y)
    if op_name(step) != "add" or m is None or m.group("m") not in x:
        return None
    return f"Adding {x} to the {m.group('p') or m.group('p2')} total of " \
           f"{m.group('v') or m.group('v2')} gives {eq}."
# What a step does to a result the sentence before has just worked out: its value shows in
# the equation, so the result is not named or restated ("Adding the contracts gives 17627 +
# 1031 = 18658.", never "Taking the sum of ... as 17627, adding ..."); {y} the other
# operand, {n} a count.
_NEXT = {"divide": ("Dividing by {y} gives {eq}.", "Divided by {y}, that is {eq}."),
         "share": ("As a share of {y}, that is {eq}.", "As a part of {y}, that is {eq}."),
         "average": ("Averaged over {over}, that is {eq}.", "The average over {over} is {eq}."),
         "subtract": ("Subtracting {y} leaves {eq}.", "Less {y}, that leaves {eq}."),
         "add": ("Adding {y} gives {eq}.", "Adding {y} makes {eq}."),
         "multiply": ("Multiplying by {y} gives {eq}.", "Multiplied by {y}, that is {eq}."),
         "percent": ("As a percentage, that is {eq}.", "Written as a percentage, that is {eq}."),
         "points": ("That is {eq} basis points.", "That comes to {eq} basis points."),
         "as_percent": ("As a percentage, that is {eq}%.", "That is {eq}% as a percentage.")}
# What a step does to a result stated with its value but not worked out here (a skipped
# step, or one several sentences back): the result and its value first, said as a fact,
# then the step ("The combined contributions for 2012, 2013 and 2014 are 1148, so the
# average over 3 is 1148 / 3 = 382.7."); never a templated "Putting X at N, ...".
_STATED = {"divide": ("{r} {is_r} {v}, and dividing by {y} gives {eq}.",
                      "Since {r} {is_r} {v}, dividing by {y} gives {eq}."),
           "share": ("{r} {is_r} {v}, which as a share of {y} is {eq}.",
                     "Since {r} {is_r} {v}, its share of {y} is {eq}."),
           "average": ("{r} {is_r} {v}, so the average over {over} is {eq}.",
                       "Since {r} {is_r} {v}, the average over {over} is {eq}."),
           "subtract": ("{r} {is_r} {v}, and subtracting {y} leaves {eq}.",
                        "Since {r} {is_r} {v}, subtracting {y} leaves {eq}."),
           "add": ("{r} {is_r} {v}, and adding {y} gives {eq}.",
                   "Since {r} {is_r} {v}, adding {y} gives {eq}."),
           "multiply": ("{r} {is_r} {v}, and multiplying by {y} gives {eq}.",
                        "Since {r} {is_r} {v}, multiplying by {y} gives {eq}."),
           "percent": ("{r} {is_r} {v}, or {eq} as a percentage.",
                       "Since {r} {is_r} {v}, as a percentage that is {eq}."),
           "points": ("{r} {is_r} {pts}, or {eq} basis points.",
                      "Since {r} {is_r} {pts}, that is {eq} basis points."),
           "as_percent": ("{r} {is_r} {v}, or {eq}% as a percentage.",
                          "{r} {is_r} {v}, which is {eq}%.")}


# The same where the left-out result is the second operand: stated first, never set off by
# commas inside the step ("Subtracting the product of ..., 350.09, from the product in 2017").
_STATED_SECOND = {"subtract": "Since {r} {is_r} {v}, taking it from {x} leaves {eq}.",
                  "divide": "Since {r} {is_r} {v}, dividing {x} by it gives {eq}.",
                  "add": "Since {r} {is_r} {v}, adding {x} gives {eq}.",
                  "multiply": "Since {r} {is_r} {v}, multiplying it by {x} gives {eq}."}


def stated_second(pool: tuple[str, ...], x: str, y: str, names: dict[str, str]) -> str | None:
    """A step whose second operand, not its first, is a result stated with its value (a
    skipped step) as ``_STATED_SECOND`` says it; None for any other step."""
    m = _VALUED.fullmatch(y)
    kind = {id(DIVIDE): "divide", id(SUBTRACT): "subtract", id(ADD): "add",
            id(MULTIPLY): "multiply"}.get(id(pool))
    if m is None or kind is None or _VALUED.fullmatch(x):
        return None
    said, value = m.groups()
    return _STATED_SECOND[kind].format(**{**names, "r": said, "v": value,
                                          "is_r": "are" if be(said.split(",")[0]) == "were"
                                          else "is"})


def two_clauses(pool: tuple[str, ...], x: str, names: dict[str, str], draw: float,
                just_shown: bool = False) -> str | None:
    """A step whose first operand is a result described with its value ("the sum of A and B,
    18658,"): where the sentence before has just worked it out (``just_shown``), only what
    the step does to it (``_NEXT``: "Dividing by total assets acquired gives 18658 / 19427 =
    96%."); otherwise the result stated with its value, then the step (``_STATED``), never the
    description stacked inside another clause ("Divided by total assets acquired, the sum of
    ..., 18658, comes to") nor a templated "Putting/Using/With/Taking X at N, ...";
    ``draw`` picks the phrasing. None for any other step."""
    m = _VALUED.fullmatch(x)
    kind = {id(DIVIDE): "divide", id(SHARE): "share", id(SHARE_OF_CHANGE): "share",
            id(SHARE_IN_PERIOD): "share", id(AVERAGE): "average", id(SUBTRACT): "subtract",
            id(ADD): "add", id(MULTIPLY): "multiply", id(PERCENT): "percent",
            id(IN_POINTS): "points", id(AS_PERCENT): "as_percent"}.get(id(pool))
    if kind is None or m is None and not (just_shown and pool in (PERCENT, IN_POINTS, AS_PERCENT)):
        return None                     # a rescaling of the result just shown: what it does
    said, value = m.groups() if m else (x, "")                         # to it ("the ratio for
    pool_ = _NEXT if just_shown else _STATED          # gain on land sales is -0.446 × 100")
    fill = {**names, "r": said, "v": value, "pts": re.sub(r"%$", "", value) + " percentage points",
            "is_r": "are" if be(said.split(",")[0]) == "were" else "is"}
    texts = [t.format(**fill) for t in pool_[kind]]
    texts = [t[0].upper() + t[1:] for t in texts]
    texts = [t for t in texts if not pronoun_led(t)] or texts   # not "The combined
    text = texts[int((draw * 17) % 1 * len(texts))]              # contributions ... are"
    return re.sub(r",(?=[.,:;])", "", text)


def step_sentences(steps: tuple[FinQAStep, ...], figs: list[Figure], r: random.Random,
                   omitted: frozenset[int] = frozenset()) -> tuple[str, ...]:
    """One sentence per step not in ``omitted``, each phrasing drawn in step order (one draw
    per step, the left-out ones too)."""
    draws = [r.random() for _ in steps]
    out = {i: step_sentence(i, steps, figs, u, omitted) for i, u in enumerate(draws)
           if i not in omitted}
    for i in list(out):
        tail = rescaled_tail(i, steps, figs)
        if tail and i - 1 in out:                     # "... = 29889860, or $29.9 million."
            out[i - 1] = out[i - 1].removesuffix(".") + tail
            del out[i]
    return tuple(out.values())


def rescaled_tail(i: int, steps: tuple[FinQAStep, ...], figs: list[Figure]) -> str | None:
    """Step i as an analyst adds a change of unit to the result it rescales, step i-1's
    (", or $29.9 million."), not as a sentence of its own ("The product (29889860) is
    29889860 / 1000000 = 29.9 in millions."); None where step i rescales no result before it."""
    a, b = operands(i, steps, figs)
    unit = scaled(i, steps, figs)
    if op_name(steps[i]) != "divide" or not b.const or a.step != i - 1 or not unit \
            or unit[1] == "in full":
        return None
    money = any(o.figure is not None and o.figure.unit == "$" for o in operands(i - 1, steps, figs))
    res = steps[i].res.strip()
    shown = (f"-${res[1:]}" if res.startswith("-") else f"${res}") if money else res
    return f", or {shown} {re.sub(r'^in |s$', '', unit[1])}."
