"""A provider contract emulator on 127.0.0.1: the OpenAI, Anthropic, DeepSeek and vLLM wire
formats, each request checked against its provider's documented rules, plus fault injection.

The API judges are tested with the real SDKs talking over HTTP to this server, never with a mocked
client. Every model call is first checked against the rules of the provider its path and model
name point to: the dialects each provider's tests register (``contract_rules``,
``tests/providers/<provider>_rules.py``: Anthropic for /v1/messages, OpenAI's reasoning-model rules
for gpt-5* and o-series, OpenAI's for other gpt-*, DeepSeek's for deepseek-*, vLLM's for any
other model); a request the provider would refuse gets the provider's own status and error body
(400 ``invalid_request_error`` with ``param``, 401, 404 for a model in ``missing_models``). Replies
follow the provider too: reasoning tokens (and empty content when the output cap is spent on
reasoning), prompt-cache usage (OpenAI's automatic cache from 1,024 tokens, DeepSeek's prefix cache,
Anthropic's ``cache_control`` breakpoints), logprobs, and TRACE stage-1 records when the prompt
asks for them, so every protocol runs end to end.

It answers a deterministic verdict computed from the prompt, records every request it receives
(path, headers, body and a hash of the body, so duplicate calls can be counted), and injects the
faults a long judging run meets: 429 with Retry-After, 5xx, a reply slower than the client
timeout, a dropped connection, replies that do not parse (truncated JSON, prose, an unknown
label), a reply whose ``content`` field has any shape (``Fault("content", content=5)``), a 200
whose body is not JSON or is cut off (``Fault("body", body='{"choi')``), a 200 that quotes the key
header it was sent in its reply and its model id (``Fault("echo")``) and usage that says anything
(``Fault("ok", usage=...)``).
It also implements, minimally but over HTTP, the OpenAI files + batches endpoints and Anthropic's
message batches, whose lines are checked against the same rules.

Faults come from a script (``server.script([...])``, consumed one per model call, in order) or
from a marker in the prompt (``[[fault:500]]``), which also reaches batch lines. The verdict is
``[[winner:A|B|Tie]]`` when the prompt carries that marker, else a hash of the prompt.
Bind address is 127.0.0.1 on a free port; nothing leaves the machine.
"""
from __future__ import annotations

import email.parser
import functools
import email.policy
import hashlib
import json
import math
import re
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import urlsplit

try:  # tests/ on sys.path (pytest's default rootdir-less import) or the repo root
    import contract_rules as rules
except ModuleNotFoundError:  # pragma: no cover - when tests/ becomes a package
    from tests import contract_rules as rules

#: the fake API key the tests put in the environment; joined at run time so that no
#: key-shaped literal sits in the repository
FAKE_KEY = "-".join(("sk", "test", "FAKEKEY1234567890abcdef"))
FAULT_KINDS = ("ok", "429", "500", "503", "529", "slow", "trickle", "drop", "truncated_json",
               "prose", "unknown_label", "auth_echo", "echo", "content", "body", "trickle_head",
               "gzip_bomb", "redirect")
MODEL_PATHS = ("/v1/chat/completions", "/v1/messages")
SNAPSHOT_SUFFIX = "-2025-01-01"  # the "returned snapshot" the server reports for any model
STAGE1_ASK = '{"A": {"final_answer"'  # how a TRACE stage-1 prompt shows the records it wants
PROSE = "Both answers have their merits and it is hard to say which one is preferable here."
_WINNER_MARK = re.compile(r"\[\[winner:(A|B|Tie)\]\]")
_FAULT_MARK = re.compile(r"\[\[fault:([a-z0-9_]+)\]\]")
_TOKEN = re.compile(r"\s*\w+|\s*[^\w\s]")


