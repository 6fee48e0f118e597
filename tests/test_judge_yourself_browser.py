"""Notebook 11 in a real browser: JupyterLab on 127.0.0.1, headless Chromium driven by selenium,
Run All, then the A / B / Tie buttons clicked on screen until both rounds are done. Checks that
the widgets render, that nothing of the student's own pairs (their pair ids, the key, a
result) is on the page before the last click, that every click reaches the student's workbook on
disk, that the results appear under the buttons, that candidates wrap between words only, and
that no pair text (the buttons' items with FinQA "$" amounts, and the explorer's rendering of
such a pair) is typeset as math. Then a second student types another code: other pairs, nothing
of the first student's verdicts or key on the page, no key the file browser can open before the
rounds are done, and `git status` clean under the project's .gitignore."""
from __future__ import annotations


import shutil
import subprocess

import pandas as pd
import pytest

from tjb_lib.teaching import judge_yourself as jy
from tjb_lib import paths

from _jupyter import (NOTEBOOK_JS, chromium, git_repo, jupyter_lab, needs_browser,
                      open_notebook, wait)

SHIPPED = paths.RAW_OUTPUTS / "smollm2"
EXPLORER_EXAMPLE = """\
from IPython.display import Markdown
from tjb_lib.teaching import explore
from tjb_lib.pairs import load_split

p = next(p for p in load_split("moderate_finqa") if p.task.count("$") >= 2)
Markdown(explore.render_example({"meaning": "costly", "split": p.split, "pair_id": p.pair_id,
                                 "why": "", "note": p.meta["omitted_text"], "gold": p.gold,
                                 "task": p.task, "plain": p.plain, "cited": p.cited,
                                 "verdicts": []}))"""

pytestmark = [
    pytest.mark.slow, needs_browser,
    pytest.mark.skipif(not SHIPPED.is_dir(), reason="needs the shipped raw outputs of smollm2"),
]


def _seed_with_a_dollar_amount() -> int:
    """A seed whose one-pair-per-tier draw shows a FinQA candidate with "$" amounts, the text
    that notebooks used to typeset as LaTeX."""
    for seed in range(200):
        if any("$" in p.task + p.plain + p.cited for p in jy.draw_pairs(1, seed)):
            return seed
    raise AssertionError("no draw of one pair per tier shows a '$' amount in 200 seeds")


@pytest.fixture
def lab(tmp_path):
    """JupyterLab serving a git repository under tmp_path that holds the project's .gitignore
    and a copy of notebook 11 (parameters set for this test) in notebooks/; its outputs go to the
    repository's outputs/, as in the project."""
    import jupytext
    import nbformat

    repo = tmp_path / "repo"
    (repo / "notebooks").mkdir(parents=True)
    shutil.copyfile(paths.ROOT / ".gitignore", repo / ".gitignore")
    git = git_repo(repo)
    subprocess.run([*git, "add", ".gitignore"], check=True)
    subprocess.run([*git, "commit", "-qm", "start"], check=True)
    nb = jupytext.read(paths.NOTEBOOKS / "11_judge_yourself.py")
    params = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    params.source += "".join(f"\n{k} = {v!r}" for k, v in {
        "replay_only": True, "outputs_dir": str(repo / "outputs"), "annotator": "browser",
        "n_per_tier": 1, "seed": _seed_with_a_dollar_amount()}.items())
    # a control, the one cell whose math must be typeset (so the check below can see
    # typesetting), and the explorer's rendering of a FinQA pair with "$" amounts
    nb.cells[1:1] = [nbformat.v4.new_markdown_cell("MATH CONTROL: $x^2$"),
                     nbformat.v4.new_code_cell(EXPLORER_EXAMPLE)]
    jupytext.write(nb, repo / "notebooks" / "judge.ipynb")
    with jupyter_lab(repo, tmp_path) as url:
        yield {"url": url("notebooks/judge.ipynb"), "out": repo / "outputs", "git": git}


