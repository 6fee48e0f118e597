"""Evidence that stands alone: a HotpotQA sentence readable without its paragraph or a label.

A Wikipedia sentence after a paragraph's first leans on it ("It lies on the banks of the Richmond
River", "The film stars ..."). Shown as evidence, such a line is resolved only by the cited side's
source label, so the cited side would say more than the plain side. Every sentence a candidate
shows goes through ``standalone``: a subject pronoun, a possessive or a bare description of the
paragraph's entity ("It", "His", "The film") becomes the entity's name, on both sides alike;
dataset residue (the empty brackets of stripped pronunciations, dict-like text, a lost date dash)
is cleaned; a sentence that cannot be made readable gives None and is not shown.
"""
from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass

from tjb_lib.data import HotpotItem
from tjb_lib.pairs.phrasing import repaired_source
from tjb_lib.pairs.slips import SOURCE_GRAMMAR
from tjb_lib.text import MONTHS
from tjb_lib.text import sentences as split_sentences

# A lifespan or birth note in the opening sentence: "(born 5 June 1950)", "(1872 – 20 July 1928)".
PERSON_NOTE = re.compile(r"\((?:[^()]*?\b)?(?:born|b\.)\s|\(\s*(?:c\.\s*)?(?:\d{1,2}\s+)?"
                         rf"(?:(?:{MONTHS})\s+)?(?:\d{{1,2}},\s+)?\d{{3,4}}\s*[–-]")
# "X is a 1999 American horror film" -> the words of "1999 American horror film".
_KIND = re.compile(r"\b(?:is|was|are|were)\s+(?:an?|the|one of the)\s+([^,.;()]+)")
_KIND_CUT = re.compile(r"\s+(?:of|in|from|that|which|who|whose|located|based|by|for|on|at|with|"
                       r"formed|founded|directed|written|produced|released|created|known|named|"
                       r"owned|to|starring|developed|published|set|where|composed|presented|"
                       r"headquartered|affiliated|played|hosted)\b.*")
# Nouns a paragraph may use for its own entity, with the kinds each may stand for.
SYNONYMS = {"movie": {"film"}, "film": {"movie", "documentary"}, "group": {"band", "duo", "trio", "chain"},
            "band": {"group", "duo", "trio"}, "single": {"song"}, "song": {"single"},
            "show": {"series", "sitcom", "programme", "program", "performance", "revue"}, "story": {"series", "novel", "book"},
            "series": {"show", "sitcom", "programme", "program"}, "club": {"team"},
            "team": {"club", "program", "programme", "squad", "franchise"},
            "aircraft": {"biplane", "plane", "airplane", "monoplane", "airliner", "airship"},
            "company": {"corporation", "retailer", "manufacturer", "firm", "chain", "conglomerate"},
            "store": {"retailer", "chain"}, "recording": {"album"}, "record": {"album"},
            "event": {"festival", "conference", "awards", "ceremony", "tournament"},
            "competition": {"tournament", "championship", "cup", "contest"},
            "city": {"town"}, "town": {"city", "village"}, "novel": {"book"}, "book": {"novel"}}
# Kinds that take "they": a group of people or things.
GROUP_KINDS = frozenset("band group duo trio quartet team club family species genus people".split())
SUBJECT = {"he": "he", "she": "she", "it": "it", "they": "they",
           "his": "he", "her": "she", "its": "it", "their": "they"}
POSSESSIVE = frozenset({"his", "her", "its", "their"})
# An opening phrase after which the sentence's own subject comes: "After his NBA career, he
# served ...", "A Democrat, she was ...".
_INTRO = re.compile(r"^([^;:]{2,150}?, |(?:In|On|At|After|Before|During|From|Since|By|Until|"
                    r"Following|Throughout|Upon|Over|Under|Within) [^;:,]{1,60}? )"
                    r"(?=(?:he|she|it|they|his|her|its|their|the [a-z]+)\b)")
# The main verb of a sentence: a form of be/have or a common finite verb after the subject.
VERB = re.compile(r"\b(?:is|was|are|were|has|have|had|became|becomes|remains|remained|lies|lay|"
                   r"began|begins|led|leads|gave|met|left|came|grew|built|fought|sang|told|"
                   r"bought|sold|kept|brought|saw|found|spent|stood|won|wrote|took|"
                   r"sits|stands|serves|served|wins|plays|played|stars|starred|directed|"
                   r"writes|released|founded|hosted|represents|represented|holds|held|"
                   r"includes|included|consists|consisted|features|featured|takes|"
                   r"possessed|produced|received|made|makes|runs|ran|went|goes|competes)\b")
# A finite verb: an opening phrase that has one is a clause of its own, not an opening.
_FINITE = re.compile(r"\b(?:is|was|are|were|has|had|have|will|would|can|could|does|did)\b")
# "It is believed that ...", "It was not until ...": no entity to name.
_EXPLETIVE = re.compile(r"^It (?:is|was|has been|had been|would be|will be)(?: \w+)? "
                        r"(?:that|believed|said|reported|thought|known|estimated|announced|"
                        r"rumored|rumoured|claimed|noted|not until|unclear|possible|likely)\b")
