"""Execute the section notebooks in order with papermill (``python -m tjb_lib reproduce``).

Sources are jupytext py:percent files in notebooks/; each is converted to a notebook in memory
and executed into outputs/notebooks/. The first failing cell stops the run with its notebook and
cell named, so a reader knows exactly where to look; the last good executed copy of that notebook
stays in place and the failed one is kept beside it as ``<name>.failed.ipynb``.

A replay (no judge call) runs the notebooks on as many kernels at once as there are cores, at
most ``REPLAY_JOBS``: they read the shipped raw outputs and write their own tables, so none waits
for another; REPORT.md is written after all of them. A run that may judge runs them one by one
(judging uses the cores itself, and the notebooks share one response store).
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tjb_lib import paths, sections
from tjb_lib.files import CREATE_MODE
from tjb_lib.judges.local_lazy import usable_cores

REPLAY_JOBS = 2


def notebook_sources(only: str | None = None) -> list[Path]:
    """The notebooks in run order (``tjb_lib.sections``), each the .py source in notebooks/."""
    sources = [paths.NOTEBOOKS / f"{name}.py" for name in sections.NOTEBOOKS]
    if only:
        sources = [p for p in sources if only in p.stem]
        if not sources:
            raise SystemExit(f"no notebook in {paths.NOTEBOOKS} matches {only!r}")
    return sources


def execute(source: Path, parameters: dict | None = None, out_dir: Path | None = None) -> Path:
    """Run one py:percent notebook with papermill; returns the executed .ipynb path.

    papermill writes into a temp file beside the target, which replaces the target only when
    every cell ran. A failure (papermill's error is raised) leaves the last good executed copy
    as it was and keeps the failed run, traceback included, as ``<name>.failed.ipynb``.
    """
    import jupytext
    import papermill as pm

    out_dir = Path(out_dir or paths.NOTEBOOK_OUT)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{source.stem}.ipynb"
    failed = out_dir / f"{source.stem}.failed.ipynb"
    staged, running = (_temp_path(out_dir, f".{source.stem}.{kind}-") for kind in ("input", "run"))
    try:
        jupytext.write(jupytext.read(source), staged)
        try:
            pm.execute_notebook(str(staged), str(running), parameters=parameters or {},
                                cwd=str(paths.NOTEBOOKS), kernel_name="python3",
                                progress_bar=False, request_save_on_cell_execute=False,
                                # the kernel listens on loopback only: no "running over TCP" warning
                                extra_arguments=["--IPKernelApp.log_level=ERROR"])
        except BaseException:
            if running.exists() and running.stat().st_size:
                _stable_record(running, source, failed.name)
                os.replace(running, failed)
            raise
        _stable_record(running, source, target.name)
        os.replace(running, target)
        failed.unlink(missing_ok=True)
    finally:
        staged.unlink(missing_ok=True)
        running.unlink(missing_ok=True)
    return target


def _temp_path(folder: Path, prefix: str) -> Path:
    """A fresh, unique (empty) .ipynb path in ``folder``: two runs never share a temp name."""
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=".ipynb", dir=folder)
    os.fchmod(fd, CREATE_MODE)  # it becomes the executed notebook, readable like any output
    os.close(fd)
    return Path(name)


_CLOCK_KEYS = ("start_time", "end_time", "duration")


def _stable_record(executed: Path, source: Path, name: str) -> None:
    """The executed copy names the source, not this machine (papermill records absolute paths
    and warnings print them), and carries no clock readings, so a rerun that computes the same
    results writes the same file."""
    import nbformat

    nb = nbformat.read(executed, as_version=4)
    meta = nb.metadata.get("papermill", {})
    meta["input_path"] = f"notebooks/{source.name}"
    meta["output_path"] = f"outputs/notebooks/{name}"
    for key in _CLOCK_KEYS:
        meta.pop(key, None)
    nb.metadata.pop("widgets", None)  # widget state lives in a running kernel, ids are random
    root = str(paths.ROOT) + "/"
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i:03d}"  # jupytext and papermill draw random ids
        cell.metadata.pop("execution", None)
        for key in _CLOCK_KEYS:
            cell.metadata.get("papermill", {}).pop(key, None)
        for out in cell.get("outputs", []):
            out.get("data", {}).pop("application/vnd.jupyter.widget-view+json", None)
            if isinstance(out.get("text"), str):
                out["text"] = out["text"].replace(root, "")
    nbformat.write(nb, executed)


def reproduce(only: str | None = None, replay_only: bool = False, judge: str | None = None,
              scale: str | None = None, outputs_dir: str | Path | None = None,
              jobs: int | None = None) -> int:
    """Run every notebook; stop at the first failure with a clear message.

    Judge calls go through the response store, so shipped raw outputs are replayed and only
    what is missing is judged; ``replay_only`` forbids any new call (CI, quick checks) and lets
    ``jobs`` notebooks (default: one per core, at most ``REPLAY_JOBS``) run at once.
    """
    import papermill as pm

    from tjb_lib.notebook import check_parameters

    parameters = {"replay_only": replay_only}
    if judge:
        check_parameters(judge)  # a name no notebook takes stops here, in one line
        parameters["judge"] = judge
    if scale:
        parameters["scale"] = scale
    out_dir = None
    if outputs_dir:  # tables, figures and executed notebooks somewhere else (benchmarks, tests)
        parameters["outputs_dir"] = str(Path(outputs_dir).resolve())
        out_dir = Path(outputs_dir).resolve() / "notebooks"
    sources = notebook_sources(only)
    workers = jobs or (min(REPLAY_JOBS, usable_cores()) if replay_only else 1)

    def run(source: Path) -> float:
        t0 = time.perf_counter()
        execute(source, parameters=parameters, out_dir=out_dir)
        return time.perf_counter() - t0

    with ThreadPoolExecutor(max(1, min(workers, len(sources)))) as pool:
        futures = [pool.submit(run, source) for source in sources]
        for source, future in zip(sources, futures):  # reported in run order
            try:
                seconds = future.result()
            except pm.PapermillExecutionError as err:
                for later in futures:
                    later.cancel()  # those not started; the running ones finish
                where = out_dir or paths.NOTEBOOK_OUT
                print(f"\n{source.name} failed in cell {err.exec_count}: {err.ename}: "
                      f"{err.evalue}\nThe executed notebook with the traceback is "
                      f"{where / (source.stem + '.failed.ipynb')}; the last good one is kept.",
                      file=sys.stderr)
                return 1
            print(f"{source.name:40s} ok  {seconds:6.1f} s", flush=True)
    report = write_report(outputs_dir)
    print(f"{report} indexes every table and figure")
    return 0


def write_report(outputs_dir: str | Path | None = None) -> Path:
    """outputs/REPORT.md from every table and figure written so far (after all notebooks)."""
    from tjb_lib import report_index
    from tjb_lib.notebook import output_dirs

    tables, figures = output_dirs(Path(outputs_dir).resolve() if outputs_dir else None)
    return report_index.write(tables, figures, tables.parent / "REPORT.md")
