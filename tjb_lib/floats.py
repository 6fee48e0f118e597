"""The paper's floats and in-text claims, one entry each: the only place either is declared.

A paper float (Table A9, Figure 3, ...) is one :class:`Float`: its section and title, the
notebook that writes it, the (split, protocol) runs it needs, how the paper's printed rows map
onto ours (:class:`Comparison`: the reported CSV, its judge and key columns, our setting behind
each printed row and our metric behind each printed column), the figure that draws it and the
headline cells REPORT.md reads. ``plan`` takes the runs from here, ``compare`` the mapping,
``report_index`` the section, title and headlines, ``notebook`` what each notebook shows, and the
notebook tests what each notebook must write. Adding a paper float is one entry in
:data:`FLOATS`, its CSV in data/paper_reported/ and one notebook cell, ``nb.show("<name>")``.

Tables of ours that the paper prints no table for (order gaps, the Tie decomposition, the paired
contrasts, protocol cost, the analyses beyond the paper) are entries too, with ``paper=False``.

Every number the paper states in its text (data/paper_reported/in_text_claims.csv) is one entry
of :data:`CLAIMS`, filed under the notebook that computes ours: a cell of one of our floats, a
paired contrast, a protocol-cost figure, a count from the splits, or the reason ours cannot exist
here (human labels, facts about the paper's annotators).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import pandas as pd

#: notebooks in run order, with the paper section each one reads
NOTEBOOKS = {"00_benchmark": "§4", "01_human_validation": "§4", "02_presentation": "§5.1",
             "03_strict_suppression": "§5.2", "04_resolution_loss": "§5.3",
             "05_frontier": "§5.4", "06_trace": "§5.5–§6", "07_ranking": "§5.6",
             "08_explore": "teaching", "09_beyond": "beyond the paper",
             "10_human_workbooks": "§4, App. B"}
LEVELS = ("L0", "L1", "L2", "L3", "L4")
#: the position-only controls, run in every notebook that reads verdicts: a judge that picks a
#: slot there has verdicts that are position-driven everywhere (see compare.slot_picking)
POSITION_RUNS = (("position_control", "L0"), ("position_control", "L4"))


# --------------------------------------------------------------------------- the entries


@dataclass(frozen=True)
class Metric:
    """One printed column: where our value comes from and how its interval was made."""

    paper: str                     # column in the paper's CSV
    ours: str                      # column in our metrics frame
    where: Mapping[str, object] = field(default_factory=dict)  # extra filter (list = isin)
    agg: str | None = None         # "min" / "max" over the matched rows (A13's L0-L2 ranges)
    interval: str = "wilson"       # how ours_low/ours_high were made
    low: str | None = None         # interval columns (default <ours>_low / <ours>_high)
    high: str | None = None
    paper_per: str | None = None   # paper prints a count: divide by this column, x 100


@dataclass(frozen=True)
class Comparison:
    """How one paper float's printed rows map onto our verdict rows."""

    paper: str | Callable[[], pd.DataFrame]  # reported CSV name, or a builder (Figure 3)
    judge_col: str                           # the paper's judge column ("model" or "judge")
    keys: tuple[str, ...]                    # the paper's other key columns, kept as printed
    rows: Mapping[tuple, Mapping[str, object] | Sequence[Mapping[str, object]]]
    metrics: tuple[Metric, ...]
    ours: Callable[[pd.DataFrame, int], pd.DataFrame]  # verdict rows, seed -> our metrics
    paper_n: str | None = None               # the paper's n column, if printed
    match: tuple[str, ...] | None = None     # key columns used to look up ``rows`` (default keys)


@dataclass(frozen=True)
class Float:
    """One table or figure: where it stands in the paper, what it needs, how it is made."""

    name: str
    section: str
    title: str
    notebook: str
    runs: tuple[tuple[str, str], ...] = ()
    comparison: Comparison | None = None     # paper rows -> our cells
    table: Callable[[Any], pd.DataFrame] | None = None  # else: built from the notebook context
    figure: Callable[[pd.DataFrame], Any] | None = None  # draws the table
    headlines: tuple[tuple[str, Mapping[str, object]], ...] = ()
    paper: bool = True                       # False: a table of ours, not printed by the paper

    def __post_init__(self) -> None:
        if self.notebook not in NOTEBOOKS:
            raise ValueError(f"float {self.name}: unknown notebook {self.notebook!r}")


# --------------------------------------------------------------------------- our metrics


BY = ("judge", "split", "protocol", "level")


def _equivalence(rows, seed):
    from tjb_lib import metrics
    return metrics.equivalence_table(rows, BY, seed=seed)


def _graded(rows, seed):
    from tjb_lib import metrics
    return metrics.graded_table(rows, BY, seed=seed)


def _correctness(rows, seed):
    from tjb_lib import metrics
    conflicts = rows.loc[rows["target_relation"] == "correctness_conflict"]
    return metrics.correctness_table(conflicts, BY, seed=seed)


