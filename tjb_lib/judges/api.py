"""What every judge behind an HTTP API shares: its endpoint and key, a lazily made SDK client,
the retry policy, the budget, and one ``complete`` path. A provider builds one from a spec
(``from_spec``) with its own endpoint, key variable and batch support.

The endpoint is checked when the judge is built (an unusable base URL, or a provider's key asked
to go to another host, is a ``FatalJudgeError`` before any call); the key is read only when the
first call needs a client, so replaying stored calls needs none. The SDK's own retries are off
(``max_retries=0``) so that ``retry.RetryPolicy`` alone counts attempts, and the key lives only
inside the SDK client.
"""
from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from tjb_lib.judges import endpoints
from tjb_lib.judges.base import Judge
from tjb_lib.judges.budget import Budget
from tjb_lib.judges.replies import read_body
from tjb_lib.judges.retry import RetryPolicy, retried_response
from tjb_lib.records import Request, Response, request_key

if TYPE_CHECKING:
    from tjb_lib.judges.provider import JudgeSpec, Provider


def sdk_version(module_name: str) -> str | None:
    try:
        module = __import__(module_name)
    except ImportError:
        return None
    return getattr(module, "__version__", None)


#: the most bytes of one reply's body read, after decompression (a verdict with logprobs is
#: tens of KB; 100 MB sent as 100 KB of gzip once reached the store whole)
MAX_BODY_BYTES = 16 << 20


def deadline_client(sdk: Any, timeout_s: float) -> Any:
    """The SDK's own HTTP client class, with a transport under which one call ends by
    ``timeout_s`` after it starts, status line and headers included (each trickled a byte at a
    time once took 72 s with a 2 s timeout): past the deadline the call raises ``ReadTimeout``,
    which the retry policy counts as a timeout, and a late reply is closed when it comes. The
    body is read uncompressed up to ``MAX_BODY_BYTES`` (a compressed one is inflated here,
    under the same cap), and redirects are not followed: a key goes only to the host it is
    for, so a 3xx is the endpoint's answer (``retry.FATAL_STATUSES``)."""
    import threading
    import zlib

    import httpx2

    class BodyStream(httpx2.SyncByteStream):
        def __init__(self, stream: Any, deadline: float, encoding: str):
            self.stream, self.deadline, self.read = stream, deadline, 0
            self.inflate = zlib.decompressobj(47) if encoding in ("gzip", "deflate") else None

        def _count(self, data: bytes) -> bytes:
            self.read += len(data)
            if self.read > MAX_BODY_BYTES:
                raise httpx2.DecodingError(f"the reply's body is past {MAX_BODY_BYTES} bytes")
            return data

        def __iter__(self):
            for piece in self.stream:
                if time.monotonic() > self.deadline:
                    raise httpx2.ReadTimeout(f"the reply took longer than {timeout_s} s")
                if self.inflate is None:
                    yield self._count(piece)
                    continue
                try:
                    data = self.inflate.decompress(piece, MAX_BODY_BYTES + 1 - self.read)
                except zlib.error as e:
                    raise httpx2.DecodingError(f"the reply's body does not inflate: {e}") from None
                yield self._count(data)
                if self.inflate.unconsumed_tail:
                    self._count(b"x")  # more than the cap is waiting: refused

        def close(self) -> None:
            self.stream.close()

    class DeadlineTransport(httpx2.HTTPTransport):
        def handle_request(self, request: Any) -> Any:
            deadline = time.monotonic() + timeout_s
            request.headers["accept-encoding"] = "gzip, deflate"  # what BodyStream inflates
            got: dict[str, Any] = {}
            lock, done = threading.Lock(), threading.Event()

            def send() -> None:
                try:
                    got["response"] = httpx2.HTTPTransport.handle_request(self, request)
                except BaseException as e:  # noqa: BLE001 - handed to the caller as it is
                    got["error"] = e
                with lock:
                    done.set()
                    late = got.get("abandoned") and "response" in got
                if late:
                    got["response"].close()

            threading.Thread(target=send, daemon=True).start()
            finished = done.wait(timeout_s)
            with lock:
                if not finished and not done.is_set():
                    got["abandoned"] = True
                    raise httpx2.ReadTimeout(f"no reply within {timeout_s} s (status line and "
                                             "headers included)")
            if "error" in got:
                raise got["error"]
            response = got["response"]
            encoding = response.headers.get("content-encoding", "").strip().lower()
            if encoding not in ("", "identity", "gzip", "deflate"):
                response.close()
                raise httpx2.DecodingError(f"the reply is {encoding!r}-encoded; asked for gzip")
            if encoding:
                del response.headers["content-encoding"]  # inflated here, under the cap
                response.headers.pop("content-length", None)
            response.stream = BodyStream(response.stream, deadline, encoding)
            return response

    return sdk.DefaultHttpxClient(transport=DeadlineTransport(), timeout=timeout_s,
                                  follow_redirects=False)


