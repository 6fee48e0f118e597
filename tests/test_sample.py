"""What is judged: runs from the float and claim registries, sample sizes from the split
registry, and a replay that skips (and names) a run the store cannot serve instead of writing anything."""
from __future__ import annotations

import pytest

from tjb_lib import paths
from tjb_lib.run import sample
from tjb_lib.pairs.registry import SPLITS
from tjb_lib.paper.position import POSITION_RUNS
from tjb_lib.protocols.specs import LEVELS


def test_jobs_take_runs_from_the_registry_and_sizes_from_the_split_registry():
    jobs = sample.jobs(["table_a11", "figure_3"], "default")
    assert [(j.split, j.protocol) for j in jobs] == [
        *(("moderate_hotpotqa", lv) for lv in LEVELS), ("moderate_hotpotqa", "trace_v2")]
    info = SPLITS["moderate_hotpotqa"]
    assert jobs[0].limit == info.default_pairs
    assert jobs[-1].limit == info.default_trace_pairs
    assert all(j.limit is None for j in sample.jobs(["table_a11", "figure_3"], "paper"))


def test_paraphrase_runs_are_planned_at_both_scales_on_a_third_of_the_sample():
    assert sample.limit_for("conflict", "paraphrases", "default") == \
        SPLITS["conflict"].default_pairs // 3
    assert sample.limit_for("conflict", "paraphrases", "paper") is None
    runs = {(j.split, j.protocol): j.limit for j in sample.notebook_jobs("03_strict_suppression")}
    assert runs[("conflict", "paraphrases")] == 10
    finqa = {(j.split, j.protocol) for j in sample.notebook_jobs("06_trace")}
    assert {("moderate_finqa", "paraphrases"), ("moderate_finqa", "L3")} <= finqa


def test_every_notebook_that_reads_verdicts_runs_the_position_controls():
    for name in ("02_presentation", "04_resolution_loss", "06_trace", "07_ranking", "09_beyond"):
        runs = {(j.split, j.protocol) for j in sample.notebook_jobs(name)}
        assert set(POSITION_RUNS) <= runs, name
    assert sample.notebook_jobs("00_benchmark") == []


def test_unknown_names_fail_in_one_line():
    with pytest.raises(ValueError, match="no float named 'table_a99'"):
        sample.jobs(["table_a99"])
    with pytest.raises(ValueError, match="unknown scale 'huge'"):
        sample.limit_for("conflict", "L0", "huge")
    with pytest.raises(ValueError, match="unknown split 'nope'"):
        sample.limit_for("nope", "L0", "default")


@pytest.mark.slow
def test_replay_only_serves_stored_runs_and_names_the_rest_without_writing(tmp_path):
    raw = tmp_path / "raw_outputs"
    judged = sample.Job("position_control", "L0", 1)
    first = sample.run_jobs([judged], "smollm2", progress=False, raw_outputs=raw)  # the real judge
    assert len(first) == 2 and sample.stored(judged, "smollm2", raw) == (2, 2)
    absent = sample.Job("conflict", "paraphrases", 1)  # never judged here
    stale = sample.Job("position_control", "L4", 1)
    rows_file = raw / "smollm2" / "position_control.L4.jsonl"  # rows on disk, calls not
    rows_file.write_text((raw / "smollm2" / "position_control.L0.jsonl").read_text()
                         .replace('"level": "L0"', '"level": "L4"'))
    before = {p: p.read_bytes() for p in raw.rglob("*") if p.is_file()}
    rows = sample.run_jobs([judged, absent, stale, judged], "smollm2", replay_only=True,
                         progress=False, raw_outputs=raw)
    assert len(rows) == 2  # the judged run, each comparison once although asked twice
    assert rows[["pair_id", "order", "decision"]].equals(first[["pair_id", "order", "decision"]])
    assert [(j.split, j.protocol, why) for j, why in rows.attrs["not_stored"]] == [
        ("conflict", "paraphrases", "0 of 30 comparisons on disk"),
        ("position_control", "L4", "its rows are on disk but the store lacks their calls")]
    after = {p: p.read_bytes() for p in raw.rglob("*") if p.is_file()}
    assert after == before  # nothing written for what could not be replayed
