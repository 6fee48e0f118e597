"""Correctness conflicts: one side's final answer is wrong, everything else is the same.

50 pairs per domain (HotpotQA multi-hop, FinQA numeric, HumanEval short code), 25 clear (plain
correct, cited wrong under the citation display: gold plain) and 25 reverse (cited correct,
plain wrong: gold cited). The wrong answers are plausible: a HotpotQA distractor of the same
kind (flipped yes/no, the other compared entity, a year or number or title from a distractor
paragraph), the result of an intermediate FinQA program step, or a one-token mutant of the
HumanEval canonical solution that fails the problem's own tests when run in a subprocess.
"""
from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tjb_lib.data import FinQAItem, HotpotItem, HumanEvalProblem
from tjb_lib.pairs.candidates import (finqa_candidate, finqa_task, hops, hotpot_candidate,
                                      humaneval_candidate, is_clean, op_name, short_name)
from tjb_lib.pairs.common import cue_label, hotpot_meta, make_pair, rng
from tjb_lib.pairs.execute import failing_mutant, run_tests
from tjb_lib.pairs.render import MECHANICAL_CUES, Candidate, render
from tjb_lib.records import Pair

SPLIT = "conflict"
PER_DOMAIN = 50
CLEAR = 25
MAX_CODE_LINES = 12

_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_NUMBER = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")


# ----------------------------------------------------------------------------- wrong answers

def hotpot_wrong_answer(item: HotpotItem, r: random.Random) -> tuple[str, str, str] | None:
    """(wrong answer, kind, where it came from), or None when no plausible one exists."""
    ans = item.answer.strip()
    low = ans.lower()
    if low in ("yes", "no"):
        return ("no" if low == "yes" else "yes"), "yes_no", "yes/no polarity flipped"
    gold_titles = set(hops(item))
    if item.type == "comparison":
        names = {short_name(h): h for h in hops(item)}
        for name, title in names.items():
            if name.lower() == low or title.lower() == low:
                other = [n for n in names if n != name]
                if other:
                    return other[0], "compared_entity", f"the other compared entity ({other[0]})"
    distractors = [(t, s) for t, s in item.context if t not in gold_titles]
    if _YEAR.fullmatch(ans):
        pool = sorted({(y, t) for t, sents in distractors for sent in sents
                       for y in _YEAR.findall(sent) if y != ans})
        if pool:
            y, t = r.choice(pool)
            return y, "year", f"a year from the distractor paragraph “{t}”"
    if _NUMBER.fullmatch(ans):
        pool = sorted({(n, t) for t, sents in distractors for sent in sents
                       for n in _NUMBER.findall(sent)
                       if n != ans and not _YEAR.fullmatch(n) and n.count(".") == ans.count(".")})
        if pool:
            n, t = r.choice(pool)
            return n, "number", f"a number from the distractor paragraph “{t}”"
    names = [(short_name(t), t) for t, _ in distractors]
    names = [(n, t) for n, t in names if n.lower() not in low and low not in n.lower() and n]
    if not names:
        return None
    # Closest in shape: the fewest words of difference from the answer.
    gap = min(abs(len(n.split()) - len(ans.split())) for n, _ in names)
    pool = sorted((n, t) for n, t in names if abs(len(n.split()) - len(ans.split())) == gap)
    n, t = r.choice(pool)
    kind = "entity_same_length" if gap == 0 else "entity"
    return n, kind, f"the title of the distractor paragraph “{t}”"


def finqa_wrong_answer(item: FinQAItem) -> tuple[str, int] | None:
    """The result of the last intermediate program step that differs from the answer."""
    for i in range(len(item.steps) - 2, -1, -1):
        res = item.steps[i].res.strip()
        if res and res != item.answer.strip():
            return res, i
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
    """The first PER_DOMAIN items (in the given order) that have a plausible wrong answer."""
    out: list[Pair] = []
    for item in items:
        wrong = hotpot_wrong_answer(item, rng(seed, SPLIT, item.id))
        if wrong is None:
            continue
        correct = hotpot_candidate(item)
        bad = correct.with_answer(wrong[0])
        if not is_clean(bad):
            continue
        out.append(_pair("hotpotqa", item.id, _direction(len(out)), item.question, correct, bad,
                         {**hotpot_meta(item), "correct_answer": correct.answer,
                          "wrong_answer": wrong[0], "wrong_answer_kind": wrong[1],
                          "wrong_answer_source": wrong[2]}))
        if len(out) == PER_DOMAIN:
            return out
    raise ValueError(f"only {len(out)} HotpotQA items have a plausible wrong answer")


def finqa_conflicts(items: list[FinQAItem]) -> list[Pair]:
    out: list[Pair] = []
    for item in items:
        wrong = finqa_wrong_answer(item)
        if wrong is None:
            continue
        correct = finqa_candidate(item)
        bad = correct.with_answer(wrong[0])
        if not is_clean(bad):
            continue
        step = item.steps[wrong[1]]
        out.append(_pair("finqa", item.id, _direction(len(out)), finqa_task(item), correct, bad,
                         {"gold_answer": item.answer, "correct_answer": correct.answer,
                          "wrong_answer": wrong[0], "wrong_answer_kind": "intermediate_step",
                          "wrong_answer_source": f"result of program step {wrong[1] + 1} "
                                                 f"({op_name(step)})",
                          "program": item.program, "finqa_file": item.file}))
        if len(out) == PER_DOMAIN:
            return out
    raise ValueError(f"only {len(out)} FinQA items have an intermediate-step wrong answer")


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
    return (hotpot_conflicts(hotpot, seed) + finqa_conflicts(finqa)
            + humaneval_conflicts(humaneval, seed))
