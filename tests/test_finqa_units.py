"""The strict blind readers' second FinQA pass (tjb_lib/pairs/finqa_units.py): each rule
catches the text the readers stopped at, the builder now writes text it passes, and the
shipped FinQA pairs break none of them."""
from __future__ import annotations

import functools

import pytest

from tjb_lib.data import load_finqa
from tjb_lib.pairs import finqa_units as fu, load_split
from tjb_lib.pairs.candidates import finqa_candidate
from tjb_lib.pairs.coherence import parts
from tjb_lib.pairs.filing import Figure
from tjb_lib.pairs.finqa_voice import with_the


@functools.lru_cache(maxsize=1)
def _items():
    return {i.id: i for i in load_finqa()}


def _said(item_id: str):
    """The builder's candidate for a record: (answer, reasoning, evidence lines)."""
    c = finqa_candidate(_items()[item_id])
    return c.answer, " ".join(c.reasoning), [e.text for e in c.evidence]


@pytest.mark.parametrize("question, bad, good", [
    ("What is the 3 year average net state effective tax rate?", "2.93", "2.93%"),
    ("By how many basis points did net interest yield improve?", "14", "14 basis points"),
    ("What was the cumulative total return on the s & p 500 for the five year period?",
     "136.98", "136.98%"),
    ("What was the total five year change in the nareit all equity index?", "32", "32 points"),
    ("What was the difference in percentage cumulative 5-year total stockholder return?",
     "-31.86", "-31.86 percentage points"),
])
def test_a_rate_return_or_index_answer_gets_its_unit(question, bad, good):
    assert fu.unit_missing(question, bad, "") and fu.rate_unit(question, bad) == good
    assert not fu.unit_missing(question, good, "")
    assert fu.rate_unit("What is the ratio of A to B?", "1.57") == "1.57"


@pytest.mark.parametrize("item_id, answer", [
    ("CME/2017/page_89.pdf-4", "2.93%"), ("JPM/2018/page_90.pdf-4", "14 basis points"),
    ("JKHY/2014/page_30.pdf-1", "136.98%"),
])
def test_the_builder_answers_with_the_unit(item_id, answer):
    assert _said(item_id)[0] == answer


def test_unscaled_evidence_gets_the_scale_the_question_states():
    lines = ["Stock options were 9 in 2018, 11 in 2017 and 13 in 2016."]
    assert fu.unscaled_lines("$241.11 million", lines, "9 × 26.79 = 241.11.")
    answer, reasoning, evidence = _said("HWM/2018/page_96.pdf-1")
    assert reasoning.endswith("= 241.11, or $241.11 million.")
    assert not fu.unscaled_lines(answer, evidence, reasoning)


def test_small_money_with_no_scale_is_stated_as_printed():
    """Money with no scale is stated as the table prints it, never with a sentence on the
    scale the table lacks; small money without the scale a line gives is still caught."""
    q = "What is the after-tax share-based compensation cost in 2010?"
    assert fu.unit_missing(q, "$11.8", ["Cost was $18.1 in 2010 (in millions)."])
    answer, reasoning, evidence = _said("GPN/2010/page_87.pdf-1")
    assert not fu.scale_lament(reasoning) and not fu.unit_missing(q, answer, evidence)
    assert fu.scale_lament("18.1 - 6.3 = 11.8; the table gives no scale for these figures.")


def test_third_pass_rules_fire_on_the_bad_and_stay_quiet_on_the_good():
    assert fu.doubled_at("With S&P 500 at 108.59 at December 31, 2012, its gain")
    assert not fu.doubled_at("S&P 500 stood at 108.59 on December 31, 2012")
    assert fu.stacked_clause("Divided by total assets acquired, the sum of A and B, 18658, "
                             "comes to 18658 / 19427 = 96%.")
    assert not fu.stacked_clause("With the sum of A and B at 18658, dividing by total assets "
                                 "acquired gives 18658 / 19427 = 96%.")
    assert fu.state_as_noun("The shares of non-vested at May 31, 2009 less ...")
    assert fu.state_as_noun("Total, net of cash collateral in 2015 less foreign exchange")
    assert not fu.state_as_noun("Non-vested shares at May 31, 2009 less the total net of cash")
    assert fu.count_unnamed("What is the mathematical range for European cruise guests?",
                            "995365")
    assert not fu.count_unnamed("What is the mathematical range for European cruise guests?",
                                "995,365 guests")