def _position(rows, seed):
    from tjb_lib import metrics
    return metrics.position_table(rows, BY)


def _ranking(rows, seed):
    from tjb_lib import metrics
    return metrics.ranking_scores_with_intervals(rows.loc[rows["target_relation"] == "system"],
                                                 seed=seed)


def _direct(rows, seed):
    from tjb_lib import metrics
    return metrics.direct_comparison(rows.loc[rows["target_relation"] == "system"], by=BY)


def _rationale(rows, seed):
    from tjb_lib.rationale import keyword_rates
    return keyword_rates(rows, by=("judge", "split", "decision_type"))


def figure_3_paper() -> pd.DataFrame:
    """Figure 3's values as Table A1 says: the A11 ladder plus A12's TRACE point per judge."""
    from tjb_lib.report import paper_table

    ladder = paper_table("table_a11")[["judge", "level", "better_plain", "tie"]]
    trace = paper_table("table_a12").rename(columns={"trace_better_plain": "better_plain",
                                                     "trace_tie": "tie"})
    trace = trace.assign(level="TRACE")[["judge", "level", "better_plain", "tie"]]
    return pd.concat([ladder, trace], ignore_index=True).assign(source="Figure 3")


def _draw(name: str) -> Callable[[pd.DataFrame], Any]:
    """The figure function ``tjb_lib.figures.<name>``, imported when a figure is drawn."""
    def draw(table: pd.DataFrame):
        from tjb_lib import figures
        return getattr(figures, name)(table)
    draw.__name__ = name
    return draw


# --------------------------------------------------------------------------- the mappings


def _ladder(split: str, level: str) -> dict:
    return {"split": split, "protocol": "ladder", "level": level}


def _ladder_runs(split: str, levels: Sequence[str] = LEVELS) -> tuple[tuple[str, str], ...]:
    return tuple((split, level) for level in levels)


_EQ = ("tie", "citation_win", "base_win")
_EQ_METRICS = (*(Metric(c, c) for c in _EQ),
               Metric("signed_effect", "signed_effect", interval="bootstrap"))
_STRICT_SPLITS = {"HotpotQA mechanical": "mechanical_hotpotqa",
                  "FinQA mechanical": "mechanical_finqa",
                  "Natural citation-looking": "natural_hotpotqa"}
_FIG2_SPLITS = {"HotpotQA": "mechanical_hotpotqa", "FinQA": "mechanical_finqa",
                "Natural": "natural_hotpotqa"}
_PLAIN_STRICT = (Metric("plain_cited_win", "citation_win", {"protocol": "ladder", "level": "L0"}),
                 Metric("strict_tie", "tie", {"protocol": "ladder", "level": "L4"}))
_STRICT_RUNS = tuple((s, p) for s in _STRICT_SPLITS.values() for p in ("L0", "L4"))
_RANK_PROTOCOLS = {"plain preference": {"protocol": "ladder", "level": "L0"},
                   "correctness-first": {"protocol": "ladder", "level": "L3"},
                   "TRACE": {"protocol": "trace_v2"}}
_RANK_RUNS = (("ranking_hotpotqa", "L0"), ("ranking_hotpotqa", "L3"),
              ("ranking_hotpotqa", "trace_v2"))
_SYSTEMS = ("answer_only", "plain_full", "cited_full", "cited_partial")
_MODERATE = _ladder_runs("moderate_hotpotqa")
_MODERATE_TRACE = (("moderate_hotpotqa", "trace_v2"), ("moderate_hotpotqa", "trace_lite"))
_SOFT = _ladder_runs("soft_hotpotqa")

_A19 = Comparison("table_a19", "judge", ("level",),
                  {(lv,): _ladder("soft_hotpotqa", lv) for lv in LEVELS},
                  (Metric("worse_cited", "worse_cited"), Metric("tie", "tie")), _graded)


def _tables(name: str) -> Callable[[Any], pd.DataFrame]:
    """A table of ours built by ``tjb_lib.compare.<name>(notebook context)``."""
    def table(nb):
        from tjb_lib import compare
        return getattr(compare, name)(nb)
    table.__name__ = name
    return table


