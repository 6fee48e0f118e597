"""FinQA gold programs a careful reader stops at: each rule names a way a record's program
reads as a miscalculation, or as the answer to another question, even where it reproduces its
printed answer.

Blind readers stopped at "56345 / 38957 = 145%" (the base was -38,957), "1042661 - 170.8"
(thousands minus millions), "40678 - 2526 = 38152" given as operating expenses (revenue minus
net income), a percentage question answered by a difference and the reverse, an answer the
program's result does not round to, per-share figures from figures that do not go together,
"3122 / 408547 = 1%" (0.76%), "assuming no impact from" answered by adding the impacts, "plus
euro" where the euro is (372), a question about one index answered from another, a return
against a base of 100 no line gives, "179.33 - 110.41 = 68.92%", "932 × 0.44 = 410.08" (a rate
of 0.44 percent), "139549 / 1000" (a balance no line gives a unit for) and assets divided by
the yield earned on them. ``gold_problem`` says
which rule a record breaks; ``finqa_check`` rejects it, and the manifest counts the rejects by
these reasons.
"""
from __future__ import annotations

import re

from tjb_lib.data import FinQAItem
from tjb_lib.pairs.filing import NUMBER, Figure, figures, is_period, period_years
from tjb_lib.pairs.finqa_voice import Operand, arg_text, op_name, operands, unit_asked

SIGN = "a sign dropped"
SCALE = "thousands set against millions"
EXPENSES = "revenue or assets less net income read as expenses"
PERCENT_AS_DIFFERENCE = "a percentage question answered by a difference"
DIFFERENCE_AS_PERCENT = "a difference question answered as a percentage"
ROUNDING = "the answer does not round from the program's result"
YEAR = "the program skips the first year the question asks"
PRICE = "a share price from unrelated figures"
PER_SHARE = "a per-share figure divided by no share count"
BELOW_ONE = "a share below 1% printed as a whole percent"
REMOVED_BY_ADDING = "a question that takes figures out answered by adding them"
SIGN_FLIPPED = "a figure read with the sign opposite to its line"
ROW_UNREAD = "a row the question names left unread"
BASE_UNSHOWN = "a base of 100 no line gives"
POINTS_AS_PERCENT = "a difference of figures given as a percentage"
CHANGE_ON_LATER = "a change divided by its later year"
VESTED = "a vested price used for a non-vested balance"
RANGE = "a range read as a change"
BARE_MONEY = "a money answer no line gives a unit for"
PERCENT_AS_NUMBER = "a percent multiplied as a whole number"
RESCALED_UNSTATED = "a figure rescaled from a unit no line gives"
OWN_RATE = "a figure divided by a rate on itself"
NEGATIVE_BASE = "a change divided by a negative base"
RATIO_AS_DIFFERENCE = "a how-much-greater question answered by a ratio"
#: every reason ``gold_problem`` gives, in the order it checks them
REASONS = (SIGN, SCALE, EXPENSES, PERCENT_AS_DIFFERENCE, DIFFERENCE_AS_PERCENT, ROUNDING, YEAR,
           PRICE, PER_SHARE, BELOW_ONE, SIGN_FLIPPED, REMOVED_BY_ADDING, ROW_UNREAD,
           BASE_UNSHOWN, POINTS_AS_PERCENT, CHANGE_ON_LATER, VESTED, RANGE, BARE_MONEY,
           PERCENT_AS_NUMBER, RESCALED_UNSTATED, OWN_RATE, NEGATIVE_BASE, RATIO_AS_DIFFERENCE)

_SCALES = {"thousand": 1e3, "thousands": 1e3, "million": 1e6, "millions": 1e6, "billion": 1e9,
           "billions": 1e9}
_PERCENT_Q = re.compile(r"\b(?:percent\w*|rate|ratio|portion|proportion|fraction|share of|"
                        r"margin|yield|roi|returns?|how many times|times)\b", re.I)
_STATED_PERCENT = re.compile(r"\d\s?%(?:\s?\(\s?\d+\s?%\s?\))?")      # "a 2% ( 2 % ) increase"
_DIFFERENCE_Q = re.compile(r"\b(?:difference|change|increase|decrease|decline|reduction|"
                           r"variation|range|how much (?:more|less|greater|higher|lower)|"
                           r"by how much|outperform\w*)\b", re.I)
