"""Audit rules for FinQA candidates that a reader would stop at, each with a budget of 0.

A figure named by a quoted fragment of a clause (“company acquired $8.5 million of ...”),
operands given as label soup ("arkansas, total customers, arkansas, residential"), filing
text left lowercased ("as of december 31, 2015 ..."), a table row left in FinQA's
linearisation ("the net revenue of 2015 is $ 5829 ;"), and a record whose question and program
disagree on the year (or that the sanity filter rejects for any other reason) used anyway.
Then the wording of the reasoning itself: an answer without the unit its question asks for
("Answer: 719.7" for a price per share), a templated lead-in or closing connective ("Turned
into a percentage, ...", "That settles it: 12.0%."), a base of 100 subtracted without being
named as one, a singular verb after a plural label ("revenues was"), a label carrying two periods
("balance at December 27, 2008 at December 27, 2008"), a table's unit note ("(in
thousands)") in the reasoning, and a name the evidence capitalises written in lower case
("asia-pacific").
And how a step refers to what came before: an earlier result nested inside the description of
another ("the difference (2.4) between the difference (11.8) and ...", "(-16.34; Snap-on
stood at 83.66 ...)"), a sentence that opens on the base it divides by, on what it subtracts
or on a unit, the label used as a noun ("Of total revised, goodwill ...", "Taking shares as the base, ...",
"In full, total cost ..."), and a moderate pair's skipped result asserted in brackets ("the
change ... (-22504)") rather than named with what it is computed from.
And what the blind readers of 5 December stopped at: a row label with its column name in
brackets ("interest rate Collar (fair value)"), percentages compared without their sign ("14 ≤
19"), a percentage column's cell printed without one ("% change 126.5"), an index series in
lower case ("masco stood at 318.46"), a base of 100 no evidence line gives, and "Together, the
combined ...". Then a unit the rescaling does not give ("139549 / 1000 = 139.549 in thousands"
for a balance printed with no unit), a change of unit as a sentence of its own ("The product
(29889860) is 29889860 / 1000000 = 29.9 in millions.") and a literal "\\n" in the question;
a partial sum left unused before the total a later step reads ("385 + 383 = 768. Since the
combined contributions ... are 1148").
And the strict readers' second pass (``finqa_units``): a figure without its unit, a place or a
verb as the measure, label soup in a sentence, a source glitch kept, a negative added or
subtracted without a word on its sign; and their third pass: a sentence on the scale a table
lacks, "at 108.59 at December 31, 2012", a described result stacked inside a clause that opens
on its divisor, an award's state or "Total," used as the noun; and their fourth pass: a figure
as no analyst prints it (".385", "0.14 × 100 = 14"), the working's machinery named ("in
millions as the question states"), a dangling "it" or a stacked step, the base of 100 said
again, a table heading used as the noun ("investments — short and long-term"); and their
fifth pass: a label used as a noun without its article ("Taking net fair value of ..."), the
tacked-on note on parenthesised figures ("in the filing, (19.8) is shown in parentheses, and
as an amount it is 19.8") and a loss of a working that gives a negative ("a loss of 83.66 -
100 = -16.34").
"""
from __future__ import annotations

import functools
import re

from tjb_lib.pairs.coherence import parts
from tjb_lib.pairs.filing import PLACE_WORDS, common_words
from tjb_lib.pairs.filing_prose import be
from tjb_lib.pairs.finqa_voice import unit_asked
from tjb_lib.data import FinQAItem, load_finqa
from tjb_lib.pairs.candidates import finqa_check
from tjb_lib.pairs.finqa_analyst import (bare_per_share, coarse_percent, index_restated,
                                         negative_loss, points_as_percent, quarter_as_part,
                                         reuse_reprinted, stray_capitals, total_restated,
                                         unscaled_money, unsigned_money, years_reversed)
from tjb_lib.pairs.finqa_analyst import (given_opening, name_as_figure, per_share_zero,
                                         share_said_twice, years_come_to)
from tjb_lib.pairs.finqa_gold import money_unit, stated_unit
from tjb_lib.pairs.finqa_units import (base_said_again, dangling_step, heading_as_noun,
                                       machinery_named, odd_figures)
from tjb_lib.pairs.finqa_units import (count_unnamed, doubled_at, entity_as_measure, scale_lament, sign_dropped,
                                       sign_template, source_glitches, bare_label, stacked_clause, state_as_noun,
                                       unit_missing, unscaled_lines, vocabulary)
