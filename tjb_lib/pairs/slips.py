"""Small slips a careful reader stops at in a HotpotQA candidate: reader rules held at zero.

Blind readers (DATASHEET, "Blind reading, 5 December 2026 (after the deciding sentences ...)")
named them: a capital left after a semicolon join ("1957; The Indianapolis Motor Speedway"),
the question's own typos echoed in the closing ("formed in2014", "thanKing Horse"), an answer
that is no noun phrase ("Answer: located in Olathe, Kansas"), odd answer labels ("Answer, all
told:"), a verification line naming listed sources on a side that lists none, HotpotQA's
garbled quotes and brackets ('"C.O.P.S." and the).'), a stray article ("a the"), and an
"also" with nothing before it. Each rule reads the text a judge reads.
"""
from __future__ import annotations

import re


# An answer label that is no plain label ("Answer, all told:", "Answer, in the end:").
ODD_LABEL = re.compile(r"(?m)^Answer, [^:\n]*:")
# A verification line that names sources, and what lists them on a side.
LISTED_SOURCES = re.compile(r"(?m)^Verification:.*\blisted sources\b")
SOURCE_LIST = re.compile(r"(?m)^(?:Sources|Notes|Quoted passages):")
# A word glued to a figure or to a capitalised word ("formed in2014", "thanKing Horse").
GLUED = re.compile(r"\b(?:than|and|the|of|in|on|for|with|from|to|since|by|at)\d|\b(?:than|and|the|of|in|on|for|with|from|to)[A-Z][a-z]")
# An answer that opens on a participle or a preposition: no noun phrase.
NOT_A_NOUN_PHRASE = re.compile(r"^(?:located|based|born|known|situated|founded|made|called|"
                               r"named|in|at|on|from|by|near|within)\b", re.I)
# The source's broken grammar: a doubled verb ("who is plays"), a quote closed twice around a
# title's year ('"The Lego Batman Movie" (2017)".'), a doubled quote.
SOURCE_GRAMMAR = re.compile(r"\b(?:is|was|are|were) (?:is|was|are|were|plays|has|does)\b"
                            r"|\"\s\(\d{4}\)\"|\"\"|“”|””")
STRAY_ARTICLE = re.compile(r"\b(?:[Aa]n?|[Tt]he) (?:an?|the)\b")
# "also" save after "and" or "but" and in a name's other name ("also known as", "also called").
ALSO = re.compile(r"(?<!\band )(?<!\bbut )\balso\b(?! (?:known|called|spelled|spelt|referred to as))", re.I)
# The conclusion a reasoning closes on (the question's words in the answer's sentence).
CONCLUSION = re.compile(r", so (?!.*, so ).*$", re.S)


# An answer that is a sentence ("The Leonberger is a giant dog breed.").
SENTENCE_ANSWER = re.compile(r"^\S+(?: \S+)* (?:is|are|was|were) \S+(?: \S+)*[.!]$")


def answer_not_a_noun_phrase(answer: str) -> bool:
    """An answer that opens on a participle or a preposition ("located in Olathe, Kansas"), or
    that is a sentence ("The Leonberger is a giant dog breed.")."""
    return bool(NOT_A_NOUN_PHRASE.match(answer.strip()) or SENTENCE_ANSWER.match(answer.strip()))


def unbalanced(sentence: str) -> bool:
    """A sentence whose brackets or straight double quotes do not pair ('"C.O.P.S." and
    the).')."""
    depth = 0
    for ch in sentence:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return True
    return depth != 0 or sentence.count('"') % 2 == 1 or \
        sentence.count("“") != sentence.count("”")


def without_bare_also(reasoning: tuple[str, ...]) -> tuple[str, ...]:
    """The reasoning with the "also" of its first clause dropped ("he also voices ..." -> "he
    voices ..."): nothing before it says what it is also to."""
    if not reasoning:
        return reasoning
    head, sep, tail = reasoning[0].partition(";")
    end = CONCLUSION.search(head)               # the question's own words are left alone
    said, end = (head[:end.start()], head[end.start():]) if end else (head, "")
    said = ALSO.sub("", said, count=1).replace("  ", " ").replace(" ,", ",")
    return (said + end + sep + tail, *reasoning[1:])