_PERCENT_CHANGE_Q = re.compile(r"\b(?:percent\w*|rate)\s(?:of\s(?:the\s)?)?(?:change|increase|"
                               r"decrease|growth|decline|reduction)\b|\bgrowth rate\b", re.I)
_CHANGE = re.compile(r"\b(?:change|increase|decrease|decline|reduction|growth)\b", re.I)
_REVENUE = re.compile(r"\b(?:revenues?|sales|assets)\b", re.I)
_NET_INCOME = re.compile(r"\bnet (?:interest )?(?:income|earnings|loss|profit)|\bprofit\b", re.I)
_EXPENSE_Q = re.compile(r"\b(?:expenses?|costs?)\b", re.I)
_PRICE_Q = re.compile(r"\b(?:share|stock) price|\bprice (?:per|of each) share|\baverage price\b|"
                      r"\bcost per share\b", re.I)
_PER_SHARE_Q = re.compile(r"\bper (?:[\w-]+ ){0,4}share\b", re.I)
_SHARES = re.compile(r"\bshares?\b|\bstock\b|\bunits\b|\boptions\b", re.I)
_REMOVED_Q = re.compile(r"\b(?:no impact|without|excluding|taking out|exclusive of)\b", re.I)
_ADD_BACK = re.compile(r"\b(?:charges?|settlements?|loss(?:es)?|expenses?|costs?|payments?|"
                       r"impairments?)\b", re.I)
_MONEY_Q = re.compile(r"\b(?:cost|price|paid|proceeds|purchase|value|expenses?|revenues?|income|"
                       r"earnings|liabilit\w*|balance|equity|assets|contributions|amortization|"
                       r"accrual|impact|exposure|tax positions|money|dollars?)\b", re.I)
_COUNT_Q = re.compile(r"\b(?:ratio|times|basis points|how many shares|per transaction|guests|"
                      r"return|index|rate|percent\w*|per (?:common )?share)\b", re.I)
_MONEY_WORDS = re.compile(r"\b(?:cost|price|paid|proceeds|purchase|value|consideration)\b", re.I)


def _name(fig: Figure) -> str:
    """Everything a figure's line says it is: its row and column, or its clause's name."""
    return " ".join(filter(None, (fig.row, fig.col, fig.name, fig.quote)))


def _scale(fig: Figure, line: str) -> float | None:
    """The unit a figure is stated in (1e3, 1e6, 1e9): the word after it in its sentence, or
    the "( in millions )" its table row carries; None where the line does not say."""
    if fig.quote is not None:
        m = re.search(re.escape(fig.printed.lstrip("-")) + r"\s?(thousand|million|billion)s?\b",
                      fig.quote, re.I)
        return _SCALES[m.group(1).lower()] if m else None
    found = {_SCALES[w.lower()] for w in re.findall(r"\bin (thousands|millions|billions)\b",
                                                    line, re.I)}
    return found.pop() if len(found) == 1 else None


def stated_unit(item: FinQAItem) -> str | None:
    """The unit a sum, difference or average of money keeps ("$498 million", "$382.7
    million" for contributions of $385, $383 and $380 million over 3), where every figure the
    program reads states the same scale ("(in millions)", "$358 million"); None otherwise (a
    ratio, a count, a scale no line gives)."""
    if not all(op_name(st) in ("add", "minus", "subtract") or _averaging(st)
               for st in item.steps) or item.answer.strip().endswith("%"):
        return None
    read = [o.figure for _, a, b in _steps(item) for o in (a, b)
            if not o.const and o.step is None]
    if not read or any(f is None for f in read):
        return None
    head = " ".join(item.table[0]) if item.table else ""     # the table's own unit note
    scales = {_scale(f, item.gold_inds[f.line][1] + ("" if f.quote is not None else f" {head}"))
              for f in read}
    if len(scales) != 1 or None in scales:
        return None
    word = {1e3: "thousand", 1e6: "million", 1e9: "billion"}[scales.pop()]
    return f"$ {word}" if all(f.unit == "$" for f in read) else word


