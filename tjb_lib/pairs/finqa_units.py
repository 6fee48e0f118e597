"""Audit rules for what the strict blind readers of 6 December (second pass) stopped at in
FinQA candidates, each with a budget of 0.

A figure without its unit: a rate, a return or an index move answered by a bare number
("Answer: 2.93" for a tax rate, "Answer: 136.98" for a cumulative total return), basis points
not named ("Answer: 14"), money with "$" but no scale a reader can trust ("$11.8"). A row
label that is an entity or a verb used as the measure ("United States were $265,436", "use in
2010 come to", "the pension adjustments of change in period"). Label soup: a long label said
three times in a sentence, a period named once by year and once by its date ("from 2011 to
year ended December 31, 2012"), "Compared with X in 2017, the change ... comes to", a ticker
where the filing names the series ("For DISCB, the gain"). Source glitches kept: words run
together ("equityinstruments"), a capital "The" inside a sentence ("2007, The NAREIT All
Equity Index"). And a figure the table prints in parentheses, a negative, added as positive
without a word on its sign. The third and fourth passes' rules follow, each under its heading.
"""
from __future__ import annotations

import dataclasses
import re

from tjb_lib.pairs.filing import PLACE_WORDS, Figure
from tjb_lib.pairs.finqa_voice import INDEX_FAMILIES, SAID_TWICE, counted, repeated_runs

_PLACE_ENDS = PLACE_WORDS | {"states", "pacific", "asia-pacific", "emea", "kingdom"}
_BARE = re.compile(r"-?[\d,]*\.?\d+")
_RATE_Q = re.compile(r"\b(?:rate|return|yield|margin)\b|\bindex\b|\bpercent(?:age)?\b", re.I)
_RATIO_Q = re.compile(r"\bratio\b|\btimes\b|\bper transaction\b|\bhow many\b", re.I)
_SMALL_MONEY = re.compile(r"-?\$\d{1,3}\.\d+")
_SCALED = re.compile(r"\b(?:thousands?|millions?|billions?)\b")
_PER_Q = re.compile(r"\bper\b|\bprice\b|\baverage\b", re.I)
_ENTITY = re.compile(r"(?:^|[.:;] |, )((?:[A-Z][\w&.-]*(?: [A-Z][\w&.-]*)*))(?: in \d{4})? "
                     r"(?:were|was|went from|is|are)\b")
_VERB_LABEL = re.compile(r"\b(?:use|uses|used) in \d{4} come|\bof change in period\b")
_YEAR_DATE = re.compile(r"\b(?:[Ff]rom|[Bb]etween) (?:19|20)\d\d (?:to|and) (?:the )?(?:fiscal )?"
                        r"(?:year|period) ended\b")
_COMPARED = re.compile(r"\bCompared with [^,]{3,80}, the (?:change|difference)\b"
                       r".{0,160}?\bcomes? to\b")
_TICKER = re.compile(r"\bFor [^,.]{2,60}, the (?:gain|loss) of\b")
_MID_THE = re.compile(r"(?<=[a-z0-9,] )The\b")
_NEGATIVE = re.compile(r"\$?\((\d[\d,]*(?:\.\d+)?)\)")
_SIGN_WORD = re.compile(r"\b(?:negatives?|outflow|parentheses|brackets|signs?|deduct|back)\b",
                        re.I)


def unit_missing(question: str, answer: str, evidence: list[str]) -> list[str]:
    """A rate, return or index move answered by a bare number, basis points not named, or
    small money with a "$" and no scale for a total (not a price or an average) where an
    evidence line gives its figures one."""
    a = answer.strip()
    if "basis point" in question.lower() and "basis point" not in a:
        return [a]
    if _BARE.fullmatch(a) and _RATE_Q.search(question) and not _RATIO_Q.search(question):
        return [a]
    if _SMALL_MONEY.fullmatch(a) and not _PER_Q.search(question) \
            and any(_SCALED.search(e) for e in evidence):
        return [a]
    return []


def rate_unit(question: str, answer: str) -> str:
    """A bare answer with the unit its question measures: "14 basis points" where it asks in
    basis points, "32 points" for the move of an index, "-31.86 percentage points" for a
    difference of returns or rates, "2.93%" for a rate or a return; other answers as they are."""
    a, q = answer.strip(), question.lower()
    if not _BARE.fullmatch(a):
        return answer
    if "basis point" in q:
        return f"{a} basis points"
    if not _RATE_Q.search(question) or _RATIO_Q.search(question):
        return answer
    if "index" in q and "change" in q and "return" not in q:
        return f"{a} points"
    if re.search(r"\b(?:difference|change|improve|increase|decrease)\b", q):
        return f"{a} percentage points"
    return f"{a}%"