def test_a_negative_used_as_a_negative_says_so():
    lines = ["Vested shares were (379)."]
    bad = "Adding granted shares and vested shares gives 203 + (-379) = -176."
    assert fu.sign_dropped(bad, lines) == ["379"]
    vested = Figure(number=-379.0, printed="379", line=0, row="Vested", col="Shares")
    noted = fu.sign_noted(bad, lines, [vested])                 # said where its label stands
    assert noted == ("Adding granted shares and vested shares, a negative in the table, gives "
                     "203 + (-379) = -176.")
    assert not fu.sign_dropped(noted, lines) and not fu.sign_template(noted)
    loose = fu.sign_noted(bad, lines)                           # no label: one short clause
    assert loose.endswith("= -176, counting the 379 as a negative.") \
        and not fu.sign_dropped(loose, lines) and not fu.sign_template(loose)
    reasoning = _said("SNA/2012/page_110.pdf-2")[1]
    assert "the vested shares, a negative in the table, gives 203 + (-379)" in reasoning \
        and "filing's" not in reasoning


def test_a_parenthesised_figure_subtracted_by_its_size_takes_no_note():
    lines = ["Impairment was $(19.8) in 2012 and $(9.2) in 2011."]
    said = "Between 2011 and 2012, impairment moved from $9.2 to $19.8: 19.8 - 9.2 = 10.6."
    assert not fu.sign_dropped(said, lines) and fu.sign_noted(said, lines) == said


def test_the_tacked_on_parentheses_template_is_a_rule():
    old = ("19.8 - 9.2 = 10.6; in the filing, (19.8) and (9.2) are shown in parentheses, and as "
           "amounts they are 19.8 and 9.2.")
    assert fu.sign_template(old)
    assert fu.sign_template("= 9.4; in the filing, (5.2) is shown in parentheses, and as an "
                            "amount it is 5.2.")
    assert fu.sign_template("1277 + (-466) = 811, counting the (466) the filing shows in "
                            "parentheses as -466.")          # the 7 December readers' template
    assert fu.sign_template("1277 + (-466) = 811, with the filing's (466) as a negative.")
    assert not fu.sign_template("Adding the investing activities in 2015, a negative in the "
                                "table, gives 1277 + (-466) = 811.")     # the 8 December form


@pytest.mark.parametrize("item_id, bad, good", [
    ("ANSS/2012/page_93.pdf-3", "United States went from 188649",
     "revenue from the United States"),
    ("UAA/2016/page_52.pdf-1", "Asia-Pacific in 2015 is 36358",
     "Operating income in Asia-Pacific in 2015 is 36358"),
    ("SWKS/2006/page_81.pdf-2", "the pension adjustments of change in period are 351",
     "the change in pension adjustments over the period"),
    ("BLL/2010/page_37.pdf-4", "and use in 2010 come to 515.2 + 250",
     "the use related to the change in accounting in 2010"),
])
def test_a_place_or_verb_is_not_the_measure(item_id, bad, good):
    assert fu.entity_as_measure(bad)
    reasoning = _said(item_id)[1]
    assert good.lower() in reasoning.lower() and not fu.entity_as_measure(reasoning)


