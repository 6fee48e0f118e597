"""FinQA candidates as an analyst writes them: the audit's reading rules (each catches the
defect it names and passes clean text) and the builder behaviour they hold the splits to."""
from __future__ import annotations

import pytest

from tjb_lib.pairs import finqa_rules
from tjb_lib.data import FinQAItem, FinQAStep, load_finqa
from tjb_lib.pairs import load_split
from tjb_lib.pairs.candidates import finqa_candidate, finqa_check, finqa_task, year_problem
from tjb_lib.pairs.filing import figures, mid
from tjb_lib.pairs.filing_prose import evidence_line, row_sentence, sentence_case
from tjb_lib.pairs.finqa_voice import answer_text

TABLE = (("(in millions)", "2012", "2011", "2010"),
         ("Net sales", "$47,182", "$46,499", "$45,803"),
         ("Cost of sales", "$42,186", "$41,364", "$40,560"))
LINES = (("table_1", "the net sales of 2012 is $ 47182 ; the net sales of 2011 is $ 46499 ; "
                     "the net sales of 2010 is $ 45803 ;"),
         ("table_2", "the cost of sales of 2012 is $ 42186 ; the cost of sales of 2011 is $ 41364 ; "
                     "the cost of sales of 2010 is $ 40560 ;"))


def item(question: str, steps: tuple[FinQAStep, ...], lines=LINES, table=TABLE) -> FinQAItem:
    return FinQAItem(id="T/2012/page_1.pdf-1", file="t.json", filename="T/2012/page_1.pdf",
                     question=question, answer=steps[-1].res, exe_ans=0.0, program="",
                     steps=steps, gold_inds=lines, table=table)


# ----------------------------------------------------------------------------- the rules

def test_quoted_sub_spans_are_caught():
    bad = ("Converting “company acquired $8.5 million of intangible assets consisting” by "
           "multiplying by 1000 gives 8.5 × 1000 = 8500.")
    good = "Converting intangible assets by multiplying by 1000 gives 8.5 × 1000 = 8500."
    assert finqa_rules.quoted_subspans(bad) and not finqa_rules.quoted_subspans(good)


def test_label_soup_is_caught_and_a_header_with_a_comma_is_not():
    bad = "Compared with arkansas, total customers, arkansas, residential represents 390668 / 438701 = 89.05%."
    good = ("Compared with total customers (Arkansas), residential customers (Arkansas) represent "
            "390668 / 438701 = 89.05%.")
    header = "Together, other income, net in 2018 and in 2017 is 12 + 7 = 19."
    assert finqa_rules.label_soup(bad)
    assert not finqa_rules.label_soup(good) and not finqa_rules.label_soup(header)


def test_lowercased_filing_text_is_caught_and_sentence_case_passes():
    raw = "as of december 31, 2015 we had $5 million of u.s. deferred tax assets held by ppg."
    assert finqa_rules.lowercased(raw)
    assert finqa_rules.lowercased("Revenue was $40,678 at december 31, 2013.")
    said = sentence_case(raw, "PPG")
    assert said == "As of December 31, 2015 we had $5 million of U.S. deferred tax assets held by PPG."
    assert not finqa_rules.lowercased(said)
    assert evidence_line("text_1", "we held reserves of $ 587 million .", (), "PNC") == \
        "PNC held reserves of $587 million."
    assert evidence_line("text_1", "this increase was $ 5 million .", (), "PNC") is None


def test_linearised_rows_are_caught_and_row_sentences_pass():
    for bad in ("balance as of december 31 2006 the balance as of december 31 2007 of $476915 is 404436;",
                "the net revenue of 2015 is $ 5829 ; the net revenue of 2014 is $ 5735 ;"):
        assert finqa_rules.linearised(bad)
    said = row_sentence(TABLE, 1)
    assert said == "Net sales were $47,182 in 2012, $46,499 in 2011 and $45,803 in 2010 (in millions)."
    assert not finqa_rules.linearised(said) and not finqa_rules.lowercased(said)
    garbled = (("Employee separations", "$20,963", "$496"), ("Employee separations", "$20,963", "$496"))
    assert row_sentence(garbled, 1) is None               # the header row is a data row