def mid_sentence_the(text: str) -> str:
    """A capital "The" a table or name carries, lowered inside a sentence ("On a base of 100
    in 2007, the NAREIT All Equity Index")."""
    return _MID_THE.sub("the", text)


_REVENUE = re.compile(r"\b(?:revenues?|sales)\b")


def _place(label: str) -> bool:
    words = label.split()
    return bool(words) and all(w[0].isupper() for w in words) \
        and words[-1].lower() in _PLACE_ENDS


def place_measure(label: str, question: str) -> str | None:
    """What a row named by a place measures, from the question ("United States' revenue",
    "what percent of total operating income was Asia-pacific"); None where it does not say."""
    m = re.search(rf"{re.escape(label)}'s? ([a-z]+)", question, re.I) or re.search(
        rf"\bof (?:total )?([a-z][a-z ]{{2,40}}?) (?:was|were|is|are|from|in) "
        rf"(?:the )?{re.escape(label)}\b", question, re.I)
    return m.group(1).lower() if m else None


def place_measured(figs: list[Figure], question: str) -> list[Figure]:
    """Figures whose row is a place relabelled with what the question says they measure
    ("revenue from the United States", "operating income in Asia-Pacific"), never the place
    itself as the measure ("United States went from ..."); others as they are."""
    out = []
    for f in figs:
        what = place_measure(f.row, question) if f.row and _place(f.row) else None
        if what is None:
            out.append(f)
            continue
        the = "the " if f.row.split()[-1].lower() in ("states", "kingdom") else ""
        joint = "from" if _REVENUE.fullmatch(what) else "in"
        out.append(dataclasses.replace(f, row=f"{what} {joint} {the}{f.row}"))
    return out


def period_label(text: str) -> str:
    """A span whose end is named by its date where its start is a year ("from 2011 to year
    ended December 31, 2012") said by years alone ("from 2011 to 2012")."""
    return re.sub(r"\b((?:[Ff]rom|[Bb]etween) (?:19|20)\d\d (?:to|and) )(?:the )?(?:fiscal )?"
                  r"(?:year|period) ended [A-Z][a-z]+ \d\d?, ((?:19|20)\d\d)\b", r"\1\2", text)


#: how the clause on parenthesised figures opens, in its step's own sentence (a sentence of its
#: own reads as one side's extra where the other side leaves the step out)
SIGN_NOTE = ", with the filing's "


def sign_noted(sentence: str, evidence: list[str]) -> str:
    """A step that adds a figure the evidence prints in parentheses, or uses it as a negative,
    with one short clause on its sign ("... = -176, with the filing's (379) as a negative.",
    "... = 120, with the filing's (21) added without its sign."). A figure subtracted by its
    size needs none (its label says what it is), and none gets the templates readers stopped
    at ("in the filing, (19.8) is shown in parentheses, and as an amount it is 19.8",
    "counting the (515) the filing shows in parentheses as -515")."""
    shown = sign_dropped(sentence, evidence)
    if not shown:
        return sentence
    negative = [f"({x})" for x in shown if sign_use(x, sentence) == "negative"]
    added = [f"({x})" for x in shown if sign_use(x, sentence) != "negative"]
    said = [f"{' and '.join(negative)} as {'negatives' if len(negative) > 1 else 'a negative'}"
            ] if negative else []
    said += [f"{' and '.join(added)} added without {'their signs' if len(added) > 1 else 'its sign'}"
             ] if added else []
    return f"{sentence.removesuffix('.')}{SIGN_NOTE}{' and '.join(said)}."


def sign_use(printed: str, reasoning: str) -> str | None:
    """How the reasoning's arithmetic uses a figure printed in parentheses: "added" or
    "subtracted" as its size, "used" by its size as what another is taken from, "negative"
    as a negative operand ("203 + (-379)"); None where it does not."""
    n = re.escape(printed.replace(",", ""))
    if re.search(rf"[+-] \(-{n}\)(?![\d.])|(?:^|[\s(])-{n} [+-] ", reasoning):
        return "negative"
    if re.search(rf"(?<![\d.(-]){n} \+ |\+ {n}(?![\d.])", reasoning):
        return "added"
    if re.search(rf"- {n}(?![\d.])", reasoning):
        return "subtracted"
    if re.search(rf"(?<![\d.(-]){n} - ", reasoning):
        return "used"
    return None


