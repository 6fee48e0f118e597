"""The one judge interface every backend implements.

A judge turns one ``Request`` into one ``Response`` (failures included, never raised for
transport errors). The runner adds caching, concurrency and progress around ``complete``;
the store keys cached calls on ``identity()`` plus the request.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from tjb_lib.records import Request, Response


class FatalJudgeError(RuntimeError):
    """A judge can never answer as configured: no retry or rerun helps (missing key, unusable
    base URL, a request the provider rejects with 400/401/403/404). The runner stops at the first
    one with this message and a non-zero exit, and records no verdict row as failed for it."""


class Judge(ABC):
    #: recorded in the identity: the provider's backend (``provider.Provider.backend``)
    backend: str = ""

    def __init__(self, name: str, model: str, params: dict[str, Any] | None = None,
                 max_concurrency: int = 1):
        self.name = name                  # catalog name or alias, used in output paths
        self.model = model                # provider model id or local model path/id
        self.params = dict(params or {})  # decoding settings (temperature 0 by default)
        self.max_concurrency = max_concurrency

    def identity(self) -> dict[str, Any]:
        """What makes two calls the same call, besides the request: never a key or secret (an
        API judge adds the endpoint it calls)."""
        return {"backend": self.backend, "model": self.model, "params": self.params}

    def metadata(self) -> dict[str, Any]:
        """Run metadata for outputs/metadata/<judge>.json (no secrets)."""
        return {"name": self.name, **self.identity()}

    def check_ready(self) -> None:
        """Raise a ``FatalJudgeError`` now if no call could be made (a key is missing), so a
        run stops before it opens or writes anything. Replaying stored calls needs no check."""

    @abstractmethod
    def complete(self, request: Request) -> Response:
        """Answer one request; transport failures come back as ``Response(status="failed")``."""

    def count_tokens(self, text: str) -> int | None:
        """Token count for usage accounting where the API does not report it."""
        return None
