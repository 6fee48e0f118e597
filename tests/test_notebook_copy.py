"""Kernels import the checkout they run in: a notebook started in a copy of the repository, in
an environment whose editable install is another checkout (papermill from any folder with
``--cwd notebooks``, as JupyterLab starts kernels), writes its tables inside that copy (it once
imported the other checkout's tjb_lib and wrote into its outputs)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_a_notebook_started_in_a_copy_writes_only_inside_that_copy(tmp_path):
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copytree(REPO / "tjb_lib", copy / "tjb_lib",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "notebooks", copy / "notebooks", symlinks=True,
                    ignore=shutil.ignore_patterns("*.ipynb", ".ipynb_checkpoints"))
    (copy / "data").symlink_to(REPO / "data")
    shutil.copytree(REPO / "outputs" / "raw_outputs" / "smollm2",
                    copy / "outputs" / "raw_outputs" / "smollm2")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TJB_ROOT")}
    source = copy / "notebooks" / "02_presentation.py"
    subprocess.run([sys.executable, "-m", "jupytext", "--to", "ipynb", str(source)], check=True,
                   env=env, capture_output=True)
    done = subprocess.run(
        [sys.executable, "-m", "papermill", str(source.with_suffix(".ipynb")),
         str(tmp_path / "executed.ipynb"), "-p", "replay_only", "True",
         "--cwd", str(copy / "notebooks"), "--log-level", "ERROR", "--no-progress-bar"],
        env=env, capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    tables = copy / "outputs" / "judges" / "smollm2" / "tables"
    assert sorted(p.name for p in tables.glob("table_a9.*")) == ["table_a9.csv", "table_a9.md"]
