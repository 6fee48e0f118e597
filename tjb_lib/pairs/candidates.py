"""Candidate substance from real records: final answer, gold evidence, reasoning.

HotpotQA: the gold supporting sentences, grouped into hops (one hop per supporting title), and
one reasoning step per hop. FinQA: the gold table/text lines, cleaned of dataset residue, and
one sentence per gold program step saying what its numbers are (``finqa_voice``).
HumanEval: the canonical (or mutated) completion with the docstring's first paragraph as
evidence. Items whose text already contains display syntax are refused (``is_clean``), so a
plain side never carries an artifact.
"""
from __future__ import annotations

import ast
import html
import random
import re

from tjb_lib.data import FinQAItem, FinQAStep, HotpotItem, HumanEvalProblem
from tjb_lib.pairs import capitals, voice
from tjb_lib.pairs.filing import clean_line, figures, period_years, residue
from tjb_lib.pairs.filing_prose import evidence_line, row_sentence, sentence_case
from tjb_lib.pairs.finqa_gold import base_row, gold_problem, money_unit, stated_unit
from tjb_lib.pairs.finqa_voice import (answer_text, arg_text, counted, dollars, op_name, operands,
                                       period_clash, result_text, step_sentences, unit_asked,
                                       unnamed)
from tjb_lib.pairs.closing import close, qualified
from tjb_lib.pairs.finqa_labels import label_problem, reasoning_problem
from tjb_lib.pairs.finqa_units import (mid_sentence_the, period_label, place_measured, rate_unit,
                                       scale_stated, sign_noted, unglued, vocabulary,
                                       question_named, in_millions)
from tjb_lib.pairs.reasoning import (compared_value, comparative, joined,
                                     missing_values, unused_hops)
from tjb_lib.pairs.reasoning import steps as reasoning_steps
from tjb_lib.pairs.render import Candidate, Evidence
from tjb_lib.pairs.standalone import entity_of, short_name, standalone
from tjb_lib.pairs.slips import without_bare_also
from tjb_lib.pairs.strip import detect_artifacts


def is_clean(c: Candidate) -> bool:
    """No display syntax in any part of the substance, and one line per evidence text."""
    parts = [c.answer, *c.reasoning, *(e.text for e in c.evidence), *(e.source for e in c.evidence)]
    return (all(not detect_artifacts(p) for p in parts)
            and all("\n" not in e.text and e.text for e in c.evidence)
            and bool(c.answer.strip()))


# ----------------------------------------------------------------------------- HotpotQA

_STOP = frozenset("a an and the of in on at to for by with from as is was s".split())


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def mentions(text: str, name: str) -> bool:
    """Does ``text`` name ``name``: the whole name, or every content word of a longer name?"""
    words = _tokens(name)
    if not words:
        return False
    have = _tokens(text)
    joined = f" {' '.join(have)} "
    if f" {' '.join(words)} " in joined:
        return True
    content = [w for w in words if w not in _STOP]
    return len(content) >= 2 and set(content) <= set(have)


def hops(item: HotpotItem) -> tuple[str, ...]:
    """Supporting titles in the order the gold supporting facts list them: one hop each."""
    return tuple(dict.fromkeys(t for t, _ in item.supporting_facts))


def hop_sentences(item: HotpotItem, title: str) -> list[str]:
    """A hop's supporting sentences as shown (``standalone``; an unusable one is left out)."""
    out = (standalone(item, t, s) for t, s in dict.fromkeys(item.supporting_facts) if t == title)
    return [s for s in out if s is not None]


def answer_hop(item: HotpotItem) -> str:
    """The hop whose supporting sentences contain the answer (else the last hop)."""
    found = [t for t in hops(item)
             if any(item.answer.lower() in s.lower() for s in hop_sentences(item, t))]
    return found[-1] if found else hops(item)[-1]


def bridge_hop(item: HotpotItem) -> str:
    """The hop a moderate candidate drops: the bridge for bridge questions, the first
    compared entity for comparison questions."""
    hs = hops(item)
    if item.type == "comparison":
        return hs[0]
    return [h for h in hs if h != answer_hop(item)][0]


def usable(item: HotpotItem) -> bool:
    """Every supporting sentence can be shown as a line that stands alone (``standalone``)."""
    return all(sid < len(dict(item.context)[t]) and standalone(item, t, sid) is not None
               for t, sid in item.supporting_facts)


