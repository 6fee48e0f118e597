"""What a local judge is before its weights load: its identity, settings and a lazy wrapper.

Kept apart from ``local_hf`` (which imports torch) so that replaying stored verdicts, re-running
notebooks and building a judge's identity never import torch or load a model.
"""
from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any, Sequence

from tjb_lib import paths
from tjb_lib.judges.base import FatalJudgeError, Judge
from tjb_lib.records import Request, Response

#: The paper's output schema is {"winner": "A | B | Tie", ...}; this prefix makes the label next.
LABEL_PREFIX = '{"winner": "'

#: what an in-process judge computes in on CPU; each is its own judge identity (its verdict
#: probabilities differ in the third decimal), so a store holds the calls of one or the other
CPU_DTYPES = ("float32", "bfloat16")
#: names a CPU dtype for this process and the notebook kernels it starts (``--dtype``)
DTYPE_ENV = "TJB_DTYPE"
#: CPU flags (Linux /proc/cpuinfo) of bfloat16 matrix instructions: AMX tiles, or AVX-512 BF16
NATIVE_BF16_FLAGS = ("amx_bf16", "avx512_bf16")
CPUINFO = Path("/proc/cpuinfo")


def usable_cores() -> int:
    """The cores this process may run on (its affinity), not the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def cpu_flags(cpuinfo: Path | None = None) -> set[str]:
    """The CPU's feature flags as Linux lists them; empty where there is no /proc/cpuinfo."""
    try:
        text = Path(cpuinfo or CPUINFO).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    return {f for line in text.splitlines() if line.startswith("flags")
            for f in line.partition(":")[2].split()}


def native_bf16(cpuinfo: Path | None = None) -> bool:
    """True where the CPU multiplies bfloat16 matrices in hardware (AMX or AVX-512 BF16): there
    bfloat16 is about twice as fast as float32; elsewhere it is emulated and slower."""
    return any(f in cpu_flags(cpuinfo) for f in NATIVE_BF16_FLAGS)


def recorded_dtype(name: str, metadata_dir: Path | None = None) -> str | None:
    """The dtype the judge ``name``'s stored runs were computed in (its run metadata), if any."""
    path = Path(metadata_dir or paths.METADATA) / f"{name}.json"
    try:
        dtype = json.loads(path.read_text(encoding="utf-8"))["parameters"]["dtype"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return dtype if dtype in CPU_DTYPES else None


def processor_dtype() -> str:
    """What a judge without stored runs computes in on this CPU: bfloat16 where the processor
    multiplies it in hardware, float32 where bfloat16 would be emulated."""
    return "bfloat16" if native_bf16() else "float32"


def cpu_dtype(name: str, requested: str | None = None) -> str:
    """The dtype the in-process judge ``name`` computes in on CPU: the one asked for (argument,
    then ``$TJB_DTYPE``), else the one its stored runs were computed in (so replaying and
    extending shipped outputs finds their calls on any machine), else bfloat16 where the CPU
    computes it natively and float32 elsewhere."""
    dtype = (requested or os.environ.get(DTYPE_ENV) or recorded_dtype(name)
             or processor_dtype())
    if dtype not in CPU_DTYPES:
        raise ValueError(f"{name} runs on CPU in {' or '.join(CPU_DTYPES)}, not {dtype!r}")
    return dtype


def emulated_note(judge: Judge) -> str | None:
    """One line when a loaded judge computes in bfloat16 on a CPU that only emulates it (its
    stored runs were computed in bfloat16 elsewhere): every new verdict then takes several times
    as long as in float32, and nothing else in a run says why."""
    if (judge.identity()["params"].get("dtype") != "bfloat16"
            or judge.metadata().get("cpu_native_bf16") is not False):
        return None
    return (f"note: {judge.name} computes in bfloat16 on a CPU without bfloat16 instructions "
            f"({' or '.join(NATIVE_BF16_FLAGS)}), so each verdict it has not stored takes several "
            f"times as long as in float32; {DTYPE_ENV}=float32 judges in float32, a judge of its "
            "own whose calls are stored apart")


def local_params(label_prefix: str, dtype: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The decoding settings a local judge records in its identity (and so in its store keys)."""
    return {"temperature": 0.0, "decoding": "greedy", "verdict_scoring": "next_token_label_probs",
            "label_prefix": label_prefix, "dtype": dtype, **(params or {})}


class LazyLocalJudge(Judge):
    """A local judge whose weights load on the first call, so replaying stored verdicts (CI,
    ``--replay-only``, re-running notebooks) never loads or converts a model."""

    backend = "local_hf"

    def __init__(self, name: str, model: str, params: dict[str, Any], loader, notes: str = "",
                 max_concurrency: int | None = None, ready=None):
        super().__init__(name, model, params=params,
                         max_concurrency=max_concurrency or usable_cores())
        self._loader = loader
        self._ready = ready  # raises a FatalJudgeError when this machine cannot load the model
        self._judge: Judge | None = None
        self._load_lock = threading.Lock()  # the runner's threads may make the first call together
        self.notes = notes

    def loaded(self) -> Judge:
        with self._load_lock:
            if self._judge is None:
                try:
                    judge = self._loader()
                except FatalJudgeError:
                    raise
                except Exception as e:  # no weights, no package: every call would fail alike
                    raise FatalJudgeError(f"{self.name}: the local model could not be loaded "
                                          f"({type(e).__name__}: {e})") from e
                if judge.identity() != self.identity():
                    raise FatalJudgeError(f"{self.name}: the loaded model's identity "
                                          f"{judge.identity()} differs from the declared "
                                          f"{self.identity()}; stored calls would not match. "
                                          "Fix the catalog entry.")
                self._judge = judge
                note = emulated_note(judge)
                if note:
                    print(note, file=sys.stderr)
            return self._judge

    def check_ready(self) -> None:
        if self._ready is not None:
            self._ready()

    def complete(self, request: Request) -> Response:
        return self.loaded().complete(request)

    def score_many(self, requests: Sequence[Request]) -> list[Response]:
        return self.loaded().score_many(requests)

    def count_tokens(self, text: str) -> int:
        return self.loaded().count_tokens(text)

    def metadata(self) -> dict[str, Any]:
        if self._judge is not None:
            return self._judge.metadata()
        return {**super().metadata(), "notes": self.notes, "loaded": False}