_ENTRIES = (
    # §4
    Float("table_1", "§4", "Benchmark components", "00_benchmark", table=_tables("table_1")),
    Float("table_2", "§4", "Human validation", "01_human_validation", table=_tables("table_2"),
          headlines=(("raw agreement, graded moderate", {"validation_set": "Graded moderate",
                                                          "metric": "raw_agreement_pct"}),)),
    # §5.1
    Float("table_a9", "§5.1", "Equivalence and natural pairs: plain, strict, decoupled",
          "02_presentation",
          (("mechanical_hotpotqa", "L0"), ("mechanical_hotpotqa", "L4"),
           ("mechanical_hotpotqa", "trace_v2"), ("natural_hotpotqa", "L0"),
           ("natural_hotpotqa", "L4")),
          Comparison("table_a9", "model", ("protocol",),
                     {("Mechanical Plain",): _ladder("mechanical_hotpotqa", "L0"),
                      ("Mechanical Strict",): _ladder("mechanical_hotpotqa", "L4"),
                      ("Decoupled Mechanical",): {"split": "mechanical_hotpotqa",
                                                  "protocol": "trace_v2"},
                      ("Natural Plain",): _ladder("natural_hotpotqa", "L0"),
                      ("Natural Strict",): _ladder("natural_hotpotqa", "L4")},
                     _EQ_METRICS, _equivalence, paper_n="n"),
          headlines=(("Δcitation, mechanical plain", {"protocol": "Mechanical Plain",
                                                      "metric": "signed_effect"}),
                     ("Tie, mechanical strict", {"protocol": "Mechanical Strict",
                                                 "metric": "tie"}))),
    Float("table_a10", "§5.1", "Citation ablations", "02_presentation",
          tuple((f"ablation_{s}", "L0") for s in (
              "full_citation", "source_only", "empty_shell", "evidence_only", "sentence_id_only",
              "length_control")),
          Comparison("table_a10", "model", ("variant",),
                     {(v,): _ladder(f"ablation_{s}", "L0") for v, s in (
                         ("full citation", "full_citation"), ("source-only", "source_only"),
                         ("empty shell", "empty_shell"), ("evidence-only", "evidence_only"),
                         ("sentence-id-only", "sentence_id_only"),
                         ("length-control", "length_control"))},
                     _EQ_METRICS, _equivalence, paper_n="n"),
          headlines=(("Δcitation, full citation", {"variant": "full citation",
                                                   "metric": "signed_effect"}),
                     ("Δcitation, length-control", {"variant": "length-control",
                                                    "metric": "signed_effect"}))),
    Float("table_a16", "§5.1", "Position-only controls", "02_presentation", POSITION_RUNS,
          Comparison("table_a16", "model", (),
                     {(): [_ladder("position_control", "L0"), _ladder("position_control", "L4")]},
                     tuple(Metric(c, c) for c in ("first_position_win", "second_position_win",
                                                  "tie")),
                     _position, paper_n="n"),
          headlines=(("first-position win (L0)", {"metric": "first_position_win",
                                                  "setting": "L0"}),
                     ("Tie (L0)", {"metric": "tie", "setting": "L0"}))),
    Float("table_a20", "§5.1", "Rationale keyword rates", "02_presentation", _STRICT_RUNS,
          Comparison("table_a20", "judge", ("split", "decision_type"),
                     {(k, d): {"split": v, "decision_type": d}
                      for k, v in _STRICT_SPLITS.items() for d in ("citation win", "Tie")},
                     (Metric("keyword_rate", "rate", low="ci_low", high="ci_high"),), _rationale),
          headlines=(("keyword rate, HotpotQA citation wins",
                      {"split": "HotpotQA mechanical", "decision_type": "citation win"}),)),
    Float("order_gaps", "§E.8", "Order gaps: cited-win rate with the cited side first minus "
          "second", "02_presentation", _STRICT_RUNS, table=_tables("order_gaps"), paper=False),
    # §5.2
    Float("figure_2", "§5.2", "Plain cited-win vs strict Tie", "03_strict_suppression",
          _STRICT_RUNS,
          Comparison("figure_2", "judge", ("panel", "split"),
                     {(k,): {"split": v} for k, v in _FIG2_SPLITS.items()}, _PLAIN_STRICT,
                     _equivalence, match=("split",)),
          figure=_draw("figure_2"),
          headlines=(("cited wins under plain, HotpotQA", {"split": "HotpotQA",
                                                           "metric": "plain_cited_win"}),
                     ("Tie under strict, HotpotQA", {"split": "HotpotQA",
                                                     "metric": "strict_tie"}))),
    Float("table_a14", "§5.2", "Equivalence suppression under the strict rubric",
          "03_strict_suppression", _STRICT_RUNS,
          Comparison("table_a14", "judge", ("split",),
                     {(k,): {"split": v} for k, v in _STRICT_SPLITS.items()}, _PLAIN_STRICT,
                     _equivalence),
          headlines=(("cited wins under plain, natural", {"split": "Natural citation-looking",
                                                          "metric": "plain_cited_win"}),
                     ("Tie under strict, natural", {"split": "Natural citation-looking",
                                                    "metric": "strict_tie"}))),
    Float("table_a15", "§5.2", "Decoupled correctness retention", "03_strict_suppression",
          (("conflict", "trace_v1"),),
          Comparison("table_a15", "model", (), {(): {"split": "conflict", "protocol": "trace_v1"}},
                     (Metric("correct_base_win", "correct_win"),
                      Metric("wrong_cited_win", "wrong_win"), Metric("tie", "tie")),
                     _correctness, paper_n="n"),
          headlines=(("correct-side win", {"metric": "correct_base_win"}),)),
    Float("table_a15_protocols", "§5.2", "Correctness conflicts under each of our protocols "
          "(L4 and TRACE-lite beside the decoupled probe)", "03_strict_suppression",
          (("conflict", "trace_v1"), ("conflict", "L4"), ("conflict", "trace_lite")),
          table=_tables("conflict_protocols"), paper=False),
    # §5.3
    Float("table_a11", "§5.3", "Moderate-tier prompt ladder", "04_resolution_loss", _MODERATE,
          Comparison("table_a11", "judge", ("level",),
                     {(lv,): _ladder("moderate_hotpotqa", lv) for lv in LEVELS},
                     (Metric("better_plain", "better_plain"), Metric("tie", "tie")), _graded),
          headlines=(("better-plain at L0", {"level": "L0", "metric": "better_plain"}),
                     ("Tie at L4", {"level": "L4", "metric": "tie"}))),
    Float("table_a19", "§5.3", "Soft-tier prompt ladder", "04_resolution_loss", _SOFT, _A19,
          headlines=(("worse-cited at L0", {"level": "L0", "metric": "worse_cited"}),
                     ("Tie at L3", {"level": "L3", "metric": "tie"}))),
    Float("figure_a1", "§5.3", "Soft-tier ladder (figure)", "04_resolution_loss", _SOFT, _A19,
          figure=_draw("figure_a1"),
          headlines=(("Tie at L2", {"level": "L2", "metric": "tie"}),)),
    Float("tie_by_relation", "§5.3", "Tie by target relation (never pooled)",
          "04_resolution_loss", (*_STRICT_RUNS, *_MODERATE, *_SOFT),
          table=_tables("tie_decomposition"), paper=False),
    # §5.4
    Float("figure_3", "§5.4", "Bias-resolution frontier (figure)", "05_frontier",
          (*_MODERATE, ("moderate_hotpotqa", "trace_v2")),
          Comparison(figure_3_paper, "judge", ("level",),
                     {**{(lv,): _ladder("moderate_hotpotqa", lv) for lv in LEVELS},
                      ("TRACE",): {"split": "moderate_hotpotqa", "protocol": "trace_v2"}},
                     (Metric("better_plain", "better_plain"), Metric("tie", "tie")), _graded),
          figure=_draw("figure_3"),
          headlines=(("better-plain at L4", {"level": "L4", "metric": "better_plain"}),
                     ("better-plain under TRACE", {"level": "TRACE",
                                                   "metric": "better_plain"}))),
    Float("contrasts_e5", "§5.4, §E.5", "Paired protocol contrasts on the better-plain indicator",
          "05_frontier", (*_MODERATE, ("moderate_hotpotqa", "trace_v2")),
          table=_tables("contrasts_e5"), paper=False),
    # §5.5-§6
    Float("table_a12", "§5.5", "TRACE recovery, HotpotQA moderate", "06_trace", _MODERATE_TRACE,
          Comparison("table_a12", "judge", (),
                     {(): {"split": "moderate_hotpotqa", "protocol": "trace_v2"}},
                     (Metric("trace_better_plain", "better_plain"),
                      Metric("trace_worse_cited", "worse_cited"), Metric("trace_tie", "tie")),
                     _graded),
          headlines=(("TRACE better-plain", {"metric": "trace_better_plain"}),)),
    Float("table_a13", "§5.5", "FinQA moderate robustness", "06_trace",
          (*_ladder_runs("moderate_finqa", ("L0", "L1", "L2", "L4")),
           ("moderate_finqa", "trace_v2")),
          Comparison("table_a13", "judge", (), {(): {"split": "moderate_finqa"}},
                     (Metric("l0_l2_better_plain_low", "better_plain",
                             {"protocol": "ladder", "level": ["L0", "L1", "L2"]}, agg="min"),
                      Metric("l0_l2_better_plain_high", "better_plain",
                             {"protocol": "ladder", "level": ["L0", "L1", "L2"]}, agg="max"),
                      Metric("l4_tie", "tie", {"protocol": "ladder", "level": "L4"}),
                      Metric("trace_better_plain", "better_plain", {"protocol": "trace_v2"}),
                      Metric("trace_tie", "tie", {"protocol": "trace_v2"})),
                     _graded, paper_n="n_ordered_per_condition"),
          headlines=(("L4 Tie", {"metric": "l4_tie"}),
                     ("TRACE better-plain", {"metric": "trace_better_plain"}))),
    Float("moderate_protocols", "§5.5", "Our protocols side by side on the moderate tier",
          "06_trace", (*_MODERATE, *_MODERATE_TRACE), table=_tables("moderate_protocols"),
          paper=False),
    Float("protocol_cost", "§6", "Protocol cost: calls and tokens per ordered comparison",
          "06_trace", (*_MODERATE, *_MODERATE_TRACE), table=_tables("protocol_cost"),
          paper=False),
    # §5.6
    Float("table_a17", "§5.6", "Workflow-ranking scores", "07_ranking", _RANK_RUNS,
          Comparison("table_a17", "judge", ("protocol", "system"),
                     {(p, s): {"split": "ranking_hotpotqa", "system": s, **_RANK_PROTOCOLS[p]}
                      for p in ("plain preference", "TRACE") for s in _SYSTEMS},
                     (Metric("score", "score", interval="bootstrap"),), _ranking),
          headlines=(("cited_full score, plain preference", {"protocol": "plain preference",
                                                             "system": "cited_full"}),
                     ("plain_full score, plain preference", {"protocol": "plain preference",
                                                             "system": "plain_full"}))),
    Float("table_a18", "§5.6", "Direct plain_full vs cited_full", "07_ranking", _RANK_RUNS,
          Comparison("table_a18", "judge", ("protocol",),
                     {(p,): {"split": "ranking_hotpotqa", **f} for p, f in _RANK_PROTOCOLS.items()},
                     tuple(Metric(c, f"{c}_pct", paper_per="n_ordered_rows")
                           for c in ("plain_full_wins", "cited_full_wins", "tie")),
                     _direct, paper_n="n_ordered_rows"),
          headlines=(("cited_full wins %, plain preference", {"protocol": "plain preference",
                                                              "metric": "cited_full_wins"}),)),
    # beyond the paper (notebook 09 builds these itself)
    Float("beyond_tie_frontier", "beyond", "Tie-threshold frontier from stored label "
          "probabilities", "09_beyond",
          (*_ladder_runs("mechanical_hotpotqa"), ("natural_hotpotqa", "L0"),
           ("natural_hotpotqa", "L4"), ("mechanical_finqa", "L0"), ("mechanical_finqa", "L4"),
           *_SOFT, *_MODERATE, *POSITION_RUNS), paper=False),
    Float("beyond_order_calibration", "beyond", "Order calibration as a debiasing intervention",
          "09_beyond", paper=False),
    Float("beyond_power", "beyond", "Pairs needed to detect a drop in better-plain rate",
          "09_beyond", paper=False),
    Float("beyond_table_a20", "beyond", "Rationale keyword audit on every equivalence row",
          "09_beyond", paper=False),
)

