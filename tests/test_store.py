"""The response store: durable appends, crash repair that deletes nothing, a replay that writes
nothing, failures never served, leases that a killed process does not leave behind, no keys on
disk."""
from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from tjb_lib.records import Request, Response, request_key
from tjb_lib.store import (DAMAGED_DIR, INDEX_NAME, LEASES_DIR, LOG_NAME, ResponseStore,
                           SecretLeakError, StoreError)

REPO = Path(__file__).resolve().parent.parent
IDENTITY = {"backend": "test", "model": "m", "params": {"temperature": 0.0}}


def _req(i: int) -> Request:
    return Request(messages=(("user", f"question {i}"),), template="t", template_version="1")


def _key(i: int) -> str:
    return request_key(IDENTITY, _req(i))


def _filled(path, n: int) -> ResponseStore:
    """A store holding the ok calls 0..n-1, closed (its index written)."""
    store = ResponseStore(path)
    for i in range(n):
        store.put(_key(i), IDENTITY, _req(i), _ok(i))
    store.close()
    return store


def _ok(i: int) -> Response:
    return Response(status="ok", text=f'{{"winner": "A", "i": {i}}}', input_tokens=10 + i,
                    output_tokens=3, model_returned="m-2026")


def test_round_trip_returns_stored_response_marked_cached(tmp_path):
    store = ResponseStore(tmp_path)
    store.put(_key(1), IDENTITY, _req(1), _ok(1))
    hit = store.get(_key(1)).response
    assert hit is not None and hit.cached is True
    assert hit.text == _ok(1).text and hit.input_tokens == 11 and hit.model_returned == "m-2026"
    assert store.get(_key(2)) is None
    # a fresh open reads the same record back from disk
    store.close()
    again = ResponseStore(tmp_path).get(_key(1)).response
    assert again.text == _ok(1).text and again.cached is True
    rec = json.loads((tmp_path / LOG_NAME).read_text().splitlines()[0])
    assert set(rec) == {"key", "judge", "request", "response", "created_at"}
    assert rec["response"]["cached"] is False and rec["judge"] == IDENTITY


def test_a_reply_past_the_parsers_cap_is_stored_cut_to_it_with_its_true_length(tmp_path):
    from tjb_lib.parse import MAX_REPLY_CHARS, parse_verdict

    store = ResponseStore(tmp_path)
    huge = '{"winner": "A"}' + "x" * (3 * MAX_REPLY_CHARS)
    store.put(_key(1), IDENTITY, _req(1), Response(status="ok", text=huge))
    hit = ResponseStore(tmp_path).get(_key(1)).response
    assert hit.text == huge[:MAX_REPLY_CHARS] and hit.meta["text_chars"] == len(huge)
    assert parse_verdict(hit.text).label is None  # unparsed, as the whole reply is


