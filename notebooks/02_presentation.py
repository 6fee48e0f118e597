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
# # §5.1 Citation display creates a spurious preference
#
# On content-equivalent pairs the gold verdict is Tie, so any cited win is a presentation
# effect: Δcitation = W_cited − W_plain (Table A9). The ablations (Table A10) ask which part of
# the display does it; the position-only controls (Table A16) ask whether it is plain position
# bias; the order gaps ask whether the effect depends on which side is shown first.
#
# The set-up below says which judge is reading and, first, what its position-only controls
# show: a judge that answers one slot on identical candidates cannot be read as preferring
# citations or content anywhere.

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

nb = notebook.setup("02_presentation", judge=judge, scale=scale, seed=seed,
                    replay_only=replay_only, outputs_dir=outputs_dir, also=["figure_2"],
                    base_url=base_url, model=model)

# %% [markdown]
# ## Table A9: equivalence and natural pairs under plain, strict and decoupled judging
#
# Δcitation's interval is the paper's pair-level bootstrap (§3): a resample draws pairs, both
# orders of a pair together, so a judge that answers one slot (cited when cited is shown first,
# plain when plain is) nets every pair to 0 and gets [0, 0].

# %%
nb.show("table_a9")

# %% [markdown]
# ## Table A10: which artifact triggers the preference

# %%
nb.show("table_a10")

# %% [markdown]
# ## Table A16: position-only controls (the same plain candidate in both slots)
#
# Any non-Tie here is generic position bias. The paper does not say which level its controls
# ran under, so ours are shown at L0 and at L4. Both orders of identical candidates are one
# prompt, answered by one stored call, so `n` counts distinct calls and the Wilson interval
# rests on them (`interval`: wilson over distinct judge calls).

# %%
nb.show("table_a16")

# %% [markdown]
# ## Figure 2: plain cited-win (a) beside strict Tie (b)
#
# Drawn here from the same runs; `03_strict_suppression` writes it.

# %%
nb.show("figure_2")

# %% [markdown]
# ## Order gaps: cited-win rate with the cited side first minus second
#
# With the pair-level bootstrap interval of §3 (both orders of a pair resampled together).

# %%
nb.show("order_gaps")

# %% [markdown]
# ## Table A20: rationale keyword rates
#
# Supporting evidence only: how often a judge's stated reason uses source or citation words
# (`tjb_lib.analysis.rationale.LEXICON`), over our L0 and L4 rows of each split. A judge scored from its
# label probabilities writes no reason, so its cells say *no rationale text*; a decision type
# the judge never returned (a Tie, for a judge that never says Tie) says *0 of n verdicts*.

# %%
nb.show("table_a20")

# %% [markdown]
# ## The numbers of §5.1 in the text
#
# Each number the paper states in its text for this section (`in_text_claims.csv`), with ours
# beside it where verdict rows or splits can give it; `status` says why not otherwise.

# %%
nb.claims()
