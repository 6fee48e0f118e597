"""P5 the peer a user would pick: the project's local judge against vLLM's CPU build, one run.

Same machine, same converted SmolLM2 folder, same prompts: moderate-tier HotpotQA pairs at
ladder level L2, both orders, taken from the end of the split (not the default sample), each
verdict one token with its label probabilities:

* local: the project's embedded judge (``LocalHFJudge``) as the runner drives it, ``complete``
  from as many threads as its ``max_concurrency`` (one thread per forward pass, one pass per
  core); also ``complete`` one request at a time, ``score_many``, and two levers: one pass over
  two threads (the judge's setting before this benchmark) and bfloat16 weights (AMX on this
  CPU; verdict agreement with float32 recorded);
* vLLM at concurrency 1 and at 2, 4, 8 (its best is reported): ``/v1/completions`` with the
  very token ids the local judge scores (chat template plus the ``{"winner": "`` prefix),
  ``max_tokens=1`` and ``logprob_token_ids`` = the three label tokens, so it returns the same
  P(A), P(B), P(Tie) from the full-vocabulary softmax;
* the project's OpenAI-compatible judge (``get_judge(..., base_url=...)``) talking to that vLLM
  at its own concurrency: chat completions in JSON mode with logprobs, as a user would run it
  (it generates the whole JSON reply, so it is slower per verdict by design).

The conditions run in rounds over chunks of the prompts, rotating their order, so that on a
shared machine every condition meets the same load; before each condition's chunk the prefix
caches are emptied (the local judge's own, and vLLM's through its dev-mode reset endpoint), so
within a chunk each engine shares the instruction prefix its own way and never reuses another
condition's work. The idle vLLM server stays up during the local runs (it uses about 1% of a
core when idle). Verdict agreement (same argmax label) and the largest probability difference
between local and vLLM are recorded. Figure: vLLM's best per-verdict time / the local judge's
as the runner drives it (>= 1.0 means the project's judge is at least as fast). Target >= 1.0.
"""
from __future__ import annotations

import concurrent.futures as cf
import json
import math
import os
import signal
import statistics
import sys
import time
import urllib.request

from tjb_lib.bench import arg_parser, figure_line, write_result
from tjb_lib.judges import vllm_server as vllm
from tjb_lib.pairs import load_split
from tjb_lib.protocols import ORDERS, Spec, build_request
from tjb_lib.records import LABELS

NAME = "p5_vllm_peer"
TARGET = 1.0
SPLIT, LEVEL = "moderate_hotpotqa", "L2"
CONCURRENCIES = (1, 2, 4, 8)


def load_local():
    from tjb_lib.judges.catalog import get_judge

    judge = get_judge("smollm2")
    return judge.loaded() if hasattr(judge, "loaded") else judge


def prompts(n_pairs: int) -> list:
    pairs = load_split(SPLIT)[-n_pairs:]
    return [build_request(p, o, Spec("ladder", LEVEL)) for p in pairs for o in ORDERS]


class VLLMScorer:
    """Raw scoring calls to the server: the local judge's token ids in, label probabilities out."""

    def __init__(self, server, tokenizer, label_ids: dict[str, int]):
        self.root = server.base_url.rsplit("/v1", 1)[0]
        self.model = server.served_model_name
        self.label_ids = [label_ids[lab] for lab in LABELS]
        # the endpoint names each returned token by its text
        self.label_text = {lab: tokenizer.decode([label_ids[lab]]) for lab in LABELS}

    def _post(self, path: str, body: dict | None) -> dict | None:
        data = b"" if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.root + path, data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=600) as r:
            raw = r.read()
        return json.loads(raw) if raw.strip() else None

    def reset_prefix_cache(self) -> None:
        self._post("/reset_prefix_cache", None)

    def score(self, ids: list[int]) -> dict[str, float]:
        """Renormalised P(A), P(B), P(Tie) of the next token, as the local judge reports them."""
        body = self._post("/v1/completions", {
            "model": self.model, "prompt": ids, "max_tokens": 1, "temperature": 0,
            "logprobs": 1, "logprob_token_ids": self.label_ids})
        top = body["choices"][0]["logprobs"]["top_logprobs"][0]
        probs = {lab: math.exp(top[self.label_text[lab]]) for lab in LABELS}
        mass = sum(probs.values())
        return {lab: p / mass for lab, p in probs.items()}


