"""The faults figures of the suite, measured with real ``python -m tjb_lib judge`` processes
against the loopback fault server (seeded): every bad input of ``_bad_inputs``, kill -9 at random
points of a run, two processes on one store, and hostile replies.

``python tests/faults_figures.py`` prints the line; ``test_faults_figures`` asserts it.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bad_inputs import (CASES, LIMIT, PROTOCOL, REPO, SPLIT, judge_argv, judge_dir,  # noqa: E402
                         make_root, state)
from _hostile import HOSTILE  # noqa: E402
from fault_server import MODEL_PATHS, FaultServer  # noqa: E402

SEED = 20260923
LADDER_PAIRS = 6  # x 2 orders x 5 levels = 60 comparisons, one call each


def _env(root: Path, unset: tuple[str, ...] = (), **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and k not in unset}
    return {**env, "TJB_ROOT": str(root), "PYTHONPATH": str(REPO), **extra}


def _cmd(argv: list[str]) -> list[str]:
    return [sys.executable, "-m", "tjb_lib", *argv]


def _judge(root: Path, argv: list[str], env: dict[str, str] | None = None,
           ) -> subprocess.CompletedProcess:
    return subprocess.run(_cmd(argv), env=env or _env(root), capture_output=True, text=True,
                          timeout=300)


def _rows(root: Path, protocol: str) -> list[dict]:
    path = judge_dir(root) / f"{SPLIT}.{protocol}.jsonl"
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def _model_calls(server: FaultServer) -> list[str]:
    return [r.body_hash for r in server.requests if r.path in MODEL_PATHS]


def bad_inputs(tmp: Path) -> dict:
    """Each case: exit != 0, one stderr line naming the file and item, no traceback, no call
    paid for first (but the one a full disk cannot store), every output unchanged."""
    failures = []
    with FaultServer() as server:
        finished = make_root(tmp / "finished")
        done = _judge(finished, judge_argv(server.url))
        assert done.returncode == 0, done.stderr
        for i, case in enumerate(CASES):
            root = tmp / f"case{i}"
            shutil.copytree(finished, root, symlinks=True)
            case.damage(root)
            before, sent = state(root), server.count()
            env = _env(root, unset=tuple(k for k, v in case.env.items() if v is None),
                       **{k: v for k, v in case.env.items() if v is not None})
            got = _judge(root, judge_argv(server.url, **case.options), env)
            lines = [x for x in got.stderr.splitlines() if x.strip()]
            ok = (got.returncode != 0 and len(lines) == 1 and lines[0].startswith("error: ")
                  and all(e in lines[0] for e in case.expect)
                  and server.count() - sent == case.paid and state(root) == before)
            if not ok:
                failures.append(f"{case.name}: exit {got.returncode}, {got.stderr.strip()[-300:]!r}")
    return {"n": len(CASES), "ok": len(CASES) - len(failures), "failures": failures}


def kill_cycles(tmp: Path, seed: int = SEED, cycles: int = 4) -> dict:
    """SIGKILL a ladder run after a seeded random number of calls, ``cycles`` times, then let it
    finish; compare its rows with an uninterrupted run's."""
    rng = random.Random(seed)
    with FaultServer(latency_s=0.05) as server:
        argv = judge_argv(server.url, protocol="ladder", limit=str(LADDER_PAIRS),
                          concurrency="2")
        root = make_root(tmp / "killed")
        kills = 0
        for _ in range(cycles):
            target = len(_model_calls(server)) + rng.randint(1, 12)
            proc = subprocess.Popen(_cmd(argv), env=_env(root), stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            while len(_model_calls(server)) < target and proc.poll() is None:
                time.sleep(0.005)
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                kills += 1
            proc.wait(timeout=60)
        done = _judge(root, argv)
        assert done.returncode == 0, done.stderr
        calls = _model_calls(server)
        reference = make_root(tmp / "uninterrupted")
        assert _judge(reference, argv).returncode == 0
    rows, clean = _rows(root, "ladder"), _rows(reference, "ladder")
    key = ("pair_id", "order", "level")
    got = {tuple(r[k] for k in key): r["decision"] for r in rows}
    want = {tuple(r[k] for k in key): r["decision"] for r in clean}
    return {"kills": kills, "rows_lost": len(set(want) - set(got)),
            "rows_differ": sum(got.get(k) != v for k, v in want.items()),
            "repeated_calls": len(calls) - len(set(calls)), "in_flight_bound": kills * 2}


def two_processes(tmp: Path) -> dict:
    """Two processes judge the same ladder run on one store at the same time."""
    with FaultServer(latency_s=0.05) as server:
        argv = judge_argv(server.url, protocol="ladder", limit=str(LADDER_PAIRS),
                          concurrency="4")
        root = make_root(tmp / "shared")
        procs = [subprocess.Popen(_cmd(argv), env=_env(root), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        exits = [p.wait(timeout=300) for p in procs]
        errors = [p.stderr.read() for p in procs]
        calls = _model_calls(server)
    rows = _rows(root, "ladder")
    return {"exits": exits, "errors": [e for e in errors if e.strip()], "calls": len(calls),
            "duplicates": len(calls) - len(set(calls)), "rows": len(rows),
            "expected_rows": LADDER_PAIRS * 2 * 5,
            "temp_files": [p.name for p in root.rglob("*.tmp")]}


def hostile_replies(tmp: Path) -> dict:
    """The first comparisons get every hostile reply of ``_hostile`` (one worker, so in order);
    none may become a verdict, and a rerun and a replay must read them back."""
    n_pairs = (len(HOSTILE) + 1) // 2 + 1
    with FaultServer() as server:
        argv = judge_argv(server.url, limit=str(n_pairs))
        root = make_root(tmp / "hostile")
        server.script([openai for _, openai, _ in HOSTILE])
        first = _judge(root, argv)
        rows = _rows(root, PROTOCOL)[: len(HOSTILE)]
        rerun = _judge(root, argv)
        replay = _judge(root, [*argv, "--replay-only"])
    return {"hostile": len(HOSTILE), "coerced": sum(r["parsed"] is not None for r in rows),
            "not_counted": sum(r["decision"] not in ("unparsed", "failed") for r in rows),
            "exits": [first.returncode, rerun.returncode, replay.returncode],
            "errors": [p.stderr[-500:] for p in (first, rerun, replay) if p.returncode]}


def figures(tmp: Path) -> tuple[str, dict]:
    measured = {"bad_inputs": bad_inputs(tmp / "bad"), "kill": kill_cycles(tmp / "kill"),
                "two_processes": two_processes(tmp / "two"),
                "hostile": hostile_replies(tmp / "hostile")}
    b, k, t, h = (measured[x] for x in ("bad_inputs", "kill", "two_processes", "hostile"))
    all_ok = "all" if b["ok"] == b["n"] else f"{b['ok']} of them"
    line = (f"{b['n']} bad inputs, {all_ok} one clear line with exit != 0 and outputs "
            f"unchanged; kill -9 at {k['kills']} random points, {k['rows_lost']} rows lost; "
            f"two processes, {t['duplicates']} duplicate calls; "
            f"{h['hostile']} hostile replies, {h['coerced']} coerced")
    return line, measured


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        line, measured = figures(Path(d))
    print(json.dumps(measured, indent=2))
    print(line)
