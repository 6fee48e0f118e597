"""Do the local judge's speed levers change verdicts? Checked against the shipped raw outputs.

Every verdict call stored in ``outputs/raw_outputs/smollm2/calls.jsonl`` under the default
judge's identity (float32, scored when the default sample was judged) is scored again: with
the judge as it now runs (one thread per forward pass, passes side by side), and with bfloat16
weights (AMX on this CPU). For each it counts the prompts whose argmax label differs from the
stored one and the largest probability difference. ``--every K`` takes every K-th stored call
(a deterministic sample; the whole file takes tens of minutes on 2 cores).

Not part of ``make bench`` (too long for its budget); run it alone:
``python bench/_numerics_check.py --every 3`` writes ``outputs/bench/numerics_check.json``.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tjb_lib import paths
from tjb_lib.bench import BENCH_OUT, write_result
from tjb_lib.judges.catalog import get_judge
from tjb_lib.records import LABELS, Request

CALLS = paths.OUTPUTS / "raw_outputs" / "smollm2" / "calls.jsonl"


def stored_verdicts(judge, every: int) -> list[tuple[Request, dict[str, float]]]:
    """(request, stored label probabilities) for the default identity's verdict calls."""
    ident = judge.identity()
    rows = []
    for line in CALLS.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        req, resp = rec.get("request") or {}, rec.get("response") or {}
        if rec.get("judge") != ident or req.get("kind") != "verdict":
            continue
        if not resp.get("label_probs"):
            continue
        msgs = tuple((m["role"], m["content"]) for m in req["messages"])
        rows.append((Request(messages=msgs, template=req["template"],
                             template_version=req["template_version"], kind="verdict",
                             max_tokens=req["max_tokens"], temperature=req["temperature"],
                             json_mode=req["json_mode"]), resp["label_probs"]))
    return rows[::every]


def compare(judge, rows) -> dict:
    t0 = time.perf_counter()
    out = judge.score_many([r for r, _ in rows])
    seconds = time.perf_counter() - t0
    changed, diff = [], 0.0
    for k, ((req, stored), resp) in enumerate(zip(rows, out)):
        new = resp.label_probs
        if max(new, key=new.get) != max(stored, key=stored.get):
            changed.append({"index": k, "template": req.template, "stored": stored, "new": new})
        diff = max(diff, max(abs(new[lab] - stored[lab]) for lab in LABELS))
    return {"verdicts": len(rows), "label_changed": len(changed), "max_prob_diff": diff,
            "seconds_per_verdict": seconds / len(rows), "changed": changed[:20]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--every", type=int, default=3)
    p.add_argument("--out", type=Path, default=BENCH_OUT)
    args = p.parse_args()
    judge = get_judge("smollm2").loaded()
    rows = stored_verdicts(judge, args.every)
    if not rows:
        raise SystemExit(f"{CALLS}: no stored verdict call of {judge.identity()}")
    f32 = compare(judge, rows)
    bf16 = get_judge("smollm2", dtype="bfloat16").loaded()
    b16 = compare(bf16, rows)
    for name, r in (("float32, one thread per pass", f32), ("bfloat16", b16)):
        print(f"{name}: {r['label_changed']}/{r['verdicts']} stored verdicts change label; "
              f"largest probability difference {r['max_prob_diff']:.2e}; "
              f"{r['seconds_per_verdict']:.3f} s per verdict")
    write_result("numerics_check", args.out, measured={"every": args.every, "float32": f32,
                                                       "bfloat16": b16},
                 ratio=b16["seconds_per_verdict"] and f32["seconds_per_verdict"] / b16["seconds_per_verdict"],
                 target="0 labels changed", met=f32["label_changed"] == 0,
                 notes="ratio = float32 seconds per verdict / bfloat16's; met: the float32 judge "
                       "as it now runs reproduces every sampled stored label")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
