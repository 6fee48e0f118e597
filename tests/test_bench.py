"""The benchmark scripts run in their tiny ``--quick`` mode and write their JSON; the suite runner
discovers scripts, reports a failing one and returns 1. Timings are not asserted: benchmarks
measure, tests only check that the measuring works."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tjb_lib.run import bench
from tjb_lib import paths
from tjb_lib.judges import vllm_server as vllm
from tjb_lib.judges.local_lazy import processor_dtype

SCRIPTS = {p.stem: p for p in bench.bench_scripts()}
EXPECTED = ("p1_local_throughput", "p2_replay", "p3_protocol_cost", "p4_api_path",
            "p5_vllm_peer", "scale_metrics")
# measured keys each benchmark must report, beyond the suite's common keys
MEASURED = {
    "p1_local_throughput": ("dtype", "naive", "score_many", "complete", "agreement", "floor",
                            "ratio_score_many_vs_naive"),
    "p2_replay": ("notebooks", "papermill_overhead_s"),
    "p3_protocol_cost": ("per_setting", "trace_v2_token_multiple", "trace_lite_token_multiple",
                         "paper_trace_multiples", "outputs_estimated_share"),
    "p4_api_path": ("by_concurrency", "resume", "resume_ok"),
    "scale_metrics": ("rows", "table_seconds", "bootstrap_count_resampling_s", "total_s"),
    "p5_vllm_peer": ("by_dtype", "ratios", "seconds_per_verdict", "vllm_best",
                     "agreement_local_vs_vllm", "agreement_float32_vs_bfloat16", "openai_judge",
                     "load_average_1_5_15"),
}
# each benchmark's figure (ratio, met) recomputed from what it measured; a partial (--quick)
# replay sets no verdict
FIGURE = {
    "p1_local_throughput": lambda m: (m["ratio_score_many_vs_naive"],
                                      m["ratio_score_many_vs_naive"] >= 3),
    "p2_replay": lambda m: (m["wall_s"] / 30.0,
                            (m["exit_code"] == 0 and m["wall_s"] < 30.0)
                            if m["full_reproduction"] else None),
    "p3_protocol_cost": lambda m: (m["trace_lite_token_multiple"],
                                   m["trace_lite_token_multiple"] <= 1.3),
    "p4_api_path": lambda m: (m["by_concurrency"]["32"]["fraction_of_ideal"],
                              m["by_concurrency"]["32"]["fraction_of_ideal"] >= 0.8
                              and m["resume_ok"]),
    "scale_metrics": lambda m: (m["bootstrap_index_resampling_s"]
                                / m["bootstrap_count_resampling_s"], m["total_s"] <= 10),
    "p5_vllm_peer": lambda m: (min(d["idle"]["ratio_best"] for d in m["by_dtype"].values()),
                               all(v >= (1.0 if "idle ratio_best" in k else 0.9)
                                   for k, v in m["ratios"].items())),
}
VERDICT_WORD = {True: "MET", False: "MISSED", None: "(no target)"}


def run_quick(name: str, out, timeout_s: int = 600) -> dict:
    """The benchmark's --quick run; ``timeout_s`` only stops a hung script, never times it."""
    proc = subprocess.run([sys.executable, str(SCRIPTS[name]), "--quick", "--out", str(out)],
                          cwd=paths.ROOT, text=True, capture_output=True, timeout=timeout_s)
    assert proc.returncode == 0, f"{name} failed:\n{proc.stdout}\n{proc.stderr[-3000:]}"
    assert "target" in proc.stdout, f"{name} printed no figure line:\n{proc.stdout}"
    result = json.loads((out / f"{name}.json").read_text())
    missing = [k for k in bench.RESULT_KEYS if k not in result]
    assert not missing, f"{name}.json lacks {missing}"
    assert result["benchmark"] == name and result["quick"] is True
    for key in ("platform", "cpu_count", "torch_threads"):
        assert key in result["machine"], f"{name}.json machine lacks {key}"
    absent = [k for k in MEASURED[name] if k not in result["measured"]]
    assert not absent, f"{name}.json measured lacks {absent}"
    ratio, met = FIGURE[name](result["measured"])
    assert result["ratio"] == pytest.approx(ratio) and result["met"] is met
    figures = [line for line in proc.stdout.splitlines() if "(target" in line]
    assert any(f") {VERDICT_WORD[met]}" in line for line in figures), figures
    return result


def test_every_benchmark_of_the_issue_has_a_script():
    assert sorted(SCRIPTS) == sorted(EXPECTED)


def test_scale_metrics_quick(tmp_path):
    r = run_quick("scale_metrics", tmp_path)
    assert r["measured"]["rows"] >= 5_000
    assert r["measured"]["total_s"] > 0


@pytest.mark.slow  # a benchmark script
def test_p3_protocol_cost_quick(tmp_path):
    r = run_quick("p3_protocol_cost", tmp_path)
    per = {row["setting"]: row for row in r["measured"]["per_setting"]}
    assert set(per) == {"L0", "L1", "L2", "L3", "L4", "trace_lite", "trace_v1", "trace_v2"}
    assert per["L0"]["calls"] == 1 and per["trace_lite"]["calls"] == 1
    # stage 2 runs unless a stored stage-1 reply to the same request did not parse
    assert 1 <= per["trace_v2"]["calls"] <= 2
    assert per["trace_v2"]["input_tokens"] > per["L0"]["input_tokens"]
    assert r["ratio"] == pytest.approx(r["measured"]["trace_lite_token_multiple"])


