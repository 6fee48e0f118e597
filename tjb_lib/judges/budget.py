"""A spending limit for judge calls: ``--budget USD`` on ``judge`` and ``reproduce``.

Before each call an API judge reserves the most the call can cost at list price (every input
token at the fresh-input rate, with input counted as one token per 1.5 bytes of UTF-8, more than
a BPE tokenizer counts even for number-heavy FinQA text, plus the full output cap); when the
reserved and spent dollars would pass the limit, the call waits while calls of this process are in flight (their
reservations are released as they finish), and when it still does not fit it is not made:
``BudgetExceeded`` stops the run (a ``FatalJudgeError``: one line, non-zero exit, nothing
recorded as failed). After the call the reservation is replaced by what the reply's usage costs,
that usage held to what the call could use (``bounded``) and never below our own count of the
prompt and of the reply's text (``counted``): a server cannot make a call cost less than what it
visibly read and wrote, nor more than its reservation, and an ok reply that reports no usage
(or zero prompt tokens) counts as its reservation (``call_usd``, the one rule for a real-time call and a batch line
alike). Calls answered from the store cost nothing and are never reserved.

The limit and a ledger file travel in the environment (``TJB_BUDGET_USD``,
``TJB_BUDGET_LEDGER``), so the notebooks that ``reproduce`` runs in separate kernels share one
budget: each process appends what it spent to the ledger and reads what the others spent.
"""
from __future__ import annotations

import dataclasses
import fcntl
import math
import os
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator

from tjb_lib.judges.base import FatalJudgeError
from tjb_lib.judges.prices import call_cost, rates
from tjb_lib.records import Request, Response
from tjb_lib.judges.tokens import count_request, count_text

BUDGET_ENV = "TJB_BUDGET_USD"
LEDGER_ENV = "TJB_BUDGET_LEDGER"
BYTES_PER_TOKEN_FLOOR = 1.5  # an upper bound: number-heavy FinQA text reaches 1.9 bytes a token
MESSAGE_OVERHEAD_TOKENS = 8


class BudgetExceeded(FatalJudgeError):
    """The next call could take the spend past the budget; it was not made."""


def worst_case_tokens(request: Request) -> tuple[int, int]:
    """(input, output) tokens one request can cost at most."""
    size = sum(len(content.encode("utf-8")) for _, content in request.messages)
    n_in = math.ceil(size / BYTES_PER_TOKEN_FLOOR) + MESSAGE_OVERHEAD_TOKENS * len(request.messages)
    return n_in, request.max_tokens


USAGE_FIELDS = ("input_tokens", "output_tokens", "cached_input_tokens", "cache_write_tokens",
                "reasoning_tokens")


def bounded(request: Request, response: Response) -> Response:
    """``response`` with its usage held to what ``request`` could use: input and output no more
    than ``worst_case_tokens`` (the output cap), cached and written input within the input,
    reasoning within the output. A count past its bound is taken at the most the call could
    cost (the bound; a cached share that cannot be, as none), and what the reply said is kept
    in ``meta["reported_usage"]``."""
    n_in, n_out = worst_case_tokens(request)
    got = {k: getattr(response, k) for k in USAGE_FIELDS}
    fixed = dict(got)
    if got["input_tokens"] is not None:
        fixed["input_tokens"] = min(got["input_tokens"], n_in)
    if got["output_tokens"] is not None:
        fixed["output_tokens"] = min(got["output_tokens"], n_out)
    room = fixed["input_tokens"] if fixed["input_tokens"] is not None else n_in
    if got["cached_input_tokens"] is not None and got["cached_input_tokens"] > room:
        fixed["cached_input_tokens"] = 0  # an impossible discount is not given
    if got["cache_write_tokens"] is not None:
        fixed["cache_write_tokens"] = min(got["cache_write_tokens"],
                                          room - (fixed["cached_input_tokens"] or 0))
    if got["reasoning_tokens"] is not None:
        out = fixed["output_tokens"] if fixed["output_tokens"] is not None else n_out
        fixed["reasoning_tokens"] = min(got["reasoning_tokens"], out)
    if fixed == got:
        return response
    return dataclasses.replace(response, **fixed, meta={**response.meta, "reported_usage": got})