@dataclass
class Fault:
    """One injected fault. ``path`` limits it to requests whose path starts with that prefix."""

    kind: str
    retry_after: str | None = "1"   # 429 only: the Retry-After header (seconds or HTTP date)
    delay_s: float = 2.0            # slow: the wait before answering; trickle: the time the
                                    # reply's body takes, sent in 8 pieces; trickle_head: the
                                    # wait between bytes of the status line and headers
    path: str | None = None
    echo: str = ""                  # auth_echo, echo: filled with the key header the call sent
    content: Any = None             # content only: the reply's ``content`` field, any JSON value
    body: str = ""                  # body only: the whole 200 body, sent as it is
    usage: dict[str, Any] | None = None  # any reply: fields that replace the reply's usage

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {self.kind!r}; known: {FAULT_KINDS}")

    @classmethod
    def of(cls, spec: "str | dict[str, Any] | Fault") -> "Fault":
        if isinstance(spec, Fault):
            return spec
        if isinstance(spec, str):
            return cls(spec)
        return cls(**spec)


@dataclass
class Recorded:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: bytes
    json: Any
    body_hash: str
    fault: str
    at: float = field(default_factory=time.monotonic)


def hash_rule(prompt: str) -> str:
    """Default verdict: the ``[[winner:X]]`` marker if present, else a stable hash of the prompt."""
    m = _WINNER_MARK.search(prompt)
    if m:
        return m.group(1)
    return ("A", "B", "Tie")[int(hashlib.sha256(prompt.encode()).hexdigest(), 16) % 3]


def tokenize(text: str) -> list[str]:
    """A crude word/punctuation tokenizer (its pieces join back to the text, less trailing space)."""
    return _TOKEN.findall(text)


def _prompt_of(body: dict[str, Any]) -> str:
    """All the text a request shows the model: system prompt and message contents."""
    parts = []
    system = body.get("system")
    if isinstance(system, str):
        parts.append(system)
    elif isinstance(system, list):
        parts.extend(b.get("text", "") for b in system if isinstance(b, dict))
    for m in body.get("messages") or []:
        content = m.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(b.get("text", "") for b in content if isinstance(b, dict))
    return "\n".join(parts)


