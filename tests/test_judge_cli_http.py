"""`python -m tjb_lib judge` against a real OpenAI-compatible HTTP server on 127.0.0.1.

The same command that runs the embedded judge runs an API judge by adding --base-url; here the
"API" is the local fault server, reached by the real openai SDK in a separate process.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fault_server import FaultServer

REPO = Path(__file__).resolve().parent.parent
SPLIT, PROTOCOL, LIMIT = "moderate_hotpotqa", "ladder", 6  # 6 pairs x 2 orders x 5 levels = 60


def _root(tmp_path: Path) -> Path:
    """A TJB_ROOT whose data are the repository's splits and whose outputs are fresh."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "data").symlink_to(REPO / "data")
    return root


def _judge_cmd(url: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "tjb_lib", "judge", "--split", SPLIT, "--protocol", PROTOCOL,
            "--judge", "local-vllm", "--model", "served-model", "--base-url", url + "/v1",
            "--limit", str(LIMIT), "--concurrency", "1", *extra]


def _env(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return {**env, "TJB_ROOT": str(root), "PYTHONPATH": str(REPO)}


def _rows(root: Path) -> list[dict]:
    path = root / "outputs" / "raw_outputs" / "local-vllm" / f"{SPLIT}.{PROTOCOL}.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_judge_cli_runs_unchanged_against_an_openai_compatible_base_url(tmp_path):
    root = _root(tmp_path)
    with FaultServer() as server:
        server.script(["500", "prose"])  # one retried 5xx, one reply that stays unparsed
        done = subprocess.run(_judge_cmd(server.url), env=_env(root), capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        first = server.count("/v1/chat/completions")
        again = subprocess.run(_judge_cmd(server.url), env=_env(root), capture_output=True,
                               text=True, timeout=300)
        assert again.returncode == 0, again.stderr[-2000:]
        assert server.count("/v1/chat/completions") == first  # the rerun replays the store
    rows = _rows(root)
    assert len(rows) == LIMIT * 2 * 5 and first == len(rows) + 1  # + the one 500 retried
    assert sum(r["decision"] == "unparsed" for r in rows) == 1
    assert {r["decision"] for r in rows} <= {"cited", "plain", "tie", "unparsed"}
    meta = json.loads((root / "outputs" / "metadata" / "local-vllm.json").read_text())
    assert "served-model" + "-2025-01-01" in json.dumps(meta)  # the returned snapshot is logged


@pytest.mark.slow  # judge processes killed and resumed
def test_sigkilled_judge_run_resumes_with_no_lost_row_and_no_repeated_stored_call(tmp_path):
    root = _root(tmp_path)
    log = root / "outputs" / "raw_outputs" / "local-vllm" / "calls.jsonl"
    with FaultServer(latency_s=0.05) as server:
        proc = subprocess.Popen(_judge_cmd(server.url), env=_env(root),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while server.count("/v1/chat/completions") < 20 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, "the run finished before it could be killed"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        stored_at_kill = {json.loads(x)["request"]["messages"][-1]["content"]
                          for x in log.read_text().splitlines() if x.endswith("}")}
        assert 0 < len(stored_at_kill) < LIMIT * 2 * 5
        done = subprocess.run(_judge_cmd(server.url), env=_env(root), capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        bodies = [r.json["messages"][-1]["content"] for r in server.requests
                  if r.path == "/v1/chat/completions"]
    repeated = {b for b in set(bodies) if bodies.count(b) > 1}
    assert not repeated & stored_at_kill   # nothing stored before the kill was asked again
    assert len(repeated) <= 1              # at most the one call in flight at the kill
    rows = _rows(root)
    assert len(rows) == LIMIT * 2 * 5      # no row lost
    assert len({(r["pair_id"], r["order"], r["level"]) for r in rows}) == len(rows)


@pytest.mark.slow  # two judge processes wait out real backoffs
def test_two_processes_on_a_failing_endpoint_share_each_keys_attempts(tmp_path):
    """Every call fails (429, retried at once, five attempts); two processes judge the same
    comparisons on one store. The one that waited on a key's lease takes the failure the other
    stored instead of spending five attempts of its own: 5 requests per key in all, not 10."""
    root = _root(tmp_path)
    keys = 2  # --limit 1, L0: one pair in both orders
    cmd = [*_judge_cmd(""), "--protocol", "L0", "--limit", "1"]
    with FaultServer(latency_s=0.5) as server:  # a key's five attempts take 2.5 s
        server.script([{"kind": "429", "retry_after": "0"}] * 40)
        cmd[cmd.index("--base-url") + 1] = server.url + "/v1"
        procs = [subprocess.Popen(cmd, env=_env(root), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        errors = [p.communicate(timeout=120)[1] for p in procs]
        sent = server.count("/v1/chat/completions")
    assert [p.returncode for p in procs] == [0, 0], errors
    assert sent == keys * 5
    log = root / "outputs" / "raw_outputs" / "local-vllm" / "calls.jsonl"
    statuses = [json.loads(x)["response"]["status"] for x in log.read_text().splitlines()]
    assert statuses == ["failed"] * keys  # each key's failure stored once
