"""Why a HotpotQA item's chain cannot carry a candidate a careful reader trusts: reader rules
held at zero.

Blind readers (DATASHEET, blind reading of 5 December, second round) stopped at a conclusion
whose deciding fact is never said ("Katherine Boyer Waterston is an American actress. ... so the
answer is Steve Jobs": no supporting sentence links the two hops), a comparison concluded
against its own values ("... six decades ...; ... 117 films between 1913 and 1927, so Scott
Sidney had the longest career"), a cut name as the answer ("Answer: Charles Joseph" where the
evidence says "Charles Joseph Scarborough"), a page title used as a name ("The producers of
Filming of James Bond in the 1990s"), the source's broken grammar ("who is plays", '"The Lego
Batman Movie" (2017)".') and off-topic padding ("Interstate 81 is an 855 mi highway." for a
town's population). ``item_problems`` names what makes an item unusable (``pools`` rejects it,
counted by reason); ``slip_rules.problems`` reads a pair with these rules as the audit does.
"""
from __future__ import annotations

import dataclasses
import html
import re

from tjb_lib.data import HotpotItem
from tjb_lib.pairs.candidates import answer_hop, hop_sentences, hops, mentions
from tjb_lib.pairs.reasoning import comparative, content_words
from tjb_lib.pairs.reasoning import steps as reasoning_steps
from tjb_lib.pairs.standalone import VERB, entity_of, name_form, short_name, standalone
from tjb_lib.text import MONTHS, YEAR

# Which end of a comparison the answer takes: the earlier year or the smaller count ...
_LOW = re.compile(r"\b(?:first|earlier|earliest|older|oldest|before|fewer|less|least|smaller|"
                  r"smallest|lower|lowest|shorter|shortest)\b", re.I)
# ... or the later year or the larger count.
_HIGH = re.compile(r"\b(?:later|latest|younger|youngest|newer|newest|recent|more|most|larger|"
                   r"largest|bigger|biggest|higher|highest|longer|longest|taller|tallest|"
                   r"greater|greatest)\b", re.I)
_DATE = re.compile(r"\b(?:first|earlier|earliest|older|oldest|younger|youngest|born|founded|"
                   r"established|formed|released|created|opened|began|started|published|"
                   r"debuted|later|latest|newer|newest|before|year)\b", re.I)
_WORD_NUMBERS = {w: i + 1 for i, w in enumerate(
    "one two three four five six seven eight nine ten eleven twelve".split())} | {
    "single": 1, "only": 1}
_FUNCTION_WORDS = frozenset("at in on of and as by for to from with was is were are the a an or "
                           "than since until".split())
# A lifetime compared: the span between the first two years, not the first year.
_LIFETIME = re.compile(r"\b(?:longer|longest|shorter|shortest) (?:life|lifespan)\b|\blived "
                       r"(?:longer|the longest)\b", re.I)
# A day of a date, which is no count ("March 12", "18 October").
_DAY = re.compile(rf"\b(?:{MONTHS}) \d{{1,2}}\b|\b\d{{1,2}} (?:{MONTHS})\b")
_AMOUNT = re.compile(r"\b(\d[\d,]*(?:\.\d+)?|" + "|".join(_WORD_NUMBERS) + r")\b(?:\s+([a-z]+))?")


def _names(item: HotpotItem, hop: str) -> list[str]:
    return [n for n in dict.fromkeys((short_name(html.unescape(hop)),
                                      entity_of(item, hop).name)) if n]


def _bridge(item: HotpotItem) -> bool:
    return (not comparative(item, hops(item)) and len(hops(item)) > 1
            and item.answer.strip().lower() not in ("yes", "no"))


# A proper name a sentence uses: a quoted title or a run of capitalised words after the first.
_PROPER = re.compile(r'"([^"]+)"|“([^”]+)”|(?<=[a-z,;(] )((?:[A-Z][\w\'’.-]+ ?)+)')
# A single word that is a people's or a language's adjective ("American", "English").
_DEMONYM = re.compile(r"^[A-Z][a-z]+(?:an|ish|ese|ch|i)$")


