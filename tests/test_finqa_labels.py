"""FinQA figure labels a reader stops at (``tjb_lib.pairs.finqa_labels``), on the real
records the blind readers of 5 December quoted: each is rejected with its label reason, and
the audit's text rules find the old wording but not the new."""
from __future__ import annotations

import pytest

from tjb_lib.data import load_finqa
from tjb_lib.pairs import finqa_labels as labels
from tjb_lib.pairs.candidates import finqa_candidate, finqa_check
from tjb_lib.pairs.finqa_rules import bare_money_answer, index_template


def real(record_id: str):
    return next(i for i in load_finqa() if i.id == record_id)


@pytest.mark.parametrize("record_id,reason,old", [
    ("CNP/2010/page_31.pdf-1", labels.FOR_COLUMN, "Arkansas for Residential are 390668 / 438701"),
    ("DG/2010/page_136.pdf-1", labels.CONSTANT_OVER_LABEL,
     "Dividing 100 by Furniture, fixtures and equipment gives 100 / 3 = 33.3%."),
    ("PNC/2014/page_111.pdf-1", labels.SAME_LABEL,
     "Taking tax credit investments (2.6) from tax credit investments (2.6) leaves 2.6 - 2.6 = 0."),
    ("HUM/2017/page_133.pdf-4", labels.GARBLED, "The ratio of Amountper Share in 2017"),
    ("C/2008/page_22.pdf-4", labels.REPEATED, None),
    ("ADBE/2008/page_89.pdf-3", labels.OBJECT, None),     # "tax returns": the figure is not one
    ("DISH/2013/page_138.pdf-3", labels.OBJECT, None),    # "discontinued operations", no revenue
    ("JPM/2010/page_273.pdf-2", labels.OBJECT, None),     # "cash in the amount"
    ("RE/2017/page_159.pdf-4", labels.COMPANY, None),     # "the change in The Prudential ..."
    ("NWS/2019/page_116.pdf-2", labels.PREPOSITION, None),  # "the for the fiscal year ended ..."
    ("MA/2008/page_126.pdf-2", labels.UNTIED, None),      # "Balance", asked as litigation
    ("MAS/2018/page_60.pdf-2", labels.NO_NOUN, None),     # "As a share of total revised"
    ("PNC/2012/page_100.pdf-1", labels.UNTIED, None),     # indemnification claims asked,
                                                          # "Private investors" read
])
def test_a_label_that_names_no_figure_rejects_its_record(record_id, reason, old):
    record = real(record_id)
    assert finqa_check(record) == reason or labels.label_problem(record) == reason
    if old:
        assert labels.text_problems(old)


def test_every_label_reason_has_a_record():
    found = {finqa_check(i) for i in load_finqa()}
    assert set(labels.REASONS) <= found


def test_an_index_return_reads_as_the_move_of_the_index():
    cdns = real("CDNS/2018/page_31.pdf-2")
    text = " ".join(finqa_candidate(cdns).reasoning)
    # where the gain is shown, the return follows from it: where the index stands is not said
    # again ("LKQ Corporation stood at 204 ... stood at 204")
    said = ("On a base of 100, the Nasdaq Composite stood at 165.84 on 12/29/2018, a gain of "
            "165.84 - 100 = 65.84.", "That gain of 65.84 is a return of 65.84 / 100 = 65.84%.")
    assert all(s in text for s in said) and text.count("165.84") == 2
    skipped = " ".join(finqa_candidate(cdns, omit={2}).reasoning)      # the gain left out
    assert "Against its base of 100, the Nasdaq Composite stood at 165.84 on 12/29/2018, a gain " \
        "of 65.84: a return of 65.84 / 100 = 65.84%." in skipped and "165.84 - 100" not in skipped
    assert index_template(text) == []
    assert index_template("In percent, the gain in Nasdaq Composite on its base of 100 (65.84) "
                          "is a return of 65.84 / 100 = 65.84%.")


def test_a_bare_money_answer_is_caught():
    q = "what was the average impact on dva of a 1 basis point increase in credit spread?"
    assert bare_money_answer("how much money did the repurchases cost in 2007?", "643822.41")
    assert not bare_money_answer("how much money did the repurchases cost in 2007?", "$643822.41")
    assert not bare_money_answer("what is the ratio of the flight attendants to pilots", "1.57")
    assert finqa_check(real("JPM/2008/page_117.pdf-1")) is not None and q


def test_an_index_series_or_a_named_balance_is_no_label_problem():
    """A company's index on a base of 100 is the figure; a balance the question's words tie to
    its line is read."""
    assert labels.label_problem(real("BKNG/2016/page_33.pdf-4")) is None
    assert not labels.untied_balance(real("GPN/2010/page_87.pdf-1"))
    assert not labels.untied_balance(real("PNC/2009/page_46.pdf-3"))       # "AAA/Aaa", asked
