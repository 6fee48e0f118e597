"""Build every split from the raw records, deterministically, and write them with a manifest.

One seed fixes every choice (which records go to which split, renderings, wrong answers,
mutants). Files are written to a temporary folder and renamed into place only when every
split has been built, so a failed build leaves the previous splits untouched. ``verify`` builds
in memory and compares with a shipped manifest, so a notebook can prove the shipped splits are
the ones this seed builds without rewriting them; ``verify_once`` remembers a check that passed,
by the digest of everything it read, so a replay does not build the splits again.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from tjb_lib import paths
from tjb_lib.pairs.pools import Pools, allocate
from tjb_lib.pairs.registry import SPLITS
from tjb_lib.records import Pair
from tjb_lib.seeds import SEED

MANIFEST = "manifest.json"
#: checks that passed, one file per digest of their inputs (gitignored)
VERIFIED = Path(".cache") / "splits" / "verified"


def build_pairs(seed: int = SEED) -> dict[str, list[Pair]]:
    """Every split's pairs, in memory, in registry order."""
    return _build(allocate(seed))


def _build(pools: Pools) -> dict[str, list[Pair]]:
    splits = {}
    for name, info in SPLITS.items():
        pairs = info.build(name, pools)
        ids = [p.pair_id for p in pairs]
        if len(pairs) != info.size:
            raise ValueError(f"split {name}: built {len(pairs)} pairs, the registry says {info.size}")
        if len(set(ids)) != len(ids):
            raise ValueError(f"split {name}: duplicate pair ids")
        if any(p.split != name or p.target_relation != info.target_relation for p in pairs):
            raise ValueError(f"split {name}: a pair names another split or target relation")
        splits[name] = pairs
    return splits


def _jsonl(pairs: list[Pair]) -> bytes:
    return "".join(json.dumps(p.to_dict(), sort_keys=True, ensure_ascii=False) + "\n"
                   for p in pairs).encode("utf-8")


def in_memory(seed: int = SEED) -> tuple[dict[str, bytes], dict]:
    """Every file a build writes (split files and the manifest), and the manifest: a build
    that writes nothing, which ``build_all`` and ``verify`` take when one was already made."""
    pools = allocate(seed)
    splits = _build(pools)
    blobs = {f"{name}.jsonl": _jsonl(pairs) for name, pairs in splits.items()}
    manifest = {"seed": seed, "rejects": pools.rejects, "splits": {
        name: {"count": len(pairs), "sha256": hashlib.sha256(blobs[f"{name}.jsonl"]).hexdigest(),
               "target_relation": SPLITS[name].target_relation, "source": SPLITS[name].source}
        for name, pairs in splits.items()}}
    blobs[MANIFEST] = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
    return blobs, manifest


def build_all(seed: int = SEED, out_dir: Path | str | None = None,
              built: tuple[dict[str, bytes], dict] | None = None) -> dict:
    """Write <out_dir>/<split>.jsonl and manifest.json (default data/splits); return the manifest.
    ``built``: ``in_memory(seed)``, when it was already made."""
    out_dir = Path(out_dir or paths.SPLITS)
    blobs, manifest = built or in_memory(seed)
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


def verify(seed: int = SEED, splits_dir: Path | str | None = None,
           built: tuple[dict[str, bytes], dict] | None = None) -> tuple[dict, list[str]]:
    """Build in memory (or take ``built``, ``in_memory(seed)`` already made) and compare with the
    split folder (default data/splits), writing nothing.

    Returns the fresh manifest and one line per difference: a split whose count or sha256 differs
    from the shipped manifest, a shipped file whose bytes do not match its manifest entry, or a
    split missing on either side. An empty list means the shipped splits are this build's.
    """
    splits_dir = Path(splits_dir or paths.SPLITS)
    _, manifest = built or in_memory(seed)
    path = splits_dir / MANIFEST
    try:
        shipped = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return manifest, [f"{path}: no shipped manifest"]
    except json.JSONDecodeError as e:
        return manifest, [f"{path}: not JSON ({e.msg} at line {e.lineno})"]
    problems = []
    if shipped.get("seed") != seed:
        problems.append(f"{path}: built with seed {shipped.get('seed')}, not {seed}")
    if shipped.get("rejects") != manifest["rejects"]:
        problems.append(f"{path}: the reject counts differ from this build's")
    old = shipped.get("splits", {})
    for name in sorted(set(old) | set(manifest["splits"])):
        new_info, old_info = manifest["splits"].get(name), old.get(name)
        if new_info is None or old_info is None:
            why = "not built by this seed" if new_info is None else "not in the shipped manifest"
            problems.append(f"{name}: {why}")
            continue
        for key in ("count", "sha256", "target_relation", "source"):
            if new_info[key] != old_info.get(key):
                problems.append(f"{name}: {key} {old_info.get(key)!r} shipped, "
                                f"{new_info[key]!r} built")
        f = splits_dir / f"{name}.jsonl"
        if not f.exists():
            problems.append(f"{name}: {f} is missing")
        elif hashlib.sha256(f.read_bytes()).hexdigest() != old_info.get("sha256"):
            problems.append(f"{name}: {f.name} does not match its manifest sha256")
    return manifest, problems


def inputs_digest(seed: int = SEED, splits_dir: Path | str | None = None) -> str:
    """sha256 of what a check of the split folder reads: the seed, the Python and scikit-learn
    versions (regular expressions; the conflict split's stop words), every file of the library
    and of data/, and the split folder's files."""
    from importlib.metadata import version

    h = hashlib.sha256(f"{seed}\n{sys.version}\n{version('scikit-learn')}\n".encode())
    for root in (paths.CHECKOUT / "tjb_lib", paths.DATA, Path(splits_dir or paths.SPLITS)):
        for f in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            h.update(f"{root.name}/{f.relative_to(root).as_posix()}\0".encode() + f.read_bytes())
    return h.hexdigest()


def _stamp(seed: int, splits_dir: Path | str | None) -> Path:
    return paths.ROOT / VERIFIED / f"{inputs_digest(seed, splits_dir)}.json"


def record_verified(seed: int, manifest: dict, splits_dir: Path | str | None = None) -> None:
    """Remember that the split folder (default data/splits) passed ``verify`` for ``seed``."""
    stamp = _stamp(seed, splits_dir)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    tmp = stamp.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, stamp)


def verify_once(seed: int = SEED, splits_dir: Path | str | None = None,
                built: tuple[dict[str, bytes], dict] | None = None) -> tuple[dict, list[str]]:
    """``verify``, or the manifest of a check that passed with the same inputs
    (``inputs_digest``): the same answer without building every split again."""
    stamp = _stamp(seed, splits_dir)
    if stamp.exists():
        return json.loads(stamp.read_text(encoding="utf-8")), []
    manifest, problems = verify(seed, splits_dir, built)
    if not problems:
        record_verified(seed, manifest, splits_dir)
    return manifest, problems
