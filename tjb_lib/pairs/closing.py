"""How a HotpotQA reasoning closes: its question turned into a statement of the answer.

Blind readers stopped at closings drawn from a list of stock connectives ("which leaves Oregon
Ducks football", "; Marsilea follows.", "this identifies 48,982"): the answer alone after a
phrase that says nothing of the question. The last step here is joined to the deciding relation
in the question's own words, worded by the question's form ("..., so Bedknobs and Broomsticks
is older"; "..., so no, Buried Country and South of the Border are not both films turned into
stage performances"; "..., so the river is Richmond"). A question no form fits closes on "so
the answer is X". The closing depends on the question, the answer and the hops it must not
name (those one side of a pair leaves out), so both sides of a pair close alike, and a
conflict's wrong side closes on its own answer in the same words.
"""
from __future__ import annotations

import re

from tjb_lib.pairs import capitals
from tjb_lib.pairs.phrasing import DOUBLED_VERB, KIND_NOUN, echoed_noun, respelt
from tjb_lib.pairs.reasoning import unstopped
from tjb_lib.pairs.slips import GLUED
from tjb_lib.text import MONTHS

# Auxiliaries that open a yes/no question, and their negation.
_NOT = {"are": "are not", "were": "were not", "is": "is not", "was": "was not", "do": "do not",
        "does": "does not", "did": "did not", "can": "cannot", "could": "could not",
        "have": "have not", "has": "has not"}
# Small words inside a name ("South of the Border", "Battle of the Ch'ongch'on River").
_IN_NAME = frozenset("of the de la le y von van del da and & a an".split())
# Verbs that follow the subject of "who/which ... ?" (the question asks for its subject).
_AUX = r"(?:is|was|are|were|has|have|had)"
_VERB = (rf"(?:{_AUX}|came|died|lived|won|wrote|began|grew|ran|held|made|became|"
         r"[a-z]+ed)")
# A word of the noun a "which/what" question names (not "type of", "year", a verb or a clause).
_NOUN_WORD = (r"(?!(?:who|that|which|whose|whom|type|kind|sort|year|is|was|are|were|has|had|"
              r"did|does|do)\b)[\w-]+")
_MAX_WORDS = 16


def _clean(question: str) -> str:
    return re.sub(r"\s+", " ", question).strip().rstrip("?").strip()


def _fits(answer: str) -> bool:
    """An answer that can stand as a noun phrase in a sentence (not "The Leonberger is a giant
    dog breed.", not "located in Olathe, Kansas")."""
    return (bool(answer) and len(answer.split()) <= 8 and not answer.endswith(".")
            and not re.match(r"(?:located|in|on|at|by|from)\b", answer)
            and not re.search(r"\b(?:is|are|was|were|could|would|will|can)\b", answer))


def yes_no(question: str, answer: str) -> str | None:
    """"Are X and Y both P?" -> "no, X and Y are not both P"; None if the question has no such
    form. Never "they": where one side of a pair drops a hop, "so yes, they are both described
    as a genus" named nothing for "they" to mean (blind readers of 7 December)."""
    m = re.match(rf"^({'|'.join(_NOT)}) (both )?(.+)$", _clean(question), re.I)
    if not m:
        return None
    aux, both, rest = m.group(1).lower(), bool(m.group(2)), m.group(3).replace(", and ", " and ")
    words = rest.split(" ")
    if "and" not in words:
        return None
    at = next((i for i in range(words.index("and") + 1, len(words))
               if words[i] == "both"
               or re.match(r"(?:(?:of|in|from) )?the same\b", " ".join(words[i:i + 3]))
               or (words[i][:1].islower() and words[i] not in _IN_NAME)), None)
    if at is None:
        return None
    subject, predicate = " ".join(words[:at]), words[at:]
    if predicate[0] == "both":
        both, predicate = True, predicate[1:]
    if not predicate:
        return None
    pred = " ".join(predicate)
    reply = answer.lower()
    # a "no" denies the pair, not each: "no, they were not both from the U.S."
    both = (both or reply == "no") and not re.search(r"\b(?:same|different)\b", pred)
    if aux in ("do", "does", "did") and reply == "yes":
        return f"{reply}, {subject}{' both' if both else ''} {pred}"
    verb = aux if reply == "yes" else _NOT[aux]
    return f"{reply}, {subject} {verb}{' both' if both else ''} {pred}"


