"""Anthropic judges through the official ``anthropic`` SDK (Messages API).

The Messages API takes the system prompt as its own top-level field, so system turns are lifted
out of the message list; ``max_tokens`` is required and comes from the request; temperature is
sent without ``top_p`` (Sonnet 4.5 and later refuse both), under the API version that still
takes it (``API_VERSION``). The shared instruction prefix of each prompt template is marked
with ``cache_control`` so that Anthropic can serve it from its prompt cache (it does so only for
prefixes of at least 1,024 tokens on Sonnet 4.6; shorter ones are billed normally, with no
error). Usage is read with its cache reads and writes and thinking
tokens. ``providers/anthropic.py`` cites the documented rules and when they were checked.
"""
from __future__ import annotations

from typing import Any

from tjb_lib.judges import anthropic_batch
from tjb_lib.judges.api import APIJudge, deadline_client
from tjb_lib.judges.replies import (at, count, failed_reply, name, part_text, reply_response,
                                    shape_error)
from tjb_lib.protocols.templates import instruction_prefix
from tjb_lib.records import Request, Response

#: The Messages API version every call names. The anthropic SDK pinned here (2.16.0) sends
#: 2026-10-21 by default (``anthropic._constants.ANTHROPIC_API_VERSION``) and has no temperature,
#: top_p or top_k in ``messages.create``; under that version any of them is a 400 ("Versions",
#: https://platform.claude.com/docs/en/api/versioning, and "Migrating to API version
#: 2026-10-21", .../api/migration-2026-10-21; both read 2026-12-04, the version dated 2026-10-21).
#: The paper judges at temperature 0, which 2023-06-01 still takes (within a version its input
#: parameters are kept), so the calls pin 2023-06-01 and send temperature 0 as the paper did;
#: the run metadata records the version (``api_version``).
API_VERSION = "2023-06-01"
ANTHROPIC_PARAMS = ("temperature", "top_p", "cache_prefix")
SAMPLING = ("temperature", "top_p")  # untyped by this SDK version: sent as extra body
CACHE_CONTROL = {"type": "ephemeral"}  # the 5-minute cache


def split_system(request: Request) -> tuple[str | None, list[dict[str, str]]]:
    """(system prompt, user/assistant turns): the Messages API keeps them apart."""
    system = [c for r, c in request.messages if r == "system"]
    turns = [{"role": r, "content": c} for r, c in request.messages if r != "system"]
    bad = sorted({t["role"] for t in turns} - {"user", "assistant"})
    if bad:
        raise ValueError(f"request {request.template!r}: roles {bad} are not allowed by the "
                         "Messages API (only system, user, assistant)")
    if not turns:
        raise ValueError(f"request {request.template!r}: no user message to send")
    return ("\n\n".join(system) if system else None), turns


def message_to_response(body: Any) -> Response:
    """A Messages API reply body (the HTTP body decoded, or a batch result) -> Response, whatever
    its shape (``replies``): no content at all (an error body sent with HTTP 200) is a failure,
    as a chat completion with no choices is; content that is not text blocks is an ok reply
    with no text and its body kept, so it is counted unparsed."""
    if not isinstance(body, dict):
        return reply_response(body, None, "the reply is not a JSON object")
    if body.get("type") == "error" or "content" not in body:
        return failed_reply(body, "reply has no content", model_returned=name(body.get("model")),
                            meta={"id": body.get("id")})
    content = body.get("content")  # a list of blocks; a bare string is not the API's shape
    text = part_text(content) if isinstance(content, list) else None
    return reply_response(body, text, shape_error(content), model_returned=name(body.get("model")),
                          meta={"id": body.get("id"), "stop_reason": body.get("stop_reason")},
                          **message_usage(body))


def message_usage(body: dict[str, Any]) -> dict[str, int | None]:
    """Token counts of a Messages reply, input as the total sent: Anthropic's ``input_tokens``
    leave out the ``cache_read_input_tokens`` and ``cache_creation_input_tokens``."""
    fresh = count(at(body, "usage", "input_tokens"))
    read = count(at(body, "usage", "cache_read_input_tokens"))
    written = count(at(body, "usage", "cache_creation_input_tokens"))
    return {"input_tokens": None if fresh is None else fresh + (read or 0) + (written or 0),
            "output_tokens": count(at(body, "usage", "output_tokens")),
            "cached_input_tokens": read, "cache_write_tokens": written,
            "reasoning_tokens": count(at(body, "usage", "output_tokens_details",
                                         "thinking_tokens"))}


def mark_cached_prefix(turns: list[dict[str, Any]], prefix: str | None) -> list[dict[str, Any]]:
    """The turns with the first user message split at ``prefix`` into two text blocks, the first
    carrying ``cache_control``; unchanged when the message does not start with the prefix."""
    if not prefix or not turns or turns[0]["role"] != "user":
        return turns
    text = turns[0]["content"]
    if not isinstance(text, str) or not text.startswith(prefix) or len(text) == len(prefix):
        return turns
    blocks = [{"type": "text", "text": prefix, "cache_control": CACHE_CONTROL},
              {"type": "text", "text": text[len(prefix):]}]
    return [{"role": "user", "content": blocks}, *turns[1:]]


class AnthropicJudge(APIJudge):
    """A judge behind Anthropic's Messages API."""

    backend = "anthropic"
    sdk = "anthropic"
    params_allowed = ANTHROPIC_PARAMS
    batch_api = anthropic_batch

    def __init__(self, name: str, model: str, base_url: str, **kwargs: Any):
        super().__init__(name, model, base_url, **kwargs)
        if all(self.params.get(k) is not None for k in SAMPLING):
            raise ValueError(f"judge {name!r}: give temperature or top_p, not both (the Messages "
                             "API refuses both for Claude Sonnet 4.5 and later)")

    def _make_client(self, key: str) -> Any:
        import anthropic

        # API version 2023-06-01 documents the key as ``x-api-key``; the SDK (2.x) would send
        # it as a bearer token, so that header is sent in its place
        return anthropic.Anthropic(api_key=key, base_url=self.base_url, timeout=self.timeout_s,
                                   max_retries=0,
                                   http_client=deadline_client(anthropic, self.timeout_s),
                                   default_headers={"anthropic-version": API_VERSION,
                                                    "x-api-key": key,
                                                    "Authorization": anthropic.Omit()})

    def metadata(self) -> dict[str, Any]:
        return {**super().metadata(), "api_version": API_VERSION}

    def request_body(self, request: Request) -> dict[str, Any]:
        """The Messages API body for one request (also the params of a batch entry)."""
        system, turns = split_system(request)
        if self.params.get("cache_prefix"):
            turns = mark_cached_prefix(turns, instruction_prefix(request.template))
        body: dict[str, Any] = {"model": self.model, "max_tokens": request.max_tokens,
                                "messages": turns}
        if system is not None:
            body["system"] = system
        for k in SAMPLING:
            if self.params.get(k) is not None:
                body[k] = self.params[k]
        return body

    def _send(self, client: Any, body: dict[str, Any]) -> Any:
        typed = {k: v for k, v in body.items() if k not in SAMPLING}
        sampling = {k: body[k] for k in SAMPLING if k in body}
        return client.messages.with_raw_response.create(**typed, extra_body=sampling or None)

    def parse_reply(self, body: Any) -> Response:
        return message_to_response(body)