def reasoning_problems(item: HotpotItem) -> list[str]:
    """Why the item's reasoning could not decide its question (empty: it can): a comparison
    whose evidence lacks the compared value of an entity (``reasoning.missing_values``), or a
    hop whose step neither names its entity nor restates its evidence (the link it gives is
    never used: ``reasoning.unused_hops``)."""
    support = {h: hop_sentences(item, h) for h in hops(item)}
    said = reasoning_steps(item, support, hops(item), answer_hop(item), item.answer.strip())
    return ([f"no compared value for {h!r}" for h in missing_values(item, support)]
            + [f"the reasoning never uses {h!r}" for h in unused_hops(item, support, said)]
            + [f"the step of {h!r} ends on an abbreviation and runs into the next"
               for h, step in said.items()
               if re.search(r"\b(?:[A-Z]\.)+[A-Z]$|\b(?:Jr|Sr|Inc|Ltd|Co|Dr|St)\.?$", step)])


def named_kind(item: HotpotItem) -> str | None:
    """The thing the evidence names where the gold answer is only the kind the question itself
    asks for ("What is the international football competition for women that Liu Ailing
    played in ...?" -> "the FIFA Women's World Cup", which "is an international football
    competition"): blind readers stopped at "Answer: international football competition", a
    kind instead of the name; None where the gold answer is a name."""
    kind = item.answer.strip()
    if not re.fullmatch(r"[a-z][a-z' -]*", kind) or f"the {kind}" not in item.question.lower():
        return None
    for h in hops(item):
        for sent in hop_sentences(item, h):
            m = re.match(rf"((?:The )?[A-Z][^,;()]*?) (?:is|was) an? {re.escape(kind)}\b", sent)
            if m:
                return re.sub(r"^The ", "the ", m.group(1))
    return None


def hop_label(item: HotpotItem, title: str) -> str:
    """What a reasoning calls a hop's entity: the name its paragraph uses ("the 2006 Miami
    Hurricanes football team"), or the title where the other hop shares that name
    ("American Beauty (soundtrack)")."""
    names = {h: entity_of(item, h).called(False) or short_name(html.unescape(h))
             for h in hops(item)}
    shared = [h for h in names if h != title and names[h] == names[title]]
    return html.unescape(title) if shared else names[title]


def generic_cores(item: HotpotItem, steps: dict[str, str]) -> list[str]:
    """Each hop's step cut to its core (``voice.core``), in chain order: a bridge hop's to the
    next hop's name, the answer hop's to the answer, a compared entity's to its compared value
    (the comparison's verdict needs both values); the subject called by the hop's short name.
    Where each core keeps its step whole (the question's words run to its end), the cores are cut
    at the link's object alone, so the generic side still says less than the specific one."""
    cores = _cores(item, steps, item.question)
    if all(c == step.rstrip(" .") for c, step in zip(cores, steps.values())):
        return _cores(item, steps, "")
    return cores


def _cores(item: HotpotItem, steps: dict[str, str], question: str) -> list[str]:
    """``generic_cores``, the cut reaching past the last of ``question``'s words each step says;
    a bridge hop's core says the answer where its step does: blind readers of 7 December gave
    the specific side the verdict where the generic one never said "Bishop Carroll is in
    Wichita"."""
    compared = comparative(item, hops(item))
    out = []
    for h, step in steps.items():
        other = next((n for o in hops(item) if o != h
                      for n in (entity_of(item, o).name or short_name(o), short_name(o))
                      if n.lower() in step.lower()), None)
        if compared:
            target = compared_value(step, item.question)
        elif h == answer_hop(item):
            target = item.answer.strip() if mentions(step, item.answer) else None
        else:                        # the answer where the hop says it (not as its own name)
            own = item.answer.strip().lower() in (entity_of(item, h).name or short_name(h)).lower()
            target = item.answer.strip() if mentions(step, item.answer) and not own else other
        out.append(voice.core(step, target, short_name(html.unescape(h)), question))
    return out


def _evidence(item: HotpotItem, title: str, sid: int) -> Evidence:
    text = standalone(item, title, sid)
    if text is None:
        raise ValueError(f"{item.id}: sentence {sid} of {title!r} does not stand alone")
    return Evidence(text=text, source=html.unescape(title), locator=f"sentence {sid}",
                    sid=f"doc{item.paragraph_index(title)}:s{sid}", hop=title)