# ----------------------------------------------------------------------------- the builder

def test_an_answer_without_the_unit_its_question_asks_for_is_caught():
    q = "What is the average share price for the shares issued in 2015?"
    assert finqa_rules.unitless_answer(q, "719.7", "multiply(2, const_1000000), divide(#0, 2779)")
    assert not finqa_rules.unitless_answer(q, "$719.7 per share", "divide(#0, 2779)")
    assert answer_text(q, "719.7", "divide") == "$719.7 per share"
    cost = "Based on the average price per share, how much did the repurchases cost?"
    assert not finqa_rules.unitless_answer(cost, "643822.41", "multiply(14669, 43.89)")
    assert answer_text(cost, "643822.41", "multiply") == "643822.41"   # price times shares
    millions = "What was the average pension service cost from 2016 to 2018 in millions?"
    assert finqa_rules.unitless_answer(millions, "109", "divide(#1, const_3)")
    assert answer_text(millions, "109", "divide") == "109 million"
    assert not finqa_rules.unitless_answer(millions, "12%", "divide(1, 2)")


def test_templated_wording_is_caught_and_plain_words_pass():
    for bad in ("Turned into a percentage, the change in DISCB (133.86) yields 133.86%.",
                "Relative to revenue in 2006, the change in revenue (179751) amounts to 96%.",
                "Converting compensation expense by multiplying by 1000000 gives 2000000.",
                "Net income in 2015 divided by net revenues in 2015 is 231277 / 3967008 = 5.8%. "
                "That settles it: 5.8%.", "Answer, all told: 26%.", "Therefore: 26%."):
        assert finqa_rules.templated(bad), bad
    good = ("In full, compensation expense of 2 million is 2 × 1000000 = 2000000. Dividing the "
            "compensation expense in full (2000000) by shares in 2015 gives 719.7.")
    assert not finqa_rules.templated(good)


def test_a_base_of_100_must_be_named_as_one():
    bad = "Subtracting 100 from DISCB at December 31, 2014 yields 233.86 - 100 = 133.86."
    good = ("Against its base of 100, DISCB stood at 233.86 at December 31, 2014, a gain of "
            "233.86 - 100 = 133.86.")
    assert finqa_rules.bare_base(bad) and not finqa_rules.bare_base(good)


def test_a_singular_verb_after_a_plural_label_is_caught():
    assert finqa_rules.plural_agreement("Revenues was $5 in 2015.")
    assert finqa_rules.plural_agreement("Against inventories in 2018, finished products in 2018 "
                                        "comes to 988.1 / 4111.8 = 24.03%.")
    for good in ("Revenues were $5 in 2015.", "Net consideration transferred to sellers was $605.",
                 "Adding contributions in 2014 and 2013 gives 385 + 383 = 768.",
                 "Net earnings in 2013 as a share of total assets in 2013 is 1 / 4 = 25%.",
                 "Against inventories in 2018, finished products in 2018 come to 1 / 4 = 25%."):
        assert not finqa_rules.plural_agreement(good), good


def test_two_periods_on_one_label_and_a_unit_note_in_the_reasoning_are_caught():
    soup = "Balance at December 27, 2008 at December 29, 2007 is 126.6."
    assert finqa_rules.two_periods(soup) and not finqa_rules.two_periods(
        "Balance at December 29, 2007 is 126.6.")
    assert finqa_rules.unit_note("In thousands, net sales (in thousands) is 5 / 1000 = 0.005.")
    assert not finqa_rules.unit_note("In thousands, net sales is 5 / 1000 = 0.005.")


BASE_TABLE = (("", "12/31/2011", "12/31/2016"), ("LKQ Corporation", "$100", "$204"),
              ("S&P 500 Index", "$100", "$178"))
BASE_LINES = (("table_1", "the lkq corporation of 12/31/2011 is $ 100 ; the lkq corporation of "
                          "12/31/2016 is $ 204 ;"),
              ("table_2", "the s&p 500 index of 12/31/2011 is $ 100 ; the s&p 500 index of "
                          "12/31/2016 is $ 178 ;"))