def counted(request: Request, response: Response) -> Response:
    """The usage a call is counted at: what the reply reports, held to what the call could use
    (``bounded``), and never less than our own count (``tokens``): the prompt as we count it and
    the reply's text as it came back (within the output cap). A server that reports less (zero,
    say) is stored as it said and counted at this floor, so it cannot stretch a budget."""
    held = bounded(request, response)
    if held.input_tokens is None or held.output_tokens is None:
        return held
    n_in = count_request(request)
    n_out = min(count_text(held.text or ""), request.max_tokens)
    return dataclasses.replace(held, input_tokens=max(held.input_tokens, n_in),
                               output_tokens=max(held.output_tokens, n_out))


class Budget:
    """A dollar limit shared by every judge of this process (and, through the ledger, by every
    process that names the same ledger file)."""

    def __init__(self, limit_usd: float, ledger: str | Path | None = None):
        if not (isinstance(limit_usd, (int, float)) and math.isfinite(limit_usd)
                and limit_usd >= 0):
            raise ValueError(f"budget must be a non-negative number of dollars, got {limit_usd!r}")
        self.limit_usd = float(limit_usd)
        self.ledger = Path(ledger) if ledger else None
        self._lock = threading.Condition()  # notified when a call in flight settles
        self._reserved = 0.0
        self._in_flight = 0  # calls of this process holding a reservation (a count, not dollars:
        # a sum of floats put back may not return to exactly zero)
        self._spent_here = 0.0
        self._calls = 0

    @classmethod
    def from_env(cls) -> "Budget | None":
        """The budget the command line set for this process and its notebook kernels, if any."""
        raw = os.environ.get(BUDGET_ENV, "").strip()
        if not raw:
            return None
        try:
            limit = float(raw)
        except ValueError:
            raise ValueError(f"${BUDGET_ENV}={raw!r} is not a number of dollars") from None
        ledger = os.environ.get(LEDGER_ENV) or None
        key = (limit, ledger)
        with _SHARED_LOCK:  # one Budget per process, so concurrent judges share reservations
            if key not in _SHARED:
                _SHARED[key] = cls(limit, ledger)
            return _SHARED[key]

    def spent(self) -> float:
        """Dollars spent so far: this process's, or the ledger's total when there is one."""
        if self.ledger is None or not self.ledger.exists():
            return self._spent_here
        total = 0.0
        for line in self.ledger.read_text(encoding="utf-8").splitlines():
            try:
                total += float(line)
            except ValueError:
                continue  # a torn last line of a killed process
        return total

    def _record(self, usd: float) -> None:
        self._spent_here += usd
        if self.ledger is not None:
            self.ledger.parent.mkdir(parents=True, exist_ok=True)
            with open(self.ledger, "a", encoding="utf-8") as f:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX)
                f.write(f"{usd!r}\n")
                f.flush()

    def _reserve(self, usd: float, what: str) -> None:
        """Reserve ``usd`` (the lock held): wait while calls in flight may release enough, and
        refuse only when the call does not fit with nothing of this process in flight."""
        while self._in_flight and self.spent() + self._reserved + usd > self.limit_usd:
            self._lock.wait()
        spent = self.spent()
        if spent + self._reserved + usd > self.limit_usd:
            raise BudgetExceeded(
                f"budget: {what} could cost up to ${usd:.4f}, which would take the spend past "
                f"the budget of ${self.limit_usd:.2f} (spent ${spent:.4f}, "
                f"${self._reserved:.4f} in calls under way, {self._calls} call(s) made by this "
                "process); stopped before making it. Everything judged so far is stored: rerun "
                "with a larger --budget to go on.")
        self._reserved += usd

    @contextmanager
    def hold(self, model: str, request: Request, batch: bool = False
             ) -> Iterator[Callable[[Response], None]]:
        """Reserve the most one call can cost; the caller reports the reply with the function
        this yields, and its real cost replaces the reservation."""
        worst = _cost(model, *worst_case_tokens(request), batch=batch)
        with self._lock:
            self._reserve(worst, f"the next call to {model}")
            self._in_flight += 1
        settled: list[float] = []

        def settle(response: Response) -> None:
            settled.append(call_usd(model, request, response, batch=batch))

        try:
            yield settle
        finally:
            with self._lock:
                self._in_flight -= 1
                self._reserved = self._reserved - worst if self._in_flight else 0.0
                self._calls += 1
                self._record(settled[0] if settled else 0.0)
                self._lock.notify_all()

    def charge_batch(self, model: str, requests: Iterable[Request]) -> float:
        """Check and record the most a provider batch of ``requests`` can cost (batch price);
        ``settle_batch`` later replaces it with what the results cost."""
        worst = sum(_cost(model, *worst_case_tokens(r), batch=True) for r in requests)
        with self._lock:
            self._reserve(worst, f"a batch of requests to {model}")
            self._reserved -= worst
            self._record(worst)
        return worst

    def settle_batch(self, charged: float | None, model: str,
                     results: Iterable[tuple[Request, Response]]) -> float:
        """Replace a batch's charge by what its results cost, each (request, result) at
        ``call_usd`` as a real-time call is (so zero usage on every line costs its worst case),
        never more than it was charged. ``charged`` None: the batch was charged by an earlier
        process (a killed run's batch collected now), so its results' cost is added, unchecked:
        they are paid, and the next call or batch is refused if they took the spend past the
        limit. Returns what the results cost."""
        actual = sum(call_usd(model, request, response, batch=True)
                     for request, response in results)
        if charged is not None:
            actual = min(charged, actual)
        with self._lock:
            self._record(actual - (charged or 0.0))
        return actual


