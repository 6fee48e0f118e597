"""One run, start to end: fix its comparisons, fill the store (batch rounds first when asked), judge every
comparison through the cached calls, write the rows and the run metadata."""
from __future__ import annotations

import sys
import time
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd
from tqdm.auto import tqdm

from tjb_lib import paths
from tjb_lib.judges.base import Judge
from tjb_lib.records import VERDICT_COLUMNS
from tjb_lib.runner.batches import batch_rounds
from tjb_lib.runner.calls import ReplayMissing, RunTally, make_call
from tjb_lib.runner.comparisons import (check_outputs, metadata_dir, resolve_judge,
                                        run_comparisons)
from tjb_lib.runner.rows import RowLog, complete_row, verdict_time
from tjb_lib.files import exclusive
from tjb_lib.store import ResponseStore


def run(split: str, protocol: str, judge: Judge | str, limit: int | None = None,
        concurrency: int | None = None, out_dir: str | Path | None = None,
        replay_only: bool = False, progress: bool = True, batch: bool = False,
        comparisons: list[tuple] | None = None) -> pd.DataFrame:
    """Judge ``split`` under ``protocol``; returns the verdict rows in comparison order.

    ``batch=True`` first fills the store through the provider's batch API (``batch_rounds``).
    ``comparisons`` are those ``run_comparisons(split, protocol, limit)`` returned to a caller
    that fixed them before making its judge (the CLI), so the split is loaded once.

    ``df.attrs["run"]`` holds the run's counters (calls made, store hits, tokens, dollars).
    """
    from tjb_lib.metadata import write_run_metadata
    from tjb_lib.protocols import run_comparison

    started = datetime.now(timezone.utc)
    t0 = time.monotonic()
    comps = comparisons if comparisons is not None else run_comparisons(split, protocol, limit)
    judge = resolve_judge(judge)
    out_dir = Path(out_dir or paths.RAW_OUTPUTS)
    judge_dir = check_outputs(judge, out_dir, concurrency, replay_only)
    if not replay_only:
        judge.check_ready()  # a missing key stops the run before anything is opened or written
    store = ResponseStore(judge_dir, read_only=replay_only)  # a replay writes nothing
    tally = RunTally()
    call = make_call(judge, store, tally, replay_only=replay_only)
    identity = judge.identity()  # so the rows' request_hashes are the store keys
    rows_path = judge_dir / f"{split}.{protocol}.jsonl"
    rowlog = RowLog(rows_path, read_only=replay_only)  # read before any call: an unreadable
    # rows file costs nothing
    if batch and not replay_only:
        batch_rounds(comps, judge, store, tally)
    results: list[dict | None] = [None] * len(comps)
    bar = tqdm(total=len(comps), desc=f"{judge.name} {split} {protocol}", unit="cmp",
               disable=None if progress else True, file=sys.stderr)  # None: only on a terminal

    def one(i: int) -> None:
        pair, order, spec = comps[i]
        try:
            row = run_comparison(pair, order, spec, call, identity=identity)
        except ReplayMissing as e:
            raise ReplayMissing(f"replay-only: comparison #{i} (pair {pair.pair_id}, order "
                                f"{order}, {spec}) has no stored judge call: {e}. Run without "
                                "--replay-only to call the judge.") from None
        row = complete_row(row, judge.name, verdict_time(row, store))
        results[i] = row
        rowlog.append(row)
        with tally.lock:
            bar.set_postfix(tally.postfix(), refresh=False)
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

    kept = rowlog.finish(results)
    finished = datetime.now(timezone.utc)
    df = pd.DataFrame(results, columns=list(results[0]) if results else list(VERDICT_COLUMNS))
    if tally.calls:  # a pure replay changes nothing, so it rewrites no metadata
        meta_dir = metadata_dir(out_dir)
        with exclusive(meta_dir / f".{judge.name}.json.lock"):  # runs merge, one at a time
            write_run_metadata(judge, split, protocol, df, started, finished,
                               returned_models=tally.returned_models,
                               call_dates=tally.call_dates, out_dir=meta_dir)
    df.attrs["run"] = {
        "judge": judge.name, "model": judge.model, "split": split, "protocol": protocol,
        "rows": len(df), "calls": tally.calls, "hits": tally.hits,
        "failed_calls": tally.failed_calls, "input_tokens": tally.input_tokens,
        "output_tokens": tally.output_tokens, "usd": tally.usd if tally.priced else None,
        "batched": tally.batched,
        "wall_s": time.monotonic() - t0, "rows_path": str(rows_path),
        "kept_rows": kept, "damaged": store.damaged,
    }
    return df