class FaultServer:
    """Start with ``.start()``, point an SDK at ``.openai_url`` / ``.anthropic_url``, script
    faults with ``.script([...])``, read ``.requests``; ``.stop()`` when done."""

    def __init__(self, verdict_rule: Callable[[str], str] = hash_rule, latency_s: float = 0.0,
                 label_probs: dict[str, float] | None = None, batch_polls_to_complete: int = 2,
                 host: str = "127.0.0.1"):
        self.verdict_rule = verdict_rule
        self.latency_s = latency_s
        # P(label) at the label token when logprobs are asked: the verdict gets "first".
        self.label_probs = label_probs or {"first": 0.8, "second": 0.15, "third": 0.04}
        self.batch_polls_to_complete = batch_polls_to_complete
        self.host = host
        self.requests: list[Recorded] = []
        self._faults: list[Fault] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.files: dict[str, bytes] = {}
        self.openai_batches: dict[str, dict[str, Any]] = {}
        self.anthropic_batches: dict[str, dict[str, Any]] = {}
        self.missing_models: set[str] = set()  # answered with the provider's 404
        # model calls wait here for one another before any is answered: calls made one at a
        # time never meet, and break the barrier when its guard runs out (a test of overlap)
        self.meet: threading.Barrier | None = None
        # OpenAI's enqueued-token limit: a batch file whose prompts hold more tokens fails
        # validation as a whole (status "failed", the reason in batch.errors, no files)
        self.batch_token_limit: int | None = None
        self.violations: list[dict[str, Any]] = []  # every refused request: status and body
        # a batch's result lines as written: (line number from 0, line) -> the line sent
        self.damage_result_line: Callable[[int, str], str] | None = None
        self._prompts: dict[str, list[tuple[str, ...]]] = {}  # earlier prompts, for caching
        self._anthropic_cache: set[str] = set()

    # ---- lifecycle -------------------------------------------------------------------------
    def start(self) -> "FaultServer":
        server = self

        class Handler(_Handler):
            fault_server = server

        self._httpd = _Server((self.host, 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> "FaultServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._httpd is not None, "FaultServer not started"
        return f"http://{self.host}:{self._httpd.server_address[1]}"

    @property
    def openai_url(self) -> str:
        return self.url + "/v1"

    @property
    def anthropic_url(self) -> str:
        return self.url

    def url_for(self, provider: Any) -> str:
        """Where this server answers as ``provider`` (a registered ``Provider``): the path of its
        own endpoint here, or an OpenAI-compatible server's /v1."""
        path = urlsplit(provider.base_url).path if provider.base_url else "/v1"
        return self.url + path.rstrip("/")

    # ---- test controls and views -------------------------------------------------------------
    def script(self, faults: list["str | dict[str, Any] | Fault"]) -> None:
        """Queue faults for the coming model calls (one per call, in order; then "ok")."""
        with self._lock:
            self._faults.extend(Fault.of(f) for f in faults)

    def pending_faults(self) -> int:
        with self._lock:
            return len(self._faults)

    def count(self, path: str | None = None) -> int:
        with self._lock:
            return sum(1 for r in self.requests if path is None or r.path == path)

    def counts_by_path(self) -> Counter:
        with self._lock:
            return Counter(r.path for r in self.requests)

    def counts_by_body(self) -> Counter:
        """How often each distinct body arrived: a retry resends the same body."""
        with self._lock:
            return Counter(r.body_hash for r in self.requests)

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self._faults.clear()

    # ---- internals used by the handler -------------------------------------------------------
    def _record(self, rec: Recorded) -> None:
        with self._lock:
            self.requests.append(rec)

    def _next_fault(self, path: str, prompt: str, model_call: bool) -> Fault:
        """The first scripted fault for this request (a fault without a path is for model
        calls only), else the prompt's ``[[fault:...]]`` marker, else "ok"."""
        with self._lock:
            for i, f in enumerate(self._faults):
                if (f.path is None and model_call) or (f.path and path.startswith(f.path)):
                    return self._faults.pop(i)
        m = _FAULT_MARK.search(prompt) if model_call else None
        return Fault(m.group(1)) if m else Fault("ok")

    def _content(self, fault: Fault, label: str) -> Any:
        if fault.kind == "content":
            return fault.content
        if fault.kind == "truncated_json":
            return '{"winner": "%s", "reason": "the first answer cites' % label
        if fault.kind == "prose":
            return PROSE
        if fault.kind == "unknown_label":
            return json.dumps({"winner": "C", "reason": "neither A nor B"})
        if fault.kind == "echo":  # a 200 whose reply quotes the key header it was sent
            return json.dumps({"winner": label, "reason": f"you sent {fault.echo}"})
        return json.dumps({"winner": label, "reason": "deterministic verdict from the test server"})

    def _logprobs(self, content: str, label: str, top_n: int) -> dict[str, Any]:
        others = [lab for lab in ("A", "B", "Tie") if lab != label]
        alts = [(label, self.label_probs["first"]), (others[0], self.label_probs["second"]),
                (others[1], self.label_probs["third"])]
        tokens = tokenize(content)
        m = re.search(r'"winner"\s*:\s*"', content)
        label_at = None
        if m:
            offset = 0
            for i, tok in enumerate(tokens):
                if offset + len(tok) > m.end():
                    label_at = i
                    break
                offset += len(tok)
        entries = []
        for i, tok in enumerate(tokens):
            if i == label_at:
                top = [{"token": t, "logprob": _log(p), "bytes": list(t.encode())}
                       for t, p in alts]
                lp = top[0]["logprob"]
            else:
                top = [{"token": tok, "logprob": -0.01, "bytes": list(tok.encode())},
                       {"token": " the", "logprob": -5.0, "bytes": list(b" the")}]
                lp = -0.01
            entries.append({"token": tok, "logprob": lp, "bytes": list(tok.encode()),
                            "top_logprobs": top[:top_n]})
        return {"content": entries, "refusal": None}

    # ---- the provider contracts ---------------------------------------------------------------
    def _refused(self, status: int, payload: Any) -> tuple[int, dict, Any]:
        with self._lock:
            self.violations.append({"status": status, "body": payload})
        return status, {}, payload

    def _check(self, dialect: "rules.Dialect", body: dict[str, Any],
               headers: dict[str, str]) -> tuple[int, dict, Any] | None:
        """The provider's refusal of ``body``, or None when it follows the rules."""
        try:
            dialect.check(body, headers)
        except rules.Violation as v:
            return self._refused(v.status, v.body)
        model = body.get("model")
        if model in self.missing_models:
            v = dialect.not_found(model)
            return self._refused(v.status, v.body)
        return None

    def _check_headers(self, path: str, headers: dict[str, str]) -> tuple[int, dict, Any] | None:
        """Every call carries what its provider's API needs (a key; Anthropic's version)."""
        try:
            rules.dialect_for(path, None).check_headers(headers)
        except rules.Violation as v:
            return self._refused(v.status, v.body)
        return None

    def _cached_prefix(self, dialect: "rules.Dialect", model: str,
                       tokens: tuple[str, ...]) -> int:
        """Prompt tokens served from the provider's automatic prefix cache, as its dialect
        caches the longest prefix shared with an earlier prompt to the same model."""
        with self._lock:
            seen = self._prompts.setdefault(f"{dialect.name}:{model}", [])
            common = max((_common_prefix(tokens, t) for t in seen), default=0)
            seen.append(tokens)
        return dialect.cached_tokens(common, len(tokens))

    def _text_reply(self, fault: Fault, prompt: str) -> tuple[str, Any]:
        """(label, content): a TRACE stage-1 prompt gets its records, any other a verdict."""
        label = self.verdict_rule(prompt)
        if fault.kind == "ok" and STAGE1_ASK in prompt:
            return label, stage1_records(prompt)
        return label, self._content(fault, label)

    def chat_completion(self, body: dict[str, Any], fault: Fault,
                        headers: dict[str, str] | None = None) -> tuple[int, dict, Any]:
        """(status, headers, payload) for one chat.completions body under one fault."""
        error = self._error(fault, "openai")
        if error:
            return error
        dialect = rules.dialect_for(rules.CHAT, body.get("model"))
        refused = self._check(dialect, body, headers or {})
        if refused:
            return refused
        prompt = _prompt_of(body)
        label, content = self._text_reply(fault, prompt)
        cap = body.get("max_completion_tokens") or body.get("max_tokens") or 10 ** 6
        thought = dialect.reasoning_tokens(body)
        finish = "stop"
        if thought >= cap:  # the whole output cap went on reasoning: no visible answer
            content, thought, finish = "", cap, "length"
        message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None,
                                   **dialect.message(thought)}
        choice: dict[str, Any] = {"index": 0, "finish_reason": finish, "message": message}
        if body.get("logprobs") and isinstance(content, str) and content:
            choice["logprobs"] = self._logprobs(content, label, int(body.get("top_logprobs") or 1))
        else:
            choice["logprobs"] = None
        tokens = tuple(tokenize(prompt))
        cached = self._cached_prefix(dialect, body.get("model", ""), tokens)
        n_out = thought + (_n_tokens(content) if content != "" else 0)
        usage: dict[str, Any] = {"prompt_tokens": len(tokens), "completion_tokens": n_out,
                                 "total_tokens": len(tokens) + n_out,
                                 **dialect.usage(len(tokens), cached, thought)}
        usage.update(fault.usage or {})
        return 200, {}, {
            "id": "chatcmpl-" + uuid.uuid4().hex[:12], "object": "chat.completion",
            "created": int(time.time()), "model": _model_id(body, fault),
            "system_fingerprint": "fp_faultserver", "choices": [choice], "usage": usage}

    def message(self, body: dict[str, Any], fault: Fault,
                headers: dict[str, str] | None = None) -> tuple[int, dict, Any]:
        """(status, headers, payload) for one Anthropic Messages body under one fault."""
        error = self._error(fault, "anthropic")
        if error:
            return error
        dialect = rules.dialect_for(rules.MESSAGES, body.get("model"))
        refused = self._check(dialect, body, headers or {})
        if refused:
            return refused
        prompt = _prompt_of(body)
        label, content = self._text_reply(fault, prompt)
        blocks = content if fault.kind == "content" else [{"type": "text", "text": content}]
        total = len(tokenize(prompt))
        read, written = self._anthropic_cached(dialect, body)
        return 200, {}, {
            "id": "msg_" + uuid.uuid4().hex[:12], "type": "message", "role": "assistant",
            "model": _model_id(body, fault),
            "content": blocks, "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": total - read - written, "output_tokens": _n_tokens(content),
                      "cache_read_input_tokens": read, "cache_creation_input_tokens": written,
                      **(fault.usage or {})}}

    def _anthropic_cached(self, dialect: "rules.Dialect",
                          body: dict[str, Any]) -> tuple[int, int]:
        """(tokens read from the cache, tokens written to it): the longest cached breakpoint is
        read; the last breakpoint long enough to cache is written when it is new."""
        points = [(p, len(tokenize(p))) for p in dialect.cache_breakpoints(body)]
        points = [(p, n) for p, n in points if n >= dialect.cache_min_tokens]
        with self._lock:
            read = max((n for p, n in points if p in self._anthropic_cache), default=0)
            written = 0
            if points and points[-1][0] not in self._anthropic_cache:
                written = points[-1][1] - read
            self._anthropic_cache.update(p for p, _ in points)
        return read, written

    def _error(self, fault: Fault, dialect: str) -> tuple[int, dict, Any] | None:
        codes = {"429": (429, "rate_limit_error", "Rate limit reached"),
                 "500": (500, "api_error", "Internal server error"),
                 "503": (503, "api_error", "Service unavailable"),
                 "529": (529, "overloaded_error", "Overloaded"),
                 "auth_echo": (401, "authentication_error", "")}
        if fault.kind not in codes:
            return None
        status, etype, message = codes[fault.kind]
        headers = {"retry-after": fault.retry_after} if status == 429 and fault.retry_after else {}
        if fault.kind == "auth_echo":
            message = "Incorrect API key provided: " + fault.echo
        if dialect == "anthropic":
            return status, headers, {"type": "error", "error": {"type": etype, "message": message}}
        return status, headers, {"error": {"message": message, "type": etype, "code": None}}

    # ---- batches -----------------------------------------------------------------------------
    def _advance_openai(self, batch: dict[str, Any]) -> None:
        batch["_polls"] += 1
        lines = [json.loads(x) for x in self.files[batch["input_file_id"]].decode().splitlines()
                 if x.strip()]
        if batch["status"] == "validating" and self.batch_token_limit is not None:
            enqueued = sum(len(tokenize(_prompt_of(item["body"]))) for item in lines)
            if enqueued > self.batch_token_limit:
                model = lines[0]["body"].get("model") if lines else None
                batch.update(status="failed", failed_at=int(time.time()), errors={
                    "object": "list", "data": [{
                        "code": "token_limit_exceeded", "param": None, "line": None,
                        "message": f"Enqueued token limit reached for {model} in organization "
                                   f"org-emulator. Limit: {self.batch_token_limit} enqueued "
                                   "tokens. Please try again once some in_progress batches "
                                   "have been completed."}]})
                return
        done = batch["status"] in ("completed", "failed")
        if not done and batch["_polls"] >= self.batch_polls_to_complete:
            out, err = [], []
            for item in lines:
                body = item["body"]
                fault = self._next_fault_for_batch(_prompt_of(body))
                status, _, payload = self.chat_completion(body, fault)
                row = {"id": "batch_req_" + uuid.uuid4().hex[:8], "custom_id": item["custom_id"],
                       "response": {"status_code": status, "request_id": uuid.uuid4().hex[:8],
                                    "body": payload}, "error": None}
                (out if status == 200 else err).append(json.dumps(row))
            out, err = self._damaged(out), self._damaged(err, len(out))
            batch["output_file_id"] = self._add_file("\n".join(out) + "\n") if out else None
            batch["error_file_id"] = self._add_file("\n".join(err) + "\n") if err else None
            batch["status"] = "completed"
            batch["completed_at"] = int(time.time())
            batch["request_counts"] = {"total": len(out) + len(err), "completed": len(out),
                                       "failed": len(err)}
        elif batch["status"] == "validating":
            batch["status"] = "in_progress"

    def _advance_anthropic(self, batch: dict[str, Any]) -> None:
        batch["_polls"] += 1
        ready = batch["_polls"] >= self.batch_polls_to_complete
        if batch["processing_status"] != "ended" and ready:
            results, counts = [], Counter()
            for item in batch["_requests"]:
                params = item["params"]
                fault = self._next_fault_for_batch(_prompt_of(params))
                status, _, payload = self.message(params, fault, batch["_headers"])
                if status == 200:
                    result = {"type": "succeeded", "message": payload}
                    counts["succeeded"] += 1
                else:
                    result = {"type": "errored", "error": payload}
                    counts["errored"] += 1
                results.append(json.dumps({"custom_id": item["custom_id"], "result": result}))
            batch["_results"] = "\n".join(self._damaged(results)) + "\n"
            batch["processing_status"] = "ended"
            batch["ended_at"] = _iso(time.time())
            batch["results_url"] = f"{self.url}/v1/messages/batches/{batch['id']}/results"
            batch["request_counts"] = {"processing": 0, "succeeded": counts["succeeded"],
                                       "errored": counts["errored"], "canceled": 0, "expired": 0}

    def _damaged(self, lines: list[str], first: int = 0) -> list[str]:
        damage = self.damage_result_line
        return [damage(first + i, x) for i, x in enumerate(lines)] if damage else lines

    def _next_fault_for_batch(self, prompt: str) -> Fault:
        """Batch lines take faults from prompt markers only (the script is for live calls)."""
        m = _FAULT_MARK.search(prompt)
        return Fault(m.group(1)) if m else Fault("ok")

    def _add_file(self, text: str) -> str:
        fid = "file-" + uuid.uuid4().hex[:12]
        self.files[fid] = text.encode()
        return fid


