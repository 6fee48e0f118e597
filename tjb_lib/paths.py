"""Where the compendium's files live, relative to the repository root: the checkout this code
runs from (the folder holding the imported ``tjb_lib``), or ``TJB_ROOT`` where that is set."""
from __future__ import annotations

import os
import re
from pathlib import Path

#: the checkout this code runs from
CHECKOUT = Path(__file__).resolve().parent.parent
ROOT = Path(os.environ.get("TJB_ROOT", CHECKOUT))
DATA = ROOT / "data"
RAW = DATA / "raw"
SPLITS = DATA / "splits"
PAPER_REPORTED = DATA / "paper_reported"
HUMAN_VALIDATION = DATA / "human_validation"
READINGS = DATA / "readings"  # blind readings: packets, keys and grades, one folder a round
OUTPUTS = ROOT / "outputs"
RAW_OUTPUTS = OUTPUTS / "raw_outputs"
METADATA = OUTPUTS / "metadata"
NOTEBOOKS = ROOT / "notebooks"

#: A judge's name is one plain folder name: its store, rows and metadata are named after it.
_JUDGE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
#: the longest judge name: its files (``.<judge>.run-<8 chars>``, ``<judge>.lock``, metadata
#: named after it and a run) must stay within a file system's 255 bytes per name
MAX_JUDGE_NAME = 100


def judge_dir(name: str, raw_outputs: str | Path | None = None) -> Path:
    """The folder of one judge's store and verdict rows, under ``raw_outputs`` (default
    outputs/raw_outputs). ``ValueError`` unless the name is one plain folder name (letters,
    digits, '.', '_', '-'), so that no name reaches outside it or into a folder of its own."""
    if not isinstance(name, str) or not _JUDGE_NAME.fullmatch(name):
        raise ValueError(f"judge name {name!r} cannot name a folder: use letters, digits, '.', "
                         "'_' and '-' only (a model id such as 'org/model' goes in --model)")
    if len(name) > MAX_JUDGE_NAME:
        raise ValueError(f"judge name {name[:20]}... is {len(name)} characters long; at most "
                         f"{MAX_JUDGE_NAME}, so that every file named after it can be written")
    return Path(raw_outputs or RAW_OUTPUTS) / name


def python_path() -> str:
    """``PYTHONPATH`` for a Python process this code starts (a notebook kernel, a bench script):
    this checkout first, so the child imports this same tjb_lib, and so reads and writes under
    the same ROOT, rather than whichever checkout the environment installed (an editable install
    of another copy)."""
    rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
            if p and Path(p).resolve() != CHECKOUT]
    return os.pathsep.join([str(CHECKOUT), *rest])
