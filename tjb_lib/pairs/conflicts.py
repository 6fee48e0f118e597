"""Correctness conflicts: one side's final answer is wrong, everything else is the same.

50 pairs per domain (HotpotQA multi-hop, FinQA numeric, HumanEval short code), 25 clear (plain
correct, cited wrong under the citation display: gold plain) and 25 reverse (cited correct,
plain wrong: gold cited). The wrong answer has the gold answer's type, so the conflict is not
won by type alone: yes/no flipped, the other option of a comparison, a date of the same form,
a year, a number with the same unit, an entity of the same kind (a person for a person) from
another paragraph; for FinQA a wrong figure of the same unit and scale (never the answer in
another unit); for HumanEval a one-token mutant of the canonical solution that fails the
problem's own tests when run in a subprocess. The wrong side states its wrong answer wherever
the correct side states the right one; evidence and everything else are shared.
"""
from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tjb_lib.data import FinQAItem, HotpotItem, HumanEvalProblem
from tjb_lib.pairs.candidates import (finqa_candidate, finqa_task, hops,
                                      hotpot_candidate, humaneval_candidate, is_clean, number,
                                      op_name, operand, program_values, short_name)
from tjb_lib.pairs.common import cue_label, hotpot_meta, make_pair, rng
from tjb_lib.pairs.execute import failing_mutant, run_tests
from tjb_lib.pairs.render import MECHANICAL_CUES, Candidate, render
from tjb_lib.records import Pair

SPLIT = "conflict"
PER_DOMAIN = 50
CLEAR = 25
MAX_CODE_LINES = 12

_MONTHS = ("January February March April May June July August September October November "
           "December").split()
