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

from tjb_lib.pairs.filing import PEOPLES, PLACE_WORDS, Figure
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


#: what a question says a row's figures are, around the row's own words ("sales of cabinets",
#: "the fair value of our foreign currency forward contracts"; "gasoline production",
#: "foreign exchange hedges"), and a row that names a party, not a quantity
_QUANTITY = r"(?:net )?(?:sales|revenues?|(?:fair |carrying )?value|number)"
_THING = (r"(?:production|sales|revenues?|hedges|contracts|expenses?|costs|shipments|deliveries|"
          r"volumes?)")
_PARTY = re.compile(r"^[a-z][a-z ]* (?:company|companies|insurer|insurers|bank|banks|reinsurers?)$")


def question_label(label: str, question: str) -> str | None:
    """The quantity a question names a row's figures by, in the question's own casing: "sales
    of cabinets" for "Cabinets", "gasoline production" for "Gasoline", "European cruise
    guests" for "European Cruise Guests", "the amount for the unaffiliated life insurance
    company" for a party; None where the question says nothing more than the row."""
    esc = re.escape(label)
    m = re.search(rf"(?<=\w )({_QUANTITY}) (of|to|from) (?:our |the )?({esc})\b", question, re.I)
    if m:                                    # "the fair value of", a mass noun "sales of"
        the = "the " if re.search(r"value|number", m.group(1), re.I) else ""
        return f"{the}{m.group(1).lower()} {m.group(2)} {m.group(3)}"
    m = re.search(rf"(?<=\w )({esc}) ({_THING})\b", question, re.I)
    if m:
        return f"{m.group(1)} {m.group(2).lower()}"
    if _PARTY.match(label.lower()):
        return f"the amount for the {label[:1].lower()}{label[1:]}"
    m = re.search(rf"(?<=\w )({esc})\b", question, re.I)
    if m and sum(c.isupper() for c in m.group(1)) < sum(c.isupper() for c in label) \
            and re.fullmatch(r"[A-Z][a-z]+(?: [A-Za-z][a-z]*)*", label) \
            and (" " not in label or _peoples_run(m.group(1))):
        return m.group(1)          # "trademarks", never "Trademarks" mid-sentence; a name
    return None                    # ("Delphi Automotive PLC", "American Express") is kept


def _peoples_run(words: str) -> bool:
    """A run of words led by a people's adjective whose others (two or more) are lower case:
    "European cruise guests", a label; "American express" is a name the question miscases."""
    first, *rest = words.split()
    return first in PEOPLES and sum(w.islower() for w in rest) > 1


def question_named(figs: list[Figure], question: str) -> list[Figure]:
    """Figures whose row or clause names a thing the question measures relabelled with what
    the question calls their quantity (``question_label``): blind readers stopped at "The
    change in cabinets is 69.3 / 2397.8" (cabinet sales), "foreign currency forward contracts
    moved from $1.2 million" (their fair value), "The unaffiliated life insurance company was
    34,444" and "The change in Gasoline (28)"; ``question`` as the task prints it. The rows of
    an index table (a base of 100) are its series' names, kept as they are ("Masco")."""
    if any(f.number == 100 for f in figs):
        return figs
    out = []
    for f in figs:
        if f.quote is not None:
            said = question_label(f.name, question) if f.name else None
            out.append(dataclasses.replace(f, name=said) if said else f)
            continue
        field = "row" if f.measure == f.row else "col"
        said = question_label(getattr(f, field), question) if getattr(f, field) else None
        out.append(dataclasses.replace(f, **{field: said}) if said else f)
    return out


def in_millions(text: str, question: str) -> str:
    """Thousands of four digits or more said in millions ("34.4 million", never "34,444
    thousand", which no analyst writes) where the question does not ask in thousands (there
    the table's unit reads as it is: "from 338,240 thousand to 339,235 thousand")."""
    if re.search(r"\bthousands?\b", question, re.I):
        return text
    return _THOUSANDS.sub(lambda m: f"{float(m.group(1).replace(',', '')) / 1000:,.1f} million",
                          text)


def period_label(text: str) -> str:
    """A span whose end is named by its date where its start is a year ("from 2011 to year
    ended December 31, 2012") said by years alone ("from 2011 to 2012")."""
    return re.sub(r"\b((?:[Ff]rom|[Bb]etween) (?:19|20)\d\d (?:to|and) )(?:the )?(?:fiscal )?"
                  r"(?:year|period) ended [A-Z][a-z]+ \d\d?, ((?:19|20)\d\d)\b", r"\1\2", text)


