"""The notebooks in run order, each with the paper section it reads: the one list that
``reproduce`` runs, the floats are filed under and REPORT.md follows."""
from __future__ import annotations

NOTEBOOKS = {"00_benchmark": "§4", "01_human_validation": "§4", "02_presentation": "§5.1",
             "03_strict_suppression": "§5.2", "04_resolution_loss": "§5.3",
             "05_frontier": "§5.4", "06_trace": "§5.5–§6", "07_ranking": "§5.6",
             "08_explore": "teaching", "09_beyond": "beyond the paper",
             "10_human_workbooks": "§4, App. B", "11_judge_yourself": "teaching"}


def check(name: str) -> str:
    """``name`` if it is one of the notebooks, else ValueError naming them."""
    if name not in NOTEBOOKS:
        raise ValueError(f"unknown notebook {name!r}; known: {', '.join(NOTEBOOKS)}")
    return name
