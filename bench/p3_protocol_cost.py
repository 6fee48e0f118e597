"""P3 protocol cost: calls and tokens per ordered comparison for L0-L4, TRACE v1/v2, TRACE-lite.

Input tokens are counted with the SmolLM2 tokenizer on the real chat-templated requests that the
protocols build for real pairs (both orders). Output tokens come from stored replies where
outputs/raw_outputs/*/calls.jsonl holds a reply to the very same request; otherwise they are an
estimate, stated as such in the JSON:

* a verdict reply is estimated as the paper's schema ``{"winner": ..., "reason": ...}`` with the
  plain candidate's own reasoning line (at most 40 words) as the brief reason;
* a TRACE stage-1 reply is estimated as the fixed-field records built deterministically from the
  pair: each shown candidate, citation display stripped, gives final_answer (its Answer line),
  support_facts (its evidence lines), reasoning_links (its reasoning sentences), empty
  missing/unsupported lists and residual_uncertainty "none" (v1: final_answer and
  answer_supported). Stage 2's input is then the real stage-2 request built from those records.

The TRACE multiples are compared with the paper's 3.7-4.3x tokens and 5.3-5.9x dollars
(data/paper_reported/in_text_claims.csv, C074-C077); dollars use the GPT-5.5 list price in
tjb_lib/prices.csv. Target: TRACE-lite at most 1.3x the tokens of a one-call judge (the mean of
the ladder levels L0-L4 on the same comparisons).
"""
from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd

from tjb_lib import paths
from tjb_lib.run.bench import arg_parser, figure_line, write_result
from tjb_lib.judges import smollm2
from tjb_lib.judges.prices import price
from tjb_lib.pairs import load_split
from tjb_lib.pairs.strip import strip_artifacts
from tjb_lib.parse import parse_normalized
from tjb_lib.protocols import LEVELS, ORDERS, Spec, build_request
from tjb_lib.protocols.requests import (STAGE1_FIELDS, mask_markers, shown_texts,
                                        stage1_request, stage2_request)
from tjb_lib.records import Pair, Request, stable_hash

NAME = "p3_protocol_cost"
SPLITS = ("moderate_hotpotqa", "moderate_finqa")  # the splits the paper runs TRACE on
LITE_TARGET = 1.3
REASON_WORDS = 40
PRICED_MODEL = "gpt-5.5"
CLAIM_IDS = {"tokens_low": "C074", "tokens_high": "C075", "dollars_low": "C076",
             "dollars_high": "C077"}


class Counter:
    """Tokens of a request as the judge sees it (chat template, generation prompt) and of text."""

    def __init__(self, tokenizer):
        self.tok = tokenizer

    def request(self, req: Request) -> int:
        text = self.tok.apply_chat_template(req.chat(), tokenize=False, add_generation_prompt=True)
        return len(self.tok.encode(text, add_special_tokens=False))

    def text(self, text: str) -> int:
        return len(self.tok.encode(text, add_special_tokens=False))


def stored_replies(root: Path = paths.RAW_OUTPUTS) -> dict[str, str]:
    """Reply text of every stored ok call, keyed by the hash of its request (any judge)."""
    replies: dict[str, str] = {}
    for log in sorted(Path(root).glob("*/calls.jsonl")):
        for line in log.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue  # a killed run's last line
            resp = rec.get("response") or {}
            if resp.get("status") == "ok" and resp.get("text"):
                replies.setdefault(stable_hash(rec["request"]), resp["text"])
    return replies


def _section(text: str, header: str) -> str:
    m = re.search(rf"(?ms)^{header}:[ \t]*(.*?)(?=^\w[\w ]*:|\Z)", text)
    return m.group(1).strip() if m else ""