RETURNS = (FinQAStep("minus1-1", "204", "const_100", "104"),
           FinQAStep("divide1-2", "#0", "const_100", "104%"),
           FinQAStep("minus1-3", "178", "const_100", "78"),
           FinQAStep("divide1-4", "#2", "const_100", "78%"),
           FinQAStep("minus1-5", "#1", "#3", "26%"))


def test_a_return_on_a_base_of_100_reads_as_one_and_a_skipped_step_shows_as_skipped():
    lkq = item("what was the difference in percentage cumulative return for lkq and the s&p 500 "
               "for the five years ended 12/31/2016?", RETURNS, BASE_LINES, BASE_TABLE)
    full = finqa_candidate(lkq).reasoning
    assert all(not finqa_rules.bare_base(s) and not finqa_rules.templated(s) for s in full)
    assert "base of 100" in full[0] and "gain of 204 - 100 = 104" in full[0]
    assert "the return on the S&P 500 Index from the return on LKQ Corporation gives 104% - 78%" \
        in full[-1]                                 # the return's value in its equation alone
    short = finqa_candidate(lkq, omit={2}).reasoning
    assert len(short) == 4 and "S&P 500 Index" in short[2]          # the skipped step's figures,
    assert "178" in short[2] and "78 / 100 = 78%" in short[2]       # underived, none nested
    assert not finqa_rules.nested_references(short[2]) and not finqa_rules.bracketed_skip(
        short[2], "78")


def test_an_earlier_result_nested_in_another_is_caught_and_a_short_name_passes():
    for bad in ("Dividing the difference (2.4) between the difference (11.8) and the difference "
                "(9.4) by the difference (9.4) gives 2.4 / 9.4 = 25.5%.",
                "Averaged over 3, the sum (327) of service cost in 2016 and the combined service "
                "cost (246) comes to 327 / 3 = 109.",
                "As a return, the loss in Snap-on on its base of 100 (-16.34; Snap-on Incorporated "
                "stood at 83.66 at December 31, 2008) is -16.34 / 100 = -16.34%."):
        assert finqa_rules.nested_references(bad), bad
    for good in ("The change from 2009 to 2010 (2.4) is 2.4 / 9.4 = 25.5% of the difference in "
                 "2009 (9.4).",
                 "Averaged over 3, the combined service cost for 2016, 2017 and 2018 (327) comes "
                 "to 327 / 3 = 109.",
                 "The ratio of the gain in S&P 500 on its base of 100 (108.1) to the gain in CITI "
                 "on its base of 100 (93.5) is 108.1 / 93.5 = 1.16."):
        assert not finqa_rules.nested_references(good), good


def test_a_sentence_opening_on_its_base_or_unit_is_caught_and_the_part_first_passes():
    for bad in ("Of total revised, goodwill (revised) is 64 / 549 = 11.7%.",
                "Against freight revenues in 2013, the change in freight revenues (0) comes to 0%.",
                "Taking shares as the base, the cost in full (2000000) comes to 719.7.",
                "Less reductions for tax positions, balance at March 31, 2008 comes to 168 - 56 "
                "= 112.",
                "In full, total cost of these repurchases of 2 million is 2 × 1000000 = 2000000."):
        assert finqa_rules.base_first(bad), bad
    for good in ("Goodwill (revised) is 64 / 549 = 11.7% of total revised.",
                 "On a base of 100, S&P 500 stood at 208.1, a gain of 208.1 - 100 = 108.1.",
                 "Less 1, the ratio for balance (1.693) gives the growth, 1.693 - 1 = 69.3%.",
                 "Total cost of these repurchases was 2 million, or 2 × 1000000 = 2000000 in "
                 "full."):
        assert not finqa_rules.base_first(good), good


def test_a_skipped_result_is_named_by_what_it_is_computed_from_not_bracketed():
    bad = ("As a share of total financial liabilities at fair value in 2012, the change in total "
           "financial liabilities at fair value from 2012 to 2013 (-22504) is -22504 / 377677 = "
           "-6.0%.")
    good = ("The change in total financial liabilities at fair value from 2012 to 2013, -22504, "
            "as a share of total financial liabilities at fair value in 2012 is -22504 / 377677 = "
            "-6.0%.")
    assert finqa_rules.bracketed_skip(bad, "-22504")
    assert not finqa_rules.bracketed_skip(good, "-22504")


