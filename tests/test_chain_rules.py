"""The chain rules (``tjb_lib.pairs.chain_rules``) catch what blind readers stopped at in the
splits shipped at 885fccf, and the builders no longer make it, on real HotpotQA items."""
from __future__ import annotations

import pytest

from tjb_lib.data import load_hotpotqa
from tjb_lib.pairs import chain_rules
from tjb_lib.pairs.candidates import hotpot_candidate
from tjb_lib.pairs.slips import SOURCE_GRAMMAR, answer_not_a_noun_phrase
from tjb_lib.pairs.standalone import name_form, standalone


@pytest.fixture(scope="module")
def items():
    return {i.id: i for i in load_hotpotqa()}


def test_an_unlinked_bridge_is_caught(items):
    lindemann = items["5a7a014a5542996c55b2dccf"]      # a mayor of 1833 for the Bismarck's captain
    assert chain_rules.unlinked(lindemann)
    assert "bridge never linked" in chain_rules.item_problems(chain_rules.with_link(lindemann))
    assert not chain_rules.unlinked(items["5abd2eab5542992ac4f38210"])   # both name "Neighbours"


def test_a_paragraph_sentence_links_the_bridge(items):
    kodos = items["5a77cb5e55429967ab1052a7"]
    assert chain_rules.unlinked(kodos)
    linked = chain_rules.with_link(kodos)
    assert ("Kang and Kodos", 1) in linked.supporting_facts
    assert not chain_rules.item_problems(linked)
    assert "Kodos by Dan Castellaneta" in " ".join(hotpot_candidate(linked).reasoning)
    katherine = items["5ade15f35542997545bbbe47"]      # Waterston and Brennan: Steve Jobs
    assert chain_rules.unlinked(katherine)
    reasoning = " ".join(hotpot_candidate(chain_rules.with_link(katherine)).reasoning)
    assert "Katherine Waterston portrayed Chrisann Brennan" in reasoning


def test_a_comparison_against_its_values_is_caught(items):
    # "more than six decades" against "117 films between 1913 and 1927": no common measure
    assert chain_rules.against_values(items["5a879ba55542993e715abfc3"]) == \
        "compared values not alike"
    assert chain_rules.against_values(items["5ac289ff5542996366519a02"]) is None   # 65 vs 1 species


def test_a_cut_name_is_caught(items):
    assert chain_rules.cut_answer(items["5adf043b5542993a75d263d4"])        # "Charles Joseph"
    assert not chain_rules.cut_answer(items["5a8979f4554299669944a52e"])    # asks a middle name


def test_a_page_title_is_no_name(items):
    assert name_form("Filming of James Bond in the 1990s", "") is None
    item = items["5a9068a95542990a98493621"]
    old = ("The producers of Filming of James Bond in the 1990s were unable to film at Pinewood "
           "Studios, the usual location for Bond films.")
    assert chain_rules.nameless_titles(old, item)


def test_the_source_grammar_is_caught_and_repaired(items):
    assert SOURCE_GRAMMAR.search("Luke Stephen Clark is an English footballer who is plays for "
                                 "Curzon Ashton.")
    assert SOURCE_GRAMMAR.search('Chris McKay made his debut with "The Lego Batman Movie" (2017)".')
    assert "who plays for Curzon Ashton" in standalone(items["5ab5499e5542992aa134a295"],
                                                      "Luke Clark", 0)


def test_padding_is_caught_and_left_out(items):
    item = items["5a88e605554299206df2b39c"]
    old = ["Interstate 81 is an 855 mi highway.",
           "Interstate 81 is the longest Interstate highway within the borders of Virginia",
           "Wytheville's population was 8,211 at the 2010 census."]
    assert chain_rules.padding(old, item) == [old[0]]
    assert "855 mi" not in " ".join(hotpot_candidate(item).reasoning)


def test_a_sentence_is_no_answer():
    assert answer_not_a_noun_phrase("The Leonberger is a giant dog breed.")
    assert not answer_not_a_noun_phrase("What Is Love")


def test_a_moderate_pair_keeps_no_bare_also(items):
    from tjb_lib.pairs.graded import necessity_problems
    blue = items["5a7c9f325542990527d554e6"]   # "Blue is also a primary colour" once the label goes
    assert "the kept evidence opens on an 'also' with nothing before it" in necessity_problems(
        blue, "Innocent Records")


def test_a_full_list_of_names_is_cut_to_the_link(items):
    from tjb_lib.pairs.reasoning import long_lists, shortened
    cast = ("Among the performers who appeared on the series were Steve Allen, Esther Rolle, Helen "
            "Hunt, Claude Akins, Richard Anderson, Brian Dennehy, Lawrence Pressman, and June "
            "Lockhart in guest roles")
    assert long_lists(cast)
    assert shortened(cast, ["Brian Dennehy"]) == ("Among the performers who appeared on the "
                                                  "series were Steve Allen, Brian Dennehy and "
                                                  "others in guest roles")
    four = "Snowdrop runs on Microsoft Windows, Nintendo Switch, PlayStation 4, and Xbox One"
    assert not long_lists(four) and shortened(four, []) == four
    reasoning = " ".join(hotpot_candidate(items["5a8099935542996402f6a58b"]).reasoning)
    assert "Brian Dennehy and others" in reasoning and "June Lockhart" not in reasoning


def test_the_audit_reads_the_chain_rules(items):
    """``slip_rules.problems`` (the audit's reader rules, budget 0) carries every chain rule."""
    import dataclasses

    from tjb_lib.pairs import slip_rules
    from tjb_lib.pairs.common import hotpot_meta, make_pair
    from tjb_lib.pairs.render import render

    def rules(item, reasoning):
        c = dataclasses.replace(hotpot_candidate(chain_rules.with_link(item)), reasoning=reasoning)
        text = render(c)
        p = make_pair("mechanical_hotpotqa", "hotpotqa", item.id, 0, target_relation="equivalent",
                      gold="tie", task=item.question, plain=text, cited=text, variant="t",
                      artifact="", meta=hotpot_meta(item))
        return {r for r, _ in slip_rules.problems(p, chain_rules.with_link(item))}

    wytheville = items["5a88e605554299206df2b39c"]
    assert "off-topic padding" in rules(wytheville, (
        "Interstate 81 is an 855 mi highway.", "Interstate 81 is the longest Interstate highway "
        "within the borders of Virginia, so the answer is 8,211 at the 2010 census."))
    clark = items["5ab5499e5542992aa134a295"]
    assert "source grammar" in rules(clark, ("Luke Stephen Clark is an English footballer who is "
                                             "plays for Curzon Ashton, so the year is 1963.",))
    assert "bridge never linked" in rules(items["5a7a014a5542996c55b2dccf"], ("x, so Bismarck.",))
    assert "answer a cut name" in rules(items["5adf043b5542993a75d263d4"], ("x, so Charles Joseph.",))
    assert "full list of names" in rules(items["5a8099935542996402f6a58b"], (
        "Darkroom featured Steve Allen, Esther Rolle, Helen Hunt, Claude Akins, Richard Anderson, "
        "Brian Dennehy, and June Lockhart, so the anthology is Darkroom.",))
