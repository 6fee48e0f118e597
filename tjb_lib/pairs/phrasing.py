"""How a HotpotQA candidate is worded where the source or the question would show through: reader
rules held at zero, each with the repair the builders apply.

The blind readers of 6 December stopped at a conclusion phrased from the
question instead of the answer ("so the sport is paracyclist", "so the country is Pakistani",
"so the arcade game is a pinball machine", "so the monach is King George IV"), at a trailing
aside that does not bear on the question ("..., notably scoring an upset victory against ..."),
at source text that reads broken ("with a.300 batting average", '" The Washington Post"',
"company Headquartered in Mumbai", '"Will & Grace"' s', "Hawaiʻ i", "released, November 22,
2010") and at a reasoning that states one relation twice, once
each way ("A is the brother of B. ... B is the brother of A"). The stock lead-ins ("Note that")
are ``readable.STOCK_LEAD_IN``. The builders (``closing``, ``reasoning``,
``standalone``) and the audit both read this module, which imports none of them.
"""
from __future__ import annotations

import bisect
import difflib
import functools
import re

from tjb_lib.data import load_hotpotqa

# A people's or a language's adjective as a whole answer ("Pakistani", "Roman").
DEMONYM = re.compile(r"^[A-Z][a-z]+(?:an|ian|ish|ese|ani|i)$")
# The nouns a demonym cannot answer: a place or a polity.
_PLACE_NOUNS = frozenset("country nation empire kingdom state republic island continent region "
                         "city town".split())
# A person's noun ("paracyclist") where a field or a sport is asked.
_PERSON_NOUN = re.compile(r"^[a-z]+ist$")
_FIELD_NOUNS = frozenset("sport field game discipline genre style event activity".split())
# Titles that keep their capital as a noun ("the 40th President").
_TITLES = frozenset("President King Queen Emperor Pope Prince Princess Duke Governor".split())
# The conclusion of a reasoning: what the closing claims ("..., so the sport is paracyclist.").
CLAIM = re.compile(r", so (?!.*, so )(?P<claim>.*?)\.?$", re.S)
_NOUN_CLAIM = re.compile(r"^the (?P<noun>(?:[\w-]+ ){0,4}?[\w-]+) (?:is|are) (?P<answer>.+)$")


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


@functools.lru_cache(maxsize=1)
def vocabulary() -> frozenset[str]:
    """The words HotpotQA's paragraphs use (its questions aside, which carry the typos)."""
    return frozenset(w for item in load_hotpotqa() for _, ss in item.context for s in ss
                     for w in _words(s))


def misspelt(claim: str) -> list[str]:
    """Words of ``claim`` HotpotQA's paragraphs never use but spell a close neighbour of
    ("monach" beside "monarch", "supernatrual" beside "supernatural"): the question's typos
    echoed. An inflection of a word they use ("paracyclists", "storming") is no typo."""
    known, out = vocabulary(), []
    for w in re.findall(r"\b[a-z]{5,}\b", claim):
        stem = re.sub(r"(?:ing|ies|es|ed|s)$", "", w)
        if w in known or (len(stem) >= 4 and _starts_a_word(stem)):
            continue
        if _neighbours(w):
            out.append(w)
    return out


@functools.lru_cache(maxsize=1)
def _sorted_vocabulary() -> tuple[str, ...]:
    return tuple(sorted(vocabulary()))


def _starts_a_word(stem: str) -> bool:
    """Whether a word of ``vocabulary`` starts with ``stem`` (a binary search of the sorted
    words, not a scan of all of them for each word of every claim)."""
    words = _sorted_vocabulary()
    i = bisect.bisect_left(words, stem)
    return i < len(words) and words[i].startswith(stem)


@functools.lru_cache(maxsize=1)
def _words_by_length() -> dict[int, tuple[str, ...]]:
    by: dict[int, list[str]] = {}
    for w in _sorted_vocabulary():
        by.setdefault(len(w), []).append(w)
    return {n: tuple(ws) for n, ws in by.items()}


@functools.lru_cache(maxsize=None)
def _neighbours(word: str, cutoff: float = 0.84) -> tuple[str, ...]:
    """Words of ``vocabulary`` spelt close to ``word`` (same first letter), closest first.

    difflib's ratio, 2 x matches / total length, cannot reach ``cutoff`` when the two lengths
    alone keep it below (its ``real_quick_ratio``), so only words of the lengths that can are
    compared: the same matches as comparing every word, as ties are broken by the word itself."""
    n = len(word)
    pool = [w for m, ws in _words_by_length().items() if 2.0 * min(n, m) / (n + m) >= cutoff
            for w in ws]
    return tuple(k for k in difflib.get_close_matches(word, pool, n=3, cutoff=cutoff)
                 if k[0] == word[0] and abs(len(k) - len(word)) <= 2)


