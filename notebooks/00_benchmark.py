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
# # §4 TraceJudgeBench: building the splits (Table 1)
#
# Every split is built from the raw HotpotQA, FinQA and HumanEval records by one seeded
# function, `tjb_lib.pairs.build`, and shipped in `data/splits/` with a manifest of counts and
# checksums. This notebook never rewrites them: with the shipped seed it builds every split in
# memory and checks it against the shipped files byte for byte (a difference stops the
# notebook); with any other seed it builds into `.cache/splits/seed<seed>/` and lists which
# splits differ from the shipped ones. Table 1 puts our component sizes beside the paper's.
#
# No judge runs in this notebook; the parameters are only checked, as in every notebook.

# %% tags=["parameters"]
judge = "smollm2"      # a catalog name, or any name with base_url and model (keys: environment)
scale = "default"      # default: the documented sample; paper: every pair
seed = 20260923        # bootstrap and build seed
replay_only = False    # True: only replay stored judge calls, never call the judge
outputs_dir = ""       # empty: the outputs folder of this repository (tests write elsewhere)
base_url = ""          # an OpenAI-compatible endpoint for the judge (empty: its provider's own)
model = ""             # the model id at base_url (empty: the catalog's)

# %%
from tjb_lib.run import notebook

nb = notebook.setup("00_benchmark", judge=judge, scale=scale, seed=seed,
                    replay_only=replay_only, outputs_dir=outputs_dir, base_url=base_url,
                    model=model)

# %% [markdown]
# ## Build the splits of this seed, next to the shipped ones

# %%
nb.check_splits()

# %% [markdown]
# ## Table 1: benchmark components, our sizes beside the paper's

# %%
nb.show("table_1")

# %% [markdown]
# ## The paper's sizes and settings, ours beside them
#
# Each number the paper states in its text for this section (`in_text_claims.csv`), with ours
# beside it where verdict rows or splits can give it; `status` says why not otherwise.

# %%
nb.claims()
