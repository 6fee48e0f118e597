"""How a candidate words its generic support: seeded choices among phrasings.

A fixed sentence that only one side of a tier ever uses is a tell: a judge, or a bag-of-words
classifier, finds the tier or the tampered side without reading for quality. So the words a
candidate adds to its evidence are drawn from pools of phrasings that share as little wording as
possible, and both sides of a pair draw from the same pools wherever the construction allows.
"""
from __future__ import annotations

import random

# Generic support (the soft tier's weaker side): how the evidence answers the question, told as
# a reader would tell it, naming no entity and no link: for a chain of hops ("Of the two
# articles, the first leads to the second"), or for a comparison ("Setting the two entries side
# by side decides it"). The blind readers of 6 December called the earlier pool ("Combined, the
# details lead there", "All of the statements are in line with it") vacuous filler. No phrasing
# opens on "The", "Both" or "These" (a bare description or a pronoun to the audit's
# ``coherence.leaning_lines``), the opening words differ, and ``SOURCES`` names the evidence in
# varied words, so that no word is the tier's tell. The closing (``tjb_lib.pairs.closing``) is
# joined on, as on the specific side.
GENERIC_CHAIN = (
    "Of the two {src}, the first leads to the second",
    "One of the {src} names what the other describes",
    "Neither of the {src} answers this alone, but read in turn they do",
    "Where the first of the {src} leaves off, the other picks up",
    "Looked at together, the two {src} meet at a name they share",
    "What one of the {src} mentions, the other explains",
    "Each of the {src} supplies one step of the chain",
    "Taken one after the other, the {src} connect through a shared name",
)
GENERIC_COMPARISON = (
    "Setting the two {src} side by side decides it",
    "Each of the {src} gives the fact needed for one half of the comparison",
    "Comparing what the {src} say on this point answers it",
    "Since the {src} state the same kind of fact for each, the comparison is direct",
    "Put next to each other, the two {src} decide the question",
    "Between them, the {src} cover both subjects on the point the question asks about",
)
SOURCES = ("sources", "articles", "entries", "passages", "excerpts", "pages", "extracts",
           "quotations")


def generic_support(r: random.Random, comparison: bool) -> str:
    """One generic support clause of its pool (a comparison's, or a chain's), the evidence named
    in one of ``SOURCES``' words."""
    return r.choice(GENERIC_COMPARISON if comparison else GENERIC_CHAIN).format(
        src=r.choice(SOURCES))