_DICT_RESIDUE = re.compile(r",?\s*\{'\d+':[^{}]*\}")
_DOUBLED_NAME = re.compile(r"\b([A-Z][\w.'-]+(?: [A-Z][\w.'-]+)+)\1")
_LOST_DASH = re.compile(rf"\b(\d{{4}})(\d{{1,2}} (?:{MONTHS}) \d{{4}})")
_LEADING_NOUN = re.compile(r"^(The|This|These)\s+([a-z]+)\b(?![/-])(?!\s+[A-Z])")
# A verb right after "The <noun>": the noun is the sentence's subject ("The base was named").
_VERB_NEXT = re.compile(r"^(?:['’]s)? (?:is|was|are|were|has|had|have|will|would|can|could|"
                        r"[a-z]+ed|[a-z]+s|saw|won|took|made|became|began|fought|held|left|led|"
                        r"gave|went|came|grew|ran|wrote|sold|lost|met)\b")
# A form of be or have right after "The <noun>": the noun is a part of the entity ("The
# premise is ..."), not an adjective ("The sole species", "The metabolic acidosis").
_BE_NEXT = re.compile(r"^ (?:is|was|are|were|has|had|have)\b")
# Words after "The" that are no part of the entity ("The following is ...", "The two ...").
NOT_PARTS = frozenset("following first second last same other latter former two three four "
                      "main only next final original".split())
# Nouns that, after "The", describe some entity without naming it ("The film stars ...").
DESCRIPTORS = frozenset("""
    film movie documentary band group duo trio team club song single album record series show
    sitcom episode season book novel story company corporation firm retailer manufacturer
    station bridge building tower hall school college university town city village borough
    county district region municipality game magazine newspaper journal church cathedral mall
    conference league tournament event competition organization organisation party aircraft
    ship vessel airport museum channel network label brand product device software program
    programme character singer actor actress author writer player river lake island mountain
    park road highway railway line festival award prize species genus plant opera musical play
    poem painting venue stadium arena hotel restaurant store chain airline franchise name title
    """.split())


# A decimal comma before a magnitude word ("for 5,2 billion francs").
DECIMAL_COMMA = re.compile(r"\b(\d),(\d{1,2}) (?=(?:billion|million|thousand|trillion)\b)")
# A clause with a word missing: a pronoun and adverb straight before a preposition ("it
# typically of wheat"), a bracket closing on a word that needs more ('"C.O.P.S." and the).').
BROKEN_CLAUSE = re.compile(r"\b(?:it|he|she|they) [a-z]+ly (?:of|in|on|at|with)\b"
                           r"|\b(?:and|the|of|or|a|an)\)")
# A word glued to a preposition before an article ("plantsin the mint family").
GLUED_WORD = re.compile(r"\b([a-z]{3,})(in|of|on|at|to) (?=(?:the|a|an)\b)")


def common_word(word: str) -> bool:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return word in ENGLISH_STOP_WORDS


def unglued(sentence: str, text: str) -> str:
    """``sentence`` with a glued word parted where the item's ``text`` uses the parted word (or
    its singular) and never the glued one ("plantsin the" -> "plants in the"; "cousin the" stays)."""
    def part(m: re.Match) -> str:
        glued, head = m.group(1) + m.group(2), m.group(1)
        if len(head) < 4 or common_word(head) or re.search(rf"\b{glued}\b", text.replace(m.group(0), "", 1)) or \
                not re.search(rf"\b{head}\b|\b{head[:-1]}\b" if head.endswith("s")
                              else rf"\b{head}\b", text.replace(m.group(0), "", 1)):
            return m.group(0)
        return f"{head} {m.group(2)} "
    return GLUED_WORD.sub(part, sentence)


def clean(text: str) -> str | None:
    """Dataset residue removed; None where the sentence is broken beyond cleaning."""
    t = _DICT_RESIDUE.sub("", html.unescape(text.strip()))
    t = re.sub(r"</?nowiki>", "", t)
    if re.search(r"\(\d{4}--\)|\(\s*or;|\"\"|“”", t):      # "(born (1963--)08 1963 )", 'sequel ""'
        return None
    t = re.sub(r"[\u200e\u200f]", "", t)                  # invisible direction marks
    # a language label left empty ("(Urdu: ), born", "(Berber:, Arabic: ...)")
    t = re.sub(r"(?<=[(,;] )?\b[A-Z][a-z]+(?: [A-Z][a-z]+)?:\s*(?=[,;)])", "", t)
    t = re.sub(r"\(\s*(?:[\];,]\s*)+", "(", t)             # "( , ] ; born ..." -> "(born ..."
    t = re.sub(r"\s*(?:[;,\]]\s*)+\)", ")", t)           # "...", ] )" -> "...")"
    t = re.sub(r"\s*\(\s*\)", "", t)                      # "()", "( )"
    t = _LOST_DASH.sub(r"\1 – \2", t)                     # "19221 March 2014" -> "1922 – 1 March 2014"
    t = re.sub(rf"(\d{{4}}) (\d{{1,2}} (?:{MONTHS}) \d{{4}}\))", r"\1 – \2", t)   # "1860 19 June 1937)"
    t = re.sub(r"\s*\(\s*(?:(?:or|and|also|locally|pronounced|listen)\b\s*|,\s*)+\)", "", t)
    #                                  "Pieris (or) is", "Newark (or also locally) is", "(pronounced)"
    t = re.sub(rf"\b(\d{{1,2}})({MONTHS})\b", r"\1 \2", t)   # "18January 1826" -> "18 January 1826"
    t = re.sub(r"([?!])\.(?=\s|$)", r"\1", t)              # "Woolf?." -> "Woolf?"
    t = re.sub(r'([!?]) "(?= [a-z(]|[.,;:])', r'\1"', t)      # '"...and More! " album' closes
    t = re.sub(r"\b([a-z]{4,}) s\b(?=[ ,.;])", r"\1s", t)      # "battleship s" -> "battleships"
    t = re.sub(r"\s+([,.;:)])", r"\1", t)
    t = re.sub(r"\(\s+", "(", t)
    t = re.sub(r"\s{2,}", " ", t).strip()
    t = DECIMAL_COMMA.sub(r"\1.\2 ", t)                     # "5,2 billion" -> "5.2 billion"
    t = re.sub(r"\b(?:is|was) (plays|has|does)\b", r"\1", t)     # "who is plays" -> "who plays"
    t = re.sub(r'(" \(\d{4}\))"', r"\1", t)                     # '"Title" (2017)".' -> '(2017).'
    t = repaired_source(t)                  # "a.300", '" The Post"', "1 - tall" (``phrasing``)
    if (not t or _DOUBLED_NAME.search(t) or SOURCE_GRAMMAR.search(t) or BROKEN_CLAUSE.search(t) or re.search(r"[a-z]{3,}\. [a-z]", t)
            or t.count("(") != t.count(")") or t.count("[") != t.count("]")
            or re.match(r"(?:[Ii]s|[Ww]as|[Aa]re|[Ww]ere) [a-z]", t)   # no subject: "() is a city"
            or t.count('"') % 2 or t.count("“") != t.count("”") or t[-1] not in ".!?\"”'"
            or len(t.split()) < 4 or _label_list(t) or t[0] in ".,;:"
            or any(re.search(r"(?:[a-z]{4,}|[IVX]{2,})\. [A-Z]", q)
                   for q in re.findall(r'"([^"]*)"', t))):
        return None                             # a quote across a sentence break: two joined
    return t


