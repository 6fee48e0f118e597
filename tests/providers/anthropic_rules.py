"""Anthropic's Messages API (and message batches) as the contract emulator enforces it, from
Anthropic's documentation (checked 2026-12-03; the versions 2026-12-04):
https://platform.claude.com/docs/en/api/versioning (every request names its anthropic-version;
2026-10-21 removed temperature, top_p and top_k, any of which is then a 400, refuses a document
block in an assistant message and citations on a user text block; 2023-06-01 keeps them),
https://platform.claude.com/docs/en/api/messages
(system top level, max_tokens required, roles user/assistant),
.../about-claude/models/migrating-to-claude-4 (temperature and top_p not both),
.../about-claude/models/migration-guide (no assistant prefill on Claude 4.6),
.../build-with-claude/prompt-caching (cache_control, at most 4 breakpoints, 1,024-token minimum
on Sonnet 4.6), https://platform.claude.com/docs/en/api/errors (error shape)."""
from __future__ import annotations

from typing import Any

import contract_rules as rules

CACHE_MIN = 1024  # Claude Sonnet 4.6
MAX_CACHE_BREAKPOINTS = 4
VERSIONS = ("2023-01-01", "2023-06-01", "2026-10-21")
NO_SAMPLING = "2026-10-21"  # the first version without temperature, top_p and top_k
SAMPLING = ("temperature", "top_p", "top_k")


class Anthropic(rules.Dialect):
    name = "anthropic"
    path = rules.MESSAGES
    models = None  # every model on the Messages API
    cache_min_tokens = CACHE_MIN

    @staticmethod
    def cache_breakpoints(body: dict[str, Any]) -> list[str]:
        return cache_breakpoints(body)

    def check_headers(self, headers: dict[str, str]) -> None:
        """Every call (batches too) carries a key and the API version: under 2023-06-01 as
        ``x-api-key``, the one header that version documents; under the SDK's own later version
        also as the bearer token the SDK 2.x sends."""
        version = headers.get("anthropic-version")
        bearer = (headers.get("authorization") or "").removeprefix("Bearer ").strip()
        if not (headers.get("x-api-key") or "").strip() and (version == "2023-06-01"
                                                             or not bearer):
            raise rules.anthropic_error("x-api-key header is required", 401,
                                        "authentication_error")
        if not version:
            raise rules.anthropic_error("anthropic-version: header is required")
        if version not in VERSIONS:
            raise rules.anthropic_error(f"anthropic-version: {version!r} is not a valid version")

    def error(self, message: str, param: str | None = None,
              code: str | None = None) -> rules.Violation:
        return rules.anthropic_error(message)

    def not_found(self, model: str) -> rules.Violation:
        return rules.anthropic_error(f"model: {model}", 404, "not_found_error")

    def check(self, body: dict[str, Any], headers: dict[str, str]) -> None:
        """One Messages API body (a live call, or one entry of a message batch) under the API
        version its request (or its batch's) named."""
        err = self.error
        if headers.get("anthropic-version", NO_SAMPLING) >= NO_SAMPLING:
            for param in SAMPLING:
                if param in body:
                    raise err(f"{param}: Extra inputs are not permitted")
            for i, m in enumerate(body.get("messages") or []):
                blocks = m.get("content") if isinstance(m, dict) else None
                for j, b in enumerate(blocks if isinstance(blocks, list) else []):
                    if not isinstance(b, dict):
                        continue
                    if m.get("role") == "assistant" and b.get("type") == "document":
                        raise err(f"messages.{i}.content.{j}: document blocks are not allowed "
                                  "in assistant messages")
                    if m.get("role") == "user" and b.get("citations"):
                        raise err(f"messages.{i}.content.{j}.citations: citations are not "
                                  "allowed on text blocks in user messages")
        if not isinstance(body.get("model"), str):
            raise err("model: Field required")
        if "max_tokens" not in body:
            raise err("max_tokens: Field required")
        if not isinstance(body["max_tokens"], int) or body["max_tokens"] < 1:
            raise err("max_tokens: Input should be a positive integer")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise err("messages: at least one message is required")
        for i, m in enumerate(messages):
            role = m.get("role") if isinstance(m, dict) else None
            if role == "system":
                raise err('messages: Unexpected role "system". The Messages API accepts a '
                          'top-level `system` parameter, not "system" as an input message role.')
            if role not in ("user", "assistant"):
                raise err(f"messages.{i}.role: Input should be 'user' or 'assistant'")
            blocks = m["content"] if isinstance(m.get("content"), list) else [m.get("content")]
            for j, b in enumerate(blocks):
                text = b if isinstance(b, str) else (b.get("text") if isinstance(b, dict) else None)
                if not isinstance(text, str) or not text.strip():
                    raise err(f"messages.{i}.content.{j}: text content blocks must be non-empty")
        if messages[-1].get("role") == "assistant" and "4-6" in body["model"]:
            raise err("This model does not support assistant message prefill. The conversation "
                      "must end with a user message.")
        temperature = body.get("temperature")
        if temperature is not None and not (isinstance(temperature, (int, float))
                                            and 0 <= temperature <= 1):
            raise err("temperature: Input should be less than or equal to 1")
        if temperature is not None and body.get("top_p") is not None:
            raise err("`temperature` and `top_p` cannot both be specified for this model. Please "
                      "use only one.")
        points = cache_breakpoints(body)
        if len(points) > MAX_CACHE_BREAKPOINTS:
            raise err(f"A maximum of {MAX_CACHE_BREAKPOINTS} blocks with cache_control may be "
                      f"provided. Found {len(points)}.")
        for b in _blocks(body):
            cc = b.get("cache_control")
            if cc is not None and (cc.get("type") != "ephemeral" or cc.get("ttl", "5m") not in
                                   ("5m", "1h")):
                raise err("cache_control: type must be 'ephemeral', ttl '5m' or '1h'")


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


rules.register(Anthropic())
