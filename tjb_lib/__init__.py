"""TraceJudgeBench compendium: splits, judge protocols, judges, metrics and statistics.

A notebook's kernel imports the checkout the notebook is in, however it was started:
``notebooks/tjb_lib`` links here, so a kernel started in ``notebooks/`` (JupyterLab,
``papermill --cwd notebooks``) or at the checkout's root finds this package before any installed
copy (an editable install of another checkout); imported through that link, the package reads
its modules from their real folder. A kernel papermill started anywhere else (no ``--cwd``) may
import another checkout's package first: that package finds the notebook in papermill's command
line and hands the import over to the notebook's own checkout (``_notebook_checkout``), so it
reads and writes there.
"""
import os as _os
import sys as _sys
from pathlib import Path as _Path

__version__ = "0.1.0"
__path__[:] = [str(_Path(__file__).resolve().parent)]  # noqa: F821 - the package's own


def _notebook_checkout() -> "_Path | None":
    """The checkout holding the notebook this process runs, when it is the kernel of a
    ``papermill`` command (its parent) whose input notebook is ``<checkout>/notebooks/*.ipynb``
    beside ``<checkout>/tjb_lib``; None anywhere else (the kernel's own folder decides there)."""
    if "ipykernel" not in _sys.modules:
        return None
    try:
        parent = f"/proc/{_os.getppid()}"
        argv = [a.decode("utf-8", "replace") for a in
                _Path(parent, "cmdline").read_bytes().split(b"\0") if a]
        cwd = _Path(_os.readlink(f"{parent}/cwd"))
    except OSError:  # no /proc (not Linux) or the parent is gone
        return None
    # `papermill ...` (the script, run by python) or `python -m papermill ...`
    at = next((i for i, a in enumerate(argv[:3])
               if _Path(a).name == "papermill" and (i <= 1 or argv[i - 1] == "-m")), None)
    if at is None:
        return None
    try:
        from papermill.cli import papermill as command

        notebook = command.make_context("papermill", argv[at + 1:], resilient_parsing=True
                                        ).params.get("notebook_path")
    except Exception:  # a command line papermill itself would refuse
        return None
    if not notebook:
        return None
    path = (cwd / notebook).resolve()
    home = path.parent.parent
    if path.parent.name == "notebooks" and (home / "tjb_lib" / "__init__.py").is_file():
        return home
    return None


_home = _notebook_checkout()
if _home is not None and _home != _Path(__file__).resolve().parent.parent:
    import importlib.util as _util

    _spec = _util.spec_from_file_location(__name__, _home / "tjb_lib" / "__init__.py",
                                          submodule_search_locations=[str(_home / "tjb_lib")])
    _own = _util.module_from_spec(_spec)
    _sys.modules[__name__] = _own  # what `import tjb_lib` returns: the notebook's checkout
    _spec.loader.exec_module(_own)
