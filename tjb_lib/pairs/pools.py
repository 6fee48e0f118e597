"""Which source records go to which split: one seeded allocation shared by every builder.

HotpotQA items are used only where every supporting sentence stands alone (``usable``) and
their own evidence does not contradict their gold answer (``gold_contradiction``). The
mechanical HotpotQA items also serve the ablations, the position controls and the ranking probe; the graded tiers get items of their own (the moderate tier only items with a necessary
hop to omit, so the soft tier takes the items without one first); the conflicts take the items left over first. FinQA records pass the sanity
filter (``finqa_check``) and are drawn from the unbiased samples before the FinQANet
error-case file; the moderate tier, which needs a program whose last step it can leave unshown (91 of the
173: 49 with an intermediate denominator, base or conversion, preferred, and 42 one-step
shares), takes its records first, then the mechanical split; the conflicts take the records left over
first, then (as for HotpotQA) those of the other FinQA splits.
"""
from __future__ import annotations

import collections
from dataclasses import dataclass

from tjb_lib.data import (FINQA_UNBIASED, FinQAItem, HotpotItem, HumanEvalProblem, load_finqa,
                          load_hotpotqa, load_humaneval)
from tjb_lib.pairs.candidates import (finqa_check, hotpot_candidate, is_clean, reasoning_problems,
                                      usable)
from tjb_lib.pairs.chain_rules import as_read, item_problems
from tjb_lib.pairs.common import rng
from tjb_lib.pairs.conflicts import gold_contradiction, gold_unsupported
from tjb_lib.pairs.slips import answer_not_a_noun_phrase
from tjb_lib.pairs.graded import finqa_omission, moderate_plan, skip_rank

N_MECHANICAL, N_GRADED, N_FINQA_MODERATE = 200, 100, 50
#: every usable FinQA record the moderate tier leaves (173 pass ``finqa_check``, 50 go there)
N_FINQA_MECHANICAL = 123


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
    rejects: dict                     # what the filters left out, for the manifest and datasheet


