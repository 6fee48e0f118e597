"""A real vLLM OpenAI-compatible server on 127.0.0.1, started from vLLM's own environment.

vLLM is what the paper used to serve its open-weight judges and what a user who outgrows one
machine would run. Its CPU build pins an older transformers than the project, so it lives in its
own virtual environment (``make vllm-setup`` makes ``.venv-vllm``; ``TJB_VLLM_PYTHON`` names
another install's python) and is driven here as a subprocess: the peers tests, the benchmark and
the ``local`` judge's vLLM engine all start it through ``VLLMServer``.

The server runs in its own process group, so ``stop`` ends it and the engine processes it
spawned together, and nothing is left behind when a test session or benchmark ends; on Linux
it is also told to end when the process that started it dies without running ``atexit`` (a
benchmark killed by a test's timeout left two servers holding 7 GiB).
"""
from __future__ import annotations

import atexit
import ctypes
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from tjb_lib import paths

PYTHON_ENV = "TJB_VLLM_PYTHON"
DEFAULT_VENV = ".venv-vllm"
SERVED_NAME = "smollm2"
STARTUP_TIMEOUT_S = 900.0  # about 2.5 min on 2 idle cores; much more when they are busy
STOP_GRACE_S = 30.0


class VLLMStartError(RuntimeError):
    """The server exited or did not answer before the start-up timeout; the message names its log."""


def vllm_python() -> Path | None:
    """The python of vLLM's environment (``$TJB_VLLM_PYTHON``, else ``.venv-vllm``), or None
    when it is not installed."""
    env = os.environ.get(PYTHON_ENV)
    path = Path(env) if env else paths.ROOT / DEFAULT_VENV / "bin" / "python"
    return path if path.is_file() and os.access(path, os.X_OK) else None


def missing_reason() -> str:
    """Why no vLLM server can be started here (for a skip or an error message)."""
    where = os.environ.get(PYTHON_ENV) or str(paths.ROOT / DEFAULT_VENV / "bin" / "python")
    return (f"vLLM's CPU build is not installed ({where} is missing): run `make vllm-setup`, "
            f"or point {PYTHON_ENV} at an existing vLLM environment's python")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(log unreadable)"


class VLLMServer:
    """One vLLM server serving one model folder; use as a context manager or start()/stop().

    ``threads`` sets the OpenMP threads of the engine (vLLM binds them to cores itself by
    default); ``extra_args`` go to the server's command line unchanged.
    """

    def __init__(self, folder: str | Path, *, served_model_name: str = SERVED_NAME,
                 python: str | Path | None = None, max_model_len: int = 4096,
                 dtype: str = "float32", kv_cache_gib: int = 2, log_path: str | Path | None = None,
                 extra_args: tuple[str, ...] = (), env: dict[str, str] | None = None,
                 startup_timeout_s: float = STARTUP_TIMEOUT_S):
        self.folder = Path(folder)
        self.served_model_name = served_model_name
        py = Path(python) if python else vllm_python()
        if py is None or not py.is_file():
            raise VLLMStartError(missing_reason())
        self.python = py
        self.max_model_len = max_model_len
        self.dtype = dtype
        self.kv_cache_gib = kv_cache_gib
        self.extra_args = tuple(extra_args)
        self.extra_env = dict(env or {})
        self.startup_timeout_s = startup_timeout_s
        self.log_path = Path(log_path) if log_path else None
        self.port: int | None = None
        self.proc: subprocess.Popen | None = None
        self.pid: int | None = None  # kept after stop: the process group that was ended
        self.startup_s: float | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (``.../v1``)."""
        if self.port is None:
            raise RuntimeError("the vLLM server is not started")
        return f"http://127.0.0.1:{self.port}/v1"

    def command(self) -> list[str]:
        return [str(self.python), "-m", "vllm.entrypoints.openai.api_server",
                "--model", str(self.folder), "--served-model-name", self.served_model_name,
                "--host", "127.0.0.1", "--port", str(self.port),
                "--max-model-len", str(self.max_model_len), "--dtype", self.dtype,
                *self.extra_args]

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env.update({"VLLM_TARGET_DEVICE": "cpu", "VLLM_CPU_KVCACHE_SPACE": str(self.kv_cache_gib),
                    "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                    "VLLM_NO_USAGE_STATS": "1", "DO_NOT_TRACK": "1",
                    "PYTHONUNBUFFERED": "1", **self.extra_env})
        return env

    def start(self) -> "VLLMServer":
        if self.proc is not None:
            return self
        if not (self.folder / "config.json").is_file():
            raise VLLMStartError(f"{self.folder} is not a model folder (no config.json)")
        self.port = free_port()
        if self.log_path is None:
            log_dir = Path(tempfile.mkdtemp(prefix="tjb-vllm-"))
            self.log_path = log_dir / "server.log"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        t0 = time.monotonic()
        # the kernel's parent-death signal follows the starting thread: only the main thread's
        # end is the process's end, so a server started from a worker thread relies on atexit
        tied = sys.platform.startswith("linux") and \
            threading.current_thread() is threading.main_thread()
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, env=self.environment(),
                                         start_new_session=True,
                                         preexec_fn=_end_with_parent if tied else None)
        self.pid = self.proc.pid
        atexit.register(self.stop)
        try:
            self._wait_ready(t0)
        except BaseException:
            self.stop()
            raise
        self.startup_s = time.monotonic() - t0
        return self

    def _wait_ready(self, t0: float) -> None:
        url = f"http://127.0.0.1:{self.port}/v1/models"
        while True:
            code = self.proc.poll()
            if code is not None:
                raise VLLMStartError(f"the vLLM server exited with code {code} before it was "
                                     f"ready; see its log {self.log_path}:\n{_tail(self.log_path)}")
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() - t0 > self.startup_timeout_s:
                raise VLLMStartError(f"the vLLM server did not answer within "
                                     f"{self.startup_timeout_s:.0f} s; see its log {self.log_path}:\n"
                                     f"{_tail(self.log_path)}")
            time.sleep(1.0)

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        """End the server and every process of its group: SIGTERM, then SIGKILL after a grace."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        atexit.unregister(self.stop)
        pgid = proc.pid  # start_new_session: the server leads its own group
        _signal_group(pgid, signal.SIGTERM)
        try:
            proc.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            pass
        deadline = time.monotonic() + STOP_GRACE_S
        while group_alive(pgid) and time.monotonic() < deadline:
            time.sleep(0.2)
        if group_alive(pgid):
            _signal_group(pgid, signal.SIGKILL)
            proc.wait()

    def __enter__(self) -> "VLLMServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


_PR_SET_PDEATHSIG = 1  # prctl(2)


def _end_with_parent() -> None:
    """In the server's process, before exec: SIGTERM when its parent dies (prctl(2))."""
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


def embedded_judge_server(**kwargs) -> VLLMServer:
    """A (not yet started) server for the embedded judge's converted folder, the very weights
    the project's local judge loads (converted on first use, as the local judge does)."""
    from tjb_lib.judges.smollm2 import ensure_checkpoint

    folder, _ = ensure_checkpoint()
    return VLLMServer(folder, **kwargs)
