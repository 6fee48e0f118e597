"""The split registry: one entry per split, the only place a split is declared.

An entry names the split's builder (a function of the seeded record allocation, ``Pools``), its
target relation and source datasets, its size, the Table 1 component it belongs to, the default
sample the embedded judge runs (single-call and TRACE), and its paraphrase coverage. The build,
the split loader, the audit plan, the protocol paraphrase sets and Table 1 all read it, so adding
a split is its builder plus one entry here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from tjb_lib.pairs.ablations import ablation
from tjb_lib.pairs.conflicts import conflict
from tjb_lib.pairs.controls import position_control
from tjb_lib.pairs.equivalence import mechanical_finqa, mechanical_hotpotqa
from tjb_lib.pairs.graded import moderate_finqa, moderate_hotpotqa, soft_hotpotqa
from tjb_lib.pairs import natural
from tjb_lib.pairs.pools import Pools
from tjb_lib.pairs.ranking import ranking_hotpotqa
from tjb_lib.records import Pair

#: paraphrase coverage: three paraphrases per ladder level, or the FinQA wording-check set
PARAPHRASE_COVERAGES = ("three_per_level", "finqa_wording_check")


@dataclass(frozen=True)
class SplitInfo:
    name: str
    build: Callable[[Pools], list[Pair]]
    target_relation: str
    source: str                  # source datasets, "+"-joined
    size: int                    # pairs the split holds
    component: str               # its Table 1 row
    default_pairs: int           # default sample, single-call protocols (first N pairs)
    default_trace_pairs: int     # default sample, two-call TRACE (stage 1 generates text)
    paraphrases: str = "three_per_level"

    def __post_init__(self) -> None:
        if self.paraphrases not in PARAPHRASE_COVERAGES:
            raise ValueError(f"split {self.name}: paraphrases must be one of {PARAPHRASE_COVERAGES}")


def _ablation(variant: str, default_pairs: int = 20) -> SplitInfo:
    name = f"ablation_{variant}"
    return SplitInfo(name, lambda p: ablation(name, p.mechanical, p.seed), "equivalent",
                     "hotpotqa", 200, "Citation ablations", default_pairs, 4)


_ENTRIES = (
    SplitInfo("mechanical_hotpotqa", lambda p: mechanical_hotpotqa(p.mechanical, p.seed), "equivalent",
              "hotpotqa", 200, "Mechanical equivalence", 30, 2),
    SplitInfo("mechanical_finqa", lambda p: mechanical_finqa(p.finqa_mechanical, p.seed), "equivalent",
              "finqa", 200, "Mechanical equivalence", 20, 4),
    SplitInfo("natural_hotpotqa", lambda p: natural.natural_hotpotqa(p.hotpot, p.seed), "equivalent",
              "hotpotqa", natural.SIZE, "Natural citation-looking pairs", 30, 4),
    _ablation("full_citation"),
    _ablation("source_only"),
    _ablation("empty_shell"),
    _ablation("evidence_only"),
    _ablation("sentence_id_only"),
    _ablation("length_control"),
    SplitInfo("conflict", lambda p: conflict(p.conflict_hotpot, p.finqa_conflict, p.humaneval,
                                             p.seed),
              "correctness_conflict", "hotpotqa+finqa+humaneval", 150,
              "Clear and reverse conflicts", 30, 6),
    SplitInfo("position_control", lambda p: position_control(p.mechanical, p.seed), "identical",
              "hotpotqa", 200, "Position controls", 20, 4),
    SplitInfo("soft_hotpotqa", lambda p: soft_hotpotqa(p.soft, p.seed), "quality_soft", "hotpotqa", 100,
              "Soft and moderate graded conflicts", 20, 4),
    SplitInfo("moderate_hotpotqa", lambda p: moderate_hotpotqa(p.moderate, p.seed), "quality_moderate",
              "hotpotqa", 100, "Soft and moderate graded conflicts", 30, 3),
    SplitInfo("moderate_finqa", lambda p: moderate_finqa(p.finqa_moderate, p.seed), "quality_moderate",
              "finqa", 50, "Soft and moderate graded conflicts", 16, 2,
              paraphrases="finqa_wording_check"),
    # ranking: 6 system pairs per query, so the default samples are whole queries (6 and 1)
    SplitInfo("ranking_hotpotqa", lambda p: ranking_hotpotqa(p.mechanical, p.seed), "system", "hotpotqa",
              1200, "Workflow-ranking probe", 36, 6),
)
#: every split by name, in the manifest's order
SPLITS: dict[str, SplitInfo] = {s.name: s for s in _ENTRIES}
SPLIT_NAMES: tuple[str, ...] = tuple(SPLITS)


def get(name: str) -> SplitInfo:
    """The registry entry of one split; an unknown name lists the known ones."""
    try:
        return SPLITS[name]
    except KeyError:
        raise ValueError(f"unknown split {name!r}; known splits: {', '.join(SPLIT_NAMES)}") from None


def component_splits(component: str) -> tuple[str, ...]:
    """The splits of one Table 1 component, in registry order."""
    return tuple(s.name for s in _ENTRIES if s.component == component)