@pytest.mark.parametrize("bad", [
    "For DISCB, the gain of 133.86 is a return of 133.86 / 100 = 133.86%.",
    "Compared with raw materials and supplies in 2017, the change in raw materials and supplies "
    "(17.7) comes to 17.7 / 488.8 = 3.6%.",
    "Between 2011 and year ended December 31, 2012, impairment moved from 9.2 to 19.8.",
    "Dividing the difference between net fair value of derivatives outstanding at December 31, "
    "2008 and net fair value of derivatives outstanding at December 31, 2007, 233629, by net fair "
    "value of derivatives outstanding at December 31, 2007 gives 233629 / 25171 = 928.2%.",
])
def test_label_soup_is_caught(bad):
    assert fu.label_soup(bad)


@pytest.mark.parametrize("item_id, good", [
    ("DISCA/2014/page_64.pdf-2", "That gain of 133.86 is a return of"),
    ("ETFC/2012/page_43.pdf-2", "from 2011 to 2012"),
])
def test_the_builder_writes_no_label_soup(item_id, good):
    reasoning = _said(item_id)[1]
    assert good in reasoning and not fu.label_soup(reasoning)


def test_a_period_is_named_by_years_alone():
    assert fu.period_label("Between 2011 and year ended December 31, 2012, impairment") == \
        "Between 2011 and 2012, impairment"


def test_a_subtraction_names_its_shared_label_once():
    item = _items()["OKE/2008/page_86.pdf-2"]              # the subtraction left out
    skipped = " ".join(finqa_candidate(item, omit={0}).reasoning)
    assert "December 31, 2008 and at December 31, 2007 is 233,629," in skipped \
        and not fu.label_soup(skipped)


def test_source_glitches_are_mended():
    record = fu.vocabulary((), ["trading assets debt and equity instruments",
                                "trading liabilities debt and equityinstruments"])
    assert fu.source_glitches("debt and equityinstruments", record) == ["equityinstruments"]
    assert fu.unglued("debt and equityinstruments", record) == "debt and equity instruments"
    assert fu.source_glitches("in 2007, The NAREIT All Equity Index", "") == ["The"]
    assert fu.mid_sentence_the("in 2007, The NAREIT Index. The gain") == \
        "in 2007, the NAREIT Index. The gain"
    answer, reasoning, evidence = _said("JPM/2009/page_175.pdf-4")
    record = fu.vocabulary(_items()["JPM/2009/page_175.pdf-4"].table, [])
    assert "equity instruments" in " ".join(evidence)
    assert not fu.source_glitches(f"{reasoning} {' '.join(evidence)}", record)
    assert not fu.source_glitches(" ".join(_said("BKNG/2016/page_33.pdf-4")[2]), "")


def test_a_negative_added_back_says_so():
    lines = ["Settlements were (21) in 2008 and (1) in 2007."]
    bad = "Together, settlements in 2008 and balance in 2008 come to 21 + 99 = 120."
    assert fu.sign_dropped(bad, lines) == ["21"]
    assert not fu.sign_dropped(fu.sign_noted(bad, lines), lines)
    reasoning, evidence = _said("PPG/2008/page_52.pdf-1")[1:]
    assert "the settlements in 2008, shown in parentheses, and the balance at December 31 in " \
        "2008" in reasoning and reasoning.endswith("21 + 99 = 120, or $120 million.")
    assert not fu.sign_dropped(reasoning, evidence) and not fu.machinery_named(reasoning)
    two = fu.sign_noted("Together they come to 5536 + 38519 = 44055.",
                        ["Current liabilities were (5,536).", "Other liabilities were (38,519)."])
    assert two.endswith("= 44055, counting the 5,536 and the 38,519 without their parentheses.")


@pytest.mark.parametrize("split", ["mechanical_finqa", "moderate_finqa", "conflict"])
def test_the_shipped_finqa_pairs_break_no_rule(split):
    found = []
    for p in (p for p in load_split(split) if p.source == "finqa"):
        item = _items()[p.source_id]
        record = fu.vocabulary(item.table, [t for _, t in item.gold_inds])
        for side in ("plain", "cited"):
            part = parts(p, side)
            r, ev = part["reasoning"], part["evidence"]
            answer = part["answer"].split("\n")[0].removeprefix("Answer:").strip()
            found += fu.unit_missing(p.task.split("\n")[0], answer, r)
            found += fu.unscaled_lines(answer, ev, r) + fu.entity_as_measure(r)
            found += fu.label_soup(r) + fu.source_glitches(f"{r} {' '.join(ev)}", record)
            found += fu.sign_dropped(r, ev)
    assert not found


