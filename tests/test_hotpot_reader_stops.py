"""The repairs and reader rules for the sixth blind reading's HotpotQA stops: a kind closing
that names no thing, a city called a province, a cast given by surnames, a "the city" with no
antecedent, an off-topic extra sentence."""
from tjb_lib.pairs.closing import kind_of
from tjb_lib.pairs.phrasing import broken_source, repaired_source
from tjb_lib.pairs.readable import kind_without_thing
from tjb_lib.pairs.standalone import Entity, _bare_at, bare_description, with_description_named


def test_kind_answer_names_its_thing():
    text = "Frank Thomas' Big Hurt is a pinball machine designed by Bill Parker."
    q = "What arcade game is named after the only player to bat .300 for 7 seasons?"
    assert kind_of(q, "a pinball machine", text) == ("the arcade game is Frank Thomas' Big Hurt, "
                                                     "a pinball machine")
    assert kind_of(q, "Frank Thomas' Big Hurt", text) is None


def test_kind_without_thing_rule():
    shown = "Frank Thomas' Big Hurt is a pinball machine designed by Bill Parker."
    assert kind_without_thing("X is Y, so the answer is a pinball machine.", shown)
    assert not kind_without_thing("X is Y, so the arcade game is Frank Thomas' Big Hurt, a "
                                  "pinball machine.", shown)


def test_city_called_a_province_is_cut():
    bad = "It is a magazine published in the Argentine city of Rosario, a province of Santa Fe."
    assert broken_source(bad)
    fixed = repaired_source(bad)
    assert fixed.endswith("city of Rosario.") and not broken_source(fixed)
    assert not broken_source("It is published in the city of Rosario, Santa Fe.")


def test_cast_surnames_are_found():
    s = "Alongside Butler and Lerman, it also stars Michael C. Hall."
    assert _bare_at(s, "Butler") and _bare_at(s, "Lerman")
    assert _bare_at("his work in Hindi films", "Hindi") is None


def test_bare_description_named():
    city = Entity("Ogallala", False, None, frozenset({"city"}))
    s = "The Ogallala Aquifer was named after the city."
    assert bare_description(s, city)
    assert with_description_named(s, city) == "The Ogallala Aquifer was named after Ogallala."
    assert bare_description("Ogallala is the largest city of the county.", city) is None
