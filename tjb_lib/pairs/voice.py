"""How a candidate words its generic support: seeded choices among phrasings.

A fixed sentence that only one side of a tier ever uses is a tell: a judge, or a bag-of-words
classifier, finds the tier or the tampered side without reading for quality. So the words a
candidate adds to its evidence are drawn from pools of phrasings that share as little wording as
possible, and both sides of a pair draw from the same pools wherever the construction allows.
"""
from __future__ import annotations

import random

# Generic support (the soft tier's weaker side): how the evidence answers the question, told as
# a person summarising would tell it, naming no entity and no link: for a chain of hops, or for a
# comparison. The blind readers of 6 December called the earlier pools vacuous filler ("Combined,
# the details lead there") or templated ("Each of the extracts supplies one step of the chain",
# "the entries connect through a shared name" where no name is given), and stopped where the
# words counted the evidence wrong ("Of the two quotations, the first leads to the second" over
# three quotations). So each pool comes twice, phrasing for phrasing: for exactly two sources
# ("two", "the other") and for three or more (no number), chosen by how many there are in the
# word ``SOURCES`` names them by (a page counts its titles, a quotation its lines:
# ``counted``). No phrasing opens on "The", "Both" or "These" (a bare description or a pronoun
# to the audit's ``coherence.leaning_lines``), the opening words differ, and no content word
# recurs within a pool, so that no word is the tier's tell. The closing
# (``tjb_lib.pairs.closing``) is joined on, as on the specific side.
CHAIN_OF_TWO = (
    "Neither of the two {src} answers this on its own, but read together they do",
    "One of the two {src} pins down what the question is about, and the other gives the detail "
    "it seeks",
    "Taken as a pair, the {src} link the subject to what is asked",
    "Between them, the two {src} settle who or what is meant and supply the missing piece",
    "Followed through, the two {src} connect the clue in the wording to the fact that resolves it",
    "Once the two {src} are considered jointly, the reply becomes clear",
    "Combining what the two {src} report yields the result",
    "With both {src} in view, nothing is left to guess",
)
CHAIN_OF_MORE = (
    "No single one of the {src} answers this on its own, but read together they do",
    "Some of the {src} pin down what the question is about, and the rest give the detail it "
    "seeks",
    "Taken as a set, the {src} link the subject to what is asked",
    "Between them, the {src} settle who or what is meant and supply the missing piece",
    "Followed through, the {src} connect the clue in the wording to the fact that resolves it",
    "Once the {src} are considered jointly, the reply becomes clear",
    "Combining what the {src} report yields the result",
    "With all of the {src} in view, nothing is left to guess",
)
COMPARISON_OF_TWO = (
    "Setting the two {src} side by side decides it",
    "Each of the two {src} gives the needed fact for one of the pair, and comparing them "
    "settles it",
    "Weighing what the two {src} say on this point answers it",
    "Since the two {src} state the same kind of fact for each, the comparison is direct",
    "Put next to each other, the two {src} decide the question",
    "Read one against the other, the two {src} show where the difference lies",
)
COMPARISON_OF_MORE = (
    "Setting the {src} side by side decides it",
    "Taken subject by subject, the {src} give the needed fact for each, and comparing them "
    "settles it",
    "Weighing what the {src} say on this point answers it",
    "Since the {src} state the same kind of fact for each subject, the comparison is direct",
    "Put next to each other, the {src} decide the question",
    "Read against one another, the {src} show where the difference lies",
)
#: words for the evidence: those before the break count its sources (titles), those after its
#: quoted lines
SOURCES = ("sources", "articles", "entries", "pages", "passages", "excerpts", "extracts",
           "quotations")
_BY_TITLE = frozenset(SOURCES[:4])


def counted(src: str, lines: int, titles: int) -> int:
    """How many things ``src`` names: a page or an article is a title, a quotation a line."""
    return titles if src in _BY_TITLE else lines


def generic_support(r: random.Random, comparison: bool, lines: int, titles: int) -> str:
    """One generic support clause of its pool (a comparison's, or a chain's), the evidence named
    in one of ``SOURCES``' words, worded for two of them or for more (``counted``)."""
    two, more = ((COMPARISON_OF_TWO, COMPARISON_OF_MORE) if comparison
                 else (CHAIN_OF_TWO, CHAIN_OF_MORE))
    at = r.choice(range(len(two)))       # the same draws as a choice of phrasing, then of word
    src = r.choice(SOURCES)
    return (two if counted(src, lines, titles) == 2 else more)[at].format(src=src)