def test_fourth_pass_rules_fire_on_the_bad_and_stay_quiet_on_the_good():
    assert fu.odd_figures("Dividing A by B gives 56616 / 146915 = .385.")
    assert fu.odd_figures("The change (0.14) times 100 is 0.14 × 100 = 14.")
    assert fu.odd_figures("The change in rates (-1.8) is -1.8 / 5.3 = -34%.")
    assert not fu.odd_figures("Dividing A by B gives 56616 / 146915 = 0.385. The change (0.14) "
                              "comes to 0.14 × 100 = 14 basis points; 0.2 × 100 = 20%.")
    assert fu.machinery_named("= 241.11, in millions as the question states.")
    assert fu.machinery_named("the table prints (14) and (3) in parentheses, and they are used "
                              "here by size, as 14 and 3.")
    assert not fu.machinery_named("= 120, or $120 million; in the filing, (21) is shown in "
                                  "parentheses, and as an amount it is 21.")
    assert fu.dangling_step("With the change in total sales over 2012-2013 at -3234, it makes up "
                            "-3234 / 47267 = -6.8% of total sales in 2012.")
    assert fu.dangling_step("Taking the product of A and B as 48224, less the product of C and "
                            "D, 41404, it is 48224 - 41404 = 6820.")
    assert fu.dangling_step("Divided by total corporate lending exposure, the total (16769) comes "
                            "to 16769 / 100 = 17%.")
    assert not fu.dangling_step("So the difference is 48224 - 41404 = 6820. With the change in "
                                "total sales over 2012-2013 at -3234, dividing by total sales in "
                                "2012 gives -3234 / 47267 = -6.8%.")
    assert fu.base_said_again("a loss of 83.66 - 100 = -16.34 on the base of 100. A loss of 16.34 "
                              "on the base of 100 is a return of -16.34 / 100 = -16.34%.")
    assert fu.base_said_again("to a gain of 93.5 in CITI, at a level of 193.5 on 31-Dec-2017 "
                              "against its base of 100")
    assert not fu.base_said_again("a loss of 83.66 - 100 = -16.34 on the base of 100. The loss "
                                  "of 16.34 is a return of -16.34 / 100 = -16.34%.")
    for bad in ("the change in total deferred compensation plan investments — short and "
                "long-term (747)", "as a share of development costs incurred during the period "
                "in 2003", "the combined reserve for losses under these programs (90)",
                "plus number of shares repurchased at December 1 through December 31",
                "Long-term debt due thereafter is 3365 / 3774 = 89.2%"):
        assert fu.heading_as_noun(bad)
    assert not fu.heading_as_noun("plus number of shares repurchased from December 1 through "
                                  "December 31 is 138311810 + 14669; development costs in 2003")


@pytest.mark.parametrize("item_id, bad, good", [
    ("GPN/2013/page_87.pdf-3", "it is 48224 - 41404", "So the difference is 48224 - 41404 = 6820."),
    ("DRE/2008/page_46.pdf-1", "= .385", "= 0.385"),
    ("JPM/2018/page_90.pdf-4", "times 100 is", "0.14 × 100 = 14 basis points"),
    ("MRO/2004/page_125.pdf-2", "during the period", "as a share of the 2003 level"),
    ("PPG/2012/page_29.pdf-2", "shares in 2011", "the cost in 2012 by the shares in 2012"),
    ("UNP/2014/page_25.pdf-3", "of freight revenues in 2013", "of the 2012 level"),
    ("NKE/2016/page_37.pdf-2", "due thereafter",
     "the long-term debt due in later years by the total"),
])
def test_the_builder_writes_what_the_fourth_pass_reads(item_id, bad, good):
    answer, reasoning, evidence = _said(item_id)
    assert bad not in reasoning and good in reasoning
    assert not (fu.odd_figures(reasoning) or fu.machinery_named(reasoning)
                or fu.dangling_step(reasoning) or fu.heading_as_noun(reasoning))