def _cost(model: str, n_in: int, n_out: int, batch: bool) -> float:
    r = rates(model)
    if r is None:
        raise BudgetExceeded(f"budget: no provider prices model {model!r}, so a budget cannot "
                             "be kept; add its price to its provider or run without --budget")
    return r.usd(n_in, n_out, batch=batch and r.batch_discount is not None)


def call_usd(model: str, request: Request, response: Response, batch: bool = False) -> float:
    """What one call is counted at, in real time or as a batch line: an ok reply that says
    nothing of its usage, or says it read no prompt at all (zero input tokens, which no
    provider bills for a prompt it answered: a proxy that strips usage), at the most the call
    could cost; any other at its ``counted`` usage (held to the call's bounds and never below
    our own count of its prompt and reply). Our count is a floor, not the provider's
    tokenizer, so a reply that gives no count is never settled below what it may be billed."""
    no_count = not response.input_tokens or response.output_tokens is None  # None or 0
    if response.status == "ok" and no_count:
        return _cost(model, *worst_case_tokens(request), batch=batch)
    return response_cost(model, counted(request, response), batch=batch)


def response_cost(model: str, response: Response, batch: bool = False) -> float:
    """What a reply's usage costs (0 when it reports none: failures are not billed), never
    below nothing."""
    if response.input_tokens is None or response.output_tokens is None:
        return 0.0
    usd = call_cost(model, response.input_tokens, response.output_tokens,
                    response.cached_input_tokens, response.cache_write_tokens, batch=batch)
    return max(usd or 0.0, 0.0)


_SHARED: dict[tuple[float, str | None], Budget] = {}
_SHARED_LOCK = threading.Lock()


def set_budget(limit_usd: float, ledger: str | Path | None = None) -> None:
    """Give this process (and the processes it starts) a budget; with a ``ledger`` file every
    process counts against the same limit."""
    Budget(limit_usd)  # a bad value is refused here, before anything runs
    os.environ[BUDGET_ENV] = repr(float(limit_usd))
    if ledger is not None:
        os.environ[LEDGER_ENV] = str(ledger)
    else:
        os.environ.pop(LEDGER_ENV, None)


@contextmanager
def shared_budget(limit_usd: float | None) -> Iterator[None]:
    """A budget shared by this process and the notebook kernels it starts, for as long as the
    block runs; its ledger is a temporary file, removed afterwards. None: no budget."""
    if limit_usd is None:
        yield
        return
    import tempfile

    with tempfile.TemporaryDirectory(prefix="tjb-budget-") as folder:
        set_budget(limit_usd, Path(folder) / "spend.ledger")
        try:
            yield
        finally:
            os.environ.pop(BUDGET_ENV, None)
            os.environ.pop(LEDGER_ENV, None)