def test_a_student_clicks_through_both_rounds_in_jupyterlab_and_no_pair_text_is_math(lab,
                                                                                      tmp_path):
    from selenium.webdriver.common.by import By

    with chromium(tmp_path) as browser:
        open_notebook(browser, lab["url"])
        assert browser.execute_script(
            NOTEBOOK_JS + "app.shell.activateById(panel.id);"
            "return app.commands.execute('notebook:run-all-cells').then(() => 'ran');") == "ran"

        def buttons():
            found = {b.text: b for b in
                     browser.find_elements(By.CSS_SELECTOR, ".jupyter-widgets button")
                     if b.text in jy.ANSWERS}
            return found if len(found) == 3 and all(b.is_enabled() for b in found.values()) \
                else None

        try:
            wait("the A / B / Tie buttons", buttons)
        except AssertionError as e:  # say what the notebook showed instead of the buttons
            raise AssertionError(f"{e}; the notebook's errors: " + str(browser.execute_script(
                NOTEBOOK_JS + "const errs = []; for (const cell of panel.content.model.cells) {"
                " if (cell.type !== 'code') continue;"
                " for (let i = 0; i < cell.outputs.length; i++) {"
                " const o = cell.outputs.get(i).toJSON(); if (o.output_type === 'error')"
                " errs.push(o.ename + ': ' + o.evalue); } } return errs;"))) from None
        klass = lab["out"] / "judge_yourself"
        rounds = klass / "browser"
        mine = _pairs_of(klass, "browser")
        wait("the example's results", lambda: "EXAMPLE: under L0" in _page(browser))

        def nothing_of_mine_shown():
            page = _page(browser)
            assert not [p for p in mine if p in page], "the student's pairs are on the page"
            assert "browser: under L0" not in page

        nothing_of_mine_shown()  # after Run All: the example, on other pairs
        assert _opened(browser, "outputs/judge_yourself/browser/judge_yourself_L0.csv")  # control
        assert "judge_yourself_L0.key.csv" not in _listing(browser,
                                                           "outputs/judge_yourself/browser")
        for level in jy.LEVELS:  # the keys: neither listed nor opened by the file browser
            assert not _opened(browser, f"outputs/judge_yourself/.keys/browser/"
                                        f"{jy.stem(level)}.key.csv")
        assert ".keys" not in _listing(browser, "outputs/judge_yourself")
        styles = browser.execute_script(
            "return Array.from(document.querySelectorAll('.widget-html pre')).map("
            "p => getComputedStyle(p).wordBreak);")
        assert styles and set(styles) == {"normal"}, styles  # no "Liber al", no "[doc3:s 0]"
        items = 2 * len(jy.TIERS)  # one pair per tier, two rounds
        for n in range(items):
            if n == items - 1:
                nothing_of_mine_shown()  # up to the last click
            wait("the buttons", buttons)[jy.ANSWERS[n % 3]].click()
            wait("the click to reach the workbook", lambda: sum(
                len(jy.read_answers(rounds, lv, "browser")) for lv in jy.LEVELS) == n + 1)
        saved_dir = rounds / "labels"
        assert sorted(p.name for p in saved_dir.rglob("*.csv")) == ["browser.csv", "browser.csv"]
        results = wait("the student's results under the buttons", lambda: [
            e for e in browser.find_elements(By.CSS_SELECTOR, ".widget-output")
            if "Tie is costly" in e.text and e.find_elements(By.TAG_NAME, "img")])
        assert "browser: under L0" in results[0].text  # the readings name the student's verdicts
        assert mine & set(results[0].text.split())  # and now the key, item by item
        verdicts = jy.read_verdicts(rounds, "browser", keys=klass / jy.KEYS / "browser")
        assert len(verdicts) == items and set(verdicts["level"]) == set(jy.LEVELS)
        typeset = browser.execute_script(
            "return Array.from(document.querySelectorAll('mjx-container')).map("
            "e => e.closest('.jp-Cell').textContent.includes('MATH CONTROL'));")
        assert typeset and all(typeset), "pair text was typeset as math (or nothing was typeset)"

        # the second student: another code, other pairs, nothing of the first on the page
        code = browser.find_element(By.CSS_SELECTOR, ".jupyter-widgets input[type='text']")
        code.clear()
        code.send_keys("browser-2")
        # the kernel holds the typed code once its note says so (a click may overtake the keys)
        wait("the kernel to hold the new code",
             lambda: "Start begins afresh as browser-2" in _page(browser))
        next(b for b in browser.find_elements(By.CSS_SELECTOR, ".jupyter-widgets button")
             if b.text == "Start with this code").click()
        wait("the second student's rounds", lambda: "0 of 6 answers saved" in _page(browser))
        theirs = _pairs_of(klass, "browser-2")
        assert theirs != mine  # the code drew other pairs

        def nothing_of_another_code_shown(code, pairs):
            page = _page(browser)
            assert not [p for p in pairs if p in page], f"pairs of {code} are on the page"
            assert f"{code}: under L0" not in page, f"the verdicts of {code} are on the page"

        for n in range(items):
            nothing_of_another_code_shown("browser", mine - theirs)
            nothing_of_another_code_shown("browser-2", theirs)  # their own key, before the end
            wait("the buttons", buttons)[jy.ANSWERS[(n + 1) % 3]].click()
            wait("the click to reach the workbook", lambda: sum(
                len(jy.read_answers(klass / "browser-2", lv, "browser-2"))
                for lv in jy.LEVELS) == n + 1)
        wait("the second student's results", lambda: "browser-2: under L0" in _page(browser))
        nothing_of_another_code_shown("browser", mine - theirs)
    status = subprocess.run([*lab["git"], "status", "--porcelain", "--untracked-files=all"],
                            capture_output=True, text=True, check=True).stdout
    assert status == "", status  # the students' workbooks and keys are ignored by git


def _pairs_of(klass, code) -> set[str]:
    """The pairs a code judges, from its hidden keys."""
    return {p for lv in jy.LEVELS for p in pd.read_csv(
        klass / jy.KEYS / code / f"{jy.stem(lv)}.key.csv")["pair_id"]}


def _opened(browser, path: str) -> bool:
    """Whether JupyterLab's server hands ``path`` to the file browser."""
    return browser.execute_async_script(
        NOTEBOOK_JS + "const done = arguments[arguments.length - 1];"
        f"app.serviceManager.contents.get({path!r}).then(() => done(true), () => done(false));")


def _listing(browser, folder: str) -> list[str]:
    """The names JupyterLab's file browser lists in ``folder``."""
    return browser.execute_async_script(
        NOTEBOOK_JS + "const done = arguments[arguments.length - 1];"
        f"app.serviceManager.contents.get({folder!r}).then("
        "m => done(m.content.map(c => c.name)), e => done(['error: ' + e]));")


def _page(browser) -> str:
    """The notebook's text as shown, but for the two cells this test adds (the math control and
    the explorer's rendering of a FinQA pair, which names its own pair)."""
    return browser.execute_script(
        NOTEBOOK_JS + "return Array.from(panel.content.widgets).filter((c, i) => i < 1 || i > 2)"
        ".map(c => c.node.innerText).join('\\n');")
