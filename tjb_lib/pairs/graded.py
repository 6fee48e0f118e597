"""Graded quality tiers: soft (a boundary gap) and moderate (one missing support step).

soft_hotpotqa: same answer and every gold support on both sides; the plain side's reasoning
names each hop, the cited side's reasoning is one generic sentence (target quality_soft).
moderate_hotpotqa: plain has the full chain; the cited side has the display but drops exactly
one gold supporting hop (its sentences and its reasoning step): the bridge for bridge questions,
the first compared entity for comparisons (target quality_moderate, gold plain).
moderate_finqa: same answer and gold lines; the cited side skips one intermediate program step
(the denominator, the base quantity or a unit conversion) and keeps the final number.
"""
from __future__ import annotations

import re

from tjb_lib.data import FinQAItem, HotpotItem
from tjb_lib.pairs.candidates import (bridge_hop, finqa_candidate, finqa_step_text, finqa_task,
                                      hops, hotpot_candidate, op_name)
from tjb_lib.pairs.common import cue_label, hotpot_meta, make_pair
from tjb_lib.pairs.render import MECHANICAL_CUES, render
from tjb_lib.records import Pair

CONVERSION_CONSTANTS = {"100", "1000", "1000000", "const_100", "const_1000", "const_1000000"}


def soft_hotpotqa(items: list[HotpotItem]) -> list[Pair]:
    out = []
    for item in items:
        specific = hotpot_candidate(item, reasoning="specific")
        generic = hotpot_candidate(item, reasoning="generic")
        out.append(make_pair(
            "soft_hotpotqa", "hotpotqa", item.id, 0, target_relation="quality_soft", gold="tie",
            task=item.question, plain=render(specific), cited=render(generic, MECHANICAL_CUES),
            variant="soft", artifact=cue_label(MECHANICAL_CUES),
            meta={**hotpot_meta(item), "cues": sorted(MECHANICAL_CUES),
                  "plain_reasoning": list(specific.reasoning),
                  "cited_reasoning": list(generic.reasoning),
                  "gold_note": "soft boundary: humans mostly Tie, so Tie is possibly calibrated"}))
    return out


def moderate_hotpotqa(items: list[HotpotItem]) -> list[Pair]:
    out = []
    for item in items:
        drop = bridge_hop(item)
        full = hotpot_candidate(item)
        partial = hotpot_candidate(item, drop_hop=drop)
        out.append(make_pair(
            "moderate_hotpotqa", "hotpotqa", item.id, 0, target_relation="quality_moderate",
            gold="plain", task=item.question, plain=render(full),
            cited=render(partial, MECHANICAL_CUES), variant="moderate",
            artifact=cue_label(MECHANICAL_CUES),
            meta={**hotpot_meta(item), "cues": sorted(MECHANICAL_CUES), "hops": list(hops(item)),
                  "dropped_hop": drop,
                  "dropped_role": "compared_entity" if item.type == "comparison" else "bridge",
                  "dropped_sentences": [s for t, s in item.supporting_facts if t == drop]}))
    return out


def finqa_skip(item: FinQAItem) -> tuple[int, str] | None:
    """(index, kind) of the intermediate step the cited side leaves out, or None.

    denominator: its result is the divisor of a later division; conversion: it scales by 100 or
    1000; base: its result (e.g. a change) is then divided by a base quantity.
    """
    steps = item.steps
    later = lambda i: steps[i + 1:]  # noqa: E731
    for kind in ("denominator", "conversion", "base"):
        for i in range(len(steps) - 1):
            ref = f"#{i}"
            if kind == "denominator" and any(op_name(s) == "divide" and s.arg2 == ref for s in later(i)):
                return i, kind
            if kind == "conversion" and op_name(steps[i]) in ("multiply", "divide") and (
                    steps[i].arg2 in CONVERSION_CONSTANTS or steps[i].arg1 in CONVERSION_CONSTANTS):
                return i, kind
            if kind == "base" and any(op_name(s) == "divide" and s.arg1 == ref for s in later(i)):
                return i, kind
    return None


def moderate_finqa(items: list[FinQAItem]) -> list[Pair]:
    """The first 50 items (in the given order) with a skippable intermediate step."""
    out = []
    for item in items:
        skip = finqa_skip(item)
        if skip is None:
            continue
        idx, kind = skip
        full, short = finqa_candidate(item), finqa_candidate(item, skip_step=idx)
        out.append(make_pair(
            "moderate_finqa", "finqa", item.id, 0, target_relation="quality_moderate",
            gold="plain", task=finqa_task(item), plain=render(full),
            cited=render(short, MECHANICAL_CUES), variant="moderate", artifact=cue_label(MECHANICAL_CUES),
            meta={"cues": sorted(MECHANICAL_CUES), "gold_answer": item.answer,
                  "program": item.program, "skipped_step": idx + 1, "skipped_kind": kind,
                  "skipped_text": re.sub(r"\s+", " ", finqa_step_text(idx, item.steps)),
                  "finqa_file": item.file}))
        if len(out) == 50:
            return out
    raise ValueError(f"only {len(out)} FinQA items have a skippable intermediate step")
