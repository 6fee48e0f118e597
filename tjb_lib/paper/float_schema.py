"""What a paper float declares (:class:`Float`): its place in the paper, the runs it needs, how
the paper's printed rows map onto ours (:class:`Comparison`, one :class:`Metric` per printed
column), and the table or figure that shows it. The entries themselves are in
``tjb_lib.paper.floats``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import pandas as pd

from tjb_lib.paper import sections
from tjb_lib.analysis import stats


@dataclass(frozen=True)
class Metric:
    """One printed column: where our value comes from and how its interval was made."""

    paper: str                     # column in the paper's CSV
    ours: str                      # column in our metrics frame
    where: Mapping[str, object] = field(default_factory=dict)  # extra filter (list = isin)
    agg: str | None = None         # "min" / "max" over the matched rows (A13's L0-L2 ranges)
    interval: str = stats.WILSON   # how ours_low/ours_high were made (a key of stats.INTERVALS)
    low: str | None = None         # interval columns (default <ours>_low / <ours>_high)
    high: str | None = None
    paper_per: str | None = None   # paper prints a count: divide by this column, x 100


@dataclass(frozen=True)
class Comparison:
    """How one paper float's printed rows map onto our verdict rows."""

    paper: str | Callable[[], pd.DataFrame]  # reported CSV name, or a builder (Figure 3)
    judge_col: str                           # the paper's judge column ("model" or "judge")
    keys: tuple[str, ...]                    # the paper's other key columns, kept as printed
    rows: Mapping[tuple, Mapping[str, object] | Sequence[Mapping[str, object]]]
    metrics: tuple[Metric, ...]
    ours: Callable[[pd.DataFrame, int], pd.DataFrame]  # verdict rows, seed -> our metrics
    paper_n: str | None = None               # the paper's n column, if printed
    match: tuple[str, ...] | None = None     # key columns used to look up ``rows`` (default keys)
    pools_wordings: bool = False             # the paper's rows pool a level's wordings (A9)


@dataclass(frozen=True)
class Float:
    """One table or figure: where it stands in the paper, what it needs, how it is made."""

    name: str
    section: str
    title: str
    notebook: str
    runs: tuple[tuple[str, str], ...] = ()
    comparison: Comparison | None = None     # paper rows -> our cells
    table: Callable[[Any], pd.DataFrame] | None = None  # else: built from the notebook context
    figure: Callable[[pd.DataFrame], Any] | None = None  # draws the table
    caption: str = ""                        # what the figure shows, in words
    headlines: tuple[tuple[str, Mapping[str, object]], ...] = ()
    paper: bool = True                       # False: a table of ours, not printed by the paper

    def __post_init__(self) -> None:
        if (self.figure is None) != (not self.caption):
            raise ValueError(f"float {self.name}: a figure needs a caption, and only a figure")
        try:
            sections.check(self.notebook)
        except ValueError as e:
            raise ValueError(f"float {self.name}: {e}") from None
