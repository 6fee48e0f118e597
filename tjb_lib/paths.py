"""Where the compendium's files live, relative to the repository root (override: TJB_ROOT)."""
from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(os.environ.get("TJB_ROOT", Path(__file__).resolve().parent.parent))
DATA = ROOT / "data"
RAW = DATA / "raw"
SPLITS = DATA / "splits"
PAPER_REPORTED = DATA / "paper_reported"
HUMAN_VALIDATION = DATA / "human_validation"
OUTPUTS = ROOT / "outputs"
RAW_OUTPUTS = OUTPUTS / "raw_outputs"
METADATA = OUTPUTS / "metadata"
NOTEBOOKS = ROOT / "notebooks"

#: A judge's name is one plain folder name: its store, rows and metadata are named after it.
_JUDGE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def judge_dir(name: str, raw_outputs: str | Path | None = None) -> Path:
    """The folder of one judge's store and verdict rows, under ``raw_outputs`` (default
    outputs/raw_outputs). ``ValueError`` unless the name is one plain folder name (letters,
    digits, '.', '_', '-'), so that no name reaches outside it or into a folder of its own."""
    if not isinstance(name, str) or not _JUDGE_NAME.fullmatch(name):
        raise ValueError(f"judge name {name!r} cannot name a folder: use letters, digits, '.', "
                         "'_' and '-' only (a model id such as 'org/model' goes in --model)")
    return Path(raw_outputs or RAW_OUTPUTS) / name
