"""Bad input to the judge command: one line naming the file and item, a non-zero exit, no
model call paid for first, and every output left as it was; a failing command of any other kind:
one line naming what to fix, never a traceback (cases in ``_bad_inputs``)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tjb_lib import cli, paths

from _bad_inputs import COMMANDS, REPO, CASES, command_root, make_root, judge_argv, state
from fault_server import FaultServer


def _point_at(root, monkeypatch) -> None:
    monkeypatch.setattr(paths, "SPLITS", root / "data" / "splits")
    monkeypatch.setattr(paths, "RAW_OUTPUTS", root / "outputs" / "raw_outputs")


@pytest.fixture(scope="module")
def server():
    with FaultServer() as s:
        yield s


@pytest.fixture(scope="module")
def finished_run(server, tmp_path_factory):
    """A root holding a finished run: split, store, rows and metadata."""
    root = make_root(tmp_path_factory.mktemp("finished"))
    with pytest.MonkeyPatch.context() as mp:
        _point_at(root, mp)
        assert cli.main(judge_argv(server.url)) == 0
    return root


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_bad_input_is_one_line_naming_it_with_a_nonzero_exit_and_outputs_unchanged(
        case, server, finished_run, tmp_path, monkeypatch, capsys):
    root = tmp_path / "root"
    shutil.copytree(finished_run, root, symlinks=True)
    case.damage(root)
    before = state(root)
    _point_at(root, monkeypatch)
    for name, value in case.env.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    capsys.readouterr()
    sent = server.count()
    code = cli.main(judge_argv(server.url, **case.options))
    lines = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert code != 0 and len(lines) == 1, lines
    assert lines[0].startswith("error: ") and all(e in lines[0] for e in case.expect), lines[0]
    assert server.count() - sent == case.paid
    assert state(root) == before


@pytest.mark.parametrize("case", COMMANDS, ids=[c.name for c in COMMANDS])
def test_a_failing_command_of_any_kind_is_one_line_naming_it_and_no_traceback(case, tmp_path):
    root = command_root(tmp_path / "root")
    case.damage(root)
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    done = subprocess.run([sys.executable, "-m", "tjb_lib", *case.argv], capture_output=True,
                          text=True, timeout=300, cwd=root,
                          env={**env, "TJB_ROOT": str(root), "PYTHONPATH": str(REPO)})
    lines = [x for x in done.stderr.splitlines() if x.strip()]
    assert done.returncode != 0 and len(lines) == 1, done.stderr[-3000:]
    assert lines[0].startswith("error: ") and all(e in lines[0] for e in case.expect), lines[0]
