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
# # §5.6 Controlled ranking: does citation display reorder systems?
#
# Four workflow variants answer the same HotpotQA queries: `answer_only`, `plain_full`,
# `cited_full` (same content as plain_full, with citation display) and `cited_partial`. Each
# system's score is (wins + 0.5 × ties) / its parsed ordered comparisons × 100 (Table A17); the
# direct plain_full vs cited_full comparison counts wins and ties (Table A18). Under plain
# preference the display should lift cited_full above plain_full; under TRACE the two should
# coincide.

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

nb = notebook.setup("07_ranking", judge=judge, scale=scale, seed=seed,
                    replay_only=replay_only, outputs_dir=outputs_dir, base_url=base_url,
                    model=model)

# %% [markdown]
# ## Table A17: workflow-ranking scores

# %%
nb.show("table_a17")

# %% [markdown]
# ## Table A18: plain_full vs cited_full, percent of ordered rows (the paper prints counts of
# 400; `paper` here is that count as a percent)

# %%
nb.show("table_a18")

# %% [markdown]
# ## The numbers of §5.6 and §E.9–E.10 in the text
#
# Each number the paper states in its text for this section (`in_text_claims.csv`), with ours
# beside it where verdict rows or splits can give it; `status` says why not otherwise.

# %%
nb.claims()
