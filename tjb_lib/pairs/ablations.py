"""The six citation ablations of the HotpotQA mechanical pairs (Table A2).

Each variant's plain side is the mechanical plain text and its cited side adds one artifact
family, so a preference isolates that family. Full citation is Table A2's bundle: source labels,
the evidence display and citation formatting ([n] markers and a sources list). The mechanical
split's display is that bundle plus sentence identifiers and a verification line (App. A.1 lists
both), so the two splits differ on every pair by exactly those two cues. Source-only: source
labels; empty shell: markers and a sources list with no titles; evidence-only: the evidence
repeated without framing; sentence-id-only: sentence identifiers; length-control: the item's own sentences
that do not bear on the answer (supporting paragraphs first, then the opening sentences of its
other retrieved paragraphs), each standing alone, with no citation structure, no restatement and no quality
signal, length-matched to the full-citation side as closely as those sentences allow.
"""
from __future__ import annotations

import random
import re

from tjb_lib.data import HotpotItem
from tjb_lib.pairs.candidates import hops, hotpot_candidate, mentions
from tjb_lib.pairs.common import cue_label, hotpot_meta, make_pair, rng
from tjb_lib.pairs.render import render
from tjb_lib.pairs.standalone import standalone
from tjb_lib.pairs.strip import detect_artifacts
from tjb_lib.records import Pair

FULL_CITATION_CUES = frozenset({"markers", "source_labels", "evidence_block", "sources_footer"})
# variant -> cues the cited side carries (None: length control)
ABLATION_CUES: dict[str, frozenset[str] | None] = {
    "ablation_full_citation": FULL_CITATION_CUES,
    "ablation_source_only": frozenset({"source_labels"}),
    "ablation_empty_shell": frozenset({"empty_footer"}),
    "ablation_evidence_only": frozenset({"bare_block"}),
    "ablation_sentence_id_only": frozenset({"sentence_ids"}),
    "ablation_length_control": None,
}
# Words the length-control text never uses: citation, sourcing or verification vocabulary.
CITATION_WORDS = re.compile(r"cite|citation|source|reference|evidence|verif|according|passage"
                            r"|\[\d|retriev|quot", re.I)
ORDERINGS = 40
CLOSE = 40            # characters: a fit further off than this may draw on the other paragraphs


def states(text: str, answer: str) -> bool:
    """Does ``text`` name the answer (articles aside, case and punctuation ignored)?"""
    tokens = lambda t: [w for w in re.findall(r"[a-z0-9]+", t.lower())  # noqa: E731
                        if w not in ("a", "an", "the")]
    want, have = tokens(answer), tokens(text)
    return bool(want) and any(have[i:i + len(want)] == want for i in range(len(have)))


def neutral_sentences(item: HotpotItem, supporting: bool = True) -> list[str]:
    """Sentences that do not bear on the answer, each as it stands alone (``standalone``: it
    names what it is about), not stating the answer and using no citation vocabulary: the
    supporting paragraphs' other sentences, or (``supporting=False``) the opening sentence of
    each of the item's other retrieved paragraphs, which introduces its own subject."""
    gold = {standalone(item, t, s) for t, s in item.supporting_facts}
    titles = [t for t, _ in item.context if (t in hops(item)) == supporting]
    out = []
    for title in titles:
        for sid in range(len(dict(item.context)[title]) if supporting else 1):
            sent = standalone(item, title, sid)
            if (sent and sent not in gold and sent not in out and len(sent.split()) >= 5
                    and sent[-1] in ".!?" and not states(sent, item.answer)
                    and not mentions(sent, item.answer)
                    and not CITATION_WORDS.search(sent) and not detect_artifacts(sent)):
                out.append(sent)
    return out


def _closest(tiers: list[list[str]], need: int, r: random.Random) -> list[str]:
    """Greedy over seeded orders (tier by tier): the sentences whose joined length comes
    closest to ``need``."""
    best: list[str] = []
    for _ in range(ORDERINGS):             # greedy over seeded orders: keep the closest fit
        chosen, size = [], -1
        for sent in (s for tier in tiers for s in r.sample(tier, len(tier))):
            grown = size + 1 + len(sent)
            if abs(need - grown) < abs(need - size):   # take it while it gets closer
                chosen.append(sent)
                size = grown
        if not best or abs(need - size) < abs(need - len(" ".join(best))):
            best = chosen
    return best


def length_text(item: HotpotItem, plain: str, target_len: int, r: random.Random) -> str:
    """Plain text plus a paragraph of the item's own neutral sentences (``neutral_sentences``)
    whose length brings the whole closest to ``target_len``: the supporting paragraphs'
    sentences first, the other retrieved paragraphs' opening sentences only while still short
    or where the supporting sentences cannot come within ``CLOSE`` characters."""
    need = target_len - len(plain) - 2
    tiers = [neutral_sentences(item)]
    if sum(len(x) + 1 for x in tiers[0]) < need:
        tiers.append(neutral_sentences(item, supporting=False))
    best = _closest(tiers, need, r)
    if abs(need - len(" ".join(best))) > CLOSE and len(tiers) == 1:   # whole sentences miss:
        tiers.append(neutral_sentences(item, supporting=False))       # the openings may fit
        best = _closest(tiers, need, r)
    if not best:
        raise ValueError(f"{item.id}: no length-control text fits")
    return f"{plain}\n\n{' '.join(best)}"


def ablation(name: str, items: list[HotpotItem], seed: int) -> list[Pair]:
    """One ablation variant over the mechanical HotpotQA items."""
    cues = ABLATION_CUES[name]
    variant = name[len("ablation_"):]
    out = []
    for item in items:
        c = hotpot_candidate(item, rng(seed, "voice", item.id))
        plain = render(c)
        meta = {**hotpot_meta(item), "style": "structured", "ablation_of": "mechanical_hotpotqa"}
        if cues is None:
            full = render(c, FULL_CITATION_CUES)
            cited = length_text(item, plain, len(full), rng(seed, name, item.id))
            artifact = "length_text"
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
