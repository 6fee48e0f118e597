"""Audit rules for what the blind readers of 6 December stopped at in FinQA candidates, each
with a budget of 0: what an analyst would not write.

Money without its sign or its separators ("Answer: 3138 million", "$643822.41"); a loss
given as a negative number ("its loss of -16.34") or index points called a percent ("a loss
of 89.27 - 100 = -10.73%"); a difference of two percentages in percent, not percentage
points ("26.8% - 21.9% = 4.9%"); an index level stated twice ("LKQ Corporation stood at 204
... LKQ Corporation stood at 204 ...") or a gain named "from 100 (10.78)"; a capital a table
printed inside lower-case words ("interest rate Collar", "total Pilots") or a lower-case word
inside a name ("Dow jones Transportation Average"); a change from a later year to an earlier
one ("from 2011 to 2007"); and a share rounded to a whole percent where one decimal shows
more ("17.7 / 488.8 = 4%"); a money answer with no scale where its figures have one
("$223,990" from a table in thousands) or money per share with no "$" ("Answer: 1.56"); a result a step computes reprinted rounded where a later step
reuses it ("= 203.9%", then "204% × 8.75"); a running total that names its measure again
("Adding basic net income ... in 2005 and the combined basic net income ... for 2006 and
2007, 362787, gives"); a quarter named as a part of its measure ("The 3rd Qtr of net
earnings").
"""
from __future__ import annotations

import collections
import re

from tjb_lib.pairs.filing import LOWER_IN_NAME, STRAY_CAPITAL
from tjb_lib.pairs.finqa_voice import COUNTED, PER_SHARE_MONEY, repeated_runs, unit_asked

_SCALED = re.compile(r"-?[\d,.]+ (?:thousand|million|billion)")
_LOSS = re.compile(r"\bloss of -\d|\bloss of [\d.]+ - [\d.]+ = -|\b(?:loss|gain) of -?[\d.]+ - 100(?:\.0+)? = -?[\d.]+%")
_POINTS = re.compile(r"-?[\d.]+% - \(?-?[\d.]+%\)? = -?[\d.]+%")
_LEVEL = re.compile(r"\bat (\d[\d.]*)(?![\d/.-])")
_SENTENCE = re.compile(r"(?<=\.)\s+(?=[A-Z])")
_YEARS = re.compile(r"\bfrom ((?:19|20)\d\d) to ((?:19|20)\d\d)\b")
_SHARE = re.compile(r"(?<![\d.])(-?[\d.]+) / (-?[\d.]+) = (-?\d+)%")
_RESULT = re.compile(r"= (-?\d[\d,]*\.\d+)(%?)")
_FIGURE = re.compile(r"(?<![\w.,])(-?\d[\d,]*(?:\.\d+)?)(%?)(?![\d,]*\.?\d)")


def unsigned_money(question: str, answer: str) -> list[str]:
    """A money answer with a scale word but no "$" (its question counts no shares or
    awards), or one whose thousands are not separated ("$643822.41")."""
    a = answer.strip()
    found = [a] if _SCALED.fullmatch(a) and not COUNTED.search(question) else []
    return found + re.findall(r"\$\d{4,}", a)


def unscaled_money(answer: str, evidence: str) -> list[str]:
    """A money answer with no scale ("$223,990") where the evidence gives its figures one
    ("(in thousands)")."""
    a = answer.strip()
    scaled = re.search(r"\(in (?:thousands|millions|billions)\)", evidence)
    return [a] if scaled and re.fullmatch(r"-?\$[\d,]+(?:\.\d+)?", a) else []


def bare_per_share(question: str, answer: str) -> list[str]:
    """Money per share answered by a bare number ("Answer: 1.56" for a net income per common
    share): no "$", no "per share"."""
    a = answer.strip()
    asked = unit_asked(question) == "per share" and PER_SHARE_MONEY.search(question)
    return [a] if asked and re.fullmatch(r"-?[\d,]*\.?\d+", a) else []