_MONTH = "(?:%s)" % "|".join(_MONTHS)
_DATE_FORMS = (re.compile(rf"{_MONTH} \d{{1,2}}, \d{{4}}"), re.compile(rf"\d{{1,2}} {_MONTH} \d{{4}}"),
               re.compile(rf"{_MONTH} \d{{4}}"))
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_QUANTITY = re.compile(r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(\s+[a-z][a-z ]*)?")
_PERSON = re.compile(r"\((?:[^()]*?\b)?(?:born|b\.)\s|\(\s*(?:c\.\s*)?(?:\d{1,2}\s+)?(?:%s\s+)?"
                     r"(?:\d{1,2},\s+)?\d{3,4}\s*[–-]" % _MONTH)
_KIND = re.compile(r"\b(?:is|was|are|were)\s+(?:an?|the)\s+([^,.;()]+)")
_KIND_CUT = re.compile(r"\s+(?:of|in|from|that|which|who|whose|located|based|by|for|on|at|with|"
                       r"formed|founded|directed|written|produced|released|created|known|named|"
                       r"owned|and|to|starring|developed|published|set|where)\b.*")


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def entity_kind(first_sentence: str) -> str | None:
    """"person", or the head noun of "X is a <...> noun" in a paragraph's first sentence."""
    if _PERSON.search(first_sentence):
        return "person"
    m = _KIND.search(first_sentence)
    if not m:
        return None
    phrase = _KIND_CUT.sub("", m.group(1)).split()
    return phrase[-1].lower() if phrase else None


def _paragraph_kinds(item: HotpotItem) -> dict[str, str | None]:
    return {t: entity_kind(sents[0]) if sents else None for t, sents in item.context}


def _compared_options(item: HotpotItem) -> list[str]:
    """The two options of "…, X or Y?" in a comparison question."""
    m = re.search(r"(?:,|:|\bfirst|\bolder|\byounger)?\s*([^,:?]+?)\s+or\s+([^,?]+?)\s*\?\s*$",
                  item.question)
    return [o.strip() for o in m.groups()] if m else []


def _same_option(a: str, b: str) -> bool:
    x, y = set(_norm(a).split()) - {"the"}, set(_norm(b).split()) - {"the"}
    return bool(x) and bool(y) and (x <= y or y <= x)


def hotpot_wrong_answer(item: HotpotItem, r: random.Random) -> tuple[str, str, str] | None:
    """(wrong answer, kind, where it came from) of the gold answer's own type, or None.

    yes/no flipped; the other option of a comparison; a date of the same form, a year, a
    number with the same unit; an entity of the same kind (a person for a person, a film for a
    film) from another paragraph. None when the type is unknown: the item is not used.
    """
    ans = item.answer.strip()
    low = ans.lower()
    if low in ("yes", "no"):
        return ("no" if low == "yes" else "yes"), "yes_no", "yes/no polarity flipped"
    gold_titles = set(hops(item))
    others = [(t, s) for t, s in item.context if t not in gold_titles]
    if item.type == "comparison":
        options = _compared_options(item) or [short_name(h) for h in hops(item)]
        if any(_same_option(o, ans) for o in options):
            other = [o for o in options if not _same_option(o, ans)]
            if len(other) == 1:
                return other[0], "compared_entity", "the other option of the comparison"
        return None
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
    own = [t for t in kinds if _norm(short_name(t)) == _norm(ans)]
    kind = kinds[own[0]] if own else None
    if kind is None:
        return None
    pool = sorted(short_name(t) for t, _ in others if kinds[t] == kind
                  and _norm(short_name(t)) != _norm(ans)
                  and _norm(short_name(t)) not in _norm(ans) and _norm(ans) not in _norm(short_name(t)))
    if not pool:
        return None
    name = r.choice(pool)
    return name, f"entity:{kind}", f"another {kind} among the item's paragraphs"


def _printed(value: float, like: str) -> str:
    """``value`` printed like the answer ``like``: its decimals, thousands commas and % sign."""
    m = re.search(r"-?\d[\d,]*(?:\.(\d+))?", like)
    decimals = len(m.group(1)) if m and m.group(1) else 0
    text = f"{value:,.{decimals}f}" if m and "," in m.group(0) else f"{value:.{decimals}f}"
    return text + ("%" if like.strip().endswith("%") else "")


def finqa_wrong_answer(item: FinQAItem, r: random.Random) -> tuple[str, str, str] | None:
    """(wrong answer, kind, where it came from): a wrong figure of the answer's unit and scale.

    Candidates, in order: an intermediate result of the program, the last operation with its
    operands swapped, and a nearby figure. A candidate is printed like the answer and kept
    only when it is not the answer in another unit or sign (x 100, x 1000, their inverses,
    negation) and is within a factor of five of it.
    """
    ans = item.answer.strip()
    if ans.lower() in ("yes", "no"):
        return ("no" if ans.lower() == "yes" else "yes"), "yes_no", "yes/no polarity flipped"
    values = program_values(item)
    gold, shown = values[-1], number(ans)
    if not isinstance(gold, float) or shown is None or gold == 0:
        return None
    shown = shown * 100 if ans.endswith("%") else shown     # number() reads "56%" as 0.56
    scale = 100.0 if abs(shown - gold * 100) < abs(shown - gold) else 1.0
    candidates: list[tuple[float, str, str]] = []
    for i in range(len(values) - 2, -1, -1):
        if isinstance(values[i], float):
            candidates.append((values[i], "intermediate_step", f"the result of program step {i + 1}"))
    last = item.steps[-1]
    if op_name(last) in ("divide", "minus", "subtract"):
        a, b = (operand(x, values, item.steps) for x in (last.arg1, last.arg2))
        if a is not None and b is not None and a != 0:
            swapped = b / a if op_name(last) == "divide" else b - a
            candidates.append((swapped, "swapped_operands", "the last operation with its "
                               "operands swapped"))
    delta = r.choice((-0.45, -0.35, -0.25, 0.25, 0.35, 0.45))
    candidates.append((gold * (1 + delta), "nearby_figure", f"the answer off by {delta:+.0%}"))
    for value, kind, source in candidates:
        text = _printed(value * scale, ans)
        w, g = number(text), number(ans)
        if not w or _norm(text) == _norm(ans) or (w > 0) != (g > 0):
            continue
        ratio = abs(w / g)
        if 0.2 <= ratio <= 5 and all(abs(ratio - k) > 0.01 * k
                                     for k in (1, 100, 0.01, 1000, 0.001)):
            return text, kind, source
    return None


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


def hotpot_conflicts(items: list[HotpotItem], seed: int) -> list[Pair]:
    """The first PER_DOMAIN items (in the given order) with a wrong answer of the gold's type."""
    out: list[Pair] = []
    for item in items:
        wrong = hotpot_wrong_answer(item, rng(seed, SPLIT, item.id))
        if wrong is None:
            continue
        correct = hotpot_candidate(item, rng(seed, "voice", item.id))
        bad = hotpot_candidate(item, rng(seed, "voice", item.id), answer=wrong[0])
        if not is_clean(bad):
            continue
        out.append(_pair("hotpotqa", item.id, _direction(len(out)), item.question, correct, bad,
                         {**hotpot_meta(item), "correct_answer": correct.answer,
                          "wrong_answer": wrong[0], "wrong_answer_kind": wrong[1],
                          "wrong_answer_source": wrong[2],
                          "correct_reasoning": list(correct.reasoning),
                          "wrong_reasoning": list(bad.reasoning)}))
        if len(out) == PER_DOMAIN:
            return out
    raise ValueError(f"only {len(out)} HotpotQA items have a wrong answer of the gold's type")


def finqa_conflicts(items: list[FinQAItem], seed: int) -> list[Pair]:
    """The first PER_DOMAIN items (in the given order) with a wrong figure of the answer's
    unit and scale."""
    out: list[Pair] = []
    for item in items:
        wrong = finqa_wrong_answer(item, rng(seed, SPLIT, item.id))
        if wrong is None:
            continue
        correct = finqa_candidate(item, rng(seed, "voice", item.id))
        bad = finqa_candidate(item, rng(seed, "voice", item.id), answer=wrong[0])
        if not is_clean(bad):
            continue
        out.append(_pair("finqa", item.id, _direction(len(out)), finqa_task(item), correct, bad,
                         {"gold_answer": item.answer, "correct_answer": correct.answer,
                          "wrong_answer": wrong[0], "wrong_answer_kind": wrong[1],
                          "wrong_answer_source": wrong[2],
                          "correct_reasoning": list(correct.reasoning),
                          "wrong_reasoning": list(bad.reasoning),
                          "program": item.program, "finqa_file": item.file}))
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
