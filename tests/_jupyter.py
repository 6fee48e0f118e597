"""JupyterLab and headless Chromium for the browser tests, and the .ipynb `make setup` makes
from each notebook's .py."""
from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tjb_lib import paths

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
needs_browser = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)")
#: JavaScript naming the open notebook panel of JupyterLab as ``panel`` (and the app as ``app``)
NOTEBOOK_JS = ("const app = window.jupyterapp; const panel = app && Array.from("
               "app.shell.widgets('main')).find(w => w.sessionContext);")


def make_ipynb(py: Path) -> Path:
    """Make the .ipynb beside ``py`` with the recipe `make setup` uses; returns its path."""
    makefile = (paths.ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^notebooks/%\.ipynb: notebooks/%\.py.*\n\t\$\(BIN\)/(\S+) (.+) \$<$",
                       makefile, re.MULTILINE)
    assert recipe, "the Makefile no longer makes notebooks/*.ipynb from their .py"
    tool = Path(sys.executable).parent / recipe.group(1)
    subprocess.run([str(tool), *shlex.split(recipe.group(2)), str(py)], check=True)
    return py.with_suffix(".ipynb")


def git_repo(root: Path) -> list[str]:
    """``git init`` at ``root``; returns the git command prefix."""
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    return git


def wait(what: str, check, timeout: float = 180):
    """``check()``'s first true value, polled every half second; AssertionError after
    ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def jupyter_lab(root: Path, scratch: Path):
    """JupyterLab serving ``root`` on 127.0.0.1 (its settings and log under ``scratch``); yields
    the URL of a notebook path's page, ``url(path)``."""
    port, token = _free_port(), "tjb-browser-test"
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT),
           **{var: str(scratch / sub) for var, sub in (
               ("JUPYTER_CONFIG_DIR", "cfg"), ("JUPYTER_RUNTIME_DIR", "rt"),
               ("JUPYTERLAB_SETTINGS_DIR", "st"), ("JUPYTERLAB_WORKSPACES_DIR", "ws"))}}
    log_path = scratch / "lab.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}",
         "--ip=127.0.0.1", f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={token}",
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
                    raise AssertionError("jupyter lab exited: " + log_path.read_text())
                time.sleep(0.5)
        else:
            raise AssertionError("jupyter lab did not answer within 60 s")
        yield lambda path: f"{base}/lab/tree/{path}?token={token}"
    finally:
        os.killpg(proc.pid, 15)  # the server shuts its kernels down on SIGTERM
        proc.wait(timeout=30)
        log.close()


@contextlib.contextmanager
def chromium(scratch: Path):
    """A headless Chromium driven by selenium, its profile under ``scratch``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1400,1000",
                 f"--user-data-dir={scratch / 'chromium'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(scratch / "chromium", ignore_errors=True)


def open_notebook(browser, url: str) -> None:
    """Load ``url`` and wait until its notebook's kernel is idle."""
    browser.get(url)
    wait("the notebook and its kernel", lambda: browser.execute_script(
        NOTEBOOK_JS + "const s = panel && panel.sessionContext.session;"
        "return !!(s && s.kernel && s.kernel.status === 'idle');"))