#: how the clause on a parenthesised figure reads where its label is not in its step's sentence
#: (a sentence of its own reads as one side's extra where the other side leaves the step out)
SIGN_NOTE = ", counting "


def sign_noted(sentence: str, evidence: list[str], figs: list[Figure] | tuple = ()) -> str:
    """A step that adds a figure the evidence prints in parentheses, or uses it as a negative,
    with a word on its sign where its label stands ("Adding the granted shares and the vested
    shares, a negative in the table, gives 203 + (-379) = -176."; "the settlements, shown in
    parentheses,"), or, where no label of ``figs`` is in the sentence, one short clause after
    it ("..., counting the 379 as a negative."). A figure subtracted by its size needs none
    (its label says what it is), and none gets the templates readers stopped at ("in the
    filing, (19.8) is shown in parentheses, and as an amount it is 19.8", "counting the (515)
    the filing shows in parentheses as -515", "with the filing's (379) as a negative")."""
    shown = sign_dropped(sentence, evidence)
    loose = []
    for x in shown:
        negative = sign_use(x, sentence) == "negative"
        label = next((lab for f in figs if f.number == -float(x.replace(",", ""))
                      for lab in (f.label(),) if lab and lab in sentence), None)
        if label is None:
            loose.append((x, negative))
            continue
        said = "a negative in the table" if negative else "shown in parentheses"
        at = sentence.index(label) + len(label)
        sentence = f"{sentence[:at]}, {said},{sentence[at:]}".replace(",,", ",")
    if not loose:
        return sentence
    said = " and ".join(f"the {x}" for x, _ in loose)
    how = ("as negatives" if len(loose) > 1 else "as a negative") if all(n for _, n in loose) \
        else ("without their parentheses" if len(loose) > 1 else "without its parentheses")
    return f"{sentence.removesuffix('.')}{SIGN_NOTE}{said} {how}."


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
    never with a sentence on the scale the table lacks. A figure per share is said per share
    ("92 / 1 = 92, or $92 per share": readers stopped at a bare "92" for a price)."""
    if not sentences:
        return sentences
    last, lead, note = sentences[-1].removesuffix(".").partition(SIGN_NOTE)
    if asked in ("thousand", "million", "billion") and unscaled_lines(answer, evidence, "") \
            or asked == "per share" and answer.strip().endswith(asked) and asked not in last:
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
                            r"|\bthe filing shows in parentheses as\b|\bwith the filing's \(")


_BARE_LABEL = re.compile(r"\b(?:Taking|Dividing|Subtracting|Multiplying) (?!(?:the|a|an|its|their|"
                         r"our|each|per|by)\b)[a-z][\w-]*|\bby (?:19|20)\d\d [a-z][\w-]*")


def bare_label(reasoning: str) -> list[str]:
    """A figure's label used as a noun without its article ("Taking net fair value of ...
    from ...", "Dividing large utilities in 2001 by ...", "by 2016 benefit payments")."""
    return [m.group(0) for m in _BARE_LABEL.finditer(reasoning)]


def sign_template(reasoning: str) -> list[str]:
    """The tacked-on note on parenthesised figures readers called a template ("in the filing,
    (19.8) and (9.2) are shown in parentheses, and as amounts they are 19.8 and 9.2",
    "counting the (515) the filing shows in parentheses as -515", "with the filing's (379) as a
    negative", the tag the 8 December readers stopped at)."""
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
_LONG_FIGURE = re.compile(r"(?<![\d,.])-?(?!(?:19|20)\d\d(?!\d|\.\d))\d{4,}(?:\.\d+)?(?!\d|,\d)")


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
    """A figure of four digits or more (not a year) stated in the prose without thousands
    separators ("the change in total assets of -55267", "is -3234, its share"); an
    equation's operands and result stay plain."""
    found = []
    for m in _LONG_FIGURE.finditer(reasoning):
        before, after = reasoning[max(0, m.start() - 3):m.start()], reasoning[m.end():m.end() + 3]
        if not (re.search(r"[=+×/^-] ?$|\($", before) or re.match(r" ?[=+×/^-] |\)", after)):
            found.append(m.group(0))
    return found


# What the strict readers of 8 December stopped at, each a budget-0 rule.
_CAPITAL_RUN = re.compile(r"(?<![\w&.'-])[A-Z][\w&.'-]*(?:,? [A-Z0-9&][\w&.'-]*)*")
_QUANTITY_OF = re.compile(rf"\b({_QUANTITY}) (?:of|to|from) (?:our |the )?([a-z][a-z -]{{2,40}}?)"
                          r"(?= (?:from|in|between|for|during|at|as|over)\b|[?,.]|$)", re.I)