def negative_loss(reasoning: str) -> list[str]:
    """A loss given as a negative number (also as the working that gives one: "a loss of
    83.66 - 100 = -16.34"), or an index's points less its base called a percent."""
    return [m.group(0) for m in _LOSS.finditer(reasoning)]


def points_as_percent(reasoning: str) -> list[str]:
    """A difference of two percentages printed as a percent, not percentage points."""
    return [m.group(0) for m in _POINTS.finditer(reasoning)]


def index_restated(reasoning: str) -> list[str]:
    """An index level said in two sentences on a base of 100, or a gain named "from 100"."""
    levels = collections.Counter(level for s in _SENTENCE.split(reasoning) if "base of 100" in s
                                 for level in set(_LEVEL.findall(s)))
    return [f"at {x} twice" for x, n in levels.items() if n > 1] + \
        re.findall(r"\b(?:gain|loss) in [^.;(]{1,80}? from 100 \(", reasoning)


def stray_capitals(reasoning: str) -> list[str]:
    """A table's capital inside lower-case words, or a lower-case word inside a name."""
    return [m.group(0) for pat in (STRAY_CAPITAL, LOWER_IN_NAME) for m in pat.finditer(reasoning)]


def years_reversed(reasoning: str) -> list[str]:
    """A change said to run from a later year to an earlier one ("from 2011 to 2007")."""
    return [m.group(0) for m in _YEARS.finditer(reasoning) if m.group(1) > m.group(2)]


def coarse_percent(reasoning: str) -> list[str]:
    """A share printed to a whole percent where one decimal shows more ("17.7 / 488.8 = 4%"
    for 3.6%)."""
    out = []
    for m in _SHARE.finditer(reasoning):
        a, b, shown = float(m.group(1)), float(m.group(2)), int(m.group(3))
        v = a / b * 100 if b else shown
        if abs(v - round(v)) >= .05 and abs(v - shown) < 1:
            out.append(m.group(0))
    return out


def _places(x: str) -> int:
    return len(x.split(".")[1]) if "." in x else 0


def reuse_reprinted(reasoning: str) -> list[str]:
    """A result a step computes printed another way where a later step reuses it: FinQA's
    rounded figure after the step's own ("= 203.9%", then "204%"), where neither the
    reasoning nor its own steps give that figure otherwise; the result restated in its unit
    ("= 0.420, or $0.42 per share") is no reuse."""
    results = {m.group(1).replace(",", "") + m.group(2) for m in re.finditer(
        r"= (-?\d[\d,]*(?:\.\d+)?)(%?)", reasoning)}
    out = []
    for m in _RESULT.finditer(reasoning):
        r, unit = m.group(1).replace(",", ""), m.group(2)
        for n in _FIGURE.finditer(reasoning, m.end()):
            x = n.group(1).replace(",", "")
            if n.group(2) == unit and x + unit not in results and _places(x) < _places(r) \
                    and float(x) == round(float(r), _places(x)) \
                    and not reasoning[:n.start()].endswith(", or $") \
                    and not re.search(rf"(?<![\d.,]){re.escape(n.group(0))}(?![\d])",
                                      reasoning[:m.start()]):
                out.append(f"{m.group(0)} reused as {n.group(0)}")
    return out


def total_restated(reasoning: str) -> list[str]:
    """A sum that names its measure again in the running total it adds to ("Adding X in 2005
    and the combined X for 2006 and 2007, 362787, gives ..."; "Adding the sum of the 1st Qtr
    of sales ... and the 2nd Qtr of sales ..., 3313, and the 3rd Qtr of sales ...")."""
    return [s for s in _SENTENCE.split(reasoning)
            if " + " in s and re.search(r"\bthe (?:combined|sum of)\b", s) and repeated_runs(s)]


