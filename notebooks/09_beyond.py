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
# # 09 · Beyond the paper
#
# Four analyses the paper motivates but does not run, each computed from verdict rows already
# stored (no new judge call beyond the planned runs):
#
# 1. **The tie-threshold frontier.** A logit-scored judge stores P(A), P(B), P(Tie) for every
#    ordered comparison. Re-deciding one run (the plain prompt, L0) under a moving Tie rule
#    traces a *continuous* curve of presentation suppression against moderate-gap resolution,
#    which we set beside the *discrete* L0–L4 points of the prompt ladder (§5.4, Figure 3).
# 2. **Order calibration as a debiasing intervention.** The position-only controls (§E.8) give
#    the judge's positional prior; dividing it out is another way to debias. We audit the
#    corrected judge on the same tiers: what it suppresses and what resolution it keeps.
# 3. **Power.** How many pairs a study needs to detect a given drop in better-plain rate at
#    α = 0.05, starting from the rates observed here (§E.5 uses exact McNemar tests).
# 4. **The rationale keyword audit (Table A20)**, where rationale text exists.
# 5. **How often our intervals cover**: each interval kind on simulated verdict rows at planted
#    rates, at the default sample's size and the paper's, over 200 seeds.

# %% tags=["parameters"]
judge = "smollm2"      # a catalog name, or any name with base_url and model (keys: environment)
scale = "default"      # default: the documented sample; paper: every pair
seed = 20260923        # example and simulation seed
replay_only = False    # True: only replay stored judge calls, never call the judge
outputs_dir = ""       # empty: the outputs folder of this repository (tests write elsewhere)
base_url = ""          # an OpenAI-compatible endpoint for the judge (empty: its provider's own)
model = ""             # the model id at base_url (empty: the catalog's)

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

from tjb_lib.run import coverage, notebook, sample
from tjb_lib.teaching import explore
from tjb_lib.paper import floats
from tjb_lib.analysis import frontier, metrics, power, rationale
from tjb_lib.paper.report import paper_table, save_figure, write_table

# equivalence (the whole ladder), soft, moderate, controls: the runs of beyond_tie_frontier
nb = notebook.setup("09_beyond", judge=judge, scale=scale, seed=seed, replay_only=replay_only,
                    outputs_dir=outputs_dir, base_url=base_url, model=model)
rows = nb.rows[nb.rows["judge"] == judge]
stored = not rows.empty  # replay only, nothing stored: every analysis below says it is skipped
if not stored:
    display(Markdown(f"**No stored verdicts of {judge} for these runs**, so the analyses below "
                     "are skipped; run without `replay_only` to judge them."))

# %% [markdown]
# ## 1 · The tie-threshold frontier from a single run
#
# Two Tie rules, both equal to the judge's own argmax verdict at threshold 0 and both only ever
# adding Ties as the threshold grows (`tjb_lib.analysis.frontier`):
#
# * `margin`: Tie when |P(A) − P(B)| < t, t in [0, 1];
# * `bias`: add t to the log-odds of Tie before taking the most probable label.
#
# Presentation suppression is read on the equivalence tier (the cited-win rate W_cited and
# Δcitation = W_cited − W_plain should fall to 0); resolution on the moderate tier (the
# better-plain rate should stay high). The soft tier shows where the added Ties are calibrated.

