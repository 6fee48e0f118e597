"""``python -m tjb_lib compact --judge <name>``: the store down to the calls its rows name.

The response store is append-only, so every rebuild of the splits leaves the calls of the old
wordings in the log, and a shipped log grows with each one. Compacting keeps every record whose
key a verdict row in the judge's folder names (``request_hashes``: scored calls and TRACE's
stage-1 generations), and moves the rest, byte for byte, to ``superseded/`` beside it (which git
ignores), so a replay reads the same and nothing paid for is deleted.
"""
from __future__ import annotations

import json
from pathlib import Path

from tjb_lib import paths
from tjb_lib.store import LOG_NAME, ResponseStore


def named_keys(folder: Path) -> set[str]:
    """The call keys that the verdict rows in ``folder`` name. A row file that is not JSON is
    an error naming the file and the line: a key it holds could otherwise be moved aside."""
    keys: set[str] = set()
    for path in sorted(folder.glob("*.jsonl")):
        if path.name == LOG_NAME:
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}: line {i} is not a JSON verdict row ({e.msg}); "
                                 "nothing was moved") from None
            keys.update(row.get("request_hashes") or ())
    return keys


def compact(judge: str, raw_outputs: str | Path | None = None) -> dict[str, object]:
    """Compact one judge's store; what was kept and moved, and where."""
    folder = paths.judge_dir(judge, raw_outputs)
    if not (folder / LOG_NAME).is_file():
        raise FileNotFoundError(f"{folder / LOG_NAME}: no store for judge {judge!r}")
    keys = named_keys(folder)
    with ResponseStore(folder) as store:
        kept, moved, aside = store.keep_only(keys)
    return {"judge": judge, "named": len(keys), "kept": kept, "moved": moved,
            "superseded": str(aside) if aside else None}