def _averaging(st) -> bool:
    """A division by a count the program states ("const_3"), not by a figure or a scale."""
    return (op_name(st) == "divide" and st.arg2.startswith("const_")
            and st.arg2.removeprefix("const_") not in ("100", "1000", "1000000"))


def money_unit(item: FinQAItem) -> str | None:
    """The unit a money answer keeps where no scale word fits ("$" for a product of shares and
    a price printed "$43.89"): every figure the program reads is a count or printed with "$",
    at least one with "$", the answer is no ratio, and the program rescales nothing; or the
    scale ``stated_unit`` gives. None: the lines do not say."""
    unit = stated_unit(item)
    if unit is not None or item.answer.strip().endswith("%"):
        return unit
    steps = _steps(item)
    if any(op == "divide" and b.figure is not None for op, _, b in steps) \
            or any(op == "multiply" and (a.const or b.const) for op, a, b in steps):
        return None                                   # a ratio, or a rescaled figure
    read = [o.figure for _, a, b in steps for o in (a, b) if not o.const and o.step is None]
    if not read or any(f is None for f in read) or not any(f.unit == "$" for f in read):
        return None
    return "$" if all(f.unit in ("$", "") for f in read) else None


def bare_money(item: FinQAItem) -> bool:
    """A money question ("how much did the repurchases cost", "the net change in unpaid
    restructuring liabilities") whose answer no line gives a unit for: "Answer: 35000000"
    reads as a figure of nothing."""
    if item.answer.strip().endswith("%") or money_unit(item) is not None \
            or not re.fullmatch(r"-?[\d,.]+", item.answer.strip()) \
            or unit_asked(item.question) is not None:         # "719.7 per share" is written
        return False
    return bool(_MONEY_Q.search(item.question)) and not _COUNT_Q.search(item.question)


def change_on_later(item: FinQAItem) -> bool:
    """A change between two years divided by the later year's figure ("(2013 - 2012) / 2013"):
    a percent change reads against the earlier year."""
    if not _PERCENT_CHANGE_Q.search(item.question):
        return False
    for op, a, b in _steps(item):
        if op != "divide" or a.step is None or b.figure is None \
                or op_name(item.steps[a.step]) not in ("minus", "subtract"):
            continue
        x, y = operands(a.step, item.steps, figures(item.gold_inds, item.table))
        if x.figure is None or y.figure is None:
            continue
        yx, yy = _years_of(x.figure), _years_of(y.figure)
        if not yx or not yy or max(yx) == max(yy):
            continue
        later = x if max(yx) > max(yy) else y
        if b.figure.number == later.figure.number and b.figure.number != (
                y if later is x else x).figure.number:
            return True
    return False


def vested_for_nonvested(item: FinQAItem) -> bool:
    """A product that sets a non-vested balance against the price of vested shares (or the
    reverse): the value of one class of shares at another's price."""
    for op, a, b in _steps(item):
        if op != "multiply" or a.figure is None or b.figure is None:
            continue
        said = [_name(o.figure).lower() for o in (a, b)]
        non = [bool(re.search(r"\b(?:non-?|un)vested\b", t)) for t in said]
        vested = [bool(re.search(r"(?<![-\w])vested\b", t)) for t in said]
        if non[0] != non[1] and any(v and not n for v, n in zip(vested, non)):
            return True
    return False


def range_as_change(item: FinQAItem) -> bool:
    """A range question answered by the change between the first and last year where a year
    between holds the highest or lowest figure of the row: the range is max less min."""
    if not re.search(r"\brange\b", item.question, re.I):
        return False
    figs = figures(item.gold_inds, item.table)
    for op, a, b in _steps(item):
        if op not in ("minus", "subtract") or a.figure is None or b.figure is None \
                or a.figure.line != b.figure.line:
            continue
        row = [f.number for f in figs if f.line == a.figure.line and f.row == a.figure.row
               and f.unit != "%"]
        if {a.figure.number, b.figure.number} != {max(row), min(row)}:
            return True
    return False


def _steps(item: FinQAItem) -> list[tuple[str, Operand, Operand]]:
    figs = figures(item.gold_inds, item.table)
    return [(op_name(st), *operands(i, item.steps, figs)) for i, st in enumerate(item.steps)]


