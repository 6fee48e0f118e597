"""Correctness conflicts: one side's final answer is wrong, everything else is the same.

50 pairs per domain (HotpotQA multi-hop, FinQA numeric, HumanEval short code), 25 clear (plain
correct, cited wrong under the citation display: gold plain) and 25 reverse (cited correct,
plain wrong: gold cited). The wrong answer has the gold answer's type, so the conflict is not
won by type alone, and a checked rule says so for every pair (``hotpot_answer_problems``,
``finqa_answer_problems``): yes/no flipped, the other option the question offers, a date of the
same form, a year, a number with the same unit, an entity of the same kind (a person for a
person) from another paragraph; for FinQA a wrong figure of the same unit and scale (never the
answer in another unit), reached by a wrong reading carried through every step; for HumanEval a
one-token mutant of the canonical solution that fails the problem's own tests when run in a
subprocess. HotpotQA items whose own evidence contradicts their gold answer are not used
(``gold_contradiction``). The wrong side states its wrong answer wherever the correct side states
the right one (a FinQA wrong side also shows the figures that lead to it); evidence and
everything else are shared.
"""
from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any


from tjb_lib.data import FinQAItem, FinQAStep, HotpotItem, HumanEvalProblem
from tjb_lib.pairs.candidates import (evaluate, finqa_candidate, finqa_task, hop_sentences, hops,
                                      hotpot_candidate, humaneval_candidate, is_clean, number,
                                      op_name, step_value)
from tjb_lib.pairs.common import cue_label, hotpot_meta, make_pair, rng
from tjb_lib.pairs.filing import figures, value
from tjb_lib.pairs.finqa_voice import arg_text, operands
from tjb_lib.pairs.execute import failing_mutant, run_tests
from tjb_lib.pairs.render import MECHANICAL_CUES, Candidate, render
from tjb_lib.pairs.standalone import PERSON_NOTE, short_name
from tjb_lib.records import Pair
from tjb_lib.text import MONTHS, YEAR, folded

SPLIT = "conflict"
PER_DOMAIN = 50
CLEAR = 25
MAX_CODE_LINES = 12

