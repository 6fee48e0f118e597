"""The interactive explorer of notebook 08: a judge, a prompt level, a tier, a Tie threshold,
other judges drawn over it and the paper's frontier, over verdict rows already produced. The
ladder lines pool, tier by tier, only the splits every drawn judge holds at every level
(``explore.same_splits``), and the view says which.

The view (what the judge's position-only controls show, the table by tier, one real pair per
meaning of Tie, the frontier) is drawn when the cell runs, so the explorer is never empty, and
every control change redraws it whole. The view is the state of an Output widget, set at once
(``outputs``), never output captured into it while code runs: so nothing waits on a front end
while the cell runs (papermill), and nothing a callback draws can land outside the notebook
(the log console). The figure is a PNG image, made and closed where it is drawn.
"""
from __future__ import annotations

import io
from typing import Sequence

import ipywidgets as widgets
import pandas as pd
from IPython.display import Image, Markdown

from tjb_lib.teaching import explore
from tjb_lib.analysis import frontier
from tjb_lib.paper import position
from tjb_lib.records import Pair

TABLE_COLUMNS = ["tier", "meaning_of_tie", "n", "cited", "plain", "tie", "unparsed"]


class Explorer:
    """Controls over ``rows`` (verdict rows of one or several judges) and the view they show;
    ``judge`` is the one shown first, ``paper`` the paper's frontier
    (:func:`tjb_lib.teaching.explore.paper_frontier`), ``pairs`` the pairs the examples come from."""

    def __init__(self, rows: pd.DataFrame, judge: str, paper: pd.DataFrame,
                 pairs: Sequence[Pair], seed: int = 0):
        self.rows, self.paper, self.pairs, self.seed = rows, paper, list(pairs), seed
        choices = explore.options(rows)
        wide = widgets.Layout(width="auto")
        self.judge = widgets.Dropdown(options=explore.judge_labels(rows), value=judge,
                                      description="judge", layout=widgets.Layout(width="95%"))
        self.level = widgets.Dropdown(options=["all", *choices["level"]], value="L0",
                                      description="level")
        self.tier = widgets.Dropdown(options=["all", *choices["tier"]], value="all",
                                     description="tier")
        self.threshold = widgets.FloatSlider(
            value=0.0, min=0.0, max=1.0, step=0.05, description="Tie if |P(A)−P(B)| <",
            readout_format=".2f", continuous_update=False, layout=wide,
            style={"description_width": "initial"})
        self.with_paper = widgets.Checkbox(value=True, indent=False, layout=wide,
                                           description="draw the paper's frontier beside it")
        self.overlay = widgets.SelectMultiple(options=choices["judge"], value=(),
                                              description="overlay", rows=min(4, len(
                                                  choices["judge"])), layout=wide)
        self.controls = [self.judge, self.level, self.tier, self.threshold, self.overlay,
                         self.with_paper]
        self.out = widgets.Output()
        self.box = widgets.VBox([*self.controls, self.out])
        for control in self.controls:
            control.observe(self.refresh, names="value")

    # ------------------------------------------------------------------ the view

    def view(self) -> dict[str, object]:
        """What each part shows for the controls' current values, in display order: a note
        (what the judge's position-only controls show), the table by tier, the examples, the
        figure."""
        judge, level, tier = self.judge.value, self.level.value, self.tier.value
        threshold = self.threshold.value
        notes = [position.position_reading(judge, position.position_levels(self.rows, judge))]
        sub = explore.select(self.rows, judge, level)
        if threshold and not explore.has_probabilities(sub):
            notes.append(f"*{judge} has no stored label probabilities at this level: its "
                         "verdicts are shown as returned.*")
            threshold = 0.0
        table = explore.static_view(self.rows, judge, level, tier, threshold)
        if table.empty:
            return {"note": Markdown("\n\n".join(notes)),
                    "table": Markdown(f"*No verdicts for {judge} · {level} · {tier}.*"),
                    "examples": Markdown(""), "figure": Markdown("")}
        tiers = [tier] if tier != "all" else list(table["tier"])
        examples = [explore.render_example(ex[0], max_chars=500)
                    for meaning, m in explore.TIE_MEANINGS.items() if m.tier in tiers
                    for ex in [explore.example_pairs(self.pairs, self.rows, meaning, judge,
                                                     level, threshold, n=1, seed=self.seed)]
                    if ex]
        figure, pooled = self._figure(judge, threshold)
        return {"note": Markdown("\n\n".join(notes)),
                "table": table[TABLE_COLUMNS].round(1),
                "examples": Markdown("\n\n".join(examples)),
                "figure": figure,
                "pooled": Markdown("*Each tier's lines pool the same splits at every level and "
                                   "for every judge drawn:* " + "; ".join(pooled) + ".")}

    def _figure(self, judge: str, threshold: float) -> tuple[Image, list[str]]:
        """The ladder by tier of the judge and the judges overlaid (the paper's judges beside
        them when ticked), over the splits all of them hold at every level, as a PNG made and
        closed here (so no figure is left open for a later cell or the log console); and what
        each tier pools."""
        import matplotlib.pyplot as plt

        drawn = [judge, *(j for j in self.overlay.value if j != judge)]
        ladder = self.rows[self.rows["judge"].isin(drawn)]
        if threshold and explore.has_probabilities(ladder):
            ladder = frontier.redecide(ladder, tie_margin=threshold)
        ladder, pooled = explore.same_splits(ladder[ladder["level"].notna()])
        points = explore.operating_point(ladder, by=("judge", "level"))
        points = points.assign(_o=points["judge"].map(drawn.index)).sort_values("_o")
        fig = explore.plot_tiers(points.drop(columns="_o"),
                                 self.paper if self.with_paper.value else None)
        png = io.BytesIO()
        fig.savefig(png, format="png", dpi=80, bbox_inches="tight", metadata={"Software": None})
        plt.close(fig)
        return Image(data=png.getvalue(), format="png"), pooled

    # ------------------------------------------------------------------ display

    def refresh(self, _change=None) -> None:
        """Draw the view for the controls' current values, replacing the last one whole."""
        from IPython.core.interactiveshell import InteractiveShell

        fmt = InteractiveShell.instance().display_formatter.format
        self.out.outputs = tuple(
            {"output_type": "display_data", "data": data, "metadata": metadata}
            for data, metadata in map(fmt, self.view().values()))

    def _repr_mimebundle_(self, **kwargs):
        """The controls and the view under them, drawn now; a short line where no front end
        runs (papermill, a viewer)."""
        self.refresh()
        bundle = self.box._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = ("Explorer: judge, level, tier, Tie threshold and the paper's "
                                "frontier; the controls need a running kernel (open the notebook "
                                "in JupyterLab).")
        return bundle
