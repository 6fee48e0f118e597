"""Where one judge's results live, and how a run replaces them whole.

Each judge's tables, figures, executed notebooks and REPORT.md live in their own folder,
``outputs/judges/<judge>/`` (the catalog's name for it), so a run with another judge never
touches the shipped embedded-judge results. ``reproduce`` stages a run in a fresh folder beside
that one (the notebooks find it through :data:`STAGING_ENV`) and moves it into place only when
every notebook ran; a failed run leaves the judge's results as they were, never a mixture.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from tjb_lib import paths

#: set by ``reproduce`` while it runs: the staging folder its notebooks write results into
STAGING_ENV = "TJB_RESULTS_STAGING"
#: what a judge's results folder holds; a run replaces these and leaves anything else there
ENTRIES = ("tables", "figures", "notebooks", "REPORT.md")
#: the folder of every judge's results
JUDGES = paths.OUTPUTS / "judges"


def results_dir(judge: str, outputs_dir: str | Path | None = None) -> Path:
    """The folder the results of ``judge`` (its catalog name) go to: the run's staging folder
    while ``reproduce`` runs, else ``outputs_dir`` when one is given, else
    ``outputs/judges/<judge>/``."""
    if os.environ.get(STAGING_ENV):
        return Path(os.environ[STAGING_ENV])
    if outputs_dir:
        return Path(outputs_dir)
    return paths.judge_dir(judge, JUDGES)  # a plain folder name, as for its raw outputs


def stage(final: Path, keep: bool) -> Path:
    """A fresh staging folder beside ``final``; with ``keep`` it starts as a copy of what
    ``final`` holds (a run of some notebooks keeps the others' results in its REPORT.md)."""
    final.mkdir(parents=True, exist_ok=True)  # a folder that cannot be made fails here, named
    staging = Path(tempfile.mkdtemp(prefix=f".{final.name}.run-", dir=final.parent))
    staging.chmod(0o755)  # it becomes the results folder, readable like any output
    for name in ENTRIES if keep else ():
        src = final / name
        if src.is_dir():
            shutil.copytree(src, staging / name)
        elif src.is_file():
            shutil.copy2(src, staging / name)
    return staging


def publish(staging: Path, final: Path) -> None:
    """Move the staged results into ``final``, each entry by one rename, and remove the
    staging folder; what ``final`` held before goes."""
    final.mkdir(parents=True, exist_ok=True)
    old = Path(tempfile.mkdtemp(prefix=f".{final.name}.old-", dir=final.parent))
    for name in ENTRIES:
        if (final / name).exists():
            os.replace(final / name, old / name)
        if (staging / name).exists():
            os.replace(staging / name, final / name)
    shutil.rmtree(old)
    shutil.rmtree(staging)
