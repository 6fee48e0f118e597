"""What a local judge is before its weights load: its identity, settings and a lazy wrapper.

Kept apart from ``local_hf`` (which imports torch) so that replaying stored verdicts, re-running
notebooks and building a judge's identity never import torch or load a model.
"""
from __future__ import annotations

import os
import threading
from typing import Any, Sequence

from tjb_lib.judges.base import FatalJudgeError, Judge
from tjb_lib.records import Request, Response

#: The paper's output schema is {"winner": "A | B | Tie", ...}; this prefix makes the label next.
LABEL_PREFIX = '{"winner": "'


def usable_cores() -> int:
    """The cores this process may run on (its affinity), not the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


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
