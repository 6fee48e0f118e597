"""How a candidate words its generic support: the soft tier's weaker side.

The paper's soft split: "same final answer and main evidence; the plain side's reasoning is a bit
more specific, the cited side's support is more generic". The generic side says the same chain
the way a capable writer summarises it: each hop's step (``reasoning.steps``, the specific
side's clauses) cut to its core, the subject, its verb and the object that carries the link (the
next hop's name, the answer, a compared value), without the dates, asides, appositives, lists and
secondary clauses the specific side keeps, the subject called by its short name.

Two earlier forms read as a form to the blind readers of 7 December: pools of stock sentences
("With both excerpts in view, nothing is left to guess"), then a clause naming each hop's source
and its role ("Poison's write-up matches the clue", 'has the “World War II” detail', "give a
figure apiece, and side by side they settle it"): roles that state nothing of what the source
says. A core clause states it, in the item's own words (``readable.ROLE_WITHOUT_CONTENT`` and
``readable.QUOTED_DETAIL`` catch the old forms).
"""
from __future__ import annotations

import random
import re

from tjb_lib.pairs import capitals
from tjb_lib.pairs.reasoning import join_word, whole
from tjb_lib.text import MONTHS
from tjb_lib.text import sentences as split_sentences

#: how the second core clause joins the first (seeded; both are joins the specific side uses)
JOINS = ("{first}, and {second}", "{first}; {second}")
# Where what follows a clause only adds to it: a secondary clause, a list's next item, an aside,
# a clause of its own after "and", a participle's own clause ("published by ..."), a date.
_TAIL = re.compile(r",(?= [a-z\"“])|:(?= )| \(| (?:which|who|whom|where|while|"
                   r"and (?=(?:is|was|are|were|has|have|had|became|also|[a-z]+ed)\b)|"
                   r"(?:in|from|since) \d{4}|(?:[a-z]+ly )?(?:[a-z]+ed|made|written|born) "
                   r"(?:by|in|on|for|from)|among others)\b")
# What only adds to the link's object right after it: the rest of its title ("the New York Giants
# of the National Football League"), a companion or a time ("hosted the show with ...").
_OBJECT_TAIL = re.compile(r" (?:of the|with|during) ")
# An opening phrase before the subject ("In 2014, ...", "During the war, ...").
_OPENING = re.compile(r"^(?:In|On|At|After|Before|During|From|Since|By|Following|Throughout) "
                      r"[^,]{1,60}, (?=[A-Za-z0-9\"“])")
# An appositive after the subject ("Kate Bush, an English singer, released ...").
_APPOSITIVE = re.compile(r"^([A-Z][^,()]{1,60}?), ((?:an?|the|[a-z]+ed) [^,()]{1,90}), (?=[a-z])")
# "S is a media personality and former defensive end who spent ...": the description before
# "who" (no preposition in it, so the relative is the subject's) says less than the clause after.
_DESCRIBED = re.compile(r"^([A-Z][^,;()]{1,60}?) (?:is|was|are|were) (?:an?|the) "
                        r"((?:(?!(?:of|in|to|for|by|with|from|on|at)\b)[\w'’-]+ ){1,8}?)who (?=[a-z])")
# A date the specific side gives beside the fact ("on July 28, 2014", "in 1939").
_DATE = re.compile(rf",? (?:on|in) (?:(?:{MONTHS}) )?(?:\d{{1,2}}, )?\d{{4}}\b")
# A year before the noun it dates ("a 2003 album", "the 2004 film").
_YEAR_BEFORE = re.compile(r"\b(?:(an?) (\d{4}) (?=([A-Za-z]))|the (\d{4}) (?=[a-z]))")
# A birth aside (or a life's dates) at the subject: "Kenneth P. LaValle (born May 22, 1939 in
# Brooklyn, New York)", "Am Rong (1929 – May 1975)".
_BORN = re.compile(r" \((?:born )?([^()]*?)(?: – [^()]*)?\)")
# A suffix a full name carries that the short name leaves out ("Jr.", ", PhD", "OBE").
_SUFFIX = r"(?:,? (?:Jr|Sr)\.|,? PhD|,? III|,? OBE|,? CBE|,? MBE)?"


def _holds(text: str, target: str | None) -> bool:
    return bool(target) and target.lower() in text.lower()


def _short_subject(clause: str, name: str) -> str:
    """``clause`` with its subject's full name ("Michael Anthony Strahan", "Kenneth P. LaValle",
    'Terrence "Uncle Terry" Richardson') called by ``name``, the short name the reasoning uses
    for the hop ("Michael Strahan"), where the full name holds each of its words."""
    w = name.split()
    if len(w) < 2:
        return clause
    full = re.match(rf"(?:[A-Z\"“][\w.'’\"”-]* ){{1,4}}{re.escape(w[-1])}\b{_SUFFIX}", clause)
    if not full or full.group(0) == name or full.group(0).startswith("The "):
        return clause
    said = set(re.sub(r"[\"“”,]", "", full.group(0)).split())
    return name + clause[full.end():] if set(w) <= said else clause