def test_a_change_of_unit_names_the_units_and_the_answer_carries_its_own():
    aon = item("what is the average share price for the shares repurchased in 2015?",
               (FinQAStep("multiply1-1", "2", "const_1000000", "2000000"),
                FinQAStep("divide1-2", "#0", "2779", "719.7")),
               lines=(("text_1", "during 2015 the company repurchased 2779 shares ; the total cost "
                                 "of these repurchases was $ 2 million ."),), table=())
    assert finqa_check(aon) is None
    c = finqa_candidate(aon)
    assert c.answer == "$719.7 per share"
    assert "2 million" in c.reasoning[0] and "in full" in c.reasoning[0].lower()
    assert "the total cost of these repurchases in full to the shares is 2000000 / 2779" \
        in c.reasoning[1]
    assert not any(finqa_rules.base_first(s) for s in c.reasoning)
    assert not any(finqa_rules.templated(s) for s in c.reasoning)


def test_a_row_label_that_carries_its_own_date_takes_the_column_date_instead():
    table = (("", "December 27, 2008", "December 29, 2007"),
             ("Balance at December 27, 2008", "$214.4", "$126.6"))
    lines = (("table_1", "the balance at december 27 2008 of december 27 2008 is $ 214.4 ; the "
                         "balance at december 27 2008 of december 29 2007 is $ 126.6 ;"),)
    labels = {f.printed: f.label() for f in figures(lines, table)}
    assert labels["126.6"] == "balance at December 29, 2007", labels
    assert not finqa_rules.two_periods(" ".join(filter(None, labels.values())))


def test_a_question_and_a_program_that_disagree_on_the_year_are_rejected():
    asked = "what was the percentage change in net sales from 2011 to 2012?"
    wrong = item(asked, (FinQAStep("minus1-1", "46499", "45803", "696"),
                         FinQAStep("divide1-2", "#0", "45803", "1.5%")))     # 2011 on 2010
    right = item(asked, (FinQAStep("minus1-1", "47182", "46499", "683"),
                         FinQAStep("divide1-2", "#0", "46499", "1.5%")))
    assert year_problem(wrong) == finqa_check(wrong) == \
        "the question and the program disagree on the year"
    assert year_problem(right) is None and finqa_check(right) is None
    share = item("what share of 2012 net sales was cost of sales?",             # wrong year's row
                 (FinQAStep("divide1-1", "41364", "47182", "87.7%"),))
    assert finqa_check(share) == "the program sets figures of different years against each other"


def test_figures_are_named_by_what_they_are_or_the_record_is_dropped():
    said = (("text_1", "we held specific reserves in the alll of $ 587 million and $ 580 million "
                       "at december 31 , 2012 and december 31 , 2011 , respectively ."),)
    names = {f.printed: f.label() for f in figures(said)}
    assert names["587"] == "specific reserves in the alll in 2012"
    assert names["580"] == "specific reserves in the alll in 2011"
    acquired = (("text_1", "in 2006 the company acquired $ 8.5 million of intangible assets "
                           "consisting of customer relationships ."),)
    assert [f.label() for f in figures(acquired) if f.printed == "8.5"] == ["intangible assets in 2006"]
    table = {f.printed: f.label() for f in figures(LINES, TABLE)}
    assert table["47182"] == "net sales in 2012" and table["41364"] == "cost of sales in 2011"
    vague = item("what was the difference?", (FinQAStep("minus1-1", "9", "5", "4"),),
                 lines=(("text_1", "after that , 9 and 5 were left ."),), table=())
    assert finqa_check(vague) == "a figure the gold lines do not name"
    c = finqa_candidate(item("what was the change in net sales from 2011 to 2012?",
                             (FinQAStep("minus1-1", "47182", "46499", "683"),)))
    assert "net sales" in c.reasoning[0].lower() and "“" not in c.reasoning[0]
    assert [e.text for e in c.evidence] == [row_sentence(TABLE, 1)]   # only the row it reads


