"""Evidence that stands alone and reasoning taken from it: the rules on real HotpotQA sentences."""
from __future__ import annotations

import pytest

from tjb_lib.data import load_hotpotqa
from tjb_lib.pairs.closing import sought_noun
from tjb_lib.pairs.reasoning import clause
from tjb_lib.pairs.standalone import Entity, clean, resolve, sentence_groups, standalone
from tjb_lib.text import sentences

PLACE = Entity("Casino", person=False, gender=None, kinds=frozenset({"town"}))
FILM = Entity("Jawbreaker", person=False, gender=None, kinds=frozenset({"film", "comedy"}))
ACTOR = Entity("Lucas Grabeel", person=True, gender="he", kinds=frozenset({"actor"}))
BAND = Entity("Slade", person=False, gender=None, kinds=frozenset({"band", "rock"}))


@pytest.fixture(scope="module")
def items():
    return {i.id: i for i in load_hotpotqa()}


@pytest.mark.parametrize("text, entity, want", [
    ("It lies on the banks of the Richmond River.", PLACE,
     "Casino lies on the banks of the Richmond River."),
    ("The film stars Rose McGowan.", FILM, "Jawbreaker stars Rose McGowan."),
    ("The film's score was praised.", FILM, "Jawbreaker's score was praised."),
    ("He played Toby Kennish.", ACTOR, "Lucas Grabeel played Toby Kennish."),
    ("His first film was released in 2004.", ACTOR, "Lucas Grabeel's first film was released in 2004."),
    ("After his debut, he played Toby Kennish.", ACTOR,
     "After Lucas Grabeel's debut, he played Toby Kennish."),
    ("Since 2011 he has been a columnist.", ACTOR, "Since 2011 Lucas Grabeel has been a columnist."),
    ("They rose to prominence in 1970.", BAND, "Slade rose to prominence in 1970."),
    ("The premise is simple.", FILM, "The premise of Jawbreaker is simple."),
])
def test_a_pronoun_or_bare_description_names_its_entity(text, entity, want):
    assert resolve(text, entity) == want


@pytest.mark.parametrize("text, entity", [
    ("She played Toby Kennish.", ACTOR),            # another person
    ("It was released in 2004.", ACTOR),            # a person is not "it"
    ("They achieved wins against Samoa.", ACTOR),   # his team, unnamed
    ("The film was a hit.", ACTOR),                 # a film of his, unnamed
    ("It is believed that the town is old.", PLACE),
    ("This was the first time.", PLACE),
    ("The two formed a company.", PLACE),
])
def test_a_subject_that_points_elsewhere_is_not_guessed(text, entity):
    assert resolve(text, entity) is None


def test_a_sentence_that_already_names_its_subject_is_kept():
    text = "The Philadelphia crime family is an Italian American criminal organization."
    assert resolve(text, PLACE) == text
    assert resolve("After Franchitti did not stay in 1995, he joined AMG.", ACTOR) \
        == "After Franchitti did not stay in 1995, he joined AMG."   # the opening is a clause


@pytest.mark.parametrize("raw, want", [
    ("Carrefour S.A. (] ) is a French retailer.", "Carrefour S.A. is a French retailer."),
    ("Marie Dietrich ( , ] ; 27 December 1901 – 6 May 1992) was an actress.",
     "Marie Dietrich (27 December 1901 – 6 May 1992) was an actress."),
    ("Alfred Gell, {'1': \", '2': \"} ( ; June 12, 1945 – January 28, 1997) was a man.",
     "Alfred Gell (June 12, 1945 – January 28, 1997) was a man."),
    ("Alain Resnais (3 June 19221 March 2014) was a French director.",
     "Alain Resnais (3 June 1922 – 1 March 2014) was a French director."),
    ("Shanghai has a population of 24 million as of 2014 .",
     "Shanghai has a population of 24 million as of 2014."),
])
def test_dataset_residue_is_cleaned(raw, want):
    assert clean(raw) == want


def test_broken_sentences_are_refused():
    assert clean("meeting of Donald TrumpDonald Trump Jr. and others took place.") is None
    assert clean("Mattel v. MCA Records, 296 F.3d 894 (9th Cir.") is None


def test_a_sentence_hotpotqa_split_in_two_is_joined_again():
    parts = ("Mattel v. MCA Records, 296 F.3d 894 (9th Cir.", "2002), was a series of lawsuits.",
             "It ended.")
    groups = sentence_groups(parts)
    assert groups[0] == groups[1] == "Mattel v. MCA Records, 296 F.3d 894 (9th Cir. 2002), was a series of lawsuits."
    assert groups[2] == "It ended."


def test_standalone_on_a_real_item(items):
    item = items["5abd01205542992ac4f3819b"]        # Mummulgum ... Casino ... Richmond River
    lines = [standalone(item, t, s) for t, s in item.supporting_facts]
    assert any(line.startswith("Casino lies on the banks of the Richmond River") for line in lines)


@pytest.mark.parametrize("text, target, want", [
    ("Mummulgum is located on Shannon Brook between Tenterfield and Casino on the Bruxner Highway "
     "(Highway 44).", "Casino",
     "Mummulgum is located on Shannon Brook between Tenterfield and Casino on the Bruxner Highway"),
    ('Dubbed the "Prince of tenors", Corelli possessed handsome features.', "Prince of tenors",
     'Corelli was dubbed the "Prince of tenors"'),
    ("The Sasanian Empire, which succeeded the Parthian Empire, was recognised as a power.",
     "the Parthian Empire", "The Sasanian Empire succeeded the Parthian Empire"),
    ("Salvatore Testa (1956 - 1984), nicknamed The Crowned Prince, was a gangster.",
     "The Crowned Prince", "Salvatore Testa was nicknamed The Crowned Prince"),
    ("A former mill town, Bolton has been a production centre for textiles.", None,
     "Bolton has been a production centre for textiles"),
    ("Mondelez International, Inc., styled Mondelēz, is an American multinational confectionery, "
     "food, and beverage company based in Illinois.", "confectionery",
     "Mondelez International is an American multinational confectionery, food, and beverage "
     "company based in Illinois"),
    ("Buck-Tick is a Japanese rock band, formed in Fujioka, Gunma in 1983.", "Fujioka, Gunma",
     "Buck-Tick is a Japanese rock band, formed in Fujioka, Gunma in 1983"),
])
def test_a_reasoning_step_is_the_clause_that_carries_the_link(text, target, want):
    assert clause(text, target) == want


def test_the_sought_noun_of_a_question():
    assert sought_noun("Which former mill town is near Rivington Hall Barn?") == "former mill town"
    assert sought_noun("What type of activity do they share?") == "type of activity"
    assert sought_noun("How many novels are there in the series of which Shadows in Flight is "
                       "the tenth novel?") is None
    assert sought_noun("Which Kentucky Writers Hall of Fame author has had works published?") is None


def test_sentences_split_at_stops_not_at_abbreviations():
    assert sentences("St. Jude Medical had 20. It is big.") == ["St. Jude Medical had 20.", "It is big."]
    assert sentences("Made by J. R. R. Tolkien in the U.S. Army. Then.") == [
        "Made by J. R. R. Tolkien in the U.S. Army.", "Then."]
    assert sentences('He said "Stop." Then went.') == ['He said "Stop."', "Then went."]
    assert sentences("Öresund is here. Øresund Bridge runs.") == ["Öresund is here.", "Øresund Bridge runs."]
