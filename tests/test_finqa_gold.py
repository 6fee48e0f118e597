"""FinQA gold programs a careful reader stops at (``tjb_lib.pairs.finqa_gold``): a record that
breaks a rule is rejected by ``finqa_check`` with that rule's reason, the same record with a
sound program is kept, and no split uses a rejected record."""
from __future__ import annotations

import dataclasses

import pytest

from tjb_lib.data import FinQAItem, FinQAStep, load_finqa
from tjb_lib.pairs import finqa_gold as gold
from tjb_lib.pairs import load_split
from tjb_lib.pairs.candidates import finqa_check

TABLE = (("(in millions)", "2012", "2011", "2010"),
         ("Net sales", "$47,182", "$46,499", "$45,803"),
         ("Cost of sales", "$42,186", "$41,364", "$40,560"),
         ("Net income", "$2,526", "$1,979", "$1,801"))
LINES = (("table_1", "the net sales of 2012 is $ 47182 ; the net sales of 2011 is $ 46499 ; "
                     "the net sales of 2010 is $ 45803 ;"),
         ("table_2", "the cost of sales of 2012 is $ 42186 ; the cost of sales of 2011 is $ 41364 ; "
                     "the cost of sales of 2010 is $ 40560 ;"),
         ("table_3", "the net income of 2012 is $ 2526 ; the net income of 2011 is $ 1979 ; "
                     "the net income of 2010 is $ 1801 ;"))


def item(question: str, *steps: tuple[str, str, str, str], lines=LINES, table=TABLE) -> FinQAItem:
    program = tuple(FinQAStep(*s) for s in steps)
    return FinQAItem(id="T/2012/page_1.pdf-1", file="t.json", filename="T/2012/page_1.pdf",
                     question=question, answer=program[-1].res, exe_ans=0.0, program="",
                     steps=program, gold_inds=lines, table=table)


def real(record_id: str) -> FinQAItem:
    """A record of data/raw/finqa, by id."""
    return next(i for i in load_finqa() if i.id == record_id)


SIGNED = (("(in thousands)", "2012", "2011"), ("Net income (loss)", "$17,388", "$(38,957)"))
SIGNED_LINE = (("table_1", "the net income ( loss ) of 2012 is $ 17388 ; the net income ( loss ) "
                           "of 2011 is $ -38957 ( 38957 ) ;"),)
PROCEEDS = (("table_1", "the net assets acquired of 2012 is $ 1042661 ;"),
            ("text_2", "the company realized net proceeds of $ 170.8 million from the sale of "
                       "excess assets in 2012 ."))
ASSETS = (("(in thousands)", "2012"), ("Net assets acquired", "$1,042,661"))
PLAN = (("text_1", "in 2012 , 2779 shares were issued to employees under the plan ."),
        ("text_2", "compensation expense of $ 2 million was recognized in 2012 ."))
BOUGHT = (("text_1", "during 2012 the company repurchased 2779 shares ; the total cost of these "
                     "repurchases was $ 2 million ."),)
EXPENSED = (("table_1", "the basic weighted-average shares outstanding of 2012 is 156.6 ;"),
            ("text_2", "for the year ended december 31 , 2012 , the amounts expensed for these "
                       "plans were $ 17.3 million ."))
SHARES = (("(in millions)", "2012"), ("Basic weighted-average shares outstanding", "156.6"))

EMEA = (("(in thousands)", "2015"), ("EMEA", "3,122"), ("Total operating income", "$408,547"))
EMEA_LINES = (("table_1", "the emea of 2015 is 3122 ;"),
              ("table_2", "the total operating income of 2015 is $ 408547 ;"))
EURO = (("(in $ millions)", "2010 maturity"), ("Euro", "(372)"), ("Total", "(677)"))
EURO_LINES = (("table_1", "the euro of 2010 maturity is -372 ( 372 ) ;"),
              ("table_2", "the total of 2010 maturity is -677 ( 677 ) ;"))

NOTED = tuple((k, "( in millions ) " + t) for k, t in LINES)     # the table's unit note kept


