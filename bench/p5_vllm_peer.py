"""P5 the peer a user would pick: the project's local judge against vLLM's CPU build, one run.

Same machine, same converted SmolLM2 folder, same prompts: moderate-tier HotpotQA pairs at
ladder level L2, both orders, taken from the end of the split (not the default sample), each
verdict one token with its label probabilities. Like with like: the run has one phase per dtype
(float32, then bfloat16), each with a vLLM server started in that dtype (``--dtype``) and the
local judge loaded in it, and the ratios are taken within a phase:

* local: the project's embedded judge (``LocalHFJudge``) as the runner drives it, ``complete``
  from as many threads as its ``max_concurrency`` (each pass on its share of the free cores),
  and ``complete`` one request at a time (c1: a pass alone takes every free core);
* vLLM at concurrency 1 and at 2, 4, 8 (its best is reported): ``/v1/completions`` with the
  very token ids the local judge scores (chat template plus the ``{"winner": "`` prefix),
  ``max_tokens=1`` and ``logprob_token_ids`` = the three label tokens, so it returns the same
  P(A), P(B), P(Tie) from the full-vocabulary softmax;
* in the float32 phase, the project's OpenAI-compatible judge (``get_judge(..., base_url=...)``)
  talking to that vLLM at its own concurrency: chat completions in JSON mode with logprobs, as a
  user would run it (it generates the whole JSON reply, so it is slower per verdict by design).

Each condition runs twice over the same prompts: on the machine as it is ("idle": nothing the
benchmark started besides the two engines) and under a fixed load the benchmark starts, a
process burning one core in a busy loop, with the load average recorded for each. The conditions
run in rounds over chunks of the prompts, rotating their order, so that on a shared machine
every condition meets the same load; before each condition's chunk the prefix caches are
emptied (the local judge's own, and vLLM's through its dev-mode reset endpoint). The idle vLLM
server stays up during the local runs (about 1% of a core). Verdict agreement (same argmax
label) and the largest probability difference between local and vLLM are recorded per dtype,
and between the local judge's two dtypes. Figure: the smallest of vLLM's best per-verdict time /
the local judge's, idle, over the two dtypes (>= 1.0 means the project's judge is at least as
fast). Targets: >= 1.0 idle in each dtype, >= 0.9 under the one-core load, c1 >= 0.9.
"""
from __future__ import annotations

import concurrent.futures as cf
import json
import math
import multiprocessing as mp
import os
import signal
import statistics
import sys
import time
import urllib.request

from tjb_lib.run.bench import arg_parser, figure_line, write_result
from tjb_lib.judges import vllm_server as vllm
from tjb_lib.pairs import load_split
from tjb_lib.protocols import ORDERS, Spec, build_request
from tjb_lib.records import LABELS

NAME = "p5_vllm_peer"
TARGET, TARGET_LOADED, TARGET_C1 = 1.0, 0.9, 0.9
DTYPES = ("float32", "bfloat16")
LOADS = ("idle", "one_core_load")
SPLIT, LEVEL = "moderate_hotpotqa", "L2"
CONCURRENCIES = (1, 2, 4, 8)


def load_local(dtype: str):
    from tjb_lib.judges.catalog import get_judge

    return get_judge("smollm2", dtype=dtype).loaded()


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


