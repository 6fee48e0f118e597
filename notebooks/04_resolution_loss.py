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
# # §5.3 Moderate gaps reveal resolution loss
#
# The same Tie means different things on different tiers: bias suppression on equivalent
# pairs, possibly calibrated judgement on soft pairs (humans mostly say Tie), and lost
# resolution on moderate pairs, where humans prefer the complete plain answer. So Tie is
# reported per target relation, never pooled (Tables A11, A19, Figure A1).
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
from tjb_lib import compare, figures as figs, plan
from tjb_lib.report import save_figure, write_table

compare.check_parameters(judge, scale)
tables, figures = compare.output_dirs(outputs_dir)
rows = plan.run_jobs(plan.jobs(["table_a11", "table_a19", "table_a14"], scale), judge,
                     replay_only=replay_only, progress=False)
rows.groupby(["split", "protocol", "level"]).size().rename("ordered comparisons")

# %% [markdown]
# ## Table A11: moderate tier, better-plain win and Tie over the ladder

# %%
a11 = compare.compare_float("table_a11", rows, judge, seed)
write_table(a11, "table_a11", tables)
a11

# %% [markdown]
# ## Table A19 and Figure A1: soft tier, worse-cited win and Tie over the ladder

# %%
a19 = compare.compare_float("table_a19", rows, judge, seed)
write_table(a19, "table_a19", tables)
write_table(a19, "figure_a1", tables)
save_figure(figs.figure_a1(a19), "figure_a1", figures)
a19

# %% [markdown]
# ## Tie decomposition by target relation
#
# Beside the paper's human Tie prevalence (soft 96%, moderate 9%). Tie precision against human
# labels needs labels, which this compendium does not have (see `01_human_validation`).

# %%
ties = compare.tie_decomposition(rows, judge)
write_table(ties, "tie_by_relation", tables)
ties
