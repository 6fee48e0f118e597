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
# # §5.3 Moderate gaps reveal resolution loss
#
# The same Tie means different things on different tiers: bias suppression on equivalent
# pairs, possibly calibrated judgement on soft pairs (humans mostly say Tie), and lost
# resolution on moderate pairs, where humans prefer the complete plain answer. So Tie is
# reported per target relation, never pooled (Tables A11, A19, Figure A1). Tie precision and
# item-level agreement with humans need human labels, which this compendium does not have
# (see `01_human_validation`); the claims table says so for each.

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

nb = notebook.setup("04_resolution_loss", judge=judge, scale=scale, seed=seed,
                    replay_only=replay_only, outputs_dir=outputs_dir, base_url=base_url,
                    model=model)

# %% [markdown]
# ## Table A11: moderate tier, better-plain win and Tie over the ladder

# %%
nb.show("table_a11")

# %% [markdown]
# ## Table A19 and Figure A1: soft tier, worse-cited win and Tie over the ladder

# %%
nb.show("table_a19")

# %%
nb.show("figure_a1")

# %% [markdown]
# ## Tie decomposition by target relation
#
# Beside the paper's human Tie prevalence (soft 96%, moderate 9%).

# %%
nb.show("tie_by_relation")

# %% [markdown]
# ## The numbers of §5.3 in the text
#
# Each number the paper states in its text for this section (`in_text_claims.csv`), with ours
# beside it where verdict rows or splits can give it; `status` says why not otherwise.

# %%
nb.claims()
