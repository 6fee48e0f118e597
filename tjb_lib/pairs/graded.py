"""Graded quality tiers: soft (a boundary gap) and moderate (one necessary step missing).

soft_hotpotqa: same answer and every gold support on both sides; the plain side's reasoning
names each hop and link, the cited side's reasoning is generic support drawn from a pool of
phrasings (target quality_soft, gold Tie: the human boundary).
moderate_hotpotqa: plain has the full chain; the cited side has the display but omits one
*necessary* hop: the bridge of a bridge question, or one compared entity of a comparison.
Half of the bridge omissions (seeded) weaken the hop instead: the cited side shows another
sentence of the bridge paragraph that does not carry the link. ``necessity_problems`` is the
rule every pair passes (items that fail are not used): the kept evidence never names the
omitted entity, a bridge question does not name the kept hop's entity itself, the kept
evidence states the answer, and a weakening sentence names neither the kept entity nor the
answer (target quality_moderate, gold plain).
moderate_finqa: same answer and the same gold lines; the cited side leaves out the step that
computes the denominator, divides by the base quantity, or converts units, and every later
step that would show its result, so it goes from the inputs to the final figure
(target quality_moderate, gold plain).
"""
from __future__ import annotations

from tjb_lib.data import FinQAItem, HotpotItem
from tjb_lib.pairs.candidates import (answer_hop, bridge_hop, depends_on, finqa_candidate,
                                      finqa_step_text, finqa_task, hop_sentences, hops,
                                      hotpot_candidate, mentions, op_name, short_name)
from tjb_lib.pairs.common import cue_label, hotpot_meta, make_pair, rng
from tjb_lib.pairs.render import MECHANICAL_CUES, render
from tjb_lib.pairs.strip import detect_artifacts
from tjb_lib.records import Pair

CONVERSION_CONSTANTS = {"100", "1000", "1000000", "const_100", "const_1000", "const_1000000"}
P_WEAKEN = 0.5


def soft_hotpotqa(items: list[HotpotItem], seed: int) -> list[Pair]:
    out = []
    for item in items:
        specific = hotpot_candidate(item, rng(seed, "voice", item.id), reasoning="specific")
        generic = hotpot_candidate(item, rng(seed, "voice", item.id), reasoning="generic")
        out.append(make_pair(
            "soft_hotpotqa", "hotpotqa", item.id, 0, target_relation="quality_soft", gold="tie",
            task=item.question, plain=render(specific), cited=render(generic, MECHANICAL_CUES),
            variant="soft", artifact=cue_label(MECHANICAL_CUES),
            meta={**hotpot_meta(item), "cues": sorted(MECHANICAL_CUES),
                  "plain_reasoning": list(specific.reasoning),
                  "cited_reasoning": list(generic.reasoning),
                  "gold_note": "soft boundary: humans mostly Tie, so Tie is possibly calibrated"}))
    return out


# ----------------------------------------------------------------------------- moderate HotpotQA

def weakening_sentences(item: HotpotItem, drop: str) -> list[int]:
    """Sentences of the omitted hop's paragraph that could stand in for it without the link."""
    kept = [h for h in hops(item) if h != drop]
    gold = {s for t, s in item.supporting_facts if t == drop}
    out = []
    for sid, sent in enumerate(dict(item.context)[drop]):
        sent = sent.strip()
        if (sid not in gold and len(sent.split()) >= 6 and sent[-1:] in ".!?"
                and not detect_artifacts(sent)
                and not mentions(sent, item.answer) and item.answer.lower() not in sent.lower()
                and not any(mentions(sent, short_name(h)) for h in kept)):
            out.append(sid)
    return out


def necessity_problems(item: HotpotItem, drop: str, weak: int | None = None) -> list[str]:
    """Why omitting hop ``drop`` would not leave a necessary gap (empty: it does)."""
    problems = []
    kept_hops = [h for h in hops(item) if h != drop]
    kept = [s for h in kept_hops for s in hop_sentences(item, h)]
    if any(mentions(s, short_name(drop)) for s in kept):
        problems.append(f"the kept evidence names {short_name(drop)!r}")
    if item.type != "comparison":
        for h in kept_hops:
            if mentions(item.question, short_name(h)):
                problems.append(f"the question names the kept hop {short_name(h)!r}")
        if not any(item.answer.strip().lower() in s.lower() for s in kept):
            problems.append("the kept evidence does not state the answer")
    if weak is not None:
        sent = item.sentence(drop, weak)
        if mentions(sent, item.answer) or any(mentions(sent, short_name(h)) for h in kept_hops):
            problems.append(f"the weakening sentence {weak} carries the link")
    return problems


