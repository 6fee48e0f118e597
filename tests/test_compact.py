"""Compacting a store: the records the verdict rows name stay byte for byte and in order, the
rest move aside unchanged, and a writer that waited on the old log appends to the new one."""
from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tjb_lib.files import write_atomically
from tjb_lib.records import Response
from tjb_lib.run.compact import compact, named_keys
from tjb_lib.store import INDEX_NAME, LOG_NAME, SUPERSEDED_DIR, ResponseStore
from tests.test_store import IDENTITY, _filled, _key, _ok, _req

REPO = Path(__file__).resolve().parent.parent


def _rows(folder: Path, name: str, keys: list[list[str]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("".join(json.dumps({"pair_id": f"p{i}", "request_hashes": k}) + "\n"
                                       for i, k in enumerate(keys)), encoding="utf-8")


def test_keep_only_keeps_named_lines_unchanged_and_moves_the_rest_aside(tmp_path):
    _filled(tmp_path, 6)
    store = ResponseStore(tmp_path)
    store.put(_key(9), IDENTITY, _req(9), Response(status="error", error="timeout"))
    lines = (tmp_path / LOG_NAME).read_bytes().splitlines(keepends=True)
    kept, moved, aside = store.keep_only({_key(1), _key(4), _key(9)})
    assert (kept, moved) == (3, 4)
    assert (tmp_path / LOG_NAME).read_bytes() == lines[1] + lines[4] + lines[6]
    assert aside.parent.name == SUPERSEDED_DIR
    assert aside.read_bytes() == lines[0] + lines[2] + lines[3] + lines[5]
    assert store.get(_key(4)).response.text == _ok(4).text and store.get(_key(2)) is None
    again = ResponseStore(tmp_path)  # the index on disk is the new log's
    assert json.loads((tmp_path / INDEX_NAME).read_text())["log_bytes"] == \
        (tmp_path / LOG_NAME).stat().st_size
    assert again.get(_key(1)).response.text == _ok(1).text and again.get(_key(0)) is None
    assert again.failure(_key(9)) is None  # a failure from before is no failure of this run


def test_a_store_opened_before_the_compaction_reads_and_appends_to_the_new_log(tmp_path):
    _filled(tmp_path, 5)
    other = ResponseStore(tmp_path)  # another process's handle, its index of the old log
    ResponseStore(tmp_path).keep_only({_key(3)})
    other.put(_key(7), IDENTITY, _req(7), _ok(7))
    assert other.get(_key(7)).response.text == _ok(7).text  # its own append, found again
    assert other.get(_key(3)).response.text == _ok(3).text
    assert [json.loads(x)["key"] for x in (tmp_path / LOG_NAME).read_text().splitlines()] == \
        [_key(3), _key(7)]
    assert ResponseStore(tmp_path).get(_key(7)).response.text == _ok(7).text


def test_a_writer_waiting_on_the_old_log_appends_to_the_new_one(tmp_path):
    _filled(tmp_path, 3)
    writer = ResponseStore(tmp_path)
    log = tmp_path / LOG_NAME
    first = log.read_bytes().splitlines(keepends=True)[0]
    with open(log, "rb") as held:  # what keep_only holds while it replaces the file
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        t = threading.Thread(target=writer.put, args=(_key(5), IDENTITY, _req(5), _ok(5)))
        t.start()
        time.sleep(0.3)  # the writer has opened the old file and waits on its lock
        write_atomically(log, first)
    t.join(timeout=30)
    keys = [json.loads(x)["key"] for x in log.read_text().splitlines()]
    assert keys == [_key(0), _key(5)]  # not written into the replaced file, lost
    assert ResponseStore(tmp_path).get(_key(5)) is not None


def test_compact_keeps_what_the_rows_name_and_refuses_a_bad_row_file(tmp_path):
    folder = tmp_path / "judge"
    _filled(folder, 4)
    _rows(folder, "mechanical_hotpotqa.L0.jsonl", [[_key(0)], [_key(2), _key(3)]])
    before = (folder / LOG_NAME).read_bytes()
    (folder / "soft_hotpotqa.L1.jsonl").write_text('{"request_hashes": []}\nnot json\n')
    with pytest.raises(ValueError, match=r"soft_hotpotqa\.L1\.jsonl: line 2 "):
        compact("judge", tmp_path)
    assert (folder / LOG_NAME).read_bytes() == before and not (folder / SUPERSEDED_DIR).exists()
    (folder / "soft_hotpotqa.L1.jsonl").unlink()
    r = compact("judge", tmp_path)
    assert (r["named"], r["kept"], r["moved"]) == (3, 3, 1)
    assert compact("judge", tmp_path)["moved"] == 0  # a second compaction moves nothing


def test_the_shipped_store_keeps_every_call_its_rows_name(tmp_path):
    """On the real shipped store: every named call is still served, byte for byte, and every
    record moved aside is one no row names."""
    src = REPO / "outputs" / "raw_outputs" / "smollm2"
    folder = tmp_path / "smollm2"
    shutil.copytree(src, folder, ignore=shutil.ignore_patterns("leases", SUPERSEDED_DIR))
    named = named_keys(folder)
    stored = {json.loads(x)["key"]: x for x in (folder / LOG_NAME).read_text().splitlines()}
    assert named <= set(stored)  # the rows name only calls the store holds
    out = subprocess.run([sys.executable, "-m", "tjb_lib", "compact", "--judge", "smollm2"],
                         env={"TJB_ROOT": str(tmp_path / "root"), "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 2 and "no store for judge 'smollm2'" in out.stderr
    r = compact("smollm2", tmp_path)
    after = [json.loads(x) for x in (folder / LOG_NAME).read_text().splitlines()]
    assert {rec["key"] for rec in after} == named and r["kept"] == len(after)
    moved = [] if r["superseded"] is None else [  # the shipped store may be compact already
        json.loads(x)["key"] for x in Path(r["superseded"]).read_text().splitlines()]
    assert not set(moved) & named and len(moved) == r["moved"]
    store = ResponseStore(folder, read_only=True)
    assert all(store.get(k) is not None for k in named)
