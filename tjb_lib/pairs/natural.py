"""Natural citation-looking pairs: agreeing answers, varied real-RAG-like displays.

Only 500 HotpotQA items exist here, so each item is used twice (``meta.item_use`` 1 and 2),
each time with a different prose style and a different display (inline markers with a sources
footer, "According to “Title”," framings, quoted-passage blocks, footnotes, 【n†Title】 tags,
sentence ids with an evidence block, source labels, verification lines) and, by a seeded coin,
the gold or the reversed evidence order. Both sides of a pair share prose style and order; only
the display differs. 200 pairs (the first use of 200 seeded items) form the validated subset.
"""
from __future__ import annotations

from dataclasses import replace

from tjb_lib.data import HotpotItem
from tjb_lib.pairs.candidates import hotpot_candidate
from tjb_lib.pairs.common import cue_label, hotpot_meta, make_pair, rng
from tjb_lib.pairs.render import STYLES, VERIFICATION_LINES, render
from tjb_lib.records import Pair

SPLIT = "natural_hotpotqa"
CUE_SETS = (
    ("markers", "sources_footer"),
    ("according_to",),
    ("according_to", "verification"),
    ("quoted_block",),
    ("footnotes",),
    ("tags",),
    ("sentence_ids", "evidence_block"),
    ("markers", "sources_footer", "verification"),
    ("source_labels",),
    ("tags", "verification"),
    ("markers", "quoted_block"),
)
ORDERS = ("gold", "reversed")
VALIDATED = 200
USES = 2


def _renderings(item: HotpotItem, seed: int) -> list[tuple[str, tuple[str, ...], str, int]]:
    """USES (style, cues, order, verification wording) choices, pairwise different in style
    and in cues."""
    r = rng(seed, SPLIT, item.id)
    combos = [(s, cs, o) for s in STYLES for cs in CUE_SETS for o in ORDERS]
    r.shuffle(combos)
    chosen: list[tuple[str, tuple[str, ...], str, int]] = []
    for style, cues, order in combos:
        if any(style == c[0] or cues == c[1] for c in chosen):
            continue
        try:
            render(hotpot_candidate(item), cues, style)
        except ValueError:   # e.g. footnotes on a sentence without final punctuation
            continue
        chosen.append((style, cues, order, r.randrange(len(VERIFICATION_LINES))))
        if len(chosen) == USES:
            return chosen
    raise ValueError(f"{item.id}: fewer than {USES} usable natural renderings")


def natural_hotpotqa(items: list[HotpotItem], seed: int) -> list[Pair]:
    validated = set(rng(seed, SPLIT, "validated").sample(sorted(i.id for i in items), VALIDATED))
    out = []
    for use in range(USES):
        for item in items:
            style, cues, order, verif = _renderings(item, seed)[use]
            c = hotpot_candidate(item)
            if order == "reversed":
                c = replace(c, evidence=c.evidence[::-1])
            out.append(make_pair(
                SPLIT, "hotpotqa", item.id, use, target_relation="equivalent", gold="tie",
                task=item.question, plain=render(c, (), style),
                cited=render(c, cues, style, verification=verif),
                variant=f"natural:{style}", artifact=cue_label(cues),
                meta={**hotpot_meta(item), "style": style, "cues": list(cues),
                      "evidence_order": order, "item_use": use + 1, "uses_per_item": USES,
                      "reuse_note": "500 HotpotQA items, each used twice with different renderings",
                      "validated_subset": use == 0 and item.id in validated}))
    return out
