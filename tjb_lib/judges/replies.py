"""A provider's 200 reply of any shape becomes one ``Response``; none crashes, none is coerced.

Servers and the proxies in front of them send a ``content`` that is a number, a list of parts,
null, or a body that is not JSON or is cut off. The adapters read the text only from the shapes
the APIs document (a string, or the text parts of a list); anything else becomes an ``ok``
Response with no text, the reason in ``meta["reply_error"]`` and the body as received in
``meta["raw_body"]``. The parser then counts it unparsed, the store keeps the body for audit,
and a rerun replays it instead of paying for it again.
"""
from __future__ import annotations

import json
from typing import Any

from tjb_lib.records import Response

RAW_BODY_MAX_CHARS = 100_000  # a reply is at most a few thousand tokens; a runaway body is cut


def read_body(raw: Any) -> dict[str, Any] | str:
    """The JSON object of a raw SDK reply (``with_raw_response``), or, for any other body (not
    JSON, cut off, a JSON string or list), its text as received."""
    text = raw.http_response.text
    try:
        body = json.loads(text)
    except ValueError:
        return text
    return body if isinstance(body, dict) else text


def body_text(body: Any) -> str:
    """The body as text, for ``meta["raw_body"]``."""
    text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
    return text[:RAW_BODY_MAX_CHARS]


def part_text(content: Any) -> str | None:
    """The reply text: a string as it is, or the text parts of a list joined; None for any other
    shape (a number, null, parts whose text is not a string, no text part at all)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list) or not all(isinstance(p, dict) for p in content):
        return None
    texts = [p.get("text") for p in content if p.get("type") == "text"]
    if not texts or not all(isinstance(t, str) for t in texts):
        return None
    return "".join(texts)


def shape_error(content: Any) -> str:
    """Why ``content`` gave no text, in a few words for ``meta["reply_error"]``."""
    if content is None:
        return "the reply's content is null"
    if isinstance(content, list):
        return "the reply's content parts hold no text, or text that is not a string"
    return f"the reply's content is a {type(content).__name__}, not text"


def at(value: Any, *path: str | int) -> Any:
    """``value[path[0]][path[1]]...``, or None as soon as the shape differs."""
    for step in path:
        if isinstance(step, int):
            ok = isinstance(value, list) and -len(value) <= step < len(value)
        else:
            ok = isinstance(value, dict) and step in value
        if not ok:
            return None
        value = value[step]
    return value


def count(value: Any) -> int | None:
    """A token count as the API reports it, or None when it is not a count."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def name(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def reply_response(body: Any, text: str | None, why: str, **fields: Any) -> Response:
    """The Response of one 200 reply: its text, or, when ``text`` is None, no text and the
    body kept raw with ``why``."""
    meta = fields.pop("meta", {})
    if text is None:
        meta = {**meta, "reply_error": why, "raw_body": body_text(body)}
    return Response(status="ok", text=text, meta=meta, **fields)


def failed_reply(body: Any, why: str, **fields: Any) -> Response:
    """A 200 reply that carries no answer at all (no choices, no content, an error object): a
    failure, so a rerun tries the call again, with the provider's error, if any, and its body."""
    err = body.get("error") if isinstance(body, dict) else None
    if isinstance(err, dict) and isinstance(err.get("message"), str):
        kind = f"{err['type']}: " if isinstance(err.get("type"), str) else ""
        why = f"{why}: the body is an error ({kind}{' '.join(err['message'].split())[:500]})"
    meta = {**fields.pop("meta", {}), "raw_body": body_text(body)}
    return Response(status="failed", error=why, meta=meta, **fields)