from tjb_lib.pairs.finqa_units import (bare_count, comma_qualifier, date_before_qualifier,
                                       fall_reached, index_unnamed, long_bare_figure)
from tjb_lib.pairs.finqa_units import (label_capitalised, result_tagged, row_for_quantity,
                                       unit_misread)
from tjb_lib.pairs.finqa_units import label_soup as soup_in_sentence
from tjb_lib.pairs.finqa_labels import text_problems as label_text_problems
from tjb_lib.records import Pair
from tjb_lib.text import MONTHS

_QUOTED = re.compile(r"[“\"][^”\"]{3,}[”\"]")
_FRAGMENT = r"[A-Za-z][\w/&'’.-]*(?: [\w/&'’.-]+){0,3}"
_SOUP = re.compile(rf"(?:^|[\s(])(?:{_FRAGMENT}, ){{3,}}{_FRAGMENT}(?= (?:represents|is|are|comes|"
                   rf"come|gives|makes|yields|amounts|works|reaches|less|plus|times|as|by|from|"
                   rf"and|to)\b)")
_REPEATED = re.compile(r"\b([a-z][a-z ]{3,40}), [^,.;]{1,60}, \1\b", re.I)
_LOWER_MONTH = re.compile(r"\b(?:%s) \d" % MONTHS.lower())
_TEMPLATED = re.compile(
    r"\b(?:Turned into a percentage|Put as a percentage|Expressed per hundred|That settles it|"
    r"Answer, all told|this identifies|All of which leads to|Therefore:|In short,|So it is|"
    r"Hence,|Relative to|Set against|Measured against|Taken as a fraction of|What separates|"
    r"Net of|In the (?:smaller|larger) unit|Changing the unit|Applying|Compounding|"
    r"Converting .{1,80}? by (?:multiplying|dividing) by|Together, the (?:combined|sum)\b)(?!\w)")
_BARE_BASE = re.compile(r"(?:\s-\s100(?:\.0+)?\s=)")
_TWO_PERIODS = re.compile(r"\b(?:at|in|as of) (?:[A-Z][a-z]+ \d{1,2}, )?(?:19|20)\d\d "
                          r"(?:at|in|as of) (?:[A-Z][a-z]+ \d{1,2}, )?(?:19|20)\d\d\b")
_COMPUTED = re.compile(r"\b(?:as a share of|as a percentage|less|plus|divided by|times|"
                       r"multiplied by|averaged? over)\b")
_UNIT_NOTE = re.compile(r"\(\s*(?:\$\s*)?in (?:millions|thousands|billions)[^)]*\)", re.I)
_VALUE = r"-?[\d.,]*\d%?"
_NESTED = re.compile(rf"\b(?:difference|sum|total|ratio|product|percentage|average|result|"
                     rf"change)\s\({_VALUE}\)\s(?:between|of)\b[^.;:]*?\({_VALUE}[);]"
                     rf"|\({_VALUE};[^)]*\bstood at\b|\((?:the|a)\s[^()]*\({_VALUE}\)")
_BASE_FIRST = re.compile(r"(?:^|(?<=[.:] ))(?:Of [^,.]{1,120}, |Against (?!its base\b)[^,.]{1,120}, "
                         r"|(?:With|Taking) [^,.]{1,120} as the base, |Less (?!1,)[^,.]{1,120}, "
                         r"|In (?:full|millions|thousands|billions), )")
_BRACKETED_LABEL = re.compile(r"[\w.,-] \((?!loss(?:es)?\)|income\))[A-Za-z][^()]*\)")
_COMPARED = re.compile(r"(?<![\d.%])(-?\d[\d.]*)(%?) (?:≤|>) \(?(-?\d[\d.]*)(%?)")
_PERCENT_CELL = re.compile(r"%\s?(?:change|increase|decrease) \(?-?\d[\d,]*(?:\.\d+)?\)?"
                           r"(?![\d%.,]| vs\b)", re.I)
_LOWER_SERIES = re.compile(r"(?:\b(?:in|With|with) |^|(?<=[.:,] ))([a-z][\w&.'-]*(?: [\w&.'-]+){0,3})"
                           r" (?:stood at|was at|(?:on|from) its base of 100|at \d[\d.]* (?:at|in|on) )")