def sign_dropped(item: FinQAItem, values: list[float | str]) -> bool:
    """Does the program read one magnitude with both signs ("17388 - (-38957)", then "/
    38957"), or an earlier negative result as positive ("16 - 73 = -57", then "57 / 73")?"""
    read = [x for st in item.steps for arg in (st.arg1, st.arg2)
            if not re.fullmatch(r"#\d+", arg) and not arg.startswith("const_")
            for x in [_value(arg_text(arg, item.steps))] if x]
    results = [v for st, v in zip(item.steps, values) if isinstance(v, float) and v
               and "const_m1" not in (st.arg1, st.arg2)]        # not a sign the program restores
    return any(-x in read for x in read) or any(-x in results for x in read if x > 0)


def _value(text: str) -> float | None:
    m = NUMBER.search(text.replace("$", "").replace("%", ""))
    return float(m.group(0).replace(",", "")) if m else None


def scale_clash(item: FinQAItem) -> bool:
    """Does a sum or difference set a figure stated in one unit against one stated in another
    (thousands less millions), or, where one line does not say, against a figure a thousand
    times its size stated in millions?"""
    for op, a, b in _steps(item):
        if op not in ("add", "minus", "subtract") or a.figure is None or b.figure is None:
            continue
        sa, sb = (_scale(o.figure, item.gold_inds[o.figure.line][1]) for o in (a, b))
        if sa and sb and sa != sb:
            return True
        big, small = sorted((abs(a.figure.number), abs(b.figure.number)), reverse=True)
        if (sa is None) != (sb is None) and small and big / small >= 1000:
            return True
    return False


def expenses_from_net_income(item: FinQAItem) -> bool:
    """Does the program take net income from revenue and answer a question about expenses or
    costs (the difference also holds taxes and other items), or net interest income from the
    assets that earn it ("expenses associated with liabilities", 2,180,592 - 51,410)?"""
    if not _EXPENSE_Q.search(item.question):
        return False
    for op, a, b in _steps(item):
        if op in ("minus", "subtract") and a.figure is not None and b.figure is not None \
                and _REVENUE.search(_name(a.figure)) and _NET_INCOME.search(_name(b.figure)):
            return True
    return False


def _percent_figures(item: FinQAItem) -> bool:
    """Are the figures the program reads already percentages or rates ("35.0%", a 2.5% yield)?"""
    for _, a, b in _steps(item):
        for o in (a, b):
            if o.text.endswith("%") or (o.figure is not None and o.figure.unit == "%"):
                return True
    return False


def _ratio_program(item: FinQAItem) -> bool:
    """Does the program divide by a figure or a result (not by a count or a scale it states)?"""
    return any(op_name(st) == "divide" and not st.arg2.startswith("const_") for st in item.steps)


def _question(item: FinQAItem) -> str:
    """The question without the percentages it states ("for a 2% ( 2 % ) increase in rates")."""
    return _STATED_PERCENT.sub(" ", item.question)


def _index_base(item: FinQAItem) -> bool:
    """Does the program subtract a base of 100 (a cumulative-return index, read in points)?"""
    return any(op_name(st) in ("minus", "subtract") and _value(arg_text(st.arg2, item.steps)) == 100
               for st in item.steps)


def percent_as_difference(item: FinQAItem) -> bool:
    """A question that asks a percentage, share, ratio or return, answered by a sum or
    difference of figures that are not percentages themselves (nothing divided; a return read
    off a 100-based index, or a difference of two returns, is a difference in points)."""
    q = _question(item)
    if not _PERCENT_Q.search(q) or re.search(r"basis points", q, re.I) or _index_base(item):
        return False
    if re.search(r"\breturns?\b", q, re.I) and _DIFFERENCE_Q.search(q) and not re.search(
            r"\b(?:percent\w*|rate|ratio|portion|proportion)\b", q, re.I):
        return False
    return (op_name(item.steps[-1]) in ("add", "minus", "subtract") and not _ratio_program(item)
            and not any(op_name(st) in ("multiply", "exp") for st in item.steps)
            and not _percent_figures(item))


