"""A HotpotQA reasoning closes on the relation its question asks about, worded by the question's
form (``tjb_lib.pairs.closing``), not on a stock connective and the answer alone."""
from __future__ import annotations

import pytest

from tjb_lib.pairs.closing import close, statement


@pytest.mark.parametrize("question, answer, said", [
    ("Who was born first, Arthur Conan Doyle or Penelope Lively?", "Arthur Conan Doyle",
     "Arthur Conan Doyle was born first"),
    ("Which author has won more Pulitzer Prizes, Thomas Friedman or Henri Bergson?",
     "Thomas Friedman", "Thomas Friedman has won more Pulitzer Prizes"),
    ("Which is a Macedonian weekly, Hänt Extra or Tea Moderna?", "Tea Moderna",
     "Tea Moderna is a Macedonian weekly"),
    ("Are Yingkou and Fuding the same level of city?", "no",
     "no, Yingkou and Fuding are not the same level of city"),
    ("Are both Cypress and Ajuga genera?", "no", "no, Cypress and Ajuga are not both genera"),
    ("Do the drinks Gibson and Zurracapote both contain gin?", "no",
     "no, the drinks Gibson and Zurracapote do not both contain gin"),
    ("What is the middle name of the actress who plays Bobbi Bacha in Suburban Madness?", "Ann",
     "the answer is Ann"),          # not the question read back (``closing.ECHO_WORDS``)
    ("What is the capacity of the Stadium, other than Kauffman Stadium, designed by Charles "
     "Deaton ?", "76,416", "the answer is 76,416"),
    ("What fictional character created by Tom Clancy was turned into a film in 2002?", "Jack Ryan",
     "the fictional character is Jack Ryan"),
    ("What type of movie is Horror Stories 2?", "South Korean horror film",
     "the type of movie is a South Korean horror film"),
    ("What genre of music is INXS?", "rock", "the genre of music is rock"),
    ("Mummulgum is a stop on the Bruxner Highway before reaching the town on the banks of which "
     "river?", "Richmond", "the river is Richmond"),
    ("What is the name of the executive producer of the film that has a score composed by Jerry "
     "Goldsmith?", "Ronald Shusett", "the executive producer is Ronald Shusett"),
    ("Which year and which conference was the 14th season for this conference?", "2009 Big 12",
     "the answer is 2009 Big 12"),                  # no single noun: "the year and is" never
    ("When was Poison's album \"Shut Up, Make Love\" released?", "2000",
     "Poison's album \"Shut Up, Make Love\" was released in 2000"),
    ("Who did the Doncaster Belles play in the 1994 FA Women's Cup Final?", "Knowsley United",
     "the answer is Knowsley United"),                # an object question: no subject to fill
])
def test_the_closing_is_the_question_answered(question, answer, said):
    assert statement(question, answer) == said


def test_a_dropped_hop_is_not_named_in_the_closing():
    """A side that drops a hop closes on the bare answer: "they" named no one (blind readers of 7
    December: "so yes, they are both described as a genus")."""
    q = "Are Local H and For Against both from the United States?"
    assert statement(q, "yes", ("Local H",)) == "the answer is yes"
    assert close("For Against is a band from Nebraska", q, "yes") == (
        "For Against is a band from Nebraska, so yes, Local H and For Against are both from the "
        "United States.")
