"""File primitives that several processes may share a folder with: a whole-file replace, an
exclusive hold that dies with its process, and the removal of a hold's file left by a killed one."""
from __future__ import annotations

import fcntl
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


#: The mode of a file this project creates: what open() gives under the usual umask 022.
CREATE_MODE = 0o644


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` all at once, through a temp file unique to this writer
    (two processes never share one) that is removed if anything fails. The temp file is held
    (``flock``) while it is written, so the temp files killed writers left are told apart and
    removed by the next write of the same file."""
    path = Path(path)
    for stale in path.parent.glob(f".{path.name}.*.tmp"):
        remove_if_free(stale)
    fd, tmp = _held_temp(path)
    try:
        # mkstemp makes the file private (0600); the result keeps the mode of what it replaces
        os.fchmod(fd, path.stat().st_mode & 0o777 if path.exists() else CREATE_MODE)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            os.replace(tmp, path)  # still held: another writer's sweep cannot remove it first
    except BaseException as e:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(e, OSError) and not e.filename:
            raise OSError(e.errno, e.strerror, str(path)) from None  # name the file
        raise


@contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold ``path`` exclusively against every other thread and process: an ``flock``, so it
    dies with its process, on a file that is removed on release (a waiter that then holds a
    removed file notices and takes the new one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path))
            except FileNotFoundError:
                same = False
        except BaseException:
            os.close(fd)
            raise
        if same:
            break
        os.close(fd)  # the holder removed this file while we waited: take it afresh
    try:
        yield
    finally:
        path.unlink(missing_ok=True)  # still holding it, so no waiter can be fooled
        os.close(fd)


def _held_temp(path: Path) -> tuple[int, str]:
    """A fresh temp file beside ``path``, held by this process (taken again if another
    writer's sweep removed it before the hold)."""
    while True:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.path.samestat(os.fstat(fd), os.stat(tmp)):
                return fd, tmp
        except FileNotFoundError:
            pass
        os.close(fd)


def remove_if_free(path: Path) -> bool:
    """Remove a lock file of ``exclusive`` that nobody holds (its holder was killed: the flock
    died with it, the file stayed). Returns whether it was removed."""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return False  # held: a call is being made right now
    try:
        if os.path.samestat(os.fstat(fd), os.stat(path)):
            path.unlink()  # holding it, exactly as ``exclusive`` releases it
            return True
        return False
    except FileNotFoundError:
        return False
    finally:
        os.close(fd)
