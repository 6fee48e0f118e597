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
# # §5.6 Controlled ranking: does citation display reorder systems?
#
# Four workflow variants answer the same HotpotQA queries: `answer_only`, `plain_full`,
# `cited_full` (same content as plain_full, with citation display) and `cited_partial`. Each
# system's score is (wins + 0.5 × ties) / its ordered comparisons × 100 (Table A17); the direct
# plain_full vs cited_full comparison counts wins and ties (Table A18). Under plain preference
# the display should lift cited_full above plain_full; under TRACE the two should coincide.
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
from tjb_lib import compare, plan
from tjb_lib.report import write_table

compare.check_parameters(judge, scale)
tables, figures = compare.output_dirs(outputs_dir)
rows = plan.run_jobs(plan.jobs(["table_a17", "table_a18"], scale), judge,
                     replay_only=replay_only, progress=False)
rows.groupby(["split", "protocol", "level"]).size().rename("ordered comparisons")

# %% [markdown]
# ## Table A17: workflow-ranking scores

# %%
a17 = compare.compare_float("table_a17", rows, judge, seed)
write_table(a17, "table_a17", tables)
a17

# %% [markdown]
# ## Table A18: plain_full vs cited_full, percent of ordered rows (the paper prints counts of
# 400; `paper` here is that count as a percent)

# %%
a18 = compare.compare_float("table_a18", rows, judge, seed)
write_table(a18, "table_a18", tables)
a18