def scale_stated(sentences: tuple[str, ...], answer: str, evidence: list[str],
                 asked: str | None) -> tuple[str, ...]:
    """The reasoning with the scale its answer carries said where the evidence does not give
    it: the last step's result restated with it ("= 241.11, or $241.11 million") where the
    question asks in millions (``asked``) and a line prints its figures bare ("Stock options
    were 9 in 2018"), never a note on where the scale comes from ("in millions as the
    question states"). A figure no line or question scales is stated as the table prints it,
    never with a sentence on the scale the table lacks."""
    if not sentences:
        return sentences
    last, lead, note = sentences[-1].removesuffix(".").partition(SIGN_NOTE)
    if asked in ("thousand", "million", "billion") and unscaled_lines(answer, evidence, ""):
        return (*sentences[:-1], f"{last}, or {answer.strip()}{lead}{note}.")
    return sentences


def unscaled_lines(answer: str, evidence: list[str], reasoning: str) -> list[str]:
    """Evidence lines whose figures carry no "$", "%" or scale while the answer has a scale
    word ("Stock options were 9 in 2018" for "$16.43 million") and the reasoning does not
    say the scale."""
    word = re.search(r"\b(thousand|million|billion)\b", answer)
    if not word or f"in {word.group(1)}s" in reasoning \
            or re.search(rf"\d {word.group(1)}\b", reasoning):
        return []
    return [line for line in evidence
            if re.search(r"\d", line) and not re.search(
                r"[$%]|\b(?:thousands?|millions?|billions?|shares?|units?|employees?|"
                r"years?|days?|points?)\b", line)]


def entity_as_measure(reasoning: str) -> list[str]:
    """A row label that is a place or a verb used as the measure ("United States were",
    "Asia-Pacific in 2015 is", "use in 2010 come to", "of change in period")."""
    out = [m.group(0).strip(" ,.;:") for m in _ENTITY.finditer(reasoning)
           if m.group(1).split()[-1].lower().strip(".") in _PLACE_ENDS]
    return out + _VERB_LABEL.findall(reasoning)


def label_soup(reasoning: str) -> list[str]:
    """A long label (five words) said three times in one sentence, a period named by a year
    and a date, "Compared with X, the change ... comes to", or "For DISCB, the gain of" (the
    series named again, as a ticker, after the step that gave its gain)."""
    out = []
    for s in re.split(r"(?<=\.)\s+(?=[A-Z])", reasoning):
        runs = repeated_runs(s, 5)
        out += [r for r in dict.fromkeys(runs) if runs.count(r) >= 2]
    out += _YEAR_DATE.findall(reasoning) + _COMPARED.findall(reasoning)
    return out + [m.group(0) for m in _TICKER.finditer(reasoning)]


def vocabulary(table: tuple[tuple[str, ...], ...], lines: list[str]) -> str:
    """A record's table and gold lines as one lower-case text, its words single-spaced."""
    return " ".join(re.findall(r"[a-z]+", " ".join([*(c for row in table for c in row),
                                                    *lines]).lower()))


def source_glitches(text: str, record: str) -> list[str]:
    """Words a source ran together ("equityinstruments", where the record also prints
    "equity instruments") and a capital "The" inside a sentence."""
    glued = [w for w in re.findall(r"\b[a-z]{10,}\b", text) if split_glued(w, record) != w]
    return glued + [m.group(0) for m in _MID_THE.finditer(text)]


def split_glued(word: str, record: str) -> str:
    """A word run together from two words of five letters or more that ``record`` (a
    ``vocabulary``) also prints apart, split there; the word as it is otherwise."""
    cuts = [f"{word[:k]} {word[k:]}" for k in range(5, len(word) - 4)
            if f" {word[:k]} {word[k:]} " in f" {record} "]
    return cuts[0] if len(cuts) == 1 else word


def unglued(text: str, record: str) -> str:
    """``text`` with every run-together word of ``record`` split (``split_glued``)."""
    return re.sub(r"\b[a-z]{10,}\b", lambda m: split_glued(m.group(0), record), text)


def sign_dropped(reasoning: str, evidence: list[str]) -> list[str]:
    """A figure the evidence prints in parentheses (a negative) added by its size or used as a
    negative, with no word on what happens to its sign (one subtracted by its size, or taken
    from, reads as its label says)."""
    if _SIGN_WORD.search(reasoning):
        return []
    printed = dict.fromkeys(m.group(1) for line in evidence for m in _NEGATIVE.finditer(line))
    return [x for x in printed if sign_use(x, reasoning) in ("added", "negative")]


_SIGN_TEMPLATE = re.compile(r"\b(?:is|are) shown in parentheses, and as (?:an? )?"
                            r"(?:amount|negative)s? (?:it is|they are)\b"
                            r"|\bthe filing shows in parentheses as\b")


