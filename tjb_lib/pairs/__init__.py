"""Benchmark pairs: rendering, the TRACE-lite stripper, split builders, the split registry,
and split loading."""
from __future__ import annotations

import json
from pathlib import Path

from tjb_lib import paths
from tjb_lib.pairs.registry import SPLIT_NAMES, get
from tjb_lib.records import Pair


def load_split(name: str, root: Path | None = None) -> list[Pair]:
    """The pairs of one built split (data/splits/<name>.jsonl), in file order."""
    get(name)                                      # an unknown name lists the known ones
    path = Path(root or paths.SPLITS) / f"{name}.jsonl"
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: run `python -m tjb_lib build` first")
    pairs = []
    for i, raw in enumerate(path.read_bytes().splitlines()):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"{path} line {i + 1}: byte 0x{raw[e.start]:02x} at column "
                             f"{e.start + 1} is not UTF-8") from None
        try:
            pairs.append(Pair.from_dict(json.loads(line)))
        except (json.JSONDecodeError, TypeError) as e:
            raise ValueError(f"{path.name} line {i + 1}: not a Pair record ({e})") from e
    return pairs


__all__ = ["SPLIT_NAMES", "load_split", "Pair"]
