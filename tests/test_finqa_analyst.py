"""The second blind reading's FinQA rules (tjb_lib/pairs/finqa_analyst.py): each catches the
defect it names and passes the text the builder now writes, and the shipped FinQA pairs break
none of them."""
from __future__ import annotations

import pytest

from tjb_lib.data import FinQAStep, load_finqa
from tjb_lib.pairs import finqa_analyst as fa, load_split
from tjb_lib.pairs.coherence import parts
from tjb_lib.pairs.filing import column_of, label_case
from tjb_lib.pairs.filing_prose import be
from tjb_lib.pairs.finqa_rules import plural_agreement
from tjb_lib.pairs.candidates import finqa_candidate, finqa_evidence
from tjb_lib.pairs.finqa_voice import answer_text, arg_text, dollars, equation, result_text


@pytest.mark.parametrize("rule, bad, good", [
    (fa.negative_loss, "and its loss of -16.34 is a return of -16.34 / 100 = -16.34%.",
     "the loss of 16.34 is a return of -16.34 / 100 = -16.34%."),
    (fa.negative_loss, "stood at 89.27, a loss of 89.27 - 100 = -10.73%.",
     "stood at 89.27, a return of 89.27 - 100 = -10.73%."),
    (fa.negative_loss, "Snap-on stood at 83.66 against its base of 100, a loss of 83.66 - 100 = "
     "-16.34.", "Snap-on stood at 83.66 against its base of 100, a change of 83.66 - 100 = "
     "-16.34."),
    (fa.points_as_percent, "is 26.8% - 21.9% = 4.9%.", "is 26.8% - 21.9% = 4.9 percentage points."),
    (fa.index_restated,
     "LKQ Corporation stood at 204 at 12/31/2016 against its base of 100, a gain of 204 - 100 = "
     "104. LKQ Corporation stood at 204 at 12/31/2016 on a base of 100, and its gain of 104 is "
     "a return of 104 / 100 = 104%.",
     "LKQ Corporation stood at 204 at 12/31/2016 against its base of 100, a gain of 204 - 100 = "
     "104. The gain of 104 in LKQ Corporation is a return of 104 / 100 = 104%."),
    (fa.index_restated, "Subtracting the gain in NASDAQ Composite from 100 (10.78) from ...",
     "Subtracting the gain in NASDAQ Composite (10.78) from ..."),
    (fa.stray_capitals, "The fair value of interest rate Collar does not exceed ...",
     "The fair value of interest rate collar does not exceed ..."),
    (fa.stray_capitals, "the return on Dow jones Transportation Average (27.07%)",
     "the return on Dow Jones Transportation Average (27.07%)"),
    (fa.years_reversed, "the change in long-term debt obligations of 733 from 2011 to 2007",
     "the difference in long-term debt obligations between 2007 and 2011, 733,"),
    (fa.coarse_percent, "comes to 17.7 / 488.8 = 4%.", "comes to 17.7 / 488.8 = 3.6%."),
    (fa.total_restated, "Adding basic net income available for common shareholders in 2005 and the "
     "combined basic net income available for common shareholders for 2006 and 2007, 362787, "
     "gives 309183 + 362787 = 671970.", "Adding basic net income available for common "
     "shareholders in 2005 brings the total to 309183 + 362787 = 671970."),
    (fa.quarter_as_part, "The 3rd Qtr of net earnings as a share of the 3rd Qtr of sales",
     "Net earnings in the third quarter as a share of sales and service revenues in the third "
     "quarter"),
    (fa.reuse_reprinted, "In figures, 8.75 / 6.91 = 126.6%. Multiplying the percentage (127%) "
     "by 8.75 gives 127% × 8.75 = 11.11.", "In figures, 8.75 / 6.91 = 126.6%. Multiplying the "
     "percentage (126.6%) by 8.75 gives 126.6% × 8.75 = 11.08."),
    (fa.given_opening, "Putting the change in S&P 500 Index over 2008-2009 at 16.45, as a share "
     "of S&P 500 Index in 2008 that is 16.45 / 63.45 = 25.93%.", "The change in S&P 500 Index "
     "over 2008-2009 is 16.45, which as a share of the 2008 level is 16.45 / 63.45 = 25.93%."),
    (fa.given_opening, "= 768. Using 768 for the combined contributions for 2013 and 2014, "
     "adding the contributions in 2012 gives 768 + 380 = 1148.",
     "= 768. Adding the contributions in 2012 gives 768 + 380 = 1148."),
    (fa.years_come_to, "Together, the service cost in 2018 and 2017 come to 136 + 110 = 246.",
     "The sum of the service cost in 2018 and 2017 is 136 + 110 = 246."),
    (fa.share_said_twice, "As a share of the total deferred compensation plan investments in "
     "2009, the change in total deferred compensation plan investments is 747 / 7943 = 9.4%.",
     "As a share of the 2009 level, the change in total deferred compensation plan "
     "investments is 747 / 7943 = 9.4%."),
    (fa.name_as_figure, "JP Morgan Chase in 2014 does not exceed KBW Bank Index in 2014 "
     "(167.48 ≤ 189.69), so no.", "The JP Morgan Chase figure in 2014 does not exceed the KBW "
     "Bank Index figure in 2014 (167.48 ≤ 189.69), so no."),
    (fa.name_as_figure, "is 5 / 22.5 = 22.2% of S&P 500 at December 31, 2005.",
     "is 5 / 22.5 = 22.2% of the S&P 500 figure at December 31, 2005."),
    (fa.per_share_zero, "$0.420 per share", "$0.42 per share"),
])
def test_a_rule_catches_its_defect_and_passes_the_fix(rule, bad, good):
    assert rule(bad) and not rule(good)