def difference_as_percent(item: FinQAItem) -> bool:
    """A question that asks a difference or change and names no percentage, rate or ratio,
    answered by a ratio (a percentage change); or a percentage change answered by the ratio
    of two figures with no change computed or read."""
    q = _question(item)
    last = item.steps[-1]
    if _DIFFERENCE_Q.search(q) and not _PERCENT_Q.search(q) and not re.search(r"\bgrowth\b", q):
        return _ratio_program(item) and (op_name(last) == "divide" or last.arg2 == "const_1")
    if _PERCENT_CHANGE_Q.search(q) and all(op_name(st) == "divide" for st in item.steps):
        read = [o.figure for _, a, b in _steps(item) for o in (a, b) if o.figure is not None]
        return not any(_CHANGE.search(_name(f)) for f in read)
    return False


def rounds_to(shown: str, value: float | str) -> bool:
    """Does the printed answer ("145%", "7.22", ".385") state ``value`` rounded to its printed
    decimals (a ratio may print as a percentage)?"""
    if isinstance(value, str):
        return shown.strip().lower() == value
    m = NUMBER.search(shown.replace("$", "").replace(" ", ""))
    if not m:
        return False
    x = float(m.group(0).replace(",", ""))
    decimals = len(m.group(0).split(".")[1]) if "." in m.group(0) else 0
    tol = 0.5 * 10 ** -decimals * (1 + 1e-6) + 1e-9
    return any(abs(x - v) <= tol for v in (value, value * 100))


def first_year_skipped(item: FinQAItem) -> bool:
    """Does a question over a span of two years ("from 2005 to 2007", "between 2011 and 2012")
    read figures of the last year but none of the first (the change from 2005 to 2007
    computed from 2006 and 2007), by the figures' row and column headers or their sentences?
    A base of 100 (a cumulative-return index) stands for the first year."""
    asked = _question_years(item.question)
    read = [o.figure for _, a, b in _steps(item) for o in (a, b) if o.figure is not None]
    years = [_years_of(f) for f in read]
    if len(asked) != 2 or not read or any(not y for y in years) or _index_base(item) \
            or not re.search(r"\b(?:from|between)\b.*\b(?:to|and|through)\b", item.question):
        return False
    used = set().union(*years)
    return min(asked) not in used and max(asked) in used


def _question_years(question: str) -> set[int]:
    return period_years(question) | period_years(" ".join(
        re.findall(r"\d\d?/\d\d?/\d\d\b", question)))


def _years_of(fig: Figure) -> set[int]:
    """The years a figure's headers name (a table cell), or its sentence's year."""
    if fig.quote is not None:
        return {fig.year} if fig.year else set()
    return period_years(" ".join(filter(None, (fig.row, fig.col))))


def price_from_unrelated(item: FinQAItem) -> bool:
    """A share price or cost per share from a division whose figures come from different
    sentences or table rows, or whose dividend is no cost, price or value (an expense divided
    by a share count)."""
    q = item.question
    if not _PRICE_Q.search(q) or _CHANGE.search(q) or re.search(r"performance", q, re.I) \
            or op_name(item.steps[-1]) != "divide" or item.answer.strip().endswith("%"):
        return False
    for op, a, b in _steps(item):
        if op != "divide":
            continue
        src = a.figure or (_origin(item, a.step) if a.step is not None else None)
        if src is None or b.figure is None:
            continue
        apart = src.line != b.figure.line if src.quote is not None else \
            (src.row != b.figure.row and src.col != b.figure.col)
        if apart or not _MONEY_WORDS.search(_name(src)):
            return True
    return False


def _origin(item: FinQAItem, k: int) -> Figure | None:
    _, a, b = _steps(item)[k]
    return a.figure or b.figure


def per_share_without_shares(item: FinQAItem) -> bool:
    """A per-share question whose program divides by a figure that is not a share count (and
    not a per-share figure itself): "156.6 / 17.3", shares by dollars."""
    if not _PER_SHARE_Q.search(item.question):
        return False
    for op, a, b in _steps(item):
        if op == "divide" and a.figure is not None and b.figure is not None \
                and not _SHARES.search(_name(b.figure)):
            return True
    return False


