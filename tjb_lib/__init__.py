"""TraceJudgeBench compendium: splits, judge protocols, judges, metrics and statistics.

A notebook's kernel imports the checkout the notebook is in: ``notebooks/tjb_lib`` links here,
so a kernel started in ``notebooks/`` (JupyterLab, ``papermill --cwd notebooks``) finds this
package before any installed copy (an editable install of another checkout); imported through
that link, the package reads its modules from their real folder.
"""
from pathlib import Path as _Path

__version__ = "0.1.0"
__path__[:] = [str(_Path(__file__).resolve().parent)]  # noqa: F821 - the package's own
