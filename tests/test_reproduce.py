"""``reproduce`` runs notebooks with papermill: each judge's results live in their own folder, a
failed run never replaces them (nor leaves a mixture of two runs), and a replay runs notebooks
side by side yet reports them in order."""
from __future__ import annotations

import json

import papermill as pm
import pytest

from tjb_lib import paths
from tjb_lib.paper import report_index, sections
from tjb_lib.run import reproduce, results
# its float registry is read before the notebook list is swapped for the demo notebooks below)

NOTEBOOK = """# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% tags=["parameters"]
judge = "smollm2"
fail = False
replay_only = True
outputs_dir = ""

# %%
import pathlib
import time

EVENTS, WAIT_FOR = {events}, {wait_for}


def note(what):
    if EVENTS:
        with open(EVENTS, "a", encoding="utf-8") as f:
            f.write(f"{what} {NAME}\\n")


note("start")
deadline = time.monotonic() + 300  # a guard against waiting forever, not a measured time
while WAIT_FOR and not set(f"end {n}" for n in WAIT_FOR) <= set(
        pathlib.Path(EVENTS).read_text(encoding="utf-8").splitlines()):
    assert time.monotonic() < deadline, f"{WAIT_FOR} never ran beside {NAME}"
    time.sleep(0.05)
note("end")
print("result", {value})
assert not fail, "this run was asked to fail"

# %%
from tjb_lib.run.notebook import output_dirs
tables, _ = output_dirs(judge, outputs_dir)
tables.mkdir(parents=True, exist_ok=True)
(tables / f"{NAME}.csv").write_text(f"judge,value\\n{judge},{value}\\n")
"""


def write_notebook(folder, name, value=1, events=None, wait_for=()):
    """A demo notebook; with ``events`` it appends "start <name>" and "end <name>" to that file,
    and it ends only once every notebook named in ``wait_for`` has ended."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    path.write_text(NOTEBOOK.replace("{value}", str(value))
                    .replace("{events}", repr(str(events) if events else None))
                    .replace("{wait_for}", repr(tuple(wait_for))).replace("{NAME}", name))
    return path


def test_a_failed_run_keeps_the_last_good_executed_copy_and_the_failed_one_beside_it(tmp_path):
    src = write_notebook(tmp_path / "src", "01_demo")
    out = tmp_path / "out"
    good = reproduce.execute(src, parameters={"fail": False, "outputs_dir": str(tmp_path / "o")},
                             out_dir=out)
    before = good.read_bytes()

    with pytest.raises(pm.PapermillExecutionError):
        reproduce.execute(src, parameters={"fail": True}, out_dir=out)

    assert good.read_bytes() == before
    failed = out / "01_demo.failed.ipynb"
    text = failed.read_text()
    assert "this run was asked to fail" in text
    assert json.loads(text)["metadata"]["papermill"]["output_path"] == \
        "out/01_demo.failed.ipynb"
    assert sorted(p.name for p in out.iterdir()) == ["01_demo.failed.ipynb", "01_demo.ipynb"]

    reproduce.execute(src, parameters={"fail": False, "outputs_dir": str(tmp_path / "o")},
                      out_dir=out)
    assert not failed.exists()  # a good run clears the stale failed copy


def test_what_a_kernel_prints_outside_its_cells_is_kept_with_a_failure_not_on_the_terminal(
        tmp_path, capfd):
    # a kernel's own stderr (a heartbeat thread's port race, its last words when a signal kills
    # it) is the kernel process's, not a cell's: here its application's log says something
    src = write_notebook(tmp_path / "src", "01_demo")
    src.write_text(src.read_text().replace(
        'note("start")', 'from ipykernel.kernelapp import IPKernelApp\n'
                         'IPKernelApp.instance().log.error("the kernel itself speaks")\n'
                         'note("start")'))
    out = tmp_path / "out"
    with pytest.raises(pm.PapermillExecutionError):
        reproduce.execute(src, parameters={"fail": True}, out_dir=out)
    log = out / "01_demo.failed.kernel.log"
    assert "the kernel itself speaks" in log.read_text()
    assert "the kernel itself speaks" not in capfd.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["01_demo.failed.ipynb", log.name]

    reproduce.execute(src, parameters={"fail": False, "outputs_dir": str(tmp_path / "o")},
                      out_dir=out)
    assert sorted(p.name for p in out.iterdir()) == ["01_demo.ipynb"]  # nothing stale kept
    assert "the kernel itself speaks" not in capfd.readouterr().err


@pytest.mark.slow  # three notebook kernels, twice
def test_a_replay_runs_notebooks_side_by_side_reports_them_in_order_and_stops_at_a_failure(
        tmp_path, monkeypatch, capsys):
    src = tmp_path / "notebooks"
    events = tmp_path / "events.log"
    # the first notebook cannot end before the other two have: run one at a time, it would wait
    write_notebook(src, "01_slow", events=events, wait_for=("02_quick", "03_also"))
    for name in ("02_quick", "03_also"):
        write_notebook(src, name, events=events)
    monkeypatch.setattr(paths, "NOTEBOOKS", src)
    monkeypatch.setattr(sections, "NOTEBOOKS", {"01_slow": "", "02_quick": "", "03_also": ""})
    out = tmp_path / "outputs"

    assert reproduce.reproduce(replay_only=True, outputs_dir=out, workers=2) == 0
    printed = [line.split()[0] for line in capsys.readouterr().out.splitlines() if " ok " in line]
    assert printed == ["01_slow.py", "02_quick.py", "03_also.py"]
    assert (out / "REPORT.md").is_file()
    # the first ended last, after both others had ended, as recorded: one at a time it would
    # have waited for them forever (the order of the kernels' starts is the machine's to choose)
    said = events.read_text().splitlines()
    assert sorted(said) == sorted(f"{e} {n}" for e in ("start", "end")
                                  for n in ("01_slow", "02_quick", "03_also"))
    assert said[-1] == "end 01_slow"

    write_notebook(src, "01_slow")  # no waiting now: the failure is what this run is about
    write_notebook(src, "02_quick", value=2).write_text(
        (src / "02_quick.py").read_text().replace("fail = False", "fail = True"))
    good = (out / "notebooks" / "02_quick.ipynb").read_bytes()
    assert reproduce.reproduce(replay_only=True, outputs_dir=out, workers=2) == 1
    err = capsys.readouterr().err
    assert "02_quick.py failed in cell" in err and "02_quick.failed.ipynb" in err
    assert (out / "notebooks" / "02_quick.ipynb").read_bytes() == good


@pytest.fixture
def demo(tmp_path, monkeypatch):
    """Three demo notebooks as the notebook list, each writing one table into its judge's
    results, and the judges' results folder under tmp_path."""
    src = tmp_path / "notebooks"
    for name in ("01_first", "02_second", "03_third"):
        write_notebook(src, name)
    monkeypatch.setattr(paths, "NOTEBOOKS", src)
    monkeypatch.setattr(sections, "NOTEBOOKS", {"01_first": "", "02_second": "",
                                                "03_third": ""})
    monkeypatch.setattr(results, "JUDGES", tmp_path / "judges")
    return src


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_each_judge_has_its_own_results_and_another_judge_leaves_the_first_as_it_was(demo,
                                                                                     tmp_path):
    assert reproduce.reproduce(replay_only=True, workers=1) == 0  # the notebooks' default judge
    shipped = tmp_path / "judges" / "smollm2"
    before = _files(shipped)
    assert {"REPORT.md", "tables/01_first.csv", "notebooks/03_third.ipynb"} <= set(before)
    assert reproduce.reproduce(judge="gpt-5.5", replay_only=True, workers=1) == 0
    assert reproduce.reproduce(judge="gpt-5.5", only="02_second", replay_only=True) == 0
    assert _files(shipped) == before
    other = tmp_path / "judges" / "gpt-5.5"
    assert (other / "tables" / "02_second.csv").read_text() == "judge,value\ngpt-5.5,1\n"
    assert (other / "REPORT.md").is_file() and (other / "notebooks" / "01_first.ipynb").is_file()
    assert sorted(p.name for p in (tmp_path / "judges").iterdir()) == ["gpt-5.5", "smollm2"]


