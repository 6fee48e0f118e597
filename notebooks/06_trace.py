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
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # §5.5–§6 TRACE recovers moderate-gap resolution, at a cost
#
# TRACE first normalises both candidates into fixed fields (stage 1), then judges the masked
# records (stage 2). On the moderate tier it should bring back better-plain wins that the strict
# rubric lost (Table A12, HotpotQA; Table A13, FinQA), with no worse-cited wins. It costs two
# calls per ordered comparison; the paper reports 3.7–4.3x the tokens of a one-call judge.
#
# The default judge (`judge = "smollm2"`) is SmolLM2-135M-Instruct, a 135M-parameter model that
# runs on a laptop CPU, not one of the paper's judges (GPT-5.5, Claude Sonnet 4.6, DeepSeek
# V4-Flash, Qwen2.5-14B, Gemma-3-12B). It is weak and prefers position A almost regardless of
# content. Its numbers are **not expected to match the paper's**; the comparison shows which of
# the paper's effects a judge of this size shows. Every table names our judge in its `judge`
# column, and every paper value sits beside ours with our n and 95% interval.

# %% tags=["parameters"]
judge = "smollm2"      # a name from tjb_lib.judges.catalog (keys come from the environment)
scale = "default"      # default: the documented sample; paper: every pair
seed = 20260923        # bootstrap and build seed
replay_only = False    # True: only replay stored judge calls, never call the judge
outputs_dir = ""       # empty: the outputs folder of this repository (tests write elsewhere)

# %%
from tjb_lib import compare, metrics, plan
from tjb_lib.report import write_table

compare.check_parameters(judge, scale)
tables, figures = compare.output_dirs(outputs_dir)
rows = plan.run_jobs(plan.jobs(["table_a12", "table_a13", "table_a11"], scale), judge,
                     replay_only=replay_only, progress=False)
rows.groupby(["split", "protocol", "level"]).size().rename("ordered comparisons")

# %% [markdown]
# ## Table A12: TRACE on the HotpotQA moderate tier

# %%
a12 = compare.compare_float("table_a12", rows, judge, seed)
write_table(a12, "table_a12", tables)
a12

# %% [markdown]
# Our protocols side by side on the moderate tier (TRACE-lite is our one-call variant):

# %%
moderate = metrics.graded_table(rows[rows["split"] == "moderate_hotpotqa"], seed=seed)
write_table(moderate, "moderate_protocols", tables)
moderate

# %% [markdown]
# ## Table A13: FinQA moderate tier (L0–L2 range, L4 Tie, TRACE)

# %%
a13 = compare.compare_float("table_a13", rows, judge, seed)
write_table(a13, "table_a13", tables)
a13

# %% [markdown]
# ## Protocol cost (§6): calls and tokens per ordered comparison, relative to L0
#
# A judge scored from its label probabilities writes no output tokens for a verdict, while
# TRACE's stage 1 generates text, so our TRACE multiplier is not comparable in size with the
# paper's (which used generating API judges); calls per comparison are.

# %%
cost = compare.protocol_cost(rows, judge, "moderate_hotpotqa")
write_table(cost, "protocol_cost", tables)
cost
