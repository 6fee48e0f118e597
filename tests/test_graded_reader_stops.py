"""The repairs and reader rules for the graded HotpotQA tiers' blind reading of 6 December: the
soft tier's generic support worded for the number of its sources and without stock phrasings,
the garbles both tiers shipped ("is born in Venice", "the Vermont Catamounts men's soccer
competes", "the month is March and April", a dropped "more than", "magazine women", a capital
after a semicolon), a "no" that denied each, a kind answered for its name, and the moderate
tier's off-topic weakening sentence."""
from __future__ import annotations

import random

import pytest

from tjb_lib.pairs import readable, voice
from tjb_lib.pairs.capitals import capitals_after_semicolons
from tjb_lib.pairs.closing import qualified, statement, yes_no
from tjb_lib.pairs.phrasing import broken_source, repaired_source


def test_generic_support_counts_its_sources():
    """Over many draws, the clause never counts three or four sources as two, and says "two" or
    "the other" only where there are two."""
    r = random.Random(0)
    for _ in range(400):
        lines, titles = r.choice([(2, 2), (3, 2), (4, 2), (3, 3)])
        said = voice.generic_support(r, r.random() < 0.5, lines, titles)
        assert not readable.miscounted_sources(said + ", so the answer is X.", lines, titles)
        assert not readable.TEMPLATED_SUPPORT.search(said)


def test_generic_support_draws_as_before():
    """The clause takes two draws of the same sizes as the pool it replaced, so the builders'
    later draws (and every other split) are unchanged."""
    a, b = random.Random(7), random.Random(7)
    voice.generic_support(a, False, 3, 2)
    b.choice(range(8))
    b.choice(range(8))
    assert a.random() == b.random()


@pytest.mark.parametrize("sentence, lines, titles, caught", [
    ("Of the two quotations, the first leads to the second, so the answer is X.", 3, 2, True),
    ("Neither of the two articles answers this on its own, but read together they do, so the "
     "answer is X.", 3, 2, False),
    ("Neither of the two quotations answers this on its own, but read together they do, so the "
     "answer is X.", 3, 2, True),
    ("No single one of the quotations answers this on its own, but read together they do, so the "
     "answer is X.", 3, 2, False),
])
def test_miscounted_sources_rule(sentence, lines, titles, caught):
    assert readable.miscounted_sources(sentence, lines, titles) is caught


@pytest.mark.parametrize("sentence", [
    "Each of the extracts supplies one step of the chain, so the answer is X.",
    "What one of the articles mentions, the other explains, so the answer is X.",
    "Taken one after the other, the entries connect through a shared name, so the answer is X.",
])
def test_stock_support_is_caught(sentence):
    assert readable.TEMPLATED_SUPPORT.search(sentence)
    assert not readable.TEMPLATED_SUPPORT.search("Combining what the two articles report yields "
                                                 "the result, so the answer is X.")


@pytest.mark.parametrize("rule, bad, good", [
    (readable.BORN_NOW, "Antonio Vivaldi is born in Venice, so the city is Venice.",
     "Antonio Vivaldi was born in Venice, so the city is Venice."),
    (readable.NOUNLESS_TEAM, "The Vermont Catamounts men's soccer competes in the America East "
     "Conference.", "The Vermont Catamounts men's soccer team competes in the America East "
     "Conference."),
    (readable.ONE_FOR_TWO, "X is held in March and April, so the month is March and April.",
     "X is held in March and April, so the answer is March and April."),
    (readable.DENIED_EACH, "Ostava are a band from Bulgaria, so no, they were not from the U.S.",
     "Ostava are a band from Bulgaria, so no, they were not both from the U.S."),
])
def test_graded_garbles_are_caught(rule, bad, good):
    assert rule.search(bad) and not rule.search(good)


def test_a_no_denies_the_pair():
    q = "Were the bands Skin Yard and Ostava from the U.S.?"
    assert yes_no(q, "no", they=True) == "no, they were not both from the U.S."
    assert yes_no(q, "yes", they=True) == "yes, they were from the U.S."
    same = "Were Goo Goo Dolls and Echosmith formed in the same city?"
    assert yes_no(same, "no", they=True) == "no, they were not formed in the same city"


def test_two_months_take_no_singular_noun():
    q = "In what month is the annual documentary film festival held?"
    assert "month is" not in statement(q, "March and April")


def test_a_figure_keeps_its_bound():
    text = "Roald Dahl's books have sold more than 250 million copies worldwide."
    assert qualified("250 million", text) == "more than 250 million"
    assert qualified("250", "It has 2500 seats.") == "250"
    assert readable.bound_dropped(text[:-1] + ", so the answer is 250 million.", "250 million")
    assert not readable.bound_dropped(text[:-1] + ", so the answer is more than 250 million.",
                                      "250 million")


def test_a_bare_readership_is_repaired():
    bad = "Tea Moderna is a Macedonian woman's weekly magazine women."
    assert broken_source(bad)
    fixed = repaired_source(bad)
    assert fixed.endswith("weekly magazine for women.") and not broken_source(fixed)


def test_a_participle_after_a_semicolon_is_lowered():
    text = "Set on a fictional Earth, the film follows a young Apatosaurus."
    joined = "X is a film; Set on a fictional Earth, X follows a young Apatosaurus."
    assert capitals_after_semicolons(joined, text) == ["Set"]
    assert capitals_after_semicolons(joined.replace("; Set", "; set"), text) == []


def test_a_bare_kind_takes_its_article():
    from tjb_lib.pairs.closing import kind_without_article
    shown = "Christianity Today magazine is an evangelical Christian periodical."
    q = "What type of magazine is Eugene Habecker the chairman of?"
    said = statement(q, "evangelical Christian periodical", text=shown)
    assert said == "the type of magazine is an evangelical Christian periodical"
    answer = "evangelical Christian periodical"
    assert kind_without_article(f"the type of magazine is {answer}.", shown)
    assert not kind_without_article(f"{said}.", shown)
    assert kind_without_article("the type of movie is South Korean horror film")
    assert not kind_without_article("the type of music is rock")


def test_a_questions_slip_is_not_echoed():
    q = ("What is the name of the film starring Rose McGowan and features the character Earl "
         "McGraw's daughter?")
    said = statement(q, "Planet Terror")
    assert "and features" not in said
    assert readable.ECHOED_SLIP.search("X, so the name of the film starring Rose McGowan and "
                                       "features the character is Planet Terror.")
    assert not readable.ECHOED_SLIP.search(f"X, so {said}.")


def test_a_possessive_name_takes_no_second_possessive():
    from tjb_lib.pairs.standalone import Entity

    firm = Entity("Kellogg's", False, None, frozenset({"company"}))
    assert firm.called(True, possessive=True) == "Kellogg's"
    assert readable.DOUBLED_POSSESSIVE.search("Kellogg's's brands include Froot Loops.")
    assert not readable.DOUBLED_POSSESSIVE.search("Kellogg's brands include Froot Loops.")
