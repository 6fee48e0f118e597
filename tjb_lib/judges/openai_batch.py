"""OpenAI's batch API on the wire: a JSONL file of chat.completions bodies, a batch on
/v1/chat/completions, and its output and error files (``batch`` holds what every batch API
shares)."""
from __future__ import annotations

import json
from typing import Any

from tjb_lib.judges.batch import (BatchError, BatchFailed, BatchStatus, Results, call,
                                  read_results)
from tjb_lib.records import Request, Response

ENDPOINT = "/v1/chat/completions"
DONE = ("completed", "failed", "expired", "cancelled")


def submit(judge: Any, client: Any, items: dict[str, Request]) -> str:
    lines = [json.dumps({"custom_id": cid, "method": "POST", "url": ENDPOINT,
                         "body": judge.request_body(r)}, ensure_ascii=False)
             for cid, r in items.items()]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    upload = call(judge, "batch file upload", lambda: client.files.create(
        file=("batch.jsonl", data, "application/jsonl"), purpose="batch"))
    batch = call(judge, "batch create", lambda: client.batches.create(
        input_file_id=upload.id, endpoint=ENDPOINT, completion_window="24h"))
    return batch.id


def poll(judge: Any, client: Any, batch_id: str) -> BatchStatus:
    b = call(judge, f"batch retrieve {batch_id}", lambda: client.batches.retrieve(batch_id))
    counts = b.request_counts.model_dump() if b.request_counts else {}
    return BatchStatus(batch_id, b.status, b.status in DONE, counts)


def results(judge: Any, client: Any, batch_id: str) -> dict[str, Response]:
    b = call(judge, f"batch retrieve {batch_id}", lambda: client.batches.retrieve(batch_id))
    if b.status not in DONE:
        raise BatchError(f"judge {judge.name!r}: batch {batch_id} is {b.status!r}, not done")
    if b.status == "failed":  # validation failed the whole file: the reasons are its errors
        errors = [e.model_dump() for e in (b.errors.data or [])] if b.errors else []
        raise BatchFailed(f"batch {batch_id} failed validation: " + "; ".join(
            f"{e.get('code')}: {e.get('message')}"
            + (f" (line {e['line']})" if e.get("line") is not None else "")
            for e in errors) if errors else f"batch {batch_id} failed with no reason given")
    out = Results()
    for file_id in (b.output_file_id, b.error_file_id):
        if not file_id:
            continue
        text = call(judge, f"batch file {file_id}", lambda: client.files.content(file_id).text)
        got = read_results(text, batch_id, lambda row: _line(judge, row, batch_id))
        out.update(got)
        out.damaged += got.damaged
    return out


def _line(judge: Any, row: dict[str, Any], batch_id: str) -> Response:
    response = row.get("response") or {}
    status_code = response.get("status_code")
    body = response.get("body") or {}
    if row.get("error") or status_code != 200:
        err = row.get("error") or body.get("error") or {}
        message = err.get("message", err) if isinstance(err, dict) else err
        return Response(status="failed", error=f"batch line failed with HTTP {status_code}: "
                                                f"{message}",
                        meta={"batch_id": batch_id, "status_code": status_code})
    r = judge.parse_reply(body)
    r.meta["batch_id"] = batch_id
    return r