def hotpot_candidate(item: HotpotItem, r: random.Random | None = None, *,
                     drop_hop: str | None = None, weak: tuple[str, int] | None = None,
                     extra: tuple[str, int] | None = None, reasoning: str = "specific",
                     reverse: bool = False, answer: str | None = None,
                     lead_hop: str | None = None, unnamed: tuple[str, ...] = (),
                     apart: str | None = None) -> Candidate:
    """The full chain, or the chain without one hop.

    ``drop_hop`` removes a hop's sentences and its reasoning step; ``weak`` shows one
    non-supporting sentence of the dropped hop's paragraph in its place (a weakened hop).
    ``extra`` adds a relevant non-supporting sentence after its paragraph's sentences;
    ``reverse`` shows the evidence in reverse order. ``reasoning`` is "specific" (one step per
    hop, in the evidence's words, ``tjb_lib.pairs.reasoning``) or "generic" (each step cut to its
    core clause, ``voice.generic_support``). ``r`` draws the
    phrasings (default: seeded by the item id). ``answer`` replaces the gold answer where the
    candidate states its own answer (the answer line and the conclusion: a conflict's wrong
    side), never inside what it quotes or restates from the evidence. The closing names neither
    ``drop_hop`` nor the hops in ``unnamed`` (those the other side of a pair drops or never
    names, so both sides close alike); ``apart`` is the hop the other side drops, whose
    sentences are joined only among themselves (``reasoning.joined``).
    """
    gold = item.answer.strip().rstrip(",;:").strip()   # "Golden Valley, Minnesota," as given
    ans = (answer or named_kind(item) or gold).strip()
    r = r or random.Random(f"voice:{item.id}")
    spared = tuple(n for h in dict.fromkeys(filter(None, (drop_hop, *unnamed)))
                   for n in sorted({short_name(h), entity_of(item, h).name or short_name(h)}))
    if drop_hop is not None and drop_hop not in hops(item):
        raise ValueError(f"{item.id}: {drop_hop!r} is not a supporting hop")
    facts = [f for f in dict.fromkeys(item.supporting_facts) if f[0] != drop_hop]
    if weak is not None:
        facts.append(weak)
    if extra is not None:
        last = max((i for i, f in enumerate(facts) if f[0] == extra[0]), default=len(facts) - 1)
        facts.insert(last + 1, extra)
    seen: set[tuple[str, ...]] = set()
    ev = []
    for t, s in facts:                       # a sentence two paragraphs share is shown once
        e = _evidence(item, t, s)
        if tuple(_tokens(e.text)) not in seen:
            seen.add(tuple(_tokens(e.text)))
            ev.append(e)
    text = capitals.item_text(item)          # decides a joined word's case (``capitals``)
    ans = qualified(ans, text)               # "Answer: 20" read against "the answer is more than 20"
    if reasoning == "specific":
        support = {h: hop_sentences(item, h) for h in hops(item)}
        order = hops(item)
        if lead_hop is not None:
            order = (lead_hop,) + tuple(h for h in order if h != lead_hop)
        steps = reasoning_steps(item, support, order, answer_hop(item), gold)
        kept = [(k, v) for k, v in steps.items() if k != drop_hop]
        said = [(k, re.sub(r"([^.!?])$", r"\1.", v)) for k, v in kept[:-1]]
        last = capitals.lowered_after_so(close(kept[-1][1], item.question, ans, spared, text), text)
        body = joined(said + [(kept[-1][0], last)],
                      [e.text for e in ev], frozenset(filter(None, (drop_hop, apart))), text, item)
        body = without_bare_also(body)
    elif reasoning == "generic":
        support = {h: hop_sentences(item, h) for h in hops(item)}
        steps = reasoning_steps(item, support, hops(item), answer_hop(item), gold)
        generic = voice.generic_support(r, generic_cores(item, steps), text)
        body = without_bare_also(
            (capitals.lowered_after_so(close(generic, item.question, ans, spared, text), text),))
    else:
        raise ValueError(f"reasoning must be 'specific' or 'generic', not {reasoning!r}")
    if reverse:
        ev.reverse()
    return Candidate(answer=ans, evidence=tuple(ev), reasoning=body)


# ----------------------------------------------------------------------------- FinQA

_ARITH = {"add": lambda a, b: a + b, "minus": lambda a, b: a - b, "subtract": lambda a, b: a - b,
          "multiply": lambda a, b: a * b, "divide": lambda a, b: a / b, "exp": lambda a, b: a ** b}
_COMPARE = ("greater", "compare_larger")
_NUM = re.compile(r"-?\d[\d,]*(?:\.\d+)?|-?\.\d+")


