"""The six citation ablations of the HotpotQA mechanical pairs.

Each variant's cited side is the mechanical plain text plus exactly one artifact family, so any
preference isolates that artifact: the full bundle, source labels only, an empty citation shell,
evidence text only, sentence ids only, or length-matched filler with no citation cue at all.
"""
from __future__ import annotations

from tjb_lib.data import HotpotItem
from tjb_lib.pairs.candidates import hotpot_candidate
from tjb_lib.pairs.common import cue_label, hotpot_meta, make_pair, rng
from tjb_lib.pairs.render import MECHANICAL_CUES, render
from tjb_lib.records import Pair

# variant -> cues the cited side carries (None: length control)
ABLATION_CUES: dict[str, frozenset[str] | None] = {
    "ablation_full_citation": MECHANICAL_CUES,
    "ablation_source_only": frozenset({"source_labels"}),
    "ablation_empty_shell": frozenset({"empty_footer"}),
    "ablation_evidence_only": frozenset({"bare_block"}),
    "ablation_sentence_id_only": frozenset({"sentence_ids"}),
    "ablation_length_control": None,
}
# Neutral sentences: no source, citation, evidence or verification vocabulary.
FILLER = (
    "This response is kept short and direct.",
    "The points above are listed in the order they are used.",
    "The same idea could be phrased in other ways.",
    "Nothing more needs to be added to it.",
    "Each line is written to be easy to read.",
    "The wording is plain on purpose.",
    "The answer is stated once, at the top.",
    "No part of it is meant to be decorative.",
    "A reader can follow it from top to bottom.",
    "It avoids long sentences where short ones will do.",
)


def length_filler(plain: str, target_len: int, r) -> str:
    """Plain text plus a paragraph of neutral sentences bringing its length closest to target."""
    order = list(FILLER)
    r.shuffle(order)
    sentences: list[str] = []
    text = plain
    i = 0
    while True:
        nxt = " ".join(sentences + [order[i % len(order)]])
        cand = f"{plain}\n\n{nxt}"
        if abs(len(cand) - target_len) >= abs(len(text) - target_len) and sentences:
            return text
        sentences.append(order[i % len(order)])
        text = cand
        i += 1


def ablation(name: str, items: list[HotpotItem], seed: int) -> list[Pair]:
    """One ablation variant over the mechanical HotpotQA items."""
    cues = ABLATION_CUES[name]
    variant = name[len("ablation_"):]
    out = []
    for item in items:
        c = hotpot_candidate(item)
        plain = render(c)
        meta = {**hotpot_meta(item), "style": "structured", "ablation_of": "mechanical_hotpotqa"}
        if cues is None:
            full = render(c, MECHANICAL_CUES)
            cited = length_filler(plain, len(full), rng(seed, name, item.id))
            artifact = "length_filler"
            meta.update(length_target=len(full), length_plain=len(plain),
                        length_cited=len(cited))
        else:
            cited, artifact = render(c, cues), cue_label(cues)
            meta["cues"] = sorted(cues)
        out.append(make_pair(
            name, "hotpotqa", item.id, 0, target_relation="equivalent", gold="tie",
            task=item.question, plain=plain, cited=cited, variant=variant, artifact=artifact,
            meta=meta))
    return out
