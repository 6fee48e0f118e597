"""Benchmark pairs: rendering, the TRACE-lite stripper, split builders, and split loading."""
from __future__ import annotations

import json
from pathlib import Path

from tjb_lib import paths
from tjb_lib.records import Pair

SPLIT_NAMES = (
    "mechanical_hotpotqa", "mechanical_finqa", "natural_hotpotqa",
    "ablation_full_citation", "ablation_source_only", "ablation_empty_shell",
    "ablation_evidence_only", "ablation_sentence_id_only", "ablation_length_control",
    "conflict", "position_control", "soft_hotpotqa", "moderate_hotpotqa", "moderate_finqa",
    "ranking_hotpotqa",
)


def load_split(name: str, root: Path | None = None) -> list[Pair]:
    """The pairs of one built split (data/splits/<name>.jsonl), in file order."""
    if name not in SPLIT_NAMES:
        raise ValueError(f"unknown split {name!r}; known splits: {', '.join(SPLIT_NAMES)}")
    path = Path(root or paths.SPLITS) / f"{name}.jsonl"
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: run `python -m tjb_lib build` first")
    pairs = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        try:
            pairs.append(Pair.from_dict(json.loads(line)))
        except (json.JSONDecodeError, TypeError) as e:
            raise ValueError(f"{path.name} line {i + 1}: not a Pair record ({e})") from e
    return pairs


__all__ = ["SPLIT_NAMES", "load_split", "Pair"]