def _claim(rest: str) -> str | None:
    """What a "who/which ...?" question says of its answer, the compared options cut off."""
    if " or " in rest:
        sep = re.search(r",|:|--", rest)
        if sep and sep.start() < rest.index(" or "):
            rest = rest[:sep.start()]
        else:
            name = re.search(r" [\"“]?[A-Z0-9]", rest)
            if not name or name.start() > rest.index(" or "):
                return None
            rest = rest[:name.start()]
    rest = rest.strip(" ,:-")
    if re.search(r"\b[a-z]+ing\b[^,]* and (?:features|stars|includes|has|is|was)\b", rest):
        return None                      # "the film starring Rose McGowan and features ..."
    if (not rest or len(rest.split()) > _MAX_WORDS or _echoing(rest)
            or re.search(r"\b(?:he|she|they|it|in|on|at|for|from|to|with|by|of|be)$", rest)):
        return None
    return rest


# The longest description a closing repeats from its question: blind readers stopped at "so
# the capacity of the Stadium, other than Kauffman Stadium, designed by Charles Deaton is
# 76,416" and "so Jack Ryan created by Tom Clancy was turned into a film in 2002", the
# question read back instead of the fact it asks for.
ECHO_WORDS = 10


def _echoing(claim: str) -> bool:
    """Does ``claim`` read the question back: a description with a comma or a relative clause
    inside, longer than ``ECHO_WORDS``, or one that opens on a participle before its verb
    ("created by Tom Clancy was turned into ...")?"""
    return ("," in re.sub(r'"[^"]*"|“[^”]*”', "", claim) or len(claim.split()) > ECHO_WORDS
            or bool(re.search(r" (?:who|that|which|whose) ", claim) and len(claim.split()) > 6)
            or bool(re.match(r"[a-z]+ed (?:by|in|on|at|for|from) .*\b(?:is|was|are|were)\b", claim)))


def subject_question(question: str, answer: str) -> str | None:
    """"Who was born first, A or B?" -> "A was born first"; "Which band is from England, A or
    B?" -> "B is from England"; "Who directed X?" -> "Y directed X": the question asks for the
    subject of its verb, and the answer takes its place. A "what <noun>" question qualifies only
    with a verb that cannot be read the other way round ("What nationality were X" asks for a
    complement, "What Cayman Islands registered ..." has no verb there)."""
    q = _clean(question)
    m = re.match(rf"^(?:Who|Which(?: {_NOUN_WORD}){{0,5}}?|What((?: {_NOUN_WORD}){{1,5}}?)) "
                 rf"({_VERB}\b.*)$", q, re.I)
    if not m or re.search(r"(?<!who )(?<!that )(?<!which )\b(?:did|does|do)\b", m.group(2)):
        return None                      # "What competition held in X did Y compete in?"
    if q.startswith("What") and (
            m.group(1).split()[-1][:1].isupper()
            or re.match(r"(?:is|was|are|were) (?![a-z]+ed\b|located|opposite|near|in|on|at)",
                        m.group(2))
            or not re.match(r"[A-Z0-9\"“]", answer)):
        return None
    rest = _claim(m.group(2))
    if rest and _STRANDED.search(rest.split(",")[0]):
        return None                      # "Who is X an expert on, ...?" asks for the object
    return f"{answer} {rest}" if rest and _fits(answer) else None


# A clause that ends on its preposition: the question asks for that preposition's object, not
# for the verb's subject ("Who is Bruce Spizer an expert on" -> no "The Beatles is Bruce
# Spizer an expert on").
_STRANDED = re.compile(r"\b(?:on|in|at|for|from|to|with|by|of|about|into)$")


def what_is(question: str, answer: str) -> str | None:
    """"What is the middle name of the actress ...?" -> "the middle name of the actress ... is
    Ann"."""
    m = re.match(r"^What (is|was|are|were) (the [a-z].*)$", _clean(question))
    rest = _claim(m.group(2)) if m and " or " not in m.group(2) else None
    if not rest or re.search(r"\bto be\b", rest) or not _fits(answer):
        return None
    return f"{rest} {m.group(1)} {answer}"


# "Where is X located?"
_WHERE = re.compile(r"^Where (is|was|are|were) (.+?)(?: (located|based|headquartered|born|raised|"
                    r"buried|set|shot|found|situated))?$", re.I)