def test_a_partial_sum_left_unused_before_a_total_is_caught():
    """Readers read "385 + 383 = 768." followed by a total of 1148 as an addend dropped."""
    for bad in ("The sum of the contributions in 2014 and 2013 is 385 + 383 = 768. Since the "
                "combined contributions for 2012, 2013 and 2014 are 1148, the average over the 3 "
                "years is 1148 / 3 = 382.7.",
                "Adding the total goodwill and the total customer-related intangible assets gives "
                "13536 + 4091 = 17627. The sum of the three is 18,658, which as a share of the "
                "total assets acquired is 18658 / 19427 = 96%."):
        assert finqa_rules.unused_partial_sum(bad), bad
    for good in ("The sum of the contributions in 2014 and 2013 is 385 + 383 = 768. Adding the "
                 "contributions in 2012 gives 768 + 380 = 1148. Averaged over the 3 years, that "
                 "is 1148 / 3 = 382.7.",
                 "Adding the goodwill and the intangible assets gives 13,536 + 4,091 = 17,627. As "
                 "a share of the total assets acquired, that is 17627 / 19427 = 90.7%.",
                 "Adding the reserve for losses in 2012 and 2011 gives 43 + 47 = 90."):
        assert not finqa_rules.unused_partial_sum(good), good


@pytest.mark.parametrize("name", ["mechanical_finqa", "moderate_finqa", "conflict"])
def test_built_finqa_pairs_break_no_reading_rule(fresh_build, name):
    root, _ = fresh_build
    pairs = [p for p in load_split(name, root) if p.source == "finqa"]
    assert pairs and finqa_rules.breaches(pairs) == []


def test_a_name_the_evidence_capitalises_is_not_lowered_in_the_reasoning():
    evidence = ["Asia-Pacific was 36,358 in 2015 and 21,858 in 2014 (in thousands).",
                "Long-Term debt was 115 in 2017 (in millions)."]
    assert finqa_rules.lowered_names("Dividing asia-pacific in 2015 by total operating income "
                                     "in 2015 gives 9%.", evidence) == ["asia-pacific"]
    assert finqa_rules.lowered_names("Dividing Asia-Pacific in 2015 by long-term debt in 2017 "
                                     "gives 9%.", evidence) == []
    assert mid("Asia-Pacific") == "Asia-Pacific" and mid("Net revenue") == "net revenue"


def test_a_column_name_in_brackets_is_caught_and_a_cell_in_words_passes():
    bad = ("Interest rate Collar (fair value) does not exceed interest rate swap (fair value) "
           "(-4096 ≤ 891), so no.")
    good = ("The fair value of interest rate Collar does not exceed the fair value of interest "
            "rate swap (-4096 ≤ 891), so no. Net income (loss) in 2012 is 17388.")
    assert finqa_rules.bracketed_labels(bad) and not finqa_rules.bracketed_labels(good)
    assert mid_label("Interest rate Collar", "fair value") == ("the fair value of interest rate "
                                                                "Collar")
    assert mid_label("2016 benefit payments", "United States") == ("2016 benefit payments for "
                                                                   "the United States")


def mid_label(row: str, col: str) -> str:
    from tjb_lib.pairs.filing import column_of
    return column_of(row, col)


def test_a_percentage_keeps_its_sign_in_a_comparison_and_in_a_percentage_column():
    evidence = ["AAA/Aaa was 14% at December 31, 2009 and 19% at December 31, 2008."]
    bad = "AAA/Aaa at December 31, 2009 is not larger than AAA/Aaa at December 31, 2008: 14 ≤ 19"
    assert finqa_rules.percent_dropped(bad, evidence)
    assert not finqa_rules.percent_dropped(bad.replace("14 ≤ 19", "14% ≤ 19%"), evidence)
    assert finqa_rules.percent_cells("EMEA was 3,122 in 2015; % change 126.5 (in thousands).")
    assert not finqa_rules.percent_cells("EMEA was 3,122 in 2015; % change 126.5% and % change "
                                         "2009 vs. 2008 (5)%.")
    table = (("(In thousands)", "2015", "% Change"), ("North America", "$460,961", "23.8%"),
             ("EMEA", "3,122", "126.5"))
    assert not finqa_rules.percent_cells(row_sentence(table, 2))