class APIJudge(Judge):
    """A judge whose calls go over HTTP through a provider SDK (see the subclasses)."""

    sdk = ""                        # the SDK's module name
    params_allowed: tuple[str, ...] = ()
    batch_api: Any = None           # the module that speaks this API's batches, if it has any

    def __init__(self, name: str, model: str, base_url: str, api_key_env: str | None = None,
                 params: dict[str, Any] | None = None, backend: str | None = None,
                 provider_key_env: str | None = None, batch: bool = True,
                 max_concurrency: int = 8, timeout_s: float = 60.0, max_attempts: int = 5,
                 retry: RetryPolicy | None = None, budget: Budget | None = None):
        super().__init__(name, model, params, max_concurrency)
        unknown = sorted(set(self.params) - set(self.params_allowed))
        if unknown:
            raise ValueError(f"judge {name!r}: unknown params {unknown}; "
                             f"{type(self).__name__} takes {list(self.params_allowed)}")
        self.params.setdefault("temperature", 0)  # the paper judges at temperature 0
        if backend:
            self.backend = backend
        self.base_url = endpoints.checked_url(base_url, name)
        self.api_key_env = api_key_env or endpoints.key_env_for(self.base_url, provider_key_env)
        allowed = endpoints.provider_hosts().get(self.api_key_env)
        if allowed is not None and endpoints.host(self.base_url) not in allowed:
            endpoints.api_key(self.api_key_env, self.base_url, name)  # raises, naming both
        if not batch:
            self.batch_api = None
        self.timeout_s = timeout_s
        self.retry = retry or RetryPolicy(max_attempts=max_attempts)
        self.budget = budget
        self._client: Any = None
        self._client_lock = threading.Lock()

    @classmethod
    def from_spec(cls, spec: "JudgeSpec", provider: "Provider", **overrides: Any) -> "APIJudge":
        """The judge ``spec`` describes, at the provider's endpoint unless the spec names
        another, with the budget ``--budget`` set unless ``overrides`` carry one."""
        budget = overrides.pop("budget", None) or Budget.from_env()
        return cls(spec.name, spec.model, base_url=spec.base_url or provider.base_url,
                   params={**spec.params, **overrides.pop("params", {})},
                   backend=provider.backend, provider_key_env=provider.key_env,
                   batch=provider.batch, budget=budget, **overrides)

    def identity(self) -> dict[str, Any]:
        """The endpoint called is part of it, so a reply from a proxy or a test server is never
        served as the provider's."""
        return {**super().identity(), "endpoint": endpoints.endpoint_id(self.base_url)}

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(name={self.name!r}, model={self.model!r}, "
                f"backend={self.backend!r}, endpoint={endpoints.endpoint_id(self.base_url)!r})")

    def metadata(self) -> dict[str, Any]:
        return {**super().metadata(), "endpoint_kind": endpoints.kind(self.base_url),
                "endpoint_host": endpoints.host(self.base_url), "api_key_env": self.api_key_env,
                "timeout_s": self.timeout_s, "max_concurrency": self.max_concurrency,
                "retry": self.retry.describe(), "sdk": self.sdk,
                "sdk_version": sdk_version(self.sdk)}

    @property
    def client(self) -> Any:
        """The SDK client, made on first use (that is when the key is read)."""
        with self._client_lock:
            if self._client is None:
                key = endpoints.api_key(self.api_key_env, self.base_url, self.name)
                self._client = self._make_client(key)
            return self._client

    def check_ready(self) -> None:
        endpoints.api_key(self.api_key_env, self.base_url, self.name)

    def _secrets(self) -> tuple[str, ...]:
        return (getattr(self._client, "api_key", "") or "",)

    # ---- what each provider does its own way -------------------------------------------------
    def _make_client(self, key: str) -> Any:
        raise NotImplementedError

    def request_body(self, request: Request) -> dict[str, Any]:
        """The body of one call (also the body of one batch line)."""
        raise NotImplementedError

    def _send(self, client: Any, body: dict[str, Any]) -> Any:
        """Send one body; returns the SDK's raw response."""
        raise NotImplementedError

    def parse_reply(self, body: Any) -> Response:
        raise NotImplementedError

    # ---- one call ------------------------------------------------------------------------------
    def complete(self, request: Request) -> Response:
        body = self.request_body(request)
        client = self.client
        key = request_key(self.identity(), request)
        who = f"{endpoints.host(self.base_url)} (judge {self.name!r}, model {self.model!r})"
        where = urlsplit(self.base_url).netloc.rsplit("@", 1)[-1]

        def send() -> Response:
            return retried_response(lambda: read_body(self._send(client, body)),
                                    self.parse_reply, self.retry, key, self._secrets(), who,
                                    where)

        if self.budget is None:
            return send()
        with self.budget.hold(self.model, request) as settle:
            response = send()
            settle(response)
        return response