def respelt(claim: str) -> str:
    """``claim`` with each misspelt word (``misspelt``) replaced by its closest neighbour, and
    a question's "this"/"these" by "the"."""
    claim = _POINTING.sub("the", claim)
    for w in misspelt(claim):
        claim = re.sub(rf"\b{w}\b", _neighbours(w)[0], claim)
    return claim


# A noun that asks for a kind, which a description answers ("type of magazine").
KIND_NOUN = re.compile(r"(?:type|kind|sort|genre|form|class) of\b")


def echoed_noun(noun: str, answer: str, text: str = "") -> str | None:
    """Why "the <noun> is <answer>" names the question's noun, not the answer's (None: it
    reads): a capital from the question ("the British University", "the Nationality"), a
    demonym or a person's noun where a thing is asked ("the country is Pakistani", "the sport
    is paracyclist"), a description where a name is asked ("the arcade game is a pinball
    machine"), a name that wants its article ("the party is British Conservative Party"), a
    common noun capitalised ("the way is Conscription") that the item's ``text`` writes in
    lower case."""
    a, head = answer.strip(), noun.split()[-1]
    if noun == "answer":
        return None
    if "," in noun or (re.fullmatch(r"[A-Z][a-z]+", head) and head not in _TITLES) or \
            re.search(rf"\b{re.escape(head)}\b", a, re.I):
        return "question's capital"
    if (DEMONYM.match(a) and head in _PLACE_NOUNS) or (_PERSON_NOUN.match(a) and head in _FIELD_NOUNS):
        return "adjective for a noun"
    if re.match(r"(?:an?|one) ", a) and not KIND_NOUN.match(noun):
        return "description for a name"     # "the type of film is a documentary" reads
    if re.match(r"[A-Z][\w-]*(?: [A-Z][\w-]*)* (?:[A-Z][\w-]*|[a-z]+)$", a) and re.search(
            r" (?:[Pp]arty|[Ff]orce|[Ff]ilm|[Bb]omber|[Aa]rmy|[Cc]ampaign)$", a):
        return "name without its article"
    if re.fullmatch(r"[A-Z][a-z]+(?:tion|sion|ism|ment|ing)", a) and (
            not a.endswith("ing") or re.search(rf"\b{a.lower()}\b", text)):
        return "common noun capitalised"
    return None


# "this" or "these" from the question, which points at nothing in a conclusion ("so the
# brother of this first round draft pick").
_POINTING = re.compile(r"\b(?:this|these)\b(?= [a-z])")


# A question's verb written twice ("based "Nina" on based first was published"): the closing
# (``closing.when``) does not echo such a question.
DOUBLED_VERB = re.compile(r"\b([a-z]{3,}ed)\b.*\b\1\b")
# A question's words kept in its own order: a clause ending on its preposition before a comma
# ("The Beatles is Bruce Spizer an expert on, known as ..."), or a verb said twice.
_GARBLED_ECHO = re.compile(r"\b(?:is|was|are|were) [A-Z][^,]* (?:on|in|at|for|from|to|with|by|"
                           rf"of|about|into),|{DOUBLED_VERB.pattern}")


def echoed_claim(claim: str, text: str = "") -> str | None:
    """Why a conclusion echoes the question rather than the answer (``echoed_noun``, a
    misspelt word ``misspelt``, a "this" that points at nothing), or None."""
    if misspelt(claim):
        return "question's typo"
    if _POINTING.search(claim):
        return "question's pointing word"
    if _GARBLED_ECHO.search(claim):
        return "question's word order"
    m = _NOUN_CLAIM.match(claim)
    return echoed_noun(m.group("noun"), m.group("answer"), text) if m else None


# A trailing aside that bears on nothing asked: ", notably scoring an upset victory ...".
TRAILING_ASIDE = re.compile(r",? (?:most )?notably [a-z]+ing\b[^,;.]*(?:, [a-z][^,;.]*)*"
                            r"(?=[.;]|, so |$)")


def asides(step: str, keep: list[str]) -> list[str]:
    """The trailing asides of a step (``TRAILING_ASIDE``) that name none of ``keep`` (the
    answer, another hop's entity)."""
    return [m.group(0) for m in TRAILING_ASIDE.finditer(step)
            if not any(k and k.lower() in m.group(0).lower() for k in keep)]