@pytest.mark.peers
@pytest.mark.timeout(2700)  # above run_quick's own limit, so a hung script fails with its output
def test_p5_vllm_peer_quick(tmp_path):
    if vllm.vllm_python() is None:
        pytest.skip(vllm.missing_reason())
    # two vLLM servers start (float32, bfloat16), each ~2.5 min idle; at load 7-9 the quick
    # run took over 600 s (make test-peers beside a make test and three builds); on an AMD EPYC
    # without AVX-512, where both engines emulate bfloat16 (9-25 s a verdict), it took 16 min 17 s
    # at load 1.3-2, past the suite's 900 s default
    r = run_quick("p5_vllm_peer", tmp_path, timeout_s=2400)
    m = r["measured"]
    assert set(m["seconds_per_verdict"]) >= {"local", "local_c1", "vllm_c1", "vllm_c8",
                                             "openai_judge_via_vllm"}
    assert set(m["by_dtype"]) == {"float32", "bfloat16"}
    for dtype, d in m["by_dtype"].items():
        for load in ("idle", "one_core_load"):
            per = d[load]["seconds_per_verdict"]
            assert d[load]["ratio_best"] == pytest.approx(per[d[load]["vllm_best"]] / per["local"])
            assert d[load]["ratio_c1"] == pytest.approx(per["vllm_c1"] / per["local_c1"])
            assert m["ratios"][f"{dtype} {load} ratio_best"] == d[load]["ratio_best"]
        # vLLM scores the very token ids the local judge scores, in the same dtype: same labels
        assert d["agreement_local_vs_vllm"]["same_label"] == m["verdicts"]
    assert m["by_dtype"]["float32"]["agreement_local_vs_vllm"]["max_prob_diff"] < 1e-3
    assert m["openai_judge"]["ok"] == m["verdicts"]


@pytest.mark.slow  # a benchmark script
def test_p4_api_path_quick(tmp_path):
    r = run_quick("p4_api_path", tmp_path)
    m = r["measured"]
    assert set(m["by_concurrency"]) == {"1", "8", "32"}
    assert m["resume_ok"] is True and m["resume"]["requests_sent"] == 0
    for c in m["by_concurrency"].values():
        assert c["requests_sent"] == c["comparisons"] and c["failed_calls"] == 0


@pytest.mark.slow
def test_p1_local_throughput_quick(tmp_path):
    r = run_quick("p1_local_throughput", tmp_path)
    m = r["measured"]
    assert m["verdicts_per_path"] == 1 and m["score_many"]["failed"] == 0
    # the backend is measured in the processor's own dtype, never an emulated bfloat16
    assert m["dtype"] == processor_dtype()
    assert m["floor"]["floor_s_per_verdict"] > 0
    assert m["profile_complete"], "the profiler path ran in --quick"


@pytest.mark.slow
def test_p2_replay_quick(tmp_path):
    r = run_quick("p2_replay", tmp_path)
    assert r["measured"]["papermill_overhead_s"]


def test_run_benchmarks_reports_a_failing_script(tmp_path, capsys):
    root = tmp_path / "bench"
    root.mkdir()
    (root / "_helper.py").write_text("raise SystemExit('a helper is not a benchmark')\n")
    (root / "a_ok.py").write_text("import sys\nprint('a: 1.00x (target >= 1x) MET', sys.argv[1:])\n")
    (root / "b_bad.py").write_text("raise SystemExit(3)\n")
    assert [p.name for p in bench.bench_scripts(root)] == ["a_ok.py", "b_bad.py"]
    assert bench.run_benchmarks(root=root, out_dir=tmp_path / "out", quick=True) == 1
    out = capsys.readouterr().out
    assert "a: 1.00x (target >= 1x) MET" in out and "'--quick'" in out
    assert "b_bad.py FAILED (exit 3)" in out and "failed: b_bad" in out
    assert bench.run_benchmarks(only="a_ok", root=root, out_dir=tmp_path / "out") == 0
    assert bench.run_benchmarks(only="nothing", root=root) == 1


def test_a_script_past_the_budget_is_asked_to_stop_first_and_later_ones_do_not_count(tmp_path,
                                                                                     capsys):
    """p5 starts a vLLM server in its own session; a SIGKILL of the script would orphan it, so
    the suite sends SIGTERM first and the script ends what it started."""
    root = tmp_path / "bench"
    root.mkdir()
    marker = tmp_path / "cleaned_up"
    (root / "a_slow.py").write_text(
        "import signal, sys, time\n"
        f"def stop(*_):\n    open({str(marker)!r}, 'w').write('yes')\n    sys.exit(143)\n"
        "signal.signal(signal.SIGTERM, stop)\ntime.sleep(120)\n")
    (root / "b_never.py").write_text("print('b ran')\n")
    assert bench.run_benchmarks(root=root, out_dir=tmp_path / "out", timeout_s=3) == 1
    out = capsys.readouterr().out
    assert marker.read_text() == "yes"
    assert "a_slow.py: stopped, the suite ran past 3 s" in out and "b ran" not in out
    assert "suite: 0/2 benchmarks ran" in out