def allocate(seed: int) -> Pools:
    all_hot = [as_read(i) for i in load_hotpotqa()]
    linked = sum(i.supporting_facts != j.supporting_facts for i, j in zip(load_hotpotqa(), all_hot))
    standing = [i for i in all_hot if usable(i)]
    no_noun = [i for i in standing if answer_not_a_noun_phrase(i.answer)]
    standing = [i for i in standing if i not in no_noun]
    contradicted = [i for i in standing if gold_contradiction(i)]
    standing = [i for i in standing if i not in contradicted]
    unsupported = [i for i in standing if gold_unsupported(i)]
    standing = [i for i in standing if i not in unsupported]
    why_undecided = {i.id: reasoning_problems(i) for i in standing}
    undecided = [i for i in standing if why_undecided[i.id]]
    standing = [i for i in standing if i not in undecided]
    undecided_by = collections.Counter(
        next(k for k in ("no compared value", "never uses", "abbreviation") if k in w)
        for i in undecided for w in why_undecided[i.id][:1])
    why_unsound = {i.id: item_problems(i) for i in standing}
    unsound = [i for i in standing if why_unsound[i.id]]
    standing = [i for i in standing if not why_unsound[i.id]]
    unsound_by = collections.Counter(why_unsound[i.id][0] for i in unsound)
    hot = [i for i in standing if is_clean(hotpot_candidate(i, rng(seed, "voice", i.id)))]
    rng(seed, "hotpotqa", "order").shuffle(hot)
    mech = hot[:N_MECHANICAL]
    after = hot[N_MECHANICAL:]
    # the soft tier takes first the items the moderate tier cannot use (no necessary hop)
    plannable = {i.id for i in after if moderate_plan(i, seed) is not None}
    soft = ([i for i in after if i.id not in plannable] + [i for i in after
                                                           if i.id in plannable])[:N_GRADED]
    soft_ids = {i.id for i in soft}
    soft = [i for i in after if i.id in soft_ids]                 # in seeded order
    rest = [i for i in after if i.id not in soft_ids]
    eligible = [i for i in rest if i.id in plannable]
    moderate = eligible[:N_GRADED]
    examined = rest[:rest.index(moderate[-1]) + 1] if moderate else rest
    if len(moderate) < N_GRADED:
        raise ValueError(f"only {len(moderate)} HotpotQA items have a necessary hop to omit")
    taken = {i.id for i in moderate}
    conflict_hot = [i for i in rest if i.id not in taken] + mech + soft + moderate

    all_fin = load_finqa()
    why = {i.id: finqa_check(i) for i in all_fin}
    fin = [i for i in all_fin if why[i.id] is None]
    unbiased = [i for i in fin if i.file in FINQA_UNBIASED]
    biased = [i for i in fin if i.file not in FINQA_UNBIASED]
    rng(seed, "finqa", "unbiased").shuffle(unbiased)
    rng(seed, "finqa", "biased").shuffle(biased)
    fin = unbiased + biased                                    # prefer the unbiased samples
    omissible = [i for i in fin if finqa_omission(i, seed) is not None]
    omissible.sort(key=lambda i: (skip_rank(i),                   # an intermediate step,
                                  i.file not in FINQA_UNBIASED))  # then the unbiased files
    fin_moderate = omissible[:N_FINQA_MODERATE]                # the scarce multi-step records first
    if len(fin_moderate) < N_FINQA_MODERATE:
        raise ValueError(f"only {len(fin_moderate)} FinQA records have a step to leave unshown")
    used = {i.id for i in fin_moderate}
    fin = [i for i in fin if i.id not in used]
    fin_mechanical = fin[:N_FINQA_MECHANICAL]
    if len(fin_mechanical) < N_FINQA_MECHANICAL:
        raise ValueError(f"only {len(fin_mechanical)} usable FinQA records are left for the "
                         f"mechanical split")
    fin_conflict = fin[N_FINQA_MECHANICAL:] + fin_mechanical + fin_moderate   # left over first

    problems = load_humaneval()
    rng(seed, "humaneval", "order").shuffle(problems)
    reasons = collections.Counter(r for r in why.values() if r is not None)
    rejects = {
        "hotpotqa": {"records": len(all_hot),
                     "not_standalone": (len(all_hot) - len(standing) - len(contradicted)
                                        - len(unsupported) - len(undecided) - len(no_noun)
                                        - len(unsound)),
                     "answer_not_a_noun_phrase": len(no_noun),
                     "gold_contradicted": len(contradicted),
                     "gold_unsupported": len(unsupported),
                     "comparison_without_both_values": undecided_by["no compared value"],
                     "hop_never_used_by_the_reasoning": undecided_by["never uses"],
                     "step_running_into_the_next": undecided_by["abbreviation"],
                     "bridge_linked_by_a_paragraph_sentence": linked,
                     "chain_unsound": dict(sorted(unsound_by.items())),
                     "with_display_syntax": len(standing) - len(hot),
                     "moderate_examined": len(examined),
                     "moderate_without_a_necessary_hop": len(examined) - len(moderate)},
        "finqa": {"records": len(all_fin), "usable": len(why) - sum(reasons.values()),
                  "by_reason": dict(sorted(reasons.items())),
                  "moderate_with_an_unshown_step": len(omissible),
                  "moderate_by_file": dict(sorted(collections.Counter(
                      i.file for i in fin_moderate).items())),
                  "rejected_by_file": dict(sorted(collections.Counter(
                      i.file for i in all_fin if why[i.id] is not None).items()))},
    }
    return Pools(seed=seed, hotpot=hot, mechanical=mech, soft=soft, moderate=moderate,
                 conflict_hotpot=conflict_hot, finqa_mechanical=fin_mechanical,
                 finqa_moderate=fin_moderate, finqa_conflict=fin_conflict, humaneval=problems,
                 rejects=rejects)