def without_asides(step: str, keep: list[str]) -> str:
    """A step without its trailing asides (``asides``)."""
    for aside in asides(step, keep):
        step = step.replace(aside, "", 1)
    return step


# Source text that reads broken: a figure glued to the word before it ("a.300", "batted.330"),
# an opening quote followed by a space ('" The Washington Post"'), a participle capitalised
# inside a sentence ("company Headquartered in").
GLUED_FIGURE = re.compile(r"\b([a-z]+)\.(\d{3})\b")
_MID_CAPITAL = re.compile(r"(?<=[a-z] )(Headquartered|Based|Located|Founded) (?=in\b)")


# Figures whose units the source lost ("growing to 1 - tall and 3 - wide"), and a figure in
# inches read as a preposition ("made from 4 in green bottle glass").
LOST_UNITS = re.compile(r",? (?:(?:growing|reaching|measuring)(?: up)?(?: to)? )?\d+(?:\.\d+)? - [a-z]+"
                        r"(?: and \d+(?:\.\d+)? - [a-z]+)?(?=[ ,.;])")
INCHES = re.compile(r"\b(\d+(?:\.\d+)?) in (?=[a-z]+ (?:[a-z]+ )?(?:glass|steel|iron|wood|pipe|lens)\b)")
# A sentence with no verb: a name, an aside and a bare noun phrase ("Kaiser Ventures (formerly
# Kaiser Steel) corporation, headquartered in ..."; "Andrew Jaspan, (b. 20 April 1952)
# British-Australian journalist, the co-founder of ...").
VERBLESS = re.compile(r"^(?!(?:In|On|At|After|Before|During|From|For|By|With|As|Since)\b)(?P<name>[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*)+),? (?P<aside>\([^()]*\) )?"
                      r"(?P<kind>(?:[A-Z][\w-]* )?[a-z][\w-]*(?: [a-z][\w-]*){0,2})(?P<rest>, .*)$")
_FINITE = re.compile(r"\b(?:is|was|are|were|has|had|have|became|remains|serves|served)\b")


def verbless(sentence: str) -> bool:
    """A sentence that is a name and a noun phrase, with no verb (``VERBLESS``)."""
    m = VERBLESS.match(sentence)
    return bool(m) and not _FINITE.search(sentence) and not re.search(r"\w(?:s|ed|ly)\b",
                                                                      m.group("kind"))


def _open_quote_spaces(sentence: str) -> list[int]:
    """Positions of opening straight quotes (the 1st, 3rd, ... of a sentence) that a space
    follows before a word."""
    at = [m.start() for m in re.finditer('"', sentence)]
    return [i for n, i in enumerate(at) if n % 2 == 0 and len(at) % 2 == 0
            and re.match(r'" +\w', sentence[i:])]


# Tokenised text left spaced: a possessive after a closing quote ('"Will & Grace"' s'), a
# Hawaiian ʻokina followed by a space inside a word ("Hawaiʻ i", "Laʻ amea"), a comma between a
# verb and its date ("released, November 22, 2010, by ...").
QUOTE_POSSESSIVE = re.compile(r"([\"”])' s\b")
SPLIT_OKINA = re.compile(r"(?<=\wʻ) (?=[a-z])")
_MONTH = ("January|February|March|April|May|June|July|August|September|October|November|"
          "December")
DATE_COMMA = re.compile(rf"\b(released|published|premiered|aired|opened|founded|launched|born), "
                        rf"(?=(?:{_MONTH}) \d{{1,2}}, \d{{4}})")


# An appositive the source got wrong: a city called a province ("the Argentine city of Rosario,
# a province of Santa Fe"): cut at its comma, the city named alone.
WRONG_APPOSITIVE = re.compile(r"\b((?:city|town|village) of [A-Z][\w-]*(?: [A-Z][\w-]*)*), an? "
                              r"(?:province|state|country|region|county)"
                              r"(?: of [A-Z][\w-]*(?: [A-Z][\w-]*)*)?(?=[.;]|$)")

# A readership left bare after a publication's kind, its "for" lost ("Tea Moderna is a
# Macedonian woman's weekly magazine women."): blind readers quoted it as garbled.
BARE_READERSHIP = re.compile(r"\b(magazines?|newspapers?|journals?|weekly|monthly|periodicals?) "
                             r"(women|men|girls|boys|children|teens|teenagers)(?=[.;,]|$)")