def where(question: str, answer: str) -> str | None:
    """"Where is the company ... headquartered?" -> "the company ... is headquartered in
    Mumbai"; a birth or an upbringing in the past ("Where is the singer of "B Boy" raised?" ->
    "... was raised in Philadelphia": readers stopped at "is raised")."""
    m = _WHERE.match(_clean(question))
    if (not m or not _fits(answer) or " or " in m.group(2) or _echoing(m.group(2))
            or re.search(r"\b(?:[a-z]+ed|born|shot|set|found)\b", m.group(2))):
        return None                      # "Where was the telefilm shot that ...?"
    verb = f" {m.group(3)}" if m.group(3) else ""
    be = m.group(1).lower()
    if m.group(3) in ("born", "raised"):       # "Where is the singer raised?": "... was raised in"
        be = {"is": "was", "are": "were"}.get(be, be)
    return f"{m.group(2)} {be}{verb} in {answer}"


# "When was X born?", "In what year was X founded?": the answer is the time of X's event.
_WHEN = re.compile(r"^(?:When|(?:In )?(?:what|which) year) (was|were) (.+) (born|[a-z]+ed|built|"
                   r"held|begun|shot|written|made|won|founded)$", re.I)


# A population figure given with its census ("8,211 at the 2010 census").
CENSUS_FIGURE = re.compile(r"[\d,.]+(?: million)? (?:at|in) the \d{4} census")


def census(answer: str) -> str | None:
    """"the population was 8,211 at the 2010 census": readers stopped at "so the answer is
    8,211 at the 2010 census", a figure whose census tail names no population."""
    return f"the population was {answer}" if CENSUS_FIGURE.fullmatch(answer) else None


def when(question: str, answer: str) -> str | None:
    """"When was X born?" -> "X was born on 7 October 1978" (in a year, on a day)."""
    m = _WHEN.match(_clean(question))
    if not m or not _fits(answer) or not re.search(r"\d", answer) or " or " in m.group(2):
        return None
    on = "on" if re.search(r"\b\d{1,2}\b", answer) and re.search(MONTHS, answer) else "in"
    subject = m.group(2)
    if _echoing(subject) or DOUBLED_VERB.search(subject):
        return None                      # "the novel that X based "Nina" on based first"
    return f"{subject} {m.group(1).lower()} {m.group(3)} {on} {answer}"


# What may follow the noun a "which/what" question names: a verb, a preposition, a clause.
_AFTER_NOUN = (r"(?:\s+(?:is|was|are|were|did|does|do|has|had|can|could|will|would|in|of|on|at|"
               r"from|near|that|who|whose|which|where|when|for|during|since|besides|after|"
               r"before|by|to|with|as)\b|\s*[?,]|\s*$)")


def sought_noun(question: str) -> str | None:
    """What a "which/what <noun>" question asks for ("which former mill town" -> "former mill
    town"; "what type of film" -> "type of film"), or None. "Other" is dropped ("which other
    device" -> "device"): readers stopped at "so the other device is ...", other than a thing
    the reasoning never named as one."""
    kind = re.search(r"(?:^(?:Which|What)|\b(?:which|what)) ((?:type|kind|sort|genre|form) of "
                     r"[a-z]+)\b", question)
    if kind:
        return kind.group(1).lower()
    named = re.match(r"What(?:'s| is| was) the name of (?:the|this|a|an) ((?:[\w-]+ ){0,3}?[\w-]+)"
                     rf"{_AFTER_NOUN}", question)
    if named:                            # "What is the name of the fanzine that ..." -> "fanzine"
        return named.group(1)
    m = re.search(r"(?:^(?:Which|What)|\b(?:which|what))\s+((?:[\w-]+ ){0,3}?[\w-]+)"
                  rf"{_AFTER_NOUN}", question)
    noun = m.group(1) if m else None
    if noun and " " in noun and m.group(0).endswith(" by"):
        noun = noun.rsplit(" ", 1)[0]    # "Argentine telenovela broadcast by": a participle
    if noun:
        noun = before_verb(noun)
    if noun is None or noun.split()[0].lower() in (
            "is", "was", "are", "were", "did", "does", "do", "has", "had", "kind", "type",
            "one", "of", "the", "a", "an", "in", "on", "at", "by", "for", "to", "with",
            "from"):
        return None
    name = all(w[:1].isupper() for w in noun.split())
    if (re.search(r"\b(?:the|held|and|or)\b|ed$", noun) or re.match(r"how (?:many|much)\b", question,
                                                            re.I)
            or (name and re.search(r" (?:of|in|on|at|from|near|for)$", m.group(0)))
            or (noun.split()[-1][:1].isupper() and m.group(0).endswith(" of"))):
        return None                      # "what produces the hormone", "what Hall of Fame"
    return re.sub(r"^other ", "", noun)  # "so the other device is ...": other than none named


