"""Anthropic judges through the official ``anthropic`` SDK (Messages API).

The Messages API takes the system prompt as its own field, so system turns are lifted out of the
message list; max_tokens comes from the request and temperature is 0 unless the params say
otherwise. As with the OpenAI judge, SDK retries are off and ``retry.RetryPolicy`` counts
attempts; the key is read from the environment only when the client is made.
"""
from __future__ import annotations

import threading
from typing import Any

from tjb_lib.judges.base import Judge
from tjb_lib.judges.openai_api import base_url_host, read_api_key, sdk_version
from tjb_lib.judges.replies import at, count, name, part_text, read_body, reply_response, shape_error
from tjb_lib.judges.retry import RetryPolicy, retried_response
from tjb_lib.records import Request, Response, stable_hash

ANTHROPIC_PARAMS = ("temperature", "top_p")


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
    its shape (``replies``): content that is not text blocks is an ok reply with no text and
    its body kept, so it is counted unparsed."""
    if not isinstance(body, dict):
        return reply_response(body, None, "the reply is not a JSON object")
    content = body.get("content")  # a list of blocks; a bare string is not the API's shape
    text = part_text(content) if isinstance(content, list) else None
    return reply_response(body, text, shape_error(content),
                          input_tokens=count(at(body, "usage", "input_tokens")),
                          output_tokens=count(at(body, "usage", "output_tokens")),
                          model_returned=name(body.get("model")),
                          meta={"id": body.get("id"), "stop_reason": body.get("stop_reason")})


class AnthropicJudge(Judge):
    """A judge behind Anthropic's Messages API."""

    backend = "anthropic"

    def __init__(self, name: str, model: str, api_key_env: str = "ANTHROPIC_API_KEY",
                 base_url: str | None = None, params: dict[str, Any] | None = None,
                 max_concurrency: int = 8, timeout_s: float = 60.0, max_attempts: int = 5,
                 retry: RetryPolicy | None = None):
        super().__init__(name, model, params, max_concurrency)
        unknown = sorted(set(self.params) - set(ANTHROPIC_PARAMS))
        if unknown:
            raise ValueError(f"judge {name!r}: unknown params {unknown}; "
                             f"an Anthropic judge takes {list(ANTHROPIC_PARAMS)}")
        self.params.setdefault("temperature", 0)
        self.api_key_env = api_key_env
        self.base_url = base_url
        self.timeout_s = timeout_s
        self.retry = retry or RetryPolicy(max_attempts=max_attempts)
        self._client: Any = None
        self._client_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, model={self.model!r})"

    def metadata(self) -> dict[str, Any]:
        return {**super().metadata(), "base_url_host": base_url_host(self.base_url),
                "api_key_env": self.api_key_env, "timeout_s": self.timeout_s,
                "max_concurrency": self.max_concurrency, "retry": self.retry.describe(),
                "sdk": "anthropic", "sdk_version": sdk_version("anthropic")}

    @property
    def client(self) -> Any:
        """The SDK client, made on first use (that is when the key is read)."""
        with self._client_lock:
            if self._client is None:
                import anthropic

                key = read_api_key(self.api_key_env, self.name)
                self._client = anthropic.Anthropic(api_key=key, base_url=self.base_url,
                                                   timeout=self.timeout_s, max_retries=0)
            return self._client

    def _secrets(self) -> tuple[str, ...]:
        return (getattr(self._client, "api_key", "") or "",)

    def request_body(self, request: Request) -> dict[str, Any]:
        """The Messages API body for one request (also the params of a batch entry)."""
        system, turns = split_system(request)
        body: dict[str, Any] = {"model": self.model, "max_tokens": request.max_tokens,
                                "messages": turns}
        if system is not None:
            body["system"] = system
        for k in ANTHROPIC_PARAMS:
            if self.params.get(k) is not None:
                body[k] = self.params[k]
        return body

    def parse_reply(self, body: Any) -> Response:
        return message_to_response(body)

    def complete(self, request: Request) -> Response:
        body = self.request_body(request)
        # This SDK version types only the fields it knows; sampling settings go as extra body.
        sampling = {k: body.pop(k) for k in ANTHROPIC_PARAMS if k in body}
        client = self.client
        key = stable_hash({"judge": self.identity(), "request": request.to_dict()})
        return retried_response(
            lambda: read_body(client.messages.with_raw_response.create(
                **body, extra_body=sampling or None)),
            self.parse_reply, self.retry, key, self._secrets())