_BARE_LABEL = re.compile(r"\b(?:Taking|Dividing|Subtracting|Multiplying) (?!(?:the|a|an|its|their|"
                         r"our|each|per|by)\b)[a-z][\w-]*|\bby (?:19|20)\d\d [a-z][\w-]*")


def bare_label(reasoning: str) -> list[str]:
    """A figure's label used as a noun without its article ("Taking net fair value of ...
    from ...", "Dividing large utilities in 2001 by ...", "by 2016 benefit payments")."""
    return [m.group(0) for m in _BARE_LABEL.finditer(reasoning)]


def sign_template(reasoning: str) -> list[str]:
    """The tacked-on note on parenthesised figures readers called a template ("in the filing,
    (19.8) and (9.2) are shown in parentheses, and as amounts they are 19.8 and 9.2",
    "counting the (515) the filing shows in parentheses as -515")."""
    return [m.group(0) for m in _SIGN_TEMPLATE.finditer(reasoning)]


# What the strict readers' third pass of 6 December stopped at, each a budget-0 rule.
_NO_SCALE = re.compile(r"\b(?:gives|has|prints|states) no (?:scale|unit)\b|\bno scale for\b",
                       re.I)
_AT_AT = re.compile(r"\bat \$?-?\d[\d,.]*%? at\b")
_STACKED = re.compile(r"(?:^|(?<=[.;:] ))(?:Divided by|Averaged over|As a share of) [^.;]*?, "
                      r"-?\$?[\d,.]*\d%?, comes? to\b")
_STATE_AS_NOUN = re.compile(r"\b(?:shares|options|units|awards) of (?:non-?vested|unvested|"
                            r"vested|granted|exercised|forfeited|cancell?ed)\b"
                            r"|(?:^|[.;:] |, )[Tt]otal, [a-z]", re.I)


def count_unnamed(question: str, answer: str) -> list[str]:
    """A count answered by a bare number ("Answer: 995365" for cruise guests)."""
    return [answer] if counted(question, answer) != answer else []


def scale_lament(reasoning: str) -> list[str]:
    """A sentence on the scale the table lacks ("the table gives no scale for these figures")
    where the figure should simply be stated as the table prints it."""
    return _NO_SCALE.findall(reasoning)


def doubled_at(reasoning: str) -> list[str]:
    """A level and its date both after "at" ("S&P 500 at 108.59 at December 31, 2012")."""
    return _AT_AT.findall(reasoning)


def stacked_clause(reasoning: str) -> list[str]:
    """A step that opens on its divisor and then names a described result with its value
    inside the same clause ("Divided by total assets acquired, the sum of ..., 18658, comes
    to ...")."""
    return [m.group(0) for m in _STACKED.finditer(reasoning)]


def state_as_noun(reasoning: str) -> list[str]:
    """A label that uses an award's state or a table's "Total," as the noun ("the shares of
    non-vested at May 31, 2009", "Total, net of cash collateral in 2015 less ...")."""
    return [m.group(0).strip(" .;:,") for m in _STATE_AS_NOUN.finditer(reasoning)]


# What the strict readers' fourth pass of 6 December stopped at, each a budget-0 rule.
_NO_LEAD_ZERO = re.compile(r"(?<![\w.])-?\.\d+")
_HUNDRED_BARE = re.compile(r"× 100 = -?[\d,.]*\d(?![\d.,]*(?:%| basis points))")
_MACHINERY = re.compile(r"\bas the question states\b|\b(?:added|taken off|counted|used) here\b"
                        r"|\bthe table prints \(")
_DANGLING_IT = re.compile(r"\bit makes up\b|\bbrings it to\b"
                          r"|\b(?:less|times|plus) [^.;]{1,200}? it is -?\$?\d"
                          r"|\bDivided by [^.;]+?, the [^.;]*?\(-?\$?[\d.,]*\d%?\) comes? to\b")
_BASE_AGAIN = re.compile(r"on (?:the|its) base of 100[^.]*\. (?:A|The|That) (?:gain|loss) of "
                         r"[\d.,]+ on the base of 100\b|at a level of .{1,60}? against its base\b")
_HEADING_LABEL = re.compile(r"\s—\s|\bduring the period\b|\b(?:these|those) (?:programs|plans|"
                            r"items|amounts|arrangements|facilities|agreements)\b"
                            r"|\bat [A-Z][a-z]+ \d{1,2} through\b|\bdue thereafter\b")