def test_a_label_reads_as_a_noun_with_its_article():
    assert fu.bare_label("Taking net fair value of derivatives outstanding at December 31, 2007 "
                         "from net fair value ... leaves 258800 - 25171 = 233629.")
    assert fu.bare_label("Dividing large utilities in 2001 by growth distribution in 2001 gives")
    assert fu.bare_label("Dividing the benefit payments by 2016 benefit payments for international")
    assert not fu.bare_label("Taking the net fair value of derivatives outstanding at December "
                             "31, 2007 from the net fair value ... leaves 258800 - 25171 = 233629.")
    assert not fu.bare_label("Using 811 for the sum, dividing by the total assets gives 2 / 4 = 50%.")
    assert with_the("net fair value at December 31, 2007") == \
        "the net fair value at December 31, 2007"
    assert with_the("2016 benefit payments") == "the 2016 benefit payments"
    assert with_the("S&P 500 Index at 12/14") == "the S&P 500 Index at 12/14"    # an index
    assert with_the("ETRADE Financial Corporation at 12/14") == \
        "ETRADE Financial Corporation at 12/14"                                  # a company
    assert with_the("the total") == "the total" and with_the("237") == "237"


@pytest.mark.parametrize("rule, bad, good", [
    (fu.index_unnamed, "On a base of 100 in 2007, S&P 500 Index stood at 109 in 2012.",
     "On a base of 100 in 2007, the S&P 500 Index stood at 109 in 2012."),
    (fu.index_unnamed, "Between 2011 and 2012, S&P 500 Index moved from 94 to 109: 109 - 94 = 15.",
     "Between 2011 and 2012, the S&P 500 Index moved from 94 to 109: 109 - 94 = 15."),
    (fu.comma_qualifier, "Losses on undesignated foreign exchange derivatives, net went from 3",
     "Net losses on undesignated foreign exchange derivatives went from 3"),
    (fu.comma_qualifier, "Fair value, per share went from $11.75 in 2014",
     "Adding the state taxes, net of federal benefit in 2017 and 2016 gives 2.1 + 3.7 = 5.8."),
    (fu.bare_count, "Averaged over 5, the payments volume comes to 637 / 5 = 127.40.",
     "Averaged over the 3 years, that is 327 / 3 = 109."),
    (fu.fall_reached, "From $4,458.3 in 2017, inventories reached $4,111.8 in 2018: "
                      "4111.8 - 4458.3 = -346.5.",
     "From $9.2 in 2011, impairment reached $19.8 in 2012: 19.8 - 9.2 = 10.6."),
    (fu.date_before_qualifier, "Subtracting the liability as of December 31, 2004 of employee "
                               "separations from",
     "Subtracting the liability of employee separations as of December 31, 2004 from"),
    (fu.long_bare_figure, "As a share of the 2013 level, the change in total assets of -55267 "
                          "from 2013 to 2014 is -55267 / 911507 = -6.1%.",
     "As a share of the 2013 level, the change in total assets of -55,267 from 2013 to 2014 is "
     "-55267 / 911507 = -6.1%."),
    (fu.long_bare_figure, "Since the change in total sales over 2012-2013 is -3234, its share",
     "Since the change in total sales over 2012-2013 is -3,234, its share of the 2012 level"),
])
def test_what_the_readers_of_7_december_stopped_at_is_a_rule(rule, bad, good):
    assert rule(bad) and not rule(good)


