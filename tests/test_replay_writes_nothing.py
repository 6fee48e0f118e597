"""A replay of the shipped store never writes: with the last stored call damaged (a flipped byte,
the newline kept), ``judge --replay-only`` leaves every file as it was, says the line is damaged
and names the call it lacks; a run that may call keeps the damaged bytes aside, not deleted."""
from __future__ import annotations

import shutil
import warnings

import pytest

from tjb_lib import cli, paths
from tjb_lib.store import DAMAGED_DIR, LOG_NAME

from _bad_inputs import damage_last_call

SHIPPED = paths.RAW_OUTPUTS / "smollm2"


def _files(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.fixture
def damaged_copy(tmp_path, monkeypatch):
    """A copy of the splits and the shipped store whose last record lost one byte's meaning;
    returns (root, split, protocol) of a run whose rows need that record."""
    shutil.copytree(paths.SPLITS, tmp_path / "data" / "splits")
    store = tmp_path / "outputs" / "raw_outputs" / "smollm2"
    shutil.copytree(SHIPPED, store)
    split, protocol = damage_last_call(store)
    monkeypatch.setattr(paths, "SPLITS", tmp_path / "data" / "splits")
    monkeypatch.setattr(paths, "RAW_OUTPUTS", tmp_path / "outputs" / "raw_outputs")
    return tmp_path, split, protocol


def test_a_replay_with_a_damaged_last_record_writes_nothing_and_says_so(damaged_copy, capsys):
    root, split, protocol = damaged_copy
    before = _files(root)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        code = cli.main(["judge", "--split", split, "--protocol", protocol, "--judge", "smollm2",
                         "--replay-only"])
    assert _files(root) == before  # the store, its index, the rows and the metadata alike
    assert any("last line is damaged" in str(w.message) for w in seen)
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err[-1].startswith("error: replay-only") and "no stored" in err[-1]


def test_a_run_that_may_call_keeps_the_damaged_bytes_aside(damaged_copy):
    from tjb_lib.store import ResponseStore

    root, _, _ = damaged_copy
    log = root / "outputs" / "raw_outputs" / "smollm2" / LOG_NAME
    damaged_line = log.read_bytes().splitlines(keepends=True)[-1]
    with pytest.warns(RuntimeWarning, match="kept aside"):
        ResponseStore(log.parent)
    assert not log.read_bytes().endswith(damaged_line)
    assert [p.read_bytes() for p in (log.parent / DAMAGED_DIR).iterdir()] == [damaged_line]
