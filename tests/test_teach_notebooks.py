"""The teaching notebooks (08 explorer, 11 judge it yourself): paired, parameterised, and run
headless under papermill on the shipped raw outputs (replay only) and the shipped example
labels, the same file byte for byte when rerun."""
from __future__ import annotations

import ast

import nbformat
import pandas as pd
import pytest

from tjb_lib import paths
from tjb_lib.paper import sections

TEACH = [stem for stem, section in sections.NOTEBOOKS.items() if section == "teaching"]
SHIPPED = paths.RAW_OUTPUTS / "smollm2"
needs_shipped = pytest.mark.skipif(
    not SHIPPED.is_dir(),
    reason=f"no shipped raw outputs in {SHIPPED.relative_to(paths.ROOT)}: generate them with "
           "`python -m tjb_lib reproduce` (judge smollm2) to replay the notebooks")


@pytest.mark.parametrize("stem", TEACH)
def test_teaching_notebook_is_paired_and_has_a_parameters_cell(stem):
    import jupytext

    nb = jupytext.read(paths.NOTEBOOKS / f"{stem}.py")
    assert nb.metadata["jupytext"]["formats"] == "ipynb,py:percent"
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert "parameters" in code[0].metadata.get("tags", [])
    names = {t.id for node in ast.parse(code[0].source).body if isinstance(node, ast.Assign)
             for t in node.targets}
    assert {"judge", "scale", "seed", "replay_only", "outputs_dir"} <= names
    assert not [n for n in names if "key" in n.lower()]


def _outputs(path) -> tuple[str, int]:
    """All text a reader sees in an executed notebook, and the number of images in it."""
    nb = nbformat.read(path, as_version=4)
    text, images = [], 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                text.append(f"ERROR {out['ename']}: {out['evalue']}")
            text.append(out.get("text", ""))
            data = out.get("data", {})
            images += "image/png" in data
            text.extend(data.get(k, "") for k in ("text/markdown", "text/plain", "text/html"))
    return "\n".join(text), images


@pytest.mark.slow
@needs_shipped
def test_judge_yourself_runs_headless_on_the_example_and_reruns_to_the_same_file(tmp_path):
    from tjb_lib.run.reproduce import execute

    source = paths.NOTEBOOKS / "11_judge_yourself.py"
    params = {"replay_only": True, "outputs_dir": str(tmp_path / "o")}
    first = execute(source, parameters=params, out_dir=tmp_path / "nb").read_bytes()
    text, images = _outputs(tmp_path / "nb" / "11_judge_yourself.ipynb")
    assert "EXAMPLE LABELS, NOT A PERSON, ON OTHER PAIRS THAN YOURS" in text and images == 1
    for meaning in ("Tie is correct", "Tie is calibrated", "Tie is costly"):
        assert meaning in text
    assert "Judge it yourself: 6 items in 2 rounds" in text  # the inert buttons, one line
    assert "minutes of reading at 200 words a minute" in text  # what the class size costs
    assert "EXAMPLE: under L0" in text and "smollm2 picks slot A" in text
    rounds = tmp_path / "o" / "judge_yourself"
    for level in ("L0", "L4"):  # the blind rounds of code "you", written under outputs_dir
        assert (rounds / "you" / f"judge_yourself_{level}.xlsx").exists()
        assert not (rounds / "you" / f"judge_yourself_{level}.key.csv").exists()
        for pair in pd.read_csv(rounds / ".keys" / "you" /
                                f"judge_yourself_{level}.key.csv")["pair_id"]:
            assert pair not in text, f"the notebook shows the student's pair {pair}"
    again = execute(source, parameters=params, out_dir=tmp_path / "nb").read_bytes()
    assert first == again
    assert str(paths.ROOT).encode() not in first


@pytest.mark.slow
@needs_shipped
def test_explorer_runs_headless_with_the_papers_frontier_and_explained_judges(tmp_path):
    from tjb_lib.run.reproduce import execute

    source = paths.NOTEBOOKS / "08_explore.py"
    params = {"replay_only": True, "outputs_dir": str(tmp_path / "o")}
    first = execute(source, parameters=params, out_dir=tmp_path / "nb").read_bytes()
    text, images = _outputs(tmp_path / "nb" / "08_explore.ipynb")
    assert "ERROR " not in text and "<th>...</th>" not in text  # every column shown
    assert images == 2  # L0 against L4 by tier; the judge beside the paper's frontier
    assert "smollm2: " in text and "scored from P(A)/P(B)/P(Tie)" in text
    assert "```text" in text and "**Task.**" not in text  # pair text shown verbatim
    assert execute(source, parameters=params, out_dir=tmp_path / "nb").read_bytes() == first


@pytest.mark.slow
@needs_shipped
@pytest.mark.parametrize("stem, shows", [
    ("08_explore", "the views below show the shipped judge **smollm2**"),
    ("11_judge_yourself", "has no stored position-only controls at this scale (replay_only"),
])
def test_a_judge_with_nothing_stored_is_named_not_a_crash(stem, shows, tmp_path):
    """A reader who sets a paper judge without a key, replay only, gets a sentence that says so
    and the rest of the notebook, not a traceback from an empty table."""
    from tjb_lib.run.reproduce import execute

    params = {"judge": "gpt-5.5", "replay_only": True, "outputs_dir": str(tmp_path / "o")}
    execute(paths.NOTEBOOKS / f"{stem}.py", parameters=params, out_dir=tmp_path / "nb")
    text, images = _outputs(tmp_path / "nb" / f"{stem}.ipynb")
    assert "ERROR " not in text
    assert "gpt-5.5 has no" in text and shows in text
    assert images >= 1