def number(text: str) -> float | None:
    """The number in an operand or a printed result; "25%" is 0.25."""
    m = _NUM.search(text.replace("$", ""))
    if not m:
        return None
    x = float(m.group(0).replace(",", ""))
    return x / 100 if text.strip().endswith("%") else x


def _shows(shown: str, value: float | str) -> bool:
    """Does the printed result ("56%", "7.22", "yes") state ``value``, to within one unit of
    its last printed decimal (records round and truncate; a ratio may print as a percentage)?"""
    shown = shown.strip().lower()
    if isinstance(value, str):
        return shown == value
    m = _NUM.search(shown.replace("$", ""))
    if not m:
        return False
    x = float(m.group(0).replace(",", ""))
    decimals = len(m.group(0).split(".")[1]) if "." in m.group(0) else 0
    tol = 10 ** -decimals * 1.001 + 1e-9
    return any(abs(x - v) <= tol for v in (value, value * 100))


def operand(arg: str, values: list[float | str], steps: tuple[FinQAStep, ...]) -> float | None:
    """An operand's value: an earlier step's recomputed result, a constant or a number."""
    if re.fullmatch(r"#\d+", arg):
        v = values[int(arg[1:])]
        return v if isinstance(v, float) else None
    return number(arg_text(arg, steps))


def step_value(i: int, steps: tuple[FinQAStep, ...], values: list[float | str]) -> float | str:
    """Step i's result from its operands and the earlier results ``values`` ("yes"/"no" for a
    comparison); raises ValueError when it cannot be computed."""
    st = steps[i]
    op = op_name(st)
    if op not in _ARITH and op not in _COMPARE:
        raise ValueError(f"a table operation ({op}), not recomputable from its operands")
    a, b = (operand(x, values, steps) for x in (st.arg1, st.arg2))
    if a is None or b is None:
        raise ValueError("a non-numeric operand")
    if op in _COMPARE:
        return "yes" if a > b else "no"
    try:
        result = _ARITH[op](a, b)
    except (ZeroDivisionError, OverflowError):
        raise ValueError("a step that cannot be computed") from None
    if isinstance(result, complex):                 # a negative base to a fractional power
        raise ValueError("a step that cannot be computed")
    return float(result)


def evaluate(steps: tuple[FinQAStep, ...]) -> list[float | str]:
    """Every step's result recomputed from its operands; raises ValueError naming the step that
    cannot be recomputed or does not reproduce its printed result."""
    values: list[float | str] = []
    for i, st in enumerate(steps):
        value = step_value(i, steps, values)
        if not _shows(st.res, value):
            raise ValueError("the program does not reproduce a printed result")
        values.append(value)
    return values


def finqa_check(item: FinQAItem) -> str | None:
    """Why a FinQA record cannot be used (None: usable).

    The sanity filter every FinQA split applies: the answer is the last step's result, the
    program recomputed from its operands reproduces every printed step result (so the answer
    too), every gold line is free of dataset residue once cleaned and of display syntax, and
    the program reads as a sound answer to its question (``finqa_gold``). A record whose
    program does not reproduce its own answer is never used.
    """
    if not item.steps or not item.gold_inds or not item.answer.strip():
        return "no program, gold lines or answer"
    if item.answer.strip() != item.steps[-1].res.strip():
        return "answer is not the last program step's result"
    try:
        values = evaluate(item.steps)
    except ValueError as e:
        return str(e)
    if any(residue(clean_line(text)) for _, text in item.gold_inds):
        return "dataset residue in a gold line"
    if any(k.startswith("table") for k, _ in item.gold_inds) and not item.table:
        return "the printed table does not line up with its linearisation"
    unwritten = [k for n, (k, t) in enumerate(item.gold_inds)
                 if n in used_lines(item) and evidence_line(k, t, item.table, ticker(item)) is None]
    if any(k.startswith("table") for k in unwritten):
        return "a table row whose headers do not name its cells"
    if unwritten:
        return "a filing sentence that leans on one before it"
    if unnamed(item.steps, figures(item.gold_inds, item.table)):
        return "a figure the gold lines do not name"
    year = year_problem(item)
    if year:
        return year
    gold = gold_problem(item, values)
    if gold:
        return gold
    drafted = finqa_candidate(item)
    if not is_clean(drafted):
        return "display syntax in a gold line"
    return label_problem(item) or reasoning_problem(" ".join(drafted.reasoning))