def phase(dtype: str, requests: list, chunks: list[list[int]], with_api: bool) -> dict:
    """Local judge and vLLM in one dtype, idle and under the one-core load: per-verdict seconds,
    their ratios, verdict agreement."""
    local = load_local(dtype)
    ids = [local.verdict_ids(r) for r in requests]
    server = vllm.embedded_judge_server(dtype=dtype, env={"VLLM_SERVER_DEV_MODE": "1"})
    server.start()
    try:
        scorer = VLLMScorer(server, local.tokenizer, local.label_ids)
        conditions = {
            "local": lambda c: [r.label_probs for r in _pool(
                local.max_concurrency, local.complete, [requests[i] for i in c])],
            "local_c1": lambda c: [local.complete(requests[i]).label_probs for i in c],
            **{f"vllm_c{n}": (lambda n: lambda c: _pool(n, scorer.score, [ids[i] for i in c]))(n)
               for n in CONCURRENCIES},
        }
        if with_api:
            from tjb_lib.judges.catalog import get_judge

            api = get_judge("smollm2", base_url=server.base_url, model=server.served_model_name,
                            params={"logprobs": True, "top_logprobs": 5})
            conditions["openai_judge_via_vllm"] = lambda c: _pool(
                api.max_concurrency, api.complete, [requests[i] for i in c])
        # warm-up outside the timing: both engines' first call pays one-off costs
        local.complete(requests[0])
        scorer.score(ids[0])
        out = {load: run_conditions(conditions, chunks, len(requests), local, scorer, load)
               for load in LOADS}
    finally:
        server.stop()
    idle = out["idle"]
    agree, max_diff = agreement(idle["results"]["local"], idle["results"]["vllm_c1"])
    res = {"vllm_startup_s": server.startup_s, "prompt_tokens_mean": statistics.mean(map(len, ids)),
           "local_max_concurrency": local.max_concurrency,
           "agreement_local_vs_vllm": {"same_label": agree, "of": len(requests),
                                       "max_prob_diff": max_diff}}
    for load, r in out.items():
        res[load] = {k: v for k, v in r.items() if k != "results"}
    res["local_labels"] = idle["results"]["local"]
    if with_api:
        api_ok = [r for r in idle["results"]["openai_judge_via_vllm"] if r.status == "ok"]
        res["openai_judge"] = {
            "ok": len(api_ok), "of": len(requests), "max_concurrency": api.max_concurrency,
            "output_tokens_mean": (statistics.mean(r.output_tokens or 0 for r in api_ok)
                                   if api_ok else None)}
    return res


def run_conditions(conditions: dict, chunks: list[list[int]], n: int, local, scorer,
                   load: str) -> dict:
    """Every condition over every chunk, rotated, under ``load``; seconds per verdict."""
    burner = start_load() if load == "one_core_load" else None
    try:
        load_before = os.getloadavg()
        seconds = {k: 0.0 for k in conditions}
        results: dict[str, list] = {k: [None] * n for k in conditions}
        names = list(conditions)
        for r, members in enumerate(chunks):
            for name in names[r % len(names):] + names[: r % len(names)]:
                local.clear_prefix_cache()
                scorer.reset_prefix_cache()
                dt, out = timed(lambda: conditions[name](members))
                seconds[name] += dt
                for i, o in zip(members, out):
                    results[name][i] = o
        load_after = os.getloadavg()
    finally:
        if burner is not None:
            stop_load(burner)
    per = {k: v / n for k, v in seconds.items()}
    best = min((f"vllm_c{c}" for c in CONCURRENCIES), key=lambda k: per[k])
    return {"seconds_per_verdict": per, "vllm_best": best,
            "ratio_best": per[best] / per["local"], "ratio_c1": per["vllm_c1"] / per["local_c1"],
            "load_average_1_5_15": {"before": load_before, "after": load_after},
            "results": results}


def start_load() -> mp.Process:
    """A process that keeps one core busy until it is stopped: the fixed load."""
    proc = mp.get_context("spawn").Process(target=_burn, daemon=True)
    proc.start()
    time.sleep(2)  # let the scheduler see it before the first timing
    return proc


def stop_load(proc: mp.Process) -> None:
    proc.terminate()
    proc.join(10)


def _burn() -> None:
    while True:
        pass