#: every float and table of ours by name, in reading order (REPORT.md's order)
FLOATS: dict[str, Float] = {f.name: f for f in _ENTRIES}


def get(name: str) -> Float:
    """The registry entry of one float; an unknown name lists the known ones."""
    try:
        return FLOATS[name]
    except KeyError:
        raise ValueError(f"no float named {name!r}; known: {', '.join(FLOATS)}") from None


def of_notebook(notebook: str) -> list[Float]:
    """The floats and tables a notebook writes, in registry order."""
    return [f for f in FLOATS.values() if f.notebook == notebook]


# --------------------------------------------------------------------------- paired contrasts


@dataclass(frozen=True)
class Contrast:
    """A paired protocol contrast (§5.4, §E.5): the better-plain indicator under ``a`` minus
    under ``b`` on the same ordered comparisons, and how the paper states it (``paper`` is a
    template filled from in_text_claims.csv by claim id)."""

    label: str
    split: str
    a: Mapping[str, object]
    b: Mapping[str, object]
    paper: str


CONTRASTS = (
    Contrast("L0 vs L4", "moderate_hotpotqa", {"level": "L0"}, {"level": "L4"},
             "better-plain falls from L0 to L4 by {C046} points [{C047}, {C048}] for Claude and "
             "{C049} [{C050}, {C051}] for GPT-5.5; exact McNemar p < {C044} for each commercial "
             "judge"),
    Contrast("L4 vs TRACE", "moderate_hotpotqa", {"level": "L4"}, {"protocol": "trace_v2"},
             "better-plain recovers from L4 under TRACE; exact McNemar p < {C045} for each "
             "commercial judge"),
    Contrast("L3 vs TRACE", "moderate_hotpotqa", {"level": "L3"}, {"protocol": "trace_v2"},
             "significant for Claude and DeepSeek; not for GPT-5.5 (p = {C108})"),
)


