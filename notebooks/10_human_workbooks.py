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
# # 10 · Human validation workbooks
#
# The paper validates its tiers with two blind annotators per set (§4, App. B; Tables 2, A3,
# A4): 200 natural citation-looking HotpotQA pairs, 200 graded HotpotQA pairs (100 soft, 100
# moderate), and 50 FinQA moderate pairs. The paper's workbooks and labels are not public, so
# this notebook writes fresh ones from our splits, ready to hand out, and, once filled
# workbooks come back, reads them in, adjudicates disagreements and computes the agreement
# statistics of Table 2.
#
# Blinding: annotators see a task and two candidates named A and B. Which side carries the
# citation display is drawn per item from the seed (exactly half of the items show it as A);
# the side, the pair id, the split and the gold go to a separate key file under `keys/`, which
# must never reach an annotator.

# %% tags=["parameters"]
judge = "smollm2"      # a catalog name, or any name with base_url and model (keys: environment)
scale = "default"      # default: the documented sample; paper: every pair
seed = 20260923        # example and simulation seed
replay_only = False    # True: only replay stored judge calls, never call the judge
outputs_dir = ""       # empty: the outputs folder of this repository (tests write elsewhere)
base_url = ""          # an OpenAI-compatible endpoint for the judge (empty: its provider's own)
model = ""             # the model id at base_url (empty: the catalog's)

# %%
import pandas as pd
from IPython.display import Markdown, display

from pathlib import Path

from tjb_lib.validation import agreement, annotate
from tjb_lib.run import notebook
from tjb_lib import paths
from tjb_lib.pairs import load_split
from tjb_lib.paper.report import paper_table, write_table

nb = notebook.setup("10_human_workbooks", judge=judge, scale=scale, seed=seed,
                    replay_only=replay_only, outputs_dir=outputs_dir, base_url=base_url,
                    model=model)
OUT = (Path(outputs_dir) if outputs_dir else paths.OUTPUTS) / "human_validation"
KEYS = OUT / "keys"
WORKBOOKS = {  # stem: (kind, pairs); the seed of each is seed + its position here
    "natural_workbook": ("natural", [p for p in load_split("natural_hotpotqa")
                                     if p.meta.get("validated_subset")]),
    "graded_workbook": ("graded", load_split("soft_hotpotqa") + load_split("moderate_hotpotqa")),
    "graded_finqa_workbook": ("graded", load_split("moderate_finqa")),
}

# %% [markdown]
# ## Export the blind workbooks
#
# Each set is written as `.xlsx` (sheet `items` with drop-down answers, sheet `guidelines`) and
# as `.csv` with the same columns; the key goes to `keys/<stem>.key.csv`.

# %%
KEYS.mkdir(parents=True, exist_ok=True)
summary = []
for i, (stem, (kind, to_label)) in enumerate(WORKBOOKS.items()):
    written = annotate.export_workbooks(to_label, kind, OUT, seed=seed + i, name=stem)
    key_path = written["key"].replace(KEYS / written["key"].name)  # keep the key apart
    workbook = pd.read_csv(written["csv"], dtype=str, keep_default_na=False)
    key = pd.read_csv(key_path, dtype=str, keep_default_na=False)
    leaked = [c for c in annotate.KEY_COLUMNS if c != "item_id" and c in workbook.columns]
    assert not leaked, f"{written['csv']}: key columns {leaked} in the annotators' workbook"
    assert (workbook["item_id"] == key["item_id"]).all(), f"{stem}: workbook and key disagree"
    summary.append({"workbook": stem, "kind": kind, "items": len(workbook),
                    **key["target_relation"].value_counts().add_prefix("n_").to_dict(),
                    "cited_shown_as_A_pct": 100 * (key["a_side"] == "cited").mean(),
                    "seed": seed + i, "files": f"{written['xlsx'].name}, {written['csv'].name}",
                    "key": f"keys/{key_path.name}"})
summary = pd.DataFrame(summary)
counts = sorted(c for c in summary.columns if c.startswith("n_"))
summary[counts] = summary[counts].fillna(0).astype(int)
summary = summary[["workbook", "kind", "items", *counts, "cited_shown_as_A_pct", "seed", "files",
                   "key"]]
display(summary)

# %% [markdown]
# What an annotator sees (first item of the graded workbook, candidates shortened):

# %%
preview = pd.read_csv(OUT / "graded_workbook.csv", dtype=str, keep_default_na=False).iloc[0]
cut = lambda text, n=600: text if len(text) <= n else text[:n] + " [...]"  # noqa: E731
display(Markdown(f"**{preview['item_id']}** · {preview['task']}\n\n**Candidate A**\n\n"
                 f"```text\n{cut(preview['candidate_A'])}\n```\n\n**Candidate B**\n\n"
                 f"```text\n{cut(preview['candidate_B'])}\n```"))
display(pd.DataFrame([{"column": q.column, "question": q.text, "answers": " | ".join(q.choices)}
                      for q in annotate.QUESTIONS["graded"]]))

# %% [markdown]
# ## Import and adjudicate filled workbooks
#
# Filled workbooks go to `data/human_validation/labels/<stem>/<annotator>.xlsx` (or `.csv`),
# one file per anonymous annotator code (`R1`, `R2`, ...); an adjudicator's file, holding only
# the disputed items, is named `ADJ`. Copy the key the workbook was exported with to
# `data/human_validation/<stem>.key.csv`. Import maps every A/B answer back through the key to
# the side it names (cited or plain), so the statistics read in the paper's terms.

# %%
found = annotate.label_sets(paths.HUMAN_VALIDATION)
if not found:
    display(Markdown(
        "**No filled workbooks in `data/human_validation/labels/`.** The compendium ships no "
        "human labels (the paper's are not public), so there is nothing to adjudicate yet. "
        "For reference, the paper's Table 2:"))
    display(paper_table("table_2"))
for s in found:
    stem, key_path = s["stem"], s["key"]
    labels = {code: annotate.import_workbook(path, key_path, annotator=code)
              for code, path in sorted(s["annotators"].items())}
    if len(labels) < 2:
        display(Markdown(f"*{stem}: only {list(labels)} returned so far; agreement needs two "
                         "annotators.*"))
        continue
    first, second = list(labels)[:2]
    if len(labels) > 2:
        display(Markdown(f"*{stem}: {list(labels)} returned; agreement uses the first two, "
                         f"{first} and {second}.*"))
    adj = (annotate.import_workbook(s["adjudicator"], key_path, annotator="ADJ", partial=True)
           if s["adjudicator"] else None)
    final = agreement.adjudicate(labels[first], labels[second], adj)
    final.to_csv(OUT / f"{stem}.adjudicated.csv", index=False, lineterminator="\n")
    table_2_rows = agreement.agreement_table(labels[first], labels[second])
    write_table(table_2_rows, f"human_validation_{stem}", nb.tables)
    display(Markdown(f"### {stem}: {len(final)} items, {int(final['disagreement'].sum())} "
                     f"with a disagreement, {int(final['adjudicated'].sum())} adjudicated, "
                     f"{int((~final['resolved']).sum())} still unresolved"))
    display(table_2_rows.round(3))
