"""P2 replay: wall time of the full papermill reproduction from the shipped raw outputs.

Runs ``python -m tjb_lib reproduce --replay-only`` as a subprocess (the command a reader runs),
reads the per-notebook times it prints, and measures what a notebook costs before its own work:
papermill executing a one-cell notebook that imports the compendium (kernel start, imports,
notebook I/O). The slowest notebook is then run once more as a plain script under cProfile
(replay only, same working folder) to name the functions that dominate it.
Target: the whole reproduction under 30 s on 2 cores (half the 59-63 s it took here when the
notebooks ran one by one).
"""
from __future__ import annotations

import cProfile
import io
import os
import pstats
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tjb_lib import paths
from tjb_lib.run.bench import arg_parser, figure_line, write_result

NAME = "p2_replay"
TARGET_S = 30.0
_LINE_RE = re.compile(r"^(?P<name>\S+\.py)\s+ok\s+(?P<seconds>[\d.]+) s$")
OVERHEAD_SOURCE = """# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% tags=["parameters"]
replay_only = True

# %%
import pandas, numpy, matplotlib
import tjb_lib, tjb_lib.analysis.metrics, tjb_lib.paper.report
"""


def notebook_times(stdout: str) -> dict[str, float]:
    """Per-notebook seconds from the lines ``reproduce`` prints (``NAME.py  ok  12.3 s``)."""
    times = {}
    for line in stdout.splitlines():
        m = _LINE_RE.match(line.strip())
        if m:
            times[m.group("name")] = float(m.group("seconds"))
    return times


def papermill_overhead(repeats: int = 2) -> list[float]:
    """Seconds papermill takes for a one-cell notebook that only imports the compendium."""
    from tjb_lib.run.reproduce import execute

    out = []
    with tempfile.TemporaryDirectory(prefix="tjb-bench-p2-") as tmp:
        src = Path(tmp) / "00_overhead.py"
        src.write_text(OVERHEAD_SOURCE, encoding="utf-8")
        for _ in range(repeats):
            t0 = time.perf_counter()
            execute(src, parameters={"replay_only": True}, out_dir=Path(tmp) / "out")
            out.append(time.perf_counter() - t0)
    return out


def notebook_as_script(source: Path, outputs_dir: str) -> str:
    """The code cells of a py:percent notebook, with ``replay_only = True`` and ``outputs_dir``
    after its parameters cell (what papermill would inject)."""
    import jupytext

    nb = jupytext.read(source)
    parts = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        parts.append(cell.source)
        if "parameters" in cell.metadata.get("tags", []):
            parts.append(f"replay_only = True\noutputs_dir = {outputs_dir!r}")
    return "\n\n".join(parts) + "\n"


def profile_notebook(source: Path, top: int = 15) -> dict:
    """cProfile of one notebook run as a script (cwd notebooks/, Agg backend): top functions by
    own time and the compendium's functions by cumulative time."""
    scratch = tempfile.TemporaryDirectory(prefix="tjb-p2-profile-")  # never the repo's outputs
    code = compile(notebook_as_script(source, scratch.name), str(source), "exec")
    old_cwd, old_backend = os.getcwd(), os.environ.get("MPLBACKEND")
    os.environ["MPLBACKEND"] = "Agg"
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    try:
        os.chdir(paths.NOTEBOOKS)
        prof.enable()
        exec(code, {"__name__": "__main__"})
    finally:
        prof.disable()
        scratch.cleanup()
        os.chdir(old_cwd)
        if old_backend is None:
            os.environ.pop("MPLBACKEND", None)
        else:
            os.environ["MPLBACKEND"] = old_backend
    wall = time.perf_counter() - t0
    st = pstats.Stats(prof, stream=io.StringIO())
    rows = []
    for (file, line, func), (cc, nc, tt, ct, _) in st.stats.items():
        rows.append({"function": f"{Path(file).name}:{line}({func})", "file": file,
                     "calls": nc, "own_s": tt, "cumulative_s": ct})
    own = sorted(rows, key=lambda r: r["own_s"], reverse=True)[:top]
    ours = sorted((r for r in rows if f"{os.sep}tjb_lib{os.sep}" in r["file"]),
                  key=lambda r: r["cumulative_s"], reverse=True)[:top]
    strip = lambda rs: [{k: v for k, v in r.items() if k != "file"} for r in rs]  # noqa: E731
    return {"notebook": source.name, "script_wall_s": wall, "top_own_time": strip(own),
            "top_tjb_lib_cumulative": strip(ours)}


