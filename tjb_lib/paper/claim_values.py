"""How ours is computed for the paper's in-text numbers that are not a cell of one of our
floats (``tjb_lib.paper.claim_registry`` files each claim under one of these): counts from the splits,
rates and contrasts from the notebook's verdict rows, protocol cost. Each takes the notebook's
context ``nb`` and returns the fields of one claims row (:func:`result`)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tjb_lib.analysis import metrics, stats
from tjb_lib.paper.compare import cell_status
from tjb_lib.paper.contrasts import CONTRASTS, contrast
from tjb_lib.paper.float_metrics import ORIGINAL
from tjb_lib.pairs import registry
from tjb_lib.protocols.specs import setting_name
from tjb_lib.paper.tables import planned_calls, protocol_cost


def result(ours=np.nan, low=np.nan, high=np.nan, n=np.nan, n_unparsed=np.nan,
           n_failed=np.nan, setting="", status="ok", note="", agrees=None) -> dict[str, Any]:
    """The fields of ours in one claims row (the paper's value goes beside them); ``agrees``
    where the claim is a test (else the claims table applies the rule of
    ``tjb_lib.paper.paper_match``)."""
    return {"ours": ours, "ours_low": low, "ours_high": high, "agrees": agrees, "n": n,
            "n_unparsed": n_unparsed, "n_failed": n_failed, "setting": setting,
            "status": status, "note": note}


# --------------------------------------------------------------------------- from the splits


def split_count(nb, split: str, per: int = 1) -> dict[str, Any]:
    n = nb.manifest["splits"][split]["count"]
    return result(ours=n / per, setting=f"{split} in data/splits/manifest.json",
                  note=f"pairs / {per}" if per > 1 else "")


def component_count(nb) -> dict[str, Any]:
    from tjb_lib.paper.table1 import COMPONENTS
    return result(ours=len(COMPONENTS), setting="Table 1 components")


def component_splits(nb, component: str) -> dict[str, Any]:
    """How many of the built splits belong to one Table 1 component (the split registry's)."""
    n = sum(name in registry.component_splits(component) for name in nb.manifest["splits"])
    return result(ours=n, setting=f"splits of {component}")


def validated_subset(nb, split: str) -> dict[str, Any]:
    from tjb_lib.pairs import load_split
    n = sum(bool(p.meta.get("validated_subset")) for p in load_split(split))
    return result(ours=n, setting=f"{split} pairs marked validated_subset")


def _systems(split: str) -> set[str]:
    from tjb_lib.pairs import load_split
    return {p.meta[side] for p in load_split(split) for side in ("system_plain", "system_cited")}


def ranking_systems(nb, split: str) -> dict[str, Any]:
    return result(ours=len(_systems(split)), setting=f"{split} systems")


def ranking_pairs_per_query(nb, split: str) -> dict[str, Any]:
    k = len(_systems(split))
    return result(ours=k * (k - 1) / 2, setting="unordered system pairs per query")


def judge_temperature(nb) -> dict[str, Any]:
    from tjb_lib.judges.provider import get

    spec = nb.spec
    note = ("scored from the label probabilities of one forward pass: no sampling"
            if get(spec.provider).in_process else "")
    return result(ours=spec.params.get("temperature", np.nan), setting=f"catalog {spec.name}",
                  note=note)


def bootstrap_resamples(nb) -> dict[str, Any]:
    return result(ours=metrics.N_RESAMPLES, setting="tjb_lib.analysis.metrics.N_RESAMPLES")


def ranking_points(nb, decision: str) -> dict[str, Any]:
    """Points our scorer gives a system for one win or one tie, read off a one-comparison run
    of ``metrics.ranking_scores`` (a win is the cited side's here)."""
    d = "cited" if decision == "win" else "tie"
    one = pd.DataFrame([{"decision": d, "order": "cited_first", "judge": nb.judge,
                         "protocol": "ladder", "system_plain": "x", "system_cited": "y"}])
    score = metrics.ranking_scores(one).set_index("system").loc["y", "score"]
    return result(ours=score / 100, setting="tjb_lib.analysis.metrics.ranking_scores")


# --------------------------------------------------------------------------- from verdict rows


def _rows(nb, split, paraphrase=ORIGINAL, **where) -> pd.DataFrame:
    """Our judge's rows of ``split`` (one or several) matching ``where``, of one wording or
    several (``paraphrase``; None: every wording)."""
    rows = nb.rows
    if rows.empty:
        return rows
    splits = split if isinstance(split, (list, tuple)) else [split]
    sub = rows.loc[(rows["judge"] == nb.judge) & rows["split"].isin(splits)]
    if paraphrase is not None:
        where = {**where, "paraphrase": paraphrase}
    for col, val in where.items():
        sub = sub.loc[sub[col].isin(val if isinstance(val, (list, tuple)) else [val])]
    return sub


def _rate(t: pd.Series, metric: str, setting: str, note: str = "") -> dict[str, Any]:
    status = cell_status(t["n"], True)
    return result(t[metric] if status == "ok" else np.nan, t[f"{metric}_low"],
                  t[f"{metric}_high"], t["n"], t["n_unparsed"], t["n_failed"], setting, status,
                  note)


def graded_value(nb, split: str, level, metric: str, paraphrase=ORIGINAL,
                 agg: str | None = None) -> dict[str, Any]:
    """A graded-tier rate (better_plain, worse_cited, tie) at one or several ladder settings;
    ``agg`` min/max picks among them."""
    sub = _rows(nb, split, protocol="ladder", level=level, paraphrase=paraphrase)
    if sub.empty:
        return result(setting=f"{split} {level} {paraphrase}", status="not run")
    t = metrics.graded_table(sub, ("judge", "split", "level", "paraphrase"), seed=nb.seed)
    names = t["level"] + ("" if paraphrase == ORIGINAL else " " + t["paraphrase"])
    rated = t.dropna(subset=[metric])
    if rated.empty:
        return _rate(t.iloc[0], metric, f"{split} {', '.join(names)}")
    pick = rated[metric].idxmin() if agg == "min" else rated[metric].idxmax() if agg else \
        rated.index[0]
    return _rate(t.loc[pick], metric, f"{split} {names.loc[pick]}",
                 f"{agg} over {len(rated)} settings" if agg else "")


def conflict_minimum(nb, split: str) -> dict[str, Any]:
    """The lowest correct-side win rate on the correctness conflicts across every level, the
    three paraphrases and both orders (App. A.4: 'run across three prompt paraphrases and both
    candidate orders'), with that cell's interval."""
    sub = _rows(nb, split, paraphrase=None, protocol="ladder")
    sub = sub.loc[sub["pair_id"].isin(sub.loc[sub["paraphrase"] != ORIGINAL, "pair_id"])]
    if sub.empty:
        return result(setting=f"{split} paraphrases", status="not run")
    t = metrics.correctness_table(sub, ("judge", "level", "paraphrase", "order"), seed=nb.seed)
    rated = t.dropna(subset=["correct_win"])
    note = (f"minimum over {len(rated)} cells (level x paraphrase x order) with a parsed verdict; "
            f"{len(t) - len(rated)} without")
    if rated.empty:
        return _rate(t.iloc[0], "correct_win", f"{split} paraphrases", note)
    r = rated.loc[rated["correct_win"].idxmin()]
    return _rate(r, "correct_win", f"conflict {r['level']} {r['paraphrase']} {r['order']}", note)


def paraphrase_count(nb, split, level=None, extra: bool = False) -> dict[str, Any]:
    """How many wordings of a level our rows hold (``extra``: besides the original p0)."""
    sub = _rows(nb, split, paraphrase=None, protocol="ladder",
                **({"level": level} if level else {}))
    if sub.empty:
        return result(setting=f"{split} paraphrases", status="not run")
    per_level = sub.groupby("level")["paraphrase"].nunique()
    n = int(per_level.max()) - (1 if extra else 0)
    return result(ours=n, setting=f"{split}" + (f" {level}" if level else "") + " wordings",
                  note="besides the original wording" if extra else "most wordings of any level")


def level_count(nb, split: str) -> dict[str, Any]:
    sub = _rows(nb, split, protocol="ladder")
    levels = sorted(set(sub["level"])) if len(sub) else []
    return result(ours=len(levels), setting=f"{split}: {', '.join(levels)}",
                  status="ok" if levels else "not run")


def tie_items(nb, split: str, level: str) -> dict[str, Any]:
    """Share of pairs (items) with a Tie in either order at ``level`` (§5.3's item-level Tie
    rate), over pairs with at least one parsed verdict."""
    sub = _rows(nb, split, protocol="ladder", level=level)
    if sub.empty:
        return result(setting=f"{split} {level} items", status="not run")
    items = sub.assign(tie=sub["decision"] == "tie",
                       parsed=sub["decision"].isin(metrics.VERDICTS)).groupby("pair_id")
    items = items[["tie", "parsed"]].any()
    n = int(items["parsed"].sum())
    k = int((items["tie"] & items["parsed"]).sum())
    low, high = stats.wilson_many([k], [n])
    rate = 100 * k / n if n else np.nan
    return result(rate, 100 * low[0], 100 * high[0], n,
                  int((~items["parsed"]).sum()), np.nan, f"{split} {level} items",
                  cell_status(n, True), "n counts pairs; n_unparsed pairs with no parsed verdict")


def human_tie_value(nb, split: str, stat: str, level=None, agg: str | None = None
                    ) -> dict[str, Any]:
    """Tie against human labels (§5.3) on one graded tier: the human any-Tie share
    (``stat="human_tie"``), or our judge's ``tie_precision`` / ``item_agreement`` at ``level``
    (``metrics.tie_agreement``; ``agg`` min/max over several levels). Needs filled graded
    workbooks under data/human_validation/labels/ (notebook 10 writes them out)."""
    from tjb_lib.validation import agreement

    human = agreement.human_ties()
    human = human.loc[human["split"] == split] if len(human) else human
    if human.empty:
        return result(setting=f"{split} human labels", status="needs human labels",
                      note="none ship with the compendium; data/human_validation/README.md "
                           "says how to add them")
    if stat == "human_tie":
        n, k = len(human), int(human["human_tie"].sum())
        low, high = stats.wilson_many([k], [n])
        return result(100 * k / n, 100 * low[0], 100 * high[0], n,
                      setting=f"{split}: pairs with a Tie from either annotator")
    sub = _rows(nb, split, protocol="ladder", level=level)
    if sub.empty:
        return result(setting=f"{split} {level}", status="not run")
    t = metrics.tie_agreement(sub, human[["pair_id", "human_tie"]], by=("judge", "level"))
    rated = t.dropna(subset=[stat])
    if rated.empty:
        return result(n=0, setting=f"{split} {level}", status="no parsed verdict")
    r = rated.loc[getattr(rated[stat], f"idx{agg}")()] if agg else rated.iloc[0]
    return result(r[stat], r[f"{stat}_low"], r[f"{stat}_high"], r["n_items"],
                  setting=f"{split} {r['level']} items with human labels",
                  note="proportion, as the paper prints it")


def order_gap_value(nb, split: str, level: str) -> dict[str, Any]:
    sub = _rows(nb, split, protocol="ladder", level=level)
    if sub.empty:
        return result(setting=f"{split} {level}", status="not run")
    t = metrics.order_gap_table(sub, seed=nb.seed).iloc[0]
    return _rate(t, "order_gap", f"{split} {level}",
                 "cited-win rate with the cited side first minus second")


def contrast_value(nb, label: str, stat: str) -> dict[str, Any]:
    c = next(c for c in CONTRASTS if c.label == label)
    r = contrast(nb.rows, c, nb.judge, nb.seed)
    status = "ok" if r["n"] else ("not run" if r["direction"].startswith("not run")
                                  else "no parsed verdict")
    value = r[stat] if status == "ok" else np.nan
    low, high = ((r["difference_low"], r["difference_high"]) if stat == "difference"
                 else (np.nan, np.nan))
    return result(value, low, high, r["n"], r["n_unparsed"], r["n_failed"],
                  f"{c.split} {label}", status, r["direction"],
                  agrees=r["agrees"] if stat == "mcnemar_p" else None)


def trace_recovery(nb, splits: list[str], agg: str) -> dict[str, Any]:
    """TRACE better-plain across the moderate tiers we ran (A12's HotpotQA, A13's FinQA)."""
    sub = _rows(nb, splits, protocol="trace_v2")
    if sub.empty:
        return result(setting="trace_v2 on the moderate tiers", status="not run")
    t = metrics.graded_table(sub, ("judge", "split"), seed=nb.seed)
    rated = t.dropna(subset=["better_plain"])
    if rated.empty:
        return _rate(t.iloc[0], "better_plain", "trace_v2 on " + ", ".join(t["split"]))
    r = rated.loc[getattr(rated["better_plain"], f"idx{agg}")()]
    return _rate(r, "better_plain", f"trace_v2 on {r['split']}",
                 f"{agg} over {len(rated)} split(s) with a parsed verdict")


def cost_value(nb, setting: str, column: str, prices: str | None = None) -> dict[str, Any]:
    """One protocol-cost figure of ``setting`` on the split protocols are compared on (the
    HotpotQA moderate tier); ``prices`` names a model whose list prices price our token counts
    (the paper's dollars are GPT-5.5's)."""
    split = registry.with_role("protocols")
    t = protocol_cost(nb, split, prices=prices)
    hit = t.loc[t["protocol"] == setting]
    if hit.empty:
        return result(setting=f"{setting} on {split}", status="not run")
    r = hit.iloc[0]
    col = "calls_per_comparison" if column == "calls_per_completed_comparison" else column
    done = int(r["n_completed"])
    note = (f"{done} of {int(r['comparisons'])} comparisons made every call"
            + (f"; our tokens at {prices} list prices" if prices else ""))
    if not done:
        return result(n=0, setting=f"{setting} on {split}",
                      status="no completed comparison",
                      note=note + f"; calls made per comparison "
                                  f"{r['calls_made_per_comparison']:.1f}")
    value = r[col] if column != "calls_per_completed_comparison" else \
        _completed_calls(nb, split, setting)
    return result(value, n=done, setting=f"{setting} on {split}", note=note)


def _completed_calls(nb, split: str, setting: str) -> float:
    """Mean calls over the comparisons of ``setting`` that made every call of the protocol."""
    sub = _rows(nb, split)
    sub = sub.loc[[setting_name(p, lv) == setting
                   for p, lv in zip(sub["protocol"], sub["level"].fillna(""))]]
    calls = pd.to_numeric(sub["calls"], errors="coerce")
    return float(calls[calls >= sub["protocol"].map(planned_calls)].mean())


def rows_per_setting(nb, split: str, level: str) -> dict[str, Any]:
    sub = _rows(nb, split, protocol="ladder", level=level)
    return result(ours=len(sub), setting=f"{split} {level} ordered comparisons",
                  status="ok" if len(sub) else "not run",
                  note="our sample: first pairs of the split, both orders")
