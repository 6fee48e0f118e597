# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 08 · Explore: what does a Tie mean?
#
# A teaching companion to §5.3. The same verdict, **Tie**, means three different things
# depending on the pair it is given on:
#
# * **correct** on content-equivalent pairs (only the citation-like display differs);
# * **calibrated** on soft-boundary pairs (humans themselves mostly answer Tie);
# * **costly** on moderate-gap pairs (humans prefer the plain side: the Tie is lost resolution).
#
# This notebook reads the verdict rows the compendium ships (or replays them from the response
# store) and lets you move through them: judge, prompt level L0–L4, tier, and a Tie threshold
# that re-decides logit-scored verdicts from their stored P(A), P(B), P(Tie) without calling the
# judge again; the "paper" choice draws the paper's reported frontier beside the judge you pick.
# It first says what the judge's position-only controls show: a judge that answers one slot on
# identical candidates is position-driven, and its rates below describe that artefact. Run
# headless (papermill, `make reproduce`) it shows a fixed default view; in Jupyter the last cell
# adds the interactive controls, with their starting view drawn at once.

# %% tags=["parameters"]
judge = "smollm2"      # a catalog name, or any name with base_url and model (keys: environment)
scale = "default"      # default: the documented sample; paper: every pair
seed = 20260923        # example and simulation seed
replay_only = False    # True: only replay stored judge calls, never call the judge
outputs_dir = ""       # empty: the outputs folder of this repository (tests write elsewhere)
base_url = ""          # an OpenAI-compatible endpoint for the judge (empty: its provider's own)
model = ""             # the model id at base_url (empty: the catalog's)

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from tjb_lib.teaching import explore
from tjb_lib.run import notebook, sample
from tjb_lib.paper import position
from tjb_lib.pairs import load_split
from tjb_lib.protocols.specs import LEVELS

spec = notebook.check_parameters(judge, scale, seed, replay_only, outputs_dir, base_url,
                                 model)
notebook.show_every_column()

FLOATS = ["table_a14", "table_a19", "table_a11", "table_a16"]  # equivalence, soft, moderate, controls
rows = sample.run_jobs(sample.jobs(FLOATS, scale), spec, replay_only=replay_only,
                      progress=False)

# Other judges whose raw outputs ship with the compendium join the judge drop-down (ladder only).
splits = sorted({j.split for j in sample.jobs(FLOATS, scale)})
shipped = explore.load_shipped_rows(splits=splits)
if not shipped.empty:
    shipped = shipped[(shipped["judge"] != judge) & shipped["level"].isin(LEVELS)]
rows = pd.concat([rows, shipped], ignore_index=True) if not shipped.empty else rows
choices = explore.options(rows)
split_pairs = [p for s in splits for p in load_split(s)]
print(f"{len(rows)} verdict rows; levels {choices['level']}, tiers {choices['tier']}; judges:")
for label, _ in explore.judge_labels(rows):
    print(f"  {label}")
if rows.empty:
    raise RuntimeError(f"no verdict rows for {judge} at scale {scale!r} and none shipped: run it "
                       "with replay_only=False, or `python -m tjb_lib reproduce`")
shown = judge if judge in choices["judge"] else choices["judge"][0]
if shown != judge:
    display(Markdown(f"*{judge} has no verdicts at this scale"
                     + (" (replay_only: nothing is called)" if replay_only else "")
                     + f": the views below show the shipped judge **{shown}**; the drop-down "
                     "at the end lists every judge.*"))
levels = position.position_levels(rows, shown)
display(Markdown(("**Position-driven judge.** " if position.slot_picking(levels) else "")
                 + position.position_reading(shown, levels)))

# %% [markdown]
# A judge folder named `<judge>-rationales` holds a run of `python -m tjb_lib judge --rationales`:
# the same local judge asked to write its verdict as JSON text with a reason (for the rationale
# keyword audit, notebook 09) instead of being scored from P(A), P(B), P(Tie). Its list entry says
# how few of those replies parsed and which tier and level it covers.
#
# ## The default view: plain prompt (L0) against the strict endpoint (L4)
#
# Each row is one tier; `tie` is the Tie rate and `meaning_of_tie` says what that Tie is. The
# control tier holds position-only controls: identical candidates, so any non-Tie verdict there
# is a preference for a slot, not for content.

