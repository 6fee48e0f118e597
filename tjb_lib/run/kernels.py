"""The notebook kernels ``reproduce`` starts, and how SIGINT or SIGTERM stops them at once.

A kernel runs in its own session, so Ctrl-C on ``reproduce`` never reaches it: the notebook that
is spending would run to its end. ``stop_on_signals`` makes either signal kill every kernel this
process started (its whole process group: nothing it was calling goes on), refuse to start
another, and raise ``Stopped`` in the main thread; the response store keeps every call made
(it is safe under ``kill -9``) and ``reproduce`` publishes nothing.

``KernelManager`` is the manager papermill is given: it records each kernel's process, and at a
normal shutdown it does not first interrupt the idle kernel (jupyter_client does, and ipykernel
then logs ``KeyboardInterrupt caught in kernel`` on every successful run). ``logging_to`` gives
one whose kernels write their own stderr to a file: what a kernel process prints outside any cell
(a heartbeat thread's traceback when two kernels started at once race for a port, its dying
words when a signal kills it) never reaches the terminal, where only ``reproduce`` speaks.
"""
from __future__ import annotations

import logging
import os
import signal
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar, Iterator

from jupyter_client.manager import AsyncKernelManager

_LOCK = threading.Lock()
_RUNNING: dict[int, "KernelManager"] = {}  # kernel pid -> its manager
_STOPPING = threading.Event()


class Stopped(Exception):
    """``reproduce`` got SIGINT or SIGTERM: its kernels were killed, nothing is published."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class KernelManager(AsyncKernelManager):
    """A kernel manager whose kernels ``stop_on_signals`` can find and kill."""

    #: the file a kernel's own stderr is appended to (``logging_to``); None: inherited
    stderr_path: ClassVar[Path | None] = None

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw) -> None:  # type: ignore[override]
        if self.stderr_path is None:
            await super()._async_launch_kernel(kernel_cmd, **kw)
            return
        with open(self.stderr_path, "ab") as log:  # the kernel holds its own copy
            await super()._async_launch_kernel(kernel_cmd, **{**kw, "stderr": log})

    async def _async_post_start_kernel(self, **kw) -> None:  # type: ignore[override]
        await super()._async_post_start_kernel(**kw)
        pid = _pid(self)
        if pid is None:
            return
        with _LOCK:
            _RUNNING[pid] = self
        if _STOPPING.is_set():  # started while a stop was under way
            _kill(pid)

    async def _async_interrupt_kernel(self) -> None:  # type: ignore[override]
        if self.shutting_down:
            return  # a shutdown request follows; an idle kernel has nothing to interrupt
        await super()._async_interrupt_kernel()

    async def _async_cleanup_resources(self, restart: bool = False) -> None:  # type: ignore[override]
        pid = _pid(self)
        with _LOCK:
            _RUNNING.pop(pid, None)
        await super()._async_cleanup_resources(restart=restart)


def logging_to(path: Path) -> type[KernelManager]:
    """A ``KernelManager`` whose kernels append their stderr to ``path``."""
    return type("KernelManager", (KernelManager,), {"stderr_path": path})


def _pid(manager: AsyncKernelManager) -> int | None:
    process = getattr(manager.provisioner, "process", None)
    return getattr(process, "pid", None)


def _kill(pid: int) -> None:
    """SIGKILL the kernel and, when it leads its own process group (jupyter_client starts it in
    a new session), everything it started."""
    try:
        if os.getpgid(pid) == pid:
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def stopping() -> bool:
    """Whether a signal asked this process to stop."""
    return _STOPPING.is_set()


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """While the block runs, SIGINT and SIGTERM kill every kernel at once and raise ``Stopped``
    in the main thread (only the first signal: a second one while stopping is ignored)."""
    def handler(signum: int, frame) -> None:
        if _STOPPING.is_set():
            return
        _STOPPING.set()
        logging.getLogger("papermill").setLevel(logging.CRITICAL)  # not "Kernel died ..."
        with _LOCK:
            pids = list(_RUNNING)
        for pid in pids:
            _kill(pid)
        raise Stopped(signum)

    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only
        return
    before = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, old in before.items():
            signal.signal(s, old)