def test_money_carries_its_sign_and_separators():
    q = "What amount is expected to be paid for support incentives in the next three years?"
    assert fa.unsigned_money(q, "3138 million") and fa.unsigned_money(q, "$643822.41")
    assert dollars(q, "3138 million") == "$3,138 million"
    assert dollars(q, "-292 million") == "-$292 million"
    assert dollars(q, "$643822.41") == "$643,822.41"
    assert not fa.unsigned_money(q, dollars(q, "3138 million"))
    shares = "How many shares were issued during the period of 2016 to 2018, in millions?"
    assert dollars(shares, "10 million") == "10 million" and not fa.unsigned_money(shares, "10 million")


def test_money_carries_the_scale_its_table_states():
    """A table whose sentence leading into it gives its unit ("( in thousands ) :") prints it,
    and a money answer from it carries it ("$223,990 thousand", not "$223990")."""
    item = {i.id: i for i in load_finqa()}["DRE/2007/page_56.pdf-3"]
    assert item.table[0][0] == "(in thousands)"
    cand = finqa_candidate(item)
    assert cand.answer == "$223,990 thousand"
    assert all(e.text.endswith("(in thousands).") for e in finqa_evidence(item))
    lines = " ".join(e.text for e in finqa_evidence(item))
    assert fa.unscaled_money("$223,990", lines) and not fa.unscaled_money(cand.answer, lines)
    assert not fa.unscaled_money("$643,822.41", "number of shares repurchased 14,669 and "
                                 "average price per share $43.89.")


def test_money_per_share_carries_its_sign():
    q = "What is the net income per common share in 2007?"
    assert answer_text(q, "1.56", "divide") == "$1.56 per share"
    assert answer_text("What is the net income per common share in 2008?", ".385",
                       "divide") == "$0.385 per share"
    assert fa.bare_per_share(q, "1.56") and not fa.bare_per_share(q, "$1.56 per share")
    assert not fa.bare_per_share("How many shares were repurchased per quarter?", "1.56")


def test_a_participle_after_the_head_noun_leaves_the_verb_plural():
    """"Additions based on tax positions ... were 4", not "was 4": the participle is no head."""
    bad = "Additions based on tax positions related to the current year was 4."
    assert plural_agreement(bad) and be("Additions based on tax positions related to the current "
                                        "year") == "were"
    assert be("Total assets acquired") == be("Shares repurchased") == "were"
    assert be("Total shares outstanding") == "were" and be("Cash used") == "was"
    item = {i.id: i for i in load_finqa()}["AON/2007/page_188.pdf-4"]
    lines = [e.text for e in finqa_evidence(item)]
    assert "Additions based on tax positions related to the current year were 4." in lines
    assert not any(plural_agreement(x) for x in lines)