def question_years(question: str) -> set[int]:
    """The years a question asks about ("2012", "12/31/2016")."""
    return period_years(question) | period_years(" ".join(re.findall(r"\d\d?/\d\d?/\d\d\b",
                                                                     question)))


def year_problem(item: FinQAItem) -> str | None:
    """Where the question and the program disagree on the year: the latest year a program
    operand belongs to is not the latest year the question asks about (a 2012-on-2011
    question answered by dividing 2011 by 2010, a 2018 question answered from 2016 figures),
    or a question over two years draws on an earlier year than its first. None: they agree, or
    either says no year."""
    asked = question_years(item.question)
    figs = figures(item.gold_inds, item.table)
    read = [o.figure for i in range(len(item.steps)) for o in operands(i, item.steps, figs)
            if o.figure is not None]
    used = {y for f in read for y in f.years}
    quarters = {q for o in read for q in _quarters(" ".join(filter(None, (o.row, o.col))))}
    if _quarters(item.question) and quarters - _quarters(item.question):
        return "the question and the program disagree on the quarter"
    if period_clash(item.steps, figs):
        return "the program sets figures of different years against each other"
    if not asked or not used:
        return None
    if max(used) != max(asked):
        return "the question and the program disagree on the year"
    if len(asked) >= 2 and min(used) < min(asked):
        return "the question and the program disagree on the year"
    return None


def _quarters(text: str) -> set[int]:
    """The quarters a text names ("4th quarter", "fourth quarter", "Q4", "4th Qtr")."""
    words = {"first": 1, "second": 2, "third": 3, "fourth": 4}
    out = {int(m) for m in re.findall(r"\b([1-4])(?:st|nd|rd|th)\s(?:quarter|qtr)", text, re.I)}
    out |= {int(m) for m in re.findall(r"\bq([1-4])\b", text, re.I)}
    out |= {words[m.lower()] for m in re.findall(r"\b(first|second|third|fourth)\squarter",
                                                  text, re.I)}
    return out


def ticker(item: FinQAItem) -> str:
    return item.filename.split("/")[0]


def filing_title(item: FinQAItem) -> str:
    """"HWM/2015/page_173.pdf" -> "HWM 2015 annual report, page 173"."""
    m = re.fullmatch(r"([^/]+)/(\d{4})/page_(\d+)\.pdf", item.filename)
    if not m:
        return item.filename
    return f"{m.group(1)} {m.group(2)} annual report, page {m.group(3)}"


def used_lines(item: FinQAItem) -> set[int]:
    """The gold lines that hold a figure the program reads (the others only surround it)."""
    figs = figures(item.gold_inds, item.table)
    return {o.figure.line for i in range(len(item.steps))
            for o in operands(i, item.steps, figs) if o.figure is not None}


def finqa_evidence(item: FinQAItem) -> tuple[Evidence, ...]:
    """The gold lines the program reads, each as an analyst writes it (``evidence_line``)."""
    out = []
    used = used_lines(item) or set(range(len(item.gold_inds)))
    for n, (key, text) in enumerate(item.gold_inds):
        if n not in used:
            continue
        kind, _, idx = key.partition("_")
        loc = f"table row {idx}" if kind == "table" else f"text line {idx}"
        said = mid_sentence_the(evidence_line(key, text, item.table, ticker(item))
                                or clean_line(text))
        said = unglued(said, vocabulary(item.table, [t for _, t in item.gold_inds]))
        out.append(Evidence(text=said, source=filing_title(item), locator=loc,
                            sid=f"{kind}:{idx}"))
    base = base_row(item)
    if base is not None and f"table:{base}" not in {e.sid for e in out}:
        said = row_sentence(item.table, base)
        said = said and mid_sentence_the(said)
        if said:                                     # the index starts at 100 where it says so
            out.insert(0, Evidence(text=said, source=filing_title(item),
                                   locator=f"table row {base}", sid=f"table:{base}"))
    return tuple(out)


def finqa_steps(item: FinQAItem, r: random.Random, lines: list[str],
                steps: tuple[FinQAStep, ...] | None = None,
                omit: frozenset[int] = frozenset()) -> tuple[str, ...]:
    """One sentence per step of ``steps`` (default: the gold program) not in ``omit``, saying
    what its numbers are; the phrasings are drawn by ``r`` in step order, one draw per step.
    ``lines``: the candidate's evidence texts (``finqa_evidence``), which say a figure's sign."""
    figs = question_named(place_measured(figures(item.gold_inds, item.table), item.question),
                          asked(item))
    words = vocabulary(item.table, [t for _, t in item.gold_inds])
    return tuple(unglued(sign_noted(in_millions(period_label(mid_sentence_the(s)), item.question),
                                    lines, figs), words)
                 for s in step_sentences(steps or item.steps, figs, r, frozenset(omit)))


