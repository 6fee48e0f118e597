"""Judge backends by name, as inspect_ai's ``@modelapi`` registry does: a backend registers a
builder under its name, and ``build`` turns a catalog entry into a judge through the builder its
``backend`` names. A new backend is one decorated function (``backends.py`` holds the built-in
ones, whose SDK and model imports happen only when a judge of theirs is built).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from tjb_lib.judges.base import Judge
    from tjb_lib.judges.catalog import JudgeSpec

Builder = Callable[..., "Judge"]
_BACKENDS: dict[str, Builder] = {}


def backend(name: str) -> Callable[[Builder], Builder]:
    """Register ``builder(spec, **overrides) -> Judge`` as the backend ``name``."""
    def register(builder: Builder) -> Builder:
        if name in _BACKENDS and _BACKENDS[name] is not builder:
            raise ValueError(f"judge backend {name!r} is registered twice")
        _BACKENDS[name] = builder
        return builder
    return register


def registered() -> tuple[str, ...]:
    from tjb_lib.judges import backends  # noqa: F401 - registers the built-in backends

    return tuple(sorted(_BACKENDS))


def build(spec: "JudgeSpec", **overrides: Any) -> "Judge":
    """The judge ``spec`` describes, made by its backend's builder."""
    names = registered()
    if spec.backend not in _BACKENDS:
        raise ValueError(f"judge {spec.name!r}: unknown backend {spec.backend!r}; registered "
                         f"backends: {', '.join(names)}")
    return _BACKENDS[spec.backend](spec, **overrides)
