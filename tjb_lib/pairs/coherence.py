"""Does a candidate read as an answer? The coherence half of the split audit.

A strong judge reads each side as an answer someone wrote; what it notices beyond the
difference a split is built to vary becomes part of what the benchmark measures. These checks
count, on the text with the citation display stripped, what such a reader trips over:

- a sentence that leans on context it does not show: it opens with a pronoun or a bare
  description ("It lies on ...", "The film stars ...") whose referent only a source label names;
- a reasoning sentence that says nothing the evidence says: no content word shared with the
  candidate's own evidence once the answer's words and the source titles are set aside;
- padding (the length-control text) that is pronoun-led or content-free filler ("Some people
  will recognise X");
- a sentence only one side of a pair has, outside the difference the split varies.

The rules here are written from what a reader sees, not from how the builder works, so the audit
does not pass the builder's output merely because it was built by the same rules.
"""
from __future__ import annotations

import re

from tjb_lib import text
from tjb_lib.pairs import registry
from tjb_lib.pairs.render import ANSWER_LEADS, sections
from tjb_lib.text import content_words, pronoun_led, words
from tjb_lib.pairs.strip import strip_artifacts
from tjb_lib.records import Pair

# A bullet, or a section or answer header of a rendering ("Reasoning: ", "In short: ").
HEADER = re.compile(r"^(?:[-*>]\s+|(?:%s)\s*)" % "|".join(
    re.escape(lead.strip()) for lead in (*ANSWER_LEADS, "Evidence:", "Reasoning:", "Key facts:")
    if lead.strip()))
#: what sides differ in (``registry.DIFFERENCES``) when every sentence may differ: they are
#: written apart, or they are different systems
ONE_SIDED_EXEMPT = ("written_apart", "systems")


def sentences(passage: str) -> list[str]:
    """Sentences of a candidate (lines, then sentence ends), bullets and headers dropped."""
    out = []
    for line in passage.splitlines():
        line = HEADER.sub("", line.strip())
        out.extend(text.sentences(line))
    return out


def side_style(p: Pair, side: str) -> str:
    writing = p.meta.get(f"{side}_writing")
    return writing["style"] if isinstance(writing, dict) else "structured"


def parts(p: Pair, side: str) -> dict:
    """One side's stripped text taken apart (``render.sections``)."""
    text = strip_artifacts(getattr(p, side))
    if text.startswith("Answer:\n```"):                 # a code answer: no prose to read
        return {"answer": text, "evidence": [], "reasoning": "", "after": []}
    return sections(text, side_style(p, side))


def titles(p: Pair) -> set[str]:
    """Words of the source titles a candidate may name (HotpotQA paragraphs, a FinQA filing)."""
    names = " ".join(t for t, _ in p.meta.get("supporting_facts", []))
    names += " " + re.sub(r"[/_.-]", " ", str(p.meta.get("filename", "")))
    return content_words(names)


def _answers(p: Pair) -> set[str]:
    return content_words(" ".join(str(p.meta[k]) for k in ("gold_answer", "correct_answer",
                                                           "wrong_answer") if k in p.meta))


def content_free(sentence: str, evidence: str, aside: set[str]) -> bool:
    """No content word shared with ``evidence`` once the words in ``aside`` are set aside."""
    return not (content_words(sentence) - aside) & (content_words(evidence) - aside)


def reasoning_sentences(p: Pair, side: str) -> tuple[list[str], list[str]]:
    """(reasoning sentences, the content-free ones) of one side."""
    part = parts(p, side)
    said = sentences(part["reasoning"])
    evidence = " ".join(part["evidence"])
    aside = titles(p) | _answers(p)
    return said, [s for s in said if content_free(s, evidence, aside)]


def leaning_lines(p: Pair, side: str) -> list[str]:
    """Sentences of one side that open with a pronoun or a bare description that is not the
    name of a source ("The tomato is ..." where a source is "Tomato")."""
    part = parts(p, side)
    named = titles(p)
    out = []
    for s in sentences("\n".join([*part["evidence"], part["reasoning"], *part["after"]])):
        noun = re.match(r"^(?:The|This|These|Those) ([a-z]+)", s)
        if pronoun_led(s) and not (noun and noun.group(1) in named):
            out.append(s)
    return out