def changed(record_id: str, question: str, *steps: tuple[str, str, str, str]) -> FinQAItem:
    """A real record with another question and program."""
    program = tuple(FinQAStep(*s) for s in steps)
    return dataclasses.replace(real(record_id), question=question, steps=program,
                               answer=program[-1].res)


INDEX = (("", "2013", "2017"), ("Masco", "$138.48", "$318.46"))
INDEX_LINES = (("table_1", "the masco of 2013 is $ 138.48 ; the masco of 2017 is $ 318.46 ;"),)
BASED = (("Date", "Masco"), ("December 31, 2012", "$100.00"), ("December 31, 2017", "$318.46"))
BASED_LINES = (("table_2", "date the december 31 2017 of masco is $ 318.46 ;"),)

# (reason, the record that breaks the rule, the same record with a sound program)
CASES = [
    (gold.SIGN,
     item("what was the percentage change in net income ( loss ) from 2011 to 2012?",
          ("subtract1-1", "17388", "-38957", "56345"), ("divide1-2", "#0", "38957", "145%"),
          lines=SIGNED_LINE, table=SIGNED),
     item("what was the change in net income ( loss ) from 2011 to 2012?",      # -145% reads
          ("subtract1-1", "17388", "-38957", "56345"),                        # against its
          lines=tuple((k, "( in thousands ) " + t) for k, t in SIGNED_LINE),  # base: none
          table=SIGNED)),
    (gold.SCALE,
     item("what were the net assets acquired after the sale of the excess assets , in thousands?",
          ("subtract1-1", "1042661", "170.8", "1042490.2"), lines=PROCEEDS, table=ASSETS),
     item("what were the net assets acquired after the sale of the excess assets , in thousands?",
          ("multiply1-1", "170.8", "const_1000", "170800"),
          ("subtract1-2", "1042661", "#0", "871861"), lines=PROCEEDS, table=ASSETS)),
    (gold.EXPENSES,
     item("what were total expenses in 2012?", ("subtract1-1", "47182", "2526", "44656")),
     item("what was net sales less net income in 2012?",
          ("subtract1-1", "47182", "2526", "44656"))),
    (gold.PERCENT_AS_DIFFERENCE,
     item("what percentage of net sales was cost of sales in 2012?",
          ("subtract1-1", "47182", "42186", "4996")),
     item("what percentage of net sales was cost of sales in 2012?",
          ("divide1-1", "42186", "47182", "89.4%"))),
    (gold.DIFFERENCE_AS_PERCENT,
     item("by how much did net sales increase from 2011 to 2012?",
          ("subtract1-1", "47182", "46499", "683"), ("divide1-2", "#0", "46499", "1.5%")),
     item("by how much did net sales increase from 2011 to 2012?",
          ("subtract1-1", "47182", "46499", "683"))),
    (gold.DIFFERENCE_AS_PERCENT,
     item("what was the percent of the change in net sales from 2011 to 2012?",
          ("divide1-1", "46499", "47182", "98.6%")),
     item("what was the percent of the change in net sales from 2011 to 2012?",
          ("subtract1-1", "47182", "46499", "683"), ("divide1-2", "#0", "46499", "1.5%"))),
    (gold.ROUNDING,
     item("what was the percentage change in net sales from 2011 to 2012?",
          ("subtract1-1", "47182", "46499", "683"), ("divide1-2", "#0", "46499", "1.4%")),
     item("what was the percentage change in net sales from 2011 to 2012?",
          ("subtract1-1", "47182", "46499", "683"), ("divide1-2", "#0", "46499", "1.5%"))),
    (gold.YEAR,
     item("what was the change in net sales from 2010 to 2012?",
          ("subtract1-1", "47182", "46499", "683")),
     item("what was the change in net sales from 2010 to 2012?",
          ("subtract1-1", "47182", "45803", "1379"))),
    (gold.PRICE,
     item("what is the average share price for the shares issued in 2012?",
          ("multiply1-1", "2", "const_1000000", "2000000"), ("divide1-2", "#0", "2779", "719.7"),
          lines=PLAN, table=()),
     item("what is the average share price for the shares repurchased in 2012?",
          ("multiply1-1", "2", "const_1000000", "2000000"), ("divide1-2", "#0", "2779", "719.7"),
          lines=BOUGHT, table=())),
    (gold.PER_SHARE,
     item("how much was expensed per basic weighted-average share in 2012?",
          ("divide1-1", "156.6", "17.3", "9.05"), lines=EXPENSED, table=SHARES),
     item("how much was expensed per basic weighted-average share in 2012?",
          ("divide1-1", "17.3", "156.6", "0.11"), lines=EXPENSED, table=SHARES)),
    (gold.BELOW_ONE,
     item("what percent of total operating income was emea in 2015?",
          ("divide1-1", "3122", "408547", "1%"), lines=EMEA_LINES, table=EMEA),
     item("what percent of total operating income was emea in 2015?",
          ("divide1-1", "3122", "408547", "0.76%"), lines=EMEA_LINES, table=EMEA)),
    (gold.SIGN_FLIPPED,
     item("what would the 2010 total maturity be without the euro?",
          ("add1-1", "-677", "372", "-305"), lines=EURO_LINES, table=EURO),
     item("what would the 2010 total maturity be without the euro?",
          ("subtract1-1", "-677", "-372", "-305"), lines=EURO_LINES, table=EURO)),
    (gold.REMOVED_BY_ADDING,
     item("what would net sales in 2012 have been without the net income of 2012?",
          ("add1-1", "47182", "2526", "49708")),
     item("what would net sales in 2012 have been without the net income of 2012?",
          ("subtract1-1", "47182", "2526", "44656"))),
    (gold.ROW_UNREAD,
     item("how much greater were net sales than net income in 2012?",
          ("subtract1-1", "47182", "42186", "4996")),
     item("how much greater were net sales than net income in 2012?",
          ("subtract1-1", "47182", "2526", "44656"))),
    (gold.BASE_UNSHOWN,
     item("what was the cumulative total return on masco stock for the five years ended 2017?",
          ("subtract1-1", "318.46", "const_100", "218.46"), lines=INDEX_LINES, table=INDEX),
     item("what was the cumulative total return on masco stock for the five years ended 2017?",
          ("subtract1-1", "318.46", "const_100", "218.46"), lines=BASED_LINES, table=BASED)),
    (gold.CHANGE_ON_LATER,                          # 2006-to-2007 change over the 2007 fees
     real("ZBH/2007/page_67.pdf-1"),
     item("what was the percentage change in net sales from 2011 to 2012?",
          ("subtract1-1", "47182", "46499", "683"), ("divide1-2", "#0", "46499", "1.5%"))),
    (gold.VESTED, real("GPN/2010/page_89.pdf-4"), real("HOLX/2009/page_151.pdf-1")),
    (gold.RANGE,
     item("what is the range of net sales over 2010-2012?",
          ("subtract1-1", "47182", "46499", "683")),
     item("what is the range of net sales over 2010-2012?",
          ("subtract1-1", "47182", "45803", "1379"))),
    (gold.BARE_MONEY, real("JPM/2008/page_117.pdf-1"), real("ETR/2016/page_23.pdf-2")),
    (gold.EXPENSES,                                 # assets less net interest income
     real("JPM/2018/page_90.pdf-2"),
     changed("JPM/2018/page_90.pdf-2", "what was the change in average interest-earning assets "
             "from 2017 to 2018 , in millions of dollars?",
             ("subtract1-1", "2229188", "2180592", "48596"))),
    (gold.PERCENT_AS_NUMBER,                        # "932 × 0.44 = 410.08" for a 0.44% rate
     real("DVN/2014/page_87.pdf-2"),
     changed("DVN/2014/page_87.pdf-2", "what was the annual interest on devon 2019s commercial "
             "paper borrowings as of december 31 , 2014 in millions",
             ("multiply1-1", "932", "0.44", "410.08"), ("divide1-2", "#0", "const_100", "4.1"))),
    (gold.RESCALED_UNSTATED,                        # "47182 / 1000": of no unit a line gives
     item("what were net sales in 2012 , in billions?", ("divide1-1", "47182", "const_1000",
                                                          "47.182")),
     item("what were net sales in 2012 , in billions?", ("divide1-1", "47182", "const_1000",
                                                          "47.182"), lines=NOTED)),
    (gold.OWN_RATE,                                 # assets × 100 / the yield on those assets
     real("JPM/2018/page_90.pdf-3"),
     changed("JPM/2018/page_90.pdf-3", "what was the ratio of average interest-earning assets "
             "in 2018 to those in 2017?", ("divide1-1", "2229188", "2180592", "1.02"))),
    (gold.NEGATIVE_BASE,                            # "-16 / (-41) = 39.0%" as an increase
     real("MRO/2003/page_84.pdf-2"),
     changed("MRO/2003/page_84.pdf-2", "by how much did protect carrying values of excess "
             "inventories change from 2002 to 2003?", ("subtract1-1", "-57", "-41", "-16"))),
    (gold.RATIO_AS_DIFFERENCE,                      # "207.62 / 97.13 = 213.8%" as how much
     real("BLL/2012/page_31.pdf-3"),                # greater one return was than another
     changed("BLL/2012/page_31.pdf-3", "the five year total return for the period ending "
             "12/31/2012 on ball corporation stock was what percent of the same return on the "
             "s&p 500?", ("divide1-1", "207.62", "97.13", "213.8%"))),
    (gold.POINTS_AS_PERCENT,
     item("how much greater were net sales than cost of sales in 2012?",
          ("subtract1-1", "47182", "42186", "4996%")),
     item("how much greater were net sales than cost of sales in 2012?",
          ("subtract1-1", "47182", "42186", "4996"))),
]