def quarter_as_part(reasoning: str) -> list[str]:
    """A quarter named as a part of its measure ("the 3rd Qtr of net earnings"), not as when
    the measure falls ("net earnings in the third quarter")."""
    return re.findall(r"\bthe \d(?:st|nd|rd|th) (?:qtr|quarter)\.? of\b", reasoning, re.I)


# What the strict readers of 7 December stopped at, each a budget-0 rule: a templated opening
# on a result and its value ("Putting the change in ... at 16.45, as a share of ... that is",
# "Using 768 for the combined contributions ..., adding" right after working out 768); one
# measure over two years with a verb that agrees with neither reading ("the service cost in
# 2018 and 2017 come to"); the measure said twice around a share ("As a share of X in 2009,
# the change in X is"); a name in a period used as the figure ("JP Morgan Chase in 2014 does
# not exceed KBW Bank Index in 2014", "= 22.2% of S&P 500 at December 31, 2005"); and money
# per share with a trailing zero ("$0.420 per share").
_GIVEN_OPENING = re.compile(r"(?:^|(?<=[.;:] ))(?:(?:Putting|With|Taking) [^.;]{10,}? (?:at|as) "
                            r"-?\$?[\d,.]*\d%?|Using -?\$?[\d,.]*\d%? for [^.;]{10,}?), ")
_YEARS_COME_TO = re.compile(r"\b(?:19|20)\d\d and (?:19|20)\d\d come to\b")
_SHARE_TWICE = re.compile(r"\bAs a share of (?:the )?(?P<m>[^,]{3,80}?) (?:in|at|for) [^,]{1,40}, "
                          r"the (?:change|difference) in (?:the )?(?P=m)\b")
_PERIOD = r"(?:in|at) (?:(?:19|20)\d\d|[A-Z][a-z]+ \d{1,2}, (?:19|20)\d\d)"
_NAME = r"[A-Z][\w&/.'-]*(?: [A-Z0-9][\w&/.'-]*)*"
_NAME_AS_FIGURE = re.compile(
    rf"(?:^|(?<=[.;:] ))(?!(?:The|In|As|At|On|From|Between|Since|Comparing|Adding|Dividing|"
    rf"Subtracting|Taking|Together|Multiplied|Multiplying|Averaged|Written|Raising|So|Less|"
    rf"Over|Of|For|With|Using|Putting)\b){_NAME} {_PERIOD} (?:is|does not exceed|exceeds|"
    rf"as a share of)\b|(?:\bof|\bexceeds?|\bthan) (?!the\b){_NAME} {_PERIOD}")
_PER_SHARE_ZERO = re.compile(r"\$\d+\.\d{2}\d*0 per share")


def given_opening(reasoning: str) -> list[str]:
    """A step that opens on a result and its value in a template ("Putting X at 16.45, ...",
    "Using 768 for X, ...", "With X at 231, ...", "Taking X as 17627, ...")."""
    return [m.group(0) for m in _GIVEN_OPENING.finditer(reasoning)]


def years_come_to(reasoning: str) -> list[str]:
    """One measure in two years with a plural verb ("the service cost in 2018 and 2017 come
    to")."""
    return _YEARS_COME_TO.findall(reasoning)


def share_said_twice(reasoning: str) -> list[str]:
    """The measure said on both sides of a share ("As a share of X in 2009, the change in X")."""
    return [m.group(0) for m in _SHARE_TWICE.finditer(reasoning)]


def name_as_figure(reasoning: str) -> list[str]:
    """A name in a period standing for its figure ("JP Morgan Chase in 2014 does not exceed",
    "= 22.2% of S&P 500 at December 31, 2005"): "the JP Morgan Chase figure in 2014"."""
    return [m.group(0) for m in _NAME_AS_FIGURE.finditer(reasoning)]


def per_share_zero(answer: str) -> list[str]:
    """Money per share printed with a trailing zero past the cents ("$0.420 per share")."""
    return _PER_SHARE_ZERO.findall(answer)