# %%
if stored:
    single = rows[rows["level"] == "L0"]
    if not explore.has_probabilities(single):
        raise ValueError(f"{judge} left no label probabilities at L0: the frontier and order "
                         "calibration need a logit-scored judge (text verdicts cannot be "
                         "re-decided)")
    curve = pd.concat([frontier.sweep(single, np.linspace(0, 1, 41), rule="margin", by=["judge"]),
                       frontier.sweep(single, np.linspace(0, 12, 49), rule="bias", by=["judge"])],
                      ignore_index=True).assign(level="L0")
    ladder = explore.operating_point(rows, by=("judge", "level")).assign(rule="ladder")
    keep = ["rule", "threshold", "level", "judge", "equivalent_n", "equivalent_cited",
            "equivalent_tie", "delta_citation", "soft_n", "soft_cited", "soft_tie", "moderate_n",
            "moderate_better_plain", "moderate_cited", "moderate_tie", "delta_quality"]
    frontier_table = pd.concat([curve, ladder], ignore_index=True).reindex(columns=keep)
    write_table(frontier_table, "beyond_tie_frontier", nb.tables)
    display(frontier_table[frontier_table["rule"] != "bias"].iloc[::5].round(1))

# %%
if stored:
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2))
    for rule, style in (("margin", "-"), ("bias", "--")):
        c = curve[curve["rule"] == rule]
        ax.plot(c["equivalent_cited"], c["moderate_better_plain"], style, color="#4c72b0",
                label=f"{judge} L0, moving Tie threshold ({rule})")
    both = ladder.dropna(subset=["equivalent_cited", "moderate_better_plain"])
    ax.scatter(both["equivalent_cited"], both["moderate_better_plain"], color="#c44e52", zorder=3,
               label="prompt ladder (verdicts as returned)")
    # levels that land on the same point share one label
    for (x, y), g in both.groupby(["equivalent_cited", "moderate_better_plain"]):
        ax.annotate(", ".join(g["level"]), (x, y), textcoords="offset points", xytext=(6, 4))
    only_moderate = ladder[ladder["equivalent_cited"].isna()
                           & ladder["moderate_better_plain"].notna()]
    for y, g in only_moderate.groupby("moderate_better_plain"):  # a level without equivalence rows
        ax.axhline(y, color="#c44e52", lw=0.8, ls=":")
        ax.annotate(f"{', '.join(g['level'])} (moderate only)", (0, y), textcoords="offset points",
                    xytext=(2, -10), fontsize=8, color="#c44e52")
    ax.set_xlabel("equivalence: cited-win rate W_cited (%)  ← suppression")
    ax.set_ylabel("moderate: better-plain rate (%)  ↑ resolution")
    ax.set_xlim(-3, 103)
    ax.set_ylim(-3, 103)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title("(a) bias–resolution frontier")
    m = curve[curve["rule"] == "margin"]
    for col, label, color in (("equivalent_tie", "equivalence Tie (correct)", "#55a868"),
                              ("soft_tie", "soft Tie (calibrated)", "#8172b2"),
                              ("moderate_tie", "moderate Tie (costly)", "#c44e52"),
                              ("moderate_better_plain", "moderate better-plain", "#4c72b0")):
        bx.plot(m["threshold"], m[col], label=label, color=color)
    bx.set_xlabel("Tie threshold t (Tie when |P(A) − P(B)| < t)")
    bx.set_ylabel("% of ordered comparisons")
    bx.legend(fontsize=8)
    bx.set_title("(b) what each tier's Tie rate does")
    fig.tight_layout()
    save_figure(fig, "beyond_tie_frontier", nb.figures)
    plt.show()

# %% [markdown]
# Reading the figure: a threshold that removes the cited-win rate on equivalence pairs also
# moves moderate-gap verdicts into Tie, because the rule is blind to the tier. Where the curve
# runs *above* a ladder point, a threshold on the plain prompt keeps more resolution than that
# prompt level at the same suppression; where it runs below, the prompt does better. A level
# with moderate rows but no equivalence rows (another judge's partial run) is drawn as a
# horizontal line.
#
# A caution for the embedded judge: a 135M model prefers slot A, so its cited-win rate on
# equivalence pairs is mostly position, not citation (the cited side is in slot A in half of the
# comparisons). The next section takes that position preference out.

