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
