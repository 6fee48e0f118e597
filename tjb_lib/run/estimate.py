"""What judging will cost before anything is sent: calls, input and output tokens and dollars per
ordered comparison, per run, per paper float and in total (``python -m tjb_lib estimate``).

Input tokens are counted on the real requests the protocols build for the real pairs, with the
embedded judge's tokenizer (SmolLM2's 49k-token BPE) standing in for each provider's own, plus a
few tokens of chat framing per message; expect the providers' counts to differ by some percent.
Output tokens cannot be counted before the calls, so they are stated assumptions: a verdict is
the paper's ``{"winner": ..., "reason": ...}`` with a one-sentence reason (``VERDICT_REPLY``); a
TRACE stage-1 reply restates both candidates' content as records (their tokens, citation display
stripped, plus the field names), and stage 2 reads those records.

Dollars are at list price (each provider's ``prices``), with the provider's batch discount where it
has a batch API, and with prompt caching where the shared instruction prefix of a template
(system prompt and instructions, up to the first placeholder) is long enough for the provider to
cache it: then every call but the first of each template reads it at the cached rate.

Counting the paper matrix's 17.5 million input tokens takes the tokenizer a minute or two on a
loaded laptop, so each text's count is kept (by the text's sha256) in the cache beside the
tokenizer; ``make setup`` fills it, and an estimate then counts only texts it has not seen, with a
progress line while it does.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

import pandas as pd

from tjb_lib.judges.prices import rates
from tjb_lib.judges.provider import Price
from tjb_lib.protocols.specs import LEVELS, Spec, expand
from tjb_lib.records import Pair, Request
from tjb_lib.judges.tokens import (FRAMING_TOKENS_PER_MESSAGE, count_request, count_text, count_texts,
                            counted_new, keep_counts)

VERDICT_REPLY = json.dumps({"winner": "Tie", "reason": (
    "Both candidates give the same final answer with the same supporting facts, so neither "
    "is better on task quality.")})
RECORD_FIELDS_TOKENS = 60  # a stage-1 reply's field names and JSON punctuation, both records


@lru_cache(maxsize=None)
def prefix_tokens(template: str) -> int:
    """Tokens of a template's shared prefix: its system prompt and instructions."""
    from tjb_lib.protocols.templates import instruction_prefix, load_template

    prefix = instruction_prefix(template)
    if prefix is None:
        return 0
    system = load_template(template).system
    return count_text(system) + count_text(prefix) + FRAMING_TOKENS_PER_MESSAGE


@dataclass(frozen=True)
class Call:
    """One call of an ordered comparison, as estimated."""

    template: str
    input_tokens: int
    output_tokens: int


def comparison_requests(pair: Pair, order: str, spec: Spec) -> tuple[list[Request], list[str]]:
    """The requests one ordered comparison makes, and the texts a TRACE stage-1 reply restates
    (both candidates' content, citation display stripped; none for trace_v1 and one-call
    protocols)."""
    from tjb_lib.pairs.strip import strip_artifacts
    from tjb_lib.protocols.requests import (build_request, shown_texts, stage1_request,
                                            stage2_request)

    if spec.single_call:
        return [build_request(pair, order, spec)], []
    restated = ([] if spec.protocol == "trace_v1"
                else [strip_artifacts(t) for t in shown_texts(pair, order)])
    return [stage1_request(pair, order, spec), stage2_request(pair, {"A": {}, "B": {}})], restated


def comparison_calls(spec: Spec, requests: list[Request], restated: list[str]) -> list[Call]:
    """The calls of one ordered comparison (``comparison_requests``), with their tokens."""
    verdict_out = count_text(VERDICT_REPLY)
    if spec.single_call:
        (request,) = requests
        return [Call(request.template, count_request(request), verdict_out)]
    first, second = requests
    if spec.protocol == "trace_v1":  # final answers and a support flag only
        records_out = RECORD_FIELDS_TOKENS // 2 + 2 * 12
    else:  # both candidates' task content, restated
        records_out = RECORD_FIELDS_TOKENS + sum(count_text(t) for t in restated)
    return [Call(first.template, count_request(first), records_out),
            Call(second.template, count_request(second) + records_out, verdict_out)]