def _label_list(text: str) -> bool:
    """An infobox line, not a sentence: no verb, and labels or figures in a row ("Hanggin Rear
    Banner, 1,767 km², 300,000 inhabitants (2004), administrative center: Shanba")."""
    return not (VERB.search(text) or re.search(r"\b[a-z]{3,}ed\b", text)) and bool(
        re.search(r"[:²]|\d[\d,.]*[^,;]*, \d", text))


@dataclass(frozen=True)
class Entity:
    """What a paragraph is about: the name a sentence may use for it, and how it is referred to."""

    name: str | None              # None: the page names no entity (a list, a history)
    person: bool
    gender: str | None            # "he" / "she" for a person whose paragraph says which
    kinds: frozenset[str]         # nouns that describe it ("film", "band")
    article: str = ""             # "the " where the paragraph says "The <name>" mid-sentence
    season: bool = False          # a season page: "the season" is named, "the team" is not
    #: the person a "he"/"she" of a page about no person means: its opening sentence's subject
    #: or the person it credits ("Owner earnings is a valuation method detailed by Warren
    #: Buffett ... He stated ...")
    owner: str | None = None

    def called(self, start: bool, possessive: bool = False) -> str:
        """The name as a sentence writes it: with its article, capitalised at the start."""
        name = self.name or ""
        owned = possessive and not name.endswith(("'s", "’s"))      # "Kellogg's brands"
        out = self.article + name + ("'s" if owned else "")
        return out[:1].upper() + out[1:] if start else out

    def takes(self, pronoun: str) -> bool:
        """Can ``pronoun`` (he/she/it/they, or a possessive) refer to this entity?"""
        p = SUBJECT[pronoun.lower()]
        if p in ("he", "she"):
            return self.person and self.gender in (p, None)
        if p == "it":
            return not self.person
        return not self.person and bool(self.kinds & GROUP_KINDS)

    def described_by(self, noun: str) -> bool:
        return noun in self.kinds or bool(SYNONYMS.get(noun, set()) & self.kinds)


# Page titles that are no name of the thing a sentence speaks of: a list, a discography, a
# person's statistics. The subject they cover is named where the title gives it ("Petra Kvitová
# career statistics" -> Petra Kvitová); a list or a history of something has no name to insert.
_OF_SUBJECT = re.compile(r"^(?P<name>.+?) (?:career statistics|discography|filmography|"
                         r"bibliography|videography|awards and nominations|singles discography)$"
                         r"|^List of (?:songs|works|films|awards)[^,]* by (?P<by>.+)$")
_NAMELESS = re.compile(r"^(?:Lists? of|History of|Timeline of|Index of|Outline of|Glossary of|"
                       r"Comparison of|Demographics of|Economy of|Culture of|Geography of|"
                       r"Filming of|Production of|Development of|Reception of|Making of|"
                       r"Casting of|Music of|Adaptations of)\b|\bin the \d{4}s$", re.I)
# A season page ("2009 Cleveland Browns season"): the season is named, its team is not.
_SEASON = re.compile(r"^\d{4}(?:[–-]\d{2,4})? .+ season$")
# Lower-case words that may sit inside a proper name ("Battle of the Burbia River").
_JOINERS = frozenset("of the and de del della da do dos du la le van von der den y ul al el bin "
                     "ibn di & for on in at to a an".split())


