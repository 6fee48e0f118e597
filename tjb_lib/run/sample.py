"""What is judged: the (split, protocol) runs each float and notebook needs, how many pairs each
takes (the sample), and running or replaying them.

The runs come from the float and claim registries (``tjb_lib.paper.floats``, ``tjb_lib.paper.claim_registry``:
every paper float and in-text claim names the runs it needs), the sample sizes from the split
registry (``tjb_lib.pairs.registry``), so the notebooks, the shipped raw outputs and
``python -m tjb_lib judge`` agree on one list. ``scale="default"`` is the documented sample that
the embedded judge finishes in about 20 minutes on 2 CPU cores from an empty cache;
``scale="paper"`` is every pair of every split. The paraphrase runs the paper reports (the
correctness conflicts under three wordings of every level, App. A.4; the FinQA wording check,
App. C.1) are planned at both scales: at the default scale on a third of the split's
single-call sample, since they repeat every level three times.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import pandas as pd

from tjb_lib.paper import floats
from tjb_lib import paths
from tjb_lib.paper.claim_registry import CLAIMS, Cell, FromRows, claims_of
from tjb_lib.pairs.registry import get as split_info
from tjb_lib.paper.position import POSITION_RUNS

if TYPE_CHECKING:
    from tjb_lib.judges.provider import JudgeSpec

SCALES = ("default", "paper")
TRACE = ("trace_v1", "trace_v2")


@dataclass(frozen=True)
class Job:
    split: str
    protocol: str
    limit: int | None  # first N pairs; None = all


def limit_for(split: str, protocol: str, scale: str) -> int | None:
    """How many pairs (first N, both orders) a run takes at ``scale``; None is every pair."""
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}: use 'default' or 'paper'")
    if scale == "paper":
        return None
    info = split_info(split)
    if protocol in TRACE:
        return info.default_trace_pairs  # stage 1 generates text, ~30x slower than a verdict
    if protocol == "paraphrases":
        return max(1, info.default_pairs // 3)
    return info.default_pairs


def _jobs(runs: Sequence[tuple[str, str]], scale: str) -> list[Job]:
    return [Job(split, protocol, limit_for(split, protocol, scale))
            for split, protocol in dict.fromkeys(runs)]


def float_names() -> list[str]:
    """The floats that need judge runs, in the registry's reading order."""
    return [name for name, f in floats.FLOATS.items() if f.runs]


def jobs(names: Sequence[str], scale: str = "default") -> list[Job]:
    """The de-duplicated runs behind the given floats, in a stable order."""
    return _jobs([run for name in names for run in floats.get(name).runs], scale)


def runs_of(notebook: str, also: Sequence[str] = ()) -> list[tuple[str, str]]:
    """Every (split, protocol) run a notebook needs: its floats' (and ``also``'s), its claims',
    and the position-only controls whenever it reads verdicts; de-duplicated, in order."""
    runs: list[tuple[str, str]] = []
    for f in [*floats.of_notebook(notebook), *(floats.get(n) for n in also)]:
        runs += f.runs
    for cid in claims_of(notebook):
        how = CLAIMS[cid][1]
        if isinstance(how, Cell):
            runs += floats.get(how.float).runs
        elif isinstance(how, FromRows):
            runs += how.runs
    if runs:
        runs += POSITION_RUNS
    return list(dict.fromkeys(runs))


def notebook_jobs(notebook: str, scale: str = "default", also: Sequence[str] = ()) -> list[Job]:
    """Every run a notebook needs (:func:`runs_of`), with its sample size."""
    return _jobs(runs_of(notebook, also), scale)


def stored(job: Job, judge_name: str, raw_outputs: str | Path | None = None,
           comparisons: list[tuple] | None = None) -> tuple[int, int]:
    """(comparisons of ``job`` whose verdict rows are on disk, comparisons planned), read from
    ``<raw outputs>/<judge>/<split>.<protocol>.jsonl`` without touching the store;
    ``comparisons``: the job's ``run_comparisons``, when already fixed."""
    from tjb_lib.runner import run_comparisons
    from tjb_lib.runner.rows import read_rows

    comps = comparisons if comparisons is not None else \
        run_comparisons(job.split, job.protocol, job.limit)
    planned = {(pair.pair_id, order, spec.protocol, spec.level, spec.paraphrase)
               for pair, order, spec in comps}
    path = Path(raw_outputs or paths.RAW_OUTPUTS) / judge_name / f"{job.split}.{job.protocol}.jsonl"
    return len(planned & set(read_rows(path))), len(planned)


def run_jobs(job_list: Sequence[Job], judge: str | JudgeSpec, replay_only: bool = False,
             progress: bool = True, raw_outputs: str | Path | None = None) -> pd.DataFrame:
    """Run (or replay from the store) every job and return all verdict rows in one frame.

    With ``replay_only`` a job the store cannot serve is not replayed: its verdict rows are not
    all on disk (nothing is written for it), or they are but the store lacks their calls (the
    splits or the call identity changed since they were judged). It is listed in
    ``df.attrs["not_stored"]`` as (job, reason), so a notebook says which cells were not run
    instead of failing or guessing. ``raw_outputs`` is the folder of the judges' stores
    (default outputs/raw_outputs).
    """
    from tjb_lib.judges.catalog import build, resolve
    from tjb_lib.judges.provider import JudgeSpec
    from tjb_lib.records import VERDICT_COLUMNS
    from tjb_lib.runner import run, run_comparisons
    from tjb_lib.runner.calls import ReplayMissing

    spec = judge if isinstance(judge, JudgeSpec) else resolve(judge)
    judge_obj = build(spec)  # once: a local model loads (lazily) once for all jobs
    frames, missing = [], []
    for j in job_list:
        comps = None
        if replay_only:  # the job's comparisons, fixed once for the check and the replay
            comps = run_comparisons(j.split, j.protocol, j.limit)
            have, planned = stored(j, judge_obj.name, raw_outputs, comps)
            if have < planned:
                missing.append((j, f"{have} of {planned} comparisons on disk"))
                continue
        try:
            frames.append(run(j.split, j.protocol, judge_obj, limit=j.limit, out_dir=raw_outputs,
                              replay_only=replay_only, progress=progress, comparisons=comps))
        except ReplayMissing:  # every row is on disk, so the replay wrote nothing
            missing.append((j, "its rows are on disk but the store lacks their calls"))
    rows = [row for f in frames for row in f.to_dict("records")]
    out = pd.DataFrame.from_records(rows, columns=None if rows else list(VERDICT_COLUMNS))
    # a level's original wording is also part of the paraphrase run: keep each comparison once
    out = out.drop_duplicates(["judge", "pair_id", "order", "protocol", "level", "paraphrase"],
                              ignore_index=True)
    out.attrs["not_stored"] = missing
    return out
