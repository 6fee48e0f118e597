"""Batch mode: send many judge requests as one provider batch (about half the price, hours late).

``submit_batch`` uploads the requests (OpenAI: a JSONL file + a batch on /v1/chat/completions;
Anthropic: a message batch), ``poll`` reports progress, ``collect`` turns the results into the
same ``Response`` records ``complete`` returns, keyed by custom id. Each line's custom id is the
call key (a hash of judge identity and request), so results go straight into the response store.
A line the provider failed comes back as ``Response(status="failed")``, never as a verdict.
The batch-level HTTP calls use the judge's retry policy; giving up there raises ``BatchError``.
A line the provider refused as a request it will never accept (400, 401, 403, 404) stops the run
like the same reply to a live call (``ProviderRejected``). Batch mode is for the judges whose
backend is ``openai`` or ``anthropic``: DeepSeek and vLLM have no batch endpoint. With a budget,
a batch is charged at its worst case before it is submitted and settled when it is collected.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from tjb_lib.judges.anthropic_api import AnthropicJudge
from tjb_lib.judges.base import Judge
from tjb_lib.judges.openai_api import OpenAIJudge
from tjb_lib.judges.retry import FATAL_STATUSES, GiveUp, ProviderRejected, call_with_retry
from tjb_lib.records import Request, Response, request_key

OPENAI_ENDPOINT = "/v1/chat/completions"
OPENAI_DONE = ("completed", "failed", "expired", "cancelled")


class BatchError(RuntimeError):
    """A batch could not be submitted, polled or collected."""


@dataclass
class BatchStatus:
    """Where a provider batch stands, in one shape for both providers."""

    batch_id: str
    status: str        # provider's own word: completed / in_progress / ended / ...
    done: bool         # no more progress will come: results (if any) can be collected
    counts: dict[str, int] = field(default_factory=dict)


#: Anthropic batch error types that mean the same as a fatal HTTP status on a live call
FATAL_ERROR_TYPES = ("invalid_request_error", "authentication_error", "permission_error",
                     "not_found_error")


def custom_id_for(judge: Judge, request: Request) -> str:
    """The call key of (judge, request): 64 hex characters, valid as a batch custom id."""
    return request_key(judge.identity(), request)


def provider_kind(judge: Judge) -> str:
    if isinstance(judge, AnthropicJudge) and judge.backend == "anthropic":
        return "anthropic"
    if isinstance(judge, OpenAIJudge) and judge.backend == "openai":
        return "openai"
    raise TypeError(f"judge {judge.name!r} (backend {judge.backend!r}) has no batch API; "
                    "batch mode is for OpenAI and Anthropic judges")


def _call(judge: Any, what: str, fn: Callable[[], Any]) -> Any:
    try:
        result, _, _ = call_with_retry(fn, judge.retry, what, judge._secrets())
    except GiveUp as g:
        raise BatchError(f"judge {judge.name!r}: {what} failed after {g.attempts} "
                         f"attempt(s): {g.error}") from None
    return result


def submit_batch(judge: Judge, requests: Sequence[Request] | Mapping[str, Request]) -> str:
    """Submit requests as one batch; returns the provider's batch id. A sequence gets call keys
    as custom ids (duplicates are sent once); a mapping keeps the caller's ids."""
    kind = provider_kind(judge)
    if isinstance(requests, Mapping):
        items = dict(requests)
    else:
        items = {custom_id_for(judge, r): r for r in requests}
    if not items:
        raise ValueError(f"judge {judge.name!r}: submit_batch got no requests")
    client = judge.client
    charged = judge.budget.charge_batch(judge.model, items.values()) if judge.budget else None
    if kind == "openai":
        lines = [json.dumps({"custom_id": cid, "method": "POST", "url": OPENAI_ENDPOINT,
                             "body": judge.request_body(r)}, ensure_ascii=False)
                 for cid, r in items.items()]
        data = ("\n".join(lines) + "\n").encode("utf-8")
        upload = _call(judge, "batch file upload", lambda: client.files.create(
            file=("batch.jsonl", data, "application/jsonl"), purpose="batch"))
        batch = _call(judge, "batch create", lambda: client.batches.create(
            input_file_id=upload.id, endpoint=OPENAI_ENDPOINT, completion_window="24h"))
    else:
        entries = [{"custom_id": cid, "params": judge.request_body(r)} for cid, r in items.items()]
        batch = _call(judge, "message batch create",
                      lambda: client.messages.batches.create(requests=entries))
    if charged is not None:
        _CHARGED[batch.id] = charged
    return batch.id


