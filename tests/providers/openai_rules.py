"""OpenAI Chat Completions as the contract emulator enforces it, from OpenAI's documentation
(checked 2026-12-03): https://platform.openai.com/docs/api-reference/chat/create (max_tokens is
not compatible with reasoning models; max_completion_tokens counts reasoning tokens; top_logprobs
0-20 needs logprobs), https://developers.openai.com/api/docs/guides/reasoning (temperature != 1,
top_p and logprobs only with reasoning_effort "none"), the structured-outputs guide (JSON mode
needs "json" in a message), https://developers.openai.com/api/docs/guides/prompt-caching
(automatic from 1,024 prompt tokens, in 128-token steps).

Where a documented default is model-specific and not stated (gpt-5.5's reasoning effort when none
is sent), the emulator assumes the stricter case: reasoning on.
"""
from __future__ import annotations

from typing import Any

import contract_rules as rules

REASONING_EFFORTS = ("none", "low", "medium", "high", "xhigh")
EFFORT_TOKENS = {"none": 0, "low": 64, "medium": 256, "high": 1024, "xhigh": 2048}
CACHE_MIN, CACHE_STEP = 1024, 128


class OpenAI(rules.Dialect):
    """GPT models without reasoning."""

    name = "openai"
    models = r"^gpt-(?!5)"

    def error(self, message: str, param: str | None = None,
              code: str | None = None) -> rules.Violation:
        return rules.openai_error(message, param, code)  # code: the parameter's, if any

    def cached_tokens(self, shared: int, total: int) -> int:
        if total < CACHE_MIN:
            return 0
        cached = shared // CACHE_STEP * CACHE_STEP
        return cached if cached >= CACHE_MIN else 0

    def usage(self, prompt: int, cached: int, thought: int) -> dict[str, Any]:
        return {"prompt_tokens_details": {"cached_tokens": cached},
                "completion_tokens_details": {"reasoning_tokens": thought}}


class OpenAIReasoning(OpenAI):
    """GPT-5.x and o-series models."""

    name = "openai_reasoning"
    models = r"^(gpt-5|o[134])"

    def check(self, body: dict[str, Any], headers: dict[str, str]) -> None:
        super().check(body, headers)
        err = self.error
        if "max_tokens" in body:
            raise err("Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                      "'max_completion_tokens' instead.", "max_tokens", "unsupported_parameter")
        effort = body.get("reasoning_effort", "medium")
        if effort not in REASONING_EFFORTS:
            raise err(f"Unsupported value: '{effort}' is not supported with the "
                      f"'{body['model']}' model. Supported values are: "
                      f"{', '.join(map(repr, REASONING_EFFORTS))}.", "reasoning_effort",
                      "unsupported_value")
        if effort == "none":
            return
        if "temperature" in body and body["temperature"] != 1:
            raise err(f"Unsupported value: 'temperature' does not support {body['temperature']} "
                      "with this model. Only the default (1) value is supported.", "temperature",
                      "unsupported_value")
        for param in ("top_p", "logprobs", "top_logprobs"):
            if param in body:
                raise err(f"Unsupported parameter: '{param}' is not supported with this model "
                          "unless reasoning_effort is 'none'.", param, "unsupported_parameter")

    def reasoning_tokens(self, body: dict[str, Any]) -> int:
        return EFFORT_TOKENS.get(body.get("reasoning_effort", "medium"), 0)


rules.register(OpenAI())
rules.register(OpenAIReasoning())