def timed(fn) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main() -> int:
    p = arg_parser(__doc__.splitlines()[0])
    args = p.parse_args()
    n_pairs, chunk_pairs = (2, 1) if args.quick else (10, 2)
    target = f"vLLM best / local >= {TARGET:.1f}"
    if vllm.vllm_python() is None:
        reason = vllm.missing_reason()
        print(f"vLLM peer not measured: {reason}")
        print(figure_line("vLLM best / local judge per verdict", None, target, None))
        write_result(NAME, args.out, measured={"skipped": reason}, ratio=None, target=target,
                     met=None, quick=args.quick, notes=reason)
        return 0

    # the suite stops a script past its budget with SIGTERM: exit through the finally below,
    # which stops the vLLM server (its own session, so nothing else would)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    local = load_local()
    requests = prompts(n_pairs)
    ids = [local.verdict_ids(r) for r in requests]
    chunk = 2 * chunk_pairs
    chunks = [list(range(i, min(i + chunk, len(requests)))) for i in range(0, len(requests), chunk)]
    load_before = os.getloadavg()
    server = vllm.embedded_judge_server(env={"VLLM_SERVER_DEV_MODE": "1"})
    server.start()
    try:
        scorer = VLLMScorer(server, local.tokenizer, local.label_ids)
        from tjb_lib.judges.catalog import get_judge

        api = get_judge("smollm2", base_url=server.base_url, model=server.served_model_name,
                        params={"logprobs": True, "top_logprobs": 5})
        bf16 = bf16_judge()
        conditions = {
            "local": lambda c: [r.label_probs for r in _pool(
                local.max_concurrency, local.complete, [requests[i] for i in c])],
            "local_c1": lambda c: [local.complete(requests[i]).label_probs for i in c],
            "local_score_many": lambda c: [r.label_probs for r in
                                           local.score_many([requests[i] for i in c])],
            "local_one_pass_two_threads": lambda c: _threads(2, lambda: [
                local.complete(requests[i]).label_probs for i in c]),
            "local_bf16": lambda c: [r.label_probs for r in _pool(
                bf16.max_concurrency, bf16.complete, [requests[i] for i in c])],
            **{f"vllm_c{n}": (lambda n: lambda c: _pool(n, scorer.score, [ids[i] for i in c]))(n)
               for n in CONCURRENCIES},
            "openai_judge_via_vllm": lambda c: [r for r in _pool(
                api.max_concurrency, api.complete, [requests[i] for i in c])],
        }
        # warm-up outside the timing: both engines' first call pays one-off costs
        local.complete(requests[0])
        bf16.complete(requests[0])
        scorer.score(ids[0])
        seconds = {k: 0.0 for k in conditions}
        results: dict[str, list] = {k: [None] * len(requests) for k in conditions}
        names = list(conditions)
        for r, members in enumerate(chunks):
            rotated = names[r % len(names):] + names[: r % len(names)]
            for name in rotated:
                local.clear_prefix_cache()
                bf16.clear_prefix_cache()
                scorer.reset_prefix_cache()
                dt, out = timed(lambda: conditions[name](members))
                seconds[name] += dt
                for i, o in zip(members, out):
                    results[name][i] = o
    finally:
        server.stop()
    load_after = os.getloadavg()

    n = len(requests)
    per = {k: v / n for k, v in seconds.items()}
    vllm_best = min((f"vllm_c{c}" for c in CONCURRENCIES), key=lambda k: per[k])
    agree, max_diff = agreement(results["local"], results["vllm_c1"])
    bf16_agree, bf16_diff = agreement(results["local"], results["local_bf16"])
    api_resp = results["openai_judge_via_vllm"]
    api_ok = [r for r in api_resp if r.status == "ok"]
    api_out_tokens = statistics.mean(r.output_tokens or 0 for r in api_ok) if api_ok else None
    ratio = per[vllm_best] / per["local"]
    met = ratio >= TARGET
    for k in conditions:
        print(f"{k:24s} {per[k]:.3f} s per verdict")
    print(f"verdicts: local and vLLM agree on {agree}/{n}; largest probability difference "
          f"{max_diff:.2e}; bfloat16 and float32 agree on {bf16_agree}/{n} (largest difference "
          f"{bf16_diff:.2e}); the OpenAI-compatible judge generated {api_out_tokens} tokens per "
          f"reply on average")
    print(figure_line(f"vLLM best ({vllm_best}) / local judge per verdict", ratio, target, met)
          + f"; vLLM c1 / local c1 {per['vllm_c1'] / per['local_c1']:.2f}x, "
            f"OpenAI-compatible judge via vLLM / local "
            f"{per['openai_judge_via_vllm'] / per['local']:.2f}x")
    measured = {
        "split": SPLIT, "level": LEVEL, "pairs": n_pairs, "verdicts": n,
        "prompt_tokens_mean": statistics.mean(len(x) for x in ids),
        "seconds_per_verdict": per, "vllm_best": vllm_best,
        "local_max_concurrency": local.max_concurrency, "local_threads_per_pass": local.threads,
        "ratios_to_local": {k: v / per["local"] for k, v in per.items()},
        "agreement_local_vs_vllm": {"same_label": agree, "of": n, "max_prob_diff": max_diff},
        "agreement_float32_vs_bfloat16": {"same_label": bf16_agree, "of": n,
                                          "max_prob_diff": bf16_diff},
        "openai_judge": {"ok": len(api_ok), "of": n, "output_tokens_mean": api_out_tokens,
                         "max_concurrency": api.max_concurrency},
        "vllm_startup_s": server.startup_s,
        "load_average_1_5_15": {"before": load_before, "after": load_after},
    }
    write_result(NAME, args.out, measured=measured, ratio=ratio, target=target, met=met,
                 quick=args.quick,
                 notes="ratio = vLLM's best seconds per verdict / the local judge's as the runner "
                       "drives it (complete at its max_concurrency); above 1 the project's judge "
                       "is faster")
    return 0


def _pool(n: int, fn, items: list) -> list:
    if n == 1:
        return [fn(x) for x in items]
    with cf.ThreadPoolExecutor(n) as ex:
        return list(ex.map(fn, items))


def _threads(n: int, fn):
    """Run ``fn`` with ``n`` torch threads per operator, then restore the judge's setting."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        return fn()
    finally:
        torch.set_num_threads(before)


def bf16_judge():
    """The embedded judge on bfloat16 weights: a lever measured here, not the shipped default."""
    from tjb_lib.judges.catalog import get_judge

    return get_judge("smollm2", dtype="bfloat16").loaded()


def agreement(a: list[dict], b: list[dict]) -> tuple[int, float]:
    """Prompts whose argmax label is the same, and the largest probability difference."""
    same = sum(_argmax(x) == _argmax(y) for x, y in zip(a, b))
    return same, max(abs(x[lab] - y[lab]) for x, y in zip(a, b) for lab in LABELS)


def _argmax(probs: dict[str, float] | None) -> str | None:
    return max(probs, key=probs.get) if probs else None


if __name__ == "__main__":
    raise SystemExit(main())