def proper_names(sentence: str) -> set[str]:
    """The proper names ``sentence`` uses, nationality words aside."""
    found = {next(g for g in m.groups() if g).strip(" .,;:") for m in _PROPER.finditer(sentence)}
    return {f for f in found if not (" " not in f and _DEMONYM.match(f))}


def _linked(item: HotpotItem, h: str, o: str) -> bool:
    """Do hop ``h``'s sentences name hop ``o``'s entity, name a common noun's title by its
    words ("management consultant" for "Management consulting"), or share with ``o``'s
    sentences a proper name the question does not give ("Neighbours")?"""
    mine, theirs = hop_sentences(item, h), hop_sentences(item, o)
    if any(mentions(s, n) for s in mine for n in _names(item, o)):
        return True
    title = short_name(html.unescape(o))
    caps = [w for w in re.findall(r"[\w'’.-]+", title) if w[:1].isupper()]
    short = ["".join(w[0] for w in caps)] if len(caps) >= 3 else []      # "IBF", "VCU"
    if entity_of(item, o).person and len(caps[-1:][0] if caps else "") > 3:
        short.append(caps[-1])                                        # "Strahan", "Combermere"
    if any(re.search(rf"\b{re.escape(w)}\b", s) for s in mine for w in short):
        return True
    if re.fullmatch(r"[A-Z][a-z]+(?: [a-z]+)+", title) and all(
            any(w[:5].lower() in s.lower() for s in mine) for w in title.split()):
        return True
    shared = [a for a in {n for s in mine for n in proper_names(s)}
              for b in {n for s in theirs for n in proper_names(s)} if a in b or b in a]
    return any(n.lower() not in item.question.lower() for n in shared)


def unlinked(item: HotpotItem) -> bool:
    """A bridge whose supporting sentences never link one hop to another (``_linked``): the
    fact that leads from the bridge to the answer is not in the evidence ("Katherine Waterston
    and Chrisann Brennan have what in common?" answered from two unrelated openings)."""
    if not _bridge(item):
        return False
    hs = hops(item)
    if all(any(mentions(s, item.answer.strip()) for s in hop_sentences(item, h)) for h in hs):
        return False                           # "what country do both A and B represent?"
    if not _IN_COMMON.search(item.question) and all(
            any(mentions(item.question, n) for n in _names(item, h)) for h in hs):
        return False                           # the question gives the link itself
    return not any(_linked(item, h, o) for h in hs for o in hs if o != h)


# A question that asks what its entities share: the answer must be said of each.
_IN_COMMON = re.compile(r"\b(?:in common|both|share|shared)\b", re.I)


def with_link(item: HotpotItem) -> HotpotItem:
    """An unlinked bridge with the sentence of its paragraphs that names another hop's entity
    added to its supporting facts ("Kang is voiced by Harry Shearer and Kodos by Dan
    Castellaneta."), one that also states the answer first; else the item as it is."""
    if not unlinked(item):
        return item
    facts = list(dict.fromkeys(item.supporting_facts))
    found = [(h, sid) for h in hops(item) for sid, s in enumerate(dict(item.context)[h])
             if (h, sid) not in facts and standalone(item, h, sid) is not None
             and any(mentions(s, n) for o in hops(item) if o != h for n in _names(item, o))]
    if not found:
        return item
    h, sid = max(found, key=lambda f: mentions(dict(item.context)[f[0]][f[1]], item.answer.strip()))
    at = max(i for i, f in enumerate(facts) if f[0] == h) + 1
    return dataclasses.replace(item, supporting_facts=tuple(facts[:at] + [(h, sid)] + facts[at:]))