_MONTH = f"(?:{MONTHS})"
_DATE_FORMS = (re.compile(rf"{_MONTH} \d{{1,2}}, \d{{4}}"), re.compile(rf"\d{{1,2}} {_MONTH} \d{{4}}"),
               re.compile(rf"{_MONTH} \d{{4}}"))
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_QUANTITY = re.compile(r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(\s+[a-z][a-z ]*)?")
_KIND = re.compile(r"\b(?:is|was|are|were)\s+(?:an?|the)\s+([^,.;()]+)")
_KIND_CUT = re.compile(r"\s+(?:of|in|from|that|which|who|whose|located|based|by|for|on|at|with|"
                       r"formed|founded|directed|written|produced|released|created|known|named|"
                       r"owned|and|to|starring|developed|published|set|where)\b.*")


_LIST_PAGE = re.compile(r"^(?:lists? of|timeline of|index of|outline of|glossary of)\b"
                        r"|\(disambiguation\)", re.I)
# Lower-case words that may sit inside a name ("Battle of Guam", "Mahbub ul Haq").
_NAME_JOINERS = frozenset("of the and de del della da do dos du la le van von der den y ul al el "
                          "bin ibn di & st.".split())


def _norm(text: str) -> str:
    """Lower-case words, accents and marks off ("ibnʿArabī" and "Ibn Arabi" alike)."""
    return " ".join(re.findall(r"[a-z0-9]+", folded(text).lower()))


def entity_kind(first_sentence: str) -> str | None:
    """"person", or the head noun of "X is a <...> noun" in a paragraph's first sentence."""
    if PERSON_NOTE.search(first_sentence):
        return "person"
    m = _KIND.search(first_sentence)
    if not m:
        return None
    phrase = _KIND_CUT.sub("", m.group(1)).split()
    return phrase[-1].lower() if phrase else None


def _paragraph_kinds(item: HotpotItem) -> dict[str, str | None]:
    return {t: entity_kind(sents[0]) if sents else None for t, sents in item.context}


def _name_tail(text: str) -> str:
    """The name a clause ends on: "who is younger Keith Bostic" -> "Keith Bostic"."""
    words = text.split()
    start = len(words)
    while start and (words[start - 1][:1].isupper() or words[start - 1][:1].isdigit()
                     or words[start - 1].lower() in _NAME_JOINERS):
        start -= 1
    while start < len(words) and words[start].lower() in _NAME_JOINERS - {"the"}:
        start += 1
    return " ".join(words[start:])


def question_options(question: str) -> list[str]:
    """The two options a question offers ("…, X or Y?", "Which mall, X or Y, has …?"), or []."""
    q = question.strip()
    at = q.rfind(" or ")
    if at < 0:
        return []
    left, right = q[:at], q[at + 4:]
    cut = max(left.rfind(c) for c in ",:;")
    left = left[cut + 1:].strip() if cut >= 0 else _name_tail(left)
    right = re.match(r"[^,?;:]*", right).group(0).strip()
    words = right.split()
    if any(w[:1].isupper() for w in words):            # "Y older" -> "Y"
        while words and not words[-1][:1].isupper() and not words[-1][:1].isdigit():
            words.pop()
    right = " ".join(words)
    return [left, right] if left and right else []


def _same_option(a: str, b: str) -> bool:
    x, y = set(_norm(a).split()) - {"the"}, set(_norm(b).split()) - {"the"}
    return (bool(x) and bool(y) and (x <= y or y <= x)) or \
        (bool(x) and _norm(a).replace(" ", "") == _norm(b).replace(" ", ""))


def _options(item: HotpotItem) -> list[str]:
    """The options a question offers; for a comparison that names none, its compared titles."""
    options = question_options(item.question)
    if not any(_same_option(o, item.answer) for o in options) and item.type == "comparison":
        options = [short_name(h) for h in hops(item)]
    return options


def _title_of(item: HotpotItem, name: str) -> str | None:
    return next((t for t, _ in item.context if _norm(short_name(t)) == _norm(name)), None)


def hotpot_answer_problems(item: HotpotItem, wrong: str) -> list[str]:
    """Why ``wrong`` is not a wrong answer of the gold answer's type (empty: it is one).

    yes/no for yes/no; the other option where the question offers two ("…, X or Y?"), never a
    third entity; a date of the gold's form, a year for a year, a number of the same unit and
    number of digits; otherwise the title of another paragraph of the item whose entity is of
    the gold's kind (a person for a person, a mall for a mall), never a list page.
    """
    gold, w = item.answer.strip(), wrong.strip()
    if not w or _norm(w) == _norm(gold):
        return ["the wrong answer is empty or the gold answer"]
    if gold.lower() in ("yes", "no") or w.lower() in ("yes", "no"):
        return [] if {gold.lower(), w.lower()} == {"yes", "no"} else ["yes/no against a non-yes/no"]
    options = _options(item)
    if any(_same_option(o, gold) for o in options):
        other = [o for o in options if not _same_option(o, gold)]
        bare = lambda x: re.sub(r"^the ", "", _norm(x))  # noqa: E731
        if len(other) != 1 or bare(w) != bare(other[0]):
            return ["not the other option offered"]
        return []
    if item.type == "comparison":
        return ["a comparison whose gold answer is none of its options"]
    for form in _DATE_FORMS:
        if form.fullmatch(gold):
            return [] if form.fullmatch(w) else ["not a date of the gold's form"]
    if _YEAR.fullmatch(gold):
        return [] if _YEAR.fullmatch(w) else ["not a year"]
    g = _QUANTITY.fullmatch(gold)
    if g and not _YEAR.fullmatch(g.group(1)):
        n = _QUANTITY.fullmatch(w)
        digits = lambda m: len(m.group(1).split(".")[0].replace(",", ""))  # noqa: E731
        if not n or (n.group(2) or "").strip() != (g.group(2) or "").strip() \
                or digits(n) != digits(g) or _YEAR.fullmatch(n.group(1)):
            return ["not a number of the gold's unit and scale"]
        return []
    kinds = _paragraph_kinds(item)
    own, title = _title_of(item, gold), _title_of(item, w)
    if own is None or kinds[own] is None:
        return ["the gold answer's kind is unknown"]
    if title is None or _LIST_PAGE.search(title):
        return ["not the title of an entity paragraph of the item"]
    if kinds[title] != kinds[own]:
        return [f"a {kinds[title]} for a {kinds[own]}"]
    if _norm(short_name(title)) in _norm(gold) or _norm(gold) in _norm(short_name(title)):
        return ["a name inside the gold answer's name"]
    return []


# "Who did the Star and Dagger bass player marry?": the description is the subject, the
# answer the object of the relation asked about.
_OBJECT_QUESTION = re.compile(r"^(?:who|whom|what|which)(?:\s+\S+){0,2}?\s+(?:did|does|do)\s+"
                              r"(?P<subject>(?:the|a|an)\s.+?)\s+(?P<verb>[a-z]+)"
                              r"(?:\s+(?:for|in|with|on|to|at|by))?\s*\??\s*$", re.I)
_BIRTH_ORDER = re.compile(r"\b(born first|older|younger)\b", re.I)
_BIRTH_YEAR = re.compile(r"\((?:[^()]*?\b)?(1\d{3}|20\d\d)\b")


def _stems(text: str) -> set[str]:
    # imported here: scikit-learn costs a notebook kernel about half a second of CPU to import,
    # and only building the conflict split needs its stop words
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return {w[:4] for w in _norm(text).split() if w not in ENGLISH_STOP_WORDS}


_DATE_ORDER = re.compile(r"\b(first|earlier|earliest|older|oldest|later|latest|newer|newest|"
                         r"more recent|most recent)\b", re.I)


def gold_contradiction(item: HotpotItem) -> str | None:
    """Why the item's own evidence contradicts its gold answer (None: it does not).

    Two checks. An object question ("Who did <description> marry?") whose gold answer is the
    one its own supporting sentences describe: the answer is the subject of the relation, so it
    cannot also be its object (the Star and Dagger bass player is Sean Yseult; whom she married
    is another person). A birth-order question ("Who is older, X or Y?") whose supporting
    sentences give both birth years in the other order, and a "which came first" question
    whose options' supporting sentences each give one year, in the other order (Craig v. Boren,
    1976, is the gold answer to which came first beside a case of 1948).
    """
    m = _OBJECT_QUESTION.match(item.question.strip())
    own = _title_of(item, item.answer.strip().rstrip("."))
    if m and own in hops(item):
        said = set().union(*(_stems(s) for s in hop_sentences(item, own)))
        subject = _stems(m.group("subject"))
        if subject and subject <= said:
            return (f"the gold answer {item.answer.strip()!r} is the one the question describes "
                    f"({m.group('subject')!r}), not the one it asks for")
    order = _BIRTH_ORDER.search(item.question)
    options = question_options(item.question)
    if len(options) != 2 or not any(_same_option(o, item.answer) for o in options):
        return None
    if order:
        return _order_contradiction(item, options, _birth_year, "birth years",
                                    latest=order.group(1).lower() == "younger")
    when = _DATE_ORDER.search(item.question)
    if when:
        return _order_contradiction(item, options, _only_year, "years",
                                    latest=when.group(1).lower() in _LATER)
    return None


_LATER = ("later", "latest", "newer", "newest", "more recent", "most recent")
# "Who wrote The Devils ...?": the question asks for the agent of a relation that the evidence
# writes as "<participle> by <name>".
_AGENT_QUESTION = re.compile(r"\b(?:who|which \w+(?: \w+)?) (wrote|directed|composed|founded|"
                             r"created|designed|produced|painted|invented|built|developed)\b", re.I)
_PARTICIPLE = {"wrote": "written", "directed": "directed", "composed": "composed",
               "founded": "founded", "created": "created", "designed": "designed",
               "produced": "produced", "painted": "painted", "invented": "invented",
               "built": "built", "developed": "developed"}


def gold_unsupported(item: HotpotItem) -> str | None:
    """Why the gold answer does not appear in, or follow from, the supporting sentences it
    cites (None: it does). A yes/no answer and the option a comparison offers follow from
    them; any other answer must be said by them, and where the question asks who did
    something ("Who wrote The Devils?") and the evidence says by whom ("written by John
    Whiting"), the gold answer must be that agent (not Peter Hall, who commissioned it)."""
    gold = item.answer.strip()
    said = [dict(item.context)[t][s] for t, s in item.supporting_facts
            if s < len(dict(item.context)[t])]
    if gold.lower() in ("yes", "no"):
        return None
    text = _norm(" ".join(said))
    if item.type == "comparison" and any(_same_option(o, gold) for o in _options(item)):
        return None
    options = question_options(item.question)
    shared = lambda o: {w for w in _norm(o).split() if len(w) > 2 and w != "the"}  # noqa: E731
    if (len(options) == 2 and re.match(r"(?:which|who)\b", item.question, re.I)
            and not any(shared(o) & shared(gold) for o in options)):
        return f"the gold answer {gold!r} is neither option the question offers"
    if _norm(gold) not in text and not set(_norm(gold).split()) - {"the", "a", "an"} <= set(
            text.split()):
        return f"the gold answer {gold!r} is not in its supporting sentences"
    m = _AGENT_QUESTION.search(item.question)
    if m:
        by = re.compile(rf"\b{_PARTICIPLE[m.group(1).lower()]} by ((?:\S+ ?){{1,6}})")
        agents = [a for s in said for after in by.findall(s)
                  for a in re.findall(r"[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*)+", after)]
        if agents and not any(set(_norm(a).split()) & set(_norm(gold).split()) for a in agents):
            return (f"the evidence says {m.group(1).lower()} by {agents[0]!r}, not by the gold "
                    f"answer {gold!r}")
    return None


def _birth_year(said: list[str]) -> int | None:
    """The first birth year the sentences give ("(born 5 June 1950)", "(1872 – 1928)")."""
    found = [f for f in map(_BIRTH_YEAR.search, said) if f]
    return int(found[0].group(1)) if found else None


def _only_year(said: list[str]) -> int | None:
    """The year the sentences give, where they give exactly one."""
    found = {int(y) for s in said for y in YEAR.findall(s)}
    return found.pop() if len(found) == 1 else None


def _order_contradiction(item: HotpotItem, options: list[str], year_of, what: str,
                         latest: bool) -> str | None:
    """Where each option's supporting sentences give a year (``year_of``) and the years differ,
    the option they make the answer (the latest or the earliest) when it is not the gold one."""
    years = {}
    for o in options:
        title = _title_of(item, o) or next((h for h in hops(item) if h.startswith(o)), None)
        year = year_of(hop_sentences(item, title) if title in hops(item) else [])
        if year is not None:
            years[o] = year
    if len(years) == 2 and len(set(years.values())) == 2:
        want = (max if latest else min)(years, key=years.get)
        if not _same_option(want, item.answer):
            return f"the supporting sentences' {what} make {want!r} the answer"
    return None


def hotpot_wrong_answer(item: HotpotItem, r: random.Random) -> tuple[str, str, str] | None:
    """(wrong answer, kind, where it came from) passing ``hotpot_answer_problems``, or None.

    yes/no flipped; the other option the question offers; a date of the same form, a year, a
    number with the same unit from another paragraph; an entity of the same kind (a person for
    a person, a film for a film) from another paragraph. None when no such answer exists: the
    item is not used.
    """
    found = _hotpot_candidate_answer(item, r)
    if found is None or hotpot_answer_problems(item, found[0]):
        return None
    return found


def _hotpot_candidate_answer(item: HotpotItem, r: random.Random) -> tuple[str, str, str] | None:
    ans = item.answer.strip()
    low = ans.lower()
    if low in ("yes", "no"):
        return ("no" if low == "yes" else "yes"), "yes_no", "yes/no polarity flipped"
    options = _options(item)
    if any(_same_option(o, ans) for o in options):
        other = [o for o in options if not _same_option(o, ans)]
        if len(other) != 1:
            return None
        name = other[0]
        if not low.startswith("the ") and name.lower().startswith("the "):
            name = name[4:]                            # the gold's form: no article, none added
        return name, "compared_entity", "the other option the question offers"
    if item.type == "comparison":
        return None
    gold_titles = set(hops(item))
    others = [(t, s) for t, s in item.context if t not in gold_titles]
    for form in _DATE_FORMS:
        if form.fullmatch(ans):
            pool = sorted({(m.group(0), t) for t, sents in others for sent in sents
                           for m in form.finditer(sent) if m.group(0) != ans})
            if not pool:
                return None
            d, t = r.choice(pool)
            return d, "date", f"a date of the same form from the paragraph “{t}”"
    if _YEAR.fullmatch(ans):
        pool = sorted({(y, t) for t, sents in others for sent in sents
                       for y in _YEAR.findall(sent) if y != ans})
        if not pool:
            return None
        y, t = r.choice(pool)
        return y, "year", f"a year from the paragraph “{t}”"
    m = _QUANTITY.fullmatch(ans)
    if m and not _YEAR.fullmatch(m.group(1)):
        unit, digits = (m.group(2) or "").strip(), len(m.group(1).split(".")[0].replace(",", ""))
        pool = sorted({(n.group(0), t) for t, sents in others for sent in sents
                       for n in _QUANTITY.finditer(sent)
                       if (n.group(2) or "").strip() == unit and n.group(1) != m.group(1)
                       and not _YEAR.fullmatch(n.group(1))
                       and len(n.group(1).split(".")[0].replace(",", "")) == digits
                       and n.group(1).count(".") == m.group(1).count(".")})
        if pool:
            n, t = r.choice(pool)
            return n, "quantity", f"a number of the same unit and scale from the paragraph “{t}”"
        value = float(m.group(1).replace(",", "")) * r.choice((0.6, 0.7, 1.3, 1.4))
        text = _printed(value, m.group(1))
        if len(text.split(".")[0].replace(",", "")) != digits or _norm(text) == _norm(m.group(1)):
            return None
        return (f"{text} {unit}".strip(), "quantity",
                "the number off by a third or more, same unit and scale")
    kinds = _paragraph_kinds(item)
    own = _title_of(item, ans)
    kind = kinds[own] if own else None
    if kind is None:
        return None
    pool = sorted(short_name(t) for t, _ in others if kinds[t] == kind and not _LIST_PAGE.search(t)
                  and _norm(short_name(t)) != _norm(ans)
                  and _norm(short_name(t)) not in _norm(ans) and _norm(ans) not in _norm(short_name(t)))
    if not pool:
        return None
    name = r.choice(pool)
    return name, f"entity:{kind}", f"another {kind} among the item's paragraphs"


def _printed(value: float, like: str) -> str:
    """``value`` printed like the answer ``like``: its decimals, thousands commas and % sign."""
    m = re.search(r"\.(\d+)", like)
    decimals = len(m.group(1)) if m else 0
    text = f"{value:,.{decimals}f}" if "," in like else f"{value:.{decimals}f}"
    return text + ("%" if like.strip().endswith("%") else "")


# ----------------------------------------------------------------------------- FinQA wrong answers

def finqa_answer_problems(gold: str, wrong: str) -> list[str]:
    """Why ``wrong`` is not a wrong answer of the gold answer's type (empty: it is one).

    yes/no for yes/no; otherwise a number printed like the gold answer (the same decimals, a
    percentage for a percentage), of the same sign, within a factor of five of it, and not the
    gold answer in another unit (x 100, x 1000 or their inverses).
    """
    g, w = gold.strip(), wrong.strip()
    if g.lower() in ("yes", "no") or w.lower() in ("yes", "no"):
        return [] if {g.lower(), w.lower()} == {"yes", "no"} else ["yes/no against a non-yes/no"]
    gv, wv = number(g), number(w)
    if gv is None or wv is None or gv == 0:
        return ["not a number, or a gold answer of zero"]
    decimals = lambda x: len(x.split(".")[1].rstrip("%")) if "." in x else 0  # noqa: E731
    problems = []
    if g.endswith("%") != w.endswith("%") or decimals(g) != decimals(w):
        problems.append("printed unlike the gold answer")
    ratio = abs(wv / gv)
    if _norm(w) == _norm(g) or wv == gv:
        problems.append("the gold answer")
    if (wv > 0) != (gv > 0):
        problems.append("the other sign")
    if not 0.2 <= ratio <= 5:
        problems.append("off by more than a factor of five")
    if any(abs(ratio - k) <= 0.01 * k for k in (1, 100, 0.01, 1000, 0.001)):
        problems.append("the gold answer in another unit")
    return problems


def _print_like(value: float | str, like: str, gold: float | str) -> str:
    """A recomputed step result printed like the gold step's result ``like`` (value ``gold``)."""
    if isinstance(value, str):
        return value
    m = re.search(r"-?(?:\d[\d,]*(?:\.\d+)?|\.\d+)", like)       # ".11" is 0.11, not 11
    shown = float(m.group(0).replace(",", "")) if m else 0.0
    percent = isinstance(gold, float) and abs(shown - gold * 100) < abs(shown - gold)
    scale = 100.0 if percent else 1.0
    return _printed(value * scale, like)


def _rederive(item: FinQAItem, steps: tuple[FinQAStep, ...]) -> tuple[FinQAStep, ...] | None:
    """``steps`` (the gold program with one change) with every result recomputed and printed
    like the gold program's, or None when they cannot be computed or do not reproduce."""
    gold = evaluate(item.steps)
    values: list[float | str] = []
    out = list(steps)
    for i in range(len(out)):
        try:
            v = step_value(i, tuple(out), values)
        except ValueError:
            return None
        if v != gold[i]:                    # a step the change reaches: printed anew
            out[i] = replace(out[i], res=_print_like(v, item.steps[i].res, gold[i]))
        values.append(v)
    try:
        evaluate(tuple(out))
    except ValueError:
        return None
    return tuple(out)


def _misreadings(item: FinQAItem) -> list[tuple[tuple[FinQAStep, ...], str, str]]:
    """The gold program with one figure it reads replaced by another of the same table row (the
    same measure in another period) or of the same sentence: (program, kind, what changed)."""
    figs, steps = figures(item.gold_inds, item.table), item.steps
    read = {abs(value(arg_text(a, steps)) or 0) for s in steps for a in (s.arg1, s.arg2)
            if not a.startswith("#")}
    out, seen = [], set()
    for i, st in enumerate(steps):
        for arg, o in zip((st.arg1, st.arg2), operands(i, steps, figs)):
            f = o.figure
            if f is None or arg in seen:
                continue
            seen.add(arg)
            if f.quote is None:
                alts = [g for g in figs if g.line == f.line and g.quote is None
                        and g.measure == f.measure and g.period != f.period]
            else:
                alts = [g for g in figs if g.line == f.line and g.quote is not None
                        and g.unit == f.unit
                        and bool(_YEAR.fullmatch(g.printed)) == bool(_YEAR.fullmatch(f.printed))]
            flip = value(arg) == -f.number != 0        # the program reads a magnitude
            for g in alts:
                if abs(g.number) == abs(f.number) or abs(g.number) in read:
                    continue                        # a figure the program reads anyway
                if g.label() is None:
                    continue                        # a figure its line does not name
                text = (g.printed.lstrip("-") if flip and g.number < 0 else
                        "-" + g.printed if flip else g.printed)
                text += "%" if arg.endswith("%") else ""
                changed = tuple(replace(s, arg1=text if s.arg1 == arg else s.arg1,
                                        arg2=text if s.arg2 == arg else s.arg2) for s in steps)
                where = f"another figure of the same {'row' if f.quote is None else 'sentence'}"
                out.append((changed, "misread_figure", f"{arg} read as {text}, {where}"))
    return out


def _wrong_base(item: FinQAItem) -> list[tuple[tuple[FinQAStep, ...], str, str]]:
    """A change divided by the later figure instead of the earlier one (the base)."""
    steps = item.steps
    last = steps[-1]
    k = re.fullmatch(r"#(\d+)", last.arg1)
    if op_name(last) != "divide" or not k:
        return []
    change = steps[int(k.group(1))]
    if op_name(change) not in ("minus", "subtract") or change.arg2 != last.arg2:
        return []
    return [(steps[:-1] + (replace(last, arg2=change.arg1),), "wrong_base",
             "the change divided by the later figure instead of the base")]


def finqa_wrong_answer(item: FinQAItem, r: random.Random
                       ) -> tuple[str, str, str, tuple[FinQAStep, ...]] | None:
    """(wrong answer, kind, where it came from, the program that derives it), or None.

    The wrong side makes a mistake a reader could make and carries it through: it reads
    another figure of the same table row or sentence in place of one the program reads, or
    divides a change by the later figure instead of the base. Every step is recomputed, so the
    wrong side's arithmetic is right and only its reading is wrong; the answer it reaches
    passes ``finqa_answer_problems``.
    """
    options = _misreadings(item) + _wrong_base(item)
    r.shuffle(options)
    for steps, kind, source in options:
        derived = _rederive(item, steps)
        if derived is not None and not finqa_answer_problems(item.answer, derived[-1].res):
            return derived[-1].res, kind, source, derived
    return None


def program_text(steps: tuple[FinQAStep, ...]) -> str:
    """A program written as FinQA writes one: "subtract(5829, 5735), divide(#0, 5735)"."""
    return ", ".join(f"{s.op}({s.arg1}, {s.arg2})" for s in steps)


# ----------------------------------------------------------------------------- one pair

def _pair(source: str, source_id: str, direction: str, task: str, correct: Candidate,
          wrong: Candidate, meta: dict[str, Any]) -> Pair:
    if direction == "clear":
        plain, cited, gold = render(correct), render(wrong, MECHANICAL_CUES), "plain"
    else:
        plain, cited, gold = render(wrong), render(correct, MECHANICAL_CUES), "cited"
    return make_pair(SPLIT, source, source_id, 0, target_relation="correctness_conflict",
                     gold=gold, task=task, plain=plain, cited=cited, variant=f"{direction}:{source}",
                     artifact=cue_label(MECHANICAL_CUES),
                     meta={**meta, "direction": direction, "domain": source,
                           "correct_side": gold, "cues": sorted(MECHANICAL_CUES)})


def _direction(k: int) -> str:
    return "clear" if k < CLEAR else "reverse"


def _polarity_directions(correct_answers: list[str], clear: int = CLEAR) -> list[str]:
    """Directions for HotpotQA conflicts, ``clear`` of them clear: a yes/no item's direction is set
    so that the cited side says "no" as often as "yes" (else the answer word on the cited side
    is a tell a paired classifier learns), every other item takes the directions left, in order."""
    directions: list[str | None] = [None] * len(correct_answers)
    yes_no = cited_no = 0
    for i, answer in enumerate(correct_answers):
        if answer.lower() in ("yes", "no"):
            want_no = 2 * cited_no <= yes_no
            # clear: the cited side is the wrong one, so it says the flipped answer
            directions[i] = "clear" if (answer.lower() == "yes") == want_no else "reverse"
            yes_no, cited_no = yes_no + 1, cited_no + want_no
    left = ["clear"] * clear + ["reverse"] * (len(correct_answers) - clear)
    for d in directions:
        if d is not None:
            left.remove(d)
    return [d if d is not None else left.pop(0) for d in directions]


def hotpot_conflicts(items: list[HotpotItem], seed: int) -> list[Pair]:
    """The first PER_DOMAIN items (in the given order) that have a wrong answer of the gold's
    type (items whose evidence contradicts their gold answer never reach here: ``pools``)."""
    found: list[tuple[HotpotItem, Any, Any, tuple]] = []
    for item in items:
        wrong = hotpot_wrong_answer(item, rng(seed, SPLIT, item.id))
        if wrong is None:
            continue
        correct = hotpot_candidate(item, rng(seed, "voice", item.id))
        bad = hotpot_candidate(item, rng(seed, "voice", item.id), answer=wrong[0])
        if not is_clean(bad):
            continue
        found.append((item, correct, bad, wrong))
        if len(found) == PER_DOMAIN:
            break
    else:
        raise ValueError(f"only {len(found)} HotpotQA items have a wrong answer of the gold's type")
    directions = _polarity_directions([correct.answer for _, correct, _, _ in found])
    return [_pair("hotpotqa", item.id, direction, item.question, correct, bad,
                  {**hotpot_meta(item), "correct_answer": correct.answer,
                   "wrong_answer": wrong[0], "wrong_answer_kind": wrong[1],
                   "wrong_answer_source": wrong[2],
                   "correct_reasoning": list(correct.reasoning),
                   "wrong_reasoning": list(bad.reasoning)})
            for (item, correct, bad, wrong), direction in zip(found, directions)]


def finqa_conflicts(items: list[FinQAItem], seed: int) -> list[Pair]:
    """The first PER_DOMAIN items (in the given order) with a wrong derivation whose answer has
    the gold answer's type."""
    out: list[Pair] = []
    for item in items:
        wrong = finqa_wrong_answer(item, rng(seed, SPLIT, item.id))
        if wrong is None:
            continue
        correct = finqa_candidate(item, rng(seed, "voice", item.id))
        bad = finqa_candidate(item, rng(seed, "voice", item.id), answer=wrong[0], steps=wrong[3])
        if not is_clean(bad):
            continue
        out.append(_pair("finqa", item.id, _direction(len(out)), finqa_task(item), correct, bad,
                         {"gold_answer": item.answer, "correct_answer": item.answer.strip(),
                          "wrong_answer": wrong[0], "wrong_answer_kind": wrong[1],
                          "wrong_answer_source": wrong[2],
                          "correct_reasoning": list(correct.reasoning),
                          "wrong_reasoning": list(bad.reasoning),
                          "program": item.program, "wrong_program": program_text(wrong[3]),
                          "finqa_file": item.file}))
        if len(out) == PER_DOMAIN:
            return out
    raise ValueError(f"only {len(out)} FinQA items have a wrong figure of the answer's type")


def humaneval_case(problem: HumanEvalProblem, seed: int) -> dict[str, Any] | None:
    """Canonical passes, a one-token mutant fails: the construction facts, or None."""
    lines = [l for l in problem.canonical_solution.splitlines() if l.strip()]
    if len(lines) > MAX_CODE_LINES or not is_clean(humaneval_candidate(problem, problem.canonical_solution)):
        return None
    canonical = run_tests(problem, problem.canonical_solution)
    if not canonical.passed:
        return None
    found = failing_mutant(problem, rng(seed, SPLIT, problem.task_id))
    if found is None:
        return None
    mut, res = found
    if not is_clean(humaneval_candidate(problem, mut.completion)):
        return None
    return {"mutation": mut.describe(), "wrong_completion": mut.completion,
            "canonical_run": canonical.to_dict(), "mutant_run": res.to_dict()}


def humaneval_conflicts(problems: list[HumanEvalProblem], seed: int, workers: int = 4) -> list[Pair]:
    """The first PER_DOMAIN problems (in the given order) with a verified failing mutant."""
    out: list[Pair] = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for start in range(0, len(problems), 16):
            chunk = problems[start:start + 16]
            for problem, case in zip(chunk, pool.map(lambda p: humaneval_case(p, seed), chunk)):
                if case is None:
                    continue
                correct = humaneval_candidate(problem, problem.canonical_solution)
                bad = humaneval_candidate(problem, case["wrong_completion"])
                out.append(_pair("humaneval", problem.task_id, _direction(len(out)),
                                 problem.prompt, correct, bad,
                                 {"entry_point": problem.entry_point,
                                  "gold_answer": problem.canonical_solution,
                                  "correct_answer": correct.answer,
                                  "wrong_answer": bad.answer,
                                  "wrong_answer_kind": "failing_mutant",
                                  "wrong_answer_source": f"one-token mutant of the canonical "
                                                         f"solution ({case['mutation']})",
                                  **{k: v for k, v in case.items() if k != "wrong_completion"}}))
                if len(out) == PER_DOMAIN:
                    return out
    raise ValueError(f"only {len(out)} HumanEval problems have a verified failing mutant")


def conflict(hotpot: list[HotpotItem], finqa: list[FinQAItem], humaneval: list[HumanEvalProblem],
             seed: int) -> list[Pair]:
    """The six cells (domain x clear/reverse) interleaved, one pair of each in turn, so that the
    first N pairs (a default sample, ``--limit N``) cover every cell Table A15 reports."""
    pairs = (hotpot_conflicts(hotpot, seed) + finqa_conflicts(finqa, seed)
             + humaneval_conflicts(humaneval, seed))
    cells: dict[str, list[Pair]] = {}
    for pair in pairs:
        cells.setdefault(pair.variant, []).append(pair)
    longest = max(map(len, cells.values()))
    return [cell[i] for i in range(longest) for cell in cells.values() if i < len(cell)]
