"""What a run will judge, fixed and checked before any judge is loaded or called.

Every problem a person can fix (a name, a limit, a split file that is not the one built) is a
``RunError`` whose one line names the file and the item, so nothing is paid for first.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tjb_lib import paths
from tjb_lib.judges.base import Judge


class RunError(Exception):
    """A problem the person running the judge can fix (bad name, bad split, missing replay)."""


def at_least_one(option: str, value: int | None) -> None:
    """A count a person gave (``--limit``, ``--concurrency``): None (the default) or 1 or more."""
    if value is not None and value < 1:
        raise RunError(f"{option} must be at least 1, got {value}")


def run_comparisons(split: str, protocol: str, limit: int | None = None) -> list[tuple]:
    """Every ordered comparison of the run, fixed before any call: [(pair, order, spec), ...]."""
    from tjb_lib.pairs import load_split
    from tjb_lib.protocols import expand, ordered_comparisons

    at_least_one("--limit", limit)
    try:
        specs = expand(protocol, split)
    except (KeyError, ValueError) as e:
        raise RunError(f"protocol {protocol!r}: {_msg(e)}") from e
    path = paths.SPLITS / f"{split}.jsonl"
    try:
        pairs = load_split(split)
    except UnicodeDecodeError as e:
        line = path.read_bytes()[:e.start].count(b"\n") + 1
        raise RunError(f"{path} line {line}: byte 0x{e.object[e.start]:02x} is not UTF-8; "
                       "restore the file or rebuild it with `python -m tjb_lib build`") from e
    except (KeyError, ValueError, FileNotFoundError) as e:
        raise RunError(f"split {split!r}: {_msg(e)}") from e
    if not pairs:
        raise RunError(f"{path}: the split has no pairs; rebuild it with `python -m tjb_lib build`")
    first: dict[str, int] = {}
    for i, pair in enumerate(pairs):
        if pair.pair_id in first:
            raise RunError(f"{path} line {i + 1}: pair_id {pair.pair_id!r} appears twice "
                           f"(first at line {first[pair.pair_id] + 1})")
        first[pair.pair_id] = i
    _check_built(path)
    return list(ordered_comparisons(pairs[:limit], specs))


def _check_built(path: Path) -> None:
    """The split file must be the one ``manifest.json`` records (its sha256), so a split edited
    or damaged after it was built is never judged as if it were the benchmark."""
    manifest_path = path.parent / "manifest.json"
    if not path.exists():
        return  # nothing on disk to check (a split given in memory)
    if not manifest_path.exists():
        raise RunError(f"{path}: no {manifest_path.name} beside it, so its sha256 cannot be "
                       "checked; restore it (git checkout) or rebuild with "
                       "`python -m tjb_lib build`")
    try:
        want = json.loads(manifest_path.read_text(encoding="utf-8"))["splits"][path.stem]["sha256"]
        if not isinstance(want, str):
            raise TypeError(f"its sha256 is {type(want).__name__} {want!r}, not text")
    except (ValueError, KeyError, TypeError) as e:
        raise RunError(f"{manifest_path}: no sha256 for split {path.stem!r} ({_msg(e)}); "
                       "rebuild with `python -m tjb_lib build`") from e
    got = hashlib.sha256(path.read_bytes()).hexdigest()
    if got != want:
        raise RunError(f"{path}: sha256 {got[:12]}… is not the {want[:12]}… that "
                       f"{manifest_path.name} records: the split changed after it was built; "
                       "restore it (git checkout) or rebuild with `python -m tjb_lib build`")


def metadata_dir(out_dir: Path) -> Path:
    """Where the run metadata of the judges under ``out_dir`` go: outputs/metadata by default."""
    return out_dir.parent / "metadata"


def check_outputs(judge: Judge, out_dir: Path, concurrency: int | None,
                  replay_only: bool) -> Path:
    """The judge's outputs folder, checked before any call: a judge name that is no plain folder
    name, a concurrency below 1, or (for a run that may call) run metadata that cannot be merged
    is a ``RunError`` now, not after calls were paid for."""
    from tjb_lib.metadata import read_run_metadata

    at_least_one("--concurrency", concurrency)
    try:
        folder = paths.judge_dir(judge.name, out_dir)
        if not replay_only:
            read_run_metadata(metadata_dir(out_dir) / f"{judge.name}.json")
    except ValueError as e:
        raise RunError(str(e)) from e
    return folder


def _msg(e: BaseException) -> str:
    return str(e.args[0]) if isinstance(e, KeyError) and e.args else str(e)


def resolve_judge(judge: Judge | str, base_url: str | None = None,
                  model: str | None = None, rationales: bool = False) -> Judge:
    """A judge object from a catalog name (``catalog.get_judge``, the one place a name becomes
    a judge), made once; errors a person can fix are ``RunError``."""
    if isinstance(judge, Judge):
        return judge
    from tjb_lib.judges.catalog import get_judge

    try:
        return get_judge(judge, base_url, model, rationales=rationales)
    except (KeyError, ValueError) as e:
        raise RunError(f"judge {judge!r}: {_msg(e)}") from e
