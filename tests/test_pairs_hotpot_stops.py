"""The HotpotQA defects the blind readers of 7 December (round b18) quoted: each old text breaks
a reader rule (budget 0) that the candidate built now keeps, and each rule stays quiet on a
sentence that reads well."""
from __future__ import annotations

import dataclasses

import pytest

from _reader_rules import linked_items, old_breaks_new_keeps, pair
from tjb_lib.pairs import closing, phrasing, readable
from tjb_lib.pairs.candidates import hotpot_candidate
from tjb_lib.pairs.reasoning import clause_semicolons, credits_cut, join_word
from tjb_lib.pairs.render import render


@pytest.fixture(scope="module")
def items():
    return linked_items()


def rules(items):
    return lambda item, candidate: {r for r, _ in readable.problems(pair(item, render(candidate)), items)}


# (item, the reasoning as shipped before this change, the rule it breaks)
OLD = [
    ("5a79b7f6554299029c4b5f6f", "Ron Joyce co-founded the Tim Hortons doughnut chain as Tim "
     "Horton's partner and first franchisee; Tim Hortons is Canada's largest quick service "
     "restaurant chain; as of December 31, 2016, it had a total of 4,613 restaurants in nine "
     "countries, so the answer is 4,613.", "run of semicolons"),
    ("5abd01205542992ac4f3819b", "Mummulgum is located on Shannon Brook between Tenterfield and "
     "Casino on the Bruxner Highway. Casino lies on the banks of the Richmond River, so the river "
     "is Richmond.", "name without the noun its text gives it"),
    ("5add405f5542992c1e3a2581", "The Masters and Johnson research team pioneered research into "
     "the nature of human sexual response. Patterns of Sexual Behavior has been called a "
     "\"classic\" of its field, provided the foundation for the later research of Masters and "
     "Johnson, so the answer is Patterns of Sexual Behavior.",
     "relative clause's verb as the main verb"),
    ("5a89f5815542993b751ca9c5", "The Magical Legend of the Leprechauns is a 1999 Hallmark "
     "Entertainment made-for-TV fantasy movie; Caroline Carver is an English actress, "
     "screenwriter, and producer best known for roles such as Princess Jessica in the TV film "
     "\"The Magical Legend of the Leprechauns\" (1999), Ingrid in \"The Aryan Couple\", and Sandy "
     "in \"My First Wedding\", so the role is Princess Jessica.", "padded tail"),
    ("5a8133725542995ce29dcbdb", "Henry Roth was an American novelist and short story writer. "
     "Robert Erskine Childers DSC was a British writer, so Robert Erskine Childers DSC was from "
     "England.", "post-nominals in the closing"),
    ("5a71166d5542994082a3e576", "The Battle of Manila was fought in 1945. The Battle of Guam was "
     "fought in 1944, so Battle of Guam occurred first.",
     "closing opens on a name without its article"),
    ("5abd259d55429924427fcf1a", "The genus Huernia consists of stem succulents from Eastern and "
     "Southern Africa, first described as a genus in 1810, so yes, they are both described as a "
     "genus.", "they never named in a yes/no closing"),
    ("5a7f113d55429934daa2fcbe", "207 episodes were produced, with athlete hosts including "
     "Michael Jordan,Tom Seaver and Reggie Jackson, so the answer is Reginald Martinez \"Reggie\" "
     "Jackson.", "broken source text"),
    ("5add564a5542990dbb2f7e38", "Las Vegas Festival Grounds is a 33 acre open-air venue north of "
     "Circus Circus Las Vegas. Circus Circus Las Vegas is owned and operated by MGM Resorts "
     "International, so the company is MGM Resorts International.", "broken source text"),
    ("5a8f4c8d554299458435d5a3", "Scott Parkin has been a vocal critic of corporations such as "
     "Exxonmobil and Halliburton; one of the world's largest oil field service companies, the "
     "Halliburton has operations in more than 70 countries, so the answer is more than 70 "
     "countries.", "the before a name that takes none"),
    ("5ab7e4dc5542995dae37e9df", "The Polar Bears features the voices of Lin-Manuel Miranda, Armie "
     "Hammer, Jonathan Adams, and Megyn Price; Armie Hammer is known for his portrayal of the "
     "Winklevoss twins in the film \"The Social Network\", Prince Andrew Alcott in \"Mirror "
     "Mirror\", the title character in the adventure film \"The Lone Ranger\", Mike in \"Mine\", "
     "and the voice role of Jackson Storm in 2017's Disney-Pixar Film \"Cars 3\", so the character "
     "is Jackson Storm.", "padded tail"),
    ("5ade24e35542992fa25da6e6", "Mamie Gummer starred in the title role of The CW series \"Emily "
     "Owens, M.D.\", and played the recurring role of Nancy Crozier on \"The Good Wife\". The Good "
     "Wife is an American legal and political drama television series that aired on CBS, so the "
     "network is CBS.", "padded tail"),
    ("5a73977d554299623ed4ac08", "Art Laboe is an Armenian American disc jockey, songwriter, record "
     "producer, and radio station owner, generally credited with coining the term \"Oldies But "
     "Goodies\". Scout Tufankjian is an Armenian-American photojournalist and author, so the "
     "answer is Armenian.", "padded tail"),
]


