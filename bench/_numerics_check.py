"""Do the local judge's speed levers change verdicts? Checked against the shipped raw outputs.

Every verdict call stored in ``outputs/raw_outputs/smollm2/calls.jsonl`` under the identity of
the shipped runs (the dtype their run metadata records, or ``--stored-dtype``) is scored again
in float32 and in bfloat16, as the judge now runs. For each dtype it counts the prompts whose
argmax label differs from the stored one and the largest probability difference, and it
counts the prompts whose two dtypes' labels differ. ``--every K`` takes every K-th stored call
(a deterministic sample); ``--every 1`` is every shipped call (about an hour on 2 cores).

Not part of ``make bench`` (too long for its budget); run it alone:
``python bench/_numerics_check.py --every 1`` writes ``outputs/bench/numerics_check.json``.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tjb_lib import paths
from tjb_lib.run.bench import BENCH_OUT, write_result
from tjb_lib.judges.catalog import get_judge
from tjb_lib.judges.local_lazy import CPU_DTYPES, cpu_dtype
from tjb_lib.records import LABELS, Request

CALLS = paths.OUTPUTS / "raw_outputs" / "smollm2" / "calls.jsonl"


def stored_verdicts(judge, every: int) -> list[tuple[Request, dict[str, float]]]:
    """(request, stored label probabilities) for the verdict calls of ``judge``'s identity."""
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
            "seconds_per_verdict": seconds / len(rows), "changed": changed[:20],
            "labels": [max(r.label_probs, key=r.label_probs.get) for r in out]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--every", type=int, default=3)
    p.add_argument("--stored-dtype", choices=CPU_DTYPES, default=None,
                   help="the dtype of the stored calls to check (default: the shipped runs')")
    p.add_argument("--out", type=Path, default=BENCH_OUT)
    args = p.parse_args()
    stored = get_judge("smollm2", dtype=cpu_dtype("smollm2", args.stored_dtype))
    rows = stored_verdicts(stored, args.every)
    if not rows:
        raise SystemExit(f"{CALLS}: no stored verdict call of {stored.identity()}")
    res = {dtype: compare(get_judge("smollm2", dtype=dtype).loaded(), rows) for dtype in CPU_DTYPES}
    f32, b16 = res["float32"], res["bfloat16"]
    disagree = sum(a != b for a, b in zip(f32.pop("labels"), b16.pop("labels")))
    for name, r in res.items():
        print(f"{name}: {r['label_changed']}/{r['verdicts']} stored verdicts change label; "
              f"largest probability difference {r['max_prob_diff']:.2e}; "
              f"{r['seconds_per_verdict']:.3f} s per verdict")
    print(f"float32 and bfloat16 labels differ on {disagree}/{len(rows)} stored prompts")
    write_result("numerics_check", args.out,
                 measured={"every": args.every, "stored_dtype": stored.params["dtype"],
                           "float32": f32, "bfloat16": b16, "dtype_label_disagreements": disagree},
                 ratio=b16["seconds_per_verdict"] and f32["seconds_per_verdict"] / b16["seconds_per_verdict"],
                 target="0 labels changed", met=f32["label_changed"] == b16["label_changed"] == 0,
                 notes="ratio = float32 seconds per verdict / bfloat16's; met: both dtypes, as the "
                       "judge now runs, give every sampled stored label")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