def moderate_plan(item: HotpotItem, seed: int) -> tuple[str, int | None] | None:
    """(hop to omit, weakening sentence or None) passing ``necessity_problems``, or None."""
    order = [bridge_hop(item)] if item.type != "comparison" else list(hops(item))
    for drop in order:
        if necessity_problems(item, drop):
            continue
        weak = None
        r = rng(seed, "moderate", item.id)
        if item.type != "comparison" and r.random() < P_WEAKEN:
            choices = weakening_sentences(item, drop)
            weak = r.choice(choices) if choices else None
        return drop, weak
    return None


def moderate_hotpotqa(items: list[HotpotItem], seed: int) -> list[Pair]:
    out = []
    for item in items:
        plan = moderate_plan(item, seed)
        if plan is None:
            raise ValueError(f"{item.id}: no necessary hop to omit (pools.allocate should have "
                             f"skipped it)")
        drop, weak = plan
        full = hotpot_candidate(item, rng(seed, "voice", item.id))
        partial = hotpot_candidate(item, rng(seed, "voice", item.id), drop_hop=drop,
                                   weak=(drop, weak) if weak is not None else None)
        role = "compared_entity" if item.type == "comparison" else "bridge"
        out.append(make_pair(
            "moderate_hotpotqa", "hotpotqa", item.id, 0, target_relation="quality_moderate",
            gold="plain", task=item.question, plain=render(full),
            cited=render(partial, MECHANICAL_CUES), variant="moderate",
            artifact=cue_label(MECHANICAL_CUES),
            meta={**hotpot_meta(item), "cues": sorted(MECHANICAL_CUES), "hops": list(hops(item)),
                  "answer_hop": answer_hop(item), "dropped_hop": drop, "dropped_role": role,
                  "omission": "dropped" if weak is None else "weakened",
                  "weakening_sentence": weak,
                  "dropped_sentences": [s for t, s in item.supporting_facts if t == drop]}))
    return out


# ----------------------------------------------------------------------------- moderate FinQA

def _input(arg: str) -> bool:
    """An operand read from the filing (not a constant, not an earlier step's result)."""
    return not arg.startswith(("#", "const_"))


def finqa_omission(item: FinQAItem) -> tuple[int, str] | None:
    """(index, kind) of the step the cited side leaves out, or None.

    denominator: a step whose result a later step divides by; base: a division by a quantity
    read from the filing (the base of a share or a change); conversion: a scaling by 100, 1000
    or 1,000,000. Searched in that order.
    """
    steps = item.steps
    for i, st in enumerate(steps):
        if any(op_name(s) == "divide" and s.arg2 == f"#{i}" for s in steps[i + 1:]):
            return i, "denominator"
    for i, st in enumerate(steps):
        if op_name(st) == "divide" and _input(st.arg2):
            return i, "base"
    for i, st in enumerate(steps):
        if op_name(st) in ("multiply", "divide") and {st.arg1, st.arg2} & CONVERSION_CONSTANTS:
            return i, "conversion"
    return None


def moderate_finqa(items: list[FinQAItem], seed: int) -> list[Pair]:
    out = []
    for item in items:
        found = finqa_omission(item)
        if found is None:
            raise ValueError(f"{item.id}: no denominator, base or conversion step to omit")
        idx, kind = found
        omit = depends_on(item, idx)
        full = finqa_candidate(item, rng(seed, "voice", item.id))
        short = finqa_candidate(item, rng(seed, "voice", item.id), omit=omit)
        out.append(make_pair(
            "moderate_finqa", "finqa", item.id, 0, target_relation="quality_moderate",
            gold="plain", task=finqa_task(item), plain=render(full),
            cited=render(short, MECHANICAL_CUES), variant="moderate",
            artifact=cue_label(MECHANICAL_CUES),
            meta={"cues": sorted(MECHANICAL_CUES), "gold_answer": item.answer,
                  "program": item.program, "omitted_step": idx + 1, "omitted_kind": kind,
                  "omitted_steps": sorted(i + 1 for i in omit),
                  "omitted_text": finqa_step_text(idx, item.steps),
                  "finqa_file": item.file}))
    return out
