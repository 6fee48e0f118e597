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
# # §5.4 The bias–resolution frontier
#
# Figure 3 follows the moderate tier up the ladder L0 → L4 and then to TRACE: better-plain wins
# fall as the rubric tightens (resolution loss) and come back under TRACE. The paired tests of
# §E.5 compare protocols on the same ordered comparisons: exact McNemar on the discordant
# units and a paired bootstrap interval for the difference in better-plain rate, "2,000
# resamples over pair-by-order units" as E.5 says (each unit kept paired across the two
# protocols).

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

nb = notebook.setup("05_frontier", judge=judge, scale=scale, seed=seed,
                    replay_only=replay_only, outputs_dir=outputs_dir, base_url=base_url,
                    model=model)

# %% [markdown]
# ## Figure 3: better-plain win and Tie over L0–L4 and TRACE, ours beside the paper's judges

# %%
nb.show("figure_3")

# %% [markdown]
# ## Paired contrasts on the better-plain indicator (§5.4, §E.5)
#
# Only ordered comparisons with a parsed verdict under both settings count, so a TRACE contrast
# runs on the TRACE sample. `direction` says which setting has the higher better-plain rate;
# `paper` quotes the paper's statement with its numbers from `in_text_claims.csv`.

# %%
nb.show("contrasts_e5")

# %% [markdown]
# ## The numbers of §5.4 and §E.5 in the text
#
# Each number the paper states in its text for this section (`in_text_claims.csv`), with ours
# beside it where verdict rows or splits can give it; `status` says why not otherwise.

# %%
nb.claims()