@pytest.mark.parametrize("item_id, bad, good", [
    ("VNO/2012/page_84.pdf-2", "100 in 2007, S&P 500 Index", "the S&P 500 Index stood at 109"),
    ("BDX/2018/page_106.pdf-2", "derivatives, net", "Net losses on undesignated foreign exchange "
                                                    "derivatives went from 3 in 2016"),
    ("AMT/2006/page_113.pdf-3", "2004 of employee", "the liability of employee separations as "
                                                    "of December 31, 2004"),
    ("BKR/2017/page_56.pdf-3", "with the filing's (515)",
     "the financing activities in 2015, a negative in the table, gives 811 + (-515)"),
    ("V/2008/page_17.pdf-1", "Averaged over 5,", "Averaged over the total transactions of American "
                                                 "Express, the payments volume"),
])
def test_the_builder_writes_what_the_readers_of_7_december_read(item_id, bad, good):
    reasoning = _said(item_id)[1]
    assert bad not in reasoning and good in reasoning, reasoning
    assert not (fu.index_unnamed(reasoning) or fu.comma_qualifier(reasoning)
                or fu.bare_count(reasoning) or fu.date_before_qualifier(reasoning)
                or fu.sign_template(reasoning))


# The strict readers of 8 December: a row for its quantity, a result tagged onto its name, a
# figure in a unit no analyst writes; each a budget-0 rule the shipped pairs keep.
@pytest.mark.parametrize("question, bad, good", [
    ("What was map's 3 year growth of gasoline production?",
     "The change in Gasoline from 2001 to 2003 is 776 - 748 = 28.",
     "The change in gasoline production from 2001 to 2003 is 776 - 748 = 28."),
    ("Is the weighted average useful life for trademarks greater than customer contracts?",
     "The weighted average useful life of Trademarks is not larger than",
     "The weighted average useful life of trademarks is not larger than"),
    ("What is the mathematical range for European cruise guests from 2010-2014?",
     "Between 2010 and 2014, European Cruise Guests moved from 5,540,000",
     "Between 2010 and 2014, European cruise guests moved from 5,540,000"),
])
def test_a_capitalised_label_inside_a_sentence_is_a_rule(question, bad, good):
    assert fu.label_capitalised(bad, question, []) and not fu.label_capitalised(good, question, [])
    assert not fu.label_capitalised("the gain in Citi is 93.5", "the ratio for s&p 500 to citi?",
                                    ["At 31-Dec-2017, CITI 193.5."])    # a series' name


@pytest.mark.parametrize("question, bad, good", [
    ("What was the percentage growth in sales of cabinets from 2016 to 2017?",
     "The change in cabinets is 69.3 / 2397.8 = 2.9% of the 2016 level.",
     "The change in sales of cabinets is 69.3 / 2397.8 = 2.9% of the 2016 level."),
    ("What was the percentage change in the fair value of our foreign currency forward "
     "contracts from 2008 to 2009?",
     "Between 2008 and 2009, foreign currency forward contracts moved from $1.2 million",
     "Between 2008 and 2009, the fair value of foreign currency forward contracts moved from"),
    ("What is the percentage change in unaffiliated life insurance company from 2016 to 2017?",
     "The unaffiliated life insurance company was 34,444 thousand in 2017",
     "The amount for the unaffiliated life insurance company was 34.4 million in 2017"),
])
def test_a_row_for_the_quantity_the_question_names_is_a_rule(question, bad, good):
    assert fu.row_for_quantity(bad, question) and not fu.row_for_quantity(good, question)


@pytest.mark.parametrize("bad, good", [
    ("The change in Gasoline (28) as a share of the 2001 level is 28 / 748 = 3.7%.",
     "The change in gasoline production as a share of the 2001 level is 28 / 748 = 3.7%."),
    ("Dividing the combined reserve for losses (90) by 2 gives the average, 90 / 2 = 45.",
     "Dividing the combined reserve for losses by 2 gives the average, 90 / 2 = 45."),
    ("Multiplied by 100, the change in net interest yield from 2016 to 2017, 0.11, gives "
     "0.11 × 100 = 11 basis points.",
     "The change in net interest yield from 2016 to 2017 is 0.11 percentage points, or "
     "0.11 × 100 = 11 basis points."),
    ("Since the change in net other intangible assets from 2003 to 2004 is -34,446, it is "
     "-34446 / 1019749 = -3.4% of the 2003 level.",
     "Since the change in net other intangible assets from 2003 to 2004 is -34,446, its share "
     "of the 2003 level is -34446 / 1019749 = -3.4%."),
    ("Written as a percentage, the ratio for gain on land sales is -0.446 × 100 = -44.6%.",
     "As a percentage, that is -0.446 × 100 = -44.6%."),
])
def test_a_result_tagged_onto_its_name_is_a_rule(bad, good):
    assert fu.result_tagged(bad) and not fu.result_tagged(good)
    assert not fu.result_tagged("Adding the granted shares gives 203 + (-379) = -176.")