def finqa_candidate(item: FinQAItem, r: random.Random | None = None,
                    omit: frozenset[int] | set[int] = frozenset(),
                    answer: str | None = None,
                    steps: tuple[FinQAStep, ...] | None = None) -> Candidate:
    """Answer ``answer`` (default: the gold answer) with the unit its question asks for,
    cleaned gold lines and one sentence per program step (those in ``omit`` left out), the
    last one ending on the result: no closing line, which reads as a template. ``steps``
    replaces the gold program (a conflict's wrong derivation); every phrasing is drawn before
    anything is left out, so both sides of a pair share them."""
    r = r or random.Random(f"voice:{item.id}")
    program = steps or item.steps
    last = op_name(program[-1]) if program else ""
    ans = (answer or item.answer).strip()
    if program and ans == program[-1].res.strip():   # as the last step prints it ("3.6%")
        ans = result_text(len(program) - 1, program)
    ans = counted(item.question, rate_unit(item.question, dollars(
        item.question, with_unit(item, answer_text(item.question, ans, last)))),
        count_scale(item, program))
    evidence = finqa_evidence(item)
    lines = [e.text for e in evidence]
    kept = scale_stated(finqa_steps(item, r, lines, steps, frozenset(omit)), ans, lines,
                        unit_asked(item.question))
    return Candidate(answer=ans, evidence=evidence, reasoning=kept)


def count_scale(item: FinQAItem, program: tuple[FinQAStep, ...]) -> str:
    """The scale every figure a program reads carries ("million" for "1.4 million shares"),
    or "" where they carry none or differ."""
    figs = figures(item.gold_inds, item.table)
    read = {o.figure.scale for i in range(len(program)) for o in operands(i, program, figs)
            if o.figure is not None}
    return read.pop() if len(read) == 1 else ""


def with_unit(item: FinQAItem, answer: str) -> str:
    """An answer that is a sum or difference of money with the unit its figures state ("$498
    million"), where it carries none ("498")."""
    unit = money_unit(item)
    if unit is None or not re.fullmatch(r"-?[\d,.]+", answer):
        return answer
    if unit == "$":
        return f"-${answer[1:]}" if answer.startswith("-") else f"${answer}"
    word = unit.removeprefix("$ ")
    if unit.startswith("$"):
        return f"-${answer[1:]} {word}" if answer.startswith("-") else f"${answer} {word}"
    return f"{answer} {word}"


def asked(item: FinQAItem) -> str:
    """The question as the task prints it: cased, names kept ("European cruise guests")."""
    return sentence_case(clean_line(re.sub(r"\s*(?:\\+n\s*)+", " ", item.question)),
                         ticker(item)).rstrip(" ?.,")     # a literal "\n" left in FinQA


def finqa_task(item: FinQAItem) -> str:
    lines = "\n".join(f"- {e.text}" for e in finqa_evidence(item))
    return f"{asked(item)}?\n\nFrom {filing_title(item)}:\n{lines}"


# ----------------------------------------------------------------------------- HumanEval

def docstring_lead(problem: HumanEvalProblem) -> str | None:
    """The first paragraph of the entry point's docstring, on one line (None if absent)."""
    try:
        tree = ast.parse(problem.prompt)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == problem.entry_point:
            doc = ast.get_docstring(node)
            if not doc:
                return None
            lead = doc.strip().split("\n\n")[0]
            lead = lead.split(">>>")[0]
            text = " ".join(lead.split())
            return text or None
    return None


def code_text(completion: str) -> str:
    """A completion as shown: trailing spaces and leading/trailing blank lines removed (the
    stripper normalises those too, so the shown code is what both sides agree on)."""
    return "\n".join(line.rstrip() for line in completion.splitlines()).strip("\n")


def humaneval_candidate(problem: HumanEvalProblem, completion: str) -> Candidate:
    completion = code_text(completion)
    lead = docstring_lead(problem) or ""
    ev = (Evidence(text=lead, source=f"{problem.task_id} docstring", locator="line 1",
                   sid="doc:l1"),) if lead else ()
    return Candidate(answer=completion, evidence=ev, code=True)