@pytest.mark.parametrize("item_id, old, rule", OLD)
def test_the_old_text_breaks_a_rule_and_the_new_does_not(items, item_id, old, rule):
    old_breaks_new_keeps(rules(items), items[item_id], old, rule)


def test_the_answer_line_gives_the_bound_its_conclusion_gives(items):
    item = items["5ae406245542995dadf242e2"]
    c = hotpot_candidate(item)
    assert c.answer == "more than 20" and c.reasoning[-1].endswith("so the answer is more than 20.")
    bare = dataclasses.replace(c, answer="20")
    said = {r for r, _ in readable.problems(pair(item, render(bare)), items)}
    assert "answer line without the conclusion's bound" in said
    assert "answer line without the conclusion's bound" not in rules(items)(item, c)


def test_semicolons_between_list_items_are_no_run():
    items_list = ('Bad News\'s members were Vim Fuego, vocals and lead guitar; Den Dennis, rhythm '
                  'guitar; Colin Grigson, bass; and Spider "Eight-Legs" Webb, drums.')
    assert clause_semicolons(items_list) == 0 and not readable.semicolon_run(items_list)
    assert join_word("A was B.", "C is D.") == "; "
    assert join_word("A was B; C is D.", "E is F.") == ", and "


def test_a_closing_names_both_sides_and_no_honours():
    q = "Are Dictyosperma and Huernia both described as a genus?"
    assert closing.yes_no(q, "yes") == "yes, Dictyosperma and Huernia are both described as a genus"
    assert not readable.THEY_CLOSING.search("..., so yes, Dictyosperma and Huernia are both genera.")
    assert closing.POST_NOMINALS.sub("", "Robert Erskine Childers DSC") == "Robert Erskine Childers"
    assert closing.POST_NOMINALS.sub("", "Edgar Kaiser Jr.") == "Edgar Kaiser Jr."


def test_source_repairs_leave_figures_and_plain_measures_alone():
    assert phrasing.repaired_source("hosts Michael Jordan,Tom Seaver") == "hosts Michael Jordan, Tom Seaver"
    assert phrasing.repaired_source("a 33 acre open-air venue") == "a 33-acre open-air venue"
    for fine in ("sold 1,000,000 copies", "covers 33 acres of land", "a 348 ft tower"):
        assert phrasing.repaired_source(fine) == fine and not phrasing.broken_source(fine)


def test_a_filmography_keeps_the_credit_that_links():
    names = {"jackson", "storm", "armie", "hammer"}
    part = ('Armie Hammer is known for his portrayal of the Winklevoss twins in the film "The Social '
            'Network", Prince Andrew Alcott in "Mirror Mirror", Mike in "Mine", and the voice role '
            'of Jackson Storm in "Cars 3"')
    assert credits_cut(part, names, names) == ('Armie Hammer is known for the voice role of '
                                               'Jackson Storm in "Cars 3"')
    two = 'Sam is known for Ann in "A" and Bo in "B"'
    assert credits_cut(two, names, names) == two          # fewer than three credits: no run


def test_the_generic_side_keeps_a_bridge_hops_link_to_the_answer(items):
    item = items["5a7ddc5a5542995f4f4022da"]      # both schools are in Wichita
    generic = hotpot_candidate(item, reasoning="generic")
    assert "Bishop Carroll Catholic High School is a private high school located in Wichita" in \
        generic.reasoning[0]
