"""The faults figures of the suite, measured with real ``python -m tjb_lib`` processes against the
loopback fault server (seeded): every bad input and failing command of ``_bad_inputs``, kill -9
at random points of a run, two processes on one store (on a working and on an always-failing
endpoint), hostile replies, replies that echo the key, a replay of the shipped store with its
last record damaged, a budget against overstated usage and under concurrency, a batch result
file with damaged lines, a notebook started in a copy of the repository, and the parser on
hostile replies under its 256 KB cap and 1, 10 and 100 MB past it.

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

from _bad_inputs import (CASES, COMMANDS, LIMIT, PROTOCOL, REPO, SPLIT,  # noqa: E402
                         command_root, damage_last_call, judge_argv, judge_dir, make_root, state)
from _checkout_copy import a9_tables, clean_env, copy_checkout  # noqa: E402
from _hostile import HOSTILE, HOSTILE_MB_UNITS  # noqa: E402
from fault_server import FAKE_KEY, MODEL_PATHS, Fault, FaultServer  # noqa: E402
from tjb_lib.seeds import SEED  # noqa: E402

IN_FLIGHT_S = 0.25  # a request sent before a signal has reached the loopback server by then
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
    """Each judge case: exit != 0, one stderr line naming the file and item, no traceback, no
    call paid for first (but the one a full disk cannot store), every output unchanged. Each
    failing command of another kind: exit != 0, one stderr line naming the item."""
    failures = []
    for i, command in enumerate(COMMANDS):
        root = command_root(tmp / f"command{i}")
        command.damage(root)
        got = subprocess.run(_cmd(list(command.argv)), env=_env(root), capture_output=True,
                             text=True, timeout=300, cwd=root)
        lines = [x for x in got.stderr.splitlines() if x.strip()]
        if not (got.returncode != 0 and len(lines) == 1 and lines[0].startswith("error: ")
                and all(e in lines[0] for e in command.expect)):
            failures.append(f"{command.name}: exit {got.returncode}, {got.stderr[-300:]!r}")
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
    n = len(CASES) + len(COMMANDS)
    return {"n": n, "ok": n - len(failures), "failures": failures,
            "tracebacks": sum("Traceback" in f for f in failures)}


def kill_cycles(tmp: Path, seed: int = SEED, cycles: int = 4) -> dict:
    """SIGKILL a ladder run after a seeded random number of calls, ``cycles`` times, then let it
    finish; compare its rows with an uninterrupted run's."""
    rng = random.Random(seed)
    with FaultServer(latency_s=0.05) as server:
        argv = judge_argv(server.url, protocol="ladder", limit=str(LADDER_PAIRS),
                          concurrency="2")
        root = make_root(tmp / "killed")
        kills, leases_left = 0, 0
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
            leases_left += len(_leases(root))  # until the next run opens the store
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
            "repeated_calls": len(calls) - len(set(calls)), "in_flight_bound": kills * 2,
            "leases_left_by_kills": leases_left, "leases_after": len(_leases(root))}


def _leases(root: Path) -> list[Path]:
    return list((judge_dir(root) / "leases").glob("*.lock"))


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
        # a 200 whose body is no reply parses to a failure, which is retried (5 attempts):
        # each attempt gets the same hostile body
        server.script([openai for _, openai, _ in HOSTILE
                       for _ in range(5 if openai.kind == "body" else 1)])
        first = _judge(root, argv)
        rows = _rows(root, PROTOCOL)[: len(HOSTILE)]
        rerun = _judge(root, argv)
        replay = _judge(root, [*argv, "--replay-only"])
    return {"hostile": len(HOSTILE), "coerced": sum(r["parsed"] is not None for r in rows),
            "not_counted": sum(r["decision"] not in ("unparsed", "failed") for r in rows),
            "exits": [first.returncode, rerun.returncode, replay.returncode],
            "errors": [p.stderr[-500:] for p in (first, rerun, replay) if p.returncode]}


def failing_endpoint(tmp: Path, pairs: int = 2) -> dict:
    """Two processes on one store against an endpoint that always fails (429, retried at once,
    5 attempts): requests sent per key."""
    with FaultServer(latency_s=0.5) as server:
        server.script([Fault("429", retry_after="0") for _ in range(40 * pairs)])
        argv = judge_argv(server.url, limit=str(pairs))
        root = make_root(tmp / "failing")
        procs = [subprocess.Popen(_cmd(argv), env=_env(root), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL) for _ in range(2)]
        exits = [p.wait(timeout=300) for p in procs]
        sent = len(_model_calls(server))
    return {"exits": exits, "keys": 2 * pairs, "requests": sent, "attempts_per_key": 5}


