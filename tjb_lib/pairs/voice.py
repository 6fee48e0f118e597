"""How a candidate words its generic support: seeded choices among phrasings.

A fixed sentence that only one side of a tier ever uses is a tell: a judge, or a bag-of-words
classifier, finds the tier or the tampered side without reading for quality. So the words a
candidate adds to its evidence are drawn from pools of phrasings that share as little wording as
possible, and both sides of a pair draw from the same pools wherever the construction allows.
"""
from __future__ import annotations

import random
import re

# Generic support: true, but naming no entity and no link (the soft tier's weaker side); the
# closing (``tjb_lib.pairs.closing``) is joined on, as on the specific side.
GENERIC_STEPS = (
    "Taken together, the items listed point the same way",
    "All the supporting sentences agree with one another",
    "Read as a whole, the material backs this conclusion",
    "Everything gathered here is consistent with the reply",
    "Combined, the details lead there",
    "What is displayed is enough to decide the matter",
    "Together, the facts support the answer",
    "On the strength of what is provided, the result follows",
    "Nothing shown contradicts it, and it fits",
    "Combining what is presented resolves it",
    "All of the statements are in line with it",
    "What has been laid out is sufficient here",
    "Overall, the case is well covered by the statements",
    "Each piece is relevant, and the pieces fit together",
)


def pick(r: random.Random, pool: tuple[str, ...], **names: str) -> str:
    """One phrasing of the pool, filled in; an answer that ends a sentence keeps one stop."""
    return re.sub(r"([.!?])\.$", r"\1", r.choice(pool).format(**names))
