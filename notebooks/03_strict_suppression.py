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
# # §5.2 Strict rubrics suppress the bias and keep clear-conflict accuracy
#
# The strict tie-required rubric (L4) should turn cited wins on equivalent pairs into Tie
# (Table A14, Figure 2) without losing the clear correctness conflicts, where one side's final
# answer is wrong (Table A15, the decoupled probe; ours also at L4 and TRACE-lite).
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
from tjb_lib import compare, figures as figs, metrics, plan
from tjb_lib.report import save_figure, write_table

compare.check_parameters(judge, scale)
tables, figures = compare.output_dirs(outputs_dir)
rows = plan.run_jobs(plan.jobs(["table_a14", "table_a15", "figure_2"], scale), judge,
                     replay_only=replay_only, progress=False)
rows.groupby(["split", "protocol", "level"]).size().rename("ordered comparisons")

# %% [markdown]
# ## Table A14: plain cited-win vs strict Tie on the equivalence splits

# %%
a14 = compare.compare_float("table_a14", rows, judge, seed)
write_table(a14, "table_a14", tables)
a14

# %% [markdown]
# ## Figure 2: plain cited-win (a) beside strict Tie (b)

# %%
fig2 = compare.compare_float("figure_2", rows, judge, seed)
write_table(fig2, "figure_2", tables)
save_figure(figs.figure_2(fig2), "figure_2", figures);

# %% [markdown]
# ## Table A15: correctness retention on clear and reverse conflicts
#
# The paper's A15 is the decoupled probe; ours compares TRACE v1 (correctness-only
# normalisation) with it. The strict-prompt endpoint is not in the paper (NOTES §7): our L4 and
# TRACE-lite rows follow as a table of their own.

# %%
a15 = compare.compare_float("table_a15", rows, judge, seed)
write_table(a15, "table_a15", tables)
a15

# %%
conflict = metrics.correctness_table(rows[rows["split"] == "conflict"], seed=seed)
write_table(conflict, "table_a15_protocols", tables)
conflict