def name_form(title: str, paragraph: str) -> tuple[str, str] | None:
    """(name, article) a sentence may use for the entity of page ``title``, or None where the
    title names no entity ("List of major opera composers", "Strip search phone call scam").

    A title with lower-case words is a common noun ("Sodium-chloride symporter"), named with
    "the" and its first word lowered unless the paragraph capitalises it mid-sentence
    ("the Frigg gas field", "the sodium-chloride symporter"); a season or team page starting
    with its year takes "the" ("the 2012–13 Vermont Catamounts men's basketball team")."""
    short = short_name(html.unescape(title))
    m = _OF_SUBJECT.match(short)
    if m:
        return short_name(m.group("name") or m.group("by")), ""
    if _NAMELESS.search(short):
        return None
    if re.match(r"^\d{4}(?:[–-]\d{2,4})? ", short):
        return short, "the "
    last = short.split()[-1]
    if len(short.split()) > 1 and re.fullmatch(r"[a-z][a-z'-]*", last) and last not in _JOINERS:
        head = short.split()[0]
        if not re.search(rf"(?<=[a-z,;] ){re.escape(head)}\b", paragraph) and not (
                re.match(r"^[A-Z]{2,}|^\d", head) or re.search(r"[A-Z]", head[1:])):
            short = head.lower() + short[len(head):]
        counted = re.match(rf"(?:The|An?) {re.escape(short)}\b", paragraph, re.I)
        return short, "the " if counted else ""
    return short, ""


def short_name(title: str) -> str:
    """A Wikipedia title without its disambiguation: "Kiss and Tell (1945 film)" -> "Kiss and Tell"."""
    return re.sub(r"\s*\([^()]*\)$", "", title).strip() or title


def entity_name(title: str, first: str) -> str:
    """The name the paragraph uses: the title without its disambiguation ("Casino, New South
    Wales" -> "Casino" where the first sentence says "Casino"), else the title's short form."""
    title = html.unescape(title)
    short = short_name(title)
    candidates = [short, short.split(", ")[0], re.split(r" in | of the ", short)[0]]
    found = [c for c in candidates if c and re.search(rf"(?<!\w){re.escape(c)}(?!\w)", first)]
    return max(found, key=len) if found else short


def _kinds(title: str, first: str) -> frozenset[str]:
    """Words that describe the entity: its title's words and the opening sentence up to the
    end of its "is a ..." phrase ("X is a 1945 American film noir", not "... by the band Y")."""
    first = re.sub(r"\s*\([^()]*\)", "", first)
    m = _KIND.search(first)
    region = first[:m.start()] + " " + _KIND_CUT.sub("", m.group(1)) if m else ""
    head = re.search(rf"{re.escape(entity_name(title, first))} ([a-z]+)", first)
    words = re.findall(r"[a-z]+", f"{title} {region} {head.group(1) if head else ''}".lower())
    return frozenset(words + [w[:-1] for w in words if w.endswith("s")])


def _balanced(text: str) -> bool:
    return (text.count("(") == text.count(")") and text.count('"') % 2 == 0
            and text.count("“") == text.count("”"))


def _short_exclamation(text: str) -> bool:
    """"Hey Pa!": a title's first words that HotpotQA split off as a sentence of their own."""
    return text.endswith(("!", "?")) and len(text.split()) <= 3


def sentence_groups(sentences: tuple[str, ...]) -> list[str]:
    """Each sentence with the ones HotpotQA split off it: a quote, bracket or citation cut in
    two ("... (9th Cir." + "2002), was ..."), or a title cut after its "!" ("Hey Pa!" +
    "There's a Goat on the Roof was ..."), is one sentence again (each index maps to it)."""
    out: list[str] = []
    i = 0
    while i < len(sentences):
        j, text = i, sentences[i].strip()
        while ((not _balanced(text) or _short_exclamation(text)
                or re.match(r"\s*[(a-z]", sentences[j + 1] if j + 1 < len(sentences) else "A"))
               and j + 1 < len(sentences)):
            j += 1
            text = f"{text} {sentences[j].strip()}"
        if not _balanced(text):                      # nothing closes it: left as it was
            j, text = i, sentences[i].strip()
        out.extend([text] * (j - i + 1))
        i = j + 1
    return out


def _name_like(title: str) -> bool:
    """Can ``title`` be a person's name: every word capitalised but a name's particles ("Owner
    earnings", whose paragraph goes on "He stated ...", is no person: the "he" is its author)?"""
    return all(w[:1].isupper() or w in _NAME_PARTICLES for w in title.split())


_NAME_PARTICLES = frozenset("van von de da del der di la le du bin ibn al y dos das the of".split())


@functools.lru_cache(maxsize=None)
def paragraph_entity(title: str, sentences: tuple[str, ...]) -> Entity:
    first = sentence_groups(sentences)[0] if sentences else ""
    text = " ".join(sentences)
    he = len(re.findall(r"\b(?:he|his|him)\b", text, re.I))
    she = len(re.findall(r"\b(?:she|her|hers)\b", text, re.I))
    leads = [s.split()[0].lower() for s in sentences[1:] if s.split()]
    form = name_form(title, text)
    name, article = form if form else (None, "")
    if form and not article and not _OF_SUBJECT.match(short_name(html.unescape(title))):
        name = entity_name(title, first)
        # not the start of a longer name: "The Halliburton Company" gives no "the Halliburton"
        article = "the " if re.match(rf"(?:The|A|An) {re.escape(name)}\b(?! [A-Z])", first) else ""
    person = bool(PERSON_NOTE.search(first)) or (
        any(w in ("he", "she", "his", "her") for w in leads)
        and not any(w in ("it", "its") for w in leads) and _name_like(name or short_name(title)))
    gender = None
    if person and he != she:
        gender = "he" if he > she else "she"
    owner = None if person or not any(w in ("he", "she") for w in leads) else _person_in(first)
    return Entity(name, person, gender, _kinds(title, first), article,
                  bool(_SEASON.match(short_name(html.unescape(title)))), owner)


