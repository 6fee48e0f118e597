"""Execute the section notebooks in order with papermill (``python -m tjb_lib reproduce``).

Sources are jupytext py:percent files in notebooks/ (``tjb_lib.paper.sections`` lists them in run
order); each is converted to a notebook in memory and executed into the judge's results folder
(``tjb_lib.run.results``: outputs/judges/<judge>/notebooks/, staged until the whole run succeeded).
The first failing cell stops the run with its notebook and cell named, so a reader knows exactly
where to look; the judge's results stay as they were and the failed notebook is kept beside its
last good copy as ``<name>.failed.ipynb``.

A replay (no judge call) runs the notebooks on as many kernels at once as there are cores, at
most ``REPLAY_WORKERS``: they read the shipped raw outputs and write their own tables, so none waits
for another; REPORT.md is written after all of them. A run that may judge runs them one by one
(judging uses the cores itself, and the notebooks share one response store).
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tjb_lib import paths
from tjb_lib.run import results
from tjb_lib.paper import sections
from tjb_lib.files import CREATE_MODE
from tjb_lib.judges.local_lazy import usable_cores
from tjb_lib.run.kernels import Stopped, stop_on_signals

REPLAY_WORKERS = 2


def notebook_sources(only: str | None = None) -> list[Path]:
    """The notebooks in run order (``tjb_lib.paper.sections``), each the .py source in notebooks/."""
    sources = [paths.NOTEBOOKS / f"{name}.py" for name in sections.NOTEBOOKS]
    if only:
        sources = [p for p in sources if only in p.stem]
        if not sources:
            raise SystemExit(f"no notebook in {paths.NOTEBOOKS} matches {only!r}")
    return sources


def execute(source: Path, out_dir: Path, parameters: dict | None = None,
            recorded_as: str | None = None) -> Path:
    """Run one py:percent notebook with papermill into ``out_dir``; returns the executed .ipynb
    path. ``recorded_as`` is the folder the executed copy names as its own (default: the name
    of ``out_dir``).

    papermill writes into a temp file beside the target, which replaces the target only when
    every cell ran. A failure (papermill's error is raised) leaves the last good executed copy
    as it was and keeps the failed run, traceback included, as ``<name>.failed.ipynb``, and what
    its kernel process printed outside the cells, if anything, as ``<name>.failed.kernel.log``.
    """
    import jupytext
    import papermill as pm

    from tjb_lib.run.kernels import logging_to

    out_dir.mkdir(parents=True, exist_ok=True)
    recorded_as = recorded_as or out_dir.name
    target = out_dir / f"{source.stem}.ipynb"
    failed = out_dir / f"{source.stem}.failed.ipynb"
    failed_log = out_dir / f"{source.stem}.failed.kernel.log"
    staged, running = (_temp_path(out_dir, f".{source.stem}.{kind}-") for kind in ("input", "run"))
    kernel_log = running.with_suffix(".log")
    try:
        jupytext.write(jupytext.read(source), staged)
        os.environ["PYTHONPATH"] = paths.python_path()  # the kernel starts with this environment
        try:
            pm.execute_notebook(str(staged), str(running), parameters=parameters or {},
                                cwd=str(paths.NOTEBOOKS), kernel_name="python3",
                                progress_bar=False, request_save_on_cell_execute=False,
                                # SIGINT/SIGTERM kill it; its own stderr is not the terminal's
                                kernel_manager_class=logging_to(kernel_log),
                                # the kernel listens on loopback only: no "running over TCP" warning
                                extra_arguments=["--IPKernelApp.log_level=ERROR"])
        except BaseException:
            if running.exists() and running.stat().st_size:
                _stable_record(running, source, f"{recorded_as}/{failed.name}")
                os.replace(running, failed)
                if kernel_log.exists() and kernel_log.stat().st_size:
                    os.replace(kernel_log, failed_log)
            raise
        _stable_record(running, source, f"{recorded_as}/{target.name}")
        os.replace(running, target)
        failed.unlink(missing_ok=True)
        failed_log.unlink(missing_ok=True)
    finally:
        staged.unlink(missing_ok=True)
        running.unlink(missing_ok=True)
        kernel_log.unlink(missing_ok=True)
    return target


def _temp_path(folder: Path, prefix: str) -> Path:
    """A fresh, unique (empty) .ipynb path in ``folder``: two runs never share a temp name."""
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=".ipynb", dir=folder)
    os.fchmod(fd, CREATE_MODE)  # it becomes the executed notebook, readable like any output
    os.close(fd)
    return Path(name)


_CLOCK_KEYS = ("start_time", "end_time", "duration")


def _stable_record(executed: Path, source: Path, output_path: str) -> None:
    """The executed copy names the source, not this machine (papermill records absolute paths
    and warnings print them), and carries no clock readings, so a rerun that computes the same
    results writes the same file. What one cell prints is one stream output: a kernel flushes
    its stdout in as many messages as the machine's load makes, so the split falls differently
    from run to run."""
    import nbformat
    from nbconvert.preprocessors import CoalesceStreamsPreprocessor

    nb = nbformat.read(executed, as_version=4)
    CoalesceStreamsPreprocessor().preprocess(nb, {})
    meta = nb.metadata.get("papermill", {})
    meta["input_path"] = f"notebooks/{source.name}"
    meta["output_path"] = output_path
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
            _redact_output(out)
    nbformat.write(nb, executed)


def _redact_output(out: dict) -> None:
    """Every text of one cell output redacted as the store is (``redaction.redact``): a
    displayed reply, model id or error can hold a key a server echoed."""
    from tjb_lib.redaction import redact

    for field in ("text", "evalue"):
        if isinstance(out.get(field), str):
            out[field] = redact(out[field])
    if isinstance(out.get("traceback"), list):
        out["traceback"] = [redact(x) if isinstance(x, str) else x for x in out["traceback"]]
    data = out.get("data", {})
    for mime, value in data.items():
        if isinstance(value, str):
            data[mime] = redact(value)


def default_judge() -> str:
    """The judge the notebooks read when none is named: their parameters cell's ``judge``."""
    import ast

    import jupytext

    first = jupytext.read(notebook_sources()[0])
    cell = next(c for c in first.cells if "parameters" in c.metadata.get("tags", []))
    return next(node.value.value for node in ast.parse(cell.source).body
                if isinstance(node, ast.Assign) and node.targets[0].id == "judge")


def reproduce(only: str | None = None, replay_only: bool = False, judge: str | None = None,
              scale: str | None = None, outputs_dir: str | Path | None = None,
              workers: int | None = None, base_url: str | None = None,
              model: str | None = None) -> int:
    """Run every notebook (or those ``only`` names); stop at the first failure with a clear
    message.

    The run's tables, figures, executed notebooks and REPORT.md are staged apart and replace the
    judge's results (``outputs/judges/<judge>/``, or ``outputs_dir``) only when every notebook
    ran: a failed run leaves them as they were. Judge calls go through the response store, so
    shipped raw outputs are replayed and only what is missing is judged; ``replay_only`` forbids
    any new call (CI, quick checks) and lets ``workers`` notebooks (default: one per core, at most
    ``REPLAY_WORKERS``) run at once. ``base_url`` and ``model`` point the judge at a served
    model under its own name, as ``judge --base-url --model`` does.
    """
    from tjb_lib.run.notebook import check_parameters

    served = served_parameters(base_url, model)
    spec = check_parameters(judge or default_judge(), **served)  # a name no notebook takes
    if replay_only:
        refuse_damaged_store(spec.name)
    parameters = {"replay_only": replay_only, **served}
    if judge:
        parameters["judge"] = judge
    if scale:
        parameters["scale"] = scale
    if outputs_dir:  # everything somewhere else (benchmarks, tests)
        parameters["outputs_dir"] = str(Path(outputs_dir).resolve())
    final = results.results_dir(spec.name, Path(outputs_dir).resolve() if outputs_dir else None)
    sources = notebook_sources(only)
    workers = workers or (min(REPLAY_WORKERS, usable_cores()) if replay_only else 1)
    with results.hold(final):  # one run per judge's results; stale staging folders removed
        return _run_all(sources, parameters, final, workers, only, spec)


def _run_all(sources: list[Path], parameters: dict, final: Path, workers: int,
             only: str | None, spec) -> int:
    """Run ``sources`` into a staging folder and publish it as ``final`` when all ran."""
    import papermill as pm

    staging = results.stage(final, keep=only is not None)
    os.environ[results.STAGING_ENV] = str(staging)  # the kernels inherit it

    def run(source: Path) -> float:
        t0 = time.perf_counter()
        execute(source, parameters=parameters, out_dir=staging / "notebooks",
                recorded_as=_recorded(final / "notebooks"))
        return time.perf_counter() - t0

    try:
        with stop_on_signals(), ThreadPoolExecutor(max(1, min(workers, len(sources)))) as pool:
            futures = [pool.submit(run, source) for source in sources]
            for source, future in zip(sources, futures):  # reported in run order
                try:
                    seconds = _result(future, futures)
                except pm.PapermillExecutionError as err:
                    for later in futures:
                        later.cancel()  # those not started; the running ones finish
                    failed = _keep_failed(staging, final, source.stem)
                    log = failed and failed.with_name(f"{source.stem}.failed.kernel.log")
                    said = f" (its kernel's own messages: {log})" if log and log.exists() else ""
                    print(f"\n{source.name} failed in cell {err.exec_count}: {err.ename}: "
                          f"{err.evalue}\nThe executed notebook with the traceback is {failed}"
                          f"{said}; the results in {final} are as they were.", file=sys.stderr)
                    return 1
                print(f"{source.name:40s} ok  {seconds:6.1f} s", flush=True)
        report = write_report(staging, spec)
        results.publish(staging, final)
    finally:
        del os.environ[results.STAGING_ENV]
        shutil.rmtree(staging, ignore_errors=True)
    print(f"{final / report.name} indexes every table and figure")
    return 0


class DamagedStore(ValueError):
    """A replay would read a store with a damaged line: it publishes nothing instead."""


def refuse_damaged_store(judge: str) -> None:
    """A replay publishes only what it can stand behind: a damaged line in the judge's store
    (a torn or edited record) would silently drop that call from every table that needs it, so
    ``DamagedStore`` names the file, the offset and the call, before any notebook runs."""
    import warnings

    from tjb_lib.store import LOG_NAME, ResponseStore, StoreError

    folder = paths.judge_dir(judge)
    if not (folder / LOG_NAME).is_file():
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the store's own warning says less than this
        try:
            store = ResponseStore(folder, read_only=True)
            for _ in store.records():  # a damaged line before the last one raises
                pass
        except StoreError as e:
            raise DamagedStore(f"{e}; a replay publishes nothing from a damaged store") from None
    if store.damaged:
        d = store.damaged
        call = f"call {d['key']}" if d["key"] else "a call whose key is unreadable"
        raise DamagedStore(
            f"{d['path']}: the last line ({d['bytes']} bytes at offset {d['offset']}, {call}) "
            "is damaged; a replay publishes nothing from a damaged store: restore that line, or "
            "run without --replay-only to set it aside and make the call again")


def _result(future, futures: list) -> float:
    """The seconds one notebook took; on SIGINT or SIGTERM (``kernels.Stopped``, its kernels
    already killed) the notebooks not started are cancelled before the stop goes on."""
    try:
        return future.result()
    except Stopped:
        for later in futures:
            later.cancel()
        raise


def _recorded(folder: Path) -> str:
    """How an executed notebook names its folder: relative to the repository when inside it."""
    try:
        return folder.resolve().relative_to(paths.ROOT.resolve()).as_posix()
    except ValueError:
        return folder.name


def _keep_failed(staging: Path, final: Path, stem: str) -> Path | None:
    """Move a failed run's executed copy beside the judge's last good one (the only file of a
    failed run that is kept); returns where it went."""
    failed = staging / "notebooks" / f"{stem}.failed.ipynb"
    if not failed.exists():
        return None
    (final / "notebooks").mkdir(parents=True, exist_ok=True)
    log = failed.with_name(f"{stem}.failed.kernel.log")
    kept_log = final / "notebooks" / log.name
    if log.exists():
        shutil.move(log, kept_log)
    else:
        kept_log.unlink(missing_ok=True)  # an earlier failure's, not this run's
    return Path(shutil.move(failed, final / "notebooks" / failed.name))


def served_parameters(base_url: str | None, model: str | None) -> dict[str, str]:
    """The notebooks' ``base_url`` and ``model`` parameters for a served judge (none when the
    judge is called where its catalog entry says)."""
    return {k: v for k, v in (("base_url", base_url), ("model", model)) if v}


def write_report(folder: Path, spec=None) -> Path:
    """REPORT.md in a judge's results folder, from every table and figure written there, opening
    with the judge ``spec`` as its run metadata records it (endpoint, the ids it answered as)."""
    from tjb_lib.paper import report_index
    from tjb_lib.paper.judge_identity import from_metadata

    return report_index.write(folder, from_metadata(spec) if spec is not None else None)
