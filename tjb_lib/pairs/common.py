"""Shared helpers for the split builders: one way to make a pair and to seed a choice."""
from __future__ import annotations

import random
from typing import Any

from tjb_lib.data import HotpotItem
from tjb_lib.records import GOLDS, SOURCES, TARGET_RELATIONS, Pair


def make_pair(split: str, source: str, source_id: str, k: int | str, *, target_relation: str,
              gold: str, task: str, plain: str, cited: str, variant: str, artifact: str,
              meta: dict[str, Any]) -> Pair:
    """A Pair with the stable id ``<split>:<source_id>:<k>``; refuses unknown vocabulary."""
    if source not in SOURCES:
        raise ValueError(f"unknown source {source!r}")
    if target_relation not in TARGET_RELATIONS:
        raise ValueError(f"unknown target relation {target_relation!r}")
    if gold not in GOLDS:
        raise ValueError(f"unknown gold {gold!r}")
    return Pair(pair_id=f"{split}:{source_id}:{k}", split=split, source=source,
                source_id=source_id, target_relation=target_relation, gold=gold, task=task,
                plain=plain, cited=cited, variant=variant, artifact=artifact, meta=meta)


def rng(seed: int, *names: object) -> random.Random:
    """A Random seeded by (seed, names): string seeds are hashed with sha512, so the stream is
    the same on every run and platform, whatever PYTHONHASHSEED is."""
    return random.Random(":".join([str(seed), *map(str, names)]))


def hotpot_meta(item: HotpotItem) -> dict[str, Any]:
    return {"question_type": item.type, "gold_answer": item.answer,
            "supporting_facts": [list(f) for f in item.supporting_facts]}


def cue_label(cues) -> str:
    return "+".join(sorted(cues))