def below_one_percent(item: FinQAItem, values: list[float | str]) -> bool:
    """A whole-percent answer for a share below 1% ("3122 / 408547 = 1%", 0.76%): the
    rounding reads as a miscalculation."""
    last = values[-1] if values else None
    return (isinstance(last, float) and re.fullmatch(r"-?\d+%", item.answer.strip()) is not None
            and 0 < abs(last * 100 if abs(last) < 1 else last) < 1)


def removed_by_adding(item: FinQAItem) -> bool:
    """A question that takes figures out ("assuming no impact from ...") answered by a program
    that only adds them, where they are no charge or loss to add back: the step reads as the
    opposite of what was asked."""
    return (bool(_REMOVED_Q.search(item.question)) and not _ADD_BACK.search(item.question)
            and all(op_name(st) == "add" for st in item.steps))


def sign_flipped(item: FinQAItem) -> bool:
    """A sum that reads one figure its line prints negative with its sign and another without
    ("plus euro", -677 + 372, where the euro is (372)): the step reads as a sign error."""
    for op, a, b in _steps(item):
        xa, xb = _value(a.text), _value(b.text)
        if op != "add" or xa is None or xb is None:
            continue
        for (x, o), (y, _) in (((xa, a), (xb, b)), ((xb, b), (xa, a))):
            if o.figure is not None and o.figure.number < 0 < x and y < 0:
                return True
    return False


def row_unread(item: FinQAItem) -> bool:
    """A question that names a table row ("the dj us containers & packaging index") which the
    program never reads, while it reads a row the question does not name (the S&P 500)."""
    q = " ".join(re.findall(r"[a-z0-9&]+", item.question.lower()))
    figs = figures(item.gold_inds, item.table)
    rows = {f.row.lower() for f in figs if f.row and not is_period(f.row)}
    named = {r for r in rows if len(r) > 3
             and " ".join(re.findall(r"[a-z0-9&]+", r)) in q}
    read = {o.figure.row.lower() for _, a, b in _steps(item) for o in (a, b)
            if o.figure is not None and o.figure.row}
    return bool(named - read) and bool(read - named)


def base_row(item: FinQAItem) -> int | None:
    """The printed table row that sets every series to 100 (a cumulative-return table's first
    date), where the program reads a figure against a base of 100 that the gold lines do not
    give: shown, the base is the filing's, not the reader's to assume."""
    if not _index_base(item):
        return None
    for n, row in enumerate(item.table[1:], start=1):
        cells = [c for c in row[1:] if re.search(r"\d", c)]
        if cells and all(re.fullmatch(r"\$?\s?100(?:\.0+)?", c.strip()) for c in cells):
            return n
    return None


def base_unshown(item: FinQAItem) -> bool:
    """A figure read against a base of 100 that neither its gold lines nor a printed row of
    its table gives (the table starts a year after the base): the base is assumed, not read."""
    if not _index_base(item) or base_row(item) is not None:
        return False
    return not any(f.number == 100 for f in figures(item.gold_inds, item.table))


def points_as_percent(item: FinQAItem) -> bool:
    """A difference of two figures that are no percentages printed as one ("179.33 - 110.41 =
    68.92%", two index values)."""
    op, a, b = _steps(item)[-1]
    return (op in ("minus", "subtract") and item.answer.strip().endswith("%")
            and all(o.figure is not None and o.figure.unit != "%" for o in (a, b)))


def percent_as_number(item: FinQAItem) -> bool:
    """A product that multiplies by a figure its line gives as a percent ("a rate of 0.44
    percent", "932 × 0.44 = 410.08") where no step divides by 100 and the answer is no
    percentage: the percent read as a whole number reads as a miscalculation."""
    if item.answer.strip().endswith("%") or any(
            op_name(st) == "divide" and _value(arg_text(st.arg2, item.steps)) == 100
            for st in item.steps):
        return False
    return any(op == "multiply" and any(o.figure is not None and o.figure.unit == "%"
                                        for o in (a, b))
               and not any(o.const for o in (a, b))
               for op, a, b in _steps(item))


