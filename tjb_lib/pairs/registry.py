"""The split registry: one entry per split, the only place a split is declared.

An entry names the split's builder (a function of the seeded record allocation, ``Pools``), its
target relation and source datasets, its size, the Table 1 component it belongs to, the default
sample the embedded judge runs (single-call and TRACE), its paraphrase coverage, what its two
sides may differ in and the audit budgets that follow, and its roles in our tables and the
explorer. The build, the split loader, the audit, the protocol paraphrase sets, Table 1, the
tables and the explorer all read it, so adding a split is its builder plus one entry here; no
module outside ``tjb_lib.pairs`` branches on a split's name.
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
from tjb_lib.names import by_name
from tjb_lib.records import Pair

#: paraphrase coverage: three paraphrases per ladder level, or the FinQA wording-check set
PARAPHRASE_COVERAGES = ("three_per_level", "finqa_wording_check")
#: what the two sides of a pair may differ in beyond the citation display (the audit counts a
#: sentence on one side only as a construction tell unless it is this difference): nothing, the
#: length-control padding, the soft tier's reasoning, the conflict's answer, the moderate tier's
#: dropped hop (HotpotQA) or omitted sentences (FinQA), every sentence (natural pairs are written
#: apart), or every sentence because the sides are different systems (ranking)
DIFFERENCES = ("display", "padding", "reasoning", "answer", "dropped_hop", "omitted_sentences",
               "written_apart", "systems")
#: roles a split plays in our tables: the reference setting of the paper's one printed order gap,
#: the correctness-conflict split, the split every protocol and its cost are compared on (and the
#: price estimate counts), the position-only controls every notebook runs first
ROLES = ("order_gap_reference", "conflict", "protocols", "position_controls")


@dataclass(frozen=True)
class SplitInfo:
    name: str
    build: Callable[[str, Pools], list[Pair]]  # (the split's name, the record allocation)
    target_relation: str
    source: str                  # source datasets, "+"-joined
    size: int                    # pairs the split holds
    component: str               # its Table 1 row
    default_pairs: int           # default sample, single-call protocols (first N pairs)
    default_trace_pairs: int     # default sample, two-call TRACE (stage 1 generates text)
    paraphrases: str = "three_per_level"
    differs: str = "display"     # what the sides may differ in (DIFFERENCES)
    #: a side whose reasoning is generic by design, so the audit does not ask it to echo evidence
    generic_side: str | None = None
    #: audit budgets of their own: the least share of pairs whose stripped sides differ, and the
    #: most accuracy the paired classifier may reach at finding the cited side
    min_differ: float | None = None
    max_side_accuracy: float | None = None
    tier_probe: bool = False     # a HotpotQA tier the audit's tier classifier tells apart
    explorer: bool = False       # pooled in the explorer under its target relation's tier
    roles: tuple[str, ...] = ()  # its roles in our tables (ROLES)

    def __post_init__(self) -> None:
        if self.paraphrases not in PARAPHRASE_COVERAGES:
            raise ValueError(f"split {self.name}: paraphrases must be one of {PARAPHRASE_COVERAGES}")
        if self.differs not in DIFFERENCES:
            raise ValueError(f"split {self.name}: differs must be one of {DIFFERENCES}")
        if self.generic_side not in (None, "plain", "cited"):
            raise ValueError(f"split {self.name}: generic_side must be plain, cited or None")
        unknown = set(self.roles) - set(ROLES)
        if unknown:
            raise ValueError(f"split {self.name}: unknown role(s) {sorted(unknown)}; "
                             f"known: {ROLES}")


def _ablation(variant: str, default_pairs: int = 20) -> SplitInfo:
    return SplitInfo(f"ablation_{variant}", lambda n, p: ablation(n, p.mechanical, p.seed),
                     "equivalent", "hotpotqa", 200, "Citation ablations", default_pairs, 4,
                     differs="padding" if variant == "length_control" else "display")


_ENTRIES = (
    SplitInfo("mechanical_hotpotqa", lambda n, p: mechanical_hotpotqa(p.mechanical, p.seed),
              "equivalent", "hotpotqa", 200, "Mechanical equivalence", 30, 2, tier_probe=True,
              explorer=True, roles=("order_gap_reference",)),
    SplitInfo("mechanical_finqa", lambda n, p: mechanical_finqa(p.finqa_mechanical, p.seed),
              "equivalent", "finqa", 123, "Mechanical equivalence", 20, 4, explorer=True),
    SplitInfo("natural_hotpotqa", lambda n, p: natural.natural_hotpotqa(p.hotpot, p.seed),
              "equivalent", "hotpotqa", natural.SIZE, "Natural citation-looking pairs", 30, 4,
              differs="written_apart", min_differ=0.90, max_side_accuracy=0.60, tier_probe=True,
              explorer=True),
    _ablation("full_citation"),
    _ablation("source_only"),
    _ablation("empty_shell"),
    _ablation("evidence_only"),
    _ablation("sentence_id_only"),
    _ablation("length_control"),
    SplitInfo("conflict", lambda n, p: conflict(p.conflict_hotpot, p.finqa_conflict, p.humaneval,
                                                p.seed),
              "correctness_conflict", "hotpotqa+finqa+humaneval", 150,
              "Clear and reverse conflicts", 30, 6, differs="answer", roles=("conflict",)),
    SplitInfo("position_control", lambda n, p: position_control(p.mechanical, p.seed),
              "identical", "hotpotqa", 200, "Position controls", 20, 4,
              roles=("position_controls",)),
    SplitInfo("soft_hotpotqa", lambda n, p: soft_hotpotqa(n, p.soft, p.seed), "quality_soft",
              "hotpotqa", 100, "Soft and moderate graded conflicts", 20, 4, differs="reasoning",
              generic_side="cited", tier_probe=True, explorer=True),
    SplitInfo("moderate_hotpotqa", lambda n, p: moderate_hotpotqa(n, p.moderate, p.seed),
              "quality_moderate", "hotpotqa", 100, "Soft and moderate graded conflicts", 30, 3,
              differs="dropped_hop", tier_probe=True, explorer=True, roles=("protocols",)),
    SplitInfo("moderate_finqa", lambda n, p: moderate_finqa(n, p.finqa_moderate, p.seed),
              "quality_moderate", "finqa", 50, "Soft and moderate graded conflicts", 16, 2,
              paraphrases="finqa_wording_check", differs="omitted_sentences", explorer=True),
    # ranking: 6 system pairs per query, so the default samples are whole queries (6 and 1)
    SplitInfo("ranking_hotpotqa", lambda n, p: ranking_hotpotqa(p.mechanical, p.seed), "system",
              "hotpotqa", 1200, "Workflow-ranking probe", 36, 6, differs="systems"),
)
#: every split by name, in the manifest's order (a name declared twice is refused)
SPLITS: dict[str, SplitInfo] = by_name(((s.name, s) for s in _ENTRIES), "split")
SPLIT_NAMES: tuple[str, ...] = tuple(SPLITS)


def get(name: str) -> SplitInfo:
    """The registry entry of one split; an unknown name lists the known ones."""
    try:
        return SPLITS[name]
    except KeyError:
        raise ValueError(f"unknown split {name!r}; known splits: {', '.join(SPLIT_NAMES)}") from None


def component_splits(component: str) -> tuple[str, ...]:
    """The splits of one Table 1 component, in registry order."""
    return tuple(s.name for s in SPLITS.values() if s.component == component)


def with_role(role: str) -> str:
    """The one split that plays ``role`` in our tables (``ROLES``)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; known roles: {', '.join(ROLES)}")
    named = [s.name for s in SPLITS.values() if role in s.roles]
    if len(named) != 1:
        raise ValueError(f"role {role!r} must be played by exactly one split, not {named}")
    return named[0]


def tier_probe_splits() -> tuple[str, ...]:
    """The HotpotQA tiers the audit's tier classifier tells apart, in registry order."""
    return tuple(s.name for s in SPLITS.values() if s.tier_probe)


def explorer_splits(target_relation: str) -> tuple[str, ...]:
    """The splits the explorer pools under one target relation's tier, in registry order."""
    return tuple(s.name for s in SPLITS.values()
                 if s.explorer and s.target_relation == target_relation)
