"""The notebooks: each runs under papermill on the shipped raw outputs (replay only, no judge
call) and writes the floats the registry gives it, with the paper's rows and its figures inside
the executed notebook; a bad parameter stops it in the set-up cell with a one-line message, and
bad input met later (a damaged store or split, no key, an outputs folder that cannot be made)
with the error's one line; a rerun writes the same file; notebook 00 never rewrites the shipped
splits."""
from __future__ import annotations

import ast
import hashlib
import json
import os
import pkgutil
import shutil
from pathlib import Path

import nbformat
import pandas as pd
import pytest

import tjb_lib
from tjb_lib.paper import claim_registry, floats, sections
from tjb_lib import paths
from tjb_lib.run import sample
from tjb_lib.paper.compare import paper_values
from tjb_lib.paper.report import paper_table
from tjb_lib.seeds import SEED

from _jupyter import make_ipynb

STEMS = list(sections.NOTEBOOKS)
#: the notebooks that write the paper's floats and in-text numbers (the claim registry's)
SECTIONS = [s for s in STEMS if claim_registry.claims_of(s)]
#: the others, except the teaching ones (test_teach_notebooks): beyond the paper, workbooks
OTHERS = [s for s in STEMS if s not in SECTIONS and sections.NOTEBOOKS[s] != "teaching"]
SHIPPED = paths.RAW_OUTPUTS / "smollm2"
needs_shipped = pytest.mark.skipif(
    not SHIPPED.is_dir(),
    reason=f"no shipped raw outputs in {SHIPPED.relative_to(paths.ROOT)}: generate them with "
           "`python -m tjb_lib reproduce` (judge smollm2) to replay the notebooks")


def _source(stem: str) -> Path:
    return paths.NOTEBOOKS / f"{stem}.py"


def _execute(stem: str, tmp_path: Path, **params) -> Path:
    from tjb_lib.run.reproduce import execute

    params = {"replay_only": True, "outputs_dir": str(tmp_path / "outputs"), **params}
    return execute(_source(stem), parameters=params, out_dir=tmp_path / "notebooks")


def test_the_notebook_list_is_every_notebook_in_the_folder_in_run_order():
    from tjb_lib.run.reproduce import notebook_sources

    assert STEMS == sorted(p.stem for p in paths.NOTEBOOKS.glob("*.py"))
    assert [p.stem for p in notebook_sources()] == STEMS  # what reproduce runs


def test_every_notebook_is_paired_and_has_a_typed_parameters_cell():
    import jupytext

    for stem in STEMS:
        nb = jupytext.read(_source(stem))
        assert nb.metadata["jupytext"]["formats"] == "ipynb,py:percent", stem
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert "parameters" in code[0].metadata.get("tags", []), stem
        params = code[0].source
        for name in ("judge = \"smollm2\"", "scale = \"default\"", f"seed = {SEED}",
                     "replay_only = False"):
            assert name in params, f"{stem}: parameters cell lacks {name}"
        names = {t.id for node in ast.parse(params).body if isinstance(node, ast.Assign)
                 for t in node.targets}
        assert not [n for n in names if "key" in n.lower()], f"{stem}: a key is a parameter"


