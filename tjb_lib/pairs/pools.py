"""Which source records go to which split: one seeded allocation shared by every builder.

The mechanical HotpotQA items also serve the ablations, the position controls and the ranking
probe; the graded tiers get items of their own; the conflicts take the items left over first.
FinQA records are drawn from the unbiased samples before the FinQANet error-case file.
"""
from __future__ import annotations

from dataclasses import dataclass

from tjb_lib.data import (FINQA_UNBIASED, FinQAItem, HotpotItem, HumanEvalProblem, load_finqa,
                          load_hotpotqa, load_humaneval)
from tjb_lib.pairs.candidates import finqa_usable, hotpot_candidate, is_clean
from tjb_lib.pairs.common import rng
from tjb_lib.pairs.graded import finqa_skip

N_MECHANICAL, N_GRADED, N_FINQA_MODERATE = 200, 100, 50


@dataclass(frozen=True)
class Pools:
    """The seeded record lists each builder reads (every list in its seeded order)."""

    seed: int
    hotpot: list[HotpotItem]          # every usable HotpotQA item (natural pairs use them all)
    mechanical: list[HotpotItem]      # mechanical, ablations, position controls, ranking
    soft: list[HotpotItem]
    moderate: list[HotpotItem]
    conflict_hotpot: list[HotpotItem]
    finqa_mechanical: list[FinQAItem]
    finqa_moderate: list[FinQAItem]
    finqa_conflict: list[FinQAItem]
    humaneval: list[HumanEvalProblem]


def allocate(seed: int) -> Pools:
    hot = [i for i in load_hotpotqa() if is_clean(hotpot_candidate(i))]
    rng(seed, "hotpotqa", "order").shuffle(hot)
    mech = hot[:N_MECHANICAL]
    soft = hot[N_MECHANICAL:N_MECHANICAL + N_GRADED]
    moderate = hot[N_MECHANICAL + N_GRADED:N_MECHANICAL + 2 * N_GRADED]
    conflict_hot = hot[N_MECHANICAL + 2 * N_GRADED:] + hot[:N_MECHANICAL + 2 * N_GRADED]

    fin = [i for i in load_finqa() if finqa_usable(i)]
    unbiased = [i for i in fin if i.file in FINQA_UNBIASED]
    biased = [i for i in fin if i.file not in FINQA_UNBIASED]
    rng(seed, "finqa", "unbiased").shuffle(unbiased)
    rng(seed, "finqa", "biased").shuffle(biased)
    fin = unbiased + biased                                    # prefer the unbiased samples
    rest = fin[N_MECHANICAL:]
    fin_moderate = [i for i in rest if finqa_skip(i) is not None][:N_FINQA_MODERATE]
    used = {i.id for i in fin_moderate}

    problems = load_humaneval()
    rng(seed, "humaneval", "order").shuffle(problems)
    return Pools(seed=seed, hotpot=hot, mechanical=mech, soft=soft, moderate=moderate,
                 conflict_hotpot=conflict_hot, finqa_mechanical=fin[:N_MECHANICAL],
                 finqa_moderate=fin_moderate,
                 finqa_conflict=[i for i in rest if i.id not in used], humaneval=problems)