def keys_leaked(tmp: Path) -> dict:
    """Replies that quote the key the call sent (a 200 and a 401), with the key in the
    environment: every file under outputs/ and everything printed is searched for it."""
    with FaultServer() as server:
        root = make_root(tmp / "keys")
        env = _env(root, OPENAI_COMPATIBLE_API_KEY=FAKE_KEY)
        server.script(["echo", "echo", "echo"])
        first = _judge(root, judge_argv(server.url), env)
        server.script(["auth_echo"])
        second = _judge(root, judge_argv(server.url, limit=str(LIMIT + 1)), env)
        echoed = sum(r.fault in ("echo", "auth_echo") for r in server.requests)
        sent_key = all(FAKE_KEY in r.headers.get("authorization", "") for r in server.requests)
    files = [p for p in (root / "outputs").rglob("*") if p.is_file()]
    printed = "".join(p.stdout + p.stderr for p in (first, second))
    return {"echoed": echoed, "key_sent": sent_key, "files": len(files),
            "exits": [first.returncode, second.returncode],
            "leaked": sum(FAKE_KEY.encode() in p.read_bytes() for p in files)
            + (FAKE_KEY in printed)}


def damaged_replay(tmp: Path) -> dict:
    """``judge --replay-only`` on a copy of the shipped store whose last record lost a byte."""
    root = tmp / "replay"
    shutil.copytree(REPO / "data" / "splits", root / "data" / "splits")
    store = root / "outputs" / "raw_outputs" / "smollm2"
    shutil.copytree(REPO / "outputs" / "raw_outputs" / "smollm2", store)
    split, protocol = damage_last_call(store)
    before = state(root)
    lines = len((store / "calls.jsonl").read_bytes().splitlines())
    got = _judge(root, ["judge", "--split", split, "--protocol", protocol, "--judge", "smollm2",
                        "--replay-only"])
    after = state(root)
    return {"exit": got.returncode, "files": len(before),
            "files_changed": sum(after.get(k) != v for k, v in before.items())
            + len(set(after) - set(before)), "store_lines": [lines, len(
                (store / "calls.jsonl").read_bytes().splitlines())],
            "said": got.stderr.strip().splitlines()[-1:]}


ZERO_USAGE = {"openai": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
              "anthropic": {"input_tokens": 0, "output_tokens": 0}}


def damaged_reproduce(tmp: Path) -> dict:
    """``reproduce --replay-only`` on a copy of the shipped store whose last record lost a
    byte: its exit, what it said, and whether it published anything."""
    root = tmp / "root"
    shutil.copytree(REPO / "data" / "splits", root / "data" / "splits")
    (root / "notebooks").symlink_to(REPO / "notebooks")
    store = root / "outputs" / "raw_outputs" / "smollm2"
    shutil.copytree(REPO / "outputs" / "raw_outputs" / "smollm2", store)
    damage_last_call(store)
    key = json.loads(store.joinpath("calls.jsonl").read_bytes().splitlines()[-1]
                     .replace(b"\xff", b"k"))["key"]
    out = tmp / "out"
    got = subprocess.run(_cmd(["reproduce", "--replay-only", "--outputs-dir", str(out)]),
                         env=_env(root), capture_output=True, text=True, timeout=600)
    return {"exit": got.returncode, "said": got.stderr.strip().splitlines(),
            "names_call": key in got.stderr,
            "published": sorted(p.name for p in out.rglob("*")) if out.exists() else []}


