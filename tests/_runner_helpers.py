"""In-process judges and pairs for the runner tests, plus a command line for the kill test.

``ScriptedJudge`` is deterministic: its verdict is a hash of the request, its TRACE stage-1
reply is a well-formed normalized record, and it can sleep, fail or raise on chosen calls. With
``counter`` set it appends one line per call (pid and store key) to that file, fsync'ed
before it answers, so a test can count exactly which calls were made by which process.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from tjb_lib.judges.base import Judge
from tjb_lib.records import Pair, Request, Response, stable_hash

SPLIT = "moderate_hotpotqa"


def make_pairs(n: int, split: str = SPLIT) -> list[Pair]:
    return [Pair(pair_id=f"{split}-{i:03d}", split=split, source="hotpotqa", source_id=f"q{i}",
                 target_relation="quality_moderate", gold="plain",
                 task=f"Which city hosted event {i}?",
                 plain=f"Answer: City {i}. Event {i} was held in City {i}, capital of Region {i}.",
                 cited=f"Answer: City {i} [1]. [1] Source: Event {i} article.")
            for i in range(n)]


class ScriptedJudge(Judge):
    backend = "scripted"

    def __init__(self, name: str = "scripted", sleep: float = 0.0, counter: str | None = None,
                 fail_every: int = 0, raise_every: int = 0, max_concurrency: int = 1):
        super().__init__(name=name, model="scripted-judge-1", params={"temperature": 0.0},
                         max_concurrency=max_concurrency)
        self.sleep, self.counter = sleep, counter
        self.fail_every, self.raise_every = fail_every, raise_every
        self.n_calls = 0

    def _h(self, request: Request) -> int:
        return int(stable_hash(request.to_dict())[:8], 16)

    def complete(self, request: Request) -> Response:
        self.n_calls += 1
        h = self._h(request)
        if self.counter:
            from tjb_lib.protocols import request_key

            with open(self.counter, "a", encoding="utf-8") as f:
                f.write(f"{os.getpid()} {request_key(self.identity(), request)}\n")
                f.flush()
                os.fsync(f.fileno())
        if self.sleep:
            time.sleep(self.sleep)
        if self.raise_every and h % self.raise_every == 0:
            raise ConnectionError("scripted transport error")
        if self.fail_every and h % self.fail_every == 0:
            return Response(status="failed", error="HTTP 529 overloaded", attempts=3)
        tokens = sum(len(c.split()) for _, c in request.messages)
        if request.kind == "text":  # TRACE stage 1: one record per candidate
            rec = {"final_answer": "City", "support_facts": ["fact"], "reasoning_links": ["link"],
                   "missing_or_weakened_support": None, "unsupported_claims": [],
                   "residual_uncertainty": f"low ({h % 1000})", "answer_supported": True}
            text = json.dumps({"A": rec, "B": dict(rec, support_facts=[])})
        elif h % 7 == 0:
            text = "I cannot decide between these."  # unparsed, never a Tie
        else:
            text = json.dumps({"winner": ("A", "B", "Tie")[h % 3], "reason": "scripted"})
        return Response(status="ok", text=text, input_tokens=tokens, output_tokens=12,
                        model_returned="scripted-judge-1-2026-01-01")


def patch_split(pairs: list[Pair]) -> None:
    """Make ``tjb_lib.pairs.load_split`` return ``pairs`` (the split files are not needed)."""
    import tjb_lib.pairs

    def load_split(name: str) -> list[Pair]:
        if name != pairs[0].split:
            raise KeyError(f"unknown split {name!r}")
        return list(pairs)

    tjb_lib.pairs.load_split = load_split


def main(argv: list[str] | None = None) -> int:
    """Run one judge run in this process (the kill test starts this as a subprocess)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--counter", required=True)
    ap.add_argument("--pairs", type=int, default=12)
    ap.add_argument("--protocol", default="trace_v2")
    ap.add_argument("--sleep", type=float, default=0.05)
    ap.add_argument("--concurrency", type=int, default=2)
    a = ap.parse_args(argv)
    patch_split(make_pairs(a.pairs))
    from tjb_lib.runner import run

    judge = ScriptedJudge(sleep=a.sleep, counter=a.counter)
    df = run(SPLIT, a.protocol, judge, concurrency=a.concurrency, out_dir=a.out, progress=False)
    print(len(df))
    return 0


if __name__ == "__main__":
    sys.exit(main())
