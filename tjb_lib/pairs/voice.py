"""How a candidate words its reasoning and its answer: seeded choices among many phrasings.

A fixed sentence that only one side of a tier ever uses is a tell: a judge, or a bag-of-words
classifier, finds the tier or the tampered side without reading for quality. So every step is
drawn from a pool of phrasings that share as little wording as possible, both sides of a pair
draw from the same pools wherever the construction allows, and no step refers back to another
("then", "the two sides"), so dropping one step never leaves a dangling reference.
"""
from __future__ import annotations

import random
import re

# Within a pool, each phrasing uses words the others do not, so that no n-gram of a step that
# only one side carries reaches many pairs.
# A bridge hop: the entity the question describes, which leads on to the answer's entity.
BRIDGE_STEPS = (
    "{b} fits the question's description, which leads to {a}.",
    "{b} is the entity described, and it connects to {a}.",
    "First link in the chain: {b}, tied to {a}.",
    "Starting from {b}, one arrives at {a}.",
    "{b} matches the clues and points on to {a}.",
    "Identifying {b} comes first; {b} brings us to {a}.",
    "Such details single out {b}, whose connection is {a}.",
    "Via {b}, the trail goes to {a}.",
)
# The hop that holds the answer (when the hop's entity is not itself the answer).
ANSWER_STEPS = (
    "{a} is where the requested detail comes from: {ans}.",
    "{a}'s entry gives {ans}.",
    "{a}'s own record supplies {ans}.",
    "Reading about {a} yields {ans}.",
    "For {a}, the sought value is {ans}.",
    "What is known of {a} settles it as {ans}.",
    "Looking at {a}, we find {ans}.",
    "{a} provides the last piece: {ans}.",
)
# The hop whose entity is the answer.
ANSWER_IS_ENTITY_STEPS = (
    "{ans} satisfies every condition.",
    "Every criterion is met by {ans}.",
    "Everything asked holds true of {ans}.",
    "{ans} is the match.",
    "All of it applies to {ans}.",
    "Only {ans} qualifies.",
)
# One compared entity of a comparison question.
COMPARED_STEPS = (
    "{e}'s side of the comparison is stated.",
    "For {e}, the deciding fact is given.",
    "{e} is covered by what its own page says.",
    "Reported for {e}: the relevant value.",
    "What matters about {e} is spelled out.",
    "One compared item is {e}, and its details settle that half.",
)
# The comparison itself, made over both compared entities.
COMPARISON_STEPS = (
    "Weighing {e1} against {e2} points to {ans}.",
    "Set side by side, {e1} and {e2} give the reply: {ans}.",
    "Putting {e1} and {e2} together decides it: {ans}.",
    "Comparing {e1} with {e2} settles it: {ans}.",
    "Checking {e1} and {e2} against each other, we get {ans}.",
)
# A closing line either side may add.
CLOSINGS = (
    "So it is {ans}.",
    "Hence, {ans}.",
    "That settles it: {ans}.",
    "Therefore: {ans}.",
    "This leads to {ans} as the reply.",
    "In short, {ans}.",
)
# Generic support: true, but naming no entity and no link (the soft tier's weaker side).
GENERIC_STEPS = (
    "Taken together, the items listed point the same way.",
    "The supporting sentences agree with one another.",
    "Read as a whole, the material backs this conclusion.",
    "Everything gathered here is consistent with the reply.",
    "These details, combined, lead there.",
    "The information displayed is enough to decide the matter.",
    "Together, these facts support the answer.",
    "On the strength of what is provided, the result follows.",
    "Nothing shown contradicts it, and it fits.",
    "Combining what is presented resolves it.",
    "All of the statements are in line with it.",
    "The points made are sufficient here.",
    "Overall, the case is well covered by these statements.",
    "Each piece is relevant, and they fit together.",
)


def pick(r: random.Random, pool: tuple[str, ...], **names: str) -> str:
    """One phrasing of the pool, filled in; an answer that ends a sentence keeps one stop."""
    return re.sub(r"([.!?])\.$", r"\1", r.choice(pool).format(**names))


def closing(r: random.Random, ans: str, p: float = 0.5) -> tuple[str, ...]:
    """With probability p, one closing line (the same pool for every side and tier)."""
    return (pick(r, CLOSINGS, ans=ans),) if r.random() < p else ()