_INDEX_TEMPLATE = re.compile(r"\b(?:gain|loss) in [^.;]{1,80}? on its base of 100 \(|"
                             r"\bIn percent, the (?:gain|loss)\b")
_MONEY_Q = re.compile(r"\b(?:how much money|cost|paid|proceeds|expenses?|revenues?|liabilit\w*|"
                      r"balance|equity|earnings|income|contributions|amortization|accrual|"
                      r"impact on|exposure)\b", re.I)
_NOT_MONEY_Q = re.compile(r"\b(?:ratio|times|basis points|shares|per transaction|guests|return|"
                          r"index|rate|percent\w*|per (?:common )?share)\b", re.I)
_HUNDRED = re.compile(r"(?<![\d.,])\$?100(?:\.0+)?(?![\d.,]\d)")
_RESCALE = re.compile(r"(?<![\d.])(-?[\d.]+) ([/×]) (1000|1000000) = -?[\d.]+ (?:in )?"
                      r"(thousand|million|billion|full)s?\b")
_RESCALE_TAIL = re.compile(r"(?<![\d.])(-?[\d.]+), or -?\$?(-?[\d.]+) (thousand|million|billion)\b")
_RESCALE_ALONE = re.compile(r"(?<![\d.])-?[\d.]+ / 1000(?:000)? = -?[\d.]+ "
                            r"in (?:thousands|millions|billions)\b")
_LEVELS = ("full", "thousand", "million", "billion")
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


def unitless_answer(question: str, answer: str, program: str = "") -> bool:
    """An answer line without the unit its question asks for ("719.7" for a price per
    share, the last step of ``program`` a division); a yes/no or a percentage needs none."""
    ops = re.findall(r"([a-z_]+)\(", program)
    want = unit_asked(question, ops[-1] if ops else "divide")
    return (want is not None and not re.search(r"%|^(?:yes|no)\b", answer.strip(), re.I)
            and want not in answer)


def unitless_money(item: FinQAItem, answer: str) -> bool:
    """A sum or difference of money answered as a bare number ("Answer: 498") where every
    figure it reads states its scale ("(in millions)")."""
    unit = stated_unit(item)
    return unit is not None and unit.removeprefix("$ ") not in answer


def index_template(reasoning: str) -> list[str]:
    """A return on a base of 100 written as a template around the gain as a label ("In
    percent, the gain in Nasdaq Composite on its base of 100 (65.84) is a return of ...")."""
    return [m.group(0) for m in _INDEX_TEMPLATE.finditer(reasoning)]


def bare_money_answer(question: str, answer: str) -> bool:
    """A money question answered by a bare number ("Answer: 35000000"): no "$", no scale."""
    return (bool(re.fullmatch(r"-?[\d,.]+", answer.strip())) and bool(_MONEY_Q.search(question))
            and not _NOT_MONEY_Q.search(question))


def templated(reasoning: str) -> list[str]:
    """Lead-ins and closing connectives that read as a template, not as an analyst."""
    return [m.group(0) for m in _TEMPLATED.finditer(reasoning)]


def bare_base(reasoning: str) -> list[str]:
    """A step that subtracts 100 in a sentence that never says it is a base of 100."""
    return [s for s in re.split(r"(?<=\.)\s+(?=[A-Z])", reasoning)
            if _BARE_BASE.search(s) and "base of 100" not in s]


def plural_agreement(text: str) -> list[str]:
    """A singular verb after a plural subject ("Revenues was", "finished products in 2018
    comes to"): the subject opening a sentence, or opening the clause after its lead-in."""
    found = []
    for sentence in re.split(r"(?<=[.;:])\s+", text):
        for m in re.finditer(r"(?:^|, )([^,;:]{1,80}?) (?:was|is|comes|gives|exceeds|does|makes|"
                             r"yields)\b", sentence):
            subject = m.group(1)
            if re.match(r"\w+ing\b|(?:and|or|by|from|to)\b", subject) \
                    or _COMPUTED.search(subject):
                continue                     # "Adding ...", "X as a share of Y": one figure;
                                             # "..., 351, by Y gives": no subject
            if be(subject) == "were":
                found.append(m.group(0).lstrip(", "))
    return found


def two_periods(text: str) -> list[str]:
    """A label carrying two periods: a column header pasted onto a row label."""
    return [m.group(0) for m in _TWO_PERIODS.finditer(text)]


