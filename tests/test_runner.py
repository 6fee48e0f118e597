"""The runner: both orders per pair, fixed row order, resume from the store, failures counted."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

import tjb_lib.pairs
from tjb_lib import cli, paths
from tjb_lib.protocols import expand, ordered_comparisons
from tjb_lib.records import VERDICT_COLUMNS
from tjb_lib.runner import RunError, run
from tjb_lib.store import LOG_NAME, ResponseStore

from _runner_helpers import SPLIT, ScriptedJudge, make_pairs

HELPER = Path(__file__).with_name("_runner_helpers.py")
VOLATILE = ["created_at", "cached", "latency_s"]  # differ between a fresh call and a replay


@pytest.fixture
def pairs(monkeypatch):
    ps = make_pairs(6)

    def load_split(name):
        if name != SPLIT:
            raise KeyError(f"unknown split {name!r}")
        return list(ps)

    monkeypatch.setattr(tjb_lib.pairs, "load_split", load_split, raising=False)
    return ps


def _rows_file(out: Path, protocol: str, judge: str = "scripted") -> list[dict]:
    path = out / judge / f"{SPLIT}.{protocol}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def _stable(df: pd.DataFrame) -> pd.DataFrame:
    return df.drop(columns=VOLATILE).reset_index(drop=True)


def test_every_pair_is_judged_in_both_orders_in_comparison_order(pairs, tmp_path):
    out = tmp_path / "raw_outputs"
    df = run(SPLIT, "ladder", ScriptedJudge(), out_dir=out, progress=False)
    expected = ordered_comparisons(pairs, expand("ladder", SPLIT))
    assert len(df) == len(expected) == 6 * 2 * 5
    assert list(zip(df["pair_id"], df["order"], df["level"])) == [
        (p.pair_id, o, s.level) for p, o, s in expected]
    per_pair = df.groupby(["pair_id", "level"])["order"].apply(sorted)
    assert all(v == ["cited_first", "plain_first"] for v in per_pair)
    assert list(df.columns)[: len(VERDICT_COLUMNS)] == list(VERDICT_COLUMNS)
    assert (df["judge"] == "scripted").all() and df["created_at"].notna().all()
    assert set(df["decision"]) <= {"cited", "plain", "tie", "unparsed"}
    assert (df["decision"] == "unparsed").any()  # the judge's prose replies stay unparsed
    # the rows file holds the same rows in the same order
    assert _rows_file(out, "ladder") == json.loads(df.to_json(orient="records"))
    # request hashes in the rows are the store keys
    store = ResponseStore(out / "scripted")
    assert all(store.get(h) is not None for hs in df["request_hashes"] for h in hs)
    meta = json.loads((tmp_path / "metadata" / "scripted.json").read_text())
    assert meta["model"] == "scripted-judge-1"
    assert meta["returned_models"] == ["scripted-judge-1-2026-01-01"]
    assert meta["call_window"]["first"] <= meta["call_window"]["last"]
    assert meta["runs"][f"{SPLIT}.ladder"]["rows"] == 60 and meta["git_commit"]


def test_rerun_makes_zero_judge_calls_and_gives_the_same_rows(pairs, tmp_path):
    first = run(SPLIT, "trace_v2", ScriptedJudge(), out_dir=tmp_path, progress=False)
    assert first.attrs["run"]["calls"] == 6 * 2 * 2  # two calls per ordered comparison
    judge = ScriptedJudge()
    again = run(SPLIT, "trace_v2", judge, out_dir=tmp_path, progress=False)
    assert judge.n_calls == 0 and again.attrs["run"]["hits"] == 24
    assert again["cached"].all() and not first["cached"].any()
    pd.testing.assert_frame_equal(_stable(first), _stable(again))


def test_failed_and_raising_calls_become_counted_failed_rows(pairs, tmp_path):
    judge = ScriptedJudge(fail_every=3, raise_every=5)
    df = run(SPLIT, "ladder", judge, out_dir=tmp_path, progress=False)
    records = list(ResponseStore(tmp_path / "scripted").records())
    n_failed = sum(r["response"]["status"] == "failed" for r in records)
    assert n_failed > 0 and any("ConnectionError" in (r["response"]["error"] or "")
                                for r in records)
    assert (df["decision"] == "failed").sum() == n_failed == df.attrs["run"]["failed_calls"]
    assert df.loc[df["decision"] == "failed", "parsed"].isna().all()
    # failures are never served from the store: a rerun calls exactly those again
    retry = ScriptedJudge()
    df2 = run(SPLIT, "ladder", retry, out_dir=tmp_path, progress=False)
    assert retry.n_calls == n_failed and (df2["decision"] != "failed").all()


def test_concurrency_gives_the_same_rows_as_one_worker(pairs, tmp_path):
    serial = run(SPLIT, "trace_v2", ScriptedJudge(), concurrency=1,
                 out_dir=tmp_path / "a", progress=False)
    parallel = run(SPLIT, "trace_v2", ScriptedJudge(sleep=0.002), concurrency=4,
                   out_dir=tmp_path / "b", progress=False)
    pd.testing.assert_frame_equal(_stable(serial), _stable(parallel))
    assert [r["pair_id"] for r in _rows_file(tmp_path / "b", "trace_v2")] == list(
        serial["pair_id"])


def test_replay_only_names_the_first_missing_comparison(pairs, tmp_path):
    run(SPLIT, "L0", ScriptedJudge(), limit=2, out_dir=tmp_path, progress=False)
    judge = ScriptedJudge()
    ok = run(SPLIT, "L0", judge, limit=2, out_dir=tmp_path, replay_only=True, progress=False)
    assert len(ok) == 4 and judge.n_calls == 0
    with pytest.raises(RunError, match=rf"#4 \(pair {SPLIT}-002, order cited_first"):
        run(SPLIT, "L0", judge, limit=3, out_dir=tmp_path, replay_only=True, progress=False)
    assert judge.n_calls == 0


def test_a_replay_rewrites_no_file_and_gives_rows_stamped_with_their_call_time(pairs, tmp_path):
    run(SPLIT, "L2", ScriptedJudge(), out_dir=tmp_path, progress=False)
    files = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    again = run(SPLIT, "L2", ScriptedJudge(), out_dir=tmp_path, replay_only=True, progress=False)
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == files
    stored = {r["key"]: r["created_at"] for r in ResponseStore(tmp_path / "scripted").records()}
    assert [stored[h[0]] for h in again["request_hashes"]] == list(again["created_at"])


@pytest.mark.parametrize("junk", [{"A": "junk", "B": 0.1}, {"A": 7.5}, {"C": 0.5},
                                  {"A": True}, ["A", 0.9]])
def test_label_probabilities_edited_into_the_store_never_reach_the_rows(pairs, tmp_path, junk):
    """A record edited by hand: its label probabilities are kept in the record for audit, but a
    replayed row shows no p_a, p_b or p_tie from them."""
    run(SPLIT, "L0", ScriptedJudge(), limit=1, out_dir=tmp_path, progress=False)
    log = tmp_path / "scripted" / LOG_NAME
    records = [json.loads(x) for x in log.read_text().splitlines()]
    for rec in records:
        rec["response"].update(text=None, label_probs=junk)
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "scripted" / "calls.index.json").unlink()
    (tmp_path / "scripted" / f"{SPLIT}.L0.jsonl").unlink()
    df = run(SPLIT, "L0", ScriptedJudge(), limit=1, out_dir=tmp_path, progress=False)
    assert df["p_a"].isna().all() and df["p_b"].isna().all() and df["p_tie"].isna().all()
    assert (df["decision"] == "unparsed").all()
    served = ResponseStore(tmp_path / "scripted").get(records[0]["key"]).response
    assert served.label_probs is None and served.meta["stored_label_probs"] == junk


def test_a_failed_replay_leaves_no_empty_rows_file(pairs, tmp_path):
    with pytest.raises(RunError):
        run(SPLIT, "L3", ScriptedJudge(), out_dir=tmp_path, replay_only=True, progress=False)
    assert not list(tmp_path.rglob("*.L3.jsonl"))


def test_limited_run_keeps_rows_of_an_earlier_full_run(pairs, tmp_path):
    full = run(SPLIT, "L1", ScriptedJudge(), out_dir=tmp_path, progress=False)
    run(SPLIT, "L1", ScriptedJudge(), limit=2, out_dir=tmp_path, progress=False)
    assert [r["pair_id"] for r in _rows_file(tmp_path, "L1")] == list(full["pair_id"])


def test_cli_prints_a_summary_and_gives_one_line_errors(pairs, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(paths, "RAW_OUTPUTS", tmp_path / "raw_outputs")
    monkeypatch.setattr("tjb_lib.runner.comparisons.resolve_judge", lambda j, **kw: (
        j if isinstance(j, ScriptedJudge) else ScriptedJudge(name=j)))
    base = ["judge", "--split", SPLIT, "--judge", "scripted", "--limit", "2"]
    assert cli.main([*base, "--protocol", "L2"]) == 0
    out = capsys.readouterr().out
    assert "4 rows" in out and "decisions:" in out and "calls: 4 made" in out
    assert "unparsed" in out and "dollars: unpriced" in out and "wall time" in out
    assert cli.main([*base, "--protocol", "L9"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: protocol 'L9'") and "\n" not in err
    assert cli.main(["judge", "--split", "nope", "--protocol", "L2", "--judge", "x"]) == 2
    assert capsys.readouterr().err.strip().startswith("error: split 'nope'")


def test_the_cli_loads_the_split_once_and_makes_the_judge_once(pairs, tmp_path, monkeypatch,
                                                              capsys):
    monkeypatch.setattr(paths, "RAW_OUTPUTS", tmp_path / "raw_outputs")
    loads, made = [], []
    load = tjb_lib.pairs.load_split
    monkeypatch.setattr(tjb_lib.pairs, "load_split", lambda name: loads.append(name) or load(name))
    monkeypatch.setattr("tjb_lib.runner.comparisons.resolve_judge", lambda j, **kw: (
        made.append(j) or ScriptedJudge(name=j)))
    assert cli.main(["judge", "--split", SPLIT, "--judge", "scripted", "--protocol", "L2",
                     "--limit", "2"]) == 0
    assert loads == [SPLIT] and made == ["scripted"]
    assert "4 rows" in capsys.readouterr().out


def test_cli_unknown_judge_is_a_one_line_error(pairs, capsys):
    pytest.importorskip("tjb_lib.judges.catalog")
    code = cli.main(["judge", "--split", SPLIT, "--protocol", "L2", "--judge", "no-such-judge"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err.startswith("error: judge 'no-such-judge'") and "\n" not in err


def _counter(path: Path) -> dict[str, list[str]]:
    by_pid: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        pid, key = line.split()
        by_pid.setdefault(pid, []).append(key)
    return by_pid


def test_sigkilled_run_resumes_with_no_lost_row_and_no_repeated_call(tmp_path, monkeypatch):
    out, counter = tmp_path / "raw_outputs", tmp_path / "calls.txt"
    args = [sys.executable, str(HELPER), "--out", str(out), "--counter", str(counter),
            "--pairs", "12", "--protocol", "trace_v2", "--concurrency", "2"]
    proc = subprocess.Popen([*args, "--sleep", "0.05"], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # kill after a third of the 48 calls
        if counter.exists() and len(counter.read_text().splitlines()) >= 16:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the run finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    log_lines = (out / "scripted" / LOG_NAME).read_bytes().splitlines()
    stored_at_kill = {json.loads(x)["key"] for x in log_lines if x.strip().endswith(b"}")}
    assert 0 < len(stored_at_kill) < 48

    resumed = subprocess.run([*args, "--sleep", "0"], capture_output=True, text=True, timeout=60)
    assert resumed.returncode == 0, resumed.stderr
    (killed_calls, resumed_calls) = _counter(counter).values()
    assert len(set(killed_calls)) == len(killed_calls)
    assert len(set(resumed_calls)) == len(resumed_calls)
    # nothing that reached the store is called again; only calls in flight at the kill repeat
    assert not set(resumed_calls) & stored_at_kill
    assert len(set(resumed_calls) & set(killed_calls)) <= 2  # at most one per worker
    assert len(set(killed_calls) | set(resumed_calls)) == 48

    # no row lost: the rows equal those of an uninterrupted run, in comparison order
    monkeypatch.setattr(tjb_lib.pairs, "load_split", lambda name: make_pairs(12), raising=False)
    clean = run(SPLIT, "trace_v2", ScriptedJudge(), out_dir=tmp_path / "clean", progress=False)
    rows = pd.DataFrame(_rows_file(out, "trace_v2"))
    assert len(rows) == 24
    pd.testing.assert_frame_equal(_stable(rows), _stable(clean), check_dtype=False)


def test_batch_mode_fills_the_store_stage_by_stage(pairs, tmp_path, monkeypatch):
    """The provider's batch API is replaced by the scripted judge; rounds follow the stages."""
    from tjb_lib.judges import batch

    judge = ScriptedJudge()
    submitted: list[int] = []
    results: dict[str, dict] = {}

    def submit_batch(j, requests):
        submitted.append(len(requests))
        bid = f"batch-{len(submitted)}"
        results[bid] = {k: j.complete(r) for k, r in requests.items()}
        return bid

    monkeypatch.setattr(batch, "batch_api", lambda j: "scripted")
    monkeypatch.setattr(batch, "submit_batch", submit_batch)
    monkeypatch.setattr(batch, "wait", lambda j, bid, interval_s=60.0: None)
    monkeypatch.setattr(batch, "collect", lambda j, bid, ids=(): results[bid])
    df = run(SPLIT, "trace_v2", judge, out_dir=tmp_path, progress=False, batch=True)
    assert submitted == [12, 12]  # stage 1 for all 12 comparisons, then stage 2
    assert df.attrs["run"]["batched"] == 24 and df.attrs["run"]["calls"] == 0
    assert df.attrs["run"]["hits"] == 24
    log_path = tmp_path / "scripted" / "batches.jsonl"
    log = [json.loads(x) for x in log_path.read_text().splitlines()]
    assert [r.get("collected", False) for r in log] == [False, True, False, True]
    serial = run(SPLIT, "trace_v2", ScriptedJudge(), out_dir=tmp_path / "rt", progress=False)
    pd.testing.assert_frame_equal(_stable(df), _stable(serial))