def estimated_record(candidate: str, protocol: str) -> dict:
    """The fixed-field record a stage-1 call would return for one candidate (see module doc)."""
    text = strip_artifacts(candidate)
    answer = _section(text, "Answer").splitlines()[0] if _section(text, "Answer") else ""
    facts = [ln[2:].strip() for ln in _section(text, "Evidence").splitlines()
             if ln.startswith("- ")]
    links = [s.strip() for s in re.split(r"(?<=[.!?])\s+", _section(text, "Reasoning")) if s.strip()]
    if protocol == "trace_v1":
        return {"final_answer": answer, "answer_supported": bool(facts)}
    return {"final_answer": answer, "support_facts": facts, "reasoning_links": links,
            "missing_or_weakened_support": [], "unsupported_claims": [],
            "residual_uncertainty": "none"}


def estimated_stage1_reply(pair: Pair, order: str, protocol: str) -> str:
    a, b = shown_texts(pair, order)
    return json.dumps({"A": estimated_record(a, protocol), "B": estimated_record(b, protocol)},
                      ensure_ascii=False)


def estimated_verdict_reply(pair: Pair) -> str:
    reason = " ".join(_section(strip_artifacts(pair.plain), "Reasoning").split()[:REASON_WORDS])
    return json.dumps({"winner": "Tie", "reason": reason or "equal in task quality"})


def comparison_cost(pair: Pair, order: str, spec: Spec, count: Counter,
                    replies: dict[str, str]) -> dict:
    """Calls, input and output tokens of one ordered comparison, and how outputs were known."""
    def reply_to(req: Request, estimate: str) -> tuple[str, bool]:
        text = replies.get(stable_hash(req.to_dict()))
        return (text, True) if text is not None else (estimate, False)

    if spec.single_call:
        req = build_request(pair, order, spec)
        out, stored = reply_to(req, estimated_verdict_reply(pair))
        return {"calls": 1, "input_tokens": count.request(req), "output_tokens": count.text(out),
                "stored_outputs": int(stored), "estimated_outputs": int(not stored)}
    s1 = stage1_request(pair, order, spec)
    s1_text, s1_stored = reply_to(s1, estimated_stage1_reply(pair, order, spec.protocol))
    records = parse_normalized(s1_text, STAGE1_FIELDS[spec.protocol])
    if records is None:  # a stored stage-1 reply that did not parse: TRACE stops after stage 1
        return {"calls": 1, "input_tokens": count.request(s1), "output_tokens": count.text(s1_text),
                "stored_outputs": int(s1_stored), "estimated_outputs": int(not s1_stored)}
    masked = {side: {k: mask_markers(v) for k, v in rec.items()} for side, rec in records.items()}
    s2 = stage2_request(pair, masked)
    s2_text, s2_stored = reply_to(s2, estimated_verdict_reply(pair))
    return {"calls": 2, "input_tokens": count.request(s1) + count.request(s2),
            "output_tokens": count.text(s1_text) + count.text(s2_text),
            "stored_outputs": int(s1_stored) + int(s2_stored),
            "estimated_outputs": int(not s1_stored) + int(not s2_stored)}


def setting_name(spec: Spec) -> str:
    return spec.level if spec.protocol == "ladder" else spec.protocol


def paper_claims() -> dict[str, float]:
    claims = pd.read_csv(paths.PAPER_REPORTED / "in_text_claims.csv")
    by_id = claims.set_index("claim_id")["value"].astype(float)
    missing = [c for c in CLAIM_IDS.values() if c not in by_id.index]
    if missing:
        raise ValueError(f"in_text_claims.csv: claim(s) {missing} (TRACE cost multiples) missing")
    return {k: float(by_id[c]) for k, c in CLAIM_IDS.items()}