@functools.lru_cache(maxsize=1)
def _gzip_bomb() -> bytes:
    """100 MB of a JSON reply, gzipped (about 100 KB): made once, it takes seconds."""
    import gzip

    return gzip.compress(b'{"choices": [], "x": "' + b" " * (100 << 20) + b'"}', 9)


def _model_id(body: dict[str, Any], fault: Fault) -> str:
    """The snapshot a reply names; an echo quotes the key header there too."""
    model = body.get("model", "") + SNAPSHOT_SUFFIX
    return f"{model} ({fault.echo})" if fault.kind == "echo" else model


def _common_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def stage1_records(prompt: str) -> str:
    """A TRACE stage-1 reply: one fixed-field record per candidate, v2's six fields when the
    prompt asks for support facts, else v1's two."""
    if '"support_facts"' in prompt:
        record = {"final_answer": "City", "support_facts": ["a supporting fact"],
                  "reasoning_links": ["the fact gives the answer"],
                  "missing_or_weakened_support": [], "unsupported_claims": [],
                  "residual_uncertainty": "none"}
    else:
        record = {"final_answer": "City", "answer_supported": True}
    return json.dumps({"A": record, "B": dict(record)})


def _n_tokens(content: Any) -> int:
    return len(tokenize(content if isinstance(content, str) else json.dumps(content)))


