"""Is a capitalised word a name or a common word? Decided from the item's own text.

A semicolon joins two sentences into one, so the second's first word loses the capital a
sentence start gave it unless it is a name ("...; drifting is a driving technique"; "...; the
Indianapolis Motor Speedway"; but "...; Spiderwick follows"). Blind readers stopped at the
capital left on a common word. The item's paragraphs say which it is: a function word, or a
word they write in lower case and never capitalise inside a sentence, is common; a word they
capitalise inside a sentence, or never use, is kept as a name (undecided names keep it), and so
is a paragraph's one-word title ("...; Look is a glossy ... magazine", not "; look is").
"""
from __future__ import annotations

import re
from functools import lru_cache

_WORD = re.compile(r"[A-Za-z][a-z'’-]*")


@lru_cache(maxsize=1)
def function_words() -> frozenset[str]:
    """Words that are never names: sklearn's English stop words and prepositions."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    # prepositions the stop-word list lacks ("; Like other highly nitrated compounds")
    return frozenset(ENGLISH_STOP_WORDS) | {"like", "unlike", "despite", "following",
                                            "according", "including", "near", "via"}


def item_text(item) -> str:
    """The item's paragraphs and question, the text that decides its words' case; then its
    paragraph titles, one a line (a title is the entity's name: ``titled``)."""
    return "\n".join([" ".join([item.question, *(s.strip() for _, sents in item.context
                                                  for s in sents)]),
                      *(title for title, _ in item.context)])


# What a title's bracket calls a work, a group or a firm: the title is then its name ("Look (UK
# magazine)"), where "Drifting (motorsport)" names a common noun's field.
_NAMED_KINDS = ("magazine", "newspaper", "film", "band", "album", "song", "single", "novel",
                "company", "series", "play", "musical", "book", "group", "journal")


def titled(word: str, text: str) -> bool:
    """Is ``word`` the title of a paragraph of ``text`` (``item_text``) on its own, with at most a
    bracket that calls it a work or a firm ("Look (UK magazine)")? Then it is a name, however
    often the paragraphs use the common word."""
    kinds = "|".join(_NAMED_KINDS)
    return bool(re.search(rf"^{re.escape(word)}(?: \((?:[^()\n]* )?(?:{kinds})\))?$", text, re.M))


def lowered_titles(sentence: str, text: str) -> list[str]:
    """Titles lowered after a join in ``sentence`` ("...; look is a glossy ..." for the
    magazine Look)."""
    return [m.group(1) for m in re.finditer(rf"{JOIN} ([a-z][a-z'’-]*)\b", sentence)
            if titled(m.group(1).capitalize(), text)]


def common(word: str, text: str, following: str = "") -> bool:
    """Is ``word`` (a sentence's capitalised first word) a common word in ``text``? Not where
    ``text`` writes it with its ``following`` word capitalised inside a sentence, quoted or not ("in His Band
    and the Street Choir", "in Along the Navajo Trail", "in The Spiderwick Chronicles"); a
    function word ("The", "Along"); else a word ``text`` writes in lower case more often than capitalised
    inside a sentence."""
    low, mid = word.lower(), r"(?<![.!?\"“(:\s]) "
    if following and re.search(rf"(?<![.!?\s]) [\"“]?{re.escape(word)} (?i:{re.escape(following)})",
                               text):       # not after a question's "?  " and its spaces
        return False
    if low in function_words():
        return True
    if word in _PARTICIPLES and following in function_words():
        return True                      # "; set on a fictional Earth", "; born in Venice"
    if titled(word, text):
        return False
    named = len(re.findall(rf"{mid}{re.escape(word)}\b", text))
    return len(re.findall(rf"\b{re.escape(low)}\b", text)) > named


# Participles that open a sentence's phrase before a preposition ("Set on a fictional Earth,
# ..."): common words there even where the paragraphs never write them in lower case.
_PARTICIPLES = frozenset("Set Born Led Known Built Made Held Run Written Based Located Founded "
                         "Released Published Directed Produced Formed Named Raised Centered "
                         "Centred Situated Headquartered Designed Developed Recorded".split())


# A capitalised first word (not "SMU", "YouTube", "A&R") and the word after it.
_OPENING = r"([A-Z][a-z'’-]*)(?![\w&.])(?: (\S+))?"


def lowered(sentence: str, text: str) -> str:
    """``sentence`` with its first word lowered where it is common in ``text``."""
    m = re.match(_OPENING, sentence)
    if not m or not common(m.group(1), text, m.group(2) or ""):
        return sentence
    return sentence[0].lower() + sentence[1:]


# Where a sentence goes on after a join: a semicolon, or the conclusion's "so".
JOIN = r"(?:;|, so)"


def capitals_after_semicolons(sentence: str, text: str) -> list[str]:
    """The common words left capitalised after a join in ``sentence`` ("; The Indianapolis
    Motor Speedway", ", so The Battle of Belleau Wood occurred earlier")."""
    return [m.group(1) for m in re.finditer(rf"{JOIN} {_OPENING}", sentence)
            if common(m.group(1), text, m.group(2) or "")]


def lowered_after_so(sentence: str, text: str) -> str:
    """``sentence`` with the first word of its conclusion lowered where it is common."""
    m = re.search(r", so (?!.*, so )(.*)$", sentence, re.S)
    return sentence[:m.start(1)] + lowered(m.group(1), text) if m else sentence