@pytest.mark.slow
def test_a_failed_run_leaves_the_judges_results_as_they_were_not_a_mixture(demo, tmp_path,
                                                                          capsys):
    assert reproduce.reproduce(replay_only=True, workers=1) == 0
    folder = tmp_path / "judges" / "smollm2"
    before = _files(folder)
    # a second run whose first notebook gives another result and whose second one fails
    write_notebook(demo, "01_first", value=2)
    write_notebook(demo, "02_second").write_text(
        (demo / "02_second.py").read_text().replace("fail = False", "fail = True"))
    assert reproduce.reproduce(replay_only=True, workers=1) == 1
    assert "the results in" in capsys.readouterr().err
    after = _files(folder)
    assert after.pop("notebooks/02_second.failed.ipynb")  # the traceback, kept beside
    # and what its kernel printed outside the cells, where it printed anything (under load a
    # kernel shut down mid-failure may log a ZMQ callback error)
    after.pop("notebooks/02_second.failed.kernel.log", None)
    assert after == before  # 01's new result did not replace the good one
    assert sorted(p.name for p in (tmp_path / "judges").iterdir()) == ["smollm2"]  # no staging


def test_what_a_cell_prints_in_several_flushes_is_one_stream_output(tmp_path):
    src = tmp_path / "src" / "01_flushes.py"
    src.parent.mkdir()
    src.write_text(NOTEBOOK.split("# %%\nimport pathlib")[0] + """# %%
import sys
import time
print("first line", flush=True)
time.sleep(0.5)  # the kernel sends the first line before the second is printed
print("second line", flush=True)
print("a warning", file=sys.stderr)
""")
    nb = json.loads(reproduce.execute(src, out_dir=tmp_path / "out").read_text())
    outputs = nb["cells"][-1]["outputs"]
    assert [(o["name"], "".join(o["text"])) for o in outputs] == [
        ("stdout", "first line\nsecond line\n"), ("stderr", "a warning\n")]