def as_read(item: HotpotItem) -> HotpotItem:
    """The item as the builders and the audit read it: its bridge linked (``with_link``), its
    list answer whole (``whole_list``)."""
    return whole_list(with_link(item))


def cut_list(item: HotpotItem) -> str | None:
    """The whole list a gold answer cuts short: "Executive Search, Board Consulting" where
    every supporting sentence that gives it goes on "... and Leadership Strategy Services";
    None where the answer is no list or is whole."""
    a = item.answer.strip()
    if ", " not in a:
        return None
    said = [dict(item.context)[t][s].strip() for t, s in dict.fromkeys(item.supporting_facts)
            if s < len(dict(item.context)[t])]
    wholes = {m.group(0) for s in said
              for m in re.finditer(rf"{re.escape(a)},? (?:and|or) [A-Z][\w'’-]*(?: [A-Z][\w'’-]*)*", s)}
    found = any(re.search(rf"{re.escape(a)}\b", s) for s in said)
    return wholes.pop() if found and len(wholes) == 1 and all(
        re.search(rf"{re.escape(a)},? (?:and|or) ", s) for s in said if a in s) else None


def whole_list(item: HotpotItem) -> HotpotItem:
    """The item with a list answer cut short (``cut_list``) made whole; else as it is."""
    whole = cut_list(item)
    return dataclasses.replace(item, answer=whole) if whole else item


def answer_unsaid(item: HotpotItem) -> bool:
    """A bridge answer that none of the supporting sentences contains."""
    return _bridge(item) and not any(mentions(s, item.answer.strip()) for h in hops(item)
                                     for s in hop_sentences(item, h))


def cut_answer(item: HotpotItem) -> bool:
    """A name as the gold answer that the supporting sentences give only with a further name
    after it, one of them as its subject ("Charles Joseph" for "Charles Joseph Scarborough is
    ..."); not where the question asks for a part of a name."""
    a = item.answer.strip()
    if (not re.fullmatch(r"(?:[A-Z][\w.'’-]*)(?: [A-Z][\w.'’-]*)*", a)
            or re.search(r"\b(?:first|middle|last|given|family|sur|nick)\s?name\b", item.question, re.I)):
        return False
    said = [dict(item.context)[t][s].strip() for t, s in dict.fromkeys(item.supporting_facts)
            if s < len(dict(item.context)[t])]
    found = [(s, m) for s in said for m in re.finditer(rf"\b{re.escape(a)}\b", s)]
    return (bool(found) and all(re.match(r" [A-Z][a-z]", s[m.end():m.end() + 3]) for s, m in found)
            and any(m.start() == 0 for _, m in found))


def _value(step: str, date: bool, lifetime: bool) -> tuple[float, str] | None:
    """The compared value a step states: its first year (a lifetime: the span of its first
    two), or its first count and the word after it (its unit)."""
    years = [float(y) for y in YEAR.findall(step)]
    if lifetime:
        return (years[1] - years[0], "years") if len(years) >= 2 else None
    if date:
        return (years[0], "year") if years else None
    text = YEAR.sub(" ", _DAY.sub(" ", re.sub(r"\([^()]*\)", " ", step)))
    m = next((m for m in _AMOUNT.finditer(text) if not text[m.end(1):m.end(1) + 2].strip()[:1].isdigit()
              and not re.match(r" [A-Z]", text[m.end(1):m.end(1) + 2])), None)
    if not m:
        return None
    n, unit = m.group(1).lower(), (m.group(2) or "").lower()
    unit = "" if unit in _FUNCTION_WORDS else unit.rstrip("s")
    return (float(_WORD_NUMBERS.get(n) or n.replace(",", "")), unit)


