"""Opening a notebook in JupyterLab (real Chromium) and saving it shows no change in git: the
.py, the tracked source, is written back as it was (the kernel named as JupyterLab names it),
and the .ipynb `make setup` makes from it is not tracked."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from tjb_lib import paths

from _jupyter import NOTEBOOK_JS, chromium, git_repo, jupyter_lab, make_ipynb, needs_browser, \
    open_notebook

pytestmark = [pytest.mark.slow, needs_browser]
STEM = "05_frontier"


def test_opening_and_saving_a_notebook_in_jupyterlab_shows_no_change_in_git(tmp_path):
    repo = tmp_path / "repo"
    (repo / "notebooks").mkdir(parents=True)
    shutil.copy(paths.ROOT / ".gitignore", repo / ".gitignore")
    py = repo / "notebooks" / f"{STEM}.py"
    shutil.copy(paths.NOTEBOOKS / py.name, py)
    git = git_repo(repo)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "as shipped"], check=True)
    ipynb = make_ipynb(py)
    before = {p: p.stat().st_mtime_ns for p in (py, ipynb)}
    with jupyter_lab(repo, tmp_path) as url, chromium(tmp_path) as browser:
        open_notebook(browser, url(f"notebooks/{STEM}.ipynb"))
        assert browser.execute_script(  # what File > Save does
            NOTEBOOK_JS + "return panel.context.save().then(() => 'saved');") == "saved"
    assert all(p.stat().st_mtime_ns > t for p, t in before.items()), "not both files saved"
    assert '"language_info"' in ipynb.read_text(encoding="utf-8")  # JupyterLab wrote it
    status = subprocess.run([*git, "status", "--porcelain"], check=True, capture_output=True,
                            text=True).stdout
    diff = subprocess.run([*git, "diff"], capture_output=True, text=True).stdout
    assert status == "", f"git sees the save:\n{status}{diff[:3000]}"
