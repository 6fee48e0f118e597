"""Every number the paper states in its text (data/paper_reported/in_text_claims.csv), one entry
each, filed under the notebook that computes ours: a :class:`Cell` of one of our floats, a
:class:`FromRows` function of ``tjb_lib.paper.claim_values`` (a paired contrast, a protocol-cost figure,
a count from the splits, ...), or the reason ours cannot exist here (:class:`Absent`: human
labels, facts about the paper's annotators). ``tjb_lib.paper.claims`` builds the tables from here."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from tjb_lib.paper import claim_values as values
from tjb_lib.paper import floats
from tjb_lib.paper.float_metrics import ORIGINAL
from tjb_lib.names import by_name
from tjb_lib.protocols.specs import LEVELS


@dataclass(frozen=True)
class Cell:
    """Ours is a cell of one of our floats: the comparison rows matching ``where`` (our value
    is the same for every paper judge); ``agg`` min/max picks among several settings."""

    float: str
    where: Mapping[str, object]
    agg: str | None = None
    column: str = "ours"  # "n" for a sample size

    def __post_init__(self) -> None:
        floats.get(self.float)  # a misspelt float name fails on import, naming the known ones


@dataclass(frozen=True)
class FromRows:
    """Ours is computed by ``function(nb, **args)`` (one of ``tjb_lib.paper.claim_values``) from the
    notebook's rows or splits."""

    function: Callable[..., dict[str, Any]]
    args: Mapping[str, object] = field(default_factory=dict)
    runs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Absent:
    """Ours cannot be computed here; ``status`` says why (e.g. it needs human labels)."""

    status: str
    note: str = ""


_LABELS = Absent("needs human labels", "none ship with the compendium; "
                 "data/human_validation/README.md says how to add them")


def _humans(split: str, stat: str, level=None, agg: str | None = None) -> FromRows:
    """Tie against human labels: computed when filled graded workbooks exist, else it says it
    needs human labels."""
    return FromRows(values.human_tie_value, {"split": split, "stat": stat, "level": level,
                                             "agg": agg})


_ANNOTATION = Absent("not measurable here", "a fact about the paper's annotation effort")


def _a11(level: str, metric: str) -> Cell:
    return Cell("table_a11", {"level": level, "metric": metric})


def _a19(levels, metric: str, agg: str | None = None) -> Cell:
    return Cell("table_a19", {"level": levels, "metric": metric}, agg)


def _contrast(label: str, stat: str) -> FromRows:
    return FromRows(values.contrast_value, {"label": label, "stat": stat})


def _count(split: str, per: int = 1) -> FromRows:
    return FromRows(values.split_count, {"split": split, "per": per})


def _cost(column: str, prices: str | None = None) -> FromRows:
    return FromRows(values.cost_value, {"setting": "trace_v2", "column": column,
                                        "prices": prices})


def _finqa(level: str, paraphrases, metric: str, agg: str | None = None) -> FromRows:
    """A FinQA moderate-tier rate at one level: the original wording (p0) comes from that
    level's run, the wording-check variants from the paraphrase run (App. C.1)."""
    run = (("moderate_finqa", level),) if paraphrases == ORIGINAL else \
        (("moderate_finqa", "paraphrases"),)
    return FromRows(values.graded_value, {"split": "moderate_finqa", "level": level,
                                          "paraphrase": paraphrases, "metric": metric, "agg": agg},
                    runs=run)


#: the moderate tiers, HotpotQA (A12) and FinQA (A13)
_MODERATE = ["moderate_hotpotqa", "moderate_finqa"]
_CONFLICT_PARAPHRASES = FromRows(values.conflict_minimum, {"split": "conflict"},
                                 runs=(("conflict", "paraphrases"),))