def _born(clause: str, target: str, name: str, question: str) -> str:
    """A subject's birth aside that holds ``target`` said as a clause of ``name``: "Kenneth
    LaValle was born in Brooklyn, New York" (the place) or, where the question asks of a birth,
    "Ava DuVernay was born in 1972", "Zaheer Khan was born on 7 October 1978"."""
    m = _BORN.search(clause)
    if not m or not _holds(m.group(0), target) or not clause[:m.start()].strip():
        return clause
    place = re.search(r"\bin ([^()]+)$", m.group(1))
    if place and _holds(place.group(1), target):
        return f"{name} was born in {place.group(1)}"
    if re.search(r"\b(?:born|older|oldest|younger|youngest)\b", question, re.I) \
            and _holds(m.group(1), target):
        on = "on" if re.match(rf"\d{{1,2}} |(?:{MONTHS}) \d", target) else "in"
        return f"{name} was born {on} {target}"
    return clause


def _anchor(said: str, target: str, question: str) -> int:
    """Where the core may end at the earliest: after ``target`` and after the last word of the
    question ``said`` repeats (the fact the step gives for it)."""
    want = {w for w in re.findall(r"[a-z]{4,}", question.lower())}
    ends = [m.end() for m in re.finditer(r"[A-Za-z]+", said) if m.group(0).lower() in want]
    return max([*ends, said.lower().rfind(target.lower()) + len(target)])


def _cut(said: str, at: int) -> str:
    """``said`` up to the first ``_TAIL`` from ``at`` (or an ``_OBJECT_TAIL`` right at ``at``)
    that leaves a whole sentence; a comma list the cut ends inside is cut at its first item
    ("an English comedian, actor, writer" -> "an English comedian")."""
    title = [at] if _OBJECT_TAIL.match(said, at) else []
    for end in title + [t.start() for t in _TAIL.finditer(said, at)]:
        out = said[:end]
        while said[end:end + 1] == "," and (m := re.search(r", [a-z][\w-]*(?: [a-z][\w-]*){0,2}$",
                                                           out)):
            out = out[:m.start()]
        if whole(out):
            return out
    return said


def core(step: str, target: str | None, name: str, question: str = "") -> str:
    """The core of one hop's step: the sentence of it that names ``target`` (the link's object:
    the next hop's name, the answer, a compared value), cut to its subject, verb and that object
    (not cut where the step does not name it: a yes/no comparison's deciding words may come last);
    asides, an opening phrase, an appositive, a description before "who", dates (and a year
    before its noun) and what follows the object (``_TAIL``) left out where they do not hold
    ``target``; a birth aside that holds it said as a clause; the subject called ``name``. A cut
    that no longer reads whole is not made."""
    pieces = [p.rstrip(" .") for s in split_sentences(step) for p in re.split(r"; (?=[A-Z\"“])", s)]
    said = next((p for p in pieces if _holds(p, target)), pieces[0])
    out = _born(said, target, name, question) if target else said
    out = re.sub(r" \([^()]*\)", lambda m: m.group(0) if _holds(m.group(0), target) else "", out)
    for rx in (_OPENING, _APPOSITIVE):
        m = rx.match(out)
        if m and not _holds(m.group(0), target) and not _holds(m.group(0), name):
            out = (m.group(1) + " " if rx is _APPOSITIVE else "") + out[m.end():]
            out = out[:1].upper() + out[1:]
    m = _DESCRIBED.match(out)
    if m and _holds(out[m.end():], target) and not _holds(m.group(0), target):
        out = f"{m.group(1)} {out[m.end():]}"
    out = _cut(out, _anchor(out, target, question)) if _holds(out, target) else out
    out = _DATE.sub(lambda m: m.group(0) if _holds(m.group(0), target) else "", out)
    out = _YEAR_BEFORE.sub(lambda m: m.group(0) if _holds(m.group(2) or m.group(4), target) else
                           ("an " if m.group(3) in "AEIOUaeiou" else "a ") if m.group(1) else "the ",
                           out)
    out = _short_subject(out, name)
    return out if whole(out) else said


def generic_support(r: random.Random, cores: list[str], text: str) -> str:
    """The generic side's support: the hops' core clauses in chain order, joined plainly (a
    seeded join; ``text``, the item's own, decides whether the second clause's first word keeps
    its capital)."""
    first, *rest = cores
    for nxt in rest:
        join = r.choice(JOINS)
        if join_word(first, nxt) != "; ":          # no run of semicolons (``join_word``)
            join = JOINS[0]
        first = join.format(first=first, second=capitals.lowered(nxt, text))
    return first
