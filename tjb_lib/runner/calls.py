"""One judge call as the protocols see it: from the store when it holds the call, else made
once (leased by its request key, so no other thread or process makes it too) and stored."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from tjb_lib.judges.prices import call_cost
from tjb_lib.judges.base import FatalJudgeError, Judge
from tjb_lib.records import Request, Response
from tjb_lib.runner.comparisons import RunError
from tjb_lib.store import Hit, ResponseStore


class ReplayMissing(RunError):
    """Replay-only mode met a comparison whose judge call is not in the store."""


@dataclass
class RunTally:
    """Counters of one run, shared by the worker threads."""

    calls: int = 0          # judge calls made by this run
    hits: int = 0           # calls answered from the store
    batched: int = 0        # requests sent through the provider's batch API first
    failed_calls: int = 0
    input_tokens: int = 0   # of the calls made by this run (in real time or by batch)
    output_tokens: int = 0
    usd: float = 0.0        # list-price dollars of the calls made by this run
    priced: bool = True
    returned_models: set[str] = field(default_factory=set)
    call_dates: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def postfix(self) -> dict[str, str]:
        usd = f"${self.usd:.4f}" if self.priced else "$?"
        return {"calls": str(self.calls), "hits": str(self.hits), "cost": usd}

    def served(self, hit: Hit) -> Response:
        with self.lock:
            self.hits += 1
            self.call_dates.append(hit.created_at)
            if hit.response.model_returned:
                self.returned_models.add(hit.response.model_returned)
        return hit.response

    def made(self, model: str, resp: Response, created_at: str) -> None:
        with self.lock:
            self.calls += 1
            self.failed_calls += resp.status != "ok"
            self._paid(model, resp, batch=False)
            self.call_dates.append(created_at)
            if resp.model_returned:
                self.returned_models.add(resp.model_returned)

    def batched_result(self, model: str, resp: Response) -> None:
        """A result this run collected from the provider's batch API: paid by this run too, at
        the batch price, though it is then served from the store."""
        with self.lock:
            self.batched += 1
            self._paid(model, resp, batch=True)

    def _paid(self, model: str, resp: Response, batch: bool) -> None:
        cost = call_cost(model, resp.input_tokens, resp.output_tokens, resp.cached_input_tokens,
                         resp.cache_write_tokens, batch=batch)
        self.input_tokens += resp.input_tokens or 0
        self.output_tokens += resp.output_tokens or 0
        if cost is None:
            self.priced = self.priced and resp.status != "ok"
        else:
            self.usd += cost


def make_call(judge: Judge, store: ResponseStore, tally: RunTally,
              replay_only: bool = False) -> Callable[[Request], Response]:
    """The one-call function the protocols use: store first, else the judge (then stored).

    What it returns is the response as stored (a key the reply echoed already redacted, usage
    already bounded), so nothing downstream sees more than the store holds. A key another
    thread or process failed on while this one waited for its lease is not tried again in this
    run: that failure is returned. A ``FatalJudgeError`` (no key, an unusable endpoint, a
    request the provider rejects) stops the run: it is raised, never stored as a failed call."""
    from tjb_lib.protocols import request_key

    identity = judge.identity()

    def call(request: Request) -> Response:
        key = request_key(identity, request)
        if (hit := store.get(key)) is not None:
            return tally.served(hit)
        if replay_only:
            raise ReplayMissing(f"no stored call for request {key[:12]} (template "
                                f"{request.template}) in {store.log_path}")
        store.check_room()  # a full disk stops the run before a call it could not keep
        with store.lease(key):
            # made, or failed for good, by another thread or process as we waited
            if (hit := store.get(key) or store.failure(key)) is not None:
                return tally.served(hit)
            t0 = time.monotonic()
            try:
                resp = judge.complete(request)
            except FatalJudgeError:
                raise
            except Exception as e:  # a judge bug or transport error becomes a named failure
                resp = Response(status="failed", error=f"{type(e).__name__}: {e}",
                                latency_s=time.monotonic() - t0)
            rec = store.put(key, identity, request, resp)
        stored = Response.from_dict(rec["response"])
        tally.made(judge.model, stored, rec["created_at"])
        return stored

    return call
