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
moderate_finqa: same answer and the same gold lines, from programs of two or more steps; the
cited side leaves out one intermediate step (the denominator of a later division, else the
earliest quantity computed from the filing that a later step uses) and nothing else, so the
later steps still show their arithmetic and the omitted result appears in them underived, as
in an answer that skipped a step (``omission_problems``; target quality_moderate, gold plain).
A step readers miss (``trivial_step`` is not) is preferred, within a record and in the pools.
"""
from __future__ import annotations

from tjb_lib.data import FinQAItem, HotpotItem
from tjb_lib.pairs.candidates import (answer_hop, bridge_hop, finqa_candidate, finqa_task,
                                      hop_sentences, hops, hotpot_candidate, mentions, op_name)
from tjb_lib.pairs.filing import NUMBER, clean_line, figures, value
from tjb_lib.pairs.slips import ALSO
from tjb_lib.pairs.standalone import short_name
from tjb_lib.pairs.finqa_voice import equation, rescaled_tail
from tjb_lib.pairs.natural import on_topic
from tjb_lib.pairs.common import cue_label, hotpot_meta, make_pair, rng
from tjb_lib.pairs.render import MECHANICAL_CUES, render
from tjb_lib.pairs.standalone import standalone
from tjb_lib.pairs.strip import detect_artifacts
from tjb_lib.records import Pair

CONVERSION_CONSTANTS = {"100", "1000", "1000000", "const_100", "const_1000", "const_1000000"}
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

def _input(arg: str) -> bool:
    """An operand read from the filing (not a constant, not an earlier step's result)."""
    return not arg.startswith(("#", "const_"))


def _uses(step, i: int) -> bool:
    return f"#{i}" in (step.arg1, step.arg2)


def _conversion(step) -> bool:
    """A change of unit: a scaling by 100, 1,000 or 1,000,000."""
    return (op_name(step) in ("multiply", "divide")
            and bool({step.arg1, step.arg2} & CONVERSION_CONSTANTS))


def omission_problems(item: FinQAItem, i: int) -> list[str]:
    """Why leaving out step i would not leave an intermediate result underived (empty: it
    would). The step is not the last, its result is an operand of a later step (which the cited
    side still shows), it computes a quantity from the filing (not a change of unit), and its
    result is not a figure the gold lines already state, nor one the next step only rescales
    (its sentence ends on the rescaled figure: "= 29889860, or $29.9 million"). Readers call
    a pair a tie where the skipped step is one nobody misses: a result the question itself
    states, or a partial sum of a running total ("385 + 383 = 768" before "768 + 380 =
    1148")."""
    steps = item.steps
    problems = []
    if len(steps) < 2:
        problems.append("a single-step program")
    if i >= len(steps) - 1:
        problems.append("the last step")
    if not any(_uses(s, i) for s in steps[i + 1:]):
        problems.append("no later step uses its result")
    if not any(_input(a) for a in (steps[i].arg1, steps[i].arg2)) or _conversion(steps[i]):
        problems.append("not a quantity computed from the filing")
    if i + 1 < len(steps) and rescaled_tail(i + 1, steps, figures(item.gold_inds, item.table)):
        problems.append("the next step only changes its unit")    # one sentence says both
    shown = {value(x) for _, text in item.gold_inds for x in NUMBER.findall(clean_line(text))}
    if value(steps[i].res) in shown:
        problems.append("its result is stated in the gold lines")
    if value(steps[i].res) in {value(x) for x in NUMBER.findall(item.question)}:
        problems.append("its result is stated in the question")
    if op_name(steps[i]) == "add" and any(op_name(s) == "add" and _uses(s, i)
                                          for s in steps[i + 1:]):
        problems.append("a running total's partial sum, which the next sum carries on")
    return problems


def trivial_step(item: FinQAItem, i: int) -> bool:
    """A step a reader does not miss when it is skipped: one sum or difference of two figures
    read from the filing (an index less its base of 100, a change between two years); blind
    readers called such pairs a tie ("same answer; subtraction is trivial"). A step on an
    earlier result, a division or a product is not."""
    step = item.steps[i]
    return op_name(step) in ("add", "minus", "subtract") and all(
        not a.startswith("#") for a in (step.arg1, step.arg2))


def finqa_omission(item: FinQAItem, seed: int) -> tuple[int, str] | None:
    """(index, kind) of the step the cited side leaves out, or None.

    One of the intermediate steps passing ``omission_problems``, a step that is not
    ``trivial_step`` where the program has one, drawn with the item's seed
    (so the omitted step varies over the programs' intermediate steps, not always the first),
    named by what it computes (difference, total, ratio, product; "denominator" where a later
    division divides by it).
    """
    steps = item.steps
    ok = [i for i in range(len(steps)) if not omission_problems(item, i)]
    if not ok:
        return None
    ok = [i for i in ok if not trivial_step(item, i)] or ok
    i = rng(seed, "moderate_finqa", item.id).choice(ok)
    if any(op_name(s) == "divide" and s.arg2 == f"#{i}" for s in steps[i + 1:]):
        return i, "denominator"
    kinds = {"minus": "difference", "subtract": "difference", "add": "total", "divide": "ratio",
             "multiply": "product"}
    return i, kinds.get(op_name(steps[i]), "intermediate")


def moderate_finqa(split: str, items: list[FinQAItem], seed: int) -> list[Pair]:
    out = []
    for item in items:
        found = finqa_omission(item, seed)
        if found is None:
            raise ValueError(f"{item.id}: no intermediate step to omit (pools.allocate should "
                             f"have skipped it)")
        idx, kind = found
        full = finqa_candidate(item, rng(seed, "voice", item.id))
        short = finqa_candidate(item, rng(seed, "voice", item.id), omit={idx})
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