#: (claim id, notebook that computes ours, how), one entry per claim
_ENTRIES: tuple[tuple[str, str, Cell | FromRows | Absent], ...] = (
    # §4 and Appendix A/B: the benchmark and its validation
    ("C004", "00_benchmark", _count("moderate_finqa")),
    ("C007", "00_benchmark", FromRows(values.component_count)),
    ("C008", "00_benchmark", _count("mechanical_hotpotqa")),
    ("C009", "00_benchmark", _count("mechanical_finqa")),
    ("C010", "00_benchmark", _count("natural_hotpotqa")),
    ("C011", "00_benchmark", FromRows(values.component_splits,
                                     {"component": "Citation ablations"})),
    ("C012", "00_benchmark", _count("moderate_hotpotqa")),
    ("C018", "00_benchmark", FromRows(values.judge_temperature)),
    ("C072", "00_benchmark", _count("ranking_hotpotqa", per=6)),
    ("C073", "00_benchmark", FromRows(values.ranking_systems, {"split": "ranking_hotpotqa"})),
    ("C082", "00_benchmark", FromRows(values.validated_subset, {"split": "natural_hotpotqa"})),
    ("C083", "00_benchmark", _count("conflict")),
    ("C112", "00_benchmark", FromRows(values.ranking_pairs_per_query,
                                     {"split": "ranking_hotpotqa"})),
    ("C013", "01_human_validation", _LABELS),
    ("C014", "01_human_validation", Cell("table_2", {"validation_set": "Graded moderate",
                                                    "metric": "raw_agreement_pct"})),
    ("C015", "01_human_validation", _LABELS),
    ("C016", "01_human_validation", _LABELS),
    ("C017", "01_human_validation", _LABELS),
    ("C085", "01_human_validation", _ANNOTATION),
    ("C086", "01_human_validation", _ANNOTATION),
    ("C087", "01_human_validation", _ANNOTATION),
    ("C088", "01_human_validation", _ANNOTATION),
    ("C089", "01_human_validation", _ANNOTATION),
    # §5.1: presentation
    ("C019", "02_presentation", Cell("table_a14", {"split": "HotpotQA mechanical",
                                                  "metric": "plain_cited_win"})),
    ("C020", "02_presentation", Cell("table_a14", {"split": "HotpotQA mechanical",
                                                  "metric": "plain_cited_win"})),
    ("C021", "02_presentation", Cell("table_a14", {"split": "HotpotQA mechanical",
                                                  "metric": "plain_cited_win"})),
    ("C024", "02_presentation", Cell("table_a20", {"split": "HotpotQA mechanical",
                                                  "decision_type": "citation win"})),
    ("C099", "02_presentation", Cell("table_a10", {"metric": "citation_win"}, "min", "n")),
    ("C110", "02_presentation", Cell("table_a16", {"metric": "tie"}, "min")),
    ("C111", "02_presentation", FromRows(values.order_gap_value,
                                        {"split": "mechanical_hotpotqa", "level": "L0"})),
    # §5.2: strict suppression and correctness
    ("C003", "03_strict_suppression", _CONFLICT_PARAPHRASES),
    ("C026", "03_strict_suppression", _CONFLICT_PARAPHRASES),
    ("C084", "03_strict_suppression", FromRows(values.paraphrase_count, {"split": "conflict"},
                                              runs=(("conflict", "paraphrases"),))),
    ("C109", "03_strict_suppression", Cell("table_a15", {"metric": "correct_base_win"})),
    ("C120", "03_strict_suppression", FromRows(values.paraphrase_count, {"split": "conflict"},
                                              runs=(("conflict", "paraphrases"),))),
    # §5.3: resolution loss and the meanings of Tie
    ("C001", "04_resolution_loss", _a19("L0", "worse_cited")),
    ("C002", "04_resolution_loss", _a19(["L1", "L2", "L3", "L4"], "worse_cited", "max")),
    ("C022", "04_resolution_loss", _a19("L0", "worse_cited")),
    ("C023", "04_resolution_loss", _a19("L1", "worse_cited")),
    ("C025", "04_resolution_loss", _a19("L4", "worse_cited")),
    ("C027", "04_resolution_loss", _a11("L3", "better_plain")),
    ("C028", "04_resolution_loss", _a11("L3", "better_plain")),
    ("C029", "04_resolution_loss", _a11("L3", "tie")),
    ("C030", "04_resolution_loss", _a11("L3", "tie")),
    ("C031", "04_resolution_loss", _a11("L4", "better_plain")),
    ("C032", "04_resolution_loss", _a11("L4", "better_plain")),
    ("C033", "04_resolution_loss", _a11("L4", "better_plain")),
    ("C034", "04_resolution_loss", _humans("soft_hotpotqa", "human_tie")),
    ("C035", "04_resolution_loss", _a19(["L2", "L3"], "tie", "min")),
    ("C036", "04_resolution_loss", _a19(["L2", "L3"], "tie", "max")),
    ("C037", "04_resolution_loss", _humans("soft_hotpotqa", "item_agreement", ["L2", "L3"],
                                          "min")),
    ("C038", "04_resolution_loss", _humans("soft_hotpotqa", "item_agreement", ["L2", "L3"],
                                          "max")),
    ("C039", "04_resolution_loss", _humans("moderate_hotpotqa", "human_tie")),
    ("C040", "04_resolution_loss", FromRows(values.tie_items, {"split": "moderate_hotpotqa",
                                                              "level": "L3"})),
    ("C041", "04_resolution_loss", FromRows(values.tie_items, {"split": "moderate_hotpotqa",
                                                              "level": "L3"})),
    ("C042", "04_resolution_loss", _humans("moderate_hotpotqa", "tie_precision", "L3")),
    ("C043", "04_resolution_loss", _humans("moderate_hotpotqa", "tie_precision", "L3")),
    ("C100", "04_resolution_loss", _a11("L0", "better_plain")),
    ("C101", "04_resolution_loss", FromRows(values.graded_value, {"split": "moderate_hotpotqa",
                                                                 "level": "L0",
                                                                 "metric": "worse_cited"})),
    ("C102", "04_resolution_loss", _a11("L0", "tie")),
    ("C103", "04_resolution_loss", FromRows(values.graded_value, {"split": "moderate_hotpotqa",
                                                                 "level": list(LEVELS),
                                                                 "metric": "worse_cited",
                                                                 "agg": "max"})),
    ("C119", "04_resolution_loss", FromRows(values.paraphrase_count,
                                           {"split": ["soft_hotpotqa", "moderate_hotpotqa"]})),
    # §5.4 and §E.5: the frontier and its paired tests
    ("C044", "05_frontier", _contrast("L0 vs L4", "mcnemar_p")),
    ("C045", "05_frontier", _contrast("L4 vs TRACE", "mcnemar_p")),
    ("C046", "05_frontier", _contrast("L0 vs L4", "difference")),
    ("C047", "05_frontier", _contrast("L0 vs L4", "difference_low")),
    ("C048", "05_frontier", _contrast("L0 vs L4", "difference_high")),
    ("C049", "05_frontier", _contrast("L0 vs L4", "difference")),
    ("C050", "05_frontier", _contrast("L0 vs L4", "difference_low")),
    ("C051", "05_frontier", _contrast("L0 vs L4", "difference_high")),
    ("C081", "05_frontier", FromRows(values.bootstrap_resamples)),
    ("C105", "05_frontier", _contrast("L0 vs L4", "difference")),
    ("C106", "05_frontier", _contrast("L0 vs L4", "difference")),
    ("C107", "05_frontier", FromRows(values.bootstrap_resamples)),
    ("C108", "05_frontier", _contrast("L3 vs TRACE", "mcnemar_p")),
    # §5.5-§6, App. C.1: TRACE, FinQA and cost
    ("C005", "06_trace", FromRows(values.trace_recovery, {"splits": _MODERATE, "agg": "min"})),
    ("C006", "06_trace", FromRows(values.trace_recovery, {"splits": _MODERATE, "agg": "max"})),
    ("C052", "06_trace", Cell("table_a12", {"metric": "trace_better_plain"})),
    ("C053", "06_trace", Cell("table_a12", {"metric": "trace_better_plain"})),
    ("C054", "06_trace", Cell("table_a12", {"metric": "trace_better_plain"})),
    ("C055", "06_trace", Cell("table_a12", {"metric": "trace_better_plain"})),
    ("C056", "06_trace", Cell("table_a12", {"metric": "trace_worse_cited"})),
    ("C057", "06_trace", FromRows(values.level_count, {"split": "moderate_finqa"},
                                 runs=(("moderate_finqa", "L3"),))),
    ("C058", "06_trace", Cell("table_a13", {"metric": "l0_l2_better_plain_low"})),
    ("C059", "06_trace", Cell("table_a13", {"metric": "l0_l2_better_plain_high"})),
    ("C060", "06_trace", Cell("table_a13", {"metric": "l0_l2_better_plain_low"})),
    ("C061", "06_trace", Cell("table_a13", {"metric": "l0_l2_better_plain_high"})),
    ("C062", "06_trace", Cell("table_a13", {"metric": "l0_l2_better_plain_low"})),
    ("C063", "06_trace", Cell("table_a13", {"metric": "l0_l2_better_plain_high"})),
    ("C064", "06_trace", Cell("table_a13", {"metric": "l4_tie"})),
    ("C065", "06_trace", Cell("table_a13", {"metric": "l4_tie"})),
    ("C066", "06_trace", Cell("table_a13", {"metric": "l4_tie"})),
    ("C067", "06_trace", Cell("table_a13", {"metric": "trace_better_plain"})),
    ("C068", "06_trace", Cell("table_a13", {"metric": "trace_better_plain"})),
    ("C069", "06_trace", Cell("table_a13", {"metric": "trace_better_plain"})),
    ("C070", "06_trace", Cell("table_a13", {"metric": "trace_tie"})),
    ("C071", "06_trace", _finqa("L3", ORIGINAL, "better_plain")),
    ("C074", "06_trace", _cost("token_multiplier")),
    ("C075", "06_trace", _cost("token_multiplier")),
    ("C076", "06_trace", _cost("dollar_multiplier", "gpt-5.5")),
    ("C077", "06_trace", _cost("dollar_multiplier", "gpt-5.5")),
    ("C078", "06_trace", _cost("usd_per_1000_comparisons", "gpt-5.5")),
    ("C079", "06_trace", _cost("usd_per_1000_comparisons", "gpt-5.5")),
    ("C080", "06_trace", _cost("calls_per_completed_comparison")),
    ("C090", "06_trace", _finqa("L2", ["finqa_a", "finqa_b"], "better_plain", "min")),
    ("C091", "06_trace", _finqa("L2", ["finqa_a", "finqa_b"], "better_plain", "max")),
    ("C092", "06_trace", _finqa("L2", ["finqa_a", "finqa_b"], "tie", "min")),
    ("C093", "06_trace", _finqa("L2", ["finqa_a", "finqa_b"], "tie", "max")),
    ("C094", "06_trace", _finqa("L2", ORIGINAL, "better_plain")),
    ("C095", "06_trace", _finqa("L3", "finqa_a", "better_plain")),
    ("C096", "06_trace", _finqa("L3", "finqa_a", "tie")),
    ("C097", "06_trace", _finqa("L3", ORIGINAL, "better_plain")),
    ("C098", "06_trace", _finqa("L4", "finqa_boundary", "tie")),
    ("C104", "06_trace", _finqa("L3", ORIGINAL, "better_plain")),
    ("C118", "06_trace", Cell("table_a13", {"metric": "l4_tie"}, column="n")),
    ("C121", "06_trace", FromRows(values.paraphrase_count, {"split": "moderate_finqa",
                                                           "level": "L2", "extra": True},
                                 runs=(("moderate_finqa", "paraphrases"),))),
    ("C122", "06_trace", FromRows(values.paraphrase_count, {"split": "moderate_finqa",
                                                           "level": "L3", "extra": True},
                                 runs=(("moderate_finqa", "paraphrases"),))),
    # §5.6, §E.9-E.10: the ranking probe
    ("C113", "07_ranking", FromRows(values.rows_per_setting, {"split": "ranking_hotpotqa",
                                                             "level": "L0"})),
    ("C114", "07_ranking", Cell("table_a17", {"protocol": "plain preference",
                                             "system": "cited_full"}, column="n")),
    ("C115", "07_ranking", FromRows(values.ranking_points, {"decision": "win"})),
    ("C116", "07_ranking", FromRows(values.ranking_points, {"decision": "tie"})),
    ("C117", "07_ranking", Cell("table_a18", {"protocol": "plain preference",
                                             "metric": "tie"}, column="n")),
)
#: claim id -> (notebook that computes ours, how); an id declared twice is refused
CLAIMS: dict[str, tuple[str, Cell | FromRows | Absent]] = by_name(
    ((cid, (notebook, how)) for cid, notebook, how in _ENTRIES), "claim")


#: where the paper gives its own interval or range for a claim: ours inside it agrees too
PAPER_RANGES = {"C046": ("C047", "C048"), "C105": ("C047", "C048"),
                "C049": ("C050", "C051"), "C106": ("C050", "C051"),
                **{c: pair for pair in (("C074", "C075"), ("C076", "C077"), ("C078", "C079"))
                   for c in pair}}
#: bounds of a paper's interval, set against ours through the value they bound
BOUNDS = ("C047", "C048", "C050", "C051")
#: claims the paper states as "at or above" its value
AT_LEAST = ("C003", "C026")
#: sample sizes (comparisons or rows per setting): ours differs from the paper's only by the
#: sample drawn, so they are read with ``paper_match.size_agrees``
SAMPLE_SIZES = ("C099", "C113", "C114", "C117", "C118")


def claims_of(notebook: str) -> list[str]:
    """The claim ids whose value of ours a notebook computes, in id order."""
    return sorted(cid for cid, (nb, _) in CLAIMS.items() if nb == notebook)