# %% [markdown]
# ## 2 · Order calibration as a debiasing intervention
#
# On identical candidates only position separates A from B, so the mean P(A), P(B), P(Tie) on
# the position-only controls is the judge's positional prior. Calibration divides it out
# (contextual calibration, Zhao et al. 2021): `full` rescales all three labels; `keep_tie`
# rescales only the two slots and leaves the judge's Tie propensity alone. Each level is
# corrected with the prior from its own controls (L0 and L4, the levels the controls were run
# at). The controls' own balance after correction is in-sample; the other tiers are not.

# %%
if stored:
    at_control_levels = rows[rows["level"].isin(
        rows.loc[rows["target_relation"] == "identical", "level"].unique())]
    points, priors = explore.calibration_audit(at_control_levels, by=("judge", "level"))
    display(priors.round(3))
    cal_cols = ["judge", "level", "correction", "control_first_position", "control_second_position",
                "equivalent_cited", "equivalent_plain", "equivalent_tie", "delta_citation",
                "soft_tie", "moderate_better_plain", "moderate_cited", "moderate_tie",
                "delta_quality"]
    calibration = points.reindex(columns=cal_cols).merge(
        priors.rename(columns={"p_a": "prior_p_a", "p_b": "prior_p_b", "p_tie": "prior_p_tie",
                               "n": "prior_n"}), on=["judge", "level"])
    write_table(calibration, "beyond_order_calibration", nb.tables)
    display(calibration.drop(columns=["prior_p_a", "prior_p_b", "prior_p_tie", "prior_n"]).round(1))

# %%
if stored:
    show = [("control_first_position", "controls: slot-A wins"),
            ("control_second_position", "controls: slot-B wins"),
            ("equivalent_cited", "equivalence: cited wins"), ("equivalent_tie", "equivalence: Tie"),
            ("moderate_better_plain", "moderate: better-plain"), ("moderate_tie", "moderate: Tie")]
    levels = sorted(calibration["level"].unique())
    fig, axes = plt.subplots(1, len(levels), figsize=(5.5 * len(levels), 3.8), sharey=True,
                             squeeze=False)
    for ax, level in zip(axes[0], levels):
        c = calibration[calibration["level"] == level].set_index("correction")
        c = c.reindex(["none", "full", "keep_tie"])[[k for k, _ in show]]
        c.columns = [label for _, label in show]
        c.T.plot.barh(ax=ax, color=["#8c8c8c", "#4c72b0", "#55a868"], width=0.75)
        ax.set_title(f"{judge} · {level}")
        ax.set_xlabel("% of ordered comparisons")
        ax.set_xlim(0, 100)
        ax.invert_yaxis()
        ax.legend(title="correction", fontsize=8)
    fig.tight_layout()
    save_figure(fig, "beyond_order_calibration", nb.figures)
    plt.show()

# %%
if stored:
    for level in levels:
        c = calibration[calibration["level"] == level].set_index("correction")
        none = c.loc["none"]
        lines = [f"**{level}**, uncorrected: slot-A wins on the controls "
                 f"{none.control_first_position:.1f}%, equivalence cited wins "
                 f"{none.equivalent_cited:.1f}% (Δcitation {none.delta_citation:+.1f}), moderate "
                 f"better-plain {none.moderate_better_plain:.1f}% (Tie {none.moderate_tie:.1f}%)."]
        for name in ("full", "keep_tie"):
            r = c.loc[name]
            lines.append(f"* `{name}`: slot-A / slot-B wins on the controls "
                         f"{r.control_first_position:.1f}% / {r.control_second_position:.1f}%; "
                         f"equivalence cited wins {r.equivalent_cited:.1f}% (Δcitation "
                         f"{r.delta_citation:+.1f}, Tie {r.equivalent_tie:.1f}%); moderate "
                         f"better-plain {r.moderate_better_plain:.1f}% "
                         f"(Tie {r.moderate_tie:.1f}%).")
        display(Markdown("\n".join(lines)))

