"""A copy of the repository a notebook can run in (package, notebooks, the embedded judge's store;
data linked), for the tests and the faults figures that start notebooks in a copy."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def copy_checkout(root: Path) -> Path:
    """A copy of the repository's package, notebooks (as .ipynb too) and the embedded judge's
    store, with the data linked."""
    root.mkdir()
    shutil.copytree(REPO / "tjb_lib", root / "tjb_lib",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "notebooks", root / "notebooks", symlinks=True,
                    ignore=shutil.ignore_patterns("*.ipynb", ".ipynb_checkpoints"))
    (root / "data").symlink_to(REPO / "data")
    shutil.copytree(REPO / "outputs" / "raw_outputs" / "smollm2",
                    root / "outputs" / "raw_outputs" / "smollm2")
    source = root / "notebooks" / "02_presentation.py"
    subprocess.run([sys.executable, "-m", "jupytext", "--to", "ipynb", str(source)], check=True,
                   env=clean_env(), capture_output=True)
    return root


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TJB_ROOT")}
    return {**env, **extra}


def a9_tables(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "outputs" / "judges" / "smollm2" / "tables").glob(
        "table_a9.*"))
