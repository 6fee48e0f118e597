"""P4 API path: throughput of the real runner against a local OpenAI-compatible server.

The server is tests/fault_server.py (a real HTTP server speaking the OpenAI wire format) with an
injected latency of 200 ms per model call. The real runner (``tjb_lib.runner.run``) judges a
real split under L0 with an OpenAI-compatible judge from the catalog pointed at that server, in a
temporary outputs folder, at concurrency 1, 8 and 32. Throughput is reported as a fraction of
the ideal concurrency / latency (target >= 0.8 at 32). Then the concurrency-32 job is run again
in the same folder and must send zero requests (a resumed or finished run repeats no call).
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from tjb_lib import paths
from tjb_lib.run.bench import arg_parser, figure_line, write_result

NAME = "p4_api_path"
LATENCY_S = 0.2
CONCURRENCY = (1, 8, 32)
TARGET_AT_32 = 0.8
SPLIT, PROTOCOL = "natural_hotpotqa", "L0"  # the largest split: enough distinct requests
JUDGE, MODEL = "gpt-5.5", "gpt-5.5"          # catalog name; base_url makes it OpenAI-compatible


def fault_server_class():
    """FaultServer from tests/ (the test suite's real HTTP server, not a package module)."""
    sys.path.insert(0, str(paths.ROOT / "tests"))
    try:
        from fault_server import FaultServer
    finally:
        sys.path.pop(0)
    return FaultServer


def comparisons_for(concurrency: int, quick: bool) -> int:
    """Enough ordered comparisons for about ten waves of calls (two per pair: both orders);
    two waves when quick."""
    n = max(2 * concurrency, 4) if quick else max(10 * concurrency, 40)
    return n + n % 2


def judged(server, out_dir: Path, n: int, concurrency: int) -> tuple[float, dict]:
    """Wall seconds of one runner job and its run counters."""
    from tjb_lib.judges.catalog import get_judge
    from tjb_lib.runner import run

    judge = get_judge(JUDGE, base_url=server.url + "/v1", model=MODEL)
    t0 = time.perf_counter()
    df = run(SPLIT, PROTOCOL, judge, limit=n // 2, concurrency=concurrency, out_dir=out_dir,
             progress=False)
    wall = time.perf_counter() - t0
    if len(df) != n:
        raise RuntimeError(f"runner returned {len(df)} rows for {n} comparisons")
    return wall, dict(df.attrs["run"], decisions=df["decision"].value_counts().to_dict())


def duplicates(server, start: int) -> int:
    """Requests since index ``start`` whose body the server had already received in that span
    (a retry or a repeated call resends the same body)."""
    hashes = [r.body_hash for r in list(server.requests)[start:]]  # called with the server idle
    return len(hashes) - len(set(hashes))


def store_put_ms(folder: Path, n: int = 50) -> float:
    """Milliseconds one durable ``ResponseStore.put`` takes (write, flush, fsync, under the
    store's lock): the part of each call that concurrency cannot overlap."""
    from tjb_lib.records import Request, Response
    from tjb_lib.store import ResponseStore

    store = ResponseStore(folder)
    req = Request(messages=(("user", "x" * 3000),), template="bench", template_version="1")
    resp = Response(status="ok", text='{"winner": "A", "reason": "bench"}')
    t0 = time.perf_counter()
    for i in range(n):
        store.put(f"{i:064d}", {"backend": "bench"}, req, resp)
    ms = (time.perf_counter() - t0) / n * 1e3
    store.close()
    return ms


def main() -> int:
    args = arg_parser(__doc__.splitlines()[0]).parse_args()
    FaultServer = fault_server_class()
    results, resume = {}, {}
    with tempfile.TemporaryDirectory(prefix="tjb-bench-p4-") as tmp, \
            FaultServer(latency_s=LATENCY_S) as server:
        judged(server, Path(tmp) / "warmup" / "raw_outputs", 2, 1)  # SDK import, first client
        for c in CONCURRENCY:
            n = comparisons_for(c, args.quick)
            out = Path(tmp) / f"c{c}" / "raw_outputs"
            before = server.count()
            wall, run_info = judged(server, out, n, c)
            sent = server.count() - before
            dups = duplicates(server, before)
            ideal = c / LATENCY_S
            throughput = n / wall
            results[c] = {"comparisons": n, "wall_s": wall, "throughput_per_s": throughput,
                          "ideal_per_s": ideal, "fraction_of_ideal": throughput / ideal,
                          "requests_sent": sent, "duplicate_requests": dups,
                          "calls": run_info["calls"],
                          "failed_calls": run_info["failed_calls"],
                          "decisions": run_info["decisions"]}
            print(figure_line(f"concurrency {c:2d}: {throughput:6.1f} comparisons/s of ideal "
                              f"{ideal:.0f}/s", throughput / ideal,
                              f">= {TARGET_AT_32}" if c == 32 else "none",
                              (throughput / ideal >= TARGET_AT_32) if c == 32 else None, unit=""))
        # resume check: the same job again in the same folder must not reach the server
        c = CONCURRENCY[-1]
        n = results[c]["comparisons"]
        before = server.count()
        wall, run_info = judged(server, Path(tmp) / f"c{c}" / "raw_outputs", n, c)
        dup_bodies = sum(r["duplicate_requests"] for r in results.values())
        resume = {"comparisons": n, "requests_sent": server.count() - before,
                  "store_hits": run_info["hits"], "calls": run_info["calls"], "wall_s": wall,
                  "duplicate_requests_in_timed_runs": dup_bodies}
        put_ms = store_put_ms(Path(tmp) / "store_probe")
    resume_ok = resume["requests_sent"] == 0 and resume["store_hits"] == n and dup_bodies == 0
    print(f"resume: rerun of {n} comparisons sent {resume['requests_sent']} requests "
          f"({resume['store_hits']} answered from the store, {dup_bodies} duplicate requests "
          f"within the timed runs) in {wall:.2f} s: {'OK' if resume_ok else 'FAILED'}")
    frac32 = results[32]["fraction_of_ideal"]
    busy = put_ms / 1e3 * results[32]["throughput_per_s"]
    print(f"store put: {put_ms:.2f} ms per call (serialised): {100 * busy:.0f}% of the "
          f"concurrency-32 wall time")
    met = frac32 >= TARGET_AT_32 and resume_ok
    write_result(NAME, args.out, measured={"latency_s": LATENCY_S, "split": SPLIT,
                                           "protocol": PROTOCOL,
                                           "by_concurrency": {str(k): v for k, v in results.items()},
                                           "resume": resume, "resume_ok": resume_ok,
                                           "store_put_ms": put_ms,
                                           "store_busy_share_at_32": busy},
                 ratio=frac32, target=f"throughput at concurrency 32 >= {TARGET_AT_32} of "
                                      f"32 / {LATENCY_S} s; rerun sends zero requests",
                 met=met, quick=args.quick)
    if not resume_ok:
        print("resume check failed: a rerun of a finished job reached the server", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
