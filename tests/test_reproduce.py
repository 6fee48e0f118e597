"""``reproduce`` runs notebooks with papermill: a failed run never replaces the last good executed
copy, and a replay runs notebooks side by side yet reports them in order."""
from __future__ import annotations

import json

import papermill as pm
import pytest

from tjb_lib import paths, report_index, reproduce, sections  # noqa: F401 (report_index: its
# float registry is read before the notebook list is swapped for the demo notebooks below)

NOTEBOOK = """# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% tags=["parameters"]
fail = False
replay_only = True
outputs_dir = ""

# %%
import time
print("start", time.time())
time.sleep({sleep})
print("end", time.time())
print("result", {value})
assert not fail, "this run was asked to fail"
"""


def write_notebook(folder, name, value=1, sleep=0.0):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    path.write_text(NOTEBOOK.replace("{value}", str(value)).replace("{sleep}", str(sleep)))
    return path


def ran_between(executed) -> tuple[float, float]:
    """(start, end) clock readings the demo notebook printed."""
    text = "".join("".join(o.get("text", "")) for c in json.loads(executed.read_text())["cells"]
                   for o in c.get("outputs", []))
    words = text.split()
    return float(words[words.index("start") + 1]), float(words[words.index("end") + 1])


def test_a_failed_run_keeps_the_last_good_executed_copy_and_the_failed_one_beside_it(tmp_path):
    src = write_notebook(tmp_path / "src", "01_demo")
    out = tmp_path / "out"
    good = reproduce.execute(src, parameters={"fail": False}, out_dir=out)
    before = good.read_bytes()

    with pytest.raises(pm.PapermillExecutionError):
        reproduce.execute(src, parameters={"fail": True}, out_dir=out)

    assert good.read_bytes() == before
    failed = out / "01_demo.failed.ipynb"
    text = failed.read_text()
    assert "this run was asked to fail" in text
    assert json.loads(text)["metadata"]["papermill"]["output_path"] == \
        "outputs/notebooks/01_demo.failed.ipynb"
    assert sorted(p.name for p in out.iterdir()) == ["01_demo.failed.ipynb", "01_demo.ipynb"]

    reproduce.execute(src, parameters={"fail": False}, out_dir=out)
    assert not failed.exists()  # a good run clears the stale failed copy


def test_a_replay_runs_notebooks_side_by_side_reports_them_in_order_and_stops_at_a_failure(
        tmp_path, monkeypatch, capsys):
    src = tmp_path / "notebooks"
    for name, sleep in (("01_slow", 8.0), ("02_quick", 0.0), ("03_also", 0.0)):
        write_notebook(src, name, sleep=sleep)
    monkeypatch.setattr(paths, "NOTEBOOKS", src)
    monkeypatch.setattr(sections, "NOTEBOOKS", {"01_slow": "", "02_quick": "", "03_also": ""})
    out = tmp_path / "outputs"

    assert reproduce.reproduce(replay_only=True, outputs_dir=out, jobs=2) == 0
    printed = [line.split()[0] for line in capsys.readouterr().out.splitlines() if " ok " in line]
    assert printed == ["01_slow.py", "02_quick.py", "03_also.py"]
    assert (out / "REPORT.md").is_file()
    # both quick notebooks ran while the slow one slept
    clock = {name: ran_between(out / "notebooks" / f"{name}.ipynb")
             for name in ("01_slow", "02_quick", "03_also")}
    assert clock["02_quick"][1] < clock["01_slow"][1] and clock["03_also"][1] < clock["01_slow"][1]

    write_notebook(src, "02_quick", value=2).write_text(
        (src / "02_quick.py").read_text().replace("fail = False", "fail = True"))
    good = (out / "notebooks" / "02_quick.ipynb").read_bytes()
    assert reproduce.reproduce(replay_only=True, outputs_dir=out, jobs=2) == 1
    err = capsys.readouterr().err
    assert "02_quick.py failed in cell" in err and "02_quick.failed.ipynb" in err
    assert (out / "notebooks" / "02_quick.ipynb").read_bytes() == good
