"""The providers' documented request rules, as the contract emulator enforces them.

Written from each provider's documentation, independently of the judges' own request building
(``tjb_lib/judges/catalog.py`` cites the same sources), so that a body the provider would refuse
fails a test here instead of failing 1,000 calls there. Every rule raises ``Violation`` carrying
the status and error body the provider itself sends. Sources, all checked 2026-12-03:

* OpenAI Chat Completions: https://platform.openai.com/docs/api-reference/chat/create
  (max_tokens is not compatible with reasoning models; max_completion_tokens counts reasoning
  tokens; top_logprobs 0-20 needs logprobs), https://developers.openai.com/api/docs/guides/reasoning (temperature != 1,
  top_p and logprobs only with reasoning_effort "none"), the structured-outputs guide (JSON mode
  needs "json" in a message), https://developers.openai.com/api/docs/guides/prompt-caching.
* Anthropic Messages: https://platform.claude.com/docs/en/api/messages (system top level,
  max_tokens required, roles user/assistant), .../about-claude/models/migrating-to-claude-4
  (temperature and top_p not both), .../about-claude/models/migration-guide (no assistant
  prefill on Claude 4.6), .../build-with-claude/prompt-caching (cache_control, at most 4
  breakpoints, 1,024-token minimum on Sonnet 4.6), https://platform.claude.com/docs/en/api/errors (error shape).
* DeepSeek: https://api-docs.deepseek.com/guides/json_mode ("json" in the prompt),
  https://api-docs.deepseek.com/guides/thinking_mode (thinking on by default; no logprobs while
  thinking), https://api-docs.deepseek.com/guides/kv_cache.
* vLLM: https://docs.vllm.ai/en/latest/features/structured_outputs/ (json_schema response format),
  top_logprobs capped by the server's --max-logprobs (default 20).

Where a documented default is model-specific and not stated (gpt-5.5's reasoning effort when none
is sent), the emulator assumes the stricter case: reasoning on.
"""
from __future__ import annotations

import re
from typing import Any

OPENAI_REASONING = re.compile(r"^(gpt-5|o[134])")
REASONING_EFFORTS = ("none", "low", "medium", "high", "xhigh")
OPENAI_CACHE_MIN, OPENAI_CACHE_STEP = 1024, 128
ANTHROPIC_CACHE_MIN = 1024  # Claude Sonnet 4.6
MAX_CACHE_BREAKPOINTS = 4
MAX_TOP_LOGPROBS = 20


class Violation(Exception):
    """A request the provider refuses: HTTP ``status`` and the provider's own error body."""

    def __init__(self, status: int, body: dict[str, Any]):
        super().__init__(str(body))
        self.status = status
        self.body = body


def dialect(path: str, model: Any) -> str:
    """Whose rules apply: anthropic | openai_reasoning | openai | deepseek | vllm."""
    if path.startswith("/v1/messages"):
        return "anthropic"
    model = model if isinstance(model, str) else ""
    if OPENAI_REASONING.match(model):
        return "openai_reasoning"
    if model.startswith("gpt-"):
        return "openai"
    if model.startswith("deepseek"):
        return "deepseek"
    return "vllm"


# ---- error bodies -----------------------------------------------------------------------------
def openai_error(message: str, param: str | None = None, code: str | None = None,
                 status: int = 400, etype: str = "invalid_request_error") -> Violation:
    return Violation(status, {"error": {"message": message, "type": etype, "param": param,
                                        "code": code}})


def anthropic_error(message: str, status: int = 400,
                    etype: str = "invalid_request_error") -> Violation:
    return Violation(status, {"type": "error", "error": {"type": etype, "message": message},
                              "request_id": "req_emulator"})


def vllm_error(message: str, status: int = 400) -> Violation:
    return Violation(status, {"error": {"message": message, "type": "BadRequestError",
                                        "param": None, "code": status}})


