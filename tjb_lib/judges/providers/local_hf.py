"""The paper's open-weight judges loaded in this process with Transformers on CUDA (AWQ kernels for
the AWQ checkpoint). Like the embedded judge they load on the first call, so naming or replaying
them imports no torch; ``check_ready`` says before a run when this machine cannot load them."""
from __future__ import annotations

from typing import Any

from tjb_lib.judges.base import FatalJudgeError
from tjb_lib.judges.local_lazy import LABEL_PREFIX, LazyLocalJudge, cpu_dtype, local_params
from tjb_lib.judges.provider import JudgeSpec, Price, Provider, register

AWQ = "awq-w4"


def build(spec: JudgeSpec, provider: Provider, **overrides: Any) -> LazyLocalJudge:
    device = overrides.pop("device", spec.device)
    params = dict(overrides.pop("params", None) or {})
    if spec.quantization == AWQ:
        params = {"quantization": AWQ, **params}
    # the dtype the checkpoint computes in (float16 for the AWQ kernels, bfloat16 on CUDA, on CPU
    # ``cpu_dtype``): it is part of the identity, which the loaded judge must match
    requested = overrides.pop("dtype", None)
    dtype = ("float16" if spec.quantization == AWQ else cpu_dtype(spec.name, requested)
             if device == "cpu" else requested or "bfloat16")
    declared = local_params(overrides.get("label_prefix", LABEL_PREFIX), dtype, params)
    extra = {"catalog": spec.to_dict()}

    def ready() -> None:
        import torch

        from tjb_lib.judges.awq import NO_CUDA_REASON

        if device.startswith("cuda") and not torch.cuda.is_available():
            why = (NO_CUDA_REASON if spec.quantization == AWQ
                   else "it runs on CUDA; this machine has none")
            raise FatalJudgeError(f"cannot run {spec.name} locally: {why}. Serve it with vLLM "
                                  "and pass base_url=<OpenAI-compatible URL> instead")

    def load():
        ready()
        if spec.quantization == AWQ:
            from tjb_lib.judges.awq import load_awq_judge
            return load_awq_judge(spec.name, spec.model, device=device, notes=spec.notes,
                                  extra_metadata=extra, params=dict(params), **overrides)
        from tjb_lib.judges.local_hf import load_local_hf
        import torch

        return load_local_hf(spec.name, spec.model, device=device, dtype=getattr(torch, dtype),
                             notes=spec.notes, extra_metadata=extra, params=dict(params),
                             **overrides)

    return LazyLocalJudge(spec.name, spec.model, declared, load, notes=spec.notes, ready=ready,
                          max_concurrency=1)


def _open_weights(model: str) -> Price:
    return Price(model, input=0, cached_input=0, cache_write=0, output=0, price_date="n/a",
                 checked="n/a", source="open weights served locally; no per-token price "
                                       "(hardware cost not counted)")


PROVIDER = register(Provider(
    name="local_hf", backend="local_hf", build=build, sdk="transformers", in_process=True,
    served_by="vllm",
    prices=(_open_weights("Qwen2.5-14B-Instruct-AWQ"), _open_weights("gemma-3-12b-it")),
    judges=(
        JudgeSpec("Qwen2.5-14B-Instruct-AWQ", "local_hf", "Qwen/Qwen2.5-14B-Instruct-AWQ",
                  "open-weight", device="cuda", quantization=AWQ,
                  notes="Open-weight replication (moderate frontier, TRACE, ranking probe). Runs "
                        "locally with AWQ kernels on CUDA, or pass base_url of an "
                        "OpenAI-compatible (vLLM) server."),
        JudgeSpec("gemma-3-12b-it", "local_hf", "google/gemma-3-12b-it", "open-weight",
                  device="cuda",
                  notes="Open-weight replication (moderate frontier, TRACE, ranking probe). Runs "
                        "locally on CUDA (bfloat16), or pass base_url of an OpenAI-compatible "
                        "(vLLM) server."),
    ),
))