# %%
default = pd.concat([explore.static_view(rows, shown, level).assign(level=level)
                     for level in ("L0", "L4")], ignore_index=True)
display(default[["level", "tier", "meaning_of_tie", "n", "cited", "plain", "tie", "unparsed"]]
        .round(1))

# %%
fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), sharey=True)
for ax, level in zip(axes, ("L0", "L4")):
    v = default[default["level"] == level].set_index("tier")
    # rates are over parsed verdicts; scaled by the parsed share, the stack sums to 100% of replies
    v = v[["cited", "plain", "tie"]].mul((100 - v["unparsed"].fillna(0)) / 100, axis=0).assign(
        unparsed=v["unparsed"])
    v[["cited", "plain", "tie", "unparsed"]].plot.bar(stacked=True, ax=ax, legend=level == "L4",
                                                      color=["#c44e52", "#4c72b0", "#8c8c8c",
                                                             "#dddddd"], width=0.7)
    ax.set_title(f"{shown} · {level}")
    ax.set_xlabel("")
    ax.set_ylabel("% of replies")
    ax.tick_params(axis="x", rotation=0)
axes[1].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Beside the paper: the whole ladder, tier by tier
#
# The judge's rates at every level it was run at (bold) beside the paper's judges as reported
# (thin lines: Table A9 for equivalence, printed at L0 and L4 only; Table A19 for soft; Table
# A11 for moderate). Solid lines are each tier's preference, dashed lines its Tie rate; a level
# the paper did not print is left out, not drawn as zero. Each tier's line pools the same splits
# at every level (the splits judged at every level), so a change from level to level is the
# judge's, not a change of what is pooled; the line under the figure says what it pools.

# %%
paper = explore.paper_frontier()
ladder, pooled = explore.same_splits(explore.select(rows, shown))
explore.plot_tiers(explore.operating_point(ladder, by=("judge", "level")), paper)
plt.show()
display(Markdown("*Pooled at every level:* " + "; ".join(pooled) + "."))

# %% [markdown]
# ## One real pair for each meaning of Tie
#
# Drawn from the splits the judge saw at the strict endpoint (L4), where Ties are most common.
# Pairs the judge actually called Tie come first; the pick is seeded, so a rerun shows the same
# pairs. Candidates are shortened for display.

# %%
for meaning in explore.TIE_MEANINGS:
    examples = explore.example_pairs(split_pairs, rows, meaning, shown, "L4", n=1, seed=seed)
    if examples:
        display(Markdown(explore.render_example(examples[0])))
    else:
        display(Markdown(f"*No {meaning}-Tie pair was judged by {shown} at L4 in this run.*"))

# %% [markdown]
# ## The threshold: moving the Tie rule without a new judge call
#
# A logit-scored judge stores P(A), P(B), P(Tie). Declaring Tie whenever |P(A) − P(B)| is below
# a threshold turns more verdicts into Tie on every tier at once. This is the trade-off of the
# paper in one knob: the Tie rate rises where Tie is correct, and where it is costly.

# %%
if explore.has_probabilities(explore.select(rows, shown, "L0")):
    moved = pd.concat([explore.static_view(rows, shown, "L0", threshold=t)
                       for t in (0.0, 0.2, 0.5, 0.8)], ignore_index=True)
    display(moved.pivot(index="threshold", columns="tier", values="tie").round(1))
else:
    print(f"{shown} returned text verdicts without label probabilities: the threshold is fixed.")

# %% [markdown]
# ## Interactive explorer
#
# Pick a judge, level, tier and threshold; select judges under "overlay" to draw their ladders
# over it (shift- or ctrl-click for several); untick "paper" to draw the judges alone. The view
# below the controls is drawn now and redrawn in place at every change. Run headless there is no
# front end, so the controls render as inert widgets under the view of their starting values.

# %%
try:
    from tjb_lib.teaching.explore_ui import Explorer
except ImportError:  # the explorer is optional; the static view above stands on its own
    print("ipywidgets is not installed: the static view above is the whole explorer.")
else:
    display(Explorer(rows, shown, paper, split_pairs, seed=seed))