def before_verb(noun: str) -> str:
    """``noun`` up to the question's verb and its object ("songwriting duo composed music" ->
    "songwriting duo", "Eminem album included vocals" -> "Eminem album"): readers stopped at "so
    the songwriting duo composed music is Pasek & Paul". A past form after a name's word is
    no verb ("Cayman Islands registered company")."""
    words = noun.split()
    for i in range(1, len(words) - 1):
        if words[i].endswith("ed") and words[i - 1].islower():
            return " ".join(words[:i])
    return noun


# A span of years or dates given with "until" ("1969 until 1974"): "from" opens it.
UNTIL_SPAN = re.compile(rf"(?:(?:{MONTHS}) )?(?:\d{{1,2}},? )?\d{{4}} until ")


def _noun_is(noun: str, answer: str) -> str | None:
    """"the river is Richmond", "the years are 1963 to 1991"; None where the answer repeats
    the noun ("the family is Mountbatten family")."""
    head = noun.split()[-1].lower()
    if (not _fits(answer) or answer.lower().startswith(noun.lower())
            or re.search(rf"\b{re.escape(head)}\b", answer)
            or re.fullmatch(rf"(?:{MONTHS}|\d+) and (?:{MONTHS}|\d+)", answer)):
        return None                      # not "the month is March and April"
    plural = " of " not in noun and re.search(r"(?<![su])s$", head) and head not in (
        "series", "species", "news")
    if UNTIL_SPAN.match(answer):        # "the years are from 1969 until 1974"
        answer = f"from {answer}"
    return f"the {noun} {'are' if plural else 'is'} {answer}"


def named_with_noun(noun: str, answer: str, text: str) -> str | None:
    """The answer's full name where ``text`` (the item's) names it with the sought noun as part
    of it ("the Richmond River" for "Richmond" and "river"): blind readers of 7 December stopped
    at "so the river is Richmond" (and "the river is the Richmond River" echoes the noun:
    ``phrasing.echoed_noun``); None where it does not."""
    head = noun.split()[-1]
    m = re.search(rf"\b(?:(the|The) )?{re.escape(answer)} {re.escape(head.capitalize())}\b", text) \
        if re.fullmatch(r"[a-z]+", head) and answer[:1].isupper() else None
    return f"{'the ' if m.group(1) else ''}{answer} {head.capitalize()}" if m else None


# A thing that a "what type of ..." answer names one of ("documentary", "video game").
_COUNTED = frozenset("film movie documentary game periodical magazine newspaper novel book band "
                     "group company series show program programme song album genus plant tree "
                     "shrub dog breed bird fish vehicle aircraft car ship".split())


def with_article(noun: str, answer: str, text: str = "") -> str:
    """A kind answer to "what type of ..." with its article, the one ``text`` (the item's
    paragraphs) gives it ("the type of magazine is an evangelical Christian periodical") or,
    for a thing counted, by its first sound ("the type of movie is a South Korean horror
    film"): blind readers stopped where it had none. A name, a plural or an uncounted kind
    ("rock") as it is."""
    words = answer.split()
    if (not KIND_NOUN.match(noun) or not words or not words[-1].islower()
            or re.match(r"(?:an?|the)\b", answer, re.I)):
        return answer
    given = re.search(rf"\b(an?) {re.escape(answer)}\b", text, re.I) if text else None
    if given:
        return f"{given.group(1).lower()} {answer}"
    if words[-1] in _COUNTED:
        return f"{'an' if answer[0].lower() in 'aeiou' else 'a'} {answer}"
    return answer


KIND_CLAIM = re.compile(rf"the (?P<noun>{KIND_NOUN.pattern} [a-z ]+?) (?:is|was|are|were) "
                        r"(?P<answer>[^.]+?)\.?")


def kind_without_article(claim: str, text: str = "") -> bool:
    """A claim that gives a kind without the article ``with_article`` would give it ("the type
    of movie is South Korean horror film"; "so the type of magazine is evangelical Christian
    periodical" where ``text`` says "an evangelical Christian periodical"): the one reader rule
    for closings and generic conclusions alike."""
    kind = KIND_CLAIM.fullmatch(claim)
    return bool(kind) and with_article(kind["noun"], kind["answer"], text) != kind["answer"]


# A claim that ends on a name with a capital ("the answer is French Open").
_NAMED_CLAIM = re.compile(r" (?:is|are|was|were|in) (?P<name>(?!The )[A-Z][^.\"“]*)$")


