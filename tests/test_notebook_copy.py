"""Kernels import the checkout they run in: a notebook started in a copy of the repository, in
an environment whose editable install is another checkout (papermill with ``--cwd notebooks``,
as JupyterLab starts kernels, or from any other folder without it), writes its tables inside
that copy (it once imported the other checkout's tjb_lib and wrote into its outputs)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from _checkout_copy import REPO, a9_tables, clean_env, copy_checkout  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize("how", ["python -m papermill", "papermill"])
def test_papermill_started_elsewhere_without_cwd_runs_the_notebooks_own_checkout(tmp_path,
                                                                                   how):
    """From a folder outside both checkouts, without ``--cwd``, the kernel first imports the
    environment's checkout (here ``other``, first on PYTHONPATH as an editable install of it
    would be); that package hands the import to the notebook's own checkout, so the tables land
    there and nothing is written in the other checkout or in the folder papermill ran from."""
    copy, other, elsewhere = copy_checkout(tmp_path / "copy"), tmp_path / "other", tmp_path / "elsewhere"
    other.mkdir()
    shutil.copytree(REPO / "tjb_lib", other / "tjb_lib",
                    ignore=shutil.ignore_patterns("__pycache__"))
    elsewhere.mkdir()
    papermill = ([sys.executable, "-m", "papermill"] if how == "python -m papermill" else
                 [str(Path(sys.executable).parent / "papermill")])
    done = subprocess.run(
        [*papermill, str(Path("..") / "copy" / "notebooks" / "02_presentation.ipynb"),
         "executed.ipynb", "-p", "replay_only", "True", "--log-level", "ERROR",
         "--no-progress-bar"], env=clean_env(PYTHONPATH=str(other)), capture_output=True, text=True,
        cwd=elsewhere, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert a9_tables(copy) == ["table_a9.csv", "table_a9.md"]
    assert sorted(p.name for p in other.iterdir()) == ["tjb_lib"]  # no outputs/ made there
    assert sorted(p.name for p in elsewhere.iterdir()) == ["executed.ipynb"]


@pytest.mark.slow
def test_a_notebook_started_in_a_copy_writes_only_inside_that_copy(tmp_path):
    copy = copy_checkout(tmp_path / "copy")
    done = subprocess.run(
        [sys.executable, "-m", "papermill", str(copy / "notebooks" / "02_presentation.ipynb"),
         str(tmp_path / "executed.ipynb"), "-p", "replay_only", "True",
         "--cwd", str(copy / "notebooks"), "--log-level", "ERROR", "--no-progress-bar"],
        env=clean_env(), capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert a9_tables(copy) == ["table_a9.csv", "table_a9.md"]
