"""Figures 2, 3 and A1 from hand-built comparison frames: ours drawn beside the paper's."""
from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.collections import PathCollection
import numpy as np
import pandas as pd
import pytest

from tjb_lib.paper import compare, figures, floats
from tjb_lib.paper.report import save_figure


def _cmp(name: str, ours_value: float = 40.0) -> pd.DataFrame:
    """The paper's rows of ``name`` with a fixed value of ours in every cell."""
    paper = compare.paper_values(name)
    spec = floats.get(name).comparison
    rows = []
    for _, p in paper.iterrows():
        for m in spec.metrics:
            rows.append({"paper_judge": p[spec.judge_col], **{k: p[k] for k in spec.keys},
                         "metric": m.paper, "paper": p[m.paper], "ours": ours_value,
                         "ours_low": max(ours_value - 10, 0), "ours_high": ours_value + 10,
                         "n": 20, "unparsed": 0.0, "status": "ok", "judge": "smollm2"})
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
    legend = fig.legends[0]
    labels = [t.get_text() for t in legend.get_texts()]
    assert labels[0] == "ours: smollm2" and "paper: DeepSeek V4-Flash" in labels
    # the legend's swatch is the colour of our bars in both panels
    swatch = legend.legend_handles[0].get_facecolor()
    for ax in (a, b):
        assert all(np.allclose(p.get_facecolor(), swatch) for p in ax.patches)
    assert "n=20, unparsed 0%" in a.get_xticklabels()[0].get_text()


def test_figure_2_draws_a_zero_bar_visibly_and_names_a_cell_without_verdicts():
    cmp = _cmp("figure_2", 0.0)
    natural = cmp["split"] == "Natural"
    cmp.loc[natural, ["ours", "ours_low", "ours_high", "unparsed"]] = np.nan
    cmp.loc[natural, ["n", "status"]] = (0, "no parsed verdict")
    fig = figures.figure_2(cmp)
    a = fig.axes[0]
    assert len(a.patches) == 2  # no bar where nothing parsed
    flat = [c for c in a.collections if c.__class__.__name__ == "LineCollection"
            and all(seg[0][1] == 0 == seg[1][1] and seg[0][0] != seg[1][0]
                    for seg in c.get_segments())]
    assert [len(c.get_segments()) for c in flat] == [2]  # a mark on the axis per zero bar
    assert any("no parsed" in t.get_text() for t in a.texts)


@pytest.mark.parametrize("name, draw, judges", [("figure_3", figures.figure_3, 5),
                                                 ("figure_a1", figures.figure_a1, 3)])
def test_ladder_figures_draw_ours_once_beside_one_panel_per_paper_judge(name, draw, judges,
                                                                         tmp_path):
    cmp = _cmp(name, 55.0)
    fig = draw(cmp)
    axes = [ax for ax in fig.axes if ax.get_title()]
    assert len(axes) == judges + 1
    assert axes[0].get_title() == "ours: smollm2"
    ys = [line.get_ydata() for line in axes[0].get_lines() if len(line.get_ydata()) > 1]
    assert any(np.allclose(y, 55.0) for y in ys)  # ours, in its own panel
    for ax in axes[1:]:  # only the paper's lines in the paper's panels
        ys = [line.get_ydata() for line in ax.get_lines() if len(line.get_ydata()) > 1]
        assert not any(np.allclose(y, 55.0) for y in ys)
        judge = ax.get_title().removeprefix("paper: ")
        judge = {"DeepSeek V4-Flash": "DeepSeek"}.get(judge, judge)
        paper = cmp[(cmp["paper_judge"] == judge) & (cmp["metric"] == "tie")]["paper"]
        assert any(np.allclose(y, paper.to_numpy()) for y in ys if len(y) == len(paper))
    png, svg = save_figure(fig, name, tmp_path)
    assert png.stat().st_size > 0 and svg.read_text().startswith("<?xml")


def test_figure_3_has_the_trace_point():
    fig = figures.figure_3(_cmp("figure_3"))
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == ["L0", "L1", "L2", "L3", "L4", "TRACE"]


def test_a_ladder_point_without_parsed_verdicts_is_labelled_not_drawn():
    cmp = _cmp("figure_3")
    trace = cmp["level"] == "TRACE"
    cmp.loc[trace, ["ours", "ours_low", "ours_high"]] = np.nan
    cmp.loc[trace, ["n", "unparsed", "status"]] = (0, 100.0, "no parsed verdict")
    ax = figures.figure_3(cmp).axes[0]
    assert any("no parsed" in t.get_text() for t in ax.texts)
    ours = [line.get_ydata() for line in ax.get_lines() if len(line.get_ydata()) == 6]
    assert all(np.isnan(y[5]) for y in ours)


def test_svg_output_is_byte_stable(tmp_path):
    cmp = _cmp("figure_2")
    save_figure(figures.figure_2(cmp), "f", tmp_path / "a")
    save_figure(figures.figure_2(cmp), "f", tmp_path / "b")
    assert (tmp_path / "a" / "f.svg").read_bytes() == (tmp_path / "b" / "f.svg").read_bytes()


def test_figure_needs_the_comparison_columns():
    with pytest.raises(ValueError, match="figure_2: comparison frame lacks column"):
        figures.figure_2(pd.DataFrame({"split": ["HotpotQA"]}))


def test_every_figure_says_what_it_shows_and_figure_2_has_no_panel_column_of_the_paper():
    for f in floats.FLOATS.values():
        assert bool(f.figure) == bool(f.caption), f.name
    with pytest.raises(ValueError, match="a figure needs a caption"):
        floats.Float("figure_x", "§5.4", "x", "05_frontier", figure=figures.figure_3)
    rows = pd.DataFrame([{"pair_id": f"mechanical_hotpotqa:{i // 2}",
                          "split": "mechanical_hotpotqa", "target_relation": "equivalent",
                          "gold": "tie", "order": ("cited_first", "plain_first")[i % 2], "protocol": "ladder",
                          "level": "L0", "paraphrase": "p0", "judge": "smollm2",
                          "decision": "tie"} for i in range(10)])
    table = compare.compare_float("figure_2", rows, "smollm2")
    assert "panel" not in table.columns  # the paper's a/b/c (one per judge) is not our (a)/(b)
    assert set(table["split"]) == {"HotpotQA", "FinQA", "Natural"}