def article_dropped(claim: str, text: str) -> bool:
    """A claim that ends on a name without the article ``text`` (the item's paragraphs) always
    gives it ("the answer is French Open" where every use says "the 1974 French Open"; "are
    located in Canary Islands, Spain"): blind
    readers stopped at it; ``articled`` writes it."""
    m = _NAMED_CLAIM.search(claim)
    return bool(m) and articled(m.group("name"), text) != m.group("name")


# An answer that is a kind, not a name ("a pinball machine", "a minor basilica").
KIND_ANSWER = re.compile(r"^an? [a-z]")


def kind_of(question: str, answer: str, text: str) -> str | None:
    """Where the answer is a kind, the thing it is the kind of, named as the sentence of
    ``text`` that gives the kind names it: "the arcade game is Frank Thomas' Big Hurt, a pinball
    machine"; "the Florence Baptistery has the status of a minor basilica". Blind readers
    stopped at "so the answer is a pinball machine", which names no game."""
    if not KIND_ANSWER.match(answer):
        return None
    for sent in re.split(r"(?<=[.!?])\s+|\n", text):
        m = re.match(rf"((?:The )?[A-Z][\w'’.&-]*(?: [\w'’.&-]+){{0,6}}?)(?: \([^()]*\))?(?:, also known as [^,]+,)? (is|was) "
                     rf"(?:[^.;]*?, and (has|had) ([a-z ]+? ))?{re.escape(answer)}\b", sent)
        if not m:
            continue
        name = m.group(1)
        if m.group(3):
            return f"{name} {m.group(3)} {m.group(4)}{answer}"
        noun = sought_noun(question)
        return f"the {noun} is {name}, {answer}" if noun else f"{name} {m.group(2)} {answer}"
    return None