_PERSON_SUBJECT = re.compile(r"^((?:[A-Z][\w'’.-]+ ){1,2}[A-Z][\w'’.-]+) (?:is|was)\b")
_PERSON_CREDITED = re.compile(r"\bby ((?:[A-Z][a-z]+ ){1,2}[A-Z][a-z]+)\b")


def _person_in(first: str) -> str | None:
    """The person a page about no person names in its opening sentence: its subject ("Mike
    Cavan was the coach ...") or whom it credits ("... detailed by Warren Buffett in 1986")."""
    m = _PERSON_SUBJECT.match(first) or _PERSON_CREDITED.search(first)
    return m.group(1) if m else None


def entity_of(item: HotpotItem, title: str) -> Entity:
    return paragraph_entity(title, tuple(s.strip() for s in dict(item.context)[title]))


def _name_for(entity: Entity, word: str, start: bool) -> str:
    return entity.called(start, word.lower() in POSSESSIVE)


def _subject(rest: str, entity: Entity, after_intro: bool) -> str | None:
    """``rest`` with a leading pronoun or bare description made to name ``entity``; ``rest`` as
    it was where it opens otherwise; None where it points elsewhere."""
    first = rest.split(" ", 1)[0].rstrip(",")
    start = not after_intro
    if first.lower() in SUBJECT and (first[0].isupper() or after_intro):
        if entity.owner and SUBJECT[first.lower()] in ("he", "she") and first.lower() not in POSSESSIVE:
            return entity.owner + rest[len(first):]
        if (not entity.takes(first) or entity.name is None or entity.season
                or _EXPLETIVE.match(rest[0].upper() + rest[1:])):
            return None
        return _name_for(entity, first, start) + rest[len(first):]
    d = _LEADING_NOUN.match(rest[0].upper() + rest[1:]) if rest else None
    bare = d and (d.group(1) != "The" or d.group(2) in DESCRIPTORS
                  or _VERB_NEXT.match(rest[d.end():]))
    if not bare:
        return rest
    if entity.name is None or (entity.season and d.group(2) != "season"):
        return None
    named = entity.name.lower().split()
    noun = d.group(2)
    if entity.described_by(noun) and (noun in DESCRIPTORS or named[-1].startswith(noun)
                                      or noun not in named):
        after = rest[d.end():]
        if entity.name.split()[-1][:1].islower() and noun not in named and noun != "season":
            after = f" {noun}{after}"        # "The team" -> "the Vermont ... men's soccer team"
        elif after.startswith("'s"):
            return entity.called(start, True) + after[2:]
        return entity.called(start) + after
    if (d.group(1) == "The" and d.group(2) not in DESCRIPTORS | NOT_PARTS
            and _BE_NEXT.match(rest[d.end():])):
        # "The premise is ..." of a film: the premise of that film
        return f"{rest[:d.end()]} of {entity.called(False)}{rest[d.end():]}"
    return None                                  # "This was ...", "The film" of another entity


def resolve(text: str, entity: Entity) -> str | None:
    """``text`` with its subject naming ``entity`` where it was a pronoun or a bare description
    of it (at the start, or after an opening phrase with no verb of its own: "After his NBA
    career, he served ..."); None where the subject points elsewhere or cannot be named."""
    if entity.name and text.startswith(entity.called(True)):
        return _intro_pronoun(text, entity)
    text = _DISCOURSE.sub(lambda m: "", text, count=1)
    text = text[:1].upper() + text[1:]
    out = _subject(text, entity, False)
    m = _INTRO.match(text)
    if out == text and m and not _FINITE.search(m.group(1)):
        rest = _subject(text[m.end():], entity, True)
        out = None if rest is None else m.group(1) + rest
    if out is None:
        return None
    if re.match(r"^(?:is|was|are|were)\b", out):          # "() is a city" lost its subject
        if entity.name is None:
            return None
        out = f"{entity.called(True)} {out}"
    if out != text:                  # "It is also ..." once named: "also" points to a line not shown
        out = re.sub(r"\b(is|was|are|were|has|have|had) also (?!known|called|referred|spelled)",
                     r"\1 ", out, count=1)
    out = _intro_pronoun(out, entity)
    if out is None or leaning_pronoun(out):
        return None
    if (re.match(r"^(?:He|She|It|They|His|Her|Its|Their|This|These|Those|Other|Another|Such|"
                 r"Both|The (?:two|three|four|latter|former|same|other)|Each)\b", out)
            and not (entity.name and out.startswith(entity.called(True)))) or out[0].islower():
        return None                                  # or a fragment ("theme song for ...")
    return out


# An opening adverb that points back to a sentence not shown ("Later he resigned", "Since then
# the band has ..."): left out, so the sentence opens on its subject.
_DISCOURSE = re.compile(r"^(?:Later|Since then|Subsequently|Eventually|Afterwards|Afterward|"
                        r"However|In addition|Additionally|Also|Meanwhile|Then|Thereafter|"
                        r"Furthermore|Moreover|Nevertheless|Currently|Today|Thus|Consequently|"
                        r"As a result|In turn|Soon after|Shortly after|Shortly thereafter),? "
                        r"(?=(?:he|she|it|they|his|her|its|their|the [a-z]+|[A-Z])\b)")
_PRONOUN = r"(?:he|she|him|his|her|hers|they|them|their|it|its)"


