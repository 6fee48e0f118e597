"""Our judges side by side (``reproduce --compare``): the embedded judge's shipped results and a
judge served by a real OpenAI-compatible server on 127.0.0.1, each beside the paper's judges, in
tables, figures (PNG and SVG) and COMPARISON.md, which JupyterLab shows with its figures."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from _jupyter import chromium, jupyter_lab, needs_browser, wait
from fault_server import SNAPSHOT_SUFFIX, FaultServer
from tjb_lib.run import side_by_side

REPO = Path(__file__).resolve().parent.parent
SHIPPED = REPO / "outputs" / "judges" / "smollm2"
needs_shipped = pytest.mark.skipif(not (SHIPPED / "tables").is_dir(),
                                   reason="needs the shipped results of smollm2")


def _root(tmp: Path) -> Path:
    """A TJB_ROOT with the repository's data and notebooks and the shipped smollm2 results."""
    (tmp / "data").mkdir(parents=True)
    for item in (REPO / "data").iterdir():
        (tmp / "data" / item.name).symlink_to(item)
    (tmp / "notebooks").symlink_to(REPO / "notebooks")
    (tmp / "outputs" / "judges").mkdir(parents=True)
    (tmp / "outputs" / "judges" / "smollm2").symlink_to(SHIPPED)
    return tmp


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(TJB_ROOT=str(root), PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "tjb_lib", "reproduce", *args], env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    """A served judge's 05_frontier run beside the shipped smollm2, compared: the TJB_ROOT."""
    root = _root(tmp_path_factory.mktemp("compare") / "root")
    with FaultServer() as server:
        done = _cli(root, "--judge", "served", "--base-url", server.openai_url, "--model", "M",
                    "--only", "05_frontier")
    assert done.returncode == 0, done.stderr[-3000:]
    shipped_before = {p: p.read_bytes() for p in SHIPPED.rglob("*") if p.is_file()}
    done = _cli(root, "--compare")
    assert done.returncode == 0, done.stderr[-3000:]
    assert {p: p.read_bytes() for p in SHIPPED.rglob("*") if p.is_file()} == shipped_before
    return root


@pytest.mark.slow  # a notebook judging over HTTP, then the comparison
@needs_shipped
def test_the_embedded_and_a_served_judge_side_by_side_beside_the_papers(compared):
    root = compared
    out = root / "outputs" / "comparison"
    assert {p.name for p in (out / "figures").iterdir()} >= {
        "figure_2.png", "figure_2.svg", "figure_3.png", "figure_3.svg"}
    fig3 = pd.read_csv(out / "tables" / "figure_3.csv")
    for judge in ("served", "smollm2"):  # each judge's value, interval, n beside the paper's
        assert {judge, f"{judge} low", f"{judge} high", f"{judge} n"} <= set(fig3.columns)
    assert {"paper: GPT-5.5", "paper: Gemma-3-12B-IT"} <= set(fig3.columns)
    assert list(fig3["level"].drop_duplicates()) == ["L0", "L1", "L2", "L3", "L4", "TRACE"]
    assert fig3["served"].notna().any() and fig3["smollm2"].notna().any()
    assert not fig3["served"].equals(fig3["smollm2"])  # two judges, two sets of numbers
    text = (out / "COMPARISON.md").read_text()
    assert f"`M{SNAPSHOT_SUFFIX}`" in text and "embedded 135M-parameter model" in text
    assert "smollm2 answers the first slot on the position-only controls" in text
    for title in side_by_side.FLOATS.values():
        assert f"## {title}" in text
    assert "## The headline claims" in text
    claims = pd.read_csv(out / "tables" / "headline_claims.csv")
    assert {"served", "smollm2"} <= set(claims.columns) and claims["claim_id"].is_unique

    only = _cli(root, "--compare", "smollm2")  # a named subset
    assert only.returncode == 0, only.stderr
    assert "served" not in pd.read_csv(out / "tables" / "figure_3.csv").columns
    bad = _cli(root, "--compare", "nosuch")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "no results" in bad.stderr and "nosuch" in bad.stderr and "Traceback" not in bad.stderr
    assert _cli(root, "--compare").returncode == 0  # every judge again, for the next test


@pytest.mark.slow
@needs_shipped
@needs_browser
def test_jupyterlab_shows_the_comparison_with_its_figures_and_tables(compared, tmp_path):
    with jupyter_lab(compared, tmp_path) as url, chromium(tmp_path) as browser:
        browser.get(url(""))
        wait("JupyterLab", lambda: browser.execute_script(
            "return !!(window.jupyterapp && window.jupyterapp.commands.hasCommand("
            "'markdownviewer:open'));"))
        browser.execute_script("window.jupyterapp.commands.execute('markdownviewer:open', "
                               "{path: 'outputs/comparison/COMPARISON.md'});")
        shown = wait("the comparison with its figures", lambda: (lambda v: v if v and len(
            v["images"]) == 2 and all(w > 0 for _, w in v["images"]) else None)(
            browser.execute_script(
                "const r = document.querySelector('.jp-MarkdownViewer .jp-RenderedMarkdown');"
                "return r && {text: r.innerText, tables: r.querySelectorAll('table').length,"
                " images: Array.from(r.querySelectorAll('img')).map("
                "i => [i.getAttribute('src'), i.naturalWidth])};")))
    assert shown["tables"] == len(side_by_side.FLOATS) + 1  # five floats and the claims
    for judge in ("served", "smollm2"):
        assert judge in shown["text"]
    assert "Figure 3: the moderate-tier frontier" in shown["text"]


def test_tables_that_do_not_hold_the_same_paper_rows_are_refused_by_name():
    a = pd.DataFrame({"paper_judge": ["GPT-5.5"], "level": ["L0"], "setting": ["L0"],
                      "our_split": ["m"], "metric": ["tie"], "paper": [0.0], "ours": [1.0],
                      "ours_low": [0.0], "ours_high": [2.0], "n": [10], "status": ["ok"],
                      "judge": ["a"]})
    both = side_by_side.float_side_by_side("figure_3", {"a": a, "b": a.assign(judge="b",
                                                                               ours=5.0)})
    assert list(both[["a", "b"]].iloc[0]) == [1.0, 5.0] and both["paper: GPT-5.5"].iloc[0] == 0
    with pytest.raises(side_by_side.ComparisonError, match="judges/b/tables/figure_3.csv"):
        side_by_side.float_side_by_side("figure_3", {"a": a, "b": a.assign(paper=9.0)})
    shown = side_by_side.shown(both, ["a", "b"])
    assert list(shown["a"]) == ["1.0 [0.0, 2.0] (n=10)"]
