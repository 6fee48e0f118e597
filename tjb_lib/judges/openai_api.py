"""OpenAI and OpenAI-compatible judges (DeepSeek, vLLM, ...) through the official ``openai`` SDK.

One ``Request`` becomes one chat.completions body built from the judge's params, which each
provider module sets to what the provider documents (its ``rules``, with sources and dates):
the output cap under ``max_tokens`` or ``max_completion_tokens``, ``reasoning_effort`` for OpenAI's
reasoning models, DeepSeek's ``thinking`` switch, JSON mode (or a JSON schema that constrains the
verdict label), and logprobs for P(A), P(B), P(Tie). The reply becomes one ``Response`` with its
usage (cached input and reasoning tokens too), the returned model snapshot, label probabilities
and raw metadata.
"""
from __future__ import annotations

import math
import re
from typing import Any

from tjb_lib.judges import openai_batch
from tjb_lib.judges.api import APIJudge, deadline_client
from tjb_lib.judges.replies import (at, count, failed_reply, name, part_text, reply_response,
                                    shape_error)
from tjb_lib.records import LABELS, Request, Response

#: The params an OpenAI judge understands; anything else is a configuration error.
OPENAI_PARAMS = ("temperature", "top_p", "seed", "logprobs", "top_logprobs", "json_mode",
                 "max_tokens_param", "reasoning_effort", "thinking", "label_schema")
#: Label probabilities from the top logprobs at the label position of the reply.
LOGPROBS = {"logprobs": True, "top_logprobs": 5}
#: Body fields the SDK does not type; they travel as extra body (DeepSeek's thinking switch).
EXTRA_BODY = ("thinking",)
#: The verdict as a JSON schema: the label can only be A, B or Tie (structured outputs).
VERDICT_SCHEMA = {
    "name": "verdict", "strict": True,
    "schema": {"type": "object", "additionalProperties": False, "required": ["winner", "reason"],
               "properties": {"winner": {"type": "string", "enum": list(LABELS)},
                              "reason": {"type": "string"}}},
}

#: JSON keys whose value is the verdict label (the paper asks for {"winner": "A|B|Tie", ...}).
LABEL_KEYS = ("winner", "verdict", "label")
_LABEL_VALUE = re.compile(r'"(?:%s)"\s*:\s*"?' % "|".join(LABEL_KEYS))


def _normalise_label(token: str) -> str | None:
    """The label a single token spells or begins, if any: "A", " B", '"Tie' -> A / B / Tie, and
    "T" or "Ti" -> Tie, since tokenizers that split "Tie" (SmolLM2's does) start it that way and
    no other label starts with a T."""
    t = token.strip().strip('"').strip()
    if t in ("A", "B"):
        return t
    if t and "tie".startswith(t.lower()):
        return "Tie"
    return None


def label_probs_from_logprobs(content: list[dict[str, Any]] | None) -> tuple[
        dict[str, float] | None, int | None]:
    """P(A), P(B), P(Tie) from the top logprobs at the label position of the reply.

    The label position is the first token of the label value after a ``"winner":`` key when the
    reply is JSON, else the first non-blank token. Probabilities are exp(logprob) as returned,
    not renormalised; a label missing from the top list is absent.
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
                          model_returned=model, meta=meta, **chat_usage(body))


def chat_usage(body: dict[str, Any]) -> dict[str, int | None]:
    """Token counts of a chat.completions reply. ``prompt_tokens`` include the cached ones:
    OpenAI reports them as ``prompt_tokens_details.cached_tokens``, DeepSeek as
    ``prompt_cache_hit_tokens``; reasoning tokens (inside ``completion_tokens``) come as
    ``completion_tokens_details.reasoning_tokens``."""
    cached = count(at(body, "usage", "prompt_tokens_details", "cached_tokens"))
    if cached is None:
        cached = count(at(body, "usage", "prompt_cache_hit_tokens"))
    return {"input_tokens": count(at(body, "usage", "prompt_tokens")),
            "output_tokens": count(at(body, "usage", "completion_tokens")),
            "cached_input_tokens": cached,
            "reasoning_tokens": count(at(body, "usage", "completion_tokens_details",
                                         "reasoning_tokens"))}


class OpenAIJudge(APIJudge):
    """A judge behind the OpenAI chat.completions API or any OpenAI-compatible endpoint."""

    backend = "openai"
    sdk = "openai"
    params_allowed = OPENAI_PARAMS
    batch_api = openai_batch

    def _make_client(self, key: str) -> Any:
        import openai

        return openai.OpenAI(api_key=key, base_url=self.base_url, timeout=self.timeout_s,
                             max_retries=0, http_client=deadline_client(openai, self.timeout_s))

    def request_body(self, request: Request) -> dict[str, Any]:
        """The chat.completions body for one request (also the body of a batch line)."""
        p = self.params
        body: dict[str, Any] = {"model": self.model, "messages": request.chat()}
        temperature = p.get("temperature", request.temperature)
        if temperature is not None:  # None: the model takes no temperature
            body["temperature"] = temperature
        body[p.get("max_tokens_param", "max_tokens")] = request.max_tokens
        if p.get("reasoning_effort") is not None:
            body["reasoning_effort"] = p["reasoning_effort"]
        if p.get("thinking") is not None:
            body["thinking"] = {"type": p["thinking"]}
        if request.json_mode and p.get("json_mode", True):
            if p.get("label_schema") and request.kind == "verdict":
                body["response_format"] = {"type": "json_schema", "json_schema": VERDICT_SCHEMA}
            else:
                body["response_format"] = {"type": "json_object"}
        if p.get("logprobs"):
            body["logprobs"] = True
            body["top_logprobs"] = int(p.get("top_logprobs", 5))
        for k in ("top_p", "seed"):
            if k in p:
                body[k] = p[k]
        return body

    def _send(self, client: Any, body: dict[str, Any]) -> Any:
        typed = {k: v for k, v in body.items() if k not in EXTRA_BODY}
        extra = {k: body[k] for k in EXTRA_BODY if k in body}
        return client.chat.completions.with_raw_response.create(**typed,
                                                                extra_body=extra or None)

    def parse_reply(self, body: Any) -> Response:
        return completion_to_response(body, want_label_probs=bool(self.params.get("logprobs")))
