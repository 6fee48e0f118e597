"""Build every split from the raw records, deterministically, and write them with a manifest.

One seed fixes every choice (which records go to which split, renderings, wrong answers,
mutants). Files are written to a temporary folder and renamed into place only when every
split has been built, so a failed build leaves the previous splits untouched.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from tjb_lib import paths
from tjb_lib.data import FINQA_UNBIASED, load_finqa, load_hotpotqa, load_humaneval
from tjb_lib.pairs import SPLIT_NAMES
from tjb_lib.pairs.ablations import ablations
from tjb_lib.pairs.candidates import finqa_usable, hotpot_candidate, is_clean
from tjb_lib.pairs.common import rng
from tjb_lib.pairs.conflicts import conflict
from tjb_lib.pairs.controls import position_control
from tjb_lib.pairs.equivalence import mechanical_finqa, mechanical_hotpotqa
from tjb_lib.pairs.graded import moderate_finqa, moderate_hotpotqa, soft_hotpotqa
from tjb_lib.pairs.natural import natural_hotpotqa
from tjb_lib.pairs.ranking import ranking_hotpotqa
from tjb_lib.records import Pair

DEFAULT_SEED = 20260923
# split -> (target relation, source); the order is the manifest's order.
SPLITS: dict[str, tuple[str, str]] = {
    "mechanical_hotpotqa": ("equivalent", "hotpotqa"),
    "mechanical_finqa": ("equivalent", "finqa"),
    "natural_hotpotqa": ("equivalent", "hotpotqa"),
    "ablation_full_citation": ("equivalent", "hotpotqa"),
    "ablation_source_only": ("equivalent", "hotpotqa"),
    "ablation_empty_shell": ("equivalent", "hotpotqa"),
    "ablation_evidence_only": ("equivalent", "hotpotqa"),
    "ablation_sentence_id_only": ("equivalent", "hotpotqa"),
    "ablation_length_control": ("equivalent", "hotpotqa"),
    "conflict": ("correctness_conflict", "hotpotqa+finqa+humaneval"),
    "position_control": ("identical", "hotpotqa"),
    "soft_hotpotqa": ("quality_soft", "hotpotqa"),
    "moderate_hotpotqa": ("quality_moderate", "hotpotqa"),
    "moderate_finqa": ("quality_moderate", "finqa"),
    "ranking_hotpotqa": ("system", "hotpotqa"),
}
N_MECHANICAL, N_GRADED = 200, 100


def build_pairs(seed: int = DEFAULT_SEED) -> dict[str, list[Pair]]:
    """Every split's pairs, in memory."""
    hot = [i for i in load_hotpotqa() if is_clean(hotpot_candidate(i))]
    rng(seed, "hotpotqa", "order").shuffle(hot)
    mech = hot[:N_MECHANICAL]                                  # also ablations, controls, ranking
    soft = hot[N_MECHANICAL:N_MECHANICAL + N_GRADED]
    moderate = hot[N_MECHANICAL + N_GRADED:N_MECHANICAL + 2 * N_GRADED]
    conflict_hot = hot[N_MECHANICAL + 2 * N_GRADED:] + hot[:N_MECHANICAL + 2 * N_GRADED]

    fin = [i for i in load_finqa() if finqa_usable(i)]
    unbiased = [i for i in fin if i.file in FINQA_UNBIASED]
    biased = [i for i in fin if i.file not in FINQA_UNBIASED]
    rng(seed, "finqa", "unbiased").shuffle(unbiased)
    rng(seed, "finqa", "biased").shuffle(biased)
    fin = unbiased + biased                                    # prefer the unbiased samples
    fin_mech = fin[:N_MECHANICAL]
    fin_moderate = moderate_finqa(fin[N_MECHANICAL:])
    used = {p.source_id for p in fin_moderate}
    fin_rest = [i for i in fin[N_MECHANICAL:] if i.id not in used]

    problems = load_humaneval()
    rng(seed, "humaneval", "order").shuffle(problems)

    splits = {
        "mechanical_hotpotqa": mechanical_hotpotqa(mech),
        "mechanical_finqa": mechanical_finqa(fin_mech),
        "natural_hotpotqa": natural_hotpotqa(hot, seed),
        **ablations(mech, seed),
        "conflict": conflict(conflict_hot, fin_rest, problems, seed),
        "position_control": position_control(mech),
        "soft_hotpotqa": soft_hotpotqa(soft),
        "moderate_hotpotqa": moderate_hotpotqa(moderate),
        "moderate_finqa": fin_moderate,
        "ranking_hotpotqa": ranking_hotpotqa(mech),
    }
    if set(splits) != set(SPLITS) or set(SPLITS) != set(SPLIT_NAMES):
        raise ValueError("the built splits do not match SPLITS / SPLIT_NAMES")
    for name, pairs in splits.items():
        ids = [p.pair_id for p in pairs]
        if len(set(ids)) != len(ids):
            raise ValueError(f"split {name}: duplicate pair ids")
        if any(p.split != name for p in pairs):
            raise ValueError(f"split {name}: a pair names another split")
    return {name: splits[name] for name in SPLITS}


def _jsonl(pairs: list[Pair]) -> bytes:
    return "".join(json.dumps(p.to_dict(), sort_keys=True, ensure_ascii=False) + "\n"
                   for p in pairs).encode("utf-8")


def build_all(seed: int = DEFAULT_SEED, out_dir: Path | None = None) -> dict:
    """Write data/splits/<split>.jsonl and manifest.json; return the manifest."""
    out_dir = Path(out_dir or paths.SPLITS)
    splits = build_pairs(seed)
    blobs = {f"{name}.jsonl": _jsonl(pairs) for name, pairs in splits.items()}
    manifest = {"seed": seed, "splits": {
        name: {"count": len(pairs), "sha256": hashlib.sha256(blobs[f"{name}.jsonl"]).hexdigest(),
               "target_relation": SPLITS[name][0], "source": SPLITS[name][1]}
        for name, pairs in splits.items()}}
    blobs["manifest.json"] = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=out_dir))
    try:
        for fname, blob in blobs.items():
            (tmp / fname).write_bytes(blob)
        for fname in blobs:                                    # all built: now rename into place
            os.replace(tmp / fname, out_dir / fname)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return manifest