@lru_cache(maxsize=None)
def _pairs(split: str) -> tuple[Pair, ...]:
    """A split's pairs, read once per process: every protocol and limit of it reuses them."""
    from tjb_lib.pairs import load_split

    return tuple(load_split(split))


@lru_cache(maxsize=None)
def run_calls(split: str, protocol: str, limit: int | None = None) -> tuple[tuple[Call, ...], int]:
    """(every call, the number of ordered comparisons) of one run: a split under a CLI protocol
    name, both orders of every pair. Every distinct text is counted once, in one batch."""
    from tjb_lib.protocols import ordered_comparisons

    pairs = list(_pairs(split))
    comparisons = ordered_comparisons(pairs[:limit] if limit is not None else pairs,
                                      expand(protocol, split))
    planned = [(spec, *comparison_requests(pair, order, spec)) for pair, order, spec in comparisons]
    count_texts([content for _, requests, restated in planned
                 for texts in ([c for r in requests for _, c in r.messages], restated)
                 for content in texts])
    calls = tuple(call for spec, requests, restated in planned
                  for call in comparison_calls(spec, requests, restated))
    return calls, len(comparisons)


def judge_rates(model: str, name: str) -> Price | None:
    """A judge's prices: by its model id, else by its catalog name."""
    return rates(model) or rates(name)


def cached_tokens(template: str, r: Price) -> int:
    """Input tokens of one call to ``template`` that the provider's cache serves, once warm."""
    n = prefix_tokens(template)
    if r.cache_min_tokens is None or n < max(r.cache_min_tokens, 1):
        return 0
    return n // r.cache_step_tokens * r.cache_step_tokens


def dollars(calls: Iterable[Call], r: Price | None) -> dict[str, float | None]:
    """List price, with the batch discount, and with prompt caching, of these calls."""
    calls = list(calls)
    if r is None:
        return {"usd_list": None, "usd_batch": None, "usd_cached": None}
    listed = sum(r.usd(c.input_tokens, c.output_tokens) for c in calls)
    seen: set[str] = set()
    cached = 0.0
    for c in calls:
        shared = cached_tokens(c.template, r)
        first = c.template not in seen  # the first call writes the prefix, the others read it
        seen.add(c.template)
        cached += r.usd(c.input_tokens, c.output_tokens, 0 if first else shared,
                        shared if first else 0)
    batch = listed * (1 - r.batch_discount) if r.batch_discount is not None else None
    return {"usd_list": listed, "usd_batch": batch, "usd_cached": cached}


def summarize(name: str, calls: list[Call], r: Price | None, comparisons: int) -> dict:
    return {"float": name, "comparisons": comparisons, "calls": len(calls),
            "input_tokens": sum(c.input_tokens for c in calls),
            "output_tokens": sum(c.output_tokens for c in calls), **dollars(calls, r)}


def cost_by_float(judge: str, scale: str = "paper", floats: Iterable[str] | None = None
                  ) -> pd.DataFrame:
    """Calls, tokens and dollars per paper float and in total (the de-duplicated runs, which is
    what ``reproduce`` would call) for ``judge`` (a catalog name) at ``scale``."""
    from tjb_lib.run import sample
    from tjb_lib.judges.catalog import resolve

    spec = resolve(judge)
    r = judge_rates(spec.model, spec.name)
    names = list(floats) if floats is not None else sample.float_names()
    _count_runs(sample.jobs(names, scale))  # with a progress line
    rows = []
    for name in names:
        parts = [run_calls(j.split, j.protocol, j.limit) for j in sample.jobs([name], scale)]
        rows.append(summarize(name, [c for calls, _ in parts for c in calls], r,
                              sum(n for _, n in parts)))
    everything = [run_calls(j.split, j.protocol, j.limit) for j in sample.jobs(names, scale)]
    rows.append(summarize("total (each run once)", [c for calls, _ in everything for c in calls],
                          r, sum(n for _, n in everything)))
    out = pd.DataFrame(rows)
    templates = {c.template for calls, _ in everything for c in calls}
    out.attrs.update(judge=spec.name, model=spec.model, scale=scale,
                     price_date=r.price_date if r else None,
                     longest_prefix=max((prefix_tokens(t) for t in templates), default=0),
                     cache_min_tokens=r.cache_min_tokens if r else None)
    keep_counts()  # every text counted here, for the next estimate
    return out