def leaning_pronoun(text: str) -> bool:
    """A personal pronoun in the sentence's opening, before it names anyone: its referent is a
    sentence that is not shown ("Later he ...", "For his role in X, Franco ...", "Following
    his graduation he ...")."""
    m = re.match(r"^([^,;]*?),", text)
    opening = m.group(1) if m and not _FINITE.search(m.group(1)) else ""
    words = text.split()
    for span in (opening, " ".join(words[:3])):
        p = next((p for p in re.finditer(rf"\b{_PRONOUN}\b", span, re.I)   # not "His Band"
                  if not (p.group(0)[0].isupper() and re.match(r" [A-Z]", span[p.end():]))), None)
        if p and not _named(span[:p.start()]) and not _EXPLETIVE.match(
                span[p.start():][:1].upper() + span[p.start() + 1:] + text[len(span):]):
            return True
    return False


def _named(text: str) -> bool:
    """Does ``text`` name someone (a capitalised word that is no opening word)?"""
    for i, w in enumerate(text.split()):
        if w[:1].isupper() or w[:1].isdigit():
            if i or not (w.lower() in _OPENERS or re.search(r"(?:ing|ly|ed)$", w)):
                return True
    return False


# Capitalised words that open a sentence without naming anything.
_OPENERS = frozenset("""a an the in on at for after before during from since by until following
    throughout upon over under within like unlike along despite as with without while when once
    although though because some many most all both each every this these those there later
    then also however instead sometimes often usually generally originally initially""".split())


def _intro_pronoun(text: str, entity: Entity) -> str | None:
    """"In his first season, Smith ..." -> "In Smith's first season, he ...": an opening phrase
    whose possessive stands for the subject named after it."""
    if not entity.name:
        return text
    names = [entity.called(False), entity.called(True)]
    if entity.person:
        names.append(entity.name.split()[-1])              # "Franco" for James Franco
    found = [(text.find(f" {n} ", 1), n) for n in names]
    found = [(at, n) for at, n in found if at > 0]
    if not found:
        return text
    at, name = min(found)
    m = re.search(r"\b(his|her|its|their)\b", text[:at])
    if not m or not entity.takes(m.group(1)) or _named(text[:m.start()]):
        return text
    subject = SUBJECT[m.group(1)]
    return (f"{text[:m.start()]}{entity.called(False, True)}{text[m.end():at]} {subject}"
            f"{text[at + 1 + len(name):]}")


def pieces(text: str) -> list[str]:
    """The sentences of ``text``; a piece that opens on a bracket or a lower-case word
    continues the one before ("Why Is There Air?" + "(1965) is Bill Cosby's third album")."""
    out: list[str] = []
    for s in split_sentences(text):
        if out and re.match(r"[(a-z]", s):
            out[-1] = f"{out[-1]} {s}"
        else:
            out.append(s)
    return out


# A series page's title: "Ender's Game (series)".
_SERIES = re.compile(r"^(?P<name>.+) \((?P<kind>series|franchise|saga|trilogy)\)$")


def kindless_series(sentence: str, title: str) -> str | None:
    """The "The <name>" of a series page's sentence that has lost the kind its title gives
    ("The Ender's Game currently consists of ..." on "Ender's Game (series)"), or None."""
    m = _SERIES.match(title)
    if not m or m.group("name").startswith("The "):
        return None
    hit = re.search(rf"\bThe {re.escape(m.group('name'))}(?! (?:{m.group('kind')}|[A-Z]))\b", sentence)
    return hit.group(0) if hit else None


def with_series_kind(sentence: str, title: str) -> str:
    """``sentence`` with the kind its series page's title gives put back after the name ("The
    Ender's Game series currently consists of ...")."""
    found = kindless_series(sentence, title)
    return (sentence.replace(found, f"{found} {_SERIES.match(title).group('kind')}", 1)
            if found else sentence)


# A run of capitalised words: a full name where it has two or three, the last the surname.
_CAPITALS = re.compile(r"(?<![\w'’-])[A-Z][a-z]+(?: (?:[A-Z][a-z]+|[A-Z]\.))*")
# Words that open a capitalised run without being a first name ("New York", "The Beatles").
_NOT_FIRST = frozenset("The A An In On At New North South East West Saint San Los Las Lake Mount "
                       "Port Fort United Royal National American British English Director".split())
# A bare surname as a sentence's subject: at the start, after a lower-case word or a role
# ("Director Harrington"), before its verb ("Shusett was", "White became", "Niven also had").
_ROLES = frozenset("Director Producer Coach".split())
_SUBJECT_VERB = r"(?='s [a-z]| (?:is|was|are|were|had|has|became|also|then|later|\w+ed)\b)"


# Words after which a bare capitalised word is a person in a cast or a credit ("Alongside Butler
# and Lerman", "opposite Lerman", "directed by Harrington").
_WITH_PERSON = frozenset("alongside opposite with starring by".split())


# Words after which a capitalised word is a place, not a person called by surname ("the
# Catholic Church in Ireland is ...": never "in Official Ireland").
_PLACE_BEFORE = frozenset("in of at from to on near across".split())