def lowered_names(reasoning: str, evidence: list[str]) -> list[str]:
    """A name the evidence writes with capitals ("Asia-Pacific", "JCB", "LKQ") that the
    reasoning writes in lower case, as FinQA's lowercased text has it."""
    names = {w for line in evidence
             for w in re.findall(r"\b[A-Z][a-z]+-[A-Z][a-z]+\b|\b[A-Z]{2,}\b", line)}
    common = common_words()                  # "Long-Term" is a header's title case, no name
    names = {w for w in names if w.lower().split("-")[0] in PLACE_WORDS
             or (w.lower() not in common and not all(p in common for p in w.lower().split("-")))}
    return sorted(w.lower() for w in names
                  if re.search(rf"(?<![\w-]){re.escape(w.lower())}(?![\w-])", reasoning))


def nested_references(reasoning: str) -> list[str]:
    """An earlier result's value in brackets inside the description of another result."""
    return [m.group(0) for m in _NESTED.finditer(reasoning)]


def base_first(reasoning: str) -> list[str]:
    """A sentence that opens on the base it divides by, on what it subtracts, or on a unit,
    with a label for a noun ("Of total revised, ...", "Against X, ...", "Taking X as the base,
    ...", "Less reductions for tax positions, ...", "In full, ...")."""
    return [m.group(0).strip() for m in _BASE_FIRST.finditer(reasoning)]


def bracketed_skip(reasoning: str, result: str) -> bool:
    """A skipped step's result asserted in brackets ("the change ... (-22504)") on the side
    that skips it, where it should be named with what it is computed from."""
    return bool(re.search(rf"\({re.escape(result.strip())}[);]", reasoning))


def unit_note(reasoning: str) -> list[str]:
    """A table's unit note left in the reasoning ("(in thousands)")."""
    return _UNIT_NOTE.findall(reasoning)


def bracketed_labels(reasoning: str) -> list[str]:
    """A row label with its column name in brackets used as a noun ("interest rate Collar
    (fair value)", "euro (2010 maturity)"): label soup, where words say whose cell it is."""
    return _BRACKETED_LABEL.findall(reasoning)


def percent_dropped(reasoning: str, evidence: list[str]) -> list[str]:
    """A comparison of figures the evidence prints as percentages written without their sign
    ("14 ≤ 19" for 14% and 19%)."""
    shown = " ".join(evidence)
    return [m.group(0) for m in _COMPARED.finditer(reasoning)
            if any(not sign and re.search(rf"(?<![\d.]){re.escape(x.lstrip('-'))}\)?%", shown)
                   for x, sign in ((m.group(1), m.group(2)), (m.group(3), m.group(4))))]


def percent_cells(line: str) -> list[str]:
    """A cell of a percentage column printed without its sign ("% change 126.5")."""
    return _PERCENT_CELL.findall(line)


def lowered_series(reasoning: str) -> list[str]:
    """An index table's series (a company) in lower case where it is named against its base
    of 100 ("masco stood at 318.46", "the gain in masco on its base of 100")."""
    return [m.group(1) for m in _LOWER_SERIES.finditer(reasoning)
            if not re.match(r"(?:the|a|an|its|on|of|at)\b", m.group(1))]


def base_unshown(reasoning: str, evidence: list[str]) -> bool:
    """A base of 100 the reasoning reads a figure against that no evidence line gives."""
    return "base of 100" in reasoning and not any(_HUNDRED.search(line) for line in evidence)


def _evidence_level(number: str, evidence: list[str]) -> int | None:
    """The unit (an index into ``_LEVELS``) the evidence gives ``number`` in: the scale word
    after it ("$8.5 million") or its line's unit note ("(in thousands)"); 0 for a number no
    line prints (a result computed from counts and prices); None: printed with no unit."""
    for line in evidence:
        flat = line.replace(",", "")
        m = re.search(rf"(?<![\d.]){re.escape(number.lstrip('-'))}(?![\d]|\.\d)"
                      rf"(?:\s?(thousand|million|billion)s?\b)?", flat)
        if not m:
            continue
        note = re.search(r"\bin (thousand|million|billion)s\b", flat, re.I)
        word = m.group(1) or (note.group(1) if note else None)
        return _LEVELS.index(word.lower()) if word else None
    return 0


