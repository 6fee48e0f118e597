"""The explorer of notebook 08 through ipywidgets' own API, on the shipped verdict rows: its view
is there before any control is touched, says what the judge's position-only controls show, and
a control change redraws the whole view for the new setting; other judges can be drawn over
it, every tier's lines pooling the same splits at every level."""
from __future__ import annotations

import pytest

from tjb_lib.teaching import explore
from tjb_lib import paths
from tjb_lib.run import sample
from tjb_lib.pairs import load_split

pytestmark = pytest.mark.skipif(not (paths.RAW_OUTPUTS / "smollm2").is_dir(),
                                reason="needs the shipped raw outputs of smollm2")


@pytest.fixture(scope="module")
def explorer():
    from tjb_lib.teaching.explore_ui import Explorer

    rows = sample.run_jobs(sample.jobs(["table_a14", "table_a19", "table_a11", "table_a16"]),
                           "smollm2", replay_only=True, progress=False)
    pairs = [p for s in sorted(set(rows["split"])) for p in load_split(s)]
    return Explorer(rows, "smollm2", explore.paper_frontier(), pairs, seed=1)


def _shown(app) -> tuple[str, list[str]]:
    """The text of the view and its images, as the Output widget holds them."""
    text = "\n".join(o["data"].get("text/markdown", "") + o["data"].get("text/html", "")
                     for o in app.out.outputs)
    return text, [o["data"]["image/png"] for o in app.out.outputs if "image/png" in o["data"]]


def test_the_view_is_drawn_before_any_control_is_touched(explorer):
    bundle = explorer._repr_mimebundle_()
    assert "Explorer:" in bundle["text/plain"]
    text, images = _shown(explorer)
    assert "smollm2 answers the first slot" in text and "position-driven" in text
    assert "meaning_of_tie" in text and "Tie is correct" in text and len(images) == 1


def test_a_control_change_redraws_the_whole_view(explorer):
    text, images = _shown(explorer)
    explorer.tier.value = "moderate"
    explorer.threshold.value = 1.0  # every verdict within 1.0 of a Tie
    moved, moved_images = _shown(explorer)
    assert "Tie is costly" in moved and "Tie is correct" not in moved
    assert "<td>100.0</td>" in moved and len(moved_images) == 1 and moved_images != images
    explorer.with_paper.value = False
    assert _shown(explorer)[1] != moved_images  # the judge alone


def test_other_judges_are_drawn_over_the_judge_on_the_same_splits(explorer):
    text, images = _shown(explorer)
    assert "pool the same splits at every level" in text
    assert "equivalent: mechanical_finqa, mechanical_hotpotqa, natural_hotpotqa;" in text
    other = explorer.rows[explorer.rows["judge"] == "smollm2"].assign(
        judge="flipped", decision=lambda r: r["decision"].map(
            {"cited": "plain", "plain": "cited"}).fillna(r["decision"]))
    explorer.rows = explorer.rows._append(other, ignore_index=True)
    explorer.overlay.options = ("flipped", "smollm2")
    explorer.overlay.value = ("flipped",)
    overlaid, overlaid_images = _shown(explorer)
    assert overlaid_images != images
    explorer.overlay.value = ()
    assert _shown(explorer)[1] != overlaid_images