@pytest.mark.parametrize("bad, good, answer", [
    ("The unaffiliated company was 34,444 thousand in 2017", "was 34.4 million in 2017", "1.7%"),
    ("Between 2008 and 2009, the S&P 500 Index moved from $63.45 to $79.90",
     "Between 2008 and 2009, the S&P 500 Index moved from 63.45 to 79.90", "25.93%"),
    ("the impairment reached $19.8 for year ended December 31, 2012",
     "the impairment reached $19.8 for the year ended December 31, 2012", "$10.6 million"),
    ("gives 1328 - 176 = 1152.", "gives 1328 - 176 = 1152.", "1,152 million"),
])
def test_a_figure_in_a_unit_no_analyst_writes_is_a_rule(bad, good, answer):
    question = "What was the percentage change?"
    assert fu.unit_misread(bad, "1152 million" if answer == "1,152 million" else answer, question)
    assert not fu.unit_misread(good, answer, question)
    assert not fu.unit_misread("moved from 338,240 thousand to 339,235 thousand", "995 thousand",
                               "How many were issued in thousands?")   # the unit asked


@pytest.mark.parametrize("item_id, bad, good", [
    ("FBHS/2017/page_23.pdf-2", "change in cabinets", "change in sales of cabinets"),
    ("UA/2009/page_50.pdf-2", ", foreign currency forward contracts moved",
     "the fair value of foreign currency forward contracts"),
    ("RE/2017/page_159.pdf-2", "34,444 thousand",
     "the amount for the unaffiliated life insurance company"),
    ("MRO/2003/page_45.pdf-3", "Gasoline", "gasoline production"),
    ("RCL/2014/page_17.pdf-1", "European Cruise Guests", "European cruise guests"),
    ("JPM/2015/page_137.pdf-3", "the foreign exchange in", "the foreign exchange hedges in 2015"),
    ("MAS/2012/page_26.pdf-2", "$63.45", "63.45"),
    ("ETFC/2012/page_43.pdf-1", "for year ended", "for the year ended December 31, 2012"),
    ("PNC/2012/page_247.pdf-4", "losses (90)", "combined reserve for losses"),
])
def test_the_builder_writes_what_the_readers_of_8_december_read(item_id, bad, good):
    answer, reasoning, _ = _said(item_id)
    item = _items()[item_id]
    question = item.question
    assert bad not in reasoning and good in reasoning, reasoning
    assert not (fu.row_for_quantity(reasoning, question) or fu.result_tagged(reasoning)
                or fu.unit_misread(reasoning, answer, question))


def test_a_count_with_its_scale_is_grouped():
    assert _said("SLB/2012/page_56.pdf-1")[0] == "1,152 million"


def test_a_figure_per_share_is_said_per_share_and_a_date_once():
    answer, reasoning, _ = _said("PPG/2012/page_29.pdf-2")
    assert answer == "$92 per share" and reasoning.endswith("92 / 1 = 92, or $92 per share.")
    assert fu.unit_misread("The ratio of the cost to the shares is 92 / 1 = 92.", "$92 per share",
                           "What was the average cost per share?")
    reasoning = _said("PKG/2002/page_52.pdf-1")[1]
    assert reasoning.count("January 1, 2000") == 1 and "multiplied by" not in reasoning