def test_a_result_prints_as_an_analyst_gives_it():
    points = (FinQAStep("subtract", "26.8%", "21.9%", "4.9%"),)
    share = (FinQAStep("divide", "17.7", "488.8", "4%"),)
    whole = (FinQAStep("divide", "50", "200", "25%"),)
    assert result_text(0, points) == "4.9 percentage points"
    assert result_text(0, share) == "3.6%"
    assert result_text(0, whole) == "25%"


def test_a_reused_result_reads_as_its_step_printed_it():
    """A share printed to one decimal where it is computed is reused at one decimal, never as
    FinQA's whole percent ("= 126.6%", then "126.6% × 8.75", not "127% × 8.75")."""
    steps = (FinQAStep("divide", "8.75", "6.91", "127%"), FinQAStep("multiply", "#0", "8.75", "11.08"))
    assert arg_text("#0", steps) == "126.6%"
    assert equation(1, steps) == "126.6% × 8.75 = 11.08"
    item = {i.id: i for i in load_finqa()}["ABMD/2007/page_78.pdf-2"]
    said = " ".join(finqa_candidate(item).reasoning)
    assert "127%" not in said and said.count("126.6%") >= 2 and not fa.reuse_reprinted(said)


def test_a_running_total_is_not_named_again():
    """A figure added to a running total of its own measure names the figure alone; a step
    that reads a left-out total still names it by what it is computed from."""
    fin = {i.id: i for i in load_finqa()}
    dre, hii = fin["DRE/2007/page_56.pdf-3"], fin["HII/2015/page_121.pdf-3"]
    said = finqa_candidate(dre).reasoning
    assert said[1] == ("Adding the basic net income available for common shareholders in 2005 "
                       "brings the total to 309183 + 362787 = 671970.")
    assert all(not fa.total_restated(" ".join(finqa_candidate(i).reasoning)) for i in (dre, hii))
    skipped = finqa_candidate(dre, omit={0}).reasoning
    assert "brings the total" not in " ".join(skipped) and "362787" in skipped[0]


def test_a_quarter_column_says_when_its_row_falls():
    assert column_of("net earnings", "3rd Qtr") == "net earnings in the third quarter"
    assert column_of("net earnings", "1st quarter") == "net earnings in the first quarter"
    hii = {i.id: i for i in load_finqa()}["HII/2015/page_121.pdf-2"]
    said = " ".join(finqa_candidate(hii).reasoning)
    assert "net earnings in the third quarter" in said and not fa.quarter_as_part(said)


def test_a_label_is_cased_as_one_phrase():
    assert label_case("interest rate Collar") == "interest rate collar"
    assert label_case("total Pilots") == "total pilots"
    assert label_case("Dow jones Transportation Average") == "Dow Jones Transportation Average"
    for name in ("acquisition of Smith International", "balance at December 31", "S&P 500 Index"):
        assert label_case(name) == name


@pytest.mark.parametrize("split", ["mechanical_finqa", "moderate_finqa", "conflict"])
def test_the_shipped_finqa_pairs_break_no_analyst_rule(split):
    found = []
    for p in (p for p in load_split(split) if p.source == "finqa"):
        question = p.task.split("\n")[0]
        for side in ("plain", "cited"):
            part = parts(p, side)
            r = part["reasoning"]
            answer = part["answer"].split("\n")[0].removeprefix("Answer:").strip()
            found += fa.unsigned_money(question, answer) + fa.bare_per_share(question, answer)
            found += fa.unscaled_money(answer, " ".join(part["evidence"]))
            for rule in (fa.negative_loss, fa.points_as_percent, fa.index_restated,
                         fa.stray_capitals, fa.years_reversed, fa.coarse_percent,
                         fa.reuse_reprinted, fa.total_restated, fa.quarter_as_part,
                         fa.given_opening, fa.years_come_to, fa.share_said_twice,
                         fa.name_as_figure):
                found += rule(r)
            found += fa.per_share_zero(answer)
    assert not found
