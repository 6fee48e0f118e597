"""Plain and cited renderings of one candidate answer.

A candidate's substance (final answer, evidence, reasoning) is fixed first; the renderer only
decides the display. ``render(c)`` gives the plain side; ``render(c, cues)`` adds the named
citation-like cues and nothing else, so ``strip_artifacts`` of both is the same text. Prose
styles (how answer, evidence and reasoning are laid out) are shared by both sides of a pair.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from tjb_lib.pairs.strip import FOOTNOTE_AFTER

# Display cues a cited side can carry (each maps to one artifact kind in strip.py).
CUES = (
    "markers",          # [1] after evidence and answer                     -> marker
    "source_labels",    # (source: “Title”[, locator]) after evidence       -> source_label
    "sentence_ids",     # [doc3:s0] / [table:4] after evidence              -> sentence_id
    "evidence_block",   # "Retrieved evidence:" block repeating the evidence -> evidence_block
    "sources_footer",   # "Sources:" list of numbered titles                 -> sources_footer
    "empty_footer",     # "Sources:" list of numbers with no title            -> sources_footer
    "verification",     # "Verification: ..." line                            -> verification
    "according_to",     # According to “Title”, <evidence>                   -> according_to
    "quoted_block",     # "Quoted passages:" block of “snippet” — Title lines -> evidence_block
    "bare_block",       # "Supporting passages:" block, evidence text only    -> evidence_block
    "footnotes",        # superscript numbers + "Notes:" footer               -> footnote, sources_footer
    "tags",             # 【1†Title】 tags                                     -> tag
)
STYLES = ("structured", "answer_first", "evidence_first", "key_facts")
# How each style states the final answer ({a} answer, {s} marker suffix, {e} sentence end);
# form 0 is the default. Every form says "answer" (and none "the answer"), so neither is a tell
# of a side. No reasoning ends on a closing line that restates the answer, so a candidate
# never says the same sentence twice.
ANSWER_FORMS = {
    "structured": ("Answer: {a}{s}", "Final answer: {a}{s}"),
    "answer_first": ("My answer: {a}{s}{e}", "Short answer: {a}{s}{e}",
                     "Answer in brief: {a}{s}{e}"),
    "evidence_first": ("Proposed answer: {a}{s}{e}", "Direct answer: {a}{s}{e}",
                       "Brief answer: {a}{s}{e}"),
    "key_facts": ("Final answer: {a}{s}", "Answer: {a}{s}", "Answer given: {a}{s}"),
}
MECHANICAL_CUES = frozenset({"markers", "source_labels", "sentence_ids", "evidence_block",
                             "sources_footer", "verification"})
VERIFICATION_LINES = (
    "Verification: each statement above was checked against the cited sources.",
    "Verification: the answer is consistent with every retrieved passage.",
    "Verification: all claims are traceable to the listed sources.",
)
# Cues that show a list of the sources (the last verification line names "the listed sources").
LISTING_CUES = frozenset({"sources_footer", "empty_footer", "footnotes", "quoted_block"})
SUPERSCRIPT_DIGITS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


@dataclass(frozen=True)
class Evidence:
    text: str        # the supporting sentence / table row / docstring line, verbatim
    source: str      # source title: Wikipedia title, filing page, problem docstring
    locator: str     # human locator: "sentence 0", "table row 4"
    sid: str         # compact identifier: "doc3:s0", "table:4", "doc:l1"
    hop: str = ""    # the support hop this evidence belongs to (HotpotQA title)


@dataclass(frozen=True)
class Candidate:
    answer: str
    evidence: tuple[Evidence, ...] = ()
    reasoning: tuple[str, ...] = ()
    code: bool = False     # the answer is a code block (HumanEval)

    def with_answer(self, answer: str) -> "Candidate":
        return replace(self, answer=answer)


# Sentence openings that are not names: after "According to “T”," they continue the sentence
# in lower case ("According to “Carrefour”, it is one of…"); a name keeps its capital.
LOWER_OPENINGS = frozenset(
    "It The He She They This These Those That Its His Her Their A An In On At After Before "
    "During As From With By For Since When While Although There Both Each One Many Some Most "
    "Until Under Over Following Located Born Founded Originally Formerly".split())


def _lower_opening(text: str) -> str:
    first = text.split(" ", 1)[0]
    return text[0].lower() + text[1:] if first in LOWER_OPENINGS else text


def _names_source(text: str, source: str) -> bool:
    """Does ``text`` open with the source's name ("According to “Casino”, Casino is ..." would
    say it twice)?"""
    name = source.split(" (")[0].split(", ")[0]
    return text.startswith(name)


def _source_numbers(c: Candidate) -> dict[str, int]:
    numbers: dict[str, int] = {}
    for e in c.evidence:
        numbers.setdefault(e.source, len(numbers) + 1)
    return numbers


def _decorate(c: Candidate, cues: frozenset[str], verification: int) -> tuple[list[str], str, list[str]]:
    """Evidence texts with inline cues, the answer suffix, and the trailing display blocks."""
    nums = _source_numbers(c)
    seen: set[str] = set()
    texts = []
    for e in c.evidence:
        t = e.text
        if "according_to" in cues and e.source not in seen and not _names_source(t, e.source):
            t = f"According to “{e.source}”, {_lower_opening(t)}"
            seen.add(e.source)
        if "markers" in cues or "empty_footer" in cues:
            t += f" [{nums[e.source]}]"
        if "footnotes" in cues:
            if not t or t[-1] not in FOOTNOTE_AFTER:
                raise ValueError(f"footnotes need sentence-final punctuation: {t[-40:]!r}")
            t += str(nums[e.source]).translate(SUPERSCRIPT_DIGITS)
        if "tags" in cues:
            t += f" 【{nums[e.source]}†{e.source}】"
        if "source_labels" in cues:
            loc = f", {e.locator}" if "sentence_ids" in cues else ""
            t += f" (source: “{e.source}”{loc})"
        if "sentence_ids" in cues:
            t += f" [{e.sid}]"
        texts.append(t)
    if "according_to" in cues and not seen:
        raise ValueError("according_to: every evidence line opens with its source's name")
    suffix = ""
    if ("markers" in cues or "empty_footer" in cues) and nums:
        suffix = " " + "".join(f"[{n}]" for n in nums.values())
    blocks = []
    if "evidence_block" in cues:
        lines = []
        for e in c.evidence:
            head = f"[{nums[e.source]}] " if "markers" in cues else ""
            head += f"“{e.source}”, {e.locator}: " if "source_labels" in cues else ""
            lines.append(f"> {head}{e.text}")
        blocks.append("Retrieved evidence:\n" + "\n".join(lines))
    if "quoted_block" in cues:
        blocks.append("Quoted passages:\n" + "\n".join(f"> “{e.text}” — {e.source}" for e in c.evidence))
    if "bare_block" in cues:
        blocks.append("Supporting passages:\n" + "\n".join(f"> {e.text}" for e in c.evidence))
    if "sources_footer" in cues:
        blocks.append("Sources:\n" + "\n".join(f"[{n}] “{s}”" for s, n in nums.items()))
    if "empty_footer" in cues:
        blocks.append("Sources:\n" + "\n".join(f"[{n}] —" for n in nums.values()))
    if "footnotes" in cues:
        blocks.append("Notes:\n" + "\n".join(
            f"{str(n).translate(SUPERSCRIPT_DIGITS)} {s}" for s, n in nums.items()))
    if "verification" in cues:      # "the listed sources" only where a list of them is shown
        lines = VERIFICATION_LINES if cues & LISTING_CUES else VERIFICATION_LINES[:2]
        blocks.append(lines[verification % len(lines)])
    return texts, suffix, blocks


def _answer_line(c: Candidate, suffix: str, style: str = "structured", form: int = 0) -> str:
    forms = ANSWER_FORMS[style]
    template = forms[form % len(forms)]
    if c.code:
        head = template.format(a="", s="", e="").rstrip() + suffix
        return f"{head}\n```python\n{c.answer.rstrip()}\n```"
    end = "" if c.answer.endswith((".", "!", "?")) else "."
    return template.format(a=c.answer, s=suffix, e=end)


def render(c: Candidate, cues: frozenset[str] | set[str] = frozenset(), style: str = "structured",
           verification: int = 0, form: int = 0) -> str:
    """One candidate as text; with no cues it is the plain side (no wrappers at all).
    ``form`` picks how the style states the answer (``ANSWER_FORMS``)."""
    cues = frozenset(cues)
    unknown = cues - set(CUES)
    if unknown:
        raise ValueError(f"unknown cues {sorted(unknown)}; known: {CUES}")
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; known: {STYLES}")
    if c.code and style != "structured":
        raise ValueError(f"style {style!r} is for prose answers; code answers use 'structured'")
    texts, suffix, blocks = _decorate(c, cues, verification)
    reasoning = " ".join(c.reasoning)
    answer = _answer_line(c, suffix, style, form)
    parts: list[str]
    if style == "structured":
        parts = [answer]
        if texts:
            parts.append("Evidence:\n" + "\n".join(f"- {t}" for t in texts))
        if reasoning:
            parts.append(f"Reasoning: {reasoning}")
    elif style == "answer_first":
        parts = [answer, " ".join(texts), reasoning]
    elif style == "evidence_first":
        parts = [" ".join(texts), reasoning, answer]
    else:
        parts = ["Key facts:\n" + "\n".join(f"- {t}" for t in texts), reasoning, answer]
    return "\n\n".join(p for p in parts + blocks if p.strip())


def answer_only(c: Candidate) -> str:
    """The bare-answer system of the ranking probe: no evidence, no reasoning, no display."""
    return _answer_line(c, "")


def split_answer(text: str) -> tuple[str, str]:
    """(final answer, everything else) of a structured rendering; used to check conflicts.

    The answer is the first paragraph after ``Answer:`` (a code block for code answers).
    """
    if not text.startswith("Answer:"):
        raise ValueError("not a structured rendering: it does not start with 'Answer:'")
    code_open = "Answer:\n```python\n"
    if text.startswith(code_open):
        end = text.index("\n```", len(code_open))
        return text[len(code_open):end], text[end + len("\n```"):].lstrip("\n")
    head, _, rest = text.partition("\n\n")
    return head[len("Answer: "):], rest


ANSWER_LEADS = tuple(sorted({t.split("{a}")[0] for forms in ANSWER_FORMS.values() for t in forms},
                            key=len, reverse=True))


def final_answer(text: str) -> str | None:
    """The final answer a prose rendering states (its display already stripped): the paragraph
    that is one answer statement of ``ANSWER_FORMS``; None if there is none."""
    for para in text.split("\n\n"):
        para = para.strip()
        if "\n" in para:
            continue
        for lead in ANSWER_LEADS:
            if para.startswith(lead):
                return para[len(lead):].rstrip()
    return None


def sections(text: str, style: str = "structured") -> dict[str, object]:
    """A rendering (its display already stripped) taken apart as ``render`` laid it out:
    ``answer`` (the answer statement), ``evidence`` (one text per evidence line, or the evidence
    paragraph of a prose style), ``reasoning`` (the reasoning paragraph) and ``after`` (any
    paragraph past the layout, such as a length-control text)."""
    paras = [p for p in text.split("\n\n") if p.strip()]
    if style == "structured":
        out: dict[str, object] = {"answer": paras[0] if paras else "", "evidence": [],
                                  "reasoning": "", "after": []}
        for para in paras[1:]:
            if para.startswith("Evidence:\n"):
                out["evidence"] = [line[2:] for line in para.splitlines()[1:]
                                   if line.startswith("- ")]
            elif para.startswith("Reasoning: "):
                out["reasoning"] = para[len("Reasoning: "):]
            elif out["reasoning"] or out["evidence"]:
                out["after"].append(para)        # type: ignore[union-attr]
        return out
    order = {"answer_first": ("answer", "evidence", "reasoning"),
             "evidence_first": ("evidence", "reasoning", "answer"),
             "key_facts": ("evidence", "reasoning", "answer")}[style]
    out = dict(zip(order, paras))
    evidence = out.get("evidence", "")
    out["evidence"] = ([line[2:] for line in evidence.splitlines()[1:]] if style == "key_facts"
                       else [evidence] if evidence else [])
    out["after"] = paras[3:]
    return out