def rescaled_units(reasoning: str, evidence: list[str]) -> list[str]:
    """A change of unit whose unit word does not follow from the unit the evidence gives the
    figure ("139549 / 1000 = 139.549 in thousands" for a balance printed "$139,549" with no
    unit; dividing by 1,000 moves thousands to millions, never full units to thousands)."""
    found = []
    for m in _RESCALE.finditer(reasoning):
        start = _evidence_level(m.group(1), evidence)
        steps = {"1000": 1, "1000000": 2}[m.group(3)]
        if start is None or _LEVELS.index(m.group(4)) != start + (steps if m.group(2) == "/"
                                                                   else -steps):
            found.append(m.group(0))
    for m in _RESCALE_TAIL.finditer(reasoning):
        ratio = abs(float(m.group(1)) / float(m.group(2))) if float(m.group(2)) else 0
        steps = next((k for k, r in ((1, 1e3), (2, 1e6)) if abs(ratio / r - 1) < 0.01), None)
        start = _evidence_level(m.group(1), evidence)
        if steps is not None and (start is None or _LEVELS.index(m.group(3)) != start + steps):
            found.append(m.group(0))
    return found


def rescale_alone(reasoning: str) -> list[str]:
    """A change of unit as a templated sentence of its own, its unit after the number as a
    table note has it ("The product (29889860) is 29889860 / 1000000 = 29.9 in millions."):
    an analyst writes "= 29889860, or $29.9 million"."""
    return _RESCALE_ALONE.findall(reasoning)


_SUM = re.compile(r"(?<![\w.])-?\$?\d[\d,]*(?:\.\d+)? \+ \(?-?\$?\d[\d,]*(?:\.\d+)?\)? = "
                  r"(-?\$?\d[\d,]*(?:\.\d+)?)")


