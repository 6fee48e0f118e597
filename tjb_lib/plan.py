"""The audit plan: which split is judged under which protocol, and on how many pairs.

Every paper table names the runs it needs here, so the notebooks, the shipped raw outputs and
`python -m tjb_lib judge` agree on one list. ``scale="default"`` is the documented sample that the
embedded judge finishes in about 20 minutes on 2 CPU cores from an empty cache; ``scale="paper"``
is every pair of every split, and the paraphrase protocols where the paper used them.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from tjb_lib.pairs.registry import SPLITS

ABLATION_SPLITS = tuple(f"ablation_{v}" for v in (
    "full_citation", "source_only", "empty_shell", "evidence_only", "sentence_id_only",
    "length_control"))
LEVELS = ("L0", "L1", "L2", "L3", "L4")

#: pairs per split in the default sample (first N pairs in split order), from the split registry
DEFAULT_PAIRS = {s.name: s.default_pairs for s in SPLITS.values()}
#: TRACE's stage 1 generates text, ~30x slower than a scored verdict on the embedded judge
DEFAULT_TRACE_PAIRS = {s.name: s.default_trace_pairs for s in SPLITS.values()}


@dataclass(frozen=True)
class Job:
    split: str
    protocol: str
    limit: int | None  # first N pairs; None = all


def _ladder(split: str, levels=LEVELS) -> list[tuple[str, str]]:
    return [(split, level) for level in levels]


#: runs per paper float (split, protocol); the limit comes from the scale
TABLE_RUNS: dict[str, list[tuple[str, str]]] = {
    "table_a9": [("mechanical_hotpotqa", "L0"), ("mechanical_hotpotqa", "L4"),
                 ("mechanical_hotpotqa", "trace_v2"), ("natural_hotpotqa", "L0"),
                 ("natural_hotpotqa", "L4")],
    "table_a10": [(s, "L0") for s in ABLATION_SPLITS],
    "table_a14": [(s, p) for s in ("mechanical_hotpotqa", "mechanical_finqa", "natural_hotpotqa")
                  for p in ("L0", "L4")],
    "table_a15": [("conflict", "trace_v1"), ("conflict", "L4"), ("conflict", "trace_lite")],
    "table_a16": [("position_control", "L0"), ("position_control", "L4")],
    "table_a11": _ladder("moderate_hotpotqa"),
    "table_a12": [("moderate_hotpotqa", "trace_v2"), ("moderate_hotpotqa", "trace_lite")],
    "table_a13": [*_ladder("moderate_finqa", ("L0", "L1", "L2", "L4")),
                  ("moderate_finqa", "trace_v2")],
    "table_a19": _ladder("soft_hotpotqa"),
    "table_a17": [("ranking_hotpotqa", "L0"), ("ranking_hotpotqa", "L3"),
                  ("ranking_hotpotqa", "trace_v2")],
}
#: beyond the paper: the whole ladder on equivalence pairs, so that each prompt level is a full
#: (suppression, resolution) point beside the tie-threshold frontier (notebook 09)
TABLE_RUNS["beyond_frontier"] = _ladder("mechanical_hotpotqa")
TABLE_RUNS["figure_2"] = TABLE_RUNS["table_a14"]
TABLE_RUNS["figure_3"] = TABLE_RUNS["table_a11"] + TABLE_RUNS["table_a12"]
TABLE_RUNS["figure_a1"] = TABLE_RUNS["table_a19"]
TABLE_RUNS["table_a18"] = TABLE_RUNS["table_a17"]

#: at paper scale these single levels become all paraphrases of that level
PARAPHRASED_SPLITS = ("mechanical_hotpotqa", "mechanical_finqa", "natural_hotpotqa", "conflict")


def limit_for(split: str, protocol: str, scale: str) -> int | None:
    if scale == "paper":
        return None
    if scale != "default":
        raise ValueError(f"unknown scale {scale!r}: use 'default' or 'paper'")
    if protocol in ("trace_v1", "trace_v2"):
        return DEFAULT_TRACE_PAIRS[split]
    return DEFAULT_PAIRS[split]


def jobs(floats: list[str] | tuple[str, ...], scale: str = "default") -> list[Job]:
    """The de-duplicated runs behind the given paper floats, in a stable order."""
    unknown = [f for f in floats if f not in TABLE_RUNS]
    if unknown:
        raise ValueError(f"no runs are planned for {unknown}; known: {sorted(TABLE_RUNS)}")
    seen: dict[tuple[str, str], Job] = {}
    for f in floats:
        for split, protocol in TABLE_RUNS[f]:
            seen.setdefault((split, protocol), Job(split, protocol, limit_for(split, protocol, scale)))
    return list(seen.values())


def all_jobs(scale: str = "default") -> list[Job]:
    return jobs(list(TABLE_RUNS), scale)


def run_jobs(job_list: list[Job], judge: str, replay_only: bool = False,
             progress: bool = True) -> pd.DataFrame:
    """Run (or replay from the store) every job and return all verdict rows in one frame."""
    from tjb_lib.judges.catalog import get_judge
    from tjb_lib.runner import run

    judge_obj = get_judge(judge)  # once: a local model loads (lazily) once for all jobs
    rows = [row for j in job_list
            for row in run(j.split, j.protocol, judge_obj, limit=j.limit,
                           replay_only=replay_only, progress=progress).to_dict("records")]
    return pd.DataFrame.from_records(rows)  # one frame: dtypes inferred over every row
