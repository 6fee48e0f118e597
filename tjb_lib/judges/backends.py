"""The built-in judge backends, registered by name (``registry``). Each builder imports its SDK or
model code only when a judge of its kind is built, so naming a judge loads nothing heavy."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tjb_lib.judges.registry import backend

if TYPE_CHECKING:
    from tjb_lib.judges.base import Judge
    from tjb_lib.judges.catalog import JudgeSpec


def _api_kwargs(spec: "JudgeSpec", overrides: dict[str, Any]) -> dict[str, Any]:
    from tjb_lib.judges.budget import Budget

    budget = overrides.pop("budget", None) or Budget.from_env()
    return {"base_url": spec.base_url, "api_key_env": spec.api_key_env,
            "params": {**spec.params, **overrides.pop("params", {})},
            "backend": spec.backend, "budget": budget, **overrides}


@backend("openai")
@backend("openai_compatible")
def openai_judge(spec: "JudgeSpec", **overrides: Any) -> "Judge":
    """OpenAI's chat.completions, or any server that speaks it (DeepSeek, vLLM)."""
    from tjb_lib.judges.openai_api import OpenAIJudge

    return OpenAIJudge(spec.name, spec.model, **_api_kwargs(spec, overrides))


@backend("anthropic")
def anthropic_judge(spec: "JudgeSpec", **overrides: Any) -> "Judge":
    """Anthropic's Messages API."""
    from tjb_lib.judges.anthropic_api import AnthropicJudge

    return AnthropicJudge(spec.name, spec.model, **_api_kwargs(spec, overrides))


@backend("local_hf")
def local_judge(spec: "JudgeSpec", **overrides: Any) -> "Judge":
    """A model loaded in this process with Transformers: the embedded SmolLM2 on CPU, or an
    open-weight judge on CUDA (AWQ kernels for the AWQ checkpoint)."""
    if spec.name == "smollm2":
        from tjb_lib.judges.smollm2 import lazy_smollm2_judge

        return lazy_smollm2_judge(spec.name, **overrides)
    import torch

    from tjb_lib.judges.awq import NO_CUDA_REASON

    device = overrides.pop("device", spec.device)
    if device.startswith("cuda") and not torch.cuda.is_available():
        why = (NO_CUDA_REASON if spec.quantization == "awq-w4"
               else "it runs on CUDA; this machine has none")
        raise RuntimeError(f"cannot run {spec.name} locally: {why}. Serve it with vLLM and pass "
                           f"base_url=<OpenAI-compatible URL> instead")
    extra = {"catalog": spec.to_dict()}
    if spec.quantization == "awq-w4":
        from tjb_lib.judges.awq import load_awq_judge
        return load_awq_judge(spec.name, spec.model, device=device, notes=spec.notes,
                              extra_metadata=extra, **overrides)
    from tjb_lib.judges.local_hf import load_local_hf
    return load_local_hf(spec.name, spec.model, device=device, notes=spec.notes,
                         extra_metadata=extra, **overrides)
