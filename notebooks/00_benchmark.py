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
# # §4 TraceJudgeBench: building the splits (Table 1)
#
# Every split is built from the raw HotpotQA, FinQA and HumanEval records by one seeded
# function, `tjb_lib.pairs.build.build_all`, and written to `data/splits/` with a manifest of
# counts and checksums. Rebuilding with the same seed gives byte-identical files, so the
# manifest below proves the shipped splits are the ones this seed builds. Table 1 puts our
# component sizes beside the paper's.
#
# No judge runs in this notebook; the judge parameter is only checked, like in every notebook.

# %% tags=["parameters"]
judge = "smollm2"      # a name from tjb_lib.judges.catalog (keys come from the environment)
scale = "default"      # default: the documented sample; paper: every pair
seed = 20260923        # bootstrap and build seed
replay_only = False    # True: only replay stored judge calls, never call the judge
outputs_dir = ""       # empty: the outputs folder of this repository (tests write elsewhere)

# %%
from tjb_lib import compare
from tjb_lib.pairs import build, table1

compare.check_parameters(judge, scale)
tables, figures = compare.output_dirs(outputs_dir)

# %% [markdown]
# ## Build the splits

# %%
manifest = build.build_all(seed)
splits = compare.manifest_frame(manifest)
splits

# %% [markdown]
# ## Table 1: benchmark components, our sizes beside the paper's

# %%
table1.write(manifest, tables)
table1.table_1(manifest)