def test_a_series_against_its_base_is_named_as_the_table_prints_it_and_the_base_is_shown():
    assert finqa_rules.lowered_series("On a base of 100, masco stood at 318.46 in 2017, a gain.")
    assert not finqa_rules.lowered_series("On a base of 100, Masco stood at 318.46 in 2017.")
    said = "With Snap-on at 83.66 at December 31, 2008, its loss on the base of 100 is -16.34."
    assert finqa_rules.base_unshown(said, ["Snap-on was 83.66 at December 31, 2008."])
    assert not finqa_rules.base_unshown(said, ["At December 31, 2007, Snap-on $100.00.",
                                               "Snap-on was 83.66 at December 31, 2008."])
    table = (("Date", "Snap-on", "S&P 500"), ("December 31, 2007", "$100.00", "$100.00"),
             ("December 31, 2008", "83.66", "63.00"))
    lines = (("table_2", "date the december 31 2008 of snap-on is 83.66 ; the december 31 2008 "
                         "of s&p 500 is 63.00 ;"),)
    record = item("what was the return on snap-on stock from 2007 to 2008?",
                  (FinQAStep("minus1-1", "83.66", "const_100", "-16.34"),), lines, table)
    shown = [e.text for e in finqa_candidate(record).evidence]
    assert shown[0].startswith("At December 31, 2007") and "$100.00" in shown[0]


def test_together_with_the_combined_is_templated():
    assert finqa_rules.templated("Together, the combined dividends for 2011 and 2012 (713) and "
                                 "dividends in 2010 come to 1073.")


def test_a_sum_of_money_carries_the_unit_its_figures_state():
    lines = (("text_1", "for fiscal 2014 and 2013 , the company recorded share-based "
                        "compensation cost of $ 172 million and $ 179 million , respectively ."),)
    record = item("what was the total share-based compensation cost for 2013 and 2014?",
                  (FinQAStep("add1-1", "172", "179", "351"),), lines, ())
    assert finqa_rules.unitless_money(record, "351")
    assert finqa_candidate(record).answer == "$351 million"
    assert not finqa_rules.unitless_money(record, "$351 million")


def test_a_change_of_unit_follows_the_unit_the_evidence_gives():
    """"139549 / 1000 = 139.549 in thousands" for a balance printed "$139,549" (no unit)."""
    bare = ["Ending balance as of November 28, 2008 was $139,549."]
    assert finqa_rules.rescaled_units("It comes to 139549 / 1000 = 139.549 in thousands.", bare)
    assert finqa_rules.rescaled_units("It comes to 139549 / 1000 = 139.549 in millions.", bare)
    noted = ["Ending balance was $139,549 (in thousands)."]
    assert not finqa_rules.rescaled_units("It comes to 139549 / 1000 = 139.549 in millions.", noted)
    said = ["SNPS acquired $8.5 million of intangible assets."]
    assert not finqa_rules.rescaled_units("8.5 × 1000 = 8500 in thousands.", said)
    assert finqa_rules.rescaled_units("= 29889860, or $29.9 thousand.", ["options 6,569,200"])
    assert not finqa_rules.rescaled_units("= 29889860, or $29.9 million.", ["options 6,569,200"])


def test_a_change_of_unit_joins_the_result_it_rescales():
    """PKG: "The product (29889860) is 29889860 / 1000000 = 29.9 in millions." reads as a
    template; an analyst writes "... = 29889860, or $29.9 million."."""
    pkg = next(i for i in load_finqa() if i.id == "PKG/2002/page_52.pdf-1")
    full = finqa_candidate(pkg).reasoning
    assert len(full) == 1 and full[0].endswith("6569200 × 4.55 = 29889860, or $29.9 million.")
    short = " ".join(finqa_candidate(pkg, omit={0}).reasoning)
    assert short.endswith("29889860 / 1000000 = 29.9 million.")
    assert finqa_rules.rescale_alone("The product (29889860) is 29889860 / 1000000 = 29.9 in "
                                     "millions.")
    assert not any(finqa_rules.rescale_alone(s) for s in (*full, short))


def test_a_literal_newline_is_cleared_from_the_question():
    pnc = next(i for i in load_finqa() if i.id == "PNC/2012/page_100.pdf-1")
    assert "\\n" in pnc.question
    assert finqa_task(pnc).split("\n")[0].endswith("December 31 2011?")
