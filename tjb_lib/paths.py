"""Where the compendium's files live, relative to the repository root (override: TJB_ROOT)."""
from __future__ import annotations

import os
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
TABLES = OUTPUTS / "tables"
FIGURES = OUTPUTS / "figures"
NOTEBOOK_OUT = OUTPUTS / "notebooks"
NOTEBOOKS = ROOT / "notebooks"