def concurrent_reproduce(tmp: Path) -> dict:
    """``reproduce --replay-only --only 02`` and ``--only 03`` at once on a copy of the shipped
    results, with a staging folder a killed run left beside them: tables before and after,
    each run's exit and lines, and what is left of the stale folder."""
    out = tmp / "results"
    shutil.copytree(REPO / "outputs" / "judges" / "smollm2", out)
    stale = tmp / ".results.run-killed"
    (stale / "tables").mkdir(parents=True)
    before = sorted(p.name for p in (out / "tables").iterdir())
    procs = [subprocess.Popen(_cmd(["reproduce", "--replay-only", "--only", only,
                                    "--outputs-dir", str(out)]),
                              env=_env(REPO), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for only in ("02_presentation", "03_strict")]
    done = [p.communicate(timeout=600) for p in procs]
    after = sorted(p.name for p in (out / "tables").iterdir())
    return {"exits": [p.returncode for p in procs], "tables_before": len(before),
            "tables_lost": len(set(before) - set(after)),
            "stderr": [e.strip().splitlines() for _, e in done],
            "kernel_interrupt_lines": sum("KeyboardInterrupt caught" in e for _, e in done),
            "stale_left": stale.exists(), "staging_left": sorted(
                p.name for p in tmp.glob(".*"))}


def full_disk(tmp: Path) -> dict:
    """A judge run on a 2,450 KB tmpfs (mounted here when the process may: root in a container),
    then rerun: calls paid, calls paid twice, exits and lines, and whether every store line is
    whole. ``{"measured": False}`` where no tmpfs can be mounted."""
    disk = tmp / "disk"
    disk.mkdir(parents=True)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2450k", "tmpfs", str(disk)],
                      capture_output=True).returncode:
        return {"measured": False}
    try:
        root = make_root(disk / "root")
        with FaultServer() as server:
            runs = [_judge(root, judge_argv(server.url, limit="100")) for _ in range(2)]
            calls = _model_calls(server)
        log = judge_dir(root) / "calls.jsonl"
        lines = log.read_bytes().splitlines(keepends=True)
        whole = all(x.endswith(b"\n") and json.loads(x) for x in lines)
        return {"measured": True, "exits": [r.returncode for r in runs], "paid": len(calls),
                "paid_twice": len(calls) - len(set(calls)), "stored": len(lines),
                "whole": whole, "said": [r.stderr.strip().splitlines() for r in runs]}
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


def budget(tmp: Path, usd: str = "0.05") -> dict:
    """gpt-5.5 with ``--budget`` against the emulator: calls made at concurrency 1 and 8, with
    every reply reporting 2,000,000 cached prompt tokens (which once made calls free), and with
    every reply reporting zero usage (which once made 200 calls); Claude honest and at zero."""
    made = {}
    cases = (("c1", "gpt-5.5", "1", None), ("c8", "gpt-5.5", "8", None),
             ("cached_2M", "gpt-5.5", "1", {"prompt_tokens_details": {"cached_tokens": 2_000_000}}),
             ("zero", "gpt-5.5", "1", ZERO_USAGE["openai"]),
             ("claude", "claude-sonnet-4-6", "1", None),
             ("claude_zero", "claude-sonnet-4-6", "1", ZERO_USAGE["anthropic"]))
    for name, judge, concurrency, usage in cases:
        with FaultServer(latency_s=0.05) as server:
            if usage:
                server.script([Fault("ok", usage=usage) for _ in range(200)])
            root = make_root(tmp / name)
            url = server.anthropic_url if judge.startswith("claude") else server.openai_url
            argv = ["judge", "--split", SPLIT, "--protocol", PROTOCOL, "--judge", judge,
                    "--base-url", url, "--limit", "100", "--concurrency", concurrency,
                    "--budget", usd]
            got = _judge(root, argv, _env(root, OPENAI_COMPATIBLE_API_KEY=FAKE_KEY))
            made[name] = {"exit": got.returncode, "calls": len(_model_calls(server))}
    return made


