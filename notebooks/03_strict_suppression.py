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
# # §5.2 Strict rubrics suppress the bias and keep clear-conflict accuracy
#
# The strict tie-required rubric (L4) should turn cited wins on equivalent pairs into Tie
# (Table A14, Figure 2) without losing the clear correctness conflicts, where one side's final
# answer is wrong (Table A15, the decoupled probe; ours also at L4 and TRACE-lite). The paper
# runs the conflicts under three wordings of every level in both orders (App. A.4) and states
# that accuracy stays at or above 93.0%: the claims table at the end checks that on our
# paraphrase run.

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

nb = notebook.setup("03_strict_suppression", judge=judge, scale=scale, seed=seed,
                    replay_only=replay_only, outputs_dir=outputs_dir, base_url=base_url,
                    model=model)

# %% [markdown]
# ## Table A14: plain cited-win vs strict Tie on the equivalence splits

# %%
nb.show("table_a14")

# %% [markdown]
# ## Figure 2: plain cited-win (a) beside strict Tie (b)

# %%
nb.show("figure_2")

# %% [markdown]
# ## Table A15: correctness retention on clear and reverse conflicts
#
# The paper's A15 is the decoupled probe; ours compares TRACE v1 (correctness-only
# normalisation) with it. The strict-prompt endpoint is not in the paper
# (`data/paper_reported/NOTES.md`): our L4 and TRACE-lite rows follow as a table of their own.

# %%
nb.show("table_a15")

# %%
nb.show("table_a15_protocols")

# %% [markdown]
# ## The numbers of §5.2 and App. A.4 in the text
#
# Each number the paper states in its text for this section (`in_text_claims.csv`), with ours
# beside it where verdict rows or splits can give it; `status` says why not otherwise.

# %%
nb.claims()