def test_run_metadata_merges_runs_and_refuses_a_key(pairs, tmp_path, monkeypatch):
    from tjb_lib.judges.provider import registered
    from tjb_lib.metadata import write_run_metadata
    from tjb_lib.store import SecretLeakError

    run(SPLIT, "L0", ScriptedJudge(), limit=1, out_dir=tmp_path / "raw_outputs", progress=False)
    run(SPLIT, "L4", ScriptedJudge(), limit=2, out_dir=tmp_path / "raw_outputs", progress=False)
    meta = json.loads((tmp_path / "metadata" / "scripted.json").read_text())
    assert sorted(meta["runs"]) == [f"{SPLIT}.L0", f"{SPLIT}.L4"]
    assert meta["runs"][f"{SPLIT}.L4"]["rows"] == 4
    assert meta["runs"][f"{SPLIT}.L0"]["templates"] == ["ladder_L0_p0"]
    sdks = {p.sdk for p in registered().values() if p.sdk}
    assert set(meta["libraries"]) == {"tjb-lib", "torch"} | sdks and "openai" in sdks

    fake = "sk-ant-" + "q9w8e7" * 4
    monkeypatch.setenv("ANTHROPIC_API_KEY", fake)
    leaky = ScriptedJudge()
    leaky.params["api_key"] = fake
    with pytest.raises(SecretLeakError, match="ANTHROPIC_API_KEY"):
        write_run_metadata(leaky, SPLIT, "L0", pd.DataFrame(), "t0", "t1",
                           out_dir=tmp_path / "metadata")
    assert fake not in (tmp_path / "metadata" / "scripted.json").read_text()


