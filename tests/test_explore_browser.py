"""Notebook 08 in a real browser (JupyterLab on 127.0.0.1, headless Chromium): after Run All it
says what the judge's position-only controls show, the explorer shows its view before any
control is touched, the "paper" checkbox's label is whole, and a tier change with a quick
threshold drag redraws the table and the figure in place, inside the notebook, and another judge
selected under "overlay" is drawn over it."""
from __future__ import annotations

import pytest

from tjb_lib import paths

from _jupyter import NOTEBOOK_JS, chromium, jupyter_lab, needs_browser, open_notebook, wait

pytestmark = [pytest.mark.slow, needs_browser,
              pytest.mark.skipif(not (paths.RAW_OUTPUTS / "smollm2").is_dir(),
                                 reason="needs the shipped raw outputs of smollm2")]
#: the explorer's cell: its outputs as text and the sources of its images
EXPLORER = NOTEBOOK_JS + """
const cells = Array.from(panel.content.widgets).filter(
    c => c.model.type === 'code' && c.model.sharedModel.getSource().includes('Explorer('));
const node = cells.length ? cells[0].outputArea.node : null;
"""


def _explorer(browser) -> dict | None:
    return browser.execute_script(EXPLORER + """
if (!node) return null;
return {text: node.innerText, images: Array.from(node.querySelectorAll('img')).map(i => i.src),
        label: Array.from(node.querySelectorAll('.widget-checkbox label, .widget-checkbox span'))
                    .map(e => [e.textContent, e.scrollWidth, e.clientWidth])};""")


@pytest.fixture
def lab(tmp_path):
    import jupytext

    nb = jupytext.read(paths.NOTEBOOKS / "08_explore.py")
    params = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    params.source += f"\nreplay_only = True\noutputs_dir = {str(tmp_path / 'out')!r}"
    jupytext.write(nb, tmp_path / "explore.ipynb")
    with jupyter_lab(tmp_path, tmp_path) as url:
        yield url("explore.ipynb")


def test_the_explorer_shows_its_view_at_once_and_redraws_it_in_place(lab, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    with chromium(tmp_path) as browser:
        open_notebook(browser, lab)
        assert browser.execute_script(
            NOTEBOOK_JS + "app.shell.activateById(panel.id); return app.commands.execute("
            "'notebook:run-all-cells').then(() => 'ran');") == "ran"
        first = wait("the explorer's view", lambda: (lambda v: v if v and v["images"] and
                                                     "meaning_of_tie" in v["text"] else None)(
            _explorer(browser)), timeout=300)
        page = browser.find_element(By.TAG_NAME, "body").text
        assert "Position-driven judge." in page and "answers the first slot" in page
        assert "Tie is correct" in first["text"] and "Tie is costly" in first["text"]  # untouched
        labels = [lb for lb in first["label"] if "paper" in lb[0]]
        assert labels and all(scroll <= client for _, scroll, client in labels), labels

        tier = next(Select(s) for s in browser.find_elements(
            By.CSS_SELECTOR, ".widget-dropdown select")
            if "moderate" in [o.text for o in Select(s).options])
        tier.select_by_visible_text("moderate")
        slider = browser.find_element(By.CSS_SELECTOR, ".widget-slider .noUi-handle")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", slider)
        slider.click()
        slider.send_keys(Keys.END)  # a quick drag to the end: every verdict becomes a Tie
        after = wait("the redrawn view", lambda: (lambda v: v if v and v["images"] != first[
            "images"] else None)(_explorer(browser)))
        assert len(after["images"]) == 1  # the figure, replaced inside the notebook, not added
        assert "1.00" in after["text"] and "Tie is costly" in after["text"]
        assert "Tie is correct" not in after["text"]  # the moderate tier alone
        assert "pool the same splits at every level" in after["text"]
        overlay = browser.find_element(By.CSS_SELECTOR, ".widget-select-multiple select")
        other = next(o for o in Select(overlay).options if o.text != "smollm2")
        Select(overlay).select_by_visible_text(other.text)
        overlaid = wait("the overlaid view", lambda: (lambda v: v if v and v["images"] != after[
            "images"] else None)(_explorer(browser)))
        assert len(overlaid["images"]) == 1