def _count_runs(jobs) -> None:
    """Count every run's calls once; while the tokenizer works on texts the kept counts lack
    (the slow part: a minute or two for the paper matrix), say after each run how far it is,
    on one line of stderr."""
    jobs = list(jobs)
    for split in dict.fromkeys(j.split for j in jobs):
        _pairs(split)  # a missing or damaged split stops here, before any progress line
    for i, j in enumerate(jobs, start=1):
        before = counted_new()
        run_calls(j.split, j.protocol, j.limit)
        if counted_new() > before:
            print(f"\rcounting tokens: {i} of {len(jobs)} runs ({counted_new():,} texts counted, "
                  "kept for the next estimate)", end="", file=sys.stderr, flush=True)
    if counted_new():
        print(file=sys.stderr)


def per_1000(r: Price | None, split: str | None = None, limit: int | None = None
             ) -> pd.DataFrame:
    """Calls, tokens and dollars (at the rates ``r``) per 1,000 ordered comparisons for each
    protocol setting on ``split`` (by default the split protocols are compared on)."""
    from tjb_lib.pairs.registry import with_role

    split = split or with_role("protocols")
    rows = []
    for protocol in (*LEVELS, "trace_v1", "trace_v2", "trace_lite"):
        calls, n = run_calls(split, protocol, limit)
        usd = dollars(calls, r)
        rows.append({"setting": protocol,
                     "calls_per_comparison": len(calls) / n,
                     "input_tokens_per_comparison": sum(c.input_tokens for c in calls) / n,
                     "output_tokens_per_comparison": sum(c.output_tokens for c in calls) / n,
                     **{k.replace("usd_", "usd_per_1000_"): (None if v is None else 1000 * v / n)
                        for k, v in usd.items()}})
    return pd.DataFrame(rows)


def report(table: pd.DataFrame) -> str:
    """The estimate as a table a person reads before spending, with what the numbers rest on."""
    a = table.attrs
    shown = table.copy()
    for col in ("usd_list", "usd_batch", "usd_cached"):
        shown[col] = shown[col].map(lambda v: "n/a" if v is None or pd.isna(v) else f"{v:,.2f}")
    for col in ("comparisons", "calls", "input_tokens", "output_tokens"):
        shown[col] = shown[col].map(lambda v: f"{v:,}")
    head = (f"{a['judge']} ({a['model']}), scale {a['scale']}: calls, tokens and US dollars before "
            f"anything is sent (prices of {a['price_date']} declared by the judge's provider)")
    notes = ("usd_list: list price; usd_batch: with the provider's batch discount (n/a: no batch "
             "API); usd_cached: with prompt caching of each template's shared instructions where "
             "the provider caches a prefix that short. Input tokens are counted with the embedded "
             "judge's tokenizer; output tokens are estimates (tjb_lib/run/estimate.py). Calls already "
             "in the response store are not subtracted.")
    caching = (f"The longest shared instruction prefix is {a['longest_prefix']} tokens; "
               + ("this provider caches none." if a["cache_min_tokens"] is None else
                  f"this provider caches prefixes from {a['cache_min_tokens']:,} tokens."))
    return "\n".join([head, shown.to_string(index=False), notes, caching])


def estimate_cli(args) -> int:
    """``python -m tjb_lib estimate --judge <name> --scale paper``."""
    print(report(cost_by_float(args.judge, args.scale)))
    return 0