#: worst-case dollars charged to the budget per batch id submitted by this process
_CHARGED: dict[str, float] = {}


def poll(judge: Judge, batch_id: str) -> BatchStatus:
    """One status check of a submitted batch."""
    kind = provider_kind(judge)
    client = judge.client
    if kind == "openai":
        b = _call(judge, f"batch retrieve {batch_id}", lambda: client.batches.retrieve(batch_id))
        counts = b.request_counts.model_dump() if b.request_counts else {}
        return BatchStatus(batch_id, b.status, b.status in OPENAI_DONE, counts)
    b = _call(judge, f"message batch retrieve {batch_id}",
              lambda: client.messages.batches.retrieve(batch_id))
    return BatchStatus(batch_id, b.processing_status, b.processing_status == "ended",
                       b.request_counts.model_dump())


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


def collect(judge: Judge, batch_id: str) -> dict[str, Response]:
    """Results of a finished batch as {custom_id: Response}; failed lines are failed Responses."""
    kind = provider_kind(judge)
    client = judge.client
    out: dict[str, Response] = {}
    if kind == "openai":
        b = _call(judge, f"batch retrieve {batch_id}", lambda: client.batches.retrieve(batch_id))
        if b.status not in OPENAI_DONE:
            raise BatchError(f"judge {judge.name!r}: batch {batch_id} is {b.status!r}, not done")
        for file_id in (b.output_file_id, b.error_file_id):
            if not file_id:
                continue
            text = _call(judge, f"batch file {file_id}",
                         lambda: client.files.content(file_id).text)
            for line in text.splitlines():
                if line.strip():
                    row = json.loads(line)
                    out[row["custom_id"]] = _openai_line(judge, row, batch_id)
        return _settled(judge, batch_id, out)
    status = poll(judge, batch_id)
    if not status.done:
        raise BatchError(f"judge {judge.name!r}: batch {batch_id} is {status.status!r}, not done")
    results = _call(judge, f"message batch results {batch_id}",
                    lambda: list(client.messages.batches.results(batch_id)))
    for item in results:
        out[item.custom_id] = _anthropic_result(judge, item.result.model_dump(), batch_id)
    return _settled(judge, batch_id, out)


def _settled(judge: Judge, batch_id: str, out: dict[str, Response]) -> dict[str, Response]:
    """The results, after the batch's worst-case charge is replaced by what they cost."""
    charged = _CHARGED.pop(batch_id, None)
    if charged is not None and judge.budget is not None:
        judge.budget.settle_batch(charged, judge.model, out.values())
    return out


def _openai_line(judge: OpenAIJudge, row: dict[str, Any], batch_id: str) -> Response:
    response = row.get("response") or {}
    status_code = response.get("status_code")
    body = response.get("body") or {}
    if row.get("error") or status_code != 200:
        err = row.get("error") or body.get("error") or {}
        message = err.get("message", err) if isinstance(err, dict) else err
        if status_code in FATAL_STATUSES:
            raise ProviderRejected(f"batch {batch_id}: the provider refused a request with HTTP "
                                   f"{status_code}: {message}", status_code)
        return Response(status="failed", error=f"batch line failed ({status_code}): {message}",
                        meta={"batch_id": batch_id, "status_code": status_code})
    r = judge.parse_reply(body)
    r.meta["batch_id"] = batch_id
    return r


def _anthropic_result(judge: AnthropicJudge, result: dict[str, Any], batch_id: str) -> Response:
    if result.get("type") == "succeeded":
        r = judge.parse_reply(result["message"])
        r.meta["batch_id"] = batch_id
        return r
    err = (result.get("error") or {}).get("error") or {}
    if err.get("type") in FATAL_ERROR_TYPES:
        raise ProviderRejected(f"batch {batch_id}: the provider refused a request: "
                               f"{err['type']}: {err.get('message', '')}", 400)
    return Response(status="failed",
                    error=f"batch result {result.get('type')}: {err.get('message', '')}".strip(),
                    meta={"batch_id": batch_id, "result_type": result.get("type")})
