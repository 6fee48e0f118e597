"""Words and sentences of English text, one way for every module that reads candidates."""
from __future__ import annotations

import re
import unicodedata

WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
#: the month names as one alternation (English dates in HotpotQA and FinQA text)
MONTHS = ("January|February|March|April|May|June|July|August|September|October|November|"
          "December")
#: a year from 1000 to 2099 as a whole word
YEAR = re.compile(r"\b(1[0-9]\d\d|20\d\d)\b")
# A stop, then space, then what may open a sentence (a capital, a digit, a quote, a bracket).
_BREAK = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"”']))\s+(?=[\"“(\d]|[^\W\d_a-z])")
# Words whose stop does not end a sentence: initials ("J.", "U.S."), short abbreviations
# ("v.", "St.", "Jr."), and longer ones of names and titles.
_ABBREVIATION = re.compile(r"(?:^|[\s(\"“])(?:[A-Z][a-z]?|v|b|c|d|fl|(?:[A-Za-z]\.)+[A-Za-z]|Inc|Ltd|Co|"
                           r"Corp|Sgt|Capt|Gen|Col|Lt|Gov|Rev|Mrs|Hon|Adm|Cmdr|Ave|Blvd|Dept|Univ|"
                           r"Bros|approx|ca|Ph\.D|vs|etc|No|Nos|Vol|Cir|[Jj]an|[Ff]eb|[Mm]ar|[Aa]pr|[Jj]un|[Jj]ul|"
                           r"[Aa]ug|[Ss]ept?|[Oo]ct|[Nn]ov|[Dd]ec)\.$")


# Words that open sentences, not names: after "World War I." or "U.S." they start a new one.
_OPENERS = frozenset("The A An It He She They His Her Its Their This These Those In On At After "
                     "Before During From Since As By For With When While Although However There "
                     "Both Each Many Some Most".split())


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def content_words(text: str) -> set[str]:
    """The words of ``text`` that carry content (scikit-learn's English stop words left out)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return {re.sub(r"['’]s$", "", w) for w in words(text) if w not in ENGLISH_STOP_WORDS}


def sentences(text: str) -> list[str]:
    """The sentences of a line of prose: split after . ! ? where the next sentence opens,
    except after an initial or an abbreviation."""
    out: list[str] = []
    start = 0
    for m in _BREAK.finditer(text):
        following = text[m.end():].split(" ", 1)[0]
        if _ABBREVIATION.search(text[start:m.start()]) and following not in _OPENERS:
            continue
        if text[m.start() - 1] in "!?" and len(text[start:m.start()].split(",")[-1].split()) <= 3:
            continue                    # "..., hence Hey Pa! There's a Goat on the Roof": a title
        out.append(text[start:m.start()].strip())
        start = m.end()
    out.append(text[start:].strip())
    merged: list[str] = []
    for s in out:                       # a stray closing quote or bracket joins its sentence
        if merged and not re.search(r"\w", s):
            merged[-1] = f"{merged[-1]} {s}"
        elif s:
            merged.append(s)
    return merged


# Opens with a pronoun, or with a bare description followed by its verb ("The film stars ...").
PRONOUN_LED = re.compile(
    r"^(?:(?:In|On|At|After|Before|During|From|Since|By|Until|Following|Throughout|Upon|Over|"
    r"Under|Within) [^,;:]{1,60}?,? (?:he|she|it|they)\b"
    r"|(?:He|She|It|They|His|Her|Its|Their|Him|Them|This|These|Those|Such|Both|Another)\b(?! [A-Z])"
    r"|(?:The|This|These|Those) [a-z]+(?:['’]s)? (?:is|was|are|were|has|had|have|will|would|can|"
    r"could|[a-z]+ed|[a-z]+s)\b)")


def pronoun_led(sentence: str) -> bool:
    """Opens with a pronoun or a bare description; after an opening phrase, only when that
    phrase names no one ("Since 2011 he has ...", not "After Franchitti left, he ...")."""
    m = PRONOUN_LED.match(sentence)           # a quoted opening is a title ("She's Got ...")
    return bool(m) and not (m.group(0)[0].isupper() and " " in m.group(0)
                            and re.search(r"(?<!^)\b[A-Z]", m.group(0).rsplit(" ", 1)[0])
                            and re.search(r" (?:he|she|it|they)$", m.group(0)))


def folded(text: str) -> str:
    """``text`` without its accents ("Benìtez" -> "Benitez"), so that two spellings of a name
    compare alike."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
