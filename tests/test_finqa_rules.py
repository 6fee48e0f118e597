"""FinQA candidates as an analyst writes them: the audit's reading rules (each catches the
defect it names and passes clean text) and the builder behaviour they hold the splits to."""
from __future__ import annotations

import collections

import pytest

from tjb_lib.pairs import finqa_rules
from tjb_lib.data import FinQAItem, FinQAStep, load_finqa
from tjb_lib.pairs import load_split
from tjb_lib.pairs.candidates import finqa_candidate, finqa_check, year_problem
from tjb_lib.pairs.filing import figures
from tjb_lib.pairs.filing_prose import evidence_line, row_sentence, sentence_case
from tjb_lib.pairs.graded import finqa_omission, omission_problems
from tjb_lib.seeds import SEED

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


def test_the_omitted_moderate_step_varies_over_the_intermediate_steps():
    usable = [i for i in load_finqa() if finqa_check(i) is None]
    several = [i for i in usable
               if sum(not omission_problems(i, k) for k in range(len(i.steps))) >= 2]
    assert several
    chosen = collections.Counter()
    for i in several:
        first = min(k for k in range(len(i.steps)) if not omission_problems(i, k))
        k, _ = finqa_omission(i, SEED)
        assert finqa_omission(i, SEED) == (k, _)                  # seeded
        chosen[k == first] += 1
    assert chosen[False] > 0 and chosen[True] > 0, chosen


@pytest.mark.parametrize("name", ["mechanical_finqa", "moderate_finqa", "conflict"])
def test_built_finqa_pairs_break_no_reading_rule(fresh_build, name):
    root, _ = fresh_build
    pairs = [p for p in load_split(name, root) if p.source == "finqa"]
    assert pairs and finqa_rules.breaches(pairs) == []