# ---- shared checks ----------------------------------------------------------------------------
def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [b.get("text", "") for b in content if isinstance(b, dict)]
    return []


def _mentions_json(body: dict[str, Any]) -> bool:
    texts = [t for m in body.get("messages") or [] if isinstance(m, dict)
             for t in _texts(m.get("content"))]
    return any("json" in t.lower() for t in texts)


def _check_chat_basics(body: dict[str, Any], err) -> None:
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise err("'messages' must be a non-empty array", "messages")
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise err("you must provide a model parameter", "model")
    top = body.get("top_logprobs")
    if top is not None:
        if not body.get("logprobs"):
            raise err("'top_logprobs' requires 'logprobs' to be true", "top_logprobs")
        if not isinstance(top, int) or not 0 <= top <= MAX_TOP_LOGPROBS:
            raise err(f"top_logprobs must be an integer from 0 to {MAX_TOP_LOGPROBS}",
                      "top_logprobs")
    fmt = body.get("response_format")
    if isinstance(fmt, dict) and fmt.get("type") == "json_object" and not _mentions_json(body):
        raise err("'messages' must contain the word 'json' in some form, to use "
                  "'response_format' of type 'json_object'.", "messages")
    if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
        schema = fmt.get("json_schema")
        if not isinstance(schema, dict) or not schema.get("name") or not isinstance(
                schema.get("schema"), dict):
            raise err("response_format json_schema needs a name and a schema",
                      "response_format.json_schema")