def rescaled_unstated(item: FinQAItem) -> bool:
    """A figure read from a line that the program divides or multiplies by 1,000 or 1,000,000
    while no line states the unit it is in ("139549 / 1000" for a table with no unit note):
    whatever unit the result is given in, the lines do not bear it out."""
    for op, a, b in _steps(item):
        if op not in ("divide", "multiply"):
            continue
        scale, fig = (b, a) if b.const else (a, b)
        if scale.const and scale.text in ("1000", "1000000") and fig.figure is not None \
                and _scale(fig.figure, item.gold_inds[fig.figure.line][1]) is None:
            return True
    return False


def divided_by_own_rate(item: FinQAItem) -> bool:
    """A figure divided by a rate earned on that same figure ("average interest-earning assets
    × 100 / the net interest yield on average interest-earning assets"): the quotient is no
    amount the filing could hold (89,167,520 million of assets)."""
    if item.answer.strip().endswith("%"):
        return False
    for op, a, b in _steps(item):
        src = a.figure or (_origin(item, a.step) if a.step is not None else None)
        if op != "divide" or src is None or b.figure is None or b.figure.unit != "%" \
                or src.unit == "%":
            continue
        own = (src.row or src.name or "").lower()
        if own and own in _name(b.figure).lower():
            return True
    return False


def negative_base(item: FinQAItem) -> bool:
    """A change divided by a negative figure ("-57 - (-41) = -16", then "-16 / (-41) = 39.0%"
    for how much a charge "increased"): the sign of the percentage reads against the move."""
    return any(op == "divide" and a.step is not None
               and op_name(item.steps[a.step]) in ("minus", "subtract")
               and (_value(b.text) or 0) < 0 for op, a, b in _steps(item))


_HOW_MUCH_Q = re.compile(r"\bhow much (?:more|less|greater|higher|lower|larger|smaller)\b", re.I)


def ratio_as_difference(item: FinQAItem) -> bool:
    """A question that asks how much greater one figure is than another, answered by their
    ratio with no difference computed ("207.62 / 97.13 = 213.8%" for how much greater Ball's
    return was than the S&P 500's): the working answers another question."""
    return bool(_HOW_MUCH_Q.search(item.question)) and op_name(item.steps[-1]) == "divide" \
        and not any(op_name(st) in ("minus", "subtract") for st in item.steps)


def gold_problem(item: FinQAItem, values: list[float | str]) -> str | None:
    """The first rule the record's gold program breaks (None: a careful reader reads it as a
    sound answer to its question). ``values``: every step's recomputed result."""
    checks = ((SIGN, lambda: sign_dropped(item, values)), (SCALE, lambda: scale_clash(item)),
              (EXPENSES, lambda: expenses_from_net_income(item)),
              (PERCENT_AS_DIFFERENCE, lambda: percent_as_difference(item)),
              (DIFFERENCE_AS_PERCENT, lambda: difference_as_percent(item)),
              (ROUNDING, lambda: not rounds_to(item.answer, values[-1])),
              (YEAR, lambda: first_year_skipped(item)),
              (PRICE, lambda: price_from_unrelated(item)),
              (PER_SHARE, lambda: per_share_without_shares(item)),
              (BELOW_ONE, lambda: below_one_percent(item, values)),
              (SIGN_FLIPPED, lambda: sign_flipped(item)),
              (REMOVED_BY_ADDING, lambda: removed_by_adding(item)),
              (ROW_UNREAD, lambda: row_unread(item)),
              (BASE_UNSHOWN, lambda: base_unshown(item)),
              (POINTS_AS_PERCENT, lambda: points_as_percent(item)),
              (CHANGE_ON_LATER, lambda: change_on_later(item)),
              (VESTED, lambda: vested_for_nonvested(item)),
              (RANGE, lambda: range_as_change(item)),
              (BARE_MONEY, lambda: bare_money(item)),
              (PERCENT_AS_NUMBER, lambda: percent_as_number(item)),
              (RESCALED_UNSTATED, lambda: rescaled_unstated(item)),
              (OWN_RATE, lambda: divided_by_own_rate(item)),
              (NEGATIVE_BASE, lambda: negative_base(item)),
              (RATIO_AS_DIFFERENCE, lambda: ratio_as_difference(item)))
    return next((why for why, broken in checks if broken()), None)