class FatalOnThird(ScriptedJudge):
    """Answers twice, then meets what no retry fixes (say, the provider rejects the key)."""

    def complete(self, request):
        from tjb_lib.judges.base import FatalJudgeError

        if self.n_calls >= 2:
            self.n_calls += 1
            raise FatalJudgeError("provider rejected the request: 401 invalid key")
        return super().complete(request)


@pytest.mark.parametrize("concurrency", [1, 3])
def test_a_fatal_judge_error_stops_the_run_and_records_no_failed_row(pairs, tmp_path,
                                                                      concurrency):
    from tjb_lib.judges.base import FatalJudgeError

    with pytest.raises(FatalJudgeError, match="401"):
        run(SPLIT, "L0", FatalOnThird(), out_dir=tmp_path, progress=False,
            concurrency=concurrency)
    statuses = [r["response"]["status"] for r in ResponseStore(tmp_path / "scripted").records()]
    assert statuses == ["ok", "ok"]  # the fatal call is not stored as a failure
    rows = _rows_file(tmp_path, "L0")
    assert len(rows) == 2 and all(r["decision"] != "failed" for r in rows)
    judge = ScriptedJudge()  # once fixed, the rerun makes only the calls never answered
    df = run(SPLIT, "L0", judge, out_dir=tmp_path, progress=False)
    assert judge.n_calls == 10 and len(df) == 12 and (df["decision"] != "failed").all()


