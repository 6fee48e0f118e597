"""How a candidate words its generic support: seeded choices among phrasings.

A fixed sentence that only one side of a tier ever uses is a tell: a judge, or a bag-of-words
classifier, finds the tier or the tampered side without reading for quality. So the words a
candidate adds to its evidence are drawn from pools of phrasings that share as little wording as
possible, and both sides of a pair draw from the same pools wherever the construction allows.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace

# Generic support (the soft tier's weaker side): a capable writer's shorter account of the same
# chain. It says, in the item's own names, what each source does in the chain (names the next
# entity, gives what is asked, bears out the question's description, gives a compared fact) and
# leaves out what the specific side spells out (the link's wording, dates, the second hop's
# words). The blind readers of 7 December graded the earlier pools templated filler every time
# ("With both excerpts in view, nothing is left to guess"): a clause that named nothing of the
# item, reused across items. So each role has a pool of verbs, a source is called by one of
# ``SOURCES``' nouns in one of ``REFERENCES``' forms, and the clauses join in one of several
# ways; no fixed run of words recurs across many items (``readable.stock_support``).
#: nouns for one hop's source (one per candidate)
SOURCES = ("page", "entry", "article", "passage", "excerpt", "extract", "paragraph", "write-up")
#: forms of a reference to a named hop's source: the possessive, or the noun before the name
REFERENCES = ("{owner} {src}", "the {src} on {name}", "the {src} about {name}")
#: how a sentence opens on a name that takes no possessive ("the Leda", "Catwoman (film)")
OPENINGS = ("The {src} on {name}", "A {src} about {name}")
LINKS = ("names {o}", "leads to {o}", "points to {o}", "brings in {o}", "mentions {o}",
         "connects to {o}", "identifies {o}")
ANSWERS = ("gives the {noun}", "supplies the {noun}", "states the {noun}", "has the {noun}",
           "provides the {noun}")
#: the answer's role where the question names no noun for what it asks
ANSWERS_BARE = ("answers it", "has what is asked", "holds the answer", "settles it",
                "supplies the reply", "carries the answer")
#: the second hop's role where the first one has stated the answer too
AGREES = ("agrees", "says the same", "bears that out", "concurs")
#: the role of a hop the question itself describes: where its evidence repeats the question's
#: words, they are quoted ({echo}); else a short clause
ECHOES = ("bears out the question's “{echo}”", "confirms the “{echo}” part",
          "matches “{echo}”", "has the “{echo}” detail", "accounts for “{echo}”")
CONFIRMS = ("fits the description", "bears out the question's account", "matches the clue",
            "confirms the premise", "fits the clue", "squares with the wording",
            "backs up the description", "checks out")
#: how the second clause joins the first; where the first clause leads to the second hop, half
#: of the time its source follows as a relative ("..., whose own page gives the team")
JOINS = ("{first}, and {second}", "{first}; {second}", "{first}, while {second}")
COMPARED = ("{a} and {b} each give {fact}", "{a} and {b} give {fact} apiece",
            "{fact} comes from {a} and from {b}", "{a} gives {fact} and so does {b}")
#: a comparison whose question suggests no word for the compared fact ("are both musicians?")
DESCRIBED = ("{a} and {b} say what each one is", "{a} and {b} describe each in turn",
             "{a} describes the one and {b} the other")
COMPARED_TAILS = ("", ", and comparing them decides it", ", and side by side they settle it",
                  ", which is all the comparison needs")


@dataclass(frozen=True)
class HopRole:
    """What one hop does in the chain, as the generic side tells it: its name, the other hop's
    name where its evidence names that hop, whether its evidence states the answer, and the
    question's words its evidence repeats (``echo``)."""
    name: str
    links: str | None
    answers: bool
    echo: str | None = None


def compared_fact(question: str, noun: str | None) -> str | None:
    """What a comparison's sources each give, in a word the question suggests (None: none)."""
    q = question.lower()
    same = re.search(r"\bsame ([a-z]+)", q)
    if re.search(r"\b(?:born|older|oldest|younger|youngest)\b", q):
        return "a date of birth"
    if re.search(r"\b(?:first|earlier|before|later|newer|year|founded|established|formed|"
                 r"released|opened|started)\b", q) and not same:
        return "a date"
    if re.search(r"\b(?:population|many|much|larger|more|fewer|taller|longer)\b", q):
        return "a figure"
    if same:
        return f"a {same.group(1)}"
    if noun and re.fullmatch(r"[a-z]+(?: of [a-z]+)?", noun):
        return f"a {noun}"
    return None


def possessive(name: str) -> str:
    """``name`` as an owner: "Curt Menefee's", "Innocent Records'", "Kellogg's"."""
    return name if name.endswith(("'s", "’s")) else name + ("'" if name.endswith("s") else "'s")


def _reference(r: random.Random, name: str, src: str, start: bool) -> str:
    """The hop's source: "X's page", "the page on X" (the possessive only for a bare name, one
    without a function word inside, and always for one at the start of the sentence, where
    "The page on X" would open most of them; another name opens on one of ``OPENINGS``)."""
    bare = re.fullmatch(r"[A-Z0-9][^(),]*[A-Za-z0-9']", name) and not re.search(
        r" (?:of|to|and|the|in|on|for|at|a|an) ", name)     # not "Ambassador to China's page"
    if start:
        out = (REFERENCES[0] if bare else r.choice(OPENINGS)).format(name=name, src=src,
                                                                     owner=possessive(name))
        return re.sub(r"^A (?=[aeiou])", "An ", out)
    return r.choice(REFERENCES if bare else REFERENCES[1:]).format(name=name, src=src,
                                                                   owner=possessive(name))


def _role(r: random.Random, hop: HopRole, noun: str | None, agrees: bool = False) -> str:
    """The verb phrase of one hop's role (``agrees``: the other hop stated the answer first)."""
    said = [r.choice(LINKS).format(o=hop.links)] if hop.links else []
    if hop.answers:
        said.append(r.choice(AGREES) if agrees else
                    r.choice(ANSWERS).format(noun=noun) if noun else r.choice(ANSWERS_BARE))
    if said:
        return " and ".join(said)
    return r.choice(ECHOES).format(echo=hop.echo) if hop.echo else r.choice(CONFIRMS)


def generic_support(r: random.Random, roles: list[HopRole], noun: str | None,
                    fact: str | None, comparison: bool) -> str:
    """One generic support clause naming each hop's source and its role: for a comparison,
    that each gives ``fact`` (or describes its subject, where ``fact`` is None); for a chain,
    what each hop's evidence does, the hop that names the other first."""
    src = r.choice(SOURCES)
    noun = noun if noun and re.fullmatch(r"[a-z][a-z -]*", noun) else None
    if comparison:
        a, b = (_reference(r, h.name, src, False) for h in roles)
        said = (r.choice(COMPARED).format(a=a, b=b, fact=fact) if fact
                else r.choice(DESCRIBED).format(a=a, b=b)) + r.choice(COMPARED_TAILS)
        return said[:1].upper() + said[1:]
    first, second = roles
    if first.links == second.name:       # the account runs one way: no link back
        second = replace(second, links=None)
    head = f"{_reference(r, first.name, src, True)} {_role(r, first, noun)}"
    rest = _role(r, second, noun, agrees=first.answers)
    if first.links == second.name and not first.answers and r.random() < 0.5:
        return f"{head}, whose own {src} {rest}"
    return r.choice(JOINS).format(first=head, second=f"{_reference(r, second.name, src, False)} "
                                                    f"{rest}")
