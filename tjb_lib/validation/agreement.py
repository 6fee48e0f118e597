"""Agreement between two annotators of the same blind workbooks (paper §4, Table 2 / A4) and
their adjudication, on labels read back by ``tjb_lib.validation.annotate``; the human any-Tie per graded
pair that the Tie-precision claims need (§5.3)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from tjb_lib.validation import annotate
from tjb_lib.analysis import stats

# The field each kind's agreement statistics are computed on, with its categories (all of
# them, empty ones included, because AC1's chance term depends on the number of categories).
MAIN_FIELD = {"natural": ("label", annotate.NATURAL_LABELS),
              "graded": ("preference", ("cited", "plain", "tie"))}
SIGNAL = {"natural": ("equivalent", "both equivalent"),
          "graded": ("plain", "both better plain")}


# --------------------------------------------------------------------------- adjudication


def _kind_of(*frames: pd.DataFrame) -> str:
    kinds = {f.attrs.get("kind") for f in frames}
    if len(kinds) != 1 or not kinds <= set(annotate.KINDS):
        raise ValueError(f"label frames must come from import_workbook of one kind, "
                         f"found kinds {kinds}")
    return kinds.pop()


def _paired(labels_a: pd.DataFrame, labels_b: pd.DataFrame) -> pd.DataFrame:
    ia, ib = set(labels_a["item_id"]), set(labels_b["item_id"])
    if ia != ib:
        raise ValueError(f"the two annotators labelled different items: only first "
                         f"{sorted(ia - ib)[:10]}, only second {sorted(ib - ia)[:10]}")
    return labels_a.merge(labels_b, on="item_id", suffixes=("_a", "_b"), validate="one_to_one")


def adjudicate(labels_a: pd.DataFrame, labels_b: pd.DataFrame,
               adjudications: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per item with both annotators' labels, per-field agreement and the final labels.

    Where the two agree the final label is theirs; where they disagree it is the adjudicator's
    (``adjudications``: a frame from ``import_workbook(..., partial=True)``), else missing.
    Flags: ``disagreement`` (any field differs), ``adjudicated`` (some final label came from the
    adjudicator), ``resolved`` (no final label is missing).
    """
    kind = _kind_of(labels_a, labels_b) if adjudications is None else \
        _kind_of(labels_a, labels_b, adjudications)
    m = _paired(labels_a, labels_b)
    out = pd.DataFrame({"item_id": m["item_id"]})
    for c in ("pair_id", "split", "source", "target_relation", "gold", "a_side"):
        out[c] = m[f"{c}_a"]
    adj = None
    if adjudications is not None:
        unknown = sorted(set(adjudications["item_id"]) - set(out["item_id"]))
        if unknown:
            raise ValueError(f"adjudication file names items the annotators did not label: "
                             f"{unknown[:10]}")
        adj = adjudications.set_index("item_id")
    out["disagreement"] = False
    out["adjudicated"] = False
    for f in annotate.fields(kind):
        a, b = m[f"{f}_a"], m[f"{f}_b"]
        agree = (a == b).fillna(False).astype(bool)
        out[f"{f}_a"], out[f"{f}_b"], out[f"{f}_agree"] = a, b, agree
        final = a.where(agree, pd.NA)
        if adj is not None:
            third = out["item_id"].map(adj[f]) if f in adj else pd.Series(pd.NA, index=out.index)
            use = ~agree & third.notna()
            final = final.where(~use, third)
            out["adjudicated"] |= use
        out[f] = final
        out["disagreement"] |= ~agree
    out["resolved"] = out[list(annotate.fields(kind))].notna().all(axis=1)
    out.attrs["kind"] = kind
    return out


# --------------------------------------------------------------------------- agreement


def _table(a: pd.Series, b: pd.Series, categories: tuple[str, ...]) -> np.ndarray:
    bad = sorted((set(a.dropna()) | set(b.dropna())) - set(categories))
    if bad or a.isna().any() or b.isna().any():
        raise ValueError(f"agreement needs complete labels in {categories}; found "
                         f"unexpected {bad} or missing values")
    return pd.crosstab(pd.Categorical(a, categories), pd.Categorical(b, categories),
                       dropna=False).to_numpy()


