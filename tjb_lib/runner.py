"""Turn a split into verdict rows: one judge, one protocol, every pair in both orders.

The response store is the source of truth: every call goes through it, so a run killed at any
point resumes with no lost row and no repeated call, and a rerun of a finished run makes zero
judge calls. Verdict rows are appended to ``<out_dir>/<judge>/<split>.<protocol>.jsonl`` as they
complete and the file is rewritten atomically, in the fixed comparison order, at the end.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections import Counter
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import pandas as pd
from tqdm.auto import tqdm

from tjb_lib import paths
from tjb_lib.cost import call_cost
from tjb_lib.judges.base import Judge
from tjb_lib.records import VERDICT_COLUMNS, Request, Response
from tjb_lib.store import ResponseStore, now_iso

COMPARISON_ID = ("pair_id", "order", "protocol", "level", "paraphrase")


class RunError(Exception):
    """A problem the person running the judge can fix (bad name, missing replay output)."""


class ReplayMissing(RunError):
    """Replay-only mode met a comparison whose judge call is not in the store."""


@dataclass
class RunStats:
    """Counters of one run, shared by the worker threads."""

    calls: int = 0          # judge calls made by this run
    hits: int = 0           # calls answered from the store
    batched: int = 0        # requests sent through the provider's batch API first
    failed_calls: int = 0
    input_tokens: int = 0   # of the calls made by this run
    output_tokens: int = 0
    usd: float = 0.0        # list-price dollars of the calls made by this run
    priced: bool = True
    returned_models: set[str] = field(default_factory=set)
    call_dates: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def postfix(self) -> dict[str, str]:
        usd = f"${self.usd:.4f}" if self.priced else "$?"
        return {"calls": str(self.calls), "hits": str(self.hits), "cost": usd}


def comparison_id(row: dict[str, Any]) -> tuple:
    return tuple(row.get(k) for k in COMPARISON_ID)


def plan(split: str, protocol: str, limit: int | None = None) -> list[tuple]:
    """Every ordered comparison of the run, fixed before any call: [(pair, order, spec), ...]."""
    from tjb_lib.pairs import load_split
    from tjb_lib.protocols import expand, ordered_comparisons

    try:
        specs = expand(protocol, split)
    except (KeyError, ValueError) as e:
        raise RunError(f"protocol {protocol!r}: {_msg(e)}") from e
    try:
        pairs = load_split(split)
    except (KeyError, ValueError, FileNotFoundError) as e:
        raise RunError(f"split {split!r}: {_msg(e)}") from e
    if limit is not None:
        if limit < 0:
            raise RunError(f"--limit must be >= 0, got {limit}")
        pairs = pairs[:limit]
    return list(ordered_comparisons(pairs, specs))


def _msg(e: BaseException) -> str:
    return str(e.args[0]) if isinstance(e, KeyError) and e.args else str(e)


def _resolve_judge(judge: Judge | str, base_url: str | None = None,
                   model: str | None = None, rationales: bool = False) -> Judge:
    if isinstance(judge, Judge):
        return judge
    from tjb_lib.judges.catalog import find_spec, get_judge

    try:
        if rationales:  # local judges score without text unless asked to write their reasons
            if base_url or find_spec(judge).backend != "local_hf":
                raise ValueError("--rationales is for local judges; API judges always "
                                 "return their reason")
            j = get_judge(judge, model=model, params={"rationales": True})
            j.name = f"{j.name}-rationales"  # its own outputs folder beside the scored verdicts
            return j
        return get_judge(judge, base_url=base_url, model=model)
    except (KeyError, ValueError) as e:
        raise RunError(f"judge {judge!r}: {_msg(e)}") from e


def make_call(judge: Judge, store: ResponseStore, stats: RunStats,
              replay_only: bool = False) -> Callable[[Request], Response]:
    """The one-call function the protocols use: store first, else the judge (then stored)."""
    from tjb_lib.protocols import request_key

    identity = judge.identity()

    def call(request: Request) -> Response:
        key = request_key(identity, request)
        rec = store.get_record(key)
        if rec is not None:
            resp = Response.from_dict(rec["response"])
            resp.cached = True
            with stats.lock:
                stats.hits += 1
                stats.call_dates.append(rec["created_at"])
                if resp.model_returned:
                    stats.returned_models.add(resp.model_returned)
            return resp
        if replay_only:
            raise ReplayMissing(f"no stored call for request {key[:12]} (template "
                                f"{request.template}) in {store.log_path}")
        t0 = time.monotonic()
        try:
            resp = judge.complete(request)
        except Exception as e:  # a judge bug or transport error becomes a named failure
            resp = Response(status="failed", error=f"{type(e).__name__}: {e}",
                            latency_s=time.monotonic() - t0)
        rec = store.put(key, identity, request, resp)
        cost = call_cost(judge.model, resp.input_tokens, resp.output_tokens)
        with stats.lock:
            stats.calls += 1
            stats.failed_calls += resp.status != "ok"
            stats.input_tokens += resp.input_tokens or 0
            stats.output_tokens += resp.output_tokens or 0
            if cost is None:
                stats.priced = stats.priced and resp.status != "ok"
            else:
                stats.usd += cost
            stats.call_dates.append(rec["created_at"])
            if resp.model_returned:
                stats.returned_models.add(resp.model_returned)
        return resp

    return call


class _RowLog:
    """The rows file: earlier rows kept, new rows appended as they complete."""

    def __init__(self, path: Path):
        self.path = path
        self.lock = threading.Lock()
        self.previous: dict[tuple, dict] = {}
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    continue  # the last line of a killed run; its call is in the store
                self.previous[comparison_id(row)] = row
        self._fh = None  # opened at the first new row: a pure replay writes nothing

    def append(self, row: dict) -> None:
        with self.lock:
            if comparison_id(row) in self.previous:
                return  # already on disk from an earlier run; the final rewrite refreshes it
            if self._fh is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                _atomic_write_rows(self.path, list(self.previous.values()))  # drop a torn line
                self._fh = open(self.path, "a", encoding="utf-8")
            self._fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            self._fh.flush()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()


def _atomic_write_rows(path: Path, rows: list[dict]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _same_rows(results: list[dict], previous: dict[tuple, dict]) -> bool:
    """True when every row is already on disk with the same content (``cached`` aside: a
    replayed row is cached, the shipped one was not)."""
    def content(r: dict) -> dict:
        return {k: v for k, v in r.items() if k != "cached"}
    return all((p := previous.get(comparison_id(r))) is not None and content(p) == content(r)
               for r in results)


def _verdict_time(row: dict, store: ResponseStore) -> str:
    """When the verdict was made: its latest stored call, so a replay reproduces the row."""
    times = [rec["created_at"] for k in row.get("request_hashes") or ()
             if (rec := store.get_record(k)) is not None]
    return max(times) if times else now_iso()


def _complete_row(row: dict, judge_name: str, created_at: str) -> dict:
    row = dict(row, judge=judge_name, created_at=created_at)
    missing = [c for c in VERDICT_COLUMNS if c not in row]
    if missing:
        raise ValueError(f"run_comparison returned a row without {missing} "
                         f"(pair {row.get('pair_id')!r}, order {row.get('order')!r})")
    extra = sorted(k for k in row if k not in VERDICT_COLUMNS)
    return {c: row[c] for c in (*VERDICT_COLUMNS, *extra)}


class _NeedsCall(Exception):
    """Raised by the batch probe: this comparison needs a call the store does not hold."""


def _pending_batches(path: Path) -> dict[str, str]:
    """keys hash -> batch id of submitted batches not yet collected (survives a killed run)."""
    pending: dict[str, str] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            if rec.get("collected"):
                pending = {k: b for k, b in pending.items() if b != rec["batch_id"]}
            else:
                pending[rec["keys_sha"]] = rec["batch_id"]
    return pending


def _log_batch(path: Path, rec: dict) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({**rec, "at": now_iso()}) + "\n")
        f.flush()
        os.fsync(f.fileno())


def batch_rounds(comps: list[tuple], judge: Judge, store: ResponseStore, max_rounds: int = 4,
                 interval_s: float = 60.0) -> int:
    """Fill the store through the provider's batch API, one round per protocol stage.

    Each round finds, for every comparison, the first call the store lacks (TRACE stage 2 only
    becomes known once stage 1 is stored), sends them as one batch, waits, and stores every
    result (failures too). Batch ids are logged in ``batches.jsonl`` so a killed run collects
    its batch instead of paying for it twice. Returns the number of requests sent; whatever is
    still missing afterwards is called in real time by the normal run.
    """
    from tjb_lib.judges import batch
    from tjb_lib.protocols import request_key, run_comparison
    from tjb_lib.records import stable_hash

    try:
        batch.provider_kind(judge)  # OpenAI(-compatible) or Anthropic only
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
            return hit

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
        results = batch.collect(judge, batch_id)
        for key, request in todo.items():
            resp = results.get(key) or Response(
                status="failed", error=f"batch {batch_id} returned no result for this request")
            store.put(key, identity, request, resp)
        _log_batch(log, {"batch_id": batch_id, "collected": True})
        sent |= set(todo)
    return len(sent)


def run(split: str, protocol: str, judge: Judge | str, limit: int | None = None,
        concurrency: int | None = None, out_dir: str | Path | None = None,
        replay_only: bool = False, progress: bool = True, batch: bool = False) -> pd.DataFrame:
    """Judge ``split`` under ``protocol``; returns the verdict rows in comparison order.

    ``batch=True`` first fills the store through the provider's batch API (``batch_rounds``).

    ``df.attrs["run"]`` holds the run's counters (calls made, store hits, tokens, dollars).
    """
    from tjb_lib.metadata import write_run_metadata
    from tjb_lib.protocols import run_comparison

    started = datetime.now(timezone.utc)
    t0 = time.monotonic()
    comps = plan(split, protocol, limit)
    judge = _resolve_judge(judge)
    out_dir = Path(out_dir or paths.RAW_OUTPUTS)
    judge_dir = out_dir / judge.name
    store = ResponseStore(judge_dir)
    stats = RunStats()
    call = make_call(judge, store, stats, replay_only=replay_only)
    identity = judge.identity()  # so the rows' request_hashes are the store keys
    if batch and not replay_only:
        stats.batched = batch_rounds(comps, judge, store)
    rows_path = judge_dir / f"{split}.{protocol}.jsonl"
    rowlog = _RowLog(rows_path)
    results: list[dict | None] = [None] * len(comps)
    bar = tqdm(total=len(comps), desc=f"{judge.name} {split} {protocol}", unit="cmp",
               disable=not progress, file=sys.stderr)

    def one(i: int) -> None:
        pair, order, spec = comps[i]
        try:
            row = run_comparison(pair, order, spec, call, identity=identity)
        except ReplayMissing as e:
            raise ReplayMissing(f"replay-only: comparison #{i} (pair {pair.pair_id}, order "
                                f"{order}, {spec}) has no stored judge call: {e}. Run without "
                                "--replay-only to call the judge.") from None
        row = _complete_row(row, judge.name, _verdict_time(row, store))
        results[i] = row
        rowlog.append(row)
        with stats.lock:
            bar.set_postfix(stats.postfix(), refresh=False)
            bar.update(1)

    workers = 1 if replay_only else max(1, concurrency or judge.max_concurrency or 1)
    try:
        if workers == 1:
            for i in range(len(comps)):  # in order, so replay names the first gap
                one(i)
        else:
            pool = ThreadPoolExecutor(max_workers=workers)
            try:
                futures = [pool.submit(one, i) for i in range(len(comps))]
                wait(futures, return_when=FIRST_EXCEPTION)
                for f in futures:
                    if f.done() and f.exception() is not None:
                        raise f.exception()
            finally:
                # on an error or Ctrl-C, drop the queued comparisons; calls in flight finish
                # and are stored, so a rerun picks up exactly where this one stopped
                pool.shutdown(wait=True, cancel_futures=True)
    finally:
        bar.close()
        rowlog.close()
        store.close()

    new_ids = {comparison_id(r) for r in results}
    kept = [r for cid, r in rowlog.previous.items() if cid not in new_ids]
    if not _same_rows(results, rowlog.previous):  # a replay that changes nothing writes nothing
        _atomic_write_rows(rows_path, [*results, *kept])
    finished = datetime.now(timezone.utc)
    df = pd.DataFrame(results, columns=list(results[0]) if results else list(VERDICT_COLUMNS))
    if stats.calls:  # a pure replay changes nothing, so it rewrites no metadata
        write_run_metadata(judge, split, protocol, df, started, finished,
                           returned_models=stats.returned_models, call_dates=stats.call_dates,
                           out_dir=out_dir.parent / "metadata")  # outputs/metadata by default
    df.attrs["run"] = {
        "judge": judge.name, "model": judge.model, "split": split, "protocol": protocol,
        "rows": len(df), "calls": stats.calls, "hits": stats.hits,
        "failed_calls": stats.failed_calls, "input_tokens": stats.input_tokens,
        "output_tokens": stats.output_tokens, "usd": stats.usd if stats.priced else None,
        "batched": stats.batched,
        "wall_s": time.monotonic() - t0, "rows_path": str(rows_path),
        "kept_rows": len(kept),
    }
    return df


def summary(df: pd.DataFrame) -> str:
    """A few lines for the terminal: rows, decisions, failures, calls, tokens, dollars, time."""
    r = df.attrs.get("run", {})
    dec = Counter(df["decision"]) if len(df) else Counter()
    decisions = ", ".join(f"{k} {v}" for k, v in sorted(dec.items())) or "none"
    tin = int(pd.to_numeric(df.get("input_tokens"), errors="coerce").sum()) if len(df) else 0
    tout = int(pd.to_numeric(df.get("output_tokens"), errors="coerce").sum()) if len(df) else 0
    usd = "unpriced" if r.get("usd") is None else f"${r['usd']:.4f}"
    total = call_cost(r.get("model", ""), tin, tout)
    total_s = "unpriced" if total is None else f"${total:.4f}"
    return "\n".join([
        f"{r.get('judge')} on {r.get('split')} / {r.get('protocol')}: {len(df)} rows "
        f"-> {r.get('rows_path')}",
        f"  decisions: {decisions}",
        f"  unparsed {dec.get('unparsed', 0)}, failed {dec.get('failed', 0)}",
        f"  calls: {r.get('calls', 0)} made ({r.get('failed_calls', 0)} failed), "
        f"{r.get('hits', 0)} from the store"
        + (f" ({r['batched']} sent by batch)" if r.get("batched") else ""),
        f"  tokens (all rows): {tin} in / {tout} out; this run's calls: "
        f"{r.get('input_tokens', 0)} in / {r.get('output_tokens', 0)} out",
        f"  dollars: {usd} spent by this run, {total_s} for all rows at list price",
        f"  wall time: {r.get('wall_s', 0.0):.1f} s",
    ])


def run_judge_cli(args) -> int:
    """``python -m tjb_lib judge ...``: one-line errors (exit 2) for names a person can fix."""
    try:
        plan(args.split, args.protocol, args.limit)  # validate names before loading a judge
        judge = _resolve_judge(args.judge, base_url=args.base_url, model=args.model,
                               rationales=getattr(args, "rationales", False))
        df = run(args.split, args.protocol, judge, limit=args.limit,
                 concurrency=args.concurrency, replay_only=getattr(args, "replay_only", False),
                 batch=getattr(args, "batch", False))
    except RunError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except Exception as e:
        if type(e).__name__ != "BatchError":  # a provider batch gave up: say so in one line
            raise
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(summary(df))
    return 0