_PARTY_NOUN = re.compile(r"(?<!\bfor )\b[Tt]he (?:(?!for\b|amount\b)[a-z]+ ){1,5}(?:company|companies|insurer|bank) "
                         r"(?:was|were|is|are|moved|went|stood|reached|fell)\b")
_RESULT_TAG = re.compile(r"(?<=[a-z]) \(-?\$?[\d.,]*\d%?\)(?! [=+×/-])")
_VALUED_TAG = re.compile(r"\bMultiplied by 100, [^.;]*?, -?[\d.,]+%?, gives?\b|\bSince [^.;]*?, it is\b"
                         r"|\bthe ratio for [^.;]*? is -?[\d.]+ × 100\b")
_THOUSANDS = re.compile(r"\b(\d{1,3}(?:,\d{3})+)(?:\.\d+)? thousand\b")
_INDEX_DOLLARS = re.compile(r"\b(?:Index|Composite|Average|Peer Group) (?:moved|went|stood|was|"
                            r"reached|fell)\b[^.:;]{0,30}?\$\d")
_YEAR_ENDED = re.compile(r"\b(?:[Ff]or|[Ff]rom|to|and|[Bb]etween) (?:fiscal )?years? ended\b")
_UNGROUPED = re.compile(r"^-?\d{4,}(?:\.\d+)? (?:thousand|million|billion)\b")


def label_capitalised(reasoning: str, question: str, evidence: list[str]) -> list[str]:
    """A table's capitalised label inside a sentence where the question writes it in lower
    case: one word, not a place ("The change in Gasoline", "the useful life of Trademarks"),
    or a run led by a people's adjective whose other words (two or more: "American express" is
    a name the question miscases) the question lowers ("European
    Cruise Guests moved" for "European cruise guests"); a name the question lowers whole is
    not told apart from a label, nor one word the evidence names inside a line ("At 31-Dec-2017,
    CITI 193.5"): a series' name."""
    found = []
    for m in _CAPITAL_RUN.finditer(reasoning):
        run, before = m.group(0), reasoning[:m.start()]
        if not re.match(r"[A-Z][a-z]{2}", run) or not re.search(r"[a-z,] $", before) \
                or before.endswith("the "):
            continue                              # a sentence's first word, an index's name
        asked = re.search(rf"(?<=\w )\b{re.escape(run)}\b", question, re.I)
        if asked is None or asked.group(0) == run:
            continue
        words = asked.group(0).split()
        inside = any(re.search(rf"\S.*\b{re.escape(run)}\b", e, re.I) for e in evidence)
        if len(words) == 1 and run.lower() not in _PLACE_ENDS and not inside \
                or _peoples_run(asked.group(0)):
            found.append(run)
    return found


def row_for_quantity(reasoning: str, question: str) -> list[str]:
    """A row used as the noun for its quantity where the question names the quantity ("the
    change in cabinets" for the sales of cabinets, "foreign currency forward contracts moved"
    for their fair value), and a party as the figure ("The unaffiliated life insurance company
    was 34,444")."""
    low = reasoning.lower()
    found = [m.group(0) for m in _QUANTITY_OF.finditer(question)
             if m.group(2).lower() in low and f"{m.group(1).lower()} " not in low]
    return found + _PARTY_NOUN.findall(reasoning)


def result_tagged(reasoning: str) -> list[str]:
    """A step's result tagged onto its name in brackets or set off by commas before what the
    step does to it ("The change in gasoline (28) as a share", "Dividing the combined reserve
    for losses (90) by 2", "Multiplied by 100, the change ..., 0.11, gives", "Since the change
    ... is -34,446, it is", "the ratio for gain on land sales is -0.446 × 100")."""
    return [m.group(0).strip() for m in _RESULT_TAG.finditer(reasoning)] + \
        [m.group(0) for m in _VALUED_TAG.finditer(reasoning)]


def unit_misread(reasoning: str, answer: str, question: str) -> list[str]:
    """A figure in a unit no analyst writes it in: "34,444 thousand" where the question does
    not ask in thousands (``in_millions``), an index in dollars ("the S&P 500 Index moved from
    $63.45"), "for year ended" without its article, a count answered as "1152 million", a
    figure per share worked out to a bare "92"."""
    thousands = [] if re.search(r"\bthousands?\b", question, re.I) else \
        [m.group(0) for m in _THOUSANDS.finditer(reasoning)]
    bare = [answer.strip()] if answer.strip().endswith("per share") \
        and "per share" not in reasoning else []
    return thousands + bare + _INDEX_DOLLARS.findall(reasoning) \
        + _YEAR_ENDED.findall(reasoning) + _UNGROUPED.findall(answer.strip())
