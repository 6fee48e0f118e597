"""Candidate substance from real records: final answer, gold evidence, reasoning.

HotpotQA: the gold supporting sentences, grouped into hops (one hop per supporting title), and
one reasoning step per hop. FinQA: the gold table/text lines and the gold program steps.
HumanEval: the canonical (or mutated) completion with the docstring's first paragraph as
evidence. Items whose text already contains display syntax are refused (``is_clean``), so a
plain side never carries an artifact.
"""
from __future__ import annotations

import ast
import re

from tjb_lib.data import FinQAItem, FinQAStep, HotpotItem, HumanEvalProblem
from tjb_lib.pairs.render import Candidate, Evidence
from tjb_lib.pairs.strip import detect_artifacts

GENERIC_REASONING = ("Together, these facts support the answer.",)


def is_clean(c: Candidate) -> bool:
    """No display syntax in any part of the substance, and one line per evidence text."""
    parts = [c.answer, *c.reasoning, *(e.text for e in c.evidence), *(e.source for e in c.evidence)]
    return (all(not detect_artifacts(p) for p in parts)
            and all("\n" not in e.text and e.text for e in c.evidence)
            and bool(c.answer.strip()))


# ----------------------------------------------------------------------------- HotpotQA

def short_name(title: str) -> str:
    """A Wikipedia title without its disambiguation: "Kiss and Tell (1945 film)" -> "Kiss and Tell"."""
    return re.sub(r"\s*\([^()]*\)$", "", title).strip() or title


def hops(item: HotpotItem) -> tuple[str, ...]:
    """Supporting titles in the order the gold supporting facts list them: one hop each."""
    return tuple(dict.fromkeys(t for t, _ in item.supporting_facts))


def answer_hop(item: HotpotItem) -> str:
    """The hop whose supporting sentences contain the answer (else the last hop)."""
    found = [t for t in hops(item)
             if any(item.answer.lower() in item.sentence(t, s).lower()
                    for tt, s in item.supporting_facts if tt == t)]
    return found[-1] if found else hops(item)[-1]


def bridge_hop(item: HotpotItem) -> str:
    """The hop a moderate candidate drops: the bridge for bridge questions, the first
    compared entity for comparison questions."""
    hs = hops(item)
    if item.type == "comparison":
        return hs[0]
    other = [h for h in hs if h != answer_hop(item)]
    return other[0]


def hotpot_steps(item: HotpotItem) -> dict[str, str]:
    """One specific reasoning step per hop (plus a closing step for comparisons, key "")."""
    hs = hops(item)
    steps: dict[str, str] = {}
    if item.type == "comparison":
        for h in hs:
            steps[h] = f"The evidence on {short_name(h)} gives its side of the comparison."
        steps[""] = "Comparing the two sides answers the question."
        return steps
    ans = answer_hop(item)
    for h in hs:
        if h == ans:
            continue
        text = " ".join(item.sentence(t, s) for t, s in item.supporting_facts if t == h)
        if short_name(ans).lower() in text.lower():
            steps[h] = (f"The question points to {short_name(h)}, and its evidence names "
                        f"{short_name(ans)}.")
        else:
            steps[h] = f"The evidence on {short_name(h)} identifies the entity the question describes."
    steps[ans] = f"The evidence on {short_name(ans)} then gives the requested detail."
    return steps


def hotpot_candidate(item: HotpotItem, drop_hop: str | None = None,
                     reasoning: str = "specific") -> Candidate:
    """The full chain, or the chain without one hop (its sentences and its step)."""
    if drop_hop is not None and drop_hop not in hops(item):
        raise ValueError(f"{item.id}: {drop_hop!r} is not a supporting hop")
    ev = tuple(Evidence(text=item.sentence(t, s), source=t, locator=f"sentence {s}",
                        sid=f"doc{item.paragraph_index(t)}:s{s}", hop=t)
               for t, s in dict.fromkeys(item.supporting_facts) if t != drop_hop)
    if reasoning == "specific":
        steps = tuple(v for k, v in hotpot_steps(item).items() if k != drop_hop or k == "")
    elif reasoning == "generic":
        steps = GENERIC_REASONING
    else:
        raise ValueError(f"reasoning must be 'specific' or 'generic', not {reasoning!r}")
    return Candidate(answer=item.answer.strip(), evidence=ev, reasoning=steps)


