"""What the HotpotQA reader-rule tests share: the items as the builders read them, a pair of one
candidate, and the check that a reasoning as once shipped breaks a rule the built one keeps."""
from __future__ import annotations

import dataclasses

from tjb_lib.data import load_hotpotqa
from tjb_lib.pairs.candidates import hotpot_candidate
from tjb_lib.pairs.chain_rules import as_read
from tjb_lib.pairs.common import hotpot_meta, make_pair


def linked_items() -> dict:
    return {i.id: as_read(i) for i in load_hotpotqa()}    # as the builders read them


def pair(item, plain: str, cited: str | None = None):
    return make_pair("mechanical_hotpotqa", "hotpotqa", item.id, 0, target_relation="equivalent",
                     gold="tie", task=item.question, plain=plain, cited=cited or plain,
                     variant="t", artifact="", meta=hotpot_meta(item))


def old_breaks_new_keeps(rules, item, old: str, rule: str) -> None:
    """``old`` (a reasoning once shipped) breaks ``rule``; the candidate built now breaks none."""
    c = hotpot_candidate(item)
    assert rule in rules(item, dataclasses.replace(c, reasoning=(old,)))
    assert rules(item, c) == set()