def main() -> int:
    args = arg_parser(__doc__.splitlines()[0]).parse_args()
    tokenizer = smollm2.tokenizer()  # with its chat template; no model is loaded
    count = Counter(tokenizer)
    replies = stored_replies()
    specs = ([Spec("ladder", lv) for lv in LEVELS]
             + [Spec("trace_lite"), Spec("trace_v1"), Spec("trace_v2")])
    rows = []
    for split in SPLITS:
        pairs = load_split(split)[: 2 if args.quick else None]
        for pair in pairs:
            for order in ORDERS:
                for spec in specs:
                    rows.append({"split": split, "pair_id": pair.pair_id, "order": order,
                                 "setting": setting_name(spec),
                                 **comparison_cost(pair, order, spec, count, replies)})
    df = pd.DataFrame(rows)
    df["tokens"] = df["input_tokens"] + df["output_tokens"]
    p_in, p_out = price(PRICED_MODEL)
    df["usd"] = (df["input_tokens"] * p_in + df["output_tokens"] * p_out) / 1e6
    per = df.groupby("setting", sort=False)[["calls", "input_tokens", "output_tokens", "tokens",
                                             "usd"]].mean()
    one_call = per.loc[list(LEVELS)].mean()  # the one-call judge: mean over the ladder levels
    per["token_multiple"] = per["tokens"] / one_call["tokens"]
    per["input_multiple"] = per["input_tokens"] / one_call["input_tokens"]
    per["dollar_multiple"] = per["usd"] / one_call["usd"]
    per["token_multiple_vs_L0"] = per["tokens"] / per.loc["L0", "tokens"]
    per_split = (df.groupby(["split", "setting"], sort=False)["tokens"].mean().unstack("split"))
    claims = paper_claims()
    lite = float(per.loc["trace_lite", "token_multiple"])
    met = lite <= LITE_TARGET
    estimated_share = float(df["estimated_outputs"].sum()
                            / (df["estimated_outputs"] + df["stored_outputs"]).sum())

    for setting, r in per.iterrows():
        print(f"{setting:10s} calls {r['calls']:.2f}  in {r['input_tokens']:7.1f}  out "
              f"{r['output_tokens']:6.1f}  tokens x{r['token_multiple']:.2f}  dollars "
              f"x{r['dollar_multiple']:.2f} (per ordered comparison, vs one-call mean)")
    for proto in ("trace_v1", "trace_v2"):
        r = per.loc[proto]
        print(f"{proto} vs one-call judge: tokens x{r['token_multiple']:.2f} (paper "
              f"{claims['tokens_low']}-{claims['tokens_high']}x), dollars "
              f"x{r['dollar_multiple']:.2f} (paper {claims['dollars_low']}-"
              f"{claims['dollars_high']}x); stage 1 stored or estimated, see outputs share")
    print(figure_line("trace_lite tokens vs one-call judge", lite, f"<= {LITE_TARGET}x", met)
          + f" (vs L0 x{per.loc['trace_lite', 'token_multiple_vs_L0']:.2f})")
    print(f"outputs estimated (no stored reply to the same request): {100 * estimated_share:.1f}%")

    measured = {
        "splits": {s: int((df["split"] == s).sum() / len(specs)) for s in SPLITS},
        "ordered_comparisons_per_setting": int(len(df) / len(specs)),
        "per_setting": per.reset_index().to_dict(orient="records"),
        "per_split_tokens": per_split.reset_index().to_dict(orient="records"),
        "one_call_reference": {"definition": "mean over ladder L0-L4 of the same comparisons",
                               **one_call.to_dict()},
        "priced_model": PRICED_MODEL, "usd_per_mtok": [p_in, p_out],
        "paper_trace_multiples": claims,
        "trace_v2_token_multiple": float(per.loc["trace_v2", "token_multiple"]),
        "trace_v2_dollar_multiple": float(per.loc["trace_v2", "dollar_multiple"]),
        "trace_v1_token_multiple": float(per.loc["trace_v1", "token_multiple"]),
        "trace_v1_dollar_multiple": float(per.loc["trace_v1", "dollar_multiple"]),
        "trace_lite_token_multiple": lite,
        "outputs_estimated_share": estimated_share,
        "stored_replies_available": len(replies),
    }
    write_result(NAME, args.out, measured=measured, ratio=lite,
                 target=f"TRACE-lite tokens <= {LITE_TARGET}x a one-call judge", met=met,
                 quick=args.quick,
                 notes=["tokens: SmolLM2 tokenizer on chat-templated real requests",
                        "outputs: stored replies where the same request was stored, else the "
                        "estimates described in bench/p3_protocol_cost.py (share in "
                        "outputs_estimated_share)",
                        "estimates leave out hidden reasoning tokens a reasoning model bills"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