def statement(question: str, answer: str, avoid: tuple[str, ...] = (), text: str = "") -> str:
    """The claim the reasoning closes on: the answer in the question's words (no stop), in the
    first form that fits and names none of ``avoid`` (a hop one side of the pair drops: its
    name would refer to evidence that side does not show; inside a longer name, "Frank
    Thomas' Big Hurt", it refers to none). A question with a word glued to the
    next (``slips.GLUED``) is not echoed; a noun the answer does not fit (``phrasing.echoed_noun``:
    "the sport is paracyclist") gives way to the next form, and a question's misspelt word is
    respelt ("the monach" -> "the monarch"). ``text``: the item's paragraphs."""
    answer = POST_NOMINALS.sub("", answer)
    if GLUED.search(question):            # "formed in2014", "thanKing Horse": never echoed
        forms = []
    elif answer.lower() in ("yes", "no"):
        forms = [yes_no(question, answer)]
    else:
        noun = sought_noun(question)
        forms = [census(answer), kind_of(question, answer, text),
                 subject_question(question, articled(answer, text)),
                 what_is(question, answer),
                 when(question, answer), where(question, articled(answer, text)),
                 f"the answer is {named_with_noun(noun, answer, text)}"
                 if noun and named_with_noun(noun, answer, text) else None,
                 _noun_is(noun, with_article(noun, articled(answer, text), text))
                 if noun and not echoed_noun(noun, answer, text) else None]
    for said in map(respelt, filter(None, forms)):
        if said and not any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)(?!['’]s? (?-i:[A-Z]))", said, re.I)
                            and n.lower() not in answer.lower() for n in avoid):
            return said
    return f"the answer is {articled(common_cased(answer, text), text)}"


# Letters after a name for an honour or a degree ("Robert Erskine Childers DSC"): the answer
# line gives the name as the item does, the closing's claim without them (blind readers of 7
# December: "so Robert Erskine Childers DSC was from England").
POST_NOMINALS = re.compile(r"(?:,? (?:DSC|DSO|OBE|CBE|MBE|KBE|GBE|DBE|QC|KC|FRS|KCB|GCB|DFC|AFC))+"
                           r"(?=$|[ .,;])")


def common_cased(answer: str, text: str) -> str:
    """A common phrase given as the answer, lowered mid-sentence ("the answer is anabolic
    steroids", not "Anabolic steroids"; "the answer is conscription", not "Conscription"): its
    first word common in ``text`` (the item's paragraphs, ``capitals``) and every later word in
    lower case; a title ("My Bloody Valentine 3D") or a name as it is."""
    rest = answer.split()[1:]
    if not text or not answer[:1].isupper() or not all(w.islower() for w in rest):
        return answer
    return capitals.lowered(answer, text)


def articled(answer: str, text: str) -> str:
    """A name with the article ``text`` (the item's paragraphs) always gives it ("the New York
    Giants", "the Argand lamp"): blind readers stopped at "so the team is New York Giants".
    Only the name's own uses count (``whole_name_uses``), not a longer name or a modifier it
    opens ("the Marvel Comics character", "the Las Vegas Strip": readers stopped at "so the
    answer is the Marvel"; "a British social anthropologist": "so the nationality is the British").
    An answer that opens on "The" keeps its capital only where ``text`` writes it so
    mid-sentence ("educated at The Dragon School"; "so the road is the A41", not "The A41").
    A quoted title before its kind takes "the" (``QUOTED_KIND``); so does a common phrase the
    text only writes with it ("the keyboard function keys")."""
    if QUOTED_KIND.fullmatch(answer):
        return f"the {answer}"
    if not text or not re.match(r"[A-Z]", answer) and " " not in answer:
        return answer
    if answer.startswith("The "):
        return lowered_the(answer, text)
    if re.match(r"(?:A|An) ", answer):
        return answer
    uses = whole_name_uses(answer, text)
    return f"the {answer}" if uses and all(uses) else answer


# A quoted title and the common noun it names ('"Teach the Controversy" campaign'): a noun
# phrase that needs "the" ("so the answer is "Teach the Controversy" campaign" stopped readers);
# not a title that opens on its own "The" ('"The Ring" magazine').
QUOTED_KIND = re.compile(r'["“](?!The )[^"”]+["”] [a-z]+')


def whole_name_uses(name: str, text: str) -> list[str]:
    """For each time ``text`` writes ``name`` as a whole noun phrase (not followed by another
    name's word or by a noun it modifies: only a stop, a function word or a verb of being may
    follow), the article before it ("the" / "The"; "the 1974 French Open" counts as "the"), or
    "" where it has none; a use in brackets ("Tenerife (Canary Islands, Spain)") or after a bare
    year (the title "2011 French Open – Women's Singles") or after a capitalised word (the end of
    a longer name, "the Second Battle of Guam") is no use, nor is a paragraph title on
    a line of its own ("1999 Odisha cyclone": readers stopped at "so the answer is 1999 Odisha
    cyclone")."""
    uses = []
    for m in re.finditer(rf"(?:\b(the|The) (?:\d{{4}} )?|(?<!\d ))(?<![\w'’&(-]){re.escape(name)}(?![\w'’&-])"
                         r"(?: ([A-Za-z0-9]\S*))?", text):
        after = m.group(2)
        if text[m.start() - 1:m.start()] in ("\n", "") and re.match(r" \([^()\n]*\)$|$",
                                                                  text[m.end():].split("\n", 1)[0]):
            continue                                     # a title's own line, "Battle of Guam (1944)"
        if not m.group(1) and re.search(r"(?<![.!?\n] )(?<!^)\b[A-Z][a-z]+ $", text[max(m.start() - 30, 0):m.start()]):
            continue                          # a longer name's end: "the Second Battle of Guam"
        if after is None or after.lower().strip(",.;:)") in capitals.function_words():
            uses.append(m.group(1) or "")
    return uses


def lowered_the(answer: str, text: str) -> str:
    """``answer`` ("The A41") with "the" in lower case where ``text`` writes it so inside a
    sentence and never with the capital there."""
    rest = re.escape(answer[4:])
    capital = re.search(rf"[^.!?\"“(:\s] The {rest}(?![\w'’-])", text)
    lower = re.search(rf"\bthe {rest}(?![\w'’-])", text)
    return "the" + answer[3:] if lower and not capital else answer


def qualified(answer: str, text: str) -> str:
    """A figure with the bound ``text`` gives it ("more than 250 million" where the paragraph
    says Dahl's books "sold more than 250 million copies"): readers stopped at a conclusion
    that dropped it."""
    m = re.search(rf"\b(more than|over|nearly|almost|about|at least|around|up to) "
                  rf"{re.escape(answer)}(?![\d.,]\d)", text) if answer[:1].isdigit() else None
    return f"{m.group(1)} {answer}" if m else answer


def close(step: str, question: str, answer: str, avoid: tuple[str, ...] = (), text: str = "") -> str:
    """The last step with the claim it decides joined on, as one sentence."""
    said = statement(question, qualified(answer, text), avoid, text)
    return re.sub(r"([.!?])\.$", r"\1", f"{unstopped(step)}, so {said}.")
