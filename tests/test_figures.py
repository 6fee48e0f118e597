"""Figures 2, 3 and A1 from hand-built comparison frames: ours drawn beside the paper's."""
from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.collections import PathCollection
import numpy as np
import pandas as pd
import pytest

from tjb_lib import compare, figures
from tjb_lib.report import save_figure


def _cmp(name: str, ours_value: float = 40.0) -> pd.DataFrame:
    """The paper's rows of ``name`` with a fixed value of ours in every cell."""
    paper = compare.paper_values(name)
    spec = compare.SPECS[name]
    rows = []
    for _, p in paper.iterrows():
        for m in spec.metrics:
            rows.append({"paper_judge": p[spec.judge_col], **{k: p[k] for k in spec.keys},
                         "metric": m.paper, "paper": p[m.paper], "ours": ours_value,
                         "ours_low": ours_value - 10, "ours_high": ours_value + 10, "n": 20,
                         "judge": "smollm2"})
    return pd.DataFrame(rows)


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_figure_2_has_our_bars_and_a_paper_marker_per_judge_and_split():
    fig = figures.figure_2(_cmp("figure_2", 40.0))
    a, b = fig.axes[:2]
    assert [round(p.get_height(), 6) for p in a.patches] == [40.0, 40.0, 40.0]
    offsets = np.vstack([c.get_offsets() for c in a.collections if isinstance(c, PathCollection)])
    assert len(offsets) == 9  # 3 paper judges x 3 splits
    assert 85.8 in np.round(offsets[:, 1], 1)
    labels = a.get_legend_handles_labels()[1] + b.get_legend_handles_labels()[1]
    assert "ours (smollm2)" in labels and "paper: GPT-5.5" in labels


@pytest.mark.parametrize("name, draw, panels", [("figure_3", figures.figure_3, 5),
                                                 ("figure_a1", figures.figure_a1, 3)])
def test_ladder_figures_draw_one_panel_per_paper_judge(name, draw, panels, tmp_path):
    cmp = _cmp(name, 55.0)
    fig = draw(cmp)
    axes = [ax for ax in fig.axes if ax.get_title()]
    assert len(axes) == panels
    first = axes[0]
    ys = [line.get_ydata() for line in first.get_lines() if len(line.get_ydata()) > 1]
    assert any(np.allclose(y, 55.0) for y in ys)  # ours
    judge = first.get_title()
    paper = cmp[(cmp["paper_judge"] == judge) & (cmp["metric"] == "tie")]["paper"].to_numpy()
    assert any(np.allclose(y, paper) for y in ys if len(y) == len(paper))  # the paper's line
    png, svg = save_figure(fig, name, tmp_path)
    assert png.stat().st_size > 0 and svg.read_text().startswith("<?xml")


def test_figure_3_has_the_trace_point():
    fig = figures.figure_3(_cmp("figure_3"))
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == ["L0", "L1", "L2", "L3", "L4", "TRACE"]


def test_svg_output_is_byte_stable(tmp_path):
    cmp = _cmp("figure_2")
    save_figure(figures.figure_2(cmp), "f", tmp_path / "a")
    save_figure(figures.figure_2(cmp), "f", tmp_path / "b")
    assert (tmp_path / "a" / "f.svg").read_bytes() == (tmp_path / "b" / "f.svg").read_bytes()


def test_figure_needs_the_comparison_columns():
    with pytest.raises(ValueError, match="figure_2: comparison frame lacks column"):
        figures.figure_2(pd.DataFrame({"split": ["HotpotQA"]}))