# %% [markdown]
# How to read it. Calibration removes a preference that is the same for every pair (the
# slot), so what remains is whatever the judge sees in the content; it suppresses position, not
# citation display, and it needs no stricter rubric. Two cautions the numbers make concrete:
# `full` also divides by the judge's prior for Tie, and a judge that almost never says Tie on
# the controls has a tiny Tie prior, so dividing by it can turn many verdicts into Tie — the
# same resolution loss as a strict prompt, by another road. `keep_tie` corrects only the slots.
# And a mean prior can over-correct: slot-A wins may turn into slot-B wins on the controls when
# the judge's confidence varies from pair to pair. On a judge whose verdicts are almost all
# position, what remains after correction shows how much content signal there was to lose.

# %% [markdown]
# ## 3 · Power: pairs needed to detect a drop in better-plain rate
#
# A protocol contrast on the moderate tier compares the better-plain indicator of the same
# ordered comparisons under two protocols, tested with exact McNemar (§E.5). Power depends on
# the starting rate, the drop and how much the two protocols churn in both directions. We take
# the starting rate (L0) and the churn from the L0 → L4 contrast observed here and simulate
# (`tjb_lib.analysis.power`, 2,000 studies per point, seeded).

# %%
if stored:
    moderate = rows[rows["target_relation"] == "quality_moderate"]
    contrast = metrics.paired_contrast(moderate, {"level": "L0"}, {"level": "L4"}, outcome="plain",
                                       by=("judge", "split"), seed=seed)
    churn = power.contrast_churn(contrast)
    display(churn[["judge", "split", "n", "rate_a", "rate_b", "difference", "difference_low",
                   "difference_high", "mcnemar_p", "discordance", "extra_churn"]].round(3))
    obs = churn.iloc[0]
    drops = [0.05, 0.10, 0.20, 0.30, 0.50]
    if obs["drop"] > 0:
        drops = sorted(set(drops) | {round(float(obs["drop"]), 3)})
    plan_table = power.power_plan(float(obs["p_before"]), drops,
                                    extra_churn=float(obs["extra_churn"]), seed=seed)
    if plan_table.empty:
        display(Markdown(f"*The observed L0 better-plain rate is {100 * obs['p_before']:.1f}%: "
                         "there is no room for a drop to detect.*"))
    else:
        display(plan_table.round(3))

# %%
if stored:
    grid = [5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500]
    curves = []
    for drop in [d for d in (0.05, 0.10, 0.20, 0.30) if d <= obs["p_before"]]:
        pc = power.power_curve(float(obs["p_before"]), float(obs["p_before"]) - drop, grid,
                               seed=seed)
        curves.append(pc.assign(drop_points=100 * drop, scenario="one-way"))
    power_table = pd.concat([plan_table.assign(kind="pairs_needed"),
                             *(c.assign(kind="power_curve", p_before=obs["p_before"])
                               for c in curves)], ignore_index=True)
    write_table(power_table, "beyond_power", nb.tables)

    fig, ax = plt.subplots(figsize=(6.5, 4))
    for c in curves:
        ax.plot(c["n_pairs"], c["power"], marker="o", ms=3,
                label=f"drop {c['drop_points'].iloc[0]:.0f} points")
        ax.fill_between(c["n_pairs"], c["power_low"], c["power_high"], alpha=0.2)
    ax.axhline(0.8, color="k", lw=0.8, ls=":")
    for n, label in ((sample.limit_for("moderate_hotpotqa", "L0", "default"), "default sample"),
                     (100, "paper's moderate tier")):
        ax.axvline(n, color="#8c8c8c", lw=0.8, ls="--")
        ax.annotate(label, (n, 0.02), rotation=90, fontsize=8, xytext=(3, 0),
                    textcoords="offset points")
    ax.set_xscale("log")
    ax.set_xlabel("pairs (two ordered comparisons each)")
    ax.set_ylabel("power of exact McNemar, α = 0.05")
    ax.set_title(f"from L0 better-plain {100 * obs['p_before']:.0f}% ({judge}), one-way moves")
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, "beyond_power", nb.figures)
    plt.show()