# A kind named without its article after "is" ("Rejuvelac is kind of grain water"): blind
# readers stopped at the missing "a". Two words must follow (a kind is a noun phrase there),
# and not an adverb or "like" ("is kind of like").
BARE_KIND_OF = re.compile(r"\b(is|was) (kind|sort|type) of (?=[a-z]+ [a-z]+\b)(?!(?:[a-z]+ly|like)\b)")


# A comma with no space after it between two words ("Michael Jordan,Tom Seaver"), and a
# measure before the noun it describes written as two words ("a 33 acre open-air venue"): blind
# readers of 7 December quoted both, copied from the source into evidence and reasoning.
GLUED_COMMA = re.compile(r"(?<=[a-z]),(?=[A-Z][a-z])")
OPEN_MEASURE = re.compile(r"\b(an?|the) (\d[\d,.]*) (acre|hectare|foot|mile|inch|metre|meter|yard|"
                          r"storey|story|kilometre|kilometer|seat|room|lane|bed) (?=[a-z])")


def broken_source(sentence: str) -> list[str]:
    """The pieces of source text in ``sentence`` that read broken."""
    out = [m.group(0) for m in GLUED_FIGURE.finditer(sentence)]
    out += [sentence[max(m.start() - 8, 0):m.end() + 8] for m in GLUED_COMMA.finditer(sentence)]
    out += [m.group(0) for m in OPEN_MEASURE.finditer(sentence)]
    out += [sentence[i:i + 8] for i in _open_quote_spaces(sentence)]
    out += [m.group(0) for m in _MID_CAPITAL.finditer(sentence)]
    out += [m.group(0) for m in LOST_UNITS.finditer(sentence)]
    out += [m.group(0) for m in INCHES.finditer(sentence)]
    out += [m.group(0) for m in BARE_READERSHIP.finditer(sentence)]
    out += [m.group(0) for m in BARE_KIND_OF.finditer(sentence)]
    for rx in (QUOTE_POSSESSIVE, SPLIT_OKINA, DATE_COMMA, WRONG_APPOSITIVE):
        out += [sentence[max(m.start() - 12, 0):m.end() + 4] for m in rx.finditer(sentence)]
    return out + [c[:40] for c in CLAIM.sub("", sentence).split("; ") if verbless(c)]


def repaired_source(sentence: str) -> str:
    """``sentence`` with its broken pieces (``broken_source``) repaired."""
    t = GLUED_FIGURE.sub(r"\1 .\2", sentence)
    t = OPEN_MEASURE.sub(r"\1 \2-\3 ", GLUED_COMMA.sub(", ", t))
    t = DATE_COMMA.sub(r"\1 on ", SPLIT_OKINA.sub("", QUOTE_POSSESSIVE.sub(r"\1's", t)))
    for i in reversed(_open_quote_spaces(t)):
        t = t[:i + 1] + t[i + 1:].lstrip(" ")
    t = INCHES.sub(r"\1-inch ", LOST_UNITS.sub("", WRONG_APPOSITIVE.sub(r"\1", t)))
    t = BARE_KIND_OF.sub(r"\1 a \2 of ", BARE_READERSHIP.sub(r"\1 for \2", t))
    if verbless(t):
        m = VERBLESS.match(t)
        kind = m.group("kind")
        t = (f"{m.group('name')} {m.group('aside') or ''}is {'an' if kind[0] in 'aeiouAEIOU' else 'a'} "
             f"{kind}{m.group('rest')}")
    return _MID_CAPITAL.sub(lambda m: m.group(1).lower() + " ", t)


# "A is the brother of B": a relation between two names, said once each way.
_MUTUAL = re.compile(r"(?P<a>[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*)+) (?:is|was|are|were) (?:the|a) "
                     r"(?P<rel>[a-z]+(?: [a-z]+)?) of (?:[\w'’-]+ ){0,5}?"
                     r"(?P<b>[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*)+)")


def mutual(sentences: list[str]) -> list[str]:
    """The later of two sentences that state one relation once each way ("Champ Bailey is the
    brother of ... Boss Bailey", then "Boss Bailey is the brother of ... Champ Bailey")."""
    seen, out = set(), []
    for s in sentences:
        for m in _MUTUAL.finditer(s):
            a, rel, b = m.group("a").rstrip("."), m.group("rel"), m.group("b").rstrip(".")
            if (b, rel, a) in seen:
                out.append(s)
            seen.add((a, rel, b))
    return out
