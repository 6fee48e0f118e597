"""The whole-file replace: all or nothing, and the file keeps an ordinary mode."""
from __future__ import annotations

import os
import stat

import pytest

from tjb_lib.files import write_atomically


def test_a_new_file_is_readable_by_others_and_a_replaced_one_keeps_its_mode(tmp_path):
    new = tmp_path / "rows.jsonl"
    write_atomically(new, b"one\n")
    assert new.read_bytes() == b"one\n"
    assert stat.S_IMODE(new.stat().st_mode) == 0o644

    os.chmod(new, 0o664)
    write_atomically(new, b"two\n")
    assert new.read_bytes() == b"two\n"
    assert stat.S_IMODE(new.stat().st_mode) == 0o664
    assert [p.name for p in tmp_path.iterdir()] == ["rows.jsonl"]  # no temp file left


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path):
    target = tmp_path / "rows.jsonl"
    target.write_bytes(b"kept\n")
    with pytest.raises(TypeError):
        write_atomically(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_bytes() == b"kept\n"
    assert [p.name for p in tmp_path.iterdir()] == ["rows.jsonl"]


def test_a_temp_file_a_killed_writer_left_is_removed_by_the_next_write(tmp_path):
    from tjb_lib.files import write_atomically

    target = tmp_path / "rows.jsonl"
    stale = tmp_path / ".rows.jsonl.abc123.tmp"  # what kill -9 mid-write leaves
    stale.write_bytes(b"half a rows file")
    write_atomically(target, b"whole\n")
    assert target.read_bytes() == b"whole\n" and not stale.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.jsonl"]


def test_another_writers_sweep_just_before_the_rename_leaves_the_temp_file_alone(tmp_path,
                                                                                 monkeypatch):
    """Two processes writing one rows file: the other one sweeps for temp files that killed
    writers left at the worst moment, after this write's data is in and before its rename. The
    temp file is still held then, so the sweep leaves it and the write lands (CI once saw
    'No such file or directory' on the temp file when the hold ended before the rename)."""
    from tjb_lib import files

    target = tmp_path / "rows.jsonl"
    swept = []
    real_replace = os.replace

    def sweep_then_replace(src, dst):
        swept.append(files.remove_if_free(type(target)(src)))  # what the other process does
        real_replace(src, dst)

    monkeypatch.setattr(files.os, "replace", sweep_then_replace)
    write_atomically(target, b"whole\n")
    assert swept == [False] and target.read_bytes() == b"whole\n"