def unused_partial_sum(reasoning: str) -> list[str]:
    """A sum worked out and left unused while a later working goes on from another total
    ("385 + 383 = 768. Since the combined contributions for 2012, 2013 and 2014 are 1148,
    ..."): blind readers read it as an addend dropped between the partial sum and the total."""
    flat = reasoning.replace(",", "")
    out = []
    for m in _SUM.finditer(flat):
        rest, total = flat[m.end():], m.group(1).lstrip("$")
        if " = " in rest and not re.search(rf"(?<![\d.]){re.escape(total)}(?!\d|\.\d)", rest):
            out.append(m.group(0))
    return out


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
    if "\\n" in p.task.split("\n")[0]:
        out.append("a literal \\n left in the question")
    for side in ("plain", "cited"):
        part = parts(p, side)
        for q in quoted_subspans(part["reasoning"]):
            out.append(f"quoted sub-span ({side}): {q}")
        for soup in label_soup(part["reasoning"]):
            out.append(f"label soup ({side}): {soup}")
        reasoning, question = part["reasoning"], p.task.split("\n")[0]
        answer = part["answer"].split("\n")[0].removeprefix("Answer:").strip()
        if unitless_answer(p.task.split("\n")[0], answer, p.meta.get("program", "")) or (
                item is not None and unitless_money(item, answer)) \
                or bare_money_answer(p.task.split("\n")[0], answer):
            out.append(f"answer without its unit ({side}): {answer}")
        out.extend(f"money without its sign or separators ({side}): {f}"
                   for f in unsigned_money(p.task.split("\n")[0], answer))
        out.extend(f"money without the scale of its figures ({side}): {f}"
                   for f in unscaled_money(answer, " ".join(part["evidence"])))
        out.extend(f"money per share without its sign ({side}): {f}"
                   for f in bare_per_share(p.task.split("\n")[0], answer))
        evidence = part["evidence"]
        record = vocabulary(item.table, [t for _, t in item.gold_inds]) \
            if item is not None else ""
        for rule, found in (("a figure without its unit",
                             unit_missing(p.task.split("\n")[0], answer, evidence)
                             + count_unnamed(p.task.split("\n")[0], answer)
                             + unscaled_lines(answer, evidence, reasoning)),
                            ("a place or a verb as the measure",
                             entity_as_measure(reasoning)),
                            ("label soup in a sentence", soup_in_sentence(reasoning)),
                            ("a source glitch kept",
                             source_glitches(f"{reasoning} {' '.join(evidence)}",
                                                         record)),
                            ("a negative figure used without a word on its sign",
                             sign_dropped(reasoning, evidence)),
                            ("a note on parentheses as a template", sign_template(reasoning)),
                            ("a label as a noun without its article", bare_label(reasoning)),
                            ("a sentence on the scale the table lacks", scale_lament(reasoning)),
                            ("a level and its date both after 'at'", doubled_at(reasoning)),
                            ("a described result stacked in a clause", stacked_clause(reasoning)),
                            ("a state or a 'Total,' used as the noun", state_as_noun(reasoning)),
                            ("a figure as no analyst prints it", odd_figures(reasoning)),
                            ("the working's machinery named", machinery_named(reasoning)),
                            ("a dangling or stacked step", dangling_step(reasoning)),
                            ("the base of 100 said again", base_said_again(reasoning)),
                            ("a table heading used as the noun", heading_as_noun(reasoning)),
                            ("templated wording", templated(reasoning)),
                            ("a base of 100 not named", bare_base(reasoning)),
                            ("plural subject, singular verb", plural_agreement(reasoning)),
                            ("label with two periods", two_periods(reasoning)),
                            ("unit note in the reasoning", unit_note(reasoning)),
                            ("a result nested in another", nested_references(reasoning)),
                            ("opens on its base or unit", base_first(reasoning)),
                            ("a name in lower case", lowered_names(reasoning, part["evidence"])),
                            ("a column name in brackets", bracketed_labels(reasoning)),
                            ("a percentage without its sign",
                             percent_dropped(reasoning, part["evidence"])),
                            ("a series in lower case", lowered_series(reasoning)),
                            ("a figure's label unreadable", label_text_problems(reasoning)),
                            ("an index return in a template", index_template(reasoning)),
                            ("a unit the rescaling does not give",
                             rescaled_units(reasoning, part["evidence"])),
                            ("a change of unit on its own", rescale_alone(reasoning)),
                            ("a partial sum left unused before a total",
                             unused_partial_sum(reasoning)),
                            ("a loss as a negative number", negative_loss(reasoning)),
                            ("percentage points written as percent", points_as_percent(reasoning)),
                            ("an index level restated", index_restated(reasoning)),
                            ("a stray capital in a label", stray_capitals(reasoning)),
                            ("a change from a later year to an earlier",
                             years_reversed(reasoning)),
                            ("a share rounded too coarsely", coarse_percent(reasoning)),
                            ("a result reprinted where it is reused",
                             reuse_reprinted(reasoning)),
                            ("a running total that names its measure again",
                             total_restated(reasoning)),
                            ("a quarter named as a part of its measure",
                             quarter_as_part(reasoning)),
                            ("a templated opening on a result and its value",
                             given_opening(reasoning)),
                            ("one measure in two years with a plural verb",
                             years_come_to(reasoning)),
                            ("the measure said twice around a share", share_said_twice(reasoning)),
                            ("a name in a period used as the figure", name_as_figure(reasoning)),
                            ("money per share with a trailing zero", per_share_zero(answer)),
                            ("an index without its article", index_unnamed(reasoning)),
                            ("a label's qualifier after a comma", comma_qualifier(reasoning)),
                            ("an average over a bare count", bare_count(reasoning)),
                            ("a fall said as 'reached'", fall_reached(reasoning)),
                            ("a date before the row it qualifies",
                             date_before_qualifier(reasoning)),
                            ("a long figure without separators in prose",
                             long_bare_figure(reasoning)),
                            ("a capitalised label inside a sentence",
                             label_capitalised(reasoning, question, part["evidence"])),
                            ("a row for the quantity the question names",
                             row_for_quantity(reasoning, question)),
                            ("a result tagged onto its name", result_tagged(reasoning)),
                            ("a figure in a unit no analyst writes",
                             unit_misread(reasoning, answer, question))):
            out.extend(f"{rule} ({side}): {f}" for f in found)
        if base_unshown(reasoning, part["evidence"]):
            out.append(f"a base of 100 the evidence never gives ({side})")
        skipped = p.meta.get("omitted_result")
        if skipped and p.meta.get("omitted_text", "") not in reasoning \
                and bracketed_skip(reasoning, str(skipped)):
            out.append(f"skipped result in brackets ({side}): {skipped}")
        for line in part["evidence"]:
            out.extend(f"plural subject, singular verb ({side}): {f}"
                       for f in plural_agreement(line))
            out.extend(f"a percentage without its sign ({side}): {f}" for f in percent_cells(line))
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
