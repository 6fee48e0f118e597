"""Anthropic's message batches on the wire: one request of entries, its processing status, and
its results (``batch`` holds what every batch API shares)."""
from __future__ import annotations

from typing import Any

from tjb_lib.judges.batch import BatchError, BatchStatus, call, read_results
from tjb_lib.records import Request, Response


def submit(judge: Any, client: Any, items: dict[str, Request]) -> str:
    entries = [{"custom_id": cid, "params": judge.request_body(r)} for cid, r in items.items()]
    batch = call(judge, "message batch create",
                 lambda: client.messages.batches.create(requests=entries))
    return batch.id


def poll(judge: Any, client: Any, batch_id: str) -> BatchStatus:
    b = call(judge, f"message batch retrieve {batch_id}",
             lambda: client.messages.batches.retrieve(batch_id))
    return BatchStatus(batch_id, b.processing_status, b.processing_status == "ended",
                       b.request_counts.model_dump())


def results(judge: Any, client: Any, batch_id: str) -> dict[str, Response]:
    status = poll(judge, client, batch_id)
    if not status.done:
        raise BatchError(f"judge {judge.name!r}: batch {batch_id} is {status.status!r}, not done")
    raw = call(judge, f"message batch results {batch_id}",  # the JSONL as sent: line by line
               lambda: client.messages.batches.with_raw_response.results(batch_id)
               .http_response.read())
    return read_results(raw.decode("utf-8", errors="replace"), batch_id,
                        lambda row: _result(judge, row["result"], batch_id))


def _result(judge: Any, result: dict[str, Any], batch_id: str) -> Response:
    if result.get("type") == "succeeded":
        r = judge.parse_reply(result["message"])
        r.meta["batch_id"] = batch_id
        return r
    err = (result.get("error") or {}).get("error") or {}
    kind = f"{err['type']}: " if err.get("type") else ""
    return Response(status="failed",
                    error=f"batch result {result.get('type')}: {kind}{err.get('message', '')}"
                    .strip(),
                    meta={"batch_id": batch_id, "result_type": result.get("type")})