def test_truncated_last_line_is_kept_aside_with_its_bytes_cut_off_and_reported(tmp_path):
    store = ResponseStore(tmp_path)
    for i in range(3):
        store.put(_key(i), IDENTITY, _req(i), _ok(i))
    store.close()
    log = tmp_path / LOG_NAME
    good = log.read_bytes()
    line = json.dumps({"key": _key(9), "response": {"status": "ok"}}).encode()
    log.write_bytes(good + line[: len(line) // 2])  # a crash mid-write
    with pytest.warns(RuntimeWarning, match="last line is damaged"):
        store = ResponseStore(tmp_path)
    assert store.damaged["offset"] == len(good)
    assert log.read_bytes() == good
    kept = list((tmp_path / DAMAGED_DIR).iterdir())
    assert [p.read_bytes() for p in kept] == [line[: len(line) // 2]]  # its bytes, unchanged
    assert store.damaged["kept"] == str(kept[0])
    assert [store.get(_key(i)).response.text for i in range(3)] == [_ok(i).text for i in range(3)]
    assert store.get(_key(9)) is None
    # the next append starts on a clean line
    store.put(_key(9), IDENTITY, _req(9), _ok(9))
    assert ResponseStore(tmp_path).get(_key(9)).response.text == _ok(9).text


def test_garbage_last_line_with_newline_is_also_repaired(tmp_path):
    store = ResponseStore(tmp_path)
    store.put(_key(1), IDENTITY, _req(1), _ok(1))
    with open(tmp_path / LOG_NAME, "ab") as f:
        f.write(b"{not json\n")
    with pytest.warns(RuntimeWarning):
        store = ResponseStore(tmp_path)
    assert len(list(store.records())) == 1 and store.get(_key(1)) is not None
    assert [p.read_bytes() for p in (tmp_path / DAMAGED_DIR).iterdir()] == [b"{not json\n"]


def test_a_read_only_store_writes_nothing_and_skips_a_damaged_last_line(tmp_path):
    """A replay (read-only) of a store whose last record lost a byte: every file stays as it
    was, the index included; the damage is reported; the other records are served."""
    _filled(tmp_path, 3)
    log = tmp_path / LOG_NAME
    lines = log.read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b'winner', b'win\xffer', 1)  # one byte flipped
    log.write_bytes(b"".join(lines))
    (tmp_path / INDEX_NAME).unlink()  # a stale or missing index is not rewritten either
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.warns(RuntimeWarning, match="last line is damaged.*a replay writes nothing"):
        store = ResponseStore(tmp_path, read_only=True)
    assert store.damaged["offset"] == sum(map(len, lines[:-1])) and store.damaged["kept"] is None
    assert [store.get(_key(i)) is not None for i in range(3)] == [True, True, False]
    assert len(list(store.records())) == 2
    with pytest.raises(StoreError, match="read-only"):
        store.put(_key(5), IDENTITY, _req(5), _ok(5))
    store.close()
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_read_only_store_of_a_judge_never_run_creates_nothing(tmp_path):
    store = ResponseStore(tmp_path / "never", read_only=True)
    assert store.get(_key(1)) is None and not list(store.records())
    store.close()
    assert not (tmp_path / "never").exists()


def test_failed_responses_are_logged_but_never_served(tmp_path):
    store = ResponseStore(tmp_path)
    store.put(_key(1), IDENTITY, _req(1), Response(status="failed", error="HTTP 529"))
    assert store.get(_key(1)) is None and _key(1) not in store
    assert ResponseStore(tmp_path).get(_key(1)) is None  # nor after reopening
    store.put(_key(1), IDENTITY, _req(1), _ok(1))        # the retry succeeds
    statuses = [r["response"]["status"] for r in store.records()]
    assert statuses == ["failed", "ok"]
    assert store.get(_key(1)).response.status == "ok"


def test_index_is_rebuilt_from_the_log_when_missing_or_stale(tmp_path):
    _filled(tmp_path, 5)
    index = tmp_path / INDEX_NAME
    saved = json.loads(index.read_text())
    assert saved["log_bytes"] == (tmp_path / LOG_NAME).stat().st_size
    index.unlink()
    rebuilt = ResponseStore(tmp_path)
    assert index.exists() and json.loads(index.read_text()) == saved
    assert all(rebuilt.get(_key(i)) is not None for i in range(5))
    # an index written before the last appends (a crash between log and index) catches up
    stale = {"log_bytes": saved["log_bytes"], "offsets": saved["offsets"]}
    rebuilt.put(_key(7), IDENTITY, _req(7), _ok(7))
    index.write_text(json.dumps(stale))
    assert ResponseStore(tmp_path).get(_key(7)) is not None
    # an index that is garbage is ignored and rebuilt
    index.write_text("{")
    assert ResponseStore(tmp_path).get(_key(3)) is not None


def test_concurrent_writers_in_one_process_keep_every_line_whole(tmp_path):
    store = ResponseStore(tmp_path)

    def write(lo: int) -> None:
        for i in range(lo, lo + 25):
            store.put(_key(i), IDENTITY, _req(i), _ok(i))

    threads = [threading.Thread(target=write, args=(k * 25,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.close()
    reopened = ResponseStore(tmp_path)
    assert reopened.damaged is None
    assert len(list(reopened.records())) == 100 and len(reopened) == 100
    assert all(reopened.get(_key(i)).response.text == _ok(i).text for i in range(100))


def test_two_store_handles_see_each_others_appends(tmp_path):
    a, b = ResponseStore(tmp_path), ResponseStore(tmp_path)
    a.put(_key(1), IDENTITY, _req(1), _ok(1))
    b.put(_key(2), IDENTITY, _req(2), _ok(2))
    assert b.get(_key(1)) is not None and a.get(_key(2)) is not None


def test_record_holding_an_api_key_value_is_refused(tmp_path, monkeypatch):
    fake = "sk-test-" + "x1y2z3" * 4
    monkeypatch.setenv("FAKEPROVIDER_API_KEY", fake)
    store = ResponseStore(tmp_path)
    leaky = {**IDENTITY, "headers": {"Authorization": f"Bearer {fake}"}}
    with pytest.raises(SecretLeakError, match="FAKEPROVIDER_API_KEY") as err:
        store.put(_key(1), leaky, _req(1), _ok(1))
    assert fake not in str(err.value)
    assert not (tmp_path / LOG_NAME).exists()  # refused before anything was written
    # a reply that echoes the key is kept, without the key: neither lost nor paid for again
    store.put(_key(1), IDENTITY, _req(1), Response(status="ok", text=f"echo {fake}",
                                                   meta={"body": f"Bearer {fake}"}))
    hit = store.get(_key(1)).response
    assert hit.text == "echo [redacted $FAKEPROVIDER_API_KEY]"
    assert hit.meta["redacted"] == ["FAKEPROVIDER_API_KEY"]
    assert fake not in (tmp_path / LOG_NAME).read_text()


@pytest.mark.parametrize("placeholder", ["x", "EMPTY", "none", "1234567"])
def test_a_placeholder_key_value_is_no_secret_to_refuse(tmp_path, monkeypatch, placeholder):
    """Local servers take any short value; refusing every record that contains "x" would make
    every call fail to store and be paid for again on each rerun."""
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", placeholder)
    store = ResponseStore(tmp_path)
    store.put(_key(1), IDENTITY, _req(1), _ok(1))
    assert store.get(_key(1)).response.text == _ok(1).text


def test_an_index_with_wrong_offsets_is_rebuilt_not_trusted(tmp_path):
    _filled(tmp_path, 3)
    index = tmp_path / INDEX_NAME
    saved = json.loads(index.read_text())
    saved["offsets"] = {k: 7 for k in saved["offsets"]}  # every key at a wrong place
    index.write_text(json.dumps(saved))
    reopened = ResponseStore(tmp_path)
    assert [reopened.get(_key(i)).response.text for i in range(3)] == [_ok(i).text for i in range(3)]


@pytest.mark.parametrize("bad, why", [(b"{not json\n", "not JSON"),
                                      (b'{"key": "k", "response": {}, "x": "\xff"}\n', "0xff"),
                                      (b"[1, 2]\n", "not an object")])
def test_a_bad_line_in_the_middle_is_an_error_naming_the_file_and_line(tmp_path, bad, why):
    from tjb_lib.store import StoreError

    store = ResponseStore(tmp_path)
    store.put(_key(1), IDENTITY, _req(1), _ok(1))
    log = tmp_path / LOG_NAME
    good = log.read_bytes()
    log.write_bytes(good + bad + good)
    (tmp_path / INDEX_NAME).unlink(missing_ok=True)  # a cache: the log is what counts
    with pytest.raises(StoreError, match=rf"{LOG_NAME} line 2: not a call record \(.*{why}"):
        ResponseStore(tmp_path)
    assert log.read_bytes() == good + bad + good  # nothing repaired, nothing lost


def test_opening_never_cuts_a_line_another_process_is_still_writing(tmp_path):
    import fcntl

    store = ResponseStore(tmp_path)
    store.put(_key(1), IDENTITY, _req(1), _ok(1))
    line = (json.dumps({"key": _key(2), "judge": IDENTITY, "request": _req(2).to_dict(),
                        "response": _ok(2).to_dict(), "created_at": "t"}) + "\n").encode()
    opened = []
    with open(tmp_path / LOG_NAME, "ab") as writer:
        fcntl.flock(writer.fileno(), fcntl.LOCK_EX)  # the writer holds the log, mid-line
        writer.write(line[:20])
        writer.flush()
        t = threading.Thread(target=lambda: opened.append(ResponseStore(tmp_path)))
        t.start()
        t.join(timeout=0.3)
        assert t.is_alive()  # the opener waits instead of taking the half line for torn
        writer.write(line[20:])
        writer.flush()
        fcntl.flock(writer.fileno(), fcntl.LOCK_UN)
    t.join(timeout=5)
    assert opened[0].damaged is None and opened[0].get(_key(2)) is not None


def test_a_lease_left_by_a_killed_process_is_removed_when_the_store_opens(tmp_path):
    """kill -9 while a call is made leaves its lease file (the flock dies, the file stays); the
    next open removes it, and never one another process holds."""
    import os
    import signal
    import subprocess
    import sys

    ResponseStore(tmp_path)
    held = "import sys, time; from tjb_lib.store import ResponseStore; " \
           "s = ResponseStore(sys.argv[1]); lease = s.lease(sys.argv[2]); lease.__enter__(); " \
           "print('held', flush=True); time.sleep(60)"
    procs = [subprocess.Popen([sys.executable, "-c", held, str(tmp_path), key],
                              stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
             for key in (_key(1), _key(2))]
    try:
        assert [p.stdout.readline().strip() for p in procs] == ["held", "held"]
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait(timeout=10)
        leases = tmp_path / LEASES_DIR
        assert sorted(p.stem for p in leases.iterdir()) == sorted([_key(1), _key(2)])
        ResponseStore(tmp_path)
        assert [p.stem for p in leases.iterdir()] == [_key(2)]  # the live one is kept
    finally:
        for p in procs:
            p.kill()
            p.wait(timeout=10)
    ResponseStore(tmp_path)  # both holders are gone now
    assert not list(leases.iterdir())


def test_a_failure_stored_while_a_lease_was_awaited_is_served_once_opened(tmp_path):
    """Only failures stored after the store opened count: a later run tries the key afresh."""
    a, b = ResponseStore(tmp_path), ResponseStore(tmp_path)
    a.put(_key(1), IDENTITY, _req(1), Response(status="failed", error="HTTP 500"))
    hit = b.failure(_key(1))
    assert hit is not None and hit.response.status == "failed" and hit.response.cached
    assert b.get(_key(1)) is None and b.failure(_key(2)) is None
    assert ResponseStore(tmp_path).failure(_key(1)) is None


def test_opening_a_store_writes_nothing_until_a_call_is_stored(tmp_path):
    """A command that fails before any call left an empty calls.jsonl (and index) behind."""
    store = ResponseStore(tmp_path / "judge")
    store.close()
    assert not (tmp_path / "judge").exists()
    store.put(_key(1), IDENTITY, _req(1), _ok(1))
    assert (tmp_path / "judge" / LOG_NAME).stat().st_size > 0


def test_no_call_is_let_through_that_the_disk_may_not_keep(tmp_path, monkeypatch):
    import tjb_lib.store as store_module

    store = ResponseStore(tmp_path)
    store.check_room()  # this disk has room
    monkeypatch.setattr(store_module, "MIN_FREE_BYTES", 1 << 62)
    with pytest.raises(OSError, match="No space left on device") as e:
        store.check_room()
    assert e.value.filename == str(tmp_path / LOG_NAME)
