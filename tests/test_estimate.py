"""Cost before spending: calls, tokens and dollars per paper float and in total, and dollars per
1,000 comparisons per protocol, from the real requests of the real pairs."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tjb_lib.run import sample
from tjb_lib.judges.prices import rates
from tjb_lib.run.estimate import (VERDICT_REPLY, count_request, count_text, dollars, per_1000,
                              cost_by_float, prefix_tokens, run_calls)
from tjb_lib.pairs import load_split
from tjb_lib.protocols import Spec, build_request

REPO = Path(__file__).resolve().parent.parent


def test_a_run_has_one_call_per_single_call_comparison_and_two_per_trace():
    calls, n = run_calls("moderate_hotpotqa", "ladder", 3)
    assert n == 3 * 2 * 5 and len(calls) == n
    calls, n = run_calls("moderate_hotpotqa", "trace_v2", 3)
    assert n == 6 and len(calls) == 12
    stage1, stage2 = calls[0], calls[1]
    assert stage1.template == "trace_v2_stage1" and stage2.template == "trace_stage2"
    assert stage2.input_tokens > stage1.output_tokens  # stage 2 reads the stage-1 records


def test_input_tokens_are_counted_on_the_real_request():
    pair = load_split("moderate_hotpotqa")[0]
    request = build_request(pair, "cited_first", Spec("ladder", "L2"))
    call = run_calls("moderate_hotpotqa", "L2", 1)[0][0]  # cited_first comes first
    assert call.input_tokens == count_request(request)
    assert count_request(request) > count_text(pair.cited) + count_text(pair.plain)
    assert call.output_tokens == count_text(VERDICT_REPLY)
    assert 0 < prefix_tokens("ladder_L2_p0") < call.input_tokens


def test_dollars_at_list_price_with_batch_and_with_caching():
    calls, _ = run_calls("moderate_hotpotqa", "L0", 4)
    gpt, claude, ds = rates("gpt-5.5"), rates("claude-sonnet-4-6"), rates("deepseek-v4-flash")
    listed = sum(c.input_tokens for c in calls) * 5.0 / 1e6 + sum(
        c.output_tokens for c in calls) * 30.0 / 1e6
    usd = dollars(calls, gpt)
    assert usd["usd_list"] == pytest.approx(listed)
    assert usd["usd_batch"] == pytest.approx(listed / 2)
    # the paper's instructions are shorter than the 1,024 tokens OpenAI and Anthropic cache
    assert prefix_tokens("ladder_L0_p0") < 1024
    assert usd["usd_cached"] == pytest.approx(listed)
    assert dollars(calls, claude)["usd_cached"] == pytest.approx(dollars(calls, claude)["usd_list"])
    deepseek = dollars(calls, ds)  # DeepSeek caches any shared prefix and has no batch API
    assert deepseek["usd_batch"] is None and deepseek["usd_cached"] < deepseek["usd_list"]
    assert dollars(calls, None) == {"usd_list": None, "usd_batch": None, "usd_cached": None}


def test_estimate_has_every_float_and_a_total_over_each_run_once():
    table = cost_by_float("gpt-5.5", "default")
    floats = sample.float_names()
    assert list(table["float"]) == [*floats, "total (each run once)"]
    total = table.iloc[-1]
    runs = sample.jobs(floats, "default")
    parts = [run_calls(j.split, j.protocol, j.limit) for j in runs]
    assert total["calls"] == sum(len(c) for c, _ in parts)
    assert total["comparisons"] == sum(n for _, n in parts)
    # figure_2 re-reads table_a14's runs: each float counts them, the total once
    by_float = table.set_index("float")
    assert by_float.loc["figure_2", "calls"] == by_float.loc["table_a14", "calls"]
    assert total["calls"] < by_float["calls"].iloc[:-1].sum()
    assert table.attrs["judge"] == "gpt-5.5" and table.attrs["longest_prefix"] < 1024


def test_trace_costs_more_than_a_one_call_judge_per_1000_comparisons():
    table = per_1000(rates("gpt-5.5"), limit=5).set_index("setting")
    assert list(table.index) == ["L0", "L1", "L2", "L3", "L4", "trace_v1", "trace_v2", "trace_lite"]
    assert table.loc["trace_v2", "calls_per_comparison"] == 2
    assert table.loc["trace_v2", "usd_per_1000_list"] > 2 * table.loc["L0", "usd_per_1000_list"]
    local = per_1000(rates("smollm2"), limit=2)
    assert (local["usd_per_1000_list"] == 0).all()


def _estimate(*args: str, **env_vars: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return subprocess.run([sys.executable, "-m", "tjb_lib", "estimate", *args],
                          capture_output=True, text=True, timeout=300,
                          env={**env, "PYTHONPATH": str(REPO), **env_vars})


@pytest.mark.slow  # reads the tokenizer from the GGUF in a subprocess
def test_estimate_on_a_fresh_clone_reads_the_tokenizer_only_and_prints_what_it_rests_on(
        tmp_path):
    """No model conversion (it dequantizes every GGUF tensor, about a minute): the tokenizer
    comes from the GGUF's metadata and is kept for the next estimate."""
    done = _estimate("--judge", "deepseek-v4-flash", "--scale", "default",
                     TJB_CACHE=str(tmp_path))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "GGUF" not in out + done.stderr
    tokenizer = tmp_path / "smollm2-tokenizer-0.1.2.json"
    kept = tmp_path / "token-counts-smollm2-0.1.2.json"
    assert sorted(tmp_path.iterdir()) == [tokenizer, kept]  # no converted checkpoint
    # the next estimate reads the kept counts: it needs no tokenizer, so none is read again
    tokenizer.unlink()
    again = _estimate("--judge", "deepseek-v4-flash", "--scale", "default",
                      TJB_CACHE=str(tmp_path))
    assert again.returncode == 0 and again.stdout == out
    assert not tokenizer.exists()
    # progress while the tokenizer works, silence when every count is kept
    assert "counting tokens: 1 of " in done.stderr and again.stderr == ""
    assert "deepseek-v4-flash" in out and "total (each run once)" in out
    assert "n/a" in out  # no batch API
    assert "prices of 2026-10-17" in out and "caches prefixes from 0 tokens" in out
    bad = _estimate("--judge", "gpt-9")
    assert bad.returncode == 2 and bad.stderr.startswith("error: unknown judge 'gpt-9'")


@pytest.mark.slow
def test_the_readme_shows_the_paper_matrix_cost_that_estimate_computes():
    import re

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for judge in ("gpt-5.5", "claude-sonnet-4-6", "deepseek-v4-flash"):
        row = re.search(rf"^\| {re.escape(judge)} \| (\$.+) \|$", readme, re.M).group(1)
        shown = [cell.strip() for cell in row.split("|")]
        total = cost_by_float(judge, "paper").iloc[-1]
        trace = per_1000(rates(judge)).set_index("setting").loc["trace_v2", "usd_per_1000_list"]
        expected = [f"${total['usd_list']:,.2f}",
                    "no batch API" if total["usd_batch"] is None else f"${total['usd_batch']:,.2f}",
                    f"${total['usd_cached']:,.2f}", f"${trace:,.2f}"]
        assert shown == expected, judge
