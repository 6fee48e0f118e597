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
# # 11 · Judge it yourself
#
# In this notebook **you are the judge**. You see real pairs from the benchmark, blind: a task
# and two candidate answers named only A and B. Which candidate carries the citation-like
# display, and which tier the pair comes from, are hidden; the side shown as A and the order of
# the items are shuffled with the seed. You judge every pair twice: first under the plain
# instruction of prompt level **L0**, then under the strict instruction of level **L4**, word
# for word as the project's judges read them. Click **A**, **B** or **Tie**.
#
# Your answers are saved after every click as an annotator workbook (the format of notebook 10,
# so it can be re-imported like any annotator's). When both rounds are done the notebook draws
# your own frontier beside the embedded judge and the paper's judges, and names what each of
# your Ties means: **correct** on equivalent pairs, **calibrated** on soft pairs, **costly** on
# moderate pairs.
#
# **For a 15-minute class** the default is one pair per tier: 6 answers, well under 15 minutes
# of reading (the first cell prints the words of your draw and the minutes they take at 200
# words a minute); two pairs per tier (`n_per_tier = 2`) take about twice as long. The next
# student types a code of their own above the buttons and starts afresh: each code draws its own
# pairs (a teacher who wants one shared draw sets `shared_draw = True`), every code keeps its
# workbook, and the keys are kept in a hidden folder the file browser does not open.
#
# Your own results appear under the buttons after your last click, and leave the screen when
# the next code starts. The results section further down always shows a shipped **example**
# label set, written by a documented rule, not by a person, on other pairs than anyone's:
# nothing shown before your last click tells you anything about your own pairs. Run headless
# (papermill, `make reproduce`) there is nobody to click, so the example is all it shows.

# %% tags=["parameters"]
judge = "smollm2"      # a catalog name, or any name with base_url and model (keys: environment)
scale = "default"      # default: the documented sample; paper: every pair
seed = 20260923        # example and simulation seed
replay_only = False    # True: only replay stored judge calls, never call the judge
outputs_dir = ""       # empty: the outputs folder of this repository (tests write elsewhere)
base_url = ""          # an OpenAI-compatible endpoint for the judge (empty: its provider's own)
model = ""             # the model id at base_url (empty: the catalog's)
annotator = "you"      # the code your workbook is saved under (letters, digits, - or _)
n_per_tier = 1         # pairs per tier (equivalence, soft, moderate), each judged twice
shared_draw = False    # True: every code judges the same pairs (a teacher's choice)

# %%
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from tjb_lib.validation import annotate
from tjb_lib.teaching import explore
from tjb_lib.analysis import frontier, metrics
from tjb_lib.run import notebook, sample
from tjb_lib import paths
from tjb_lib.teaching import judge_yourself as jy

spec = notebook.check_parameters(judge, scale, seed, replay_only, outputs_dir, base_url,
                                 model)
notebook.show_every_column()
FOLDER = (Path(outputs_dir) if outputs_dir else paths.OUTPUTS) / "judge_yourself"
CLASS = jy.Class(FOLDER, n_per_tier, seed, scale, shared_draw)
print(f"{3 * n_per_tier} pairs per code ({n_per_tier} per tier, tiers hidden until the end), "
      "two rounds; " + ("every code judges the same pairs" if shared_draw else
                        "each code draws its own pairs")
      + f"; workbooks in {FOLDER}/<code>/, keys in a hidden folder")
print(jy.reading_note(CLASS.prepare(annotator)))

# %% [markdown]
# ## The two instructions
#
# The first paragraph of each level's prompt (`tjb_lib/prompts/ladder_L0_p0.txt` and
# `ladder_L4_p0.txt`); a judge also gets the reply format, which you answer with buttons.

# %%
display(Markdown("\n\n".join(f"**{lv}**: {jy.instruction(lv)}" for lv in jy.LEVELS)))

# %% [markdown]
# ## The other judges on the same pairs
#
# The embedded judge's stored verdicts on exactly these pairs at L0 and L4 (both candidate
# orders, so two verdicts per pair), replayed from the response store; and the paper's judges,
# whose reported rates come from the whole tiers of the paper (Tables A9, A19, A11), not from
# these pairs. The position-only controls (identical candidates, Table A16) say first how far
# the embedded judge's verdicts are about content at all.

# %%
FLOATS = ["table_a14", "table_a19", "table_a11", "table_a13", "table_a16"]
jobs = [j for j in sample.jobs(FLOATS, scale) if j.protocol in jy.LEVELS]
all_rows = sample.run_jobs(jobs, spec, replay_only=replay_only, progress=False)
identical = all_rows[all_rows["target_relation"] == "identical"]
paper = explore.paper_frontier()
if identical.empty:
    display(Markdown(f"*{judge} has no stored position-only controls at this scale"
                     + (" (replay_only: nothing is called)" if replay_only else "")
                     + ": how far its verdicts are about position is not known here.*"))
else:
    controls = metrics.position_table(identical, by=("judge", "level"))
    display(Markdown("Position-only controls: " + "; ".join(
        f"at {r.level} {judge} picks slot A in {r.first_position_win:.0f}%, slot B in "
        f"{r.second_position_win:.0f}% and answers Tie in {r.tie:.0f}% of {r.n} comparisons "
        "of identical candidates" for r in controls.itertuples())
        + f". Where one slot dominates, {judge}'s verdicts below are about position, not "
        "content."))
