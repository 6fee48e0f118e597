"""The section notebooks: each runs under papermill on the shipped raw outputs (replay only, no
judge call) and writes its paper floats with the paper's rows; a bad parameter stops it in the
first cells with a one-line message."""
from __future__ import annotations

import ast
from pathlib import Path

import pandas as pd
import pytest

from tjb_lib import paths
from tjb_lib.compare import SPECS, paper_values
from tjb_lib.report import paper_table

MINE = ("00_benchmark", "01_human_validation", "02_presentation", "03_strict_suppression",
        "04_resolution_loss", "05_frontier", "06_trace", "07_ranking")
#: notebook -> the paper floats (tables; figures where a figure is saved) it must write
EXPECTED = {
    "00_benchmark": (["table_1"], []),
    "01_human_validation": (["table_2"], []),
    "02_presentation": (["table_a9", "table_a10", "table_a16", "table_a20"], []),
    "03_strict_suppression": (["table_a14", "table_a15", "figure_2"], ["figure_2"]),
    "04_resolution_loss": (["table_a11", "table_a19", "figure_a1"], ["figure_a1"]),
    "05_frontier": (["figure_3"], ["figure_3"]),
    "06_trace": (["table_a12", "table_a13"], []),
    "07_ranking": (["table_a17", "table_a18"], []),
}
SHIPPED = paths.RAW_OUTPUTS / "smollm2"
needs_shipped = pytest.mark.skipif(
    not SHIPPED.is_dir(),
    reason=f"no shipped raw outputs in {SHIPPED.relative_to(paths.ROOT)}: generate them with "
           "`python -m tjb_lib reproduce` (judge smollm2) to replay the notebooks")


def _source(stem: str) -> Path:
    return paths.NOTEBOOKS / f"{stem}.py"


def test_every_section_notebook_is_paired_and_has_a_parameters_cell():
    import jupytext

    for stem in MINE:
        nb = jupytext.read(_source(stem))
        assert nb.metadata["jupytext"]["formats"] == "ipynb,py:percent", stem
        assert (paths.NOTEBOOKS / f"{stem}.ipynb").exists(), f"{stem}.ipynb is missing"
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert "parameters" in code[0].metadata.get("tags", []), stem
        params = code[0].source
        for name in ("judge = \"smollm2\"", "scale = \"default\"", "seed = 20260923",
                     "replay_only = False"):
            assert name in params, f"{stem}: parameters cell lacks {name}"
        names = {t.id for node in ast.parse(params).body if isinstance(node, ast.Assign)
                 for t in node.targets}
        assert not [n for n in names if "key" in n.lower()], f"{stem}: a key is a parameter"


def _paper_keys(name: str) -> set[tuple]:
    """The paper's row keys of a float, as (paper judge, *keys) tuples."""
    if name == "table_1":
        return {(c,) for c in paper_table("table_1")["component"]}
    if name == "table_2":
        return {(v,) for v in paper_table("table_2")["validation_set"]}
    spec = SPECS[name]
    paper = paper_values(name)
    return set(map(tuple, paper[[spec.judge_col, *spec.keys]].astype(str).to_numpy()))


def _our_keys(name: str, table: pd.DataFrame) -> set[tuple]:
    if name == "table_1":
        return {(c,) for c in table["component"]}
    if name == "table_2":
        return {(v,) for v in table["validation_set"]}
    spec = SPECS[name]
    return set(map(tuple, table[["paper_judge", *spec.keys]].astype(str).to_numpy()))


@pytest.mark.slow
@pytest.mark.parametrize("stem", [pytest.param(s, marks=() if s in ("00_benchmark",
                                                                    "01_human_validation")
                                               else needs_shipped) for s in MINE])
def test_notebook_replays_and_writes_its_floats_with_the_papers_rows(stem, tmp_path):
    from tjb_lib.reproduce import execute

    out = tmp_path / "outputs"
    execute(_source(stem), parameters={"replay_only": True, "outputs_dir": str(out)},
            out_dir=tmp_path / "notebooks")
    tables, figures = EXPECTED[stem]
    for name in tables:
        csv = out / "tables" / f"{name}.csv"
        assert csv.exists() and (out / "tables" / f"{name}.md").exists(), f"{name} not written"
        table = pd.read_csv(csv)
        assert _paper_keys(name) <= _our_keys(name, table), f"{name} lacks some paper rows"
        if name not in ("table_1",):
            assert {"paper", "ours", "n"} <= set(table.columns), name
        if name not in ("table_1", "table_2"):
            assert set(table["judge"]) == {"smollm2"}, name
    for name in figures:
        for ext in ("png", "svg"):
            assert (out / "figures" / f"{name}.{ext}").stat().st_size > 0


def test_unknown_judge_stops_the_notebook_with_a_one_line_message(tmp_path):
    import papermill as pm

    from tjb_lib.reproduce import execute

    with pytest.raises(pm.PapermillExecutionError) as err:
        execute(_source("02_presentation"), parameters={"judge": "gpt-9", "replay_only": True,
                                                        "outputs_dir": str(tmp_path / "o")},
                out_dir=tmp_path / "nb")
    assert err.value.ename == "ValueError"
    assert "unknown judge 'gpt-9'" in err.value.evalue and "smollm2" in err.value.evalue
    assert "\n" not in err.value.evalue
    assert err.value.exec_count <= 3  # the parameter check, not a traceback deep in a run
    assert not (tmp_path / "o" / "tables").exists()


def test_an_executed_notebook_is_the_same_file_when_rerun_and_names_no_machine_path(tmp_path):
    from tjb_lib.reproduce import execute

    params = {"replay_only": True, "outputs_dir": str(tmp_path / "o")}
    first = execute(_source("01_human_validation"), parameters=params,
                    out_dir=tmp_path / "nb").read_bytes()
    again = execute(_source("01_human_validation"), parameters=params,
                    out_dir=tmp_path / "nb").read_bytes()
    assert first == again
    assert str(paths.ROOT).encode() not in first
    assert b'"start_time"' not in first and b'"duration"' not in first