def odd_figures(reasoning: str) -> list[str]:
    """A figure as no analyst prints it: a decimal without its leading zero (".385"), a
    hundredfold result left bare ("0.14 × 100 = 14" for 14% or 14 basis points), or a value
    in brackets read out again at once ("rates (-1.8) is -1.8 / 5.3")."""
    return (_NO_LEAD_ZERO.findall(reasoning) + _HUNDRED_BARE.findall(reasoning)
            + [m.group(0) for m in SAID_TWICE.finditer(reasoning)])


def machinery_named(reasoning: str) -> list[str]:
    """The working's machinery said aloud: "in millions as the question states", "it is
    added here as 21", "the table prints (14) and (3) in parentheses"."""
    return _MACHINERY.findall(reasoning)


def dangling_step(reasoning: str) -> list[str]:
    """A step that leaves its subject dangling or stacks one inside another: "it makes up",
    "less the product of ..., 41404, it is", "Divided by X, the total (16769) comes to"."""
    return [m.group(0) for m in _DANGLING_IT.finditer(reasoning)]


def base_said_again(reasoning: str) -> list[str]:
    """The base of 100 said twice over one move ("a loss of ... on the base of 100. A loss of
    16.34 on the base of 100"), or a level set inside a gain ("a gain of 93.5 in CITI, at a
    level of 193.5 ... against its base of 100")."""
    return [m.group(0) for m in _BASE_AGAIN.finditer(reasoning)]


def heading_as_noun(reasoning: str) -> list[str]:
    """A table heading used as the noun: a qualifier after a dash ("investments — short and
    long-term"), "during the period", "these programs" the line never names, "at December 1
    through December 31", "due thereafter"."""
    return [m.group(0).strip() for m in _HEADING_LABEL.finditer(reasoning)]


# What the strict readers of 7 December stopped at, each a budget-0 rule.
_INDEX_BARE = re.compile(rf"(?<![Tt]he )(?<![\w&]){INDEX_FAMILIES}\b[\w&.' -]*?"
                         r"(?= (?:stood|was|moved|reached|went|fell|is|at|in|on|less|by|to|from)\b)")
_COMMA_NET = re.compile(r"\b[a-z]+, (?:net|per share|per unit)\b(?! of)")
_BARE_COUNT = re.compile(r"\b[Aa]verage(?:d)? over \d+(?:\.\d+)?\b(?! (?:years|quarters|months)\b)")
_REACHED_FALL = re.compile(r"\breached \$?[\d,.]+[^.:;]*: -?[\d.]+ - [\d.]+ = -[\d.]")
_DATE_THEN_OF = re.compile(r"\b(?:as of|at) [A-Z][a-z]+ \d{1,2}, (?:19|20)\d\d of [a-z]")
_LONG_FIGURE = re.compile(r"(?<![\d,.])-?\d{5,}(?:\.\d+)?(?![\d,])")


def index_unnamed(reasoning: str) -> list[str]:
    """A market index used as a sentence's noun without its article ("S&P 500 Index was at
    180.75", "Between 2011 and 2012, S&P 500 Index moved")."""
    return [m.group(0) for m in _INDEX_BARE.finditer(reasoning)]


def comma_qualifier(reasoning: str) -> list[str]:
    """A table label's qualifier after a comma left inside a sentence ("Losses on ...
    derivatives, net went from", "Fair value, per share went from")."""
    return _COMMA_NET.findall(reasoning)


def bare_count(reasoning: str) -> list[str]:
    """An average over a count that does not say what it counts ("Averaged over 5")."""
    return _BARE_COUNT.findall(reasoning)


def fall_reached(reasoning: str) -> list[str]:
    """A fall said as "reached" ("inventories reached $4,111.8 in 2018: 4111.8 - 4458.3 =
    -346.5")."""
    return [m.group(0) for m in _REACHED_FALL.finditer(reasoning)]


def date_before_qualifier(reasoning: str) -> list[str]:
    """A column's date set between its measure and what the row names ("the liability as of
    December 31, 2004 of employee separations")."""
    return _DATE_THEN_OF.findall(reasoning)


def long_bare_figure(reasoning: str) -> list[str]:
    """A figure of five digits or more stated in the prose without thousands separators
    ("the change in total assets of -55267"); an equation's operands and result stay plain."""
    found = []
    for m in _LONG_FIGURE.finditer(reasoning):
        before, after = reasoning[max(0, m.start() - 3):m.start()], reasoning[m.end():m.end() + 3]
        if not (re.search(r"[=+×/^-] ?$|\($", before) or re.match(r" ?[=+×/^-] |\)", after)):
            found.append(m.group(0))
    return found
