"""Graded quality tiers: soft (a boundary gap) and moderate (one necessary step missing).

soft_hotpotqa: same answer and every gold support on both sides; the plain side's reasoning
names each hop and link in the evidence's words, the cited side's reasoning is a shorter account
of the same chain: each step cut to its core clause, without the dates, asides and lists
(``voice.generic_support``; target quality_soft, gold Tie: the human boundary).
moderate_hotpotqa: plain has the full chain; the cited side has the display but omits one
*necessary* hop: the bridge of a bridge question, or one compared entity of a comparison.
Half of the bridge omissions (seeded) weaken the hop instead where the bridge paragraph has a
sentence on the question's topic that does not carry the link (``stands_in``; few do): the
cited side shows it in the link's place. ``necessity_problems`` is the rule every pair passes
(items that fail are not used): the kept evidence never names the omitted entity, a bridge
question does not name the kept hop's entity itself, the kept evidence states the answer, and
a weakening sentence names neither the kept entity nor the answer (target quality_moderate,
gold plain).
moderate_finqa: same answer and the same gold lines, from programs whose last step divides
the result before it by a denominator, by the figure a change starts from or an index's base
of 100, or scales it by 100, or that divide one figure by another; the cited side
shows every step, the last one without its working ("As a share of the 2008 level, the
change in X is 14.8%.", where the full side has "148 / 1000 = 14.8%"), so the denominator,
base or conversion that gives the answer is never shown (``unshown_reasoning``; the paper's
"leaves out an intermediate denominator, base quantity, or conversion step"; target
quality_moderate, gold plain). The pools prefer an intermediate step of these kinds to a
one-step share (``skip_rank``); readers called a skipped sum or difference a tie.
"""
from __future__ import annotations

import dataclasses
import re

from tjb_lib.data import FinQAItem, HotpotItem
from tjb_lib.pairs.candidates import (answer_hop, bridge_hop, finqa_candidate, finqa_task,
                                      hop_sentences, hops, hotpot_candidate, mentions, op_name)
from tjb_lib.pairs.filing import NUMBER, clean_line, figures, value
from tjb_lib.pairs.slips import ALSO
from tjb_lib.pairs.standalone import short_name
from tjb_lib.pairs.finqa_voice import arg_text, equation, rescaled_tail
from tjb_lib.pairs.natural import on_topic
from tjb_lib.pairs.common import cue_label, hotpot_meta, make_pair, rng
from tjb_lib.pairs.render import MECHANICAL_CUES, render
from tjb_lib.pairs.standalone import standalone
from tjb_lib.pairs.strip import detect_artifacts
from tjb_lib.records import Pair

P_WEAKEN = 0.5
#: content words of the question, names aside, a weakening sentence shares: blind readers
#: stopped at a stand-in that only echoes a detail ("... aired on MBC on Wednesdays to Thursdays")
STAND_IN_TOPIC_WORDS = 3


def soft_hotpotqa(split: str, items: list[HotpotItem], seed: int) -> list[Pair]:
    out = []
    for item in items:
        # both sides close alike, on the question's words: neither closing names a hop
        specific = hotpot_candidate(item, rng(seed, "voice", item.id), reasoning="specific",
                                    unnamed=hops(item))
        generic = hotpot_candidate(item, rng(seed, "voice", item.id), reasoning="generic",
                                   unnamed=hops(item))
        out.append(make_pair(
            split, "hotpotqa", item.id, 0, target_relation="quality_soft", gold="tie",
            task=item.question, plain=render(specific), cited=render(generic, MECHANICAL_CUES),
            variant="soft", artifact=cue_label(MECHANICAL_CUES),
            meta={**hotpot_meta(item), "cues": sorted(MECHANICAL_CUES),
                  "plain_reasoning": list(specific.reasoning),
                  "cited_reasoning": list(generic.reasoning),
                  "gold_note": "soft boundary: humans mostly Tie, so Tie is possibly calibrated"}))
    return out


# ----------------------------------------------------------------------------- moderate HotpotQA

def stands_in(item: HotpotItem, sentence: str) -> bool:
    """Can ``sentence`` stand in for a hop's link as a weaker answer would: it speaks to the
    question (``natural.on_topic``, with ``STAND_IN_TOPIC_WORDS`` of its words)? Blind readers
    stopped at an off-topic one left standing ("worked on the case of New York millionaire
    Robert Durst")."""
    return on_topic(item, sentence, STAND_IN_TOPIC_WORDS)


def weakening_sentences(item: HotpotItem, drop: str) -> list[int]:
    """Sentences of the omitted hop's paragraph that could stand in for it without the link
    (``stands_in``)."""
    kept = [h for h in hops(item) if h != drop]
    gold = {s for t, s in item.supporting_facts if t == drop}
    out = []
    for sid in range(len(dict(item.context)[drop])):
        sent = standalone(item, drop, sid)
        if (sent is not None and sid not in gold and len(sent.split()) >= 6 and sent[-1:] in ".!?"
                and not detect_artifacts(sent)
                and not mentions(sent, item.answer) and item.answer.lower() not in sent.lower()
                and not any(mentions(sent, short_name(h)) for h in kept)
                and stands_in(item, sent)):
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
    if kept and ALSO.search(kept[0]):
        problems.append("the kept evidence opens on an 'also' with nothing before it")
    if weak is not None:
        sent = standalone(item, drop, weak) or ""
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