def _log(p: float) -> float:
    return math.log(p)


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client killed mid-request (a stopped run) is no error of the server's."""
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # one reply is a few small writes: do not wait 40 ms on each
    fault_server: FaultServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet test output
        pass

    def _reply(self, status: int, payload: Any, headers: dict[str, str] | None = None,
               raw: bytes | None = None, content_type: str = "application/json",
               trickle_s: float = 0.0) -> None:
        """Send one reply; with ``trickle_s`` its body goes out in 8 pieces over that time, each
        piece sooner than a client's per-read timeout would notice."""
        data = raw if raw is not None else json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(data)))
            self.send_header("x-request-id", "req_" + uuid.uuid4().hex[:8])
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            if not trickle_s:
                self.wfile.write(data)
            step = max(1, -(-len(data) // 8))
            for i in range(0, len(data), step) if trickle_s else ():
                self.wfile.write(data[i:i + step])
                self.wfile.flush()
                if self.fault_server._stopping.wait(trickle_s / 8):
                    return
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout) before the slow reply came

    def _read(self) -> tuple[bytes, Any]:
        n = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(n) if n else b""
        ctype = self.headers.get("content-type") or ""
        if raw and ctype.startswith("application/json"):
            return raw, json.loads(raw)
        return raw, None

    def _handle(self) -> None:
        srv = self.fault_server
        path = self.path.split("?")[0]
        if not path.startswith("/v1/"):  # an endpoint without /v1 (DeepSeek's) posts at the root
            path = "/v1" + path
        raw, body = self._read()
        model_call = self.command == "POST" and path in MODEL_PATHS and isinstance(body, dict)
        fault = srv._next_fault(path, _prompt_of(body) if model_call else "", model_call)
        headers = {k.lower(): v for k, v in self.headers.items()}
        srv._record(Recorded(self.command, path, headers, raw, body,
                             hashlib.sha256(raw).hexdigest(), fault.kind))
        if not model_call:
            error = srv._error(fault, "anthropic" if path.startswith("/v1/messages") else "openai")
            if error:
                return self._reply(error[0], error[2], error[1])
            refused = srv._check_headers(path, headers)
            if refused:
                return self._reply(refused[0], refused[2])
            return self._batch_route(path, raw, body, headers)
        if srv.latency_s:
            srv._stopping.wait(srv.latency_s)
        if srv.meet is not None:
            srv.meet.wait()
        if fault.kind == "slow":
            srv._stopping.wait(fault.delay_s)
        if fault.kind == "drop":
            self.close_connection = True
            return
        if fault.kind in ("auth_echo", "echo"):
            fault.echo = self.headers.get("x-api-key") or self.headers.get("authorization", "")
        if fault.kind == "body":
            return self._reply(200, None, raw=fault.body.encode())
        if fault.kind in ("trickle_head", "gzip_bomb", "redirect"):
            return self._hostile_transport(fault)
        refused = srv._check_headers(path, headers)
        if refused and fault.kind == "ok":
            return self._reply(refused[0], refused[2])
        fn = srv.chat_completion if path == "/v1/chat/completions" else srv.message
        status, reply_headers, payload = fn(body, fault, headers)
        self._reply(status, payload, reply_headers,
                    trickle_s=fault.delay_s if fault.kind == "trickle" else 0.0)

    def _hostile_transport(self, fault: Fault) -> None:
        """A status line and headers a byte at a time, 100 MB of JSON sent as about 100 KB of
        gzip, or a redirect to another host."""
        try:
            if fault.kind == "trickle_head":
                head = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n" * 50
                for i in range(len(head)):
                    self.wfile.write(head[i:i + 1])
                    self.wfile.flush()
                    if self.fault_server._stopping.wait(fault.delay_s):
                        return
            elif fault.kind == "gzip_bomb":
                body = _gzip_bomb()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-encoding", "gzip")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            else:
                self.send_response(302)
                self.send_header("location", "http://elsewhere.invalid/v1/chat/completions")
                self.send_header("content-length", "0")
                self.end_headers()
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def _batch_route(self, path: str, raw: bytes, body: Any, headers: dict[str, str]) -> None:
        srv = self.fault_server
        now = int(time.time())
        m = self.command
        if m == "POST" and path == "/v1/files":
            fields = _multipart(self.headers.get("content-type", ""), raw)
            fid = srv._add_file(fields["file"].decode())
            return self._reply(200, {"id": fid, "object": "file", "bytes": len(fields["file"]),
                                     "created_at": now, "filename": "batch.jsonl",
                                     "purpose": fields.get("purpose", b"").decode(),
                                     "status": "processed"})
        got = re.fullmatch(r"/v1/files/([\w-]+)/content", path)
        if m == "GET" and got:
            if got.group(1) not in srv.files:
                return self._reply(404, {"error": {"message": "no such file", "type": "invalid"}})
            return self._reply(200, None, raw=srv.files[got.group(1)],
                               content_type="application/octet-stream")
        if m == "POST" and path == "/v1/batches":
            if body.get("input_file_id") not in srv.files:
                return self._reply(400, {"error": {"message": "unknown input_file_id",
                                                   "type": "invalid_request_error"}})
            bid = "batch_" + uuid.uuid4().hex[:12]
            batch = {"id": bid, "object": "batch", "endpoint": body["endpoint"], "errors": None,
                     "input_file_id": body["input_file_id"],
                     "completion_window": body["completion_window"], "status": "validating",
                     "output_file_id": None, "error_file_id": None, "created_at": now,
                     "request_counts": {"total": 0, "completed": 0, "failed": 0}, "_polls": 0}
            srv.openai_batches[bid] = batch
            return self._reply(200, _public(batch))
        got = re.fullmatch(r"/v1/batches/([\w-]+)", path)
        if m == "GET" and got and got.group(1) in srv.openai_batches:
            batch = srv.openai_batches[got.group(1)]
            srv._advance_openai(batch)
            return self._reply(200, _public(batch))
        if m == "POST" and path == "/v1/messages/batches":
            bid = "msgbatch_" + uuid.uuid4().hex[:12]
            batch = {"id": bid, "type": "message_batch", "processing_status": "in_progress",
                     "request_counts": {"processing": len(body["requests"]), "succeeded": 0,
                                        "errored": 0, "canceled": 0, "expired": 0},
                     "ended_at": None, "created_at": _iso(now), "expires_at": _iso(now + 86400),
                     "archived_at": None, "cancel_initiated_at": None, "results_url": None,
                     "_polls": 0, "_requests": body["requests"],
                     "_headers": headers}  # its lines follow the version it was created with
            srv.anthropic_batches[bid] = batch
            return self._reply(200, _public(batch))
        got = re.fullmatch(r"/v1/messages/batches/([\w-]+)(/results)?", path)
        if m == "GET" and got and got.group(1) in srv.anthropic_batches:
            batch = srv.anthropic_batches[got.group(1)]
            if got.group(2):
                return self._reply(200, None, raw=batch.get("_results", "").encode(),
                                   content_type="application/x-jsonl")
            srv._advance_anthropic(batch)
            return self._reply(200, _public(batch))
        return self._reply(404, {"error": {"message": f"no route {m} {path}", "type": "not_found"}})

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        self._handle()

    def do_GET(self) -> None:  # noqa: N802
        self._handle()


def _public(batch: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in batch.items() if not k.startswith("_")}


def _multipart(content_type: str, raw: bytes) -> dict[str, bytes]:
    """Form fields of a multipart/form-data body (the files upload)."""
    msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"content-type: " + content_type.encode() + b"\r\n\r\n" + raw)
    fields = {}
    for part in msg.iter_parts():
        name = part.get_param("name", header="content-disposition")
        fields[name] = part.get_payload(decode=True)
    return fields