def test_the_cli_stops_at_a_fatal_judge_error_with_one_line_and_exit_1(pairs, tmp_path,
                                                                        monkeypatch, capsys):
    monkeypatch.setattr(paths, "RAW_OUTPUTS", tmp_path / "raw_outputs")
    monkeypatch.setattr("tjb_lib.runner.comparisons.resolve_judge",
                        lambda j, **kw: FatalOnThird(name=j))
    code = cli.main(["judge", "--split", SPLIT, "--judge", "scripted", "--protocol", "L0"])
    err = capsys.readouterr().err.strip()
    assert code == 1 and err == "error: provider rejected the request: 401 invalid key"


def test_a_placeholder_key_in_the_environment_costs_nothing_on_rerun(pairs, tmp_path,
                                                                      monkeypatch):
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", "x")  # what a local server accepts
    first = run(SPLIT, "L2", ScriptedJudge(), out_dir=tmp_path, progress=False)
    assert first.attrs["run"]["calls"] == 12 and (first["decision"] != "failed").all()
    judge = ScriptedJudge()
    run(SPLIT, "L2", judge, out_dir=tmp_path, progress=False)
    assert judge.n_calls == 0


def test_one_call_needed_by_two_threads_at_once_is_made_once(tmp_path):
    """Two comparisons in flight that need the same request: the others wait on the lease."""
    import threading

    from tjb_lib.protocols import build_request, expand
    from tjb_lib.runner.calls import RunTally, make_call

    judge = ScriptedJudge(sleep=0.2)
    store = ResponseStore(tmp_path / "scripted")
    tally = RunTally()
    call = make_call(judge, store, tally)
    request = build_request(make_pairs(1)[0], "cited_first", expand("L0", SPLIT)[0])
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(call(request).text))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert judge.n_calls == 1 and tally.calls == 1 and tally.hits == 3
    assert len(set(answers)) == 1 and not list((tmp_path / "scripted" / "leases").iterdir())
