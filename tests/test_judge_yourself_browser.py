"""Notebook 11 in a real browser: JupyterLab on 127.0.0.1, headless Chromium driven by selenium,
Run All, then the A / B / Tie buttons clicked on screen until both rounds are done. Checks that
the widgets render, that every click reaches the student's workbook on disk, that the results
appear under the buttons, and that no pair text (the buttons' items with FinQA "$" amounts, and
the explorer's rendering of such a pair) is typeset as math."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tjb_lib import judge_yourself as jy
from tjb_lib import paths

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
SHIPPED = paths.RAW_OUTPUTS / "smollm2"
EXPLORER_EXAMPLE = """\
from IPython.display import Markdown
from tjb_lib import explore
from tjb_lib.pairs import load_split

p = next(p for p in load_split("moderate_finqa") if p.task.count("$") >= 2)
Markdown(explore.render_example({"meaning": "costly", "split": p.split, "pair_id": p.pair_id,
                                 "why": "", "note": p.meta["omitted_text"], "gold": p.gold,
                                 "task": p.task, "plain": p.plain, "cited": p.cited,
                                 "verdicts": []}))"""

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                       reason="needs Debian's chromium and chromium-driver "
                              "(apt-get install chromium chromium-driver)"),
    pytest.mark.skipif(not SHIPPED.is_dir(), reason="needs the shipped raw outputs of smollm2"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _seed_with_a_dollar_amount() -> int:
    """A seed whose one-pair-per-tier draw shows a FinQA candidate with "$" amounts, the text
    that notebooks used to typeset as LaTeX."""
    for seed in range(200):
        if any("$" in p.task + p.plain + p.cited for p in jy.draw_pairs(1, seed)):
            return seed
    raise AssertionError("no draw of one pair per tier shows a '$' amount in 200 seeds")


@pytest.fixture
def lab(tmp_path):
    """JupyterLab serving a copy of notebook 11 (parameters set for this test) from tmp_path."""
    import jupytext
    import nbformat

    nb = jupytext.read(paths.NOTEBOOKS / "11_judge_yourself.py")
    params = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    params.source += "".join(f"\n{k} = {v!r}" for k, v in {
        "replay_only": True, "outputs_dir": str(tmp_path / "out"), "annotator": "browser",
        "n_per_tier": 1, "seed": _seed_with_a_dollar_amount()}.items())
    # a control, the one cell whose math must be typeset (so the check below can see
    # typesetting), and the explorer's rendering of a FinQA pair with "$" amounts
    nb.cells[1:1] = [nbformat.v4.new_markdown_cell("MATH CONTROL: $x^2$"),
                     nbformat.v4.new_code_cell(EXPLORER_EXAMPLE)]
    jupytext.write(nb, tmp_path / "judge.ipynb")
    port, token = _free_port(), "tjb-browser-test"
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT),
           **{var: str(tmp_path / sub) for var, sub in (
               ("JUPYTER_CONFIG_DIR", "cfg"), ("JUPYTER_RUNTIME_DIR", "rt"),
               ("JUPYTERLAB_SETTINGS_DIR", "st"), ("JUPYTERLAB_WORKSPACES_DIR", "ws"))}}
    log = open(tmp_path / "lab.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}",
         "--ip=127.0.0.1", f"--ServerApp.root_dir={tmp_path}", f"--IdentityProvider.token={token}",
         "--ServerApp.allow_root=True", "--LabApp.expose_app_in_browser=True",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         "--LabApp.news_url=None"],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if proc.poll() is not None:
                    raise AssertionError("jupyter lab exited: "
                                         + (tmp_path / "lab.log").read_text())
                time.sleep(0.5)
        else:
            raise AssertionError("jupyter lab did not answer within 60 s")
        yield {"url": f"{base}/lab/tree/judge.ipynb?token={token}", "out": tmp_path / "out"}
    finally:
        os.killpg(proc.pid, 15)  # the server shuts its kernels down on SIGTERM
        proc.wait(timeout=30)
        log.close()


@pytest.fixture
def browser(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1400,1000",
                 f"--user-data-dir={tmp_path / 'chromium'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(tmp_path / "chromium", ignore_errors=True)


def _wait(what, check, timeout=180):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_student_clicks_through_both_rounds_in_jupyterlab_and_no_pair_text_is_math(lab,
                                                                                      browser):
    from selenium.webdriver.common.by import By

    browser.get(lab["url"])
    notebook = ("const app = window.jupyterapp; const panel = app && Array.from("
                "app.shell.widgets('main')).find(w => w.sessionContext);")
    _wait("the notebook and its kernel", lambda: browser.execute_script(
        notebook + "const s = panel && panel.sessionContext.session;"
        "return !!(s && s.kernel && s.kernel.status === 'idle');"))
    assert browser.execute_script(
        notebook + "app.shell.activateById(panel.id);"
        "return app.commands.execute('notebook:run-all-cells').then(() => 'ran');") == "ran"

    def buttons():
        found = {b.text: b for b in
                 browser.find_elements(By.CSS_SELECTOR, ".jupyter-widgets button")
                 if b.text in jy.ANSWERS}
        return found if len(found) == 3 and all(b.is_enabled() for b in found.values()) else None

    try:
        _wait("the A / B / Tie buttons", buttons)
    except AssertionError as e:  # say what the notebook showed instead of the buttons
        raise AssertionError(f"{e}; the notebook's errors: " + str(browser.execute_script(
            notebook + "const errs = []; for (const cell of panel.content.model.cells) {"
            " if (cell.type !== 'code') continue; for (let i = 0; i < cell.outputs.length; i++)"
            " { const o = cell.outputs.get(i).toJSON(); if (o.output_type === 'error')"
            " errs.push(o.ename + ': ' + o.evalue); } } return errs;"))) from None
    items = 2 * len(jy.TIERS)  # one pair per tier, two rounds
    saved_dir = lab["out"] / "judge_yourself" / "labels"
    for n in range(items):
        _wait("the buttons", buttons)[jy.ANSWERS[n % 3]].click()
        _wait("the click to reach the workbook", lambda: sum(
            len(jy.read_answers(lab["out"] / "judge_yourself", lv, "browser"))
            for lv in jy.LEVELS) == n + 1)
    assert sorted(p.name for p in saved_dir.rglob("*.csv")) == ["browser.csv", "browser.csv"]
    results = _wait("the student's results under the buttons", lambda: [
        e for e in browser.find_elements(By.CSS_SELECTOR, ".widget-output")
        if "Tie is costly" in e.text and e.find_elements(By.TAG_NAME, "img")])
    assert "browser: under L0" in results[0].text  # the readings name the student's verdicts
    verdicts = jy.read_verdicts(lab["out"] / "judge_yourself", "browser")
    assert len(verdicts) == items and set(verdicts["level"]) == set(jy.LEVELS)
    typeset = browser.execute_script(
        "return Array.from(document.querySelectorAll('mjx-container')).map("
        "e => e.closest('.jp-Cell').textContent.includes('MATH CONTROL'));")
    assert typeset and all(typeset), "pair text was typeset as math (or nothing was typeset)"
