"""The one retry policy every API judge shares, so that attempts mean the same thing everywhere.

Rules (the paper's checklist: "record retry status"): 429 waits for the server's Retry-After
(seconds or an HTTP date, capped); 5xx, connection errors and timeouts back off exponentially with
full jitter; any other 4xx is final, and the ``FATAL_STATUSES`` (a request, key, account or model
the provider will never accept) stop the run with the provider's own message. After
``max_attempts`` the caller gets a ``GiveUp`` carrying the attempt count, which the judges turn
into ``Response(status="failed")``: never a verdict.
The jitter is seeded per call key and the sleep is injectable, so tests replay exactly and fast.
"""
from __future__ import annotations

import email.utils
import random
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, TypeVar

from tjb_lib.judges.base import FatalJudgeError
from tjb_lib.redaction import redact

T = TypeVar("T")

#: Exception class names (from openai, anthropic, httpx) that mean "the request never got an
#: answer": the connection failed or the client timeout fired. Matched by name across the MRO so
#: the policy does not depend on one SDK's class hierarchy.
_TRANSPORT_ERRORS = ("APIConnectionError", "APITimeoutError", "TimeoutException",
                     "TransportError", "ConnectError", "ReadTimeout", "ConnectionError",
                     "TimeoutError")

#: Exception class names that mean "nothing answered at that address": refused, or no such host.
_CONNECT_ERRORS = ("ConnectError", "ConnectionRefusedError", "gaierror")

#: Replies no retry or rerun fixes: a malformed or unsupported request (400, 422), a bad key
#: (401), an empty balance (402, DeepSeek), no access (403), no such model or route (404), and
#: a redirect (3xx), which is not followed: a key goes only to the host it is for.
FATAL_STATUSES = (300, 301, 302, 303, 307, 308, 400, 401, 402, 403, 404, 422)

@dataclass(frozen=True)
class RetryDecision:
    """How one failed attempt is classified: retry or not, and the server's wait hint."""

    retry: bool
    kind: str  # "rate_limit" | "server" | "connect" | "transport" | "client" | "other"
    status_code: int | None = None
    retry_after_s: float | None = None


@dataclass
class RetryPolicy:
    """Attempts, backoff and the sleep to use. ``sleep`` is injectable for fast tests."""

    max_attempts: int = 5
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0
    retry_after_cap_s: float = 120.0
    seed: int = 0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    now: Callable[[], datetime] = field(default=lambda: datetime.now(timezone.utc), repr=False)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError(f"RetryPolicy.max_attempts must be >= 1, got {self.max_attempts}")

    def describe(self) -> dict[str, Any]:
        """The retry rules as plain values, for outputs/metadata (the run metadata of each judge)."""
        return {"max_attempts": self.max_attempts, "base_delay_s": self.base_delay_s,
                "max_delay_s": self.max_delay_s, "retry_after_cap_s": self.retry_after_cap_s,
                "retry_on": ["429 (Retry-After)", "5xx", "connection error", "timeout"],
                "jitter": "full", "seed": self.seed}

    def backoff_s(self, attempt: int, rng: random.Random) -> float:
        """Full jitter: uniform in [0, min(max_delay, base * 2**(attempt-1))]."""
        ceiling = min(self.max_delay_s, self.base_delay_s * 2 ** (attempt - 1))
        return rng.uniform(0.0, ceiling)

    def delay_s(self, decision: RetryDecision, attempt: int, rng: random.Random) -> float:
        if decision.retry_after_s is not None:
            return min(max(decision.retry_after_s, 0.0), self.retry_after_cap_s)
        return self.backoff_s(attempt, rng)


class GiveUp(Exception):
    """The call failed for good: a final error or ``max_attempts`` used up."""

    def __init__(self, error: str, attempts: int, decision: RetryDecision,
                 history: list[dict[str, Any]]):
        super().__init__(error)
        self.error = error
        self.attempts = attempts
        self.decision = decision
        self.history = history


class ErrorBodyReply(Exception):
    """An HTTP 200 whose body is an error (or has no content): retried like a 5xx, and, when
    the attempts are used up, recorded as the failure it parsed to."""

    def __init__(self, response: Any):
        super().__init__(response.error or "an error body with HTTP 200")
        self.response = response


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds or an HTTP date; None if absent
    or unreadable (the caller then falls back to backoff)."""
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    now = now or datetime.now(timezone.utc)
    return max((when - now).total_seconds(), 0.0)


def _class_names(exc: BaseException) -> set[str]:
    return {c.__name__ for c in type(exc).__mro__}


def classify(exc: BaseException, now: datetime | None = None) -> RetryDecision:
    """Sort an SDK exception into retryable or final, reading the status and Retry-After."""
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        headers = getattr(getattr(exc, "response", None), "headers", None) or {}
        if status == 429:
            wait = None
            ms = headers.get("retry-after-ms")
            if ms is not None:
                try:
                    wait = max(float(ms) / 1000.0, 0.0)
                except ValueError:
                    wait = None
            if wait is None:
                wait = parse_retry_after(headers.get("retry-after"), now)
            return RetryDecision(True, "rate_limit", status, wait)
        if status >= 500:
            return RetryDecision(True, "server", status)
        return RetryDecision(False, "client", status)
    if isinstance(exc, ErrorBodyReply):
        return RetryDecision(True, "error_body")
    if _class_names(exc) & set(_TRANSPORT_ERRORS):
        connect = any(_class_names(e) & set(_CONNECT_ERRORS) for e in _causes(exc))
        return RetryDecision(True, "connect" if connect else "transport")
    return RetryDecision(False, "other")


def _causes(exc: BaseException) -> list[BaseException]:
    """``exc`` and what it was raised from, innermost last."""
    chain, seen = [], set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        chain.append(exc)
        exc = exc.__cause__ or exc.__context__
    return chain


def describe_error(exc: BaseException, secrets: tuple[str, ...] = ()) -> str:
    """One line naming the exception class and its message, keys removed."""
    msg = " ".join(str(exc).split())
    if len(msg) > 500:
        msg = msg[:500] + "..."
    return redact(f"{type(exc).__name__}: {msg}", secrets)


class UnreachableEndpoint(FatalJudgeError):
    """No attempt of a call reached a server: the address refuses connections or has no host."""


class ProviderRejected(FatalJudgeError):
    """The endpoint answered with one of the ``FATAL_STATUSES``; the message is the provider's."""

    def __init__(self, message: str, status_code: int):
        super().__init__(message)
        self.status_code = status_code


