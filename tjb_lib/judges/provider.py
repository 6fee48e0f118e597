"""Judge providers by name, as inspect_ai registers its model APIs.

Each provider is one module of ``tjb_lib/judges/providers/`` that declares, in one ``Provider``,
everything the library knows about it: its endpoint (and so the only hosts its key may go to),
the key variable, the SDK, its documented request rules with their sources, whether it has a
batch API, the list prices of its models and the catalog judges it serves, plus the builder that
turns a ``JudgeSpec`` into a judge. Nothing else switches on a provider's or a backend's name:
the catalog, key routing, prices, batch mode and the run metadata all read the registered
providers. A module in that package is registered by being there (``registered`` imports each
once), so an OpenAI-compatible provider is one module; a provider with its own SDK also holds
its adapter and pins the SDK in ``constraints.txt``.
"""
from __future__ import annotations

import dataclasses
import importlib
import math
import pkgutil
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from tjb_lib.judges.base import Judge


@dataclass(frozen=True)
class Rule:
    """One documented request rule a provider enforces, with where it is written down."""

    rule: str
    source: str
    checked: str  # the date the rule was last checked against its source


@dataclass(frozen=True)
class Price:
    """List prices of one model (USD per million tokens), dated and sourced.

    Cached input is a prompt-cache hit, a cache write is the first call that stores a prefix;
    reasoning or thinking tokens are billed as output by every provider here. ``batch_discount``
    is None when the provider has no batch API, ``cache_min_tokens`` None when it caches no
    prompt; ``cache_step_tokens`` is the granularity of what it caches.
    """

    model: str
    input: float
    cached_input: float
    cache_write: float
    output: float
    price_date: str
    checked: str
    source: str
    batch_discount: float | None = None
    cache_min_tokens: int | None = None
    cache_step_tokens: int = 1

    def __post_init__(self) -> None:
        for name in ("input", "cached_input", "cache_write", "output", "batch_discount",
                     "cache_min_tokens"):
            value = getattr(self, name)
            optional = name in ("batch_discount", "cache_min_tokens")
            if value is None and optional:
                continue
            if (not isinstance(value, (int, float)) or isinstance(value, bool)
                    or not math.isfinite(value) or value < 0
                    or (name == "batch_discount" and value > 1)):
                raise ValueError(f"price of model {self.model!r}: bad {name} {value!r}; expected "
                                 "a non-negative number" + (" or None" if optional else ""))
        if self.cache_step_tokens < 1:
            raise ValueError(f"price of model {self.model!r}: cache_step_tokens must be >= 1")

    def usd(self, input_tokens: float, output_tokens: float, cached_input_tokens: float = 0,
            cache_write_tokens: float = 0, batch: bool = False) -> float:
        """Dollars for the given usage. ``input_tokens`` is every input token, cached and
        written ones included (the responses store them that way for every provider)."""
        fresh = input_tokens - cached_input_tokens - cache_write_tokens
        usd = (fresh * self.input + cached_input_tokens * self.cached_input
               + cache_write_tokens * self.cache_write + output_tokens * self.output) / 1e6
        if batch:
            if self.batch_discount is None:
                raise ValueError(f"{self.model}: its provider has no batch API")
            usd *= 1 - self.batch_discount
        return usd


@dataclass(frozen=True)
class JudgeSpec:
    """One judge as it will be called: a catalog entry, or one ``catalog.resolve`` derived."""

    name: str
    provider: str                # a registered provider: whose rules, builder and prices apply
    model: str                   # provider model id or hub id
    role: str                    # commercial | open-weight | embedded | served
    base_url: str | None = None  # None: the provider's own endpoint
    device: str | None = None    # an in-process judge: where it is meant to run
    quantization: str | None = None
    reported_snapshot: str | None = None  # what the paper's endpoint returned (Table A7)
    params: dict[str, Any] = field(default_factory=lambda: {"temperature": 0})
    notes: str = ""

    @property
    def backend(self) -> str:
        """The backend recorded in the judge's identity (its provider's)."""
        return get(self.provider).backend

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "backend": self.backend}


@dataclass(frozen=True)
class Provider:
    """Everything about one provider, in one place (see the module docstring)."""

    name: str
    backend: str                  # recorded in each judge's identity, so in its store keys
    build: Callable[..., "Judge"]  # build(spec, provider, **overrides) -> Judge
    base_url: str | None = None   # its endpoint; None: the caller must give one
    key_env: str | None = None    # the variable of its key, which goes only to base_url's host
    sdk: str | None = None        # the SDK module its calls go through (version in the metadata)
    rules: tuple[Rule, ...] = ()
    batch: bool = False           # has a batch API (``--batch``)
    prices: tuple[Price, ...] = ()
    judges: tuple[JudgeSpec, ...] = ()
    in_process: bool = False      # its judges run in this process (no key, no endpoint)
    served_by: str | None = None  # the provider that serves its judges at a given base_url
    fixed_model: bool = False     # its judges take no model= override
    default_params: dict[str, Any] = field(default_factory=dict)  # of a judge the catalog lacks

    @property
    def hosts(self) -> tuple[str, ...]:
        """The hosts its key may be sent to: its own endpoint's."""
        from urllib.parse import urlsplit

        host = urlsplit(self.base_url).hostname if self.base_url else None
        return (host.lower(),) if host else ()


_PROVIDERS: dict[str, Provider] = {}
_LOCK = threading.RLock()
_FOUND = False


def register(provider: Provider) -> Provider:
    """Add ``provider`` under its name (a second, different one of that name is an error)."""
    with _LOCK:
        old = _PROVIDERS.get(provider.name)
        if old is not None and old is not provider:
            raise ValueError(f"judge provider {provider.name!r} is registered twice")
        _PROVIDERS[provider.name] = provider
    return provider


def registered() -> dict[str, Provider]:
    """Every provider by name: the modules of ``tjb_lib.judges.providers`` are imported once
    (they import no SDK and no model), then anything registered since."""
    global _FOUND
    with _LOCK:
        if not _FOUND:
            _FOUND = True
            from tjb_lib.judges import providers

            for module in pkgutil.iter_modules(providers.__path__):
                importlib.import_module(f"{providers.__name__}.{module.name}")
        return dict(sorted(_PROVIDERS.items()))


def get(name: str) -> Provider:
    found = registered()
    if name not in found:
        raise ValueError(f"unknown judge provider {name!r}; registered providers: "
                         f"{', '.join(found)}")
    return found[name]