print(f"{judge}: stored verdicts on the pairs of the tiers drawn from; paper judges: "
      f"{', '.join(paper['judge'].unique())}")


def show_results(verdicts: pd.DataFrame) -> None:
    """A person's verdicts beside the judge's on the same pairs and the paper's judges, then the
    key item by item and the workbook read back as any annotator's."""
    who = verdicts["judge"].iloc[0]
    same = all_rows[all_rows["pair_id"].isin(set(verdicts["pair_id"]))]
    runs = [(who, verdicts)] + ([(judge, same)] if not same.empty else [])
    table = pd.concat([explore.static_view(rows, name, lv).assign(judge=name, level=lv)
                       for name, rows in runs for lv in jy.LEVELS], ignore_index=True)
    display(table[["judge", "level", "tier", "meaning_of_tie", "n", "cited", "plain", "tie",
                   "unparsed"]].round(1))
    if same.empty:
        display(Markdown(f"*{judge} has no stored verdicts on these pairs: only the paper's "
                         "judges are drawn beside yours.*"))
    points = pd.concat([frontier.tier_rates(rows, by=("judge", "level")) for _, rows in runs],
                       ignore_index=True)
    fig = explore.plot_tiers(points, paper, levels=jy.LEVELS)
    display(fig)
    plt.close(fig)
    display(Markdown(jy.tie_readings(verdicts)))
    display(Markdown("**The key, item by item** (which side was shown as A, and the verdict "
                     "in the paper's terms):"))
    display(jy.reveal(verdicts))
    display(Markdown("**The workbook read back through the key** (only Q5, the final "
                     "preference, is filled, so it is read as a partial workbook):"))
    display(verdicts.groupby(["level", "target_relation"])["decision"].value_counts()
            .unstack(fill_value=0))


# %% [markdown]
# ## Judge
#
# Read the instruction above the task, then the two candidates, and click. **Back** shows the
# previous item again; a new click replaces its answer. Every click is saved, so you can stop
# and come back: reopening the notebook resumes where you were. When the last item of the
# second round is answered, your results appear under the buttons. The next student types a code
# of their own and clicks **Start with this code**: your results leave the screen, and their
# pairs are drawn for their code. Headless, the buttons are inert.

# %%
from tjb_lib.teaching.judge_yourself_ui import JudgeYourself  # noqa: E402  (needs ipywidgets)

session = JudgeYourself(CLASS, annotator, on_done=show_results)
display(session)

# %% [markdown]
# ## The example, for comparison
#
# Your own results are under the buttons once both of your rounds are saved. This section always
# reads the shipped example set in `data/judge_yourself/example/`, whose pairs are never among
# anyone's draw, so it never shows a student's verdicts or key.

# %%
display(Markdown(
    "**EXAMPLE LABELS, NOT A PERSON, ON OTHER PAIRS THAN YOURS.** These verdicts were "
    "written by a deterministic rule, "
    "`tjb_lib.teaching.judge_yourself.example_answer`, that reads only the two candidates as shown: "
    "under L0 the candidate with more substance wins (text left once citation-like display "
    "is removed), equal substance goes to the candidate showing more display, and identical "
    "candidates are a Tie; under L4 it answers Tie whenever both state the same final "
    "answer. No human labelled these pairs; `data/judge_yourself/example/README.md` says "
    "how the set was made."))
show_results(jy.read_verdicts(jy.EXAMPLE_DIR, jy.EXAMPLE_ANNOTATOR))

# %% [markdown]
# How to read it. In each panel the solid line is the tier's preference and the dashed line is
# Tie. The L4 instruction asks for Tie whenever the final answers agree, and it is blind to the
# tier: a Tie it adds on an equivalent pair removes a preference for display (correct), on a
# soft pair it records a difference humans themselves mostly call a Tie (calibrated), and on a
# moderate pair it throws away a real quality gap (costly). Where your Ties rose from L0 to L4
# on all three tiers at once, you traced the paper's frontier yourself: suppression and
# resolution loss from one change of instruction. A judge whose controls above show one slot
# winning is answering the position, so its lines say little about content.

# %% [markdown]
# ## A workbook, re-imported
#
# Each round is a graded workbook with its key, exactly as notebook 10 writes them: only Q5 (the
# final preference) is filled, so it is read back as a partial workbook. The same call reads any
# annotator's file; here, the example's (yours is read back under the buttons).

# %%
for level in jy.LEVELS:
    path = jy.answers_path(jy.EXAMPLE_DIR, level, jy.EXAMPLE_ANNOTATOR)
    back = annotate.import_workbook(path, jy.EXAMPLE_DIR / f"{jy.stem(level)}.key.csv",
                                    annotator=jy.EXAMPLE_ANNOTATOR, partial=True)
    counts = back.groupby("target_relation")["preference"].value_counts().unstack(fill_value=0)
    display(Markdown(f"`{path.name}` of round {level}: {len(back)} items read back"))
    display(counts)