def _bare_at(sentence: str, surname: str) -> re.Match | None:
    """Where ``sentence`` first uses ``surname`` alone: as a subject (``_SUBJECT_VERB``), or
    named among others with no other capitalised word touching it ("Alongside Butler and
    Lerman, it also stars ...")."""
    for m in re.finditer(rf"\b{re.escape(surname)}\b(?:{_SUBJECT_VERB}|(?! [A-Z])(?!['’]s? [A-Z]))",
                         sentence):
        before = sentence[:m.start()].split()
        last = before[-1] if before else ""
        cast = last.lower() in _WITH_PERSON or (
            last in ("and", "&") and len(before) > 1 and before[-2].lower() in _WITH_PERSON)
        if re.match(_SUBJECT_VERB, sentence[m.end():]) and (
                not before or last in _ROLES or (re.fullmatch(r"[a-z][\w'’-]*[,;]?", last)
                                                 and last not in _PLACE_BEFORE)
                or last.endswith(",")):          # 'Dubbed the "Prince of tenors", Corelli ...'):
            return m
        if cast or (last in ("and", "&") and len(before) > 2
                    and before[-3].lower() in _WITH_PERSON):
            return m
    return None


def surnames(earlier: str) -> dict[str, str]:
    """Surname -> full name for each person the ``earlier`` text (a paragraph's title and the
    sentences before) names in full, where one full name has that surname."""
    found: dict[str, set[str]] = {}
    for m in _CAPITALS.finditer(earlier):
        name = m.group(0).split()
        if 2 <= len(name) <= 3 and name[0] not in _NOT_FIRST and len(name[-1]) > 2:
            found.setdefault(name[-1], set()).add(" ".join(name))
    return {s: names.pop() for s, names in found.items() if len(names) == 1}


def bare_surnames(sentence: str, earlier: str) -> list[tuple[str, str]]:
    """(surname, full name) for each person ``sentence`` calls by the surname alone, before any
    full name ("Shusett was executive producer", "Director Harrington reused ...") where only
    the ``earlier`` text named them in full: a reader shown the sentence alone meets a surname
    never given."""
    return [(surname, full) for surname, full in surnames(earlier).items()
            if full not in sentence and _bare_at(sentence, surname)
            and not re.search(rf"\b{re.escape(surname.lower())}\b", earlier)]   # "school"


def with_full_names(sentence: str, earlier: str) -> str:
    """``sentence`` with a person's bare surname (``bare_surnames``) given in full, once."""
    found = sorted(((_bare_at(sentence, surname), full)
                    for surname, full in bare_surnames(sentence, earlier)),
                   key=lambda x: x[0].start(), reverse=True)   # all found before any is given
    for m, full in found:
        sentence = sentence[:m.start()] + full + sentence[m.end():]
    return sentence


# The one person a work's opening sentence credits ("... recorded by American country music
# artist Alan Jackson."): whom a later "his album" of the work means.
_CREDITED = re.compile(r"\bby (?:(?:[A-Z][a-z]+ )?[a-z][\w-]* ){0,5}?((?:[A-Z][a-z]+ ){1,2}[A-Z][a-z]+)[.,]")


def credited(first: str) -> str | None:
    """The person ``first`` (a paragraph's opening sentence) credits, where it credits one."""
    found = _CREDITED.findall(first)
    return found[0] if len(found) == 1 else None


def with_owner(sentence: str, entity: Entity, first: str) -> str:
    """A work's sentence with "his"/"her" that can only mean the person its paragraph credits
    ("Chattahoochee was released ... from his album" -> "from Alan Jackson's album"): the
    work itself is no person, and the sentence names no one but the work before the pronoun
    ("Small Town Boy was released ... from his third studio album": Dustin Lynch's)."""
    m = re.search(r"\b(?:his|her)\b", sentence)
    owner = credited(first)
    if (not m or entity.person or not owner or owner in sentence
            or re.search(r"[A-Z][a-z]+ [A-Z][a-z]+", sentence[:m.start()].replace(entity.name or "", ""))):
        return sentence
    return sentence[:m.start()] + owner + "'s" + sentence[m.end():]


# A thing a later sentence leans on without naming it: a host with no show ("Ryan Seacrest
# returned to host."), a polity's possessive ("the state's capital"), works that follow
# nothing shown ("Subsequent works, ... included ...").
_UNHOSTED = re.compile(r"\b(returned|continued|came back|went on) to host(?=\.$)")
_POLITY = re.compile(r"\bthe (state|country|kingdom|province)'s\b")
_SUBSEQUENT = re.compile(r"^Subsequent ([a-z]+)\b")


def unnamed_things(sentence: str) -> list[str]:
    """The pieces of ``sentence`` that lean on a thing its paragraph named before."""
    return [m.group(0) for rx in (_UNHOSTED, _POLITY, _SUBSEQUENT) for m in rx.finditer(sentence)]


def with_things_named(sentence: str, entity: Entity, first: str) -> str:
    """``sentence`` with the thing it leans on named from its paragraph's first sentence: the
    show a season page is of ('The twelfth season of "American Idol"'), the polity ("princely
    state of Bharatpur" -> "Bharatpur's capital"), the entity whose works follow."""
    show = re.search(r"\bseason of ([\"“][^\"”]+[\"”])", first)
    if show:
        sentence = _UNHOSTED.sub(rf"\1 to host {show.group(1)}", sentence)
    m = _POLITY.search(sentence)
    polity = m and re.search(rf"\b{m.group(1)} of ([A-Z][\w-]+(?: [A-Z][\w-]+)*)", first)
    if polity:
        sentence = sentence[:m.start()] + polity.group(1) + "'s" + sentence[m.end():]
    if entity.name and not entity.person:
        sentence = _SUBSEQUENT.sub(lambda x: f"{entity.called(True, True)} subsequent {x.group(1)}",
                                   sentence)
    return sentence