# --------------------------------------------------------------------------- in-text claims


@dataclass(frozen=True)
class Cell:
    """Ours is a cell of one of our floats: the comparison rows matching ``where`` (our value
    is the same for every paper judge); ``agg`` min/max picks among several settings."""

    float: str
    where: Mapping[str, object]
    agg: str | None = None
    column: str = "ours"  # "n" for a sample size


@dataclass(frozen=True)
class FromRows:
    """Ours is computed by ``tjb_lib.claims.<function>(nb, **args)`` from the notebook's rows."""

    function: str
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
    return FromRows("human_tie_value", {"split": split, "stat": stat, "level": level,
                                        "agg": agg})


_ANNOTATION = Absent("not measurable here", "a fact about the paper's annotation effort")


def _a11(level: str, metric: str) -> Cell:
    return Cell("table_a11", {"level": level, "metric": metric})


def _a19(levels, metric: str, agg: str | None = None) -> Cell:
    return Cell("table_a19", {"level": levels, "metric": metric}, agg)


def _contrast(label: str, stat: str) -> FromRows:
    return FromRows("contrast_value", {"label": label, "stat": stat})


def _count(split: str, per: int = 1) -> FromRows:
    return FromRows("split_count", {"split": split, "per": per})


def _cost(column: str, prices: str | None = None) -> FromRows:
    return FromRows("cost_value", {"setting": "trace_v2", "column": column, "prices": prices})