# ----------------------------------------------------------------------------- FinQA

_OPS = {"add": "{a} + {b} = {r}", "minus": "{a} - {b} = {r}", "subtract": "{a} - {b} = {r}",
        "multiply": "{a} × {b} = {r}", "divide": "{a} / {b} = {r}", "exp": "{a} ^ {b} = {r}",
        "greater": "is {a} greater than {b}? {r}", "compare_larger": "is {a} greater than {b}? {r}",
        "sum": "the sum of the row {a} is {r}", "table_sum": "the sum of the row {a} is {r}",
        "average": "the average of the row {a} is {r}", "table_average": "the average of the row {a} is {r}",
        "max": "the largest value in the row {a} is {r}", "table_max": "the largest value in the row {a} is {r}",
        "min": "the smallest value in the row {a} is {r}", "table_min": "the smallest value in the row {a} is {r}"}


def op_name(step: FinQAStep) -> str:
    m = re.match(r"([a-z_]+?)(?:\d+-\d+)?$", step.op)
    return m.group(1) if m else step.op


def _arg(arg: str, steps: tuple[FinQAStep, ...]) -> str:
    if re.fullmatch(r"#\d+", arg):
        return steps[int(arg[1:])].res
    if arg.startswith("const_"):
        return arg[len("const_"):].replace("m", "-")
    return arg


def finqa_step_text(i: int, steps: tuple[FinQAStep, ...]) -> str:
    st = steps[i]
    template = _OPS.get(op_name(st), st.op + "({a}, {b}) = {r}")
    return template.format(a=_arg(st.arg1, steps), b=_arg(st.arg2, steps), r=st.res)


def filing_title(item: FinQAItem) -> str:
    """"HWM/2015/page_173.pdf" -> "HWM 2015 annual report, page 173"."""
    m = re.fullmatch(r"([^/]+)/(\d{4})/page_(\d+)\.pdf", item.filename)
    if not m:
        return item.filename
    return f"{m.group(1)} {m.group(2)} annual report, page {m.group(3)}"


def finqa_evidence(item: FinQAItem) -> tuple[Evidence, ...]:
    out = []
    for key, text in item.gold_inds:
        kind, _, idx = key.partition("_")
        loc = f"table row {idx}" if kind == "table" else f"text line {idx}"
        out.append(Evidence(text=text.strip(), source=filing_title(item), locator=loc,
                            sid=f"{kind}:{idx}"))
    return tuple(out)


def finqa_candidate(item: FinQAItem, skip_step: int | None = None) -> Candidate:
    """Answer, gold lines, and the gold program as numbered steps (optionally one step skipped)."""
    keep = [i for i in range(len(item.steps)) if i != skip_step]
    steps = tuple(f"Step {n}: {finqa_step_text(i, item.steps)}."
                  for n, i in enumerate(keep, start=1))
    return Candidate(answer=item.answer.strip(), evidence=finqa_evidence(item), reasoning=steps)


def finqa_task(item: FinQAItem) -> str:
    lines = "\n".join(f"- {t.strip()}" for _, t in item.gold_inds)
    return f"{item.question}\n\nFrom {filing_title(item)}:\n{lines}"


def finqa_usable(item: FinQAItem) -> bool:
    """Gold answer equals the last program step's result, and every line is clean."""
    return (bool(item.steps) and bool(item.gold_inds) and item.answer.strip() != ""
            and item.answer.strip() == item.steps[-1].res.strip()
            and is_clean(finqa_candidate(item)))


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
    return Candidate(answer=completion, evidence=ev, code=True,
                     reasoning=(f"The completion implements {problem.entry_point} as its docstring "
                                f"describes.",))