# %% [markdown]
# With one-way moves (better-plain only ever turns into Tie, the L0 → L4 pattern the paper
# reports) a large drop is detectable with few pairs: the paper's 100-pair moderate tier has
# ample power for its 70–98 point drops. Small drops of 5–10 points, the kind that separate
# neighbouring prompt levels, need several times more pairs, and churn in both directions
# raises the count further. Treat "no significant difference between L1 and L2" on a small
# sample as lack of power, not as evidence of no loss.

# %% [markdown]
# ## 4 · Rationale keyword audit (Table A20)
#
# The paper scans judge rationales for source and citation vocabulary (`tjb_lib.analysis.rationale`,
# lexicon recorded in `rationale.LEXICON`) and reports the rate per judge, split and decision
# type. The audit needs rationale text. Rows without any are counted in `n_without_rationale`
# and never as a zero rate.

# %%
if stored:
    equivalence = rows[rows["target_relation"] == "equivalent"]
    ours = rationale.keyword_rates(equivalence, by=("judge", "split", "decision_type"))
    a20 = rationale.a20_beside_paper(ours, paper_table("table_a20"), floats.PAPER_SPLIT_LABELS)
    write_table(a20, "beyond_table_a20", nb.tables)  # 02 writes the paper float
    display(a20.round(1))

# %%
if stored:
    n_text = int(ours["n"].sum())
    if n_text == 0:
        display(Markdown(
            f"**No rationale text in this run.** {judge}'s verdicts are logit-scored: one forward "
            f"pass reads P(A), P(B), P(Tie) and writes no reason, so all "
            f"{int(ours['n_without_rationale'].sum())} equivalence verdicts have nothing to audit. "
            "The paper's rates are shown for reference only. Table A20 can be reproduced with a "
            "judge that writes a reason field (the API judges, or a generating local judge)."))
    else:
        display(Markdown(f"{n_text} verdicts carry a rationale; "
                         f"{int(ours['k'].sum())} of them use source or citation vocabulary."))

# %% [markdown]
# ## 5 · How often our 95% intervals cover the planted value
#
# Verdict rows simulated at planted rates (no judge) go through the same metric functions as
# every table, 200 times per setting, at the default sample's number of pairs and the paper's
# (`tjb_lib.run.coverage`; precomputed by `python -m tjb_lib coverage` into
# `outputs/stats/interval_coverage.csv`, which this cell reads). Each kind is checked on the
# statistic it is printed for: Wilson on a rate, the pair-level bootstrap on a signed effect and
# an order gap (§3), the pair-by-order bootstrap on the L0→L4 contrast (App. E.5). Half the
# pairs give both orders one verdict, as a judge's orders move together. Where the paper's
# interval covers less than 93%, `alternative` is an interval that does, computed on the same
# rows, and `trust` says which to read.

# %%
if coverage.COVERAGE_CSV.exists():
    cov = pd.read_csv(coverage.COVERAGE_CSV)
    show = cov[["scenario", "interval", "scale", "pairs", "coverage", "mean_width", "alternative",
                "alt_coverage", "alt_mean_width", "trust"]]
    display(show.round(3))
    low = cov[cov["coverage"] < coverage.TRUSTED]
    display(Markdown(
        f"Over {int(cov['seeds'].iloc[0])} seeds, {len(cov) - len(low)} of {len(cov)} settings "
        f"cover at least {coverage.TRUSTED:.0%} with the paper's interval. "
        + ("Below it: " + "; ".join(
            f"{r.scenario} ({r.interval}, {r.scale} sample of {r.pairs} pairs) covers "
            f"{r.coverage:.1%}, {r.alternative} {r.alt_coverage:.1%}: read {r.trust}"
            for r in low.itertuples()) + "." if len(low) else "")))
else:
    display(Markdown("No coverage table yet: run `python -m tjb_lib coverage` (a few minutes)."))
