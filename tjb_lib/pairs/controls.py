"""Position-only controls: the same plain candidate in both slots (target identical, gold Tie).

Any non-Tie verdict on these pairs is generic position bias, not a citation effect.
"""
from __future__ import annotations

from tjb_lib.data import HotpotItem
from tjb_lib.pairs.candidates import hotpot_candidate
from tjb_lib.pairs.common import hotpot_meta, make_pair, rng
from tjb_lib.pairs.render import render
from tjb_lib.records import Pair


def position_control(items: list[HotpotItem], seed: int) -> list[Pair]:
    out = []
    for item in items:
        text = render(hotpot_candidate(item, rng(seed, "voice", item.id)))
        out.append(make_pair(
            "position_control", "hotpotqa", item.id, 0, target_relation="identical", gold="tie",
            task=item.question, plain=text, cited=text, variant="position_only", artifact="none",
            meta={**hotpot_meta(item), "style": "structured",
                  "note": "the mechanical plain candidate on both sides"}))
    return out