def _finqa(level: str, paraphrases, metric: str, agg: str | None = None) -> FromRows:
    """A FinQA moderate-tier rate at one level: the original wording (p0) comes from that
    level's run, the wording-check variants from the paraphrase run (App. C.1)."""
    run = (("moderate_finqa", level),) if paraphrases == "p0" else \
        (("moderate_finqa", "paraphrases"),)
    return FromRows("graded_value", {"split": "moderate_finqa", "level": level,
                                     "paraphrase": paraphrases, "metric": metric, "agg": agg},
                    runs=run)


_CONFLICT_PARAPHRASES = FromRows("conflict_minimum", runs=(("conflict", "paraphrases"),))

#: claim id -> (notebook that computes ours, how)
CLAIMS: dict[str, tuple[str, Cell | FromRows | Absent]] = {
    # §4 and Appendix A/B: the benchmark and its validation
    "C004": ("00_benchmark", _count("moderate_finqa")),
    "C007": ("00_benchmark", FromRows("component_count")),
    "C008": ("00_benchmark", _count("mechanical_hotpotqa")),
    "C009": ("00_benchmark", _count("mechanical_finqa")),
    "C010": ("00_benchmark", _count("natural_hotpotqa")),
    "C011": ("00_benchmark", FromRows("ablation_variants")),
    "C012": ("00_benchmark", _count("moderate_hotpotqa")),
    "C018": ("00_benchmark", FromRows("judge_temperature")),
    "C072": ("00_benchmark", _count("ranking_hotpotqa", per=6)),
    "C073": ("00_benchmark", FromRows("ranking_systems")),
    "C082": ("00_benchmark", FromRows("validated_subset")),
    "C083": ("00_benchmark", _count("conflict")),
    "C112": ("00_benchmark", FromRows("ranking_pairs_per_query")),
    "C013": ("01_human_validation", _LABELS),
    "C014": ("01_human_validation", Cell("table_2", {"validation_set": "Graded moderate",
                                                     "metric": "raw_agreement_pct"})),
    "C015": ("01_human_validation", _LABELS),
    "C016": ("01_human_validation", _LABELS),
    "C017": ("01_human_validation", _LABELS),
    "C085": ("01_human_validation", _ANNOTATION),
    "C086": ("01_human_validation", _ANNOTATION),
    "C087": ("01_human_validation", _ANNOTATION),
    "C088": ("01_human_validation", _ANNOTATION),
    "C089": ("01_human_validation", _ANNOTATION),
    # §5.1: presentation
    "C019": ("02_presentation", Cell("table_a14", {"split": "HotpotQA mechanical",
                                                   "metric": "plain_cited_win"})),
    "C020": ("02_presentation", Cell("table_a14", {"split": "HotpotQA mechanical",
                                                   "metric": "plain_cited_win"})),
    "C021": ("02_presentation", Cell("table_a14", {"split": "HotpotQA mechanical",
                                                   "metric": "plain_cited_win"})),
    "C024": ("02_presentation", Cell("table_a20", {"split": "HotpotQA mechanical",
                                                   "decision_type": "citation win"})),
    "C099": ("02_presentation", Cell("table_a10", {"metric": "citation_win"}, "min", "n")),
    "C110": ("02_presentation", Cell("table_a16", {"metric": "tie"}, "min")),
    "C111": ("02_presentation", FromRows("order_gap_value", {"split": "mechanical_hotpotqa",
                                                             "level": "L0"})),
    # §5.2: strict suppression and correctness
    "C003": ("03_strict_suppression", _CONFLICT_PARAPHRASES),
    "C026": ("03_strict_suppression", _CONFLICT_PARAPHRASES),
    "C084": ("03_strict_suppression", FromRows("paraphrase_count", {"split": "conflict"},
                                               runs=(("conflict", "paraphrases"),))),
    "C109": ("03_strict_suppression", Cell("table_a15", {"metric": "correct_base_win"})),
    "C120": ("03_strict_suppression", FromRows("paraphrase_count", {"split": "conflict"},
                                               runs=(("conflict", "paraphrases"),))),
    # §5.3: resolution loss and the meanings of Tie
    "C001": ("04_resolution_loss", _a19("L0", "worse_cited")),
    "C002": ("04_resolution_loss", _a19(["L1", "L2", "L3", "L4"], "worse_cited", "max")),
    "C022": ("04_resolution_loss", _a19("L0", "worse_cited")),
    "C023": ("04_resolution_loss", _a19("L1", "worse_cited")),
    "C025": ("04_resolution_loss", _a19("L4", "worse_cited")),
    "C027": ("04_resolution_loss", _a11("L3", "better_plain")),
    "C028": ("04_resolution_loss", _a11("L3", "better_plain")),
    "C029": ("04_resolution_loss", _a11("L3", "tie")),
    "C030": ("04_resolution_loss", _a11("L3", "tie")),
    "C031": ("04_resolution_loss", _a11("L4", "better_plain")),
    "C032": ("04_resolution_loss", _a11("L4", "better_plain")),
    "C033": ("04_resolution_loss", _a11("L4", "better_plain")),
    "C034": ("04_resolution_loss", _humans("soft_hotpotqa", "human_tie")),
    "C035": ("04_resolution_loss", _a19(["L2", "L3"], "tie", "min")),
    "C036": ("04_resolution_loss", _a19(["L2", "L3"], "tie", "max")),
    "C037": ("04_resolution_loss", _humans("soft_hotpotqa", "item_agreement", ["L2", "L3"],
                                           "min")),
    "C038": ("04_resolution_loss", _humans("soft_hotpotqa", "item_agreement", ["L2", "L3"],
                                           "max")),
    "C039": ("04_resolution_loss", _humans("moderate_hotpotqa", "human_tie")),
    "C040": ("04_resolution_loss", FromRows("tie_items", {"split": "moderate_hotpotqa",
                                                          "level": "L3"})),
    "C041": ("04_resolution_loss", FromRows("tie_items", {"split": "moderate_hotpotqa",
                                                          "level": "L3"})),
    "C042": ("04_resolution_loss", _humans("moderate_hotpotqa", "tie_precision", "L3")),
    "C043": ("04_resolution_loss", _humans("moderate_hotpotqa", "tie_precision", "L3")),
    "C100": ("04_resolution_loss", _a11("L0", "better_plain")),
    "C101": ("04_resolution_loss", FromRows("graded_value", {"split": "moderate_hotpotqa",
                                                             "level": "L0",
                                                             "metric": "worse_cited"})),
    "C102": ("04_resolution_loss", _a11("L0", "tie")),
    "C103": ("04_resolution_loss", FromRows("graded_value", {"split": "moderate_hotpotqa",
                                                             "level": list(LEVELS),
                                                             "metric": "worse_cited",
                                                             "agg": "max"})),
    "C119": ("04_resolution_loss", FromRows("paraphrase_count",
                                            {"split": ["soft_hotpotqa", "moderate_hotpotqa"]})),
    # §5.4 and §E.5: the frontier and its paired tests
    "C044": ("05_frontier", _contrast("L0 vs L4", "mcnemar_p")),
    "C045": ("05_frontier", _contrast("L4 vs TRACE", "mcnemar_p")),
    "C046": ("05_frontier", _contrast("L0 vs L4", "difference")),
    "C047": ("05_frontier", _contrast("L0 vs L4", "difference_low")),
    "C048": ("05_frontier", _contrast("L0 vs L4", "difference_high")),
    "C049": ("05_frontier", _contrast("L0 vs L4", "difference")),
    "C050": ("05_frontier", _contrast("L0 vs L4", "difference_low")),
    "C051": ("05_frontier", _contrast("L0 vs L4", "difference_high")),
    "C081": ("05_frontier", FromRows("bootstrap_resamples")),
    "C105": ("05_frontier", _contrast("L0 vs L4", "difference")),
    "C106": ("05_frontier", _contrast("L0 vs L4", "difference")),
    "C107": ("05_frontier", FromRows("bootstrap_resamples")),
    "C108": ("05_frontier", _contrast("L3 vs TRACE", "mcnemar_p")),
    # §5.5-§6, App. C.1: TRACE, FinQA and cost
    "C005": ("06_trace", FromRows("trace_recovery", {"agg": "min"})),
    "C006": ("06_trace", FromRows("trace_recovery", {"agg": "max"})),
    "C052": ("06_trace", Cell("table_a12", {"metric": "trace_better_plain"})),
    "C053": ("06_trace", Cell("table_a12", {"metric": "trace_better_plain"})),
    "C054": ("06_trace", Cell("table_a12", {"metric": "trace_better_plain"})),
    "C055": ("06_trace", Cell("table_a12", {"metric": "trace_better_plain"})),
    "C056": ("06_trace", Cell("table_a12", {"metric": "trace_worse_cited"})),
    "C057": ("06_trace", FromRows("level_count", {"split": "moderate_finqa"},
                                  runs=(("moderate_finqa", "L3"),))),
    "C058": ("06_trace", Cell("table_a13", {"metric": "l0_l2_better_plain_low"})),
    "C059": ("06_trace", Cell("table_a13", {"metric": "l0_l2_better_plain_high"})),
    "C060": ("06_trace", Cell("table_a13", {"metric": "l0_l2_better_plain_low"})),
    "C061": ("06_trace", Cell("table_a13", {"metric": "l0_l2_better_plain_high"})),
    "C062": ("06_trace", Cell("table_a13", {"metric": "l0_l2_better_plain_low"})),
    "C063": ("06_trace", Cell("table_a13", {"metric": "l0_l2_better_plain_high"})),
    "C064": ("06_trace", Cell("table_a13", {"metric": "l4_tie"})),
    "C065": ("06_trace", Cell("table_a13", {"metric": "l4_tie"})),
    "C066": ("06_trace", Cell("table_a13", {"metric": "l4_tie"})),
    "C067": ("06_trace", Cell("table_a13", {"metric": "trace_better_plain"})),
    "C068": ("06_trace", Cell("table_a13", {"metric": "trace_better_plain"})),
    "C069": ("06_trace", Cell("table_a13", {"metric": "trace_better_plain"})),
    "C070": ("06_trace", Cell("table_a13", {"metric": "trace_tie"})),
    "C071": ("06_trace", _finqa("L3", "p0", "better_plain")),
    "C074": ("06_trace", _cost("token_multiplier")),
    "C075": ("06_trace", _cost("token_multiplier")),
    "C076": ("06_trace", _cost("dollar_multiplier", "gpt-5.5")),
    "C077": ("06_trace", _cost("dollar_multiplier", "gpt-5.5")),
    "C078": ("06_trace", _cost("usd_per_1000_comparisons", "gpt-5.5")),
    "C079": ("06_trace", _cost("usd_per_1000_comparisons", "gpt-5.5")),
    "C080": ("06_trace", _cost("calls_per_completed_comparison")),
    "C090": ("06_trace", _finqa("L2", ["finqa_a", "finqa_b"], "better_plain", "min")),
    "C091": ("06_trace", _finqa("L2", ["finqa_a", "finqa_b"], "better_plain", "max")),
    "C092": ("06_trace", _finqa("L2", ["finqa_a", "finqa_b"], "tie", "min")),
    "C093": ("06_trace", _finqa("L2", ["finqa_a", "finqa_b"], "tie", "max")),
    "C094": ("06_trace", _finqa("L2", "p0", "better_plain")),
    "C095": ("06_trace", _finqa("L3", "finqa_a", "better_plain")),
    "C096": ("06_trace", _finqa("L3", "finqa_a", "tie")),
    "C097": ("06_trace", _finqa("L3", "p0", "better_plain")),
    "C098": ("06_trace", _finqa("L4", "finqa_boundary", "tie")),
    "C104": ("06_trace", _finqa("L3", "p0", "better_plain")),
    "C118": ("06_trace", Cell("table_a13", {"metric": "l4_tie"}, column="n")),
    "C121": ("06_trace", FromRows("paraphrase_count", {"split": "moderate_finqa",
                                                       "level": "L2", "extra": True},
                                  runs=(("moderate_finqa", "paraphrases"),))),
    "C122": ("06_trace", FromRows("paraphrase_count", {"split": "moderate_finqa",
                                                       "level": "L3", "extra": True},
                                  runs=(("moderate_finqa", "paraphrases"),))),
    # §5.6, §E.9-E.10: the ranking probe
    "C113": ("07_ranking", FromRows("rows_per_setting", {"split": "ranking_hotpotqa",
                                                         "level": "L0"})),
    "C114": ("07_ranking", Cell("table_a17", {"protocol": "plain preference",
                                              "system": "cited_full"}, column="n")),
    "C115": ("07_ranking", FromRows("ranking_points", {"decision": "win"})),
    "C116": ("07_ranking", FromRows("ranking_points", {"decision": "tie"})),
    "C117": ("07_ranking", Cell("table_a18", {"protocol": "plain preference",
                                              "metric": "tie"}, column="n")),
}


def claims_of(notebook: str) -> list[str]:
    """The claim ids whose value of ours a notebook computes, in id order."""
    return sorted(cid for cid, (nb, _) in CLAIMS.items() if nb == notebook)


def runs_of(notebook: str, also: Sequence[str] = ()) -> list[tuple[str, str]]:
    """Every (split, protocol) run a notebook needs: its floats' (and ``also``'s), its claims',
    and the position-only controls whenever it reads verdicts; de-duplicated, in order."""
    runs: list[tuple[str, str]] = []
    for f in [*of_notebook(notebook), *(get(n) for n in also)]:
        runs += f.runs
    for cid in claims_of(notebook):
        how = CLAIMS[cid][1]
        if isinstance(how, Cell):
            runs += get(how.float).runs
        elif isinstance(how, FromRows):
            runs += how.runs
    if runs:
        runs += POSITION_RUNS
    return list(dict.fromkeys(runs))
