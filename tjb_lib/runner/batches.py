"""Batch rounds: fill the store through the provider's batch API before the real-time run."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tjb_lib.judges.base import Judge
from tjb_lib.records import Request, Response, stable_hash
from tjb_lib.runner.calls import RunTally
from tjb_lib.runner.comparisons import RunError
from tjb_lib.store import ResponseStore, now_iso


class _NeedsCall(Exception):
    """Raised by the batch probe: this comparison needs a call the store does not hold."""


def _pending_batches(path: Path) -> dict[str, str]:
    """keys hash -> batch id of submitted batches not yet collected (survives a killed run)."""
    pending: dict[str, str] = {}
    if path.exists():
        for line in path.read_bytes().splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # the torn last line of a killed run: its batch is submitted again
            if rec.get("collected"):
                pending = {k: b for k, b in pending.items() if b != rec["batch_id"]}
            else:
                pending[rec["keys_sha"]] = rec["batch_id"]
    return pending


def _log_batch(path: Path, rec: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)  # the store's folder comes with its first call
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({**rec, "at": now_iso()}) + "\n")
        f.flush()
        os.fsync(f.fileno())


def batch_rounds(comps: list[tuple], judge: Judge, store: ResponseStore, tally: RunTally,
                 max_rounds: int = 4, interval_s: float = 60.0) -> None:
    """Fill the store through the provider's batch API, one round per protocol stage.

    Each round finds, for every comparison, the first call the store lacks (TRACE stage 2 only
    becomes known once stage 1 is stored), sends them as one batch, waits, and stores every
    result (failures too). Batch ids are logged in ``batches.jsonl`` so a killed run collects
    its batch instead of paying for it twice. ``tally`` counts each collected result as paid by
    this run; whatever is still missing afterwards is called in real time by the normal run.
    """
    from tjb_lib.judges import batch
    from tjb_lib.protocols import request_key, run_comparison

    try:
        batch.batch_api(judge)  # only a provider that declares a batch API
    except TypeError as e:
        raise RunError(str(e)) from None
    identity = judge.identity()
    log = store.directory / "batches.jsonl"
    sent: set[str] = set()
    for _ in range(max_rounds):
        missing: dict[str, Request] = {}

        def probe(request: Request) -> Response:
            key = request_key(identity, request)
            hit = store.get(key)
            if hit is None:
                missing.setdefault(key, request)
                raise _NeedsCall
            return hit.response

        for pair, order, spec in comps:
            try:
                run_comparison(pair, order, spec, probe, identity=identity)
            except _NeedsCall:
                pass
        todo = {k: r for k, r in missing.items() if k not in sent}  # failed ones: not again
        if not todo:
            break
        keys_sha = stable_hash(sorted(todo))
        batch_id = _pending_batches(log).get(keys_sha)
        if batch_id is None:
            batch_id = batch.submit_batch(judge, todo)
            _log_batch(log, {"batch_id": batch_id, "keys_sha": keys_sha, "requests": len(todo)})
        print(f"{judge.name}: batch {batch_id} holds {len(todo)} requests; waiting",
              file=sys.stderr)
        batch.wait(judge, batch_id, interval_s=interval_s)
        results = batch.collect(judge, batch_id, todo)
        for key, request in todo.items():
            store.put(key, identity, request, results[key])
            tally.batched_result(judge.model, results[key])
        _log_batch(log, {"batch_id": batch_id, "collected": True})
        sent |= set(todo)
