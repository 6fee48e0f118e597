"""Mechanical equivalence splits: the same substance, with and without citation display.

plain = final answer + gold evidence + reasoning, no wrappers; cited = the same text plus source
titles, [n] markers, sentence ids, an evidence block, a sources footer and a verification line
(``MECHANICAL_CUES``), nothing else. Target relation equivalent, gold Tie.
"""
from __future__ import annotations

from tjb_lib.data import FinQAItem, HotpotItem
from tjb_lib.pairs.candidates import finqa_candidate, finqa_task, hotpot_candidate, hops
from tjb_lib.pairs.common import cue_label, hotpot_meta, make_pair, rng
from tjb_lib.pairs.render import MECHANICAL_CUES, render
from tjb_lib.records import Pair


def mechanical_hotpotqa(items: list[HotpotItem], seed: int) -> list[Pair]:
    out = []
    for item in items:
        c = hotpot_candidate(item, rng(seed, "voice", item.id))
        out.append(make_pair(
            "mechanical_hotpotqa", "hotpotqa", item.id, 0, target_relation="equivalent",
            gold="tie", task=item.question, plain=render(c), cited=render(c, MECHANICAL_CUES),
            variant="mechanical", artifact=cue_label(MECHANICAL_CUES),
            meta={**hotpot_meta(item), "style": "structured", "cues": sorted(MECHANICAL_CUES),
                  "hops": list(hops(item))}))
    return out


def mechanical_finqa(items: list[FinQAItem], seed: int) -> list[Pair]:
    out = []
    for item in items:
        c = finqa_candidate(item, rng(seed, "voice", item.id))
        out.append(make_pair(
            "mechanical_finqa", "finqa", item.id, 0, target_relation="equivalent", gold="tie",
            task=finqa_task(item), plain=render(c), cited=render(c, MECHANICAL_CUES),
            variant="mechanical", artifact=cue_label(MECHANICAL_CUES),
            meta={"style": "structured", "cues": sorted(MECHANICAL_CUES),
                  "gold_answer": item.answer, "program": item.program,
                  "gold_inds": [k for k, _ in item.gold_inds], "finqa_file": item.file,
                  "filename": item.filename}))
    return out