def moderate_hotpotqa(split: str, items: list[HotpotItem], seed: int) -> list[Pair]:
    out = []
    for item in items:
        plan = moderate_plan(item, seed)
        if plan is None:
            raise ValueError(f"{item.id}: no necessary hop to omit (pools.allocate should have "
                             f"skipped it)")
        drop, weak = plan
        lead = drop if item.type == "comparison" else None
        full = hotpot_candidate(item, rng(seed, "voice", item.id), lead_hop=lead, unnamed=(drop,),
                                 apart=drop)
        partial = hotpot_candidate(item, rng(seed, "voice", item.id), drop_hop=drop, lead_hop=lead,
                                   weak=(drop, weak) if weak is not None else None)
        role = "compared_entity" if item.type == "comparison" else "bridge"
        out.append(make_pair(
            split, "hotpotqa", item.id, 0, target_relation="quality_moderate",
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

#: what the cited side leaves unshown: the division by another figure (denominator), by the
#: figure a change starts from (base), a change of unit (conversion: a rate or ratio by 100,
#: an index's points on its base of 100 as a percent)
UNSHOWN_KINDS = ("denominator", "base", "conversion")
_HUNDRED = ("const_100", "100")


def unshown_kind(item: FinQAItem) -> str | None:
    """What the program's last step does to the result before it, as ``UNSHOWN_KINDS`` names
    it, or what a one-step program is: one figure's share of (or ratio to) another; None for
    any other last step: a sum or a difference is the answer's own working, not a base, and
    an average's count is named wherever its working is ("Averaged over the 3 years")."""
    steps = item.steps
    n = len(steps)
    if n == 1 and op_name(steps[0]) == "divide" \
            and not any(a.startswith(("#", "const_")) for a in (steps[0].arg1, steps[0].arg2)):
        return "denominator"
    if n < 2 or steps[-1].arg1 != f"#{n - 2}":
        return None
    last, before = steps[-1], steps[-2]
    op = op_name(last)
    if op == "multiply" and last.arg2 == "const_100":
        return "conversion"
    if op != "divide":
        return None
    if last.arg2 in _HUNDRED and op_name(before) in ("minus", "subtract") \
            and before.arg2 in _HUNDRED:
        return "conversion"                              # an index's points as a percent
    if last.arg2.startswith("const_"):
        return None
    if op_name(before) in ("minus", "subtract") and last.arg2 == before.arg2:
        return "base"                                    # a change over where it starts
    return "denominator"


def skip_rank(item: FinQAItem) -> int:
    """Where a record stands in the pools' preference (lowest first): a program whose last
    step is an intermediate denominator, base or conversion (the paper's gap: the working
    before it shown, the step itself not), then one figure's share of another."""
    return int(len(item.steps) == 1)


def unshown_reasoning(item: FinQAItem, seed: int) -> tuple[tuple[str, ...], str] | None:
    """(the cited side's reasoning, the kind of step it leaves unshown): the full side's
    sentences with the last one's working taken out ("As a share of the 2008 level, the change
    in X is 14.8%.", "... comes to 11 basis points."), so its result stands as a claim whose
    denominator, base or conversion is never shown; None where the program has no such step
    (``unshown_kind``), where the result is 0 or the filing or the question states it, where the
    full side folds the last step into the sentence before (a change of unit), or where the
    sentence left would still give the denominator's figure ("25.5% of the difference in 2009
    (9.4)") or restate the result ("109, or $109 million")."""
    kind = unshown_kind(item)
    steps = item.steps
    if kind is None or rescaled_tail(len(steps) - 1, steps, figures(item.gold_inds, item.table)):
        return None
    res = value(steps[-1].res)
    shown = {value(x) for _, text in item.gold_inds for x in NUMBER.findall(clean_line(text))}
    if not res or res in shown or res in {value(x) for x in NUMBER.findall(item.question)}:
        return None                                      # a 0% change needs no base shown
    said = finqa_candidate(item, rng(seed, "voice", item.id)).reasoning
    working = equation(len(steps) - 1, steps)
    lhs = working[:working.index(" = ") + 3]
    if lhs not in said[-1]:
        return None
    last = said[-1].replace(lhs, "", 1)
    base, result = arg_text(steps[-1].arg2, steps), working[len(lhs):]
    if re.search(rf"(?<![\d.]){re.escape(base)}(?![\d])", last) \
            or re.search(rf"{re.escape(result)}, or ", last):
        return None
    return (*said[:-1], last), kind


def finqa_omission(item: FinQAItem, seed: int) -> tuple[int, str] | None:
    """(index, kind) of the step the cited side leaves unshown (the last,
    ``unshown_reasoning``), or None."""
    found = unshown_reasoning(item, seed)
    return None if found is None else (len(item.steps) - 1, found[1])


def moderate_finqa(split: str, items: list[FinQAItem], seed: int) -> list[Pair]:
    out = []
    for item in items:
        found = unshown_reasoning(item, seed)
        if found is None:
            raise ValueError(f"{item.id}: no denominator, base or conversion to leave unshown "
                             f"(pools.allocate should have skipped it)")
        said, kind = found
        idx = len(item.steps) - 1
        full = finqa_candidate(item, rng(seed, "voice", item.id))
        short = dataclasses.replace(full, reasoning=said)
        out.append(make_pair(
            split, "finqa", item.id, 0, target_relation="quality_moderate",
            gold="plain", task=finqa_task(item), plain=render(full),
            cited=render(short, MECHANICAL_CUES), variant="moderate",
            artifact=cue_label(MECHANICAL_CUES),
            meta={"cues": sorted(MECHANICAL_CUES), "gold_answer": item.answer,
                  "program": item.program, "omitted_step": idx + 1, "omitted_kind": kind,
                  "omitted_result": item.steps[idx].res,
                  "omitted_text": equation(idx, item.steps),
                  "omitted_sentences": [x for x in full.reasoning if x not in short.reasoning],
                  "restated_sentences": [x for x in short.reasoning if x not in full.reasoning],
                  "finqa_file": item.file}))
    return out
