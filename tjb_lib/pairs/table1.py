"""Table 1: the benchmark's components, our sizes beside the paper's."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from tjb_lib.pairs.registry import component_splits
from tjb_lib.report import paper_table, write_table

# (component, the paper's target relation), in the paper's row order; the splits of each
# component come from the split registry.
COMPONENTS = (
    ("Mechanical equivalence", "content-equivalent"),
    ("Natural citation-looking pairs", "near-equivalent"),
    ("Citation ablations", "content-controlled"),
    ("Position controls", "identical candidates"),
    ("Clear and reverse conflicts", "correctness conflict"),
    ("Soft and moderate graded conflicts", "quality conflict"),
    ("Workflow-ranking probe", "system comparison"),
)


def _n(manifest: dict, split: str) -> int:
    return manifest["splits"][split]["count"]


def _size(component: str, manifest: dict) -> str:
    n = lambda s: _n(manifest, s)  # noqa: E731
    if component == "Mechanical equivalence":
        return f"{n('mechanical_hotpotqa')} HotpotQA + {n('mechanical_finqa')} FinQA pairs"
    if component == "Natural citation-looking pairs":
        return f"{n('natural_hotpotqa'):,} HotpotQA pairs (500 items x 2 renderings); 200 validated subset"
    if component == "Citation ablations":
        return f"six variants x {n('ablation_full_citation')} HotpotQA pairs"
    if component == "Position controls":
        return f"{n('position_control')} HotpotQA pairs (x 2 orders per judge)"
    if component == "Clear and reverse conflicts":
        return f"{n('conflict')} pairs (50 HotpotQA, 50 FinQA, 50 HumanEval; 75 clear + 75 reverse)"
    if component == "Soft and moderate graded conflicts":
        return (f"{n('soft_hotpotqa')} soft + {n('moderate_hotpotqa')} HotpotQA moderate + "
                f"{n('moderate_finqa')} FinQA moderate pairs")
    if component == "Workflow-ranking probe":
        return (f"{n('ranking_hotpotqa') // 6} HotpotQA queries, four workflow variants "
                f"({n('ranking_hotpotqa'):,} system pairs)")
    raise KeyError(component)


def table_1(manifest: dict) -> pd.DataFrame:
    """One row per paper component: our size, target relation and question, the paper's size."""
    paper = paper_table("table_1").set_index("component")
    rows = []
    for component, relation in COMPONENTS:
        splits = component_splits(component)
        rows.append({"component": component, "size": _size(component, manifest),
                     "pairs": sum(_n(manifest, s) for s in splits),
                     "splits": ", ".join(splits), "target_relation": relation,
                     "question": paper.loc[component, "question"],
                     "paper_size": paper.loc[component, "size"]})
    return pd.DataFrame(rows)


def write(manifest: dict, out_dir: Path | None = None) -> tuple[Path, Path]:
    """Write outputs/tables/table_1.{csv,md}."""
    return write_table(table_1(manifest), "table_1", out_dir)