def agreement_summary(labels_a: pd.DataFrame, labels_b: pd.DataFrame,
                      kind: str | None = None) -> dict:
    """Table 2 / A4 statistics for two annotators on the main field of the workbook kind.

    Natural: the primary label (4 categories); graded: the final preference (cited | plain |
    tie). PABAK is the paper's two-category form 2·p_o − 1 (``pabak_q`` is the q-category form);
    AC1 uses all categories of the field. ``field_agreement_pct`` gives raw agreement per field.
    """
    kind = kind or _kind_of(labels_a, labels_b)
    annotate.check_kind(kind)
    m = _paired(labels_a, labels_b)
    if m.empty:
        raise ValueError("no items to compare")
    field, categories = MAIN_FIELD[kind]
    table = _table(m[f"{field}_a"], m[f"{field}_b"], categories)
    n = int(table.sum())
    value, words = SIGNAL[kind]
    k = int(((m[f"{field}_a"] == value) & (m[f"{field}_b"] == value)).sum())
    ac1 = stats.gwet_ac1(table)
    return {
        "n": n,
        "field": field,
        "raw_agreement_pct": 100 * stats.raw_agreement(table),
        "pabak": stats.pabak(table, q=2),
        "pabak_q": stats.pabak(table),
        "gwet_ac1": ac1["coefficient"],
        "gwet_ac1_low": ac1["low"],
        "gwet_ac1_high": ac1["high"],
        "signal_k": k,
        "main_human_label_signal": f"{k}/{n} {words}",
        "field_agreement_pct": {f: 100 * float((m[f"{f}_a"] == m[f"{f}_b"]).fillna(False).mean())
                                for f in annotate.fields(kind)},
        "table": table,
        "categories": categories,
    }


def agreement_table(labels_a: pd.DataFrame, labels_b: pd.DataFrame, by: str = "target_relation",
                    overall: bool = True) -> pd.DataFrame:
    """Table 2's rows: one per group of ``by`` (e.g. soft and moderate tiers), then the pooled
    row when there is more than one group."""
    kind = _kind_of(labels_a, labels_b)
    groups = [(g, labels_a[labels_a[by] == g]["item_id"]) for g in sorted(labels_a[by].unique())]
    if overall and len(groups) > 1:
        groups.append(("overall", labels_a["item_id"]))
    rows = []
    for name, items in groups:
        a = labels_a[labels_a["item_id"].isin(items)]
        b = labels_b[labels_b["item_id"].isin(items)]
        a.attrs["kind"] = b.attrs["kind"] = kind
        s = agreement_summary(a, b, kind)
        rows.append({"validation_set": name, "n": s["n"],
                     "raw_agreement_pct": s["raw_agreement_pct"], "pabak": s["pabak"],
                     "gwet_ac1": s["gwet_ac1"],
                     "main_human_label_signal": s["main_human_label_signal"]})
    return pd.DataFrame(rows)


def _two_annotators(found: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The two original annotators' labels of one filled workbook set (an adjudicator aside)."""
    raters = found["annotators"]
    if len(raters) != 2:
        raise ValueError(f"labels/{found['stem']}: need exactly two annotator files (plus an "
                         f"optional ADJ), found {sorted(p.name for p in raters.values())}")
    a, b = (annotate.import_workbook(p, found["key"], annotator=code)
            for code, p in sorted(raters.items()))
    return a, b


def human_agreement(root: Path | str | None = None) -> pd.DataFrame:
    """Table 2's statistics per workbook set (``kind`` = its stem, e.g. graded_workbook) from
    the filled workbooks :func:`tjb_lib.validation.annotate.label_sets` finds (the layout is in
    data/human_validation/README.md): the two original annotators, before adjudication, as in
    the paper. Empty frame when there are no labels."""
    frames = [agreement_table(*_two_annotators(found)).assign(kind=found["stem"])
              for found in annotate.label_sets(root)]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["kind", "validation_set", "n", "raw_agreement_pct", "pabak", "gwet_ac1",
                 "main_human_label_signal"])


def human_ties(root: Path | str | None = None) -> pd.DataFrame:
    """Per labelled graded pair: ``pair_id``, ``split``, ``target_relation`` and ``human_tie``,
    True when either original annotator's final preference was Tie (the paper's "human any-Tie",
    §5.3). Empty frame when no graded workbook has come back."""
    frames = []
    for found in annotate.label_sets(root):
        a, b = _two_annotators(found)
        if a.attrs.get("kind") != "graded":
            continue
        m = _paired(a, b)
        frames.append(pd.DataFrame({
            "pair_id": m["pair_id_a"], "split": m["split_a"],
            "target_relation": m["target_relation_a"],
            "human_tie": (m["preference_a"] == "tie") | (m["preference_b"] == "tie")}))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["pair_id", "split", "target_relation", "human_tie"])
