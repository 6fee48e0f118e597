"""Batch mode: send many judge requests as one provider batch (about half the price, hours late).

``submit_batch`` uploads the requests, ``poll`` reports progress, ``collect`` turns the results
into the same ``Response`` records ``complete`` returns, keyed by custom id. Each line's custom id
is the call key (a hash of judge identity and request), so results go straight into the response
store. A line the provider failed or refused comes back as ``Response(status="failed")`` with
the provider's status and words, never as a verdict, and never discards the other lines; a batch
that failed as a whole (OpenAI's validation) gives every request of it a failure naming the
batch's own errors. The batch-level HTTP calls use the judge's retry policy; giving up there
raises ``BatchError``. Batch mode is for
the judges whose provider declares a batch API (``Provider.batch``); each API's own wire format
is its ``batch_api`` module (``openai_batch``, ``anthropic_batch``). With a budget, a batch is
charged at its worst case before it is submitted (refused when that would pass the budget) and
settled when it is collected, each line as a real-time call is (``budget.call_usd``).
"""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from tjb_lib.judges.base import Judge
from tjb_lib.judges.retry import GiveUp, call_with_retry
from tjb_lib.records import Request, Response, request_key


class BatchError(RuntimeError):
    """A batch could not be submitted, polled or collected."""


class BatchFailed(BatchError):
    """The provider failed the batch as a whole: no line has a result; the message says why."""


@dataclass
class BatchStatus:
    """Where a provider batch stands, in one shape for every provider."""

    batch_id: str
    status: str        # provider's own word: completed / in_progress / ended / ...
    done: bool         # no more progress will come: results (if any) can be collected
    counts: dict[str, int] = field(default_factory=dict)


#: the custom id (a call key) a damaged result line may still show
_CUSTOM_ID = re.compile(r'"custom_id"\s*:\s*"([0-9A-Za-z_-]{1,64})"')
#: the most of a damaged line kept as its failed response's text
DAMAGED_LINE_CHARS = 65536


class Results(dict):
    """A batch's results by custom id, and ``damaged``: result lines that name no custom id
    (their text), which ``collect`` gives to the requests left without a result."""

    def __init__(self) -> None:
        super().__init__()
        self.damaged: list[str] = []


def read_results(text: str, batch_id: str,
                 line_response: Callable[[dict[str, Any]], Response]) -> Results:
    """A results file line by line: a line that is not JSON, names no custom id or has a
    shape ``line_response`` cannot read is that request's failed response carrying the line's
    bytes, and the other lines are kept (one damaged line once discarded every paid result)."""
    out = Results()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if not (isinstance(row, dict) and isinstance(row.get("custom_id"), str)):
                raise ValueError("no custom_id string")
            out[row["custom_id"]] = line_response(row)
            continue
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            why = " ".join(str(e).split())[:200]
        found = _CUSTOM_ID.search(line)
        if found is None:
            out.damaged.append(line[:DAMAGED_LINE_CHARS])
            continue
        out[found.group(1)] = Response(
            status="failed", text=line[:DAMAGED_LINE_CHARS],
            error=f"batch {batch_id} result line {n} is damaged ({why}); its bytes are the "
                  "reply text", meta={"batch_id": batch_id, "damaged_line": n,
                                      "line_chars": len(line)})
    return out


def custom_id_for(judge: Judge, request: Request) -> str:
    """The call key of (judge, request): 64 hex characters, valid as a batch custom id."""
    return request_key(judge.identity(), request)


def batch_api(judge: Judge) -> Any:
    """The module that speaks ``judge``'s batch API; TypeError when its provider has none."""
    api = getattr(judge, "batch_api", None)
    if api is None:
        raise TypeError(f"judge {judge.name!r} (backend {judge.backend!r}) has no batch API; "
                        "batch mode is for providers that declare one (OpenAI, Anthropic)")
    return api


def call(judge: Any, what: str, fn: Callable[[], Any]) -> Any:
    """One batch-level HTTP call under the judge's retry policy."""
    try:
        result, _, _ = call_with_retry(fn, judge.retry, what, judge._secrets())
    except GiveUp as g:
        raise BatchError(f"judge {judge.name!r}: {what} failed after {g.attempts} "
                         f"attempt(s): {g.error}") from None
    return result


def submit_batch(judge: Judge, requests: Sequence[Request] | Mapping[str, Request]) -> str:
    """Submit requests as one batch; returns the provider's batch id. A sequence gets call keys
    as custom ids (duplicates are sent once); a mapping keeps the caller's ids."""
    api = batch_api(judge)
    if isinstance(requests, Mapping):
        items = dict(requests)
    else:
        items = {custom_id_for(judge, r): r for r in requests}
    if not items:
        raise ValueError(f"judge {judge.name!r}: submit_batch got no requests")
    client = judge.client
    charged = judge.budget.charge_batch(judge.model, items.values()) if judge.budget else None
    batch_id = api.submit(judge, client, items)
    if charged is not None:
        _CHARGED[batch_id] = (charged, items)
    return batch_id


#: per batch id submitted by this process: the worst-case dollars charged to the budget, and
#: its requests by custom id (their results are settled against them)
_CHARGED: dict[str, tuple[float, dict[str, Request]]] = {}


def poll(judge: Judge, batch_id: str) -> BatchStatus:
    """One status check of a submitted batch."""
    return batch_api(judge).poll(judge, judge.client, batch_id)


def wait(judge: Judge, batch_id: str, interval_s: float = 60.0, timeout_s: float = 86400.0,
         sleep: Callable[[float], None] = time.sleep) -> BatchStatus:
    """Poll until the batch is done; raises ``BatchError`` past ``timeout_s`` of sleeping."""
    slept = 0.0
    while True:
        status = poll(judge, batch_id)
        if status.done:
            return status
        if slept >= timeout_s:
            raise BatchError(f"judge {judge.name!r}: batch {batch_id} still {status.status!r} "
                             f"after {slept:.0f} s of waiting")
        sleep(interval_s)
        slept += interval_s


def collect(judge: Judge, batch_id: str, ids: Sequence[str] | Mapping[str, Request] = ()
            ) -> dict[str, Response]:
    """Results of a finished batch as {custom_id: Response}; failed lines are failed Responses,
    and so is each of ``ids`` the batch returned nothing for, with the reason (a batch that
    failed as a whole: its errors). Then the batch's worst-case budget charge is replaced by
    what the results cost; a batch this process did not submit (a killed run's) is charged
    what its results cost when ``ids`` maps them to their requests."""
    try:
        out = batch_api(judge).results(judge, judge.client, batch_id)
        missing = f"batch {batch_id} returned no result for this request"
    except BatchFailed as e:
        if not ids:
            raise
        out, missing = {}, str(e)
    damaged = getattr(out, "damaged", [])
    if damaged:
        missing += (f"; {len(damaged)} damaged result line(s) named no request, their bytes "
                    "are this response's text")
    for cid in ids:
        out.setdefault(cid, Response(status="failed", error=missing, text="\n".join(damaged)
                                     or None, meta={"batch_id": batch_id}))
    charged, requests = _CHARGED.pop(batch_id, (None, {}))
    if isinstance(ids, Mapping):
        requests = {**ids, **requests}
    if judge.budget is not None and requests:
        judge.budget.settle_batch(charged, judge.model,
                                  [(requests[cid], r) for cid, r in out.items() if cid in requests])
    return out