def against_values(item: HotpotItem) -> str | None:
    """Why a comparison's conclusion is not what its stated values imply (None: it is, or the
    question compares no year or count): a value missing, units that differ ("six decades",
    "117 films"), or the answer at the wrong end. A quoted title's words are no question words
    ("500 Years Later")."""
    q, answer = re.sub(r'"[^"]*"', '""', item.question), item.answer.strip()
    hs = hops(item)
    if not comparative(item, hs) or answer.lower() in ("yes", "no") or len(hs) != 2:
        return None
    low, high = bool(_LOW.search(q)), bool(_HIGH.search(q))
    if low == high:
        return None
    support = {h: hop_sentences(item, h) for h in hs}
    said = reasoning_steps(item, support, hs, answer_hop(item), answer)
    date, lifetime = bool(_DATE.search(q)), bool(_LIFETIME.search(q))
    values = {h: _value(_unnamed(said[h], _names(item, h)), date, lifetime) for h in hs}
    if None in values.values():
        return "a compared value not stated"
    if len({u for _, u in values.values()}) > 1:
        return "compared values not alike"
    won = [h for h in hs if any(mentions(answer, n) or mentions(n, answer)
                                for n in _names(item, h))]
    if len(won) != 1:
        return None
    other = next(h for h in hs if h != won[0])
    a, b = values[won[0]][0], values[other][0]
    return "conclusion against the values" if (a > b if low else a < b) else None


def _unnamed(step: str, names: list[str]) -> str:
    """A step without its entity's names, whose figures are no compared value ("712 5th
    Avenue")."""
    for n in names:
        step = step.replace(n, " ")
    return step


def clauses(sentence: str) -> list[str]:
    """A reasoning sentence's clauses: its parts at a semicolon that each have a verb (a joined
    restatement, ``reasoning.joined``), a list's items kept together."""
    out: list[str] = []
    for part in sentence.split("; "):
        if out and (not (VERB.search(part) and VERB.search(out[-1])) or re.match(r"(?:and|or|but) ", part)):
            out[-1] += "; " + part
        else:
            out.append(part)
    return out


def padding(clauses: list[str], item: HotpotItem) -> list[str]:
    """The clauses of a reasoning that add nothing to what another clause about the same hop
    says of the question: naming neither the answer nor another hop, they share at most one
    question word beyond their hop's own name, and none that the other does not ("Interstate 81 is an 855 mi
    highway." beside "Interstate 81 is the longest Interstate highway within the borders of
    Virginia"). The last clause, which the conclusion closes, is the answer's step."""
    want = content_words(item.question)
    about = {}
    for at, c in enumerate(clauses):
        h = max(hops(item), key=lambda h: max((len(content_words(s) & content_words(c))
                                               for s in hop_sentences(item, h)), default=0))
        links = [n for o in hops(item) if o != h for n in _names(item, o)] + [item.answer.strip()]
        if not any(mentions(c, n) or len(content_words(c) & content_words(n)) >= 2 for n in links):
            about[at] = (h, (content_words(c) - content_words(" ".join(_names(item, h)))) & want)
    return [clauses[i] for i, (h, w) in about.items()
            if i < len(clauses) - 1 and len(w) <= 1 and any(j != i and g == h and w <= v and (w < v or j < i)
                   for j, (g, v) in about.items())]


def item_problems(item: HotpotItem) -> list[str]:
    """Why an item cannot carry a candidate a reader trusts, one reason each."""
    out = []
    if answer_unsaid(item):
        out.append("answer in no supporting sentence")
    elif unlinked(item):
        out.append("bridge never linked")
    if cut_answer(item):
        out.append("answer a cut name")
    if cut_list(item):
        out.append("answer a cut list")
    why = against_values(item)
    if why:
        out.append(why)
    return out


def nameless_titles(sentence: str, item: HotpotItem) -> list[str]:
    """Page titles that name no entity ("Filming of James Bond in the 1990s") used in a sentence
    where the item's own text never writes them."""
    text = " ".join(s for _, ss in item.context for s in ss)
    return [t for t in hops(item) if name_form(t, text) is None
            and short_name(html.unescape(t)) in sentence
            and short_name(html.unescape(t)) not in text]
