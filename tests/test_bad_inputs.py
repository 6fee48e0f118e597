"""Bad input to the judge command: one line naming the file and item, a non-zero exit, no
model call paid for first, and every output left as it was (cases in ``_bad_inputs``)."""
from __future__ import annotations

import shutil

import pytest

from tjb_lib import cli, paths

from _bad_inputs import CASES, make_root, judge_argv, state
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
