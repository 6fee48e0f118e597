"""DeepSeek's OpenAI-compatible Chat Completions as the contract emulator enforces it, from
DeepSeek's documentation (checked 2026-12-03): https://api-docs.deepseek.com/guides/json_mode
("json" in the prompt), https://api-docs.deepseek.com/guides/thinking_mode (thinking on by
default; no logprobs while thinking), https://api-docs.deepseek.com/guides/kv_cache (any repeated
prefix is cached; usage reports hit and miss tokens)."""
from __future__ import annotations

from typing import Any

import contract_rules as rules

THINKING_TOKENS = 128


def _thinking(body: dict[str, Any]) -> str:
    return (body.get("thinking") or {}).get("type", "enabled")


class DeepSeek(rules.Dialect):
    name = "deepseek"
    models = r"^deepseek"

    def check(self, body: dict[str, Any], headers: dict[str, str]) -> None:
        super().check(body, headers)
        fmt = body.get("response_format")
        if isinstance(fmt, dict) and fmt.get("type") not in ("text", "json_object"):
            raise self.error(f"This response_format type is unavailable now: "
                             f"{fmt.get('type')!r}", "response_format")
        thinking = _thinking(body)
        if thinking not in ("enabled", "disabled"):
            raise self.error(f"thinking.type must be 'enabled' or 'disabled', got {thinking!r}",
                             "thinking")
        if thinking == "enabled" and (body.get("logprobs") or "top_logprobs" in body):
            raise self.error("logprobs and top_logprobs are not supported in thinking mode",
                             "logprobs")

    def reasoning_tokens(self, body: dict[str, Any]) -> int:
        return 0 if _thinking(body) == "disabled" else THINKING_TOKENS

    def cached_tokens(self, shared: int, total: int) -> int:
        return shared

    def usage(self, prompt: int, cached: int, thought: int) -> dict[str, Any]:
        return {"prompt_cache_hit_tokens": cached, "prompt_cache_miss_tokens": prompt - cached,
                "completion_tokens_details": {"reasoning_tokens": thought}}

    def message(self, thought: int) -> dict[str, Any]:
        return {"reasoning_content": "Let me compare the two candidates step by step."} \
            if thought else {}


rules.register(DeepSeek())