def from_paragraphs(sentence: str, item) -> bool:
    """Is ``sentence`` the item's own (most of its content words, titles aside, are those of
    one of the item's paragraphs)?"""
    named = content_words(" ".join(t for t, _ in item.context))

    def found(text: str) -> bool:
        mine = content_words(text) - named or content_words(text)
        return bool(mine) and any(len(mine & content_words(" ".join(sents))) >= 0.8 * len(mine)
                                  for _, sents in item.context)
    # two sentences the reader cannot tell apart ("... by Warner Bros. Gadot is ...", '... by
    # Warner Bros. "B Boy" was ...') count apart
    return found(sentence) or all(map(found, re.split(r"(?<=\.) (?=[\"“]?[A-Z])", sentence)))


def padding_problems(p: Pair, items: dict) -> list[str]:
    """Length-control sentences that are pronoun-led, or filler that is no sentence of the
    item's own paragraphs (a restatement such as "Some people will recognise X")."""
    if p.artifact != "length_text":
        return []
    item = items[p.source_id]
    pad = p.cited[len(p.plain):].strip()
    return [s for s in sentences(pad) if pronoun_led(s) or not from_paragraphs(s, item)]


def _norm(sentence: str) -> str:
    return " ".join(words(sentence))


def _side_sentences(p: Pair, side: str) -> set[str]:
    part = parts(p, side)
    text = "\n".join([*part["evidence"], part["reasoning"], *part["after"]])
    return {_norm(s) for s in sentences(text)}


def _intended(p: Pair, sentence: str, items: dict, said: set[str] = frozenset()) -> bool:
    """Is a one-sided ``sentence`` (normalised) part of what the split varies? ``said``: the
    pair's sentences, both sides."""
    differs = registry.get(p.split).differs
    if differs == "padding":
        return sentence in {_norm(s) for s in sentences(p.cited[len(p.plain):])}
    if differs == "reasoning":
        return sentence in {_norm(s) for r in (p.meta["plain_reasoning"], p.meta["cited_reasoning"])
                            for s in sentences(" ".join(r))}
    if differs == "answer" and p.source == "finqa":     # the wrong side derives its figure
        return sentence in {_norm(s) for k in ("correct_reasoning", "wrong_reasoning")
                            for s in sentences(" ".join(p.meta[k]))}
    if differs == "answer":
        said = set(words(str(p.meta["correct_answer"]))) | set(words(str(p.meta["wrong_answer"])))
        return bool(said & set(sentence.split()))
    if differs == "dropped_hop":
        item = items[p.source_id]
        dropped = content_words(" ".join(dict(item.context)[p.meta["dropped_hop"]]))
        return _of_dropped(sentence, dropped) or any(
            _of_dropped(head, dropped) for head in _joined_heads(sentence, said))
    if differs == "omitted_sentences":
        omitted = {_norm(s) for k in ("omitted_sentences", "restated_sentences")
                   for s in p.meta.get(k, [])}
        return sentence in omitted
    return False


def _of_dropped(sentence: str, dropped: set[str]) -> bool:
    """Are at least half of ``sentence``'s content words those of the dropped hop's paragraph?"""
    mine = content_words(sentence)
    return bool(mine) and len(mine & dropped) >= 0.5 * len(mine)


def _joined_heads(sentence: str, said: set[str]) -> list[str]:
    """What comes before a sentence of the pair that ``sentence`` ends on, or that ends on
    ``sentence`` (both normalised): the dropped hop's fact joined before a shared sentence by a
    semicolon, which the other side says alone."""
    return [longer[:-len(shorter)] for other in said if other != sentence
            for longer, shorter in ((sentence, other), (other, sentence))
            if longer.endswith(" " + shorter)]


def one_sided_sentences(p: Pair, items: dict) -> list[str]:
    """Sentences only one side has, outside the difference the split is built to vary."""
    if registry.get(p.split).differs in ONE_SIDED_EXEMPT:
        return []
    plain, cited = _side_sentences(p, "plain"), _side_sentences(p, "cited")
    return sorted(s for s in plain ^ cited if not _intended(p, s, items, plain | cited))
