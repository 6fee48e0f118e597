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
    assert reasoning.endswith("in millions as the question states.")
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
    noted = fu.sign_noted(bad, lines)
    assert "counted here as a negative, -379" in noted and not fu.sign_dropped(noted, lines)


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
    assert "and at December 31, 2007 as 233629," in skipped and not fu.label_soup(skipped)


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
    assert "in parentheses, and it is added here as" in reasoning
    assert not fu.sign_dropped(reasoning, evidence)
    two = fu.sign_noted("Together they come to 5536 + 38519 = 44055.",
                        ["Current liabilities were (5,536).", "Other liabilities were (38,519)."])
    assert two.endswith("the table prints (5,536) and (38,519) in parentheses, and they are added "
                        "here as 5536 and 38519.")


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