def test_no_notebook_variable_shadows_a_library_module():
    """A notebook that assigns a name it imported from the library (``floats = ...`` after
    ``from tjb_lib.paper import floats``) breaks every later cell that means the module."""
    modules = {m.name.rpartition(".")[2]
               for m in pkgutil.walk_packages(tjb_lib.__path__, "tjb_lib.")}
    assert {"figures", "cost", "floats", "notebook", "sample"} <= modules
    for stem in STEMS:
        tree = ast.parse(_source(stem).read_text(encoding="utf-8"))
        imported = {a.asname or a.name for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tjb_lib")
                    for a in node.names if a.name in modules}
        assert imported, stem
        assigned = {node.id for node in ast.walk(tree)
                    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
        assigned |= {node.name for node in ast.walk(tree)
                     if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
        assert not assigned & imported, f"{stem} assigns {sorted(assigned & imported)}"


def test_the_weak_judge_paragraph_lives_in_one_place():
    for stem in STEMS:
        text = _source(stem).read_text(encoding="utf-8")
        assert "135M-parameter model" not in text, stem
    assert "135M-parameter model" in (paths.ROOT / "tjb_lib" / "run" / "notebook.py").read_text()


def _paper_keys(name: str) -> set[tuple]:
    """The paper's row keys of a float, as (paper judge, *keys) tuples."""
    if name == "table_1":
        return {(c,) for c in paper_table("table_1")["component"]}
    if name == "table_2":
        return {(v,) for v in paper_table("table_2")["validation_set"]}
    spec = floats.get(name).comparison
    paper = paper_values(name)
    return set(map(tuple, paper[[spec.judge_col, *spec.keys]].astype(str).to_numpy()))


def _our_keys(name: str, table: pd.DataFrame) -> set[tuple]:
    if name == "table_1":
        return {(c,) for c in table["component"]}
    if name == "table_2":
        return {(v,) for v in table["validation_set"]}
    spec = floats.get(name).comparison
    return set(map(tuple, table[["paper_judge", *spec.keys]].astype(str).to_numpy()))


def _images(executed: Path) -> int:
    nb = nbformat.read(executed, as_version=4)
    return sum("image/png" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", []))


def _shown_text(executed: Path) -> str:
    """Everything a reader sees as text or HTML in an executed notebook."""
    nb = nbformat.read(executed, as_version=4)
    return "\n".join(str(o.get("text", "")) + "".join(
        str(o.get("data", {}).get(k, "")) for k in ("text/html", "text/markdown", "text/plain"))
        for c in nb.cells for o in c.get("outputs", []))


def _no_hidden_columns(executed: Path) -> None:
    """No table hides columns behind pandas' "..." (HTML or text)."""
    text = _shown_text(executed)
    assert "<th>...</th>" not in text and "<td>...</td>" not in text, executed.name


@pytest.mark.slow
@pytest.mark.parametrize("stem", [pytest.param(s, marks=needs_shipped if sample.runs_of(s) else ())
                                  for s in SECTIONS])  # a notebook that runs no judge needs none
def test_notebook_replays_and_writes_its_floats_with_the_papers_rows(stem, tmp_path):
    executed = _execute(stem, tmp_path)
    out = tmp_path / "outputs"
    mine = floats.of_notebook(stem)
    assert mine, f"the registry gives {stem} no float"
    for f in mine:
        csv = out / "tables" / f"{f.name}.csv"
        assert csv.exists() and (out / "tables" / f"{f.name}.md").exists(), f"{f.name} not written"
        table = pd.read_csv(csv)
        if f.comparison is not None or f.name in ("table_1", "table_2"):
            assert _paper_keys(f.name) <= _our_keys(f.name, table), f"{f.name} lacks paper rows"
        if f.comparison is not None:
            assert {"paper", "ours", "n", "n_unparsed", "n_failed", "unparsed",
                    "status"} <= set(table.columns), f.name
            assert set(table["judge"]) == {"smollm2"}, f.name
            # a cell without a parsed verdict is never a rate
            empty = table["status"] != "ok"
            assert table.loc[empty, "ours"].isna().all(), f.name
        if f.figure is not None:
            for ext in ("png", "svg"):
                assert (out / "figures" / f"{f.name}.{ext}").stat().st_size > 0
    shown = sum(floats.get(n).figure is not None for n in
                [f.name for f in mine] + (["figure_2"] if stem == "02_presentation" else []))
    assert _images(executed) == shown, f"{stem}: figures are not inside the notebook"
    _no_hidden_columns(executed)
    text = _shown_text(executed)
    for f in mine:  # each figure says what it shows, in words
        assert f.figure is None or f.caption in text, f.name
    claims = pd.read_csv(out / "tables" / f"claims_{stem}.csv")
    assert set(claims["claim_id"]) == set(claim_registry.claims_of(stem))
    assert claims["paper"].notna().all() and claims["status"].notna().all()


@pytest.mark.slow
@needs_shipped
@pytest.mark.parametrize("stem", OTHERS)
def test_beyond_and_workbook_notebooks_run_headless_on_the_shipped_outputs(stem, tmp_path):
    executed = _execute(stem, tmp_path)
    nb = nbformat.read(executed, as_version=4)
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    shown = "\n".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/markdown", ""))
                      for c in nb.cells for o in c.get("outputs", []))
    assert "No stored verdicts" not in shown  # the shipped raw outputs cover what it replays
    _no_hidden_columns(executed)
    for f in floats.of_notebook(stem):
        assert (tmp_path / "outputs" / "tables" / f"{f.name}.csv").exists(), f.name
    if stem == "09_beyond":
        assert _images(executed) == 3  # frontier, calibration, power: shown as well as saved


BAD_PARAMETERS = [
    ({"judge": "gpt-9"}, "unknown judge 'gpt-9'"),
    ({"replay_only": "False"}, "parameter replay_only must be True or False, got 'False'"),
    ({"seed": "abc"}, "parameter seed must be int, got 'abc'"),
    ({"scale": "huge"}, "unknown scale 'huge'"),
]


@pytest.mark.parametrize("params, message", BAD_PARAMETERS)
def test_a_bad_parameter_is_one_line_naming_it(params, message):
    from tjb_lib.run.notebook import ParameterError, check_parameters

    with pytest.raises(ParameterError) as err:
        check_parameters(**{"judge": "smollm2", **params})
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_bad_parameter_stops_the_notebook_in_its_set_up_with_one_line(tmp_path):
    """What a reader sees is that line alone, from the set-up cell: one kernel shows it for
    every bad parameter (each notebook's set-up checks them all with ``check_parameters``)."""
    import papermill as pm

    params, message = BAD_PARAMETERS[0]
    with pytest.raises(pm.PapermillExecutionError) as err:
        _execute("02_presentation", tmp_path, **params)
    assert err.value.ename == "ParameterError"
    assert message in err.value.evalue and "\n" not in err.value.evalue
    assert err.value.traceback == [f"ParameterError: {err.value.evalue}"]  # the message alone
    assert err.value.exec_count <= 3  # the set-up cell, not a traceback deep in a run
    assert not (tmp_path / "outputs" / "tables").exists()


def _damaged_store(root: Path) -> None:
    store = root / "outputs" / "raw_outputs" / "smollm2"
    shutil.copytree(SHIPPED, store)
    lines = (store / "calls.jsonl").read_bytes().splitlines(keepends=True)
    lines[1] = b"{not a record}\n"
    (store / "calls.jsonl").write_bytes(b"".join(lines))


def _damaged_split(root: Path) -> None:
    (root / "data" / "splits").unlink()
    shutil.copytree(paths.SPLITS, root / "data" / "splits")
    lines = (root / "data" / "splits" / "mechanical_hotpotqa.jsonl").read_text().splitlines()
    lines[2] = "{broken"
    (root / "data" / "splits" / "mechanical_hotpotqa.jsonl").write_text("\n".join(lines))


#: bad input a notebook meets after its parameters: (name, params, damage, error, what the line
#: names); each once showed the library frames that raised it
BAD_INPUTS = [
    ("a damaged store line", {}, _damaged_store, "StoreError", ("calls.jsonl line 2",)),
    ("a damaged split line", {}, _damaged_split, "RunError",
     ("mechanical_hotpotqa.jsonl line 3",)),
    ("an API judge with no key", {"judge": "gpt-5.5", "replay_only": False}, None,
     "MissingAPIKey", ("OPENAI_API_KEY",)),
    ("an outputs folder that cannot be made", {"outputs_dir": "/dev/null/x"}, None,
     "NotADirectoryError", ("/dev/null/x/tables", "Not a directory")),
]


@needs_shipped
@pytest.mark.parametrize("name, params, damage, ename, names", BAD_INPUTS,
                         ids=[c[0] for c in BAD_INPUTS])
def test_bad_input_stops_the_notebook_with_one_line_naming_it(name, params, damage, ename,
                                                              names, tmp_path, monkeypatch):
    """What the kernel reports (papermill's error, the executed copy) is the error's one line,
    naming the file and item, as the command line says it; what the store held stays."""
    import papermill as pm

    root = tmp_path / "root"
    (root / "data").mkdir(parents=True)
    for item in paths.DATA.iterdir():
        (root / "data" / item.name).symlink_to(item)
    if damage:
        damage(root)
    store = root / "outputs" / "raw_outputs" / "smollm2" / "calls.jsonl"
    before = store.read_bytes() if store.exists() else None
    monkeypatch.setenv("TJB_ROOT", str(root))  # the kernel starts with this environment
    for key in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(key)
    with pytest.raises(pm.PapermillExecutionError) as err:
        _execute("02_presentation", tmp_path, **params)
    e = err.value
    assert e.ename == ename and all(n in e.traceback[0] for n in names), e.traceback
    assert len(e.traceback) == 1 and "\n" not in e.traceback[0] and "File " not in e.traceback[0]
    assert (store.read_bytes() if store.exists() else None) == before


def _splits_digest() -> str:
    h = hashlib.sha256()
    for p in sorted(paths.SPLITS.iterdir()):
        h.update(p.name.encode() + p.read_bytes())
    return h.hexdigest()


@pytest.mark.slow
def test_notebook_00_never_rewrites_the_shipped_splits(tmp_path):
    before = _splits_digest()
    shipped_seed = json.loads((paths.SPLITS / "manifest.json").read_text())["seed"]
    executed = _execute("00_benchmark", tmp_path)  # the shipped seed: checked in memory
    assert _splits_digest() == before
    assert "left as shipped" in executed.read_text()
    scratch = paths.ROOT / ".cache" / "splits" / "seed123"
    try:
        executed = _execute("00_benchmark", tmp_path, seed=123)
        assert _splits_digest() == before
        assert (scratch / "manifest.json").exists()
        assert json.loads((scratch / "manifest.json").read_text())["seed"] == 123 != shipped_seed
        text = executed.read_text()
        assert ".cache/splits/seed123" in text and "False" in text  # some split differs
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.mark.slow
@needs_shipped
def test_an_executed_notebook_is_the_same_file_when_rerun_and_names_no_machine_path(tmp_path):
    first = _execute("04_resolution_loss", tmp_path).read_bytes()
    again = _execute("04_resolution_loss", tmp_path).read_bytes()
    assert first == again
    assert b'"image/png"' in first
    assert str(paths.ROOT).encode() not in first
    assert b'"start_time"' not in first and b'"duration"' not in first


def test_the_py_file_is_the_only_tracked_form_of_a_notebook():
    """reproduce runs the .py, JupyterLab opens the .ipynb made from it: only the .py is
    tracked, so the two cannot disagree in git and saving in JupyterLab changes nothing there."""
    import subprocess

    tracked = subprocess.run(["git", "-C", str(paths.ROOT), "ls-files", "notebooks"],
                             check=True, capture_output=True, text=True).stdout.split()
    # beside the sources, only the link that makes a kernel import this checkout's library
    assert tracked and not [t for t in tracked if not t.endswith(".py")
                            and t != "notebooks/tjb_lib"], tracked
    ignored = subprocess.run(["git", "-C", str(paths.ROOT), "check-ignore", "-q", "--no-index",
                              "notebooks/05_frontier.ipynb"])
    assert ignored.returncode == 0, "notebooks/*.ipynb is not ignored by git"


def test_the_kernel_of_each_notebook_is_named_as_jupyterlab_names_it_when_saving():
    from jupyter_client.kernelspec import KernelSpecManager
    import jupytext

    shown = KernelSpecManager().get_kernel_spec("python3").display_name
    for stem in STEMS:
        kernel = jupytext.read(_source(stem)).metadata["kernelspec"]
        assert kernel == {"display_name": shown, "language": "python", "name": "python3"}, stem


def test_the_ipynb_setup_makes_follows_its_py_and_keeps_its_outputs(tmp_path):
    """An edit of the .py outside JupyterLab (or a pull) reaches the .ipynb on the next
    `make setup`, and the outputs a reader ran in JupyterLab stay."""
    import jupytext

    py = tmp_path / "05_frontier.py"
    shutil.copy(_source("05_frontier"), py)
    ipynb = make_ipynb(py)
    nb = nbformat.read(ipynb, as_version=4)
    assert [c.source for c in nb.cells] == [c.source for c in jupytext.read(py).cells]
    code = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and i > 1)
    nb.cells[code].outputs = [nbformat.v4.new_output("stream", name="stdout", text="ran\n")]
    nbformat.write(nb, ipynb)
    py.write_text(py.read_text(encoding="utf-8").replace(
        "# %% [markdown]\n", "# %% [markdown]\n# An edit made outside JupyterLab.\n#\n", 1),
        encoding="utf-8")
    again = nbformat.read(make_ipynb(py), as_version=4)
    assert "An edit made outside JupyterLab." in again.cells[0].source
    assert again.cells[code].outputs[0]["text"] == "ran\n"


@pytest.mark.slow
def test_reproduce_prints_no_kernel_transport_warning(tmp_path):
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "tjb_lib", "reproduce", "--replay-only",
                          "--only", "01_human_validation", "--outputs-dir", str(tmp_path)],
                         capture_output=True, text=True, cwd=paths.ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "01_human_validation.py" in run.stdout
    assert "running over TCP" not in run.stderr + run.stdout
