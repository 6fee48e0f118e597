"""Registries keyed by name (splits, floats, claims): a name declared twice is refused, because a
dict built from the entries would keep the last one without a word."""
from __future__ import annotations

from typing import Iterable, TypeVar

T = TypeVar("T")


def by_name(entries: Iterable[tuple[str, T]], what: str) -> dict[str, T]:
    """``{name: entry}`` in declaration order; a second ``name`` raises one clear ValueError
    naming the registry (``what``) and the name."""
    out: dict[str, T] = {}
    for name, entry in entries:
        if name in out:
            raise ValueError(f"{what} {name!r} is declared twice; each name is declared once")
        out[name] = entry
    return out
