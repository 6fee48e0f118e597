"""Where one judge's results live, and how a run replaces them whole.

Each judge's tables, figures, executed notebooks and REPORT.md live in their own folder,
``outputs/judges/<judge>/`` (the catalog's name for it), so a run with another judge never
touches the shipped embedded-judge results. ``reproduce`` stages a run in a fresh folder beside
that one (the notebooks find it through :data:`STAGING_ENV`) and moves it into place only when
every notebook ran; a failed run leaves the judge's results as they were, never a mixture.

One run per judge's results at a time (``hold``: a second run exits with one line instead of
waiting, since two runs of some notebooks each would publish a copy missing the other's
tables). The staged folder replaces the results folder in one atomic exchange of the two
(``renameat2``), so a kill never leaves a half folder; staging folders a killed run left are
removed by the next run of that judge.
"""
from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

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


class RunUnderWay(RuntimeError):
    """Another run holds this judge's results."""


@contextmanager
def hold(final: Path) -> Iterator[None]:
    """Hold the results folder ``final`` for one run (an ``flock`` on ``.<name>.lock`` beside
    it, released when the process dies), then remove what killed runs left there: staging
    folders and the old copy of a publish cut short (put back if the folder is missing)."""
    if not final.exists() and not list(final.parent.glob(f".{final.name}.old-*")):
        final.mkdir(parents=True)  # a folder that cannot be made fails here, named
    lock = final.parent / f".{final.name}.lock"
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RunUnderWay(
                f"{final}: another run is writing these results (it holds {lock}); wait for "
                "it to end, or stop it, and run again") from None
        try:
            if os.path.samestat(os.fstat(fd), os.stat(lock)):
                break  # not a file the run before removed as it ended
        except FileNotFoundError:
            pass
        os.close(fd)
    try:
        _remove_stale(final)
        yield
    finally:
        lock.unlink(missing_ok=True)  # held: removed as ``files.exclusive`` removes its file
        os.close(fd)


def _remove_stale(final: Path) -> None:
    old = sorted(final.parent.glob(f".{final.name}.old-*"))
    if old and not final.exists():
        os.replace(old.pop(), final)  # a publish killed between its two renames
    for stale in [*old, *final.parent.glob(f".{final.name}.run-*")]:
        shutil.rmtree(stale, ignore_errors=True)


def publish(staging: Path, final: Path) -> None:
    """Make the staged results ``final``'s in one atomic exchange of the two folders; what
    ``final`` held besides the results (``ENTRIES``) is carried over first, and what it held
    before goes."""
    final.mkdir(parents=True, exist_ok=True)
    for entry in final.iterdir():
        if entry.name not in ENTRIES and not (staging / entry.name).exists():
            _carry(entry, staging / entry.name)
    if _exchange(staging, final):
        shutil.rmtree(staging)  # now the old results
        return
    old = final.parent / f".{final.name}.old-{os.getpid()}"  # no renameat2: two renames, and
    os.replace(final, old)                                   # ``hold`` undoes a kill between
    os.replace(staging, final)
    shutil.rmtree(old)


def _carry(src: Path, dst: Path) -> None:
    if src.is_dir() and not src.is_symlink():
        shutil.copytree(src, dst, symlinks=True, copy_function=os.link)
    else:
        os.link(src, dst, follow_symlinks=False)


RENAME_EXCHANGE = 2
AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders atomically (Linux ``renameat2``); False where that is unavailable."""
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    if fn(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))
