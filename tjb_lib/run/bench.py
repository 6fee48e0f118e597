"""The benchmark suite: scripts in ``bench/``, each one measuring one speed-up in one run.

Benchmarks are scripts, not timed tests: each prints one line per figure (measured ratio and its
target) and writes its numbers to ``outputs/bench/<name>.json``. ``run_benchmarks`` runs every
script in its own subprocess (a crash or a memory spike in one does not take the others down)
and prints each figure line as it comes. The helpers below are the shared shape of a result.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tjb_lib import paths

BENCH_DIR = paths.ROOT / "bench"
BENCH_OUT = paths.OUTPUTS / "bench"
#: Keys every benchmark JSON carries (the test checks them).
RESULT_KEYS = ("benchmark", "machine", "measured", "ratio", "target", "met", "date")
#: The whole suite must finish within this on 2 cores (the issue's budget).
SUITE_BUDGET_S = 15 * 60
#: How long a script past the budget gets to stop what it started before it is killed: more
#: than a vLLM server's own stop (SIGTERM, up to 2 x 30 s, then SIGKILL; judges/vllm_server.py).
STOP_GRACE_S = 120


def bench_scripts(root: Path | None = None) -> list[Path]:
    """The benchmark scripts in run order; files starting with ``_`` are helpers, not benchmarks."""
    root = Path(root or BENCH_DIR)
    return sorted(p for p in root.glob("*.py") if not p.name.startswith("_"))


def machine() -> dict[str, Any]:
    """Where the numbers were measured: platform, CPU count and the torch thread count."""
    info: dict[str, Any] = {"platform": platform.platform(), "processor": platform.processor(),
                            "python": platform.python_version(), "cpu_count": os.cpu_count()}
    try:
        info["affinity_cpus"] = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        pass
    try:
        import torch
        info["torch_threads"] = torch.get_num_threads()
        info["torch"] = torch.__version__
    except ImportError:
        info["torch_threads"] = None
    try:
        info["load_average_1min"] = os.getloadavg()[0]  # other work on the machine skews timings
    except OSError:
        pass
    return info


def arg_parser(description: str) -> argparse.ArgumentParser:
    """The arguments every benchmark script takes: ``--quick`` (tiny sizes, for the test) and
    ``--out`` (where the JSON goes; default outputs/bench)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--quick", action="store_true", help="tiny sizes: checks the script runs")
    p.add_argument("--out", type=Path, default=BENCH_OUT, help="folder for <name>.json")
    return p


def figure_line(label: str, value: float | None, target: str, met: bool | None,
                unit: str = "x") -> str:
    """One printed figure: value, target, and whether it is met."""
    shown = "n/a" if value is None else f"{value:.2f}{unit}"
    if value is None:
        verdict = "NOT MEASURED"
    else:
        verdict = {True: "MET", False: "MISSED", None: "(no target)"}[met]
    return f"{label}: {shown} (target {target}) {verdict}"


def write_result(name: str, out_dir: Path, *, measured: dict[str, Any], ratio: float | None,
                 target: str, met: bool | None, quick: bool = False,
                 notes: str | list[str] = "") -> Path:
    """Write ``<out_dir>/<name>.json`` with the suite's keys; returns its path."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    result = {"benchmark": name, "machine": machine(), "measured": measured,
              "ratio": ratio, "target": target, "met": met, "quick": quick, "notes": notes,
              "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    path = out_dir / f"{name}.json"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(result, indent=2, default=_plain) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def _plain(value: Any) -> Any:
    """numpy scalars and paths as plain JSON values."""
    if hasattr(value, "item"):
        return value.item()
    return str(value)


def run_benchmarks(only: str | None = None, quick: bool = False, out_dir: Path | None = None,
                   root: Path | None = None, timeout_s: float = SUITE_BUDGET_S) -> int:
    """Run every bench/*.py (or those whose name contains ``only``) in a subprocess.

    Prints each script's figure lines as they arrive and a summary; returns 0 when every script
    exited cleanly, 1 otherwise (a missed target is a result, not a failure of the suite).
    """
    scripts = bench_scripts(root)
    if only:
        scripts = [s for s in scripts if only in s.stem]
    if not scripts:
        where = Path(root or BENCH_DIR)
        print(f"no benchmark script in {where} matches {only!r}" if only
              else f"no benchmark script in {where}", file=sys.stderr)
        return 1
    out_dir = Path(out_dir or BENCH_OUT)
    failed, ran, t_suite = [], 0, time.perf_counter()
    for script in scripts:
        cmd = [sys.executable, str(script), "--out", str(out_dir), *(["--quick"] if quick else [])]
        print(f"== {script.stem}", flush=True)
        t0 = time.perf_counter()
        left = timeout_s - (t0 - t_suite)
        proc = subprocess.Popen(cmd, cwd=paths.ROOT, text=True, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE,
                                env={**os.environ, "PYTHONPATH": paths.python_path()})
        ran += 1
        try:
            stdout, stderr = proc.communicate(timeout=max(left, 1))
        except subprocess.TimeoutExpired:
            _stop(proc)
            print(f"   {script.name}: stopped, the suite ran past {timeout_s:.0f} s", flush=True)
            failed.append(script.stem)
            break
        for line in stdout.splitlines():
            print(f"   {line}", flush=True)
        dt = time.perf_counter() - t0
        if proc.returncode != 0:
            failed.append(script.stem)
            tail = "\n".join(stderr.strip().splitlines()[-15:])
            print(f"   {script.name} FAILED (exit {proc.returncode}) after {dt:.1f} s:\n{tail}",
                  flush=True)
        else:
            print(f"   ({dt:.1f} s, {out_dir / (script.stem + '.json')})", flush=True)
    total = time.perf_counter() - t_suite
    print(f"suite: {ran - len(failed)}/{len(scripts)} benchmarks ran in {total:.1f} s "
          f"(budget {timeout_s:.0f} s)" + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


def _stop(proc: subprocess.Popen) -> None:
    """Stop a script past the budget with SIGTERM first, so it can end what it started (p5's
    vLLM server runs in its own session and outlives a SIGKILL of the script), then SIGKILL."""
    proc.terminate()
    try:
        proc.communicate(timeout=STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
