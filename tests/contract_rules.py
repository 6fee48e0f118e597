"""What the contract emulator shares across providers: the refusal a rule raises, the providers'
error bodies, the checks every chat-completions server makes, and the registry of dialects.

Each provider's own documented rules live with that provider's tests, in
``tests/providers/<provider>_rules.py`` (found and registered here), written from the provider's
documentation independently of the judges' own request building, so that a body the provider
would refuse fails a test here instead of failing 1,000 calls there. A new provider's test may
also register its dialect itself (``register``). Every rule raises ``Violation`` carrying the
status and error body the provider itself sends.

A request is answered in the dialect registered for its path whose ``models`` pattern matches its
model; a path's dialect without a pattern answers every other model.
"""
from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any

CHAT = "/v1/chat/completions"
MESSAGES = "/v1/messages"
MAX_TOP_LOGPROBS = 20
PROVIDER_RULES = Path(__file__).resolve().parent / "providers"


class Violation(Exception):
    """A request the provider refuses: HTTP ``status`` and the provider's own error body."""

    def __init__(self, status: int, body: dict[str, Any]):
        super().__init__(str(body))
        self.status = status
        self.body = body


# ---- error bodies -----------------------------------------------------------------------------
def openai_error(message: str, param: str | None = None, code: str | None = None,
                 status: int = 400, etype: str = "invalid_request_error") -> Violation:
    return Violation(status, {"error": {"message": message, "type": etype, "param": param,
                                        "code": code}})


def anthropic_error(message: str, status: int = 400,
                    etype: str = "invalid_request_error") -> Violation:
    return Violation(status, {"type": "error", "error": {"type": etype, "message": message},
                              "request_id": "req_emulator"})


# ---- dialects ---------------------------------------------------------------------------------
class Dialect:
    """One provider's wire rules and reply habits. Subclasses override what differs."""

    name = ""
    path = CHAT
    models: str | None = None  # a regex on the model; None: every model no other dialect takes

    def check(self, body: dict[str, Any], headers: dict[str, str]) -> None:
        """Raise ``Violation`` for a body (with its headers) the provider refuses."""
        check_chat_basics(body, self.error)

    def check_headers(self, headers: dict[str, str]) -> None:
        """Every call carries a key: a bearer token (a local server's placeholder counts)."""
        if not headers.get("authorization", "").removeprefix("Bearer ").strip():
            raise openai_error("You didn't provide an API key.", None, None, 401)

    def error(self, message: str, param: str | None = None,
              code: str | None = "invalid_request_error") -> Violation:
        return openai_error(message, param, code)

    def not_found(self, model: str) -> Violation:
        return openai_error(f"The model `{model}` does not exist or you do not have access to "
                            "it.", None, "model_not_found", 404)

    def reasoning_tokens(self, body: dict[str, Any]) -> int:
        """Output tokens spent thinking before the answer."""
        return 0

    def cached_tokens(self, shared: int, total: int) -> int:
        """Prompt tokens its cache serves, given the longest prefix shared with an earlier prompt
        of the same model and the prompt's length."""
        return 0

    def usage(self, prompt: int, cached: int, thought: int) -> dict[str, Any]:
        """Usage fields beside prompt_tokens, completion_tokens and total_tokens."""
        return {}

    def message(self, thought: int) -> dict[str, Any]:
        """Fields of the reply message beside role, content and refusal."""
        return {}


_DIALECTS: list[Dialect] = []


def register(dialect: Dialect) -> Dialect:
    """Add a dialect (a second one of the same name replaces the first)."""
    _DIALECTS[:] = [d for d in _DIALECTS if d.name != dialect.name] + [dialect]
    return dialect


def dialect_names() -> set[str]:
    """The names of the dialects registered now."""
    return {d.name for d in _DIALECTS}


def unregister(name: str) -> None:
    _DIALECTS[:] = [d for d in _DIALECTS if d.name != name]


def dialect_for(path: str, model: Any) -> Dialect:
    """The dialect that answers ``model`` at ``path`` (a batch path answers as its API)."""
    path = MESSAGES if path.startswith(MESSAGES) else CHAT
    model = model if isinstance(model, str) else ""
    mine = [d for d in _DIALECTS if d.path == path]
    named = [d for d in mine if d.models and re.search(d.models, model)]
    if len(named) > 1:
        raise AssertionError(f"model {model!r} matches dialects {[d.name for d in named]}")
    fallback = [d for d in mine if not d.models]
    return (named or fallback)[0]


def _load_provider_rules() -> None:
    """Import every ``tests/providers/*_rules.py`` once: each registers its dialects."""
    if str(PROVIDER_RULES) not in sys.path:
        sys.path.insert(0, str(PROVIDER_RULES))
    for module in sorted(PROVIDER_RULES.glob("*_rules.py")):
        importlib.import_module(module.stem)


# ---- checks every chat-completions server makes ----------------------------------------------
def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [b.get("text", "") for b in content if isinstance(b, dict)]
    return []


def mentions_json(body: dict[str, Any]) -> bool:
    texts = [t for m in body.get("messages") or [] if isinstance(m, dict)
             for t in _texts(m.get("content"))]
    return any("json" in t.lower() for t in texts)


def check_chat_basics(body: dict[str, Any], err) -> None:
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
    if isinstance(fmt, dict) and fmt.get("type") == "json_object" and not mentions_json(body):
        raise err("'messages' must contain the word 'json' in some form, to use "
                  "'response_format' of type 'json_object'.", "messages")
    if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
        schema = fmt.get("json_schema")
        if not isinstance(schema, dict) or not schema.get("name") or not isinstance(
                schema.get("schema"), dict):
            raise err("response_format json_schema needs a name and a schema",
                      "response_format.json_schema")


_load_provider_rules()