def main() -> int:
    p = arg_parser(__doc__.splitlines()[0])
    p.add_argument("--only", default=None, help="notebooks whose name contains this (as reproduce)")
    p.add_argument("--no-profile", action="store_true", help="skip the cProfile rerun")
    args = p.parse_args()
    from tjb_lib.run.reproduce import notebook_sources

    try:
        sources = notebook_sources(args.only)
    except SystemExit as e:  # reproduce's own message for an --only that matches nothing
        sources, missing_msg = [], str(e)
    else:
        missing_msg = f"no notebooks/[0-9][0-9]_*.py in {paths.NOTEBOOKS}"
    overhead = papermill_overhead(1 if args.quick else 2)
    if not sources:
        print(f"replay not measured: {missing_msg} (the notebooks are not written yet)")
        print(figure_line("full replay", None, f"< {TARGET_S:.0f} s", None, unit=" s"))
        write_result(NAME, args.out, measured={"notebooks": [], "papermill_overhead_s": overhead},
                     ratio=None, target=f"reproduce --replay-only under {TARGET_S:.0f} s",
                     met=None, quick=args.quick, notes=missing_msg)
        return 0
    if args.quick and not args.only:  # the test: one notebook is enough to check the plumbing
        sources = sources[:1]
    cmd = [sys.executable, "-m", "tjb_lib", "reproduce", "--replay-only"]
    if args.quick or args.only:
        cmd += ["--only", args.only or sources[0].stem]
    # the benchmark measures the replay; it leaves the repository's outputs as they are
    scratch = tempfile.TemporaryDirectory(prefix="tjb-p2-")
    cmd += ["--outputs-dir", scratch.name]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=paths.ROOT, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env={**os.environ, "MPLBACKEND": "Agg"})
    wall = time.perf_counter() - t0
    scratch.cleanup()
    times = notebook_times(proc.stdout)
    ok = proc.returncode == 0
    for name, s in times.items():
        print(f"{name:32s} {s:6.1f} s")
    if not ok:
        tail = "\n".join(proc.stderr.strip().splitlines()[-6:])
        print(f"reproduce --replay-only failed (exit {proc.returncode}) after {len(times)} "
              f"notebook(s):\n{tail}")
    per_nb_overhead = min(overhead)
    profile = None
    if times and not args.no_profile and not args.quick:
        slowest = max(times, key=times.get)
        try:
            profile = profile_notebook(paths.NOTEBOOKS / slowest)
        except Exception as e:  # the profile is a diagnosis; its failure is reported, not fatal
            profile = {"notebook": slowest, "error": f"{type(e).__name__}: {e}"}
    full = not (args.quick or args.only)
    met = (ok and wall < TARGET_S) if full else None
    busy = sum(times.values())  # notebooks run side by side: their times add up past the wall
    overhead = (f"; papermill overhead {per_nb_overhead:.1f} s per notebook "
                f"({100 * per_nb_overhead * len(times) / busy:.0f}% of the notebooks' {busy:.0f} s, "
                f"{busy / wall:.1f} running at a time on average)") if busy else ""
    print(figure_line(f"replay of {len(times)}/{len(sources)} notebooks", wall,
                      f"< {TARGET_S:.0f} s", met, unit=" s") + overhead)
    if profile and "top_own_time" in profile:
        top = ", ".join(f"{r['function']} {r['cumulative_s']:.1f} s"
                        for r in profile["top_tjb_lib_cumulative"][:4])
        print(f"profile of {profile['notebook']} ({profile['script_wall_s']:.1f} s as a script): "
              f"{top}")
    elif profile:
        print(f"profile of {profile['notebook']} failed: {profile['error']}")
    measured = {"wall_s": wall, "exit_code": proc.returncode, "notebooks": times,
                "notebooks_found": [s.name for s in sources],
                "papermill_overhead_s": overhead,
                "overhead_share": per_nb_overhead * len(times) / busy if busy else None,
                "notebook_seconds_total": busy,
                "profile": profile, "full_reproduction": full,
                "stderr_tail": proc.stderr.strip().splitlines()[-6:] if not ok else []}
    write_result(NAME, args.out, measured=measured, ratio=wall / TARGET_S,
                 target=f"reproduce --replay-only under {TARGET_S:.0f} s", met=met,
                 quick=args.quick,
                 notes="ratio = wall time / target (below 1 meets it); met is null for a partial "
                       "(--quick or --only) run")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
