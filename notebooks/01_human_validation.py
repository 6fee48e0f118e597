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
# # §4 Human validation (Table 2)
#
# The paper validated 200 natural pairs and 200 graded pairs with two blind annotators
# (Table 2 / A4). **No human labels exist in this compendium**: the paper's workbooks were not
# released, and no one has labelled our pairs yet. This notebook shows the paper's values and
# computes ours only from label files found under `data/human_validation/labels/<stem>/`
# (how to produce them: `data/human_validation/README.md`). Without labels our cells say
# *needs human labels* (n = 0), never a number.

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

nb = notebook.setup("01_human_validation", judge=judge, scale=scale, seed=seed,
                    replay_only=replay_only, outputs_dir=outputs_dir, base_url=base_url,
                    model=model)

# %%
from tjb_lib.validation.annotate import label_sets

found = label_sets()
print({f["stem"]: sorted(f["annotators"]) for f in found} or
      "no filled workbooks under data/human_validation/labels/: our agreement is not computed")

# %% [markdown]
# ## Table 2: inter-annotator agreement, ours beside the paper's

# %%
nb.show("table_2")

# %% [markdown]
# ## The paper's validation numbers (they need human labels)
#
# Each number the paper states in its text for this section (`in_text_claims.csv`), with ours
# beside it where verdict rows or splits can give it; `status` says why not otherwise.

# %%
nb.claims()
