"""A copy of the repository (``cp -r``, a fresh clone beside a shared .venv) runs its own code and
writes only inside itself, even where the environment's tjb_lib is another checkout's (an editable
install, here stood in for by PYTHONPATH naming this checkout): its tests import the copy however
pytest is started, and the notebook kernels and scripts the library starts import it too."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tjb_lib import paths

#: a notebook that records which tjb_lib its kernel imported and writes one file under its ROOT
PROBE = """# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% tags=["parameters"]
name = "probe"

# %%
import json
import tjb_lib
from tjb_lib import paths

(paths.CHECKOUT / ".cache").mkdir(exist_ok=True)
(paths.CHECKOUT / ".cache" / f"{name}.json").write_text(json.dumps(tjb_lib.__file__))
"""

#: a test, run inside the copy, of what its tests and their subprocesses import
PROBE_TEST = """import subprocess
import sys
from pathlib import Path

import tjb_lib

HERE = Path(__file__).resolve().parent.parent


def test_the_copy_is_what_its_tests_and_their_subprocesses_import():
    assert Path(tjb_lib.__file__).resolve().is_relative_to(HERE), tjb_lib.__file__
    child = subprocess.run([sys.executable, "-c", "import tjb_lib; print(tjb_lib.__file__)"],
                           cwd="/", capture_output=True, text=True, check=True)
    assert Path(child.stdout.strip()).resolve().is_relative_to(HERE), child.stdout
"""


def _copy(tmp_path: Path) -> Path:
    """The library, its notebooks and tests, copied the way ``cp -r`` would."""
    copy = tmp_path / "copy"
    skip = shutil.ignore_patterns("__pycache__", "*.ipynb", ".cache")
    for part in ("tjb_lib", "notebooks", "tests"):
        shutil.copytree(paths.CHECKOUT / part, copy / part, ignore=skip)
    shutil.copy(paths.CHECKOUT / "pyproject.toml", copy)
    return copy


def _environment() -> dict[str, str]:
    """This process's environment with tjb_lib pointing at this checkout, as an editable install
    of it would, and no explicit root."""
    env = {k: v for k, v in os.environ.items() if k != "TJB_ROOT"}
    return {**env, "PYTHONPATH": str(paths.CHECKOUT)}


def test_a_notebook_run_from_a_copy_imports_the_copy_and_writes_only_inside_it(tmp_path):
    copy = _copy(tmp_path)
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    name = f"probe-{tmp_path.name}"
    mine, theirs = (root / ".cache" / f"{name}.json" for root in (copy, paths.CHECKOUT))
    run = ("import sys; from pathlib import Path; from tjb_lib.run.reproduce import execute; "
           "execute(Path(sys.argv[1]), Path(sys.argv[2]), parameters={'name': sys.argv[3]})")
    try:
        done = subprocess.run([sys.executable, "-c", run, str(probe), str(tmp_path / "out"), name],
                              cwd=copy, env=_environment(), capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        assert not theirs.exists(), "the copy's notebook wrote into the installed checkout"
        assert Path(json.loads(mine.read_text())).is_relative_to(copy)
    finally:
        theirs.unlink(missing_ok=True)


def test_the_tests_of_a_copy_run_the_copy_however_pytest_is_started(tmp_path):
    copy = _copy(tmp_path)
    (copy / "tests" / "test_probe.py").write_text(PROBE_TEST)
    pytest_script = Path(sys.executable).parent / "pytest"  # not `python -m`, which adds the cwd
    done = subprocess.run([str(pytest_script), "-q", "-p", "no:cacheprovider",
                           "tests/test_probe.py"], cwd=copy, env=_environment(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