@pytest.mark.parametrize("reason,bad,good", CASES, ids=[c[0] for c in CASES])
def test_a_record_breaking_a_rule_is_rejected_with_its_reason(reason, bad, good):
    assert finqa_check(bad) == reason
    assert finqa_check(good) is None


def test_every_rule_has_a_case():
    assert {c[0] for c in CASES} == set(gold.REASONS)


def test_an_answer_rounds_from_the_result_but_a_truncated_one_does_not():
    assert gold.rounds_to("145%", 1.44636) and gold.rounds_to(".385", 0.38537)
    assert gold.rounds_to("83333", 83333.33) and gold.rounds_to("yes", "yes")
    assert not gold.rounds_to("8.36%", 0.083697) and not gold.rounds_to("6.6", 6.5)


def test_a_stated_percentage_or_a_100_based_index_is_not_a_percentage_question():
    rates = item("for a 2% ( 2 % ) increase in interest rates , what would the total impact on "
                 "net sales in 2012 and 2011 be?", ("add1-1", "47182", "46499", "93681"))
    assert not gold.percent_as_difference(rates)


@pytest.mark.slow
def test_no_split_uses_a_record_a_gold_rule_rejects(fresh_build):
    root, _ = fresh_build
    from tjb_lib.data import load_finqa
    records = {i.id: i for i in load_finqa()}
    for name in ("mechanical_finqa", "moderate_finqa", "conflict"):
        for p in load_split(name, root):
            if p.source == "finqa":
                assert finqa_check(records[p.source_id]) not in gold.REASONS, p.pair_id


def test_a_money_answer_carries_the_unit_its_figures_print():
    """VTR's repurchase cost (shares times a "$43.89" price) was "Answer: 643822.41"."""
    from tjb_lib.pairs.candidates import finqa_candidate
    vtr = real("VTR/2007/page_47.pdf-3")
    assert finqa_check(vtr) is None and gold.money_unit(vtr) == "$"
    assert finqa_candidate(vtr).answer == "$643,822.41"


def test_an_average_of_money_keeps_the_scale_its_figures_state():
    """LMT's average contribution ($385, $383 and $380 million over 3) was "Answer: $382.7"."""
    from tjb_lib.pairs.candidates import finqa_candidate
    lmt = real("LMT/2014/page_91.pdf-2")
    assert gold.stated_unit(lmt) == "$ million"
    assert finqa_candidate(lmt).answer == "$382.7 million"