def main() -> int:
    p = arg_parser(__doc__.splitlines()[0])
    args = p.parse_args()
    n_pairs, chunk_pairs = (1, 1) if args.quick else (10, 2)
    target = (f"vLLM best / local >= {TARGET:.1f} idle in each dtype, >= {TARGET_LOADED} under "
              f"one core's load, c1 >= {TARGET_C1}")
    if vllm.vllm_python() is None:
        reason = vllm.missing_reason()
        print(f"vLLM peer not measured: {reason}")
        print(figure_line("vLLM best / local judge per verdict", None, target, None))
        write_result(NAME, args.out, measured={"skipped": reason}, ratio=None, target=target,
                     met=None, quick=args.quick, notes=reason)
        return 0

    # the suite stops a script past its budget with SIGTERM: exit through the finally blocks,
    # which stop the vLLM server (its own session, so nothing else would) and the load
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    requests = prompts(n_pairs)
    chunk = 2 * chunk_pairs
    chunks = [list(range(i, min(i + chunk, len(requests)))) for i in range(0, len(requests), chunk)]
    load_before = os.getloadavg()
    by_dtype = {d: phase(d, requests, chunks, with_api=d == "float32") for d in DTYPES}
    load_after = os.getloadavg()

    n = len(requests)
    labels = {d: r.pop("local_labels") for d, r in by_dtype.items()}
    bf16_agree, bf16_diff = agreement(labels["float32"], labels["bfloat16"])
    ratios = {f"{d} {load} {kind}": r[load][kind] for d, r in by_dtype.items()
              for load in LOADS for kind in ("ratio_best", "ratio_c1")}
    met = all(v >= (TARGET if "idle ratio_best" in k else TARGET_LOADED if "ratio_best" in k
                    else TARGET_C1) for k, v in ratios.items())
    ratio = min(r["idle"]["ratio_best"] for r in by_dtype.values())
    for d, r in by_dtype.items():
        for load in LOADS:
            per, la = r[load]["seconds_per_verdict"], r[load]["load_average_1_5_15"]
            print(f"{d} {load} (load average {la['before'][0]:.2f} -> {la['after'][0]:.2f}): "
                  + ", ".join(f"{k} {v:.3f} s" for k, v in per.items()))
            print(f"  vLLM best ({r[load]['vllm_best']}) / local {r[load]['ratio_best']:.2f}x; "
                  f"vLLM c1 / local c1 {r[load]['ratio_c1']:.2f}x")
        a = r["agreement_local_vs_vllm"]
        print(f"  {d}: local and vLLM agree on {a['same_label']}/{n}; largest probability "
              f"difference {a['max_prob_diff']:.2e}")
    print(f"local float32 and bfloat16 agree on {bf16_agree}/{n} (largest difference "
          f"{bf16_diff:.2e})")
    print(figure_line("vLLM best / local judge per verdict, idle, the lesser dtype", ratio,
                      target, met))
    f32 = by_dtype["float32"]
    measured = {
        "split": SPLIT, "level": LEVEL, "pairs": n_pairs, "verdicts": n,
        "by_dtype": by_dtype, "ratios": ratios,
        # the float32 phase on the machine as it is, under the names earlier runs used
        "seconds_per_verdict": f32["idle"]["seconds_per_verdict"],
        "vllm_best": f32["idle"]["vllm_best"],
        "agreement_local_vs_vllm": f32["agreement_local_vs_vllm"],
        "agreement_float32_vs_bfloat16": {"same_label": bf16_agree, "of": n,
                                          "max_prob_diff": bf16_diff},
        "openai_judge": f32["openai_judge"],
        "load_average_1_5_15": {"before": load_before, "after": load_after},
    }
    write_result(NAME, args.out, measured=measured, ratio=ratio, target=target, met=met,
                 quick=args.quick,
                 notes="ratio = the lesser over dtypes of vLLM's best seconds per verdict / the "
                       "local judge's as the runner drives it (complete at its max_concurrency), "
                       "idle; above 1 the project's judge is faster. met: every ratio in "
                       "'ratios' reaches its target")
    return 0


def _pool(n: int, fn, items: list) -> list:
    if n == 1:
        return [fn(x) for x in items]
    with cf.ThreadPoolExecutor(n) as ex:
        return list(ex.map(fn, items))


def agreement(a: list[dict], b: list[dict]) -> tuple[int, float]:
    """Prompts whose argmax label is the same, and the largest probability difference."""
    same = sum(_argmax(x) == _argmax(y) for x, y in zip(a, b))
    return same, max(abs(x[lab] - y[lab]) for x, y in zip(a, b) for lab in LABELS)


def _argmax(probs: dict[str, float] | None) -> str | None:
    return max(probs, key=probs.get) if probs else None


if __name__ == "__main__":
    raise SystemExit(main())
