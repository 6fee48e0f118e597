"""Run one ordered comparison under one protocol setting and return its verdict row.

``call`` performs one judge call (``runner.calls.make_call``: from the store when it holds the
call, else made by the judge, an API judge retrying under ``judges.retry``, and stored). Single-call
protocols make one call; TRACE makes two, and stops after stage 1 when that reply does not parse:
the row is then ``stage1_unparsed`` and no verdict is guessed.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from tjb_lib.parse import Verdict, parse_normalized, parse_verdict
from tjb_lib.protocols.requests import (
    STAGE1_FIELDS, build_request, lite_texts, lite_request, mask_markers,
    shown_sides, stage1_request, stage2_request,
)
from tjb_lib.protocols.specs import Spec
from tjb_lib.records import ORDERS, Pair, Request, Response, decision_from_label, request_key

Call = Callable[[Request], Response]
#: A row keeps at most this much of a reply's text: more than any reply within its output cap
#: can hold (1,536 tokens), so only a reply that ran past it is cut in the row; the whole reply
#: stays in the store, under the row's ``request_hashes``, and is never written twice.
ROW_TEXT_CHARS = 32_768


def excerpt(text: Any) -> Any:
    """``text`` as a row keeps it: up to ``ROW_TEXT_CHARS``, then a note of what was left out."""
    if not isinstance(text, str) or len(text) <= ROW_TEXT_CHARS:
        return text
    return (text[:ROW_TEXT_CHARS] + f" [... {len(text) - ROW_TEXT_CHARS} more characters: the "
            "whole reply is in the store, under this row's request_hashes]")


def ordered_comparisons(pairs: Sequence[Pair], specs: Sequence[Spec]
                        ) -> list[tuple[Pair, str, Spec]]:
    """Every (pair, order, spec), both orders for every pair, fixed before any call.

    Order: spec, then pair (as given), then cited_first before plain_first.
    """
    seen: set[str] = set()
    for pair in pairs:
        if pair.pair_id in seen:
            raise ValueError(f"pair_id {pair.pair_id!r} appears twice in split {pair.split!r}")
        seen.add(pair.pair_id)
    return [(pair, order, spec) for spec in specs for pair in pairs for order in ORDERS]


def _systems(pair: Pair) -> tuple[str | None, str | None]:
    if pair.target_relation != "system":
        return None, None
    missing = [k for k in ("system_plain", "system_cited") if k not in pair.meta]
    if missing:
        raise ValueError(f"ranking pair {pair.pair_id!r} (split {pair.split!r}): meta lacks "
                         f"{', '.join(missing)}")
    return pair.meta["system_plain"], pair.meta["system_cited"]


def _total(values: Iterable[int | None]) -> int | None:
    """Token totals are reported only when every call reported its count."""
    values = list(values)
    return None if any(not isinstance(v, int) for v in values) else sum(values)  # type: ignore[arg-type]


def _row(pair: Pair, order: str, spec: Spec, calls: list[tuple[Request, Response]],
         identity: dict[str, Any], verdict: Verdict | None, status: str,
         normalized: dict[str, Any] | None) -> dict[str, Any]:
    """Assemble the verdict row; ``verdict`` is None when the last call failed. ``raw_text`` is
    the reply's text or, when the reply held none (``judges.replies``), its raw body."""
    last = calls[-1][1]
    if verdict is None:
        parsed, decision = None, "failed"
    else:
        parsed, decision = verdict.label, decision_from_label(verdict.label, order)
    probs = last.label_probs or {}
    system_plain, system_cited = _systems(pair)
    return {
        "pair_id": pair.pair_id, "split": pair.split, "source": pair.source,
        "target_relation": pair.target_relation, "gold": pair.gold, "variant": pair.variant,
        "system_plain": system_plain, "system_cited": system_cited,
        "order": order, "protocol": spec.protocol, "level": spec.level,
        "paraphrase": spec.paraphrase,
        "model_returned": ",".join(sorted({r.model_returned for _, r in calls
                                           if r.model_returned})) or None,
        "raw_text": excerpt(last.meta.get("raw_body") if last.text is None else last.text),
        "parsed": parsed, "parse_status": status, "decision": decision,
        "p_a": probs.get("A"), "p_b": probs.get("B"), "p_tie": probs.get("Tie"),
        "calls": len(calls),
        "input_tokens": _total(r.input_tokens for _, r in calls),
        "output_tokens": _total(r.output_tokens for _, r in calls),
        **{name: _total(getattr(r, name) for _, r in calls)
           for name in ("cached_input_tokens", "cache_write_tokens", "reasoning_tokens")},
        "latency_s": sum(r.latency_s for _, r in calls),
        "attempts": sum(r.attempts for _, r in calls),
        "request_hashes": [request_key(identity, q) for q, _ in calls],
        "templates": [q.template for q, _ in calls],
        "normalized": normalized,
        "cached": all(r.cached for _, r in calls),
    }


def _judged(pair, order, spec, calls, identity, normalized) -> dict[str, Any]:
    """Row for a comparison whose last call was a verdict call."""
    response = calls[-1][1]
    if response.status != "ok":
        return _row(pair, order, spec, calls, identity, None, "call_failed", normalized)
    verdict = parse_verdict(response.text, response.label_probs)
    return _row(pair, order, spec, calls, identity, verdict, verdict.status, normalized)


def _originals(pair: Pair) -> dict[str, str]:
    return {"cited": pair.cited, "plain": pair.plain}


def _run_trace(pair: Pair, order: str, spec: Spec, call: Call,
               identity: dict[str, Any]) -> dict[str, Any]:
    first = stage1_request(pair, order, spec)
    r1 = call(first)
    calls = [(first, r1)]
    normalized: dict[str, Any] = {"originals": _originals(pair), "shown_as": dict(
        zip(("A", "B"), shown_sides(order))), "stage1_text": excerpt(r1.text), "records": None}
    if r1.status != "ok":
        return _row(pair, order, spec, calls, identity, None, "stage1_failed", normalized)
    records = parse_normalized(r1.text, STAGE1_FIELDS[spec.protocol])
    if records is None:
        return _row(pair, order, spec, calls, identity, Verdict(None, "stage1_unparsed"),
                    "stage1_unparsed", normalized)
    masked = {side: {k: mask_markers(v) for k, v in rec.items()} for side, rec in records.items()}
    normalized["records"] = masked  # exactly what stage 2 saw
    second = stage2_request(pair, masked)
    calls.append((second, call(second)))
    return _judged(pair, order, spec, calls, identity, normalized)


def run_comparison(pair: Pair, order: str, spec: Spec, call: Call,
                   identity: dict[str, Any] | None = None) -> dict[str, Any]:
    """Judge one ordered comparison; the row has every VERDICT_COLUMNS field but judge and
    created_at. Pass the judge's ``identity()`` so ``request_hashes`` equal the store keys."""
    identity = identity or {}
    if spec.protocol in ("trace_v1", "trace_v2"):
        return _run_trace(pair, order, spec, call, identity)
    if spec.protocol == "trace_lite":
        texts = lite_texts(pair, order)
        request = lite_request(pair, order, texts)
        normalized = {"originals": _originals(pair), "shown_as": dict(
            zip(("A", "B"), shown_sides(order))), "stripped": dict(zip(("A", "B"), texts))}
    else:
        request, normalized = build_request(pair, order, spec), None
    return _judged(pair, order, spec, [(request, call(request))], identity, normalized)