def check_openai(body: dict[str, Any], reasoning: bool) -> None:
    """OpenAI Chat Completions; ``reasoning`` for GPT-5.x and o-series models."""
    def err(message, param=None, code=None):
        return openai_error(message, param, code)

    _check_chat_basics(body, err)
    if not reasoning:
        return
    if "max_tokens" in body:
        raise err("Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                  "'max_completion_tokens' instead.", "max_tokens", "unsupported_parameter")
    effort = body.get("reasoning_effort", "medium")
    if effort not in REASONING_EFFORTS:
        raise err(f"Unsupported value: '{effort}' is not supported with the '{body['model']}' "
                  f"model. Supported values are: {', '.join(map(repr, REASONING_EFFORTS))}.",
                  "reasoning_effort", "unsupported_value")
    if effort == "none":
        return
    if "temperature" in body and body["temperature"] != 1:
        raise err(f"Unsupported value: 'temperature' does not support {body['temperature']} with "
                  "this model. Only the default (1) value is supported.", "temperature",
                  "unsupported_value")
    for param in ("top_p", "logprobs", "top_logprobs"):
        if param in body:
            raise err(f"Unsupported parameter: '{param}' is not supported with this model "
                      "unless reasoning_effort is 'none'.", param, "unsupported_parameter")


def check_deepseek(body: dict[str, Any]) -> None:
    """DeepSeek's chat completions: JSON Output and thinking mode rules."""
    def err(message, param=None, code="invalid_request_error"):
        return openai_error(message, param, code)

    _check_chat_basics(body, err)
    fmt = body.get("response_format")
    if isinstance(fmt, dict) and fmt.get("type") not in ("text", "json_object"):
        raise err(f"This response_format type is unavailable now: {fmt.get('type')!r}",
                  "response_format")
    thinking = (body.get("thinking") or {}).get("type", "enabled")
    if thinking not in ("enabled", "disabled"):
        raise err(f"thinking.type must be 'enabled' or 'disabled', got {thinking!r}", "thinking")
    if thinking == "enabled" and (body.get("logprobs") or "top_logprobs" in body):
        raise err("logprobs and top_logprobs are not supported in thinking mode", "logprobs")


def check_vllm(body: dict[str, Any]) -> None:
    _check_chat_basics(body, lambda message, param=None, code=None: vllm_error(message))


def check_anthropic_headers(headers: dict[str, str]) -> None:
    """Every Messages API call (batches too) carries a key, as x-api-key or (as the anthropic
    SDK 2.x sends it) a bearer token, and the API version."""
    bearer = (headers.get("authorization") or "").removeprefix("Bearer ").strip()
    if not (headers.get("x-api-key") or "").strip() and not bearer:
        raise anthropic_error("x-api-key header is required", 401, "authentication_error")
    if not headers.get("anthropic-version"):
        raise anthropic_error("anthropic-version: header is required")


def check_anthropic(body: dict[str, Any]) -> None:
    """One Messages API body (a live call, or one entry of a message batch)."""
    if not isinstance(body.get("model"), str):
        raise anthropic_error("model: Field required")
    if "max_tokens" not in body:
        raise anthropic_error("max_tokens: Field required")
    if not isinstance(body["max_tokens"], int) or body["max_tokens"] < 1:
        raise anthropic_error("max_tokens: Input should be a positive integer")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise anthropic_error("messages: at least one message is required")
    for i, m in enumerate(messages):
        role = m.get("role") if isinstance(m, dict) else None
        if role == "system":
            raise anthropic_error('messages: Unexpected role "system". The Messages API accepts a '
                                  'top-level `system` parameter, not "system" as an input message '
                                  'role.')
        if role not in ("user", "assistant"):
            raise anthropic_error(f"messages.{i}.role: Input should be 'user' or 'assistant'")
        blocks = m["content"] if isinstance(m.get("content"), list) else [m.get("content")]
        for j, b in enumerate(blocks):
            text = b if isinstance(b, str) else (b.get("text") if isinstance(b, dict) else None)
            if not isinstance(text, str) or not text.strip():
                raise anthropic_error(f"messages.{i}.content.{j}: text content blocks must be "
                                      "non-empty")
    if messages[-1].get("role") == "assistant" and "4-6" in body["model"]:
        raise anthropic_error("This model does not support assistant message prefill. The "
                              "conversation must end with a user message.")
    temperature = body.get("temperature")
    if temperature is not None and not (isinstance(temperature, (int, float))
                                        and 0 <= temperature <= 1):
        raise anthropic_error("temperature: Input should be less than or equal to 1")
    if temperature is not None and body.get("top_p") is not None:
        raise anthropic_error("`temperature` and `top_p` cannot both be specified for this model. "
                              "Please use only one.")
    if len(cache_breakpoints(body)) > MAX_CACHE_BREAKPOINTS:
        raise anthropic_error(f"A maximum of {MAX_CACHE_BREAKPOINTS} blocks with cache_control may "
                              f"be provided. Found {len(cache_breakpoints(body))}.")
    for b in _blocks(body):
        cc = b.get("cache_control")
        if cc is not None and (cc.get("type") != "ephemeral" or cc.get("ttl", "5m") not in
                               ("5m", "1h")):
            raise anthropic_error("cache_control: type must be 'ephemeral', ttl '5m' or '1h'")


def _blocks(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every content block in prompt order: system, then each message's."""
    system = body.get("system")
    out = [b for b in system if isinstance(b, dict)] if isinstance(system, list) else []
    for m in body.get("messages") or []:
        if isinstance(m, dict) and isinstance(m.get("content"), list):
            out.extend(b for b in m["content"] if isinstance(b, dict))
    return out


def cache_breakpoints(body: dict[str, Any]) -> list[str]:
    """The prompt text up to and including each block that carries cache_control, in order."""
    running, points = "", []
    system = body.get("system")
    parts: list[Any] = [system] if isinstance(system, str) else list(system or [])
    for m in body.get("messages") or []:
        if isinstance(m, dict):
            content = m.get("content")
            parts.extend(content if isinstance(content, list) else [content])
    for part in parts:
        if isinstance(part, str):
            running += part
        elif isinstance(part, dict):
            running += part.get("text", "") if isinstance(part.get("text"), str) else ""
            if part.get("cache_control") is not None:
                points.append(running)
    return points