# An opening that leans on the sentence before it: "Ian Harland then went to university"
# (then after what?), "In this episode, Bart ruins ..." (which episode?).
_THEN = re.compile(r"^((?:[A-Z][\w.'’-]* ){1,4})then (?=[a-z])")
_IN_THIS = re.compile(r"^In this ([a-z]+), ")


def unleaned(sentence: str, entity: Entity, first: str) -> str:
    """``sentence`` without an opening that leans on the sentence before it: "then" after the
    subject dropped, "In this episode" naming the page's entity, quoted where ``first`` (the
    paragraph's opening) quotes it ('In "Bart the Fink", Bart ruins ...'). A candidate shows
    the sentence without the one before; blind readers stopped at both."""
    sentence = _THEN.sub(r"\1", sentence)
    m = _IN_THIS.match(sentence)
    if m and entity.name and entity.described_by(m.group(1)):
        name = entity.called(False)
        name = f'"{name}"' if f'"{name}"' in first else name
        sentence = f"In {name}, {sentence[m.end():]}"
    return sentence


# A name's short form its opening sentence defines: "Shepardson Microsystems, Inc. (SMI) was".
_DEFINED_SHORT = re.compile(r"^(?:The )?(?P<name>[A-Z][^()]*?)(?:,? (?:Inc|Ltd|Co|Corp)\.?)?,? "
                            r"\((?P<short>[A-Z][A-Z&]{1,7})\)")


def with_short_form_tied(sentence: str, first: str) -> str:
    """``sentence`` opening on the short form its paragraph's opening defines ("SMI is most
    noted for ...") with the name and the short form in brackets, as the opening ties them
    ("Shepardson Microsystems (SMI) is most noted ..."): shown alone, "SMI" was never tied to
    the name the other page uses, and readers stopped at it."""
    m = _DEFINED_SHORT.match(first)
    if m and sentence.startswith(m["short"] + " ") and m["name"] not in sentence:
        return f"{m['name']} ({m['short']}) {sentence[len(m['short']) + 1:]}"
    return sentence


def with_title_quoted(sentence: str, entity: Entity, first: str) -> str:
    """A later sentence opening on a work's title, quoted as its paragraph's opening quotes it
    ('"Power" features additional vocals', not "Power features ..."): readers stopped at a
    title bare at a sentence's start and quoted elsewhere in the same answer."""
    name = entity.name or ""
    if name and first.startswith(f'"{name}"') and re.match(rf"{re.escape(name)}(?=['’ ])", sentence):
        return f'"{name}"{sentence[len(name):]}'
    return sentence


def leans_back(sentence: str) -> bool:
    """Does ``sentence`` open on "then" after its subject or on "In this <noun>," (``unleaned``)?"""
    return bool(_THEN.match(sentence) or _IN_THIS.match(sentence))


def bare_description(sentence: str, entity: Entity) -> re.Match | None:
    """A "the <noun>" inside ``sentence`` that can only mean its paragraph's entity, which the
    sentence never names ("The Ogallala Aquifer was named after the city." on Ogallala's page):
    shown alone, it has no antecedent."""
    if not entity.name or entity.person or entity.season or re.search(
            rf"(?<!\w){re.escape(entity.name)}(?!\w)(?! [A-Z])", sentence):
        return None
    for m in re.finditer(r"(?<=\s)the ([a-z]+)\b(?!['’]s? [A-Z]| (?:of|[A-Z\"“(])|-)", sentence):
        if m.group(1) in DESCRIPTORS and entity.described_by(m.group(1)):
            return m
    return None


def with_description_named(sentence: str, entity: Entity) -> str:
    """``sentence`` with its ``bare_description`` replaced by the entity's name."""
    m = bare_description(sentence, entity)
    return sentence[:m.start()] + entity.called(False) + sentence[m.end():] if m else sentence


def _earlier(item: HotpotItem, title: str, sid: int) -> str:
    """A paragraph's title and its sentences before sentence ``sid``, and the other supporting
    paragraphs: what names its people ("written by Pasek & Paul" where the other hop names Benj
    Pasek; the candidate may show that hop after this sentence)."""
    sentences = tuple(s.strip() for s in dict(item.context)[title])
    others = [f"{h}. " + " ".join(dict(item.context)[h])
              for h in dict.fromkeys(t for t, _ in item.supporting_facts) if h != title]
    return " ".join([f"{re.sub(r' [(].*', '', title)}.", *sentence_groups(sentences)[:sid],
                     *others])


@functools.lru_cache(maxsize=1 << 16)  # every split asks again for the same sentences
def standalone(item: HotpotItem, title: str, sid: int) -> str | None:
    """Sentence ``sid`` of paragraph ``title`` as a line that stands alone, or None. A sentence
    HotpotQA split in two is joined again, and each of its sentences must stand alone."""
    sentences = tuple(s.strip() for s in dict(item.context)[title])
    text = clean(sentence_groups(sentences)[sid])
    if not text:
        return None
    text = unglued(text, " ".join(s for _, sents in item.context for s in sents))
    entity = entity_of(item, title)
    out = [resolve(s, entity) for s in pieces(text)]
    if None in out:
        return None
    out = with_full_names(" ".join(out), _earlier(item, title, sid))     # type: ignore[arg-type]
    if sid:
        first = sentence_groups(sentences)[0]
        out = with_things_named(with_owner(with_description_named(with_title_quoted(
            with_short_form_tied(unleaned(out, entity, first), first), entity, first), entity),
            entity, first), entity, first)
    return with_series_kind(out, title)