def batch_damaged(tmp: Path) -> dict:
    """``judge --batch`` (gpt-5.5, Claude) whose result file comes back with its second line cut
    in half and its fourth not JSON: per judge, the lines returned whole (paid), how many of
    them the store kept as verdicts, and the damaged lines stored failed with their bytes."""
    cut = {1: lambda x: x[: len(x) // 2], 3: lambda x: "garbage from a proxy"}
    made = {}
    for judge in ("gpt-5.5", "claude-sonnet-4-6"):
        with FaultServer(latency_s=0.0, batch_polls_to_complete=1) as server:
            server.damage_result_line = lambda i, x: cut.get(i, lambda y: y)(x)
            root = make_root(tmp / judge)
            url = server.anthropic_url if judge.startswith("claude") else server.openai_url
            got = _judge(root, ["judge", "--split", SPLIT, "--protocol", PROTOCOL, "--judge",
                                judge, "--base-url", url, "--limit", str(LIMIT), "--batch"],
                         _env(root, OPENAI_COMPATIBLE_API_KEY=FAKE_KEY))
        store = root / "outputs" / "raw_outputs" / judge / "calls.jsonl"
        stored = [json.loads(x)["response"] for x in store.read_text().splitlines()]
        sent = 2 * LIMIT  # both orders of each pair
        kept = sum(r["status"] == "ok" for r in stored)
        made[judge] = {"exit": got.returncode, "sent": sent, "paid": sent - len(cut),
                       "kept": kept, "lost": sent - len(cut) - kept,
                       "damaged_kept_raw": sum(r["status"] == "failed" and bool(r["text"])
                                               for r in stored)}
    return made


def notebook_copy(tmp: Path) -> dict:
    """Notebook 02 started by papermill in a copy of the repository whose environment imports
    another checkout first: with ``--cwd`` in the copy, and from a third folder without it.
    Where its tables landed, and whatever it wrote anywhere else."""
    made = {}
    for how in ("cwd", "elsewhere"):
        base = tmp / how
        base.mkdir(parents=True)
        copy, other, elsewhere = copy_checkout(base / "copy"), base / "other", base / "elsewhere"
        shutil.copytree(REPO / "tjb_lib", other / "tjb_lib",
                        ignore=shutil.ignore_patterns("__pycache__"))
        elsewhere.mkdir()
        where = ["--cwd", str(copy / "notebooks")] if how == "cwd" else []
        got = subprocess.run(
            [sys.executable, "-m", "papermill", str(copy / "notebooks" / "02_presentation.ipynb"),
             "executed.ipynb", "-p", "replay_only", "True", *where, "--log-level", "ERROR",
             "--no-progress-bar"], env=clean_env(PYTHONPATH=str(other)), capture_output=True,
            text=True, cwd=elsewhere, timeout=600)
        made[how] = {"exit": got.returncode, "tables_in_copy": a9_tables(copy),
                     "written_elsewhere": sorted(
                         str(p.relative_to(base)) for p in (*other.rglob("*"), *elsewhere.iterdir())
                         if "tjb_lib" not in p.parts and p.name != "executed.ipynb")}
    return made


def stop_signal(tmp: Path, signum: int = signal.SIGINT, after_calls: int = 10) -> dict:
    """``reproduce`` judging notebook 04 with gpt-5.5 against the emulator gets ``signum``
    after ``after_calls`` calls: requests that arrive after the signal (those in flight had
    already arrived), its exit and what it printed, and what it published."""
    root = tmp / "root"
    root.mkdir(parents=True)
    for name in ("data", "notebooks"):
        (root / name).symlink_to(REPO / name)
    out = tmp / "out"
    with FaultServer(latency_s=0.2) as server:
        proc = subprocess.Popen(
            _cmd(["reproduce", "--only", "04_resolution_loss", "--judge", "gpt-5.5",
                  "--outputs-dir", str(out)]), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env=_env(root, TJB_BASE_URL_GPT_5_5=server.openai_url,
                                OPENAI_COMPATIBLE_API_KEY=FAKE_KEY))
        deadline = time.monotonic() + 300
        while len(_model_calls(server)) < after_calls and time.monotonic() < deadline:
            time.sleep(0.01)
        proc.send_signal(signum)
        sent_at, before = time.monotonic(), len(_model_calls(server))
        stdout, stderr = proc.communicate(timeout=120)
        time.sleep(2)  # a kernel left running would go on calling
        late = [r.at - sent_at for r in server.requests if r.path in MODEL_PATHS]
    # on loopback a request the kernel sent before it died arrives within milliseconds: later
    # than IN_FLIGHT_S after the signal, a request was made after it
    after = sum(t > IN_FLIGHT_S for t in late)
    stored = sum(len(p.read_bytes().splitlines())
                 for p in (root / "outputs" / "raw_outputs").rglob("calls.jsonl"))
    return {"exit": proc.returncode, "before": before, "after": after, "stored": stored,
            "arrived_ms_after_signal": [round(1000 * t) for t in late if t > 0],
            "stderr": stderr.strip().splitlines(), "stdout": stdout.strip().splitlines(),
            "published": sorted(p.name for p in out.rglob("*")) if out.exists() else [],
            "staging": sorted(p.name for p in tmp.glob(".*.run-*"))}


def parser_cpu() -> dict:
    """CPU seconds to parse each hostile reply just under the size cap (verdict and TRACE
    records), and to refuse a 1, 10 and 100 MB reply (a verdict, then 900 nested objects
    holding ``"winner"`` keys: once 13.4 s and 1.6 GB), with the memory that took. CPU time of
    this thread only: the process's also counts the threads of the loopback servers the figures
    above start (one run gave 1.1 s for shapes that parse in 0.04 s on their own)."""
    import tracemalloc

    from tjb_lib.parse import MAX_REPLY_CHARS, parse_normalized, parse_verdict

    worst = 0.0
    for unit in HOSTILE_MB_UNITS:
        text = (unit * (MAX_REPLY_CHARS // len(unit) + 1))[:MAX_REPLY_CHARS - 1]
        for parse in (parse_verdict, parse_normalized):
            t0 = time.thread_time()
            parse(text)
            worst = max(worst, time.thread_time() - t0)
    big = {}
    for mb in (1, 10, 100):
        head = '{"winner": "A", "x": ' * 900
        text = head + ', "winner": "A"' * (((mb << 20) - len(head)) // 15) + "}" * 900
        tracemalloc.start()
        t0 = time.thread_time()
        labels = (parse_verdict(text).label, parse_normalized(text))
        cpu, peak = time.thread_time() - t0, tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        big[f"{mb}MB"] = {"cpu_s": round(cpu, 4), "peak_mb": round(peak / 2**20, 1),
                          "unparsed": labels == (None, None)}
    return {"shapes": len(HOSTILE_MB_UNITS), "worst_cpu_s": round(worst, 3), "big": big}


def figures(tmp: Path) -> tuple[str, dict]:
    measured = {"bad_inputs": bad_inputs(tmp / "bad"), "kill": kill_cycles(tmp / "kill"),
                "two_processes": two_processes(tmp / "two"),
                "failing_endpoint": failing_endpoint(tmp / "failing"),
                "hostile": hostile_replies(tmp / "hostile"), "keys": keys_leaked(tmp / "keys"),
                "replay": damaged_replay(tmp / "replay"), "budget": budget(tmp / "budget"),
                "sigint": stop_signal(tmp / "sigint"),
                "damaged_reproduce": damaged_reproduce(tmp / "damaged_reproduce"),
                "concurrent_reproduce": concurrent_reproduce(tmp / "concurrent"),
                "full_disk": full_disk(tmp / "full"),
                "batch_damaged": batch_damaged(tmp / "batch"),
                "notebook_copy": notebook_copy(tmp / "copy"),
                "parser": parser_cpu()}
    m = measured
    b, k, t, h = (m[x] for x in ("bad_inputs", "kill", "two_processes", "hostile"))
    f, keys, r, bu, p = (m[x] for x in ("failing_endpoint", "keys", "replay", "budget", "parser"))
    stop, dr = m["sigint"], m["damaged_reproduce"]
    all_ok = "all" if b["ok"] == b["n"] else f"{b['ok']} of them"
    line = (f"{b['n']} failing commands, {all_ok} one clear line with exit != 0 "
            f"({b['tracebacks']} tracebacks); kill -9 at {k['kills']} random points, "
            f"{k['rows_lost']} rows lost, {k['leases_after']} leases left; two processes, "
            f"{t['duplicates']} duplicate calls; on a failing endpoint {f['requests']} requests "
            f"for {f['keys']} keys; {h['hostile']} hostile replies, {h['coerced']} coerced; "
            f"{keys['echoed']} echoed keys, {keys['leaked']} leaked; SIGINT on reproduce after "
            f"{stop['before']} calls, {stop['after']} requests after it; a damaged replay changed "
            f"{r['files_changed']} of {r['files']} files and reproduce --replay-only on it exited "
            f"{dr['exit']} publishing {len(dr['published'])} files; $0.05 budget: "
            f"{bu['c1']['calls']} calls at concurrency 1, {bu['c8']['calls']} at 8, "
            f"{bu['cached_2M']['calls']} with 2M cached tokens reported, {bu['zero']['calls']} "
            f"with zero usage reported (Claude {bu['claude']['calls']} and "
            f"{bu['claude_zero']['calls']}); a batch result file with 2 damaged lines: "
            f"{sum(x['lost'] for x in m['batch_damaged'].values())} of "
            f"{sum(x['paid'] for x in m['batch_damaged'].values())} paid results lost; notebook "
            f"02 in a copy wrote {sum(len(x['written_elsewhere']) for x in m['notebook_copy'].values())}"
            f" files outside it; a hostile reply just under the 256 KB cap "
            f"parsed in at most {p['worst_cpu_s']} s of CPU, a 10 MB one refused in "
            f"{p['big']['10MB']['cpu_s']} s and {p['big']['10MB']['peak_mb']} MB")
    return line, measured


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        line, measured = figures(Path(d))
    print(json.dumps(measured, indent=2))
    print(line)
