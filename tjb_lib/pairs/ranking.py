"""Workflow-ranking probe: 4 systems per HotpotQA query, compared in all 6 unordered pairs.

answer_only = the bare answer; plain_full = the full chain, no display; cited_full = plain_full
plus the citation display; cited_partial = the display over the chain without one supporting
hop. In each pair the earlier system of SYSTEMS sits on ``plain`` and the later on ``cited``
(``meta.system_plain`` / ``meta.system_cited``); target relation system, no gold.
"""
from __future__ import annotations

from itertools import combinations

from tjb_lib.data import HotpotItem
from tjb_lib.pairs.candidates import bridge_hop, hotpot_candidate
from tjb_lib.pairs.common import hotpot_meta, make_pair, rng
from tjb_lib.pairs.graded import moderate_plan
from tjb_lib.pairs.render import MECHANICAL_CUES, answer_only, render
from tjb_lib.records import Pair

SYSTEMS = ("answer_only", "plain_full", "cited_full", "cited_partial")


def omitted_hop(item: HotpotItem, seed: int) -> str:
    """The hop cited_partial leaves out: a necessary one where the item has one."""
    plan = moderate_plan(item, seed)
    return plan[0] if plan else bridge_hop(item)


def system_outputs(item: HotpotItem, seed: int) -> dict[str, str]:
    full = hotpot_candidate(item, rng(seed, "voice", item.id))
    partial = hotpot_candidate(item, rng(seed, "voice", item.id), drop_hop=omitted_hop(item, seed))
    return {"answer_only": answer_only(full), "plain_full": render(full),
            "cited_full": render(full, MECHANICAL_CUES),
            "cited_partial": render(partial, MECHANICAL_CUES)}


def ranking_hotpotqa(items: list[HotpotItem], seed: int) -> list[Pair]:
    out = []
    for item in items:
        texts = system_outputs(item, seed)
        for a, b in combinations(SYSTEMS, 2):
            out.append(make_pair(
                "ranking_hotpotqa", "hotpotqa", item.id, f"{a}-vs-{b}", target_relation="system",
                gold="none", task=item.question, plain=texts[a], cited=texts[b],
                variant=f"{a}-vs-{b}", artifact=b,
                meta={**hotpot_meta(item), "system_plain": a, "system_cited": b,
                      "dropped_hop": omitted_hop(item, seed)}))
    return out
