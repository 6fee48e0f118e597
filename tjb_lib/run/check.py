"""``python -m tjb_lib check --judge <name>``: one tiny real call before a long run.

It sends the smallest real request a protocol makes (the L0 prompt over a one-line task and two
one-word answers) and reports what the endpoint returned: the model or snapshot id, whether the
reply is the JSON verdict the paper asks for, whether label probabilities came back, the tokens
(cached input and reasoning ones too), and then the estimated price per 1,000 ordered comparisons
of each protocol setting (``estimate.per_1000``). The call is not stored: it probes the
endpoint, it judges nothing. A refused request, a missing key, an unusable endpoint or one where
nothing answers is one error line and a non-zero exit, as in a run; a call that got no answer
after its retries says so and reports nothing a reply did not say.
"""
from __future__ import annotations

import json
from typing import Any

from tjb_lib.records import Pair, Request, Response

PROBE = Pair(pair_id="check-0", split="check", source="hotpotqa", source_id="check",
             target_relation="equivalent", gold="tie", task="What is two plus two?",
             plain="Answer: 4.", cited="Answer: 4 [1].\n[1] Arithmetic.")


def probe_request() -> Request:
    from tjb_lib.protocols import Spec, build_request

    return build_request(PROBE, "cited_first", Spec("ladder", "L0"))


def probe(judge: Any) -> dict[str, Any]:
    """Send the probe request once; what came back, as plain values."""
    from tjb_lib.parse import parse_verdict

    response: Response = judge.complete(probe_request())
    verdict = parse_verdict(response.text, response.label_probs)
    return {
        "judge": judge.name, "endpoint": judge.identity().get("endpoint", "in this process"),
        "model_sent": judge.model, "model_returned": response.model_returned,
        "status": response.status, "error": response.error,
        "reply": (response.text or "")[:200],
        "json_verdict": verdict.status == "json", "label": verdict.label,
        "label_probs": response.label_probs,
        "logprobs_asked": bool(judge.params.get("logprobs")),
        "input_tokens": response.input_tokens, "output_tokens": response.output_tokens,
        "cached_input_tokens": response.cached_input_tokens,
        "reasoning_tokens": response.reasoning_tokens,
        "finish": response.meta.get("finish_reason") or response.meta.get("stop_reason"),
        "attempts": response.attempts,
    }


def report(found: dict[str, Any]) -> str:
    """The probe's findings as a few lines a person reads before spending."""
    def yes(flag: bool) -> str:
        return "yes" if flag else "NO"

    if found["status"] != "ok":
        return "\n".join([f"{found['judge']} at {found['endpoint']}",
                          f"  no answer came: the call failed after {found['attempts']} "
                          f"attempt(s): {found['error']}"])
    probs = found["label_probs"]
    returned = found["model_returned"]
    tokens = ("  tokens: not reported" if found["input_tokens"] is None else
              f"  tokens: {found['input_tokens']} in ({found['cached_input_tokens']} cached), "
              f"{found['output_tokens']} out ({found['reasoning_tokens']} reasoning)")
    lines = [
        f"{found['judge']} at {found['endpoint']}",
        f"  model sent {found['model_sent']!r}, "
        + (f"endpoint answered as {returned!r}" if returned else "the reply named no model"),
        f"  call: {found['status']}" + (f" ({found['error']})" if found["error"] else "")
        + (f", finish {found['finish']}" if found["finish"] else ""),
        f"  JSON verdict: {yes(found['json_verdict'])} (label {found['label']}); reply "
        f"{json.dumps(found['reply'])}",
        "  label probabilities: " + (", ".join(f"P({k})={v:.3f}" for k, v in probs.items())
                                     if probs else ("NO (asked)" if found["logprobs_asked"]
                                                    else "not asked (no logprobs here)")),
        tokens,
    ]
    return "\n".join(lines)


def check_cli(args) -> int:
    """The ``check`` command: the probe, then the price per 1,000 comparisons per protocol."""
    from tjb_lib.run.estimate import judge_rates, per_1000
    from tjb_lib.judges.catalog import get_judge
    from tjb_lib.pairs.registry import with_role

    if args.pairs < 1:
        raise ValueError(f"--pairs must be at least 1, got {args.pairs}")
    judge = get_judge(args.judge, base_url=args.base_url, model=args.model)
    judge.check_ready()
    found = probe(judge)
    print(report(found))
    prices = per_1000(judge_rates(judge.model, judge.name), limit=args.pairs)
    print(f"\nestimated dollars per 1,000 ordered comparisons ({with_role('protocols')}, first "
          f"{args.pairs} pairs; list price, batch, prompt caching):")
    print(prices.round(4).to_string(index=False))
    return 0 if found["status"] == "ok" and found["json_verdict"] else 1
