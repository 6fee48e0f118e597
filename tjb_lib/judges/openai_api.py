"""OpenAI and OpenAI-compatible judges (vLLM, DeepSeek, ...) through the official ``openai`` SDK.

A small adapter: one ``Request`` becomes one chat.completions call (temperature 0, JSON mode when
the request asks, logprobs when the params ask) and the reply becomes one ``Response`` with usage,
the returned model snapshot, label probabilities and raw metadata. The SDK's own retries are off
(``max_retries=0``) so that ``retry.RetryPolicy`` alone counts attempts. The API key is read from
the environment when the client is first needed and lives only inside the SDK client.
"""
from __future__ import annotations

import math
import os
import re
import threading
from typing import Any
from urllib.parse import urlsplit

from tjb_lib.judges.base import Judge
from tjb_lib.judges.replies import (at, count, failed_reply, name, part_text, read_body,
                                    reply_response, shape_error)
from tjb_lib.judges.retry import RetryPolicy, retried_response
from tjb_lib.records import LABELS, Request, Response, stable_hash

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "0.0.0.0")
LOCAL_PLACEHOLDER_KEY = "EMPTY"  # what vLLM accepts when it was started without --api-key

#: The params an OpenAI judge understands; anything else is a configuration error.
OPENAI_PARAMS = ("temperature", "top_p", "seed", "logprobs", "top_logprobs", "json_mode",
                 "max_tokens_param")

#: JSON keys whose value is the verdict label (PROTOCOL_NOTES: {"winner": "A | B | Tie", ...}).
LABEL_KEYS = ("winner", "verdict", "label")
_LABEL_VALUE = re.compile(r'"(?:%s)"\s*:\s*"?' % "|".join(LABEL_KEYS))


class MissingAPIKey(RuntimeError):
    """The environment variable that should hold a judge's API key is unset or empty."""


def read_api_key(env_var: str, judge_name: str, allow_placeholder: bool = False) -> str:
    """The key from ``env_var``; a local endpoint may go without one (vLLM takes "EMPTY")."""
    value = os.environ.get(env_var, "").strip()
    if value:
        return value
    if allow_placeholder:
        return LOCAL_PLACEHOLDER_KEY
    raise MissingAPIKey(
        f"judge {judge_name!r} needs an API key in the environment variable {env_var} "
        f"(it is unset or empty): export {env_var}=... before running, or use cached replay.")


def base_url_kind(base_url: str | None) -> str:
    """Which kind of endpoint a base URL points at: openai | deepseek | localhost | other."""
    if not base_url:
        return "openai"
    host = (urlsplit(base_url).hostname or "").lower()
    if host in LOCAL_HOSTS:
        return "localhost"
    if host == "openai.com" or host.endswith(".openai.com"):
        return "openai"
    if host == "deepseek.com" or host.endswith(".deepseek.com"):
        return "deepseek"
    return "other"


def base_url_host(base_url: str | None) -> str | None:
    """Host name only (no scheme, port, path or credentials) for the run metadata."""
    return (urlsplit(base_url).hostname or None) if base_url else None


def sdk_version(module_name: str) -> str | None:
    try:
        module = __import__(module_name)
    except ImportError:
        return None
    return getattr(module, "__version__", None)


def _normalise_label(token: str) -> str | None:
    """The label a single token spells, if any: "A", " B", '"Tie' -> A / B / Tie."""
    t = token.strip().strip('"').strip()
    if t in ("A", "B"):
        return t
    if t.lower() == "tie":
        return "Tie"
    return None


def label_probs_from_logprobs(content: list[dict[str, Any]] | None) -> tuple[
        dict[str, float] | None, int | None]:
    """P(A), P(B), P(Tie) from the top logprobs at the label position of the reply.

    The label position is the first token of the label value after a ``"winner":`` key when the
    reply is JSON, else the first non-blank token. Probabilities are exp(logprob) as returned,
    not renormalised; a label missing from the top list (or split over tokens) is absent.
    Returns (probs or None, token index or None).
    """
    if not content or not isinstance(content, list) or not all(isinstance(c, dict) for c in content):
        return None, None
    tokens = [c.get("token") if isinstance(c.get("token"), str) else "" for c in content]
    text = "".join(tokens)
    match = _LABEL_VALUE.search(text)
    index: int | None = None
    if match:
        offset = 0
        for i, tok in enumerate(tokens):
            if offset + len(tok) > match.end() and tok.strip().strip('"').strip():
                index = i
                break
            offset += len(tok)
    else:
        index = next((i for i, tok in enumerate(tokens) if tok.strip()), None)
    if index is None:
        return None, None
    probs: dict[str, float] = {}
    top = content[index].get("top_logprobs") or [
        {"token": tokens[index], "logprob": content[index].get("logprob")}]
    for alt in top if isinstance(top, list) else ():
        if not isinstance(alt, dict) or not isinstance(alt.get("token"), str):
            continue
        label = _normalise_label(alt["token"])
        logprob = alt.get("logprob")
        if label in LABELS and _is_logprob(logprob):
            probs[label] = probs.get(label, 0.0) + math.exp(logprob)
    return (probs or None), index