def provider_message(exc: BaseException | None, secrets: tuple[str, ...] = ()) -> str:
    """The provider's own error (type, message, param) from an SDK status error, keys removed.
    OpenAI's SDK keeps the inner ``error`` object as ``body``; Anthropic's keeps the whole body."""
    body = getattr(exc, "body", None)
    err = body.get("error", body) if isinstance(body, dict) else None
    if not isinstance(err, dict) or not isinstance(err.get("message"), str):
        return describe_error(exc, secrets) if exc is not None else "no message"
    text = " ".join(err["message"].split())
    if isinstance(err.get("type"), str):
        text = f"{err['type']}: {text}"
    if isinstance(err.get("param"), str):
        text += f" (param: {err['param']})"
    return redact(text[:1000], secrets)


def call_with_retry(fn: Callable[[], T], policy: RetryPolicy, key: str = "",
                    secrets: tuple[str, ...] = ()) -> tuple[T, int, list[dict[str, Any]]]:
    """Run ``fn`` under the policy. Returns (result, attempts, history of failed attempts);
    raises ``GiveUp`` when an error is final or the attempts are used up. ``key`` seeds the
    jitter so the same call always waits the same amounts, whatever the thread order."""
    rng = random.Random(f"{policy.seed}:{key}")
    history: list[dict[str, Any]] = []
    attempt = 0
    while True:
        attempt += 1
        try:
            return fn(), attempt, history
        except Exception as exc:  # noqa: BLE001 - every SDK error is classified below
            decision = classify(exc, policy.now())
            error = describe_error(exc, secrets)
            entry: dict[str, Any] = {"attempt": attempt, "kind": decision.kind,
                                     "status_code": decision.status_code, "error": error}
            if not decision.retry or attempt >= policy.max_attempts:
                history.append(entry)
                raise GiveUp(error, attempt, decision, history) from exc
            delay = policy.delay_s(decision, attempt, rng)
            entry["delay_s"] = round(delay, 6)
            history.append(entry)
            policy.sleep(delay)


def retried_response(send: Callable[[], Any], parse: Callable[[Any], "Response"],
                     policy: RetryPolicy, key: str, secrets: tuple[str, ...],
                     who: str = "the endpoint", where: str = "the endpoint") -> "Response":
    """One API call under the retry policy, as a Response: ``parse`` of what ``send`` returned,
    with its attempts and retry log, or, after the give-up limit, a recorded failure. One of the
    ``FATAL_STATUSES`` raises ``ProviderRejected`` instead, naming ``who`` answered it."""
    from tjb_lib.records import Response

    start = time.monotonic()

    def send_parsed() -> "Response":
        response = parse(send())
        if response.status == "failed":  # a 200 whose body is an error: retried as a 5xx is
            raise ErrorBodyReply(response)
        return response

    try:
        response, attempts, history = call_with_retry(send_parsed, policy, key, secrets)
    except GiveUp as g:
        if isinstance(g.__cause__, ErrorBodyReply):
            failed = g.__cause__.response
            failed.attempts, failed.latency_s = g.attempts, time.monotonic() - start
            failed.meta["retry_log"] = g.history
            return failed
        status = g.decision.status_code
        if status in FATAL_STATUSES:
            raise ProviderRejected(f"{who} refused the request with HTTP {status}: "
                                   f"{provider_message(g.__cause__, secrets)}", status) from None
        if all(h["kind"] == "connect" for h in g.history):
            root = _causes(g.__cause__)[-1]
            raise UnreachableEndpoint(
                f"nothing answers at {where}: {g.attempts} attempt(s) of {who} found no server "
                f"({redact(f'{type(root).__name__}: {root}', secrets)}); start the server or "
                "correct the base URL") from None
        return Response(status="failed", error=g.error, attempts=g.attempts,
                        latency_s=time.monotonic() - start,
                        meta={"retry_log": g.history, "error_kind": g.decision.kind,
                              "status_code": g.decision.status_code})
    response.attempts = attempts
    response.latency_s = time.monotonic() - start
    if history:
        response.meta["retry_log"] = history
    return response
