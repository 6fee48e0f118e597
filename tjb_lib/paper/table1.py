"""Table 1: the benchmark's components, our sizes beside the paper's."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from tjb_lib.pairs import registry
from tjb_lib.pairs.registry import component_splits
from tjb_lib.paper.report import paper_table, write_table

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


SOURCE_NAMES = {"hotpotqa": "HotpotQA", "finqa": "FinQA", "humaneval": "HumanEval"}


def _n(manifest: dict, split: str) -> int:
    return manifest["splits"][split]["count"]


def _size(component: str, manifest: dict) -> str:
    """The component's pairs, split by split, from the registry and the manifest: splits of
    the same size and source are counted together ("6 x 200 HotpotQA pairs")."""
    groups: dict[tuple[int, str], list[str]] = {}
    for split in component_splits(component):
        source = "/".join(SOURCE_NAMES[s] for s in registry.get(split).source.split("+"))
        groups.setdefault((_n(manifest, split), source), []).append(split)
    parts = [f"{len(splits)} x {count:,} {source}" if len(splits) > 1 else f"{count:,} {source}"
             for (count, source), splits in groups.items()]
    return " + ".join(parts) + " pairs"


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