def _is_logprob(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value <= 0)


def completion_to_response(body: Any, want_label_probs: bool) -> Response:
    """A chat.completions reply body (the HTTP body decoded, or a batch output line) -> Response,
    whatever its shape (``replies``): no choice is a failure, content that is not text is an
    ok reply with no text and its body kept, so it is counted unparsed."""
    if not isinstance(body, dict):
        return reply_response(body, None, "the reply is not a JSON object")
    model = name(body.get("model"))
    choice = at(body, "choices", 0)
    if not isinstance(choice, dict):
        return failed_reply(body, "reply has no choices", model_returned=model,
                            meta={"id": body.get("id")})
    content = at(choice, "message", "content")
    text = part_text(content)
    label_probs, label_index = None, None
    if want_label_probs and text is not None:  # probabilities only of a label the reply wrote
        label_probs, label_index = label_probs_from_logprobs(at(choice, "logprobs", "content"))
    meta = {"id": body.get("id"), "system_fingerprint": body.get("system_fingerprint"),
            "finish_reason": choice.get("finish_reason")}
    if at(choice, "message", "refusal"):
        meta["refusal"] = at(choice, "message", "refusal")
    if label_index is not None:
        meta["label_token_index"] = label_index
    return reply_response(body, text, shape_error(content), label_probs=label_probs,
                          input_tokens=count(at(body, "usage", "prompt_tokens")),
                          output_tokens=count(at(body, "usage", "completion_tokens")),
                          model_returned=model, meta=meta)


class OpenAIJudge(Judge):
    """A judge behind the OpenAI chat.completions API or any OpenAI-compatible endpoint."""

    def __init__(self, name: str, model: str, base_url: str | None = None,
                 api_key_env: str = "OPENAI_API_KEY", params: dict[str, Any] | None = None,
                 max_concurrency: int = 8, timeout_s: float = 60.0, max_attempts: int = 5,
                 backend: str = "openai", retry: RetryPolicy | None = None):
        super().__init__(name, model, params, max_concurrency)
        unknown = sorted(set(self.params) - set(OPENAI_PARAMS))
        if unknown:
            raise ValueError(f"judge {name!r}: unknown params {unknown}; "
                             f"an OpenAI judge takes {list(OPENAI_PARAMS)}")
        self.params.setdefault("temperature", 0)
        self.base_url = base_url
        self.backend = "openai_compatible" if base_url and backend == "openai" else backend
        self.api_key_env = api_key_env
        self.timeout_s = timeout_s
        self.retry = retry or RetryPolicy(max_attempts=max_attempts)
        self._client: Any = None
        self._client_lock = threading.Lock()

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(name={self.name!r}, model={self.model!r}, "
                f"backend={self.backend!r}, base_url_kind={base_url_kind(self.base_url)!r})")

    def identity(self) -> dict[str, Any]:
        ident = super().identity()
        if self.base_url:
            ident["base_url_kind"] = base_url_kind(self.base_url)
        return ident

    def metadata(self) -> dict[str, Any]:
        return {**super().metadata(), "base_url_kind": base_url_kind(self.base_url),
                "base_url_host": base_url_host(self.base_url), "api_key_env": self.api_key_env,
                "timeout_s": self.timeout_s, "max_concurrency": self.max_concurrency,
                "retry": self.retry.describe(), "sdk": "openai",
                "sdk_version": sdk_version("openai")}

    @property
    def client(self) -> Any:
        """The SDK client, made on first use (that is when the key is read)."""
        with self._client_lock:
            if self._client is None:
                import openai

                key = read_api_key(self.api_key_env, self.name,
                                   allow_placeholder=base_url_kind(self.base_url) == "localhost")
                self._client = openai.OpenAI(api_key=key, base_url=self.base_url,
                                             timeout=self.timeout_s, max_retries=0)
            return self._client

    def _secrets(self) -> tuple[str, ...]:
        return (getattr(self._client, "api_key", "") or "",)

    def request_body(self, request: Request) -> dict[str, Any]:
        """The chat.completions body for one request (also the body of a batch line)."""
        p = self.params
        body: dict[str, Any] = {"model": self.model, "messages": request.chat()}
        temperature = p.get("temperature", request.temperature)
        if temperature is not None:  # None: the model takes no temperature (reasoning models)
            body["temperature"] = temperature
        body[p.get("max_tokens_param", "max_tokens")] = request.max_tokens
        if request.json_mode and p.get("json_mode", True):
            body["response_format"] = {"type": "json_object"}
        if p.get("logprobs"):
            body["logprobs"] = True
            body["top_logprobs"] = int(p.get("top_logprobs", 5))
        for k in ("top_p", "seed"):
            if k in p:
                body[k] = p[k]
        return body

    def parse_reply(self, body: Any) -> Response:
        return completion_to_response(body, want_label_probs=bool(self.params.get("logprobs")))

    def complete(self, request: Request) -> Response:
        body = self.request_body(request)
        client = self.client
        key = stable_hash({"judge": self.identity(), "request": request.to_dict()})
        return retried_response(
            lambda: read_body(client.chat.completions.with_raw_response.create(**body)),
            self.parse_reply, self.retry, key, self._secrets())
