"""Crash-safe store of judge calls: the append-only log that runs resume from and replay reads.

Every call (failures included, for audit) is one JSON line in
``outputs/raw_outputs/<judge>/calls.jsonl``, written, flushed and fsync'ed before the index
(``calls.index.json``: key -> byte offset of the line) learns of it, so a crash loses at most
the call in flight. The index is a cache of the log: it is rebuilt from the log whenever it is
missing, unreadable, behind or wrong. Only ``ok`` responses are served from the store (``get``,
the one cache-hit path); a failed call is called again on the next run.

Several processes may share a judge directory: appends and the setting aside of a torn last line
take an exclusive ``flock`` on the log, and a call being made is leased by its key (``lease``),
so a second process waits for that call instead of paying for it again, and takes a failure
stored meanwhile instead of spending the attempts again.

A store opened ``read_only`` (a replay) writes nothing at all: not the index, not a repair. A
damaged last line (a crash mid-write) is then skipped and reported; a writable store moves its
bytes aside to ``damaged/`` before cutting it off, so nothing stored is ever deleted.
"""
from __future__ import annotations

import dataclasses
import errno
import fcntl
import hashlib
import json
import os
import re
import threading
import warnings
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from tjb_lib.files import exclusive, remove_if_free, write_atomically
from tjb_lib.parse import MAX_REPLY_CHARS
from tjb_lib.records import Request, Response
from tjb_lib.redaction import found_secrets, redact, secret_values

LOG_NAME = "calls.jsonl"
INDEX_NAME = "calls.index.json"
LEASES_DIR = "leases"    # one lock file per call being made
DAMAGED_DIR = "damaged"  # the bytes of damaged last lines, kept aside
SUPERSEDED_DIR = "superseded"  # records no verdict row names any more, moved by ``keep_only``
#: the free space below which no call is made: a record holds the request, the reply (up to the
#: parser's 256 K characters), its raw body (100 K) and usage, well under this
MIN_FREE_BYTES = 2 << 20
INDEX_FLUSH_EVERY = 64  # index writes are a cache refresh; the log is already durable


class SecretLeakError(ValueError):
    """A record about to be written contains the value of an ``*_API_KEY`` variable."""


class StoreError(ValueError):
    """A store file that cannot be read as one: the message names the file and the line."""


def assert_no_secrets(text: str, where: str) -> None:
    """Refuse ``text`` if it contains any ``*_API_KEY`` value; the error names the variable only."""
    for name, value in secret_values().items():
        if value in text:
            raise SecretLeakError(
                f"refusing to write {where}: it contains the value of ${name}. "
                "Keys must never reach stored outputs; check the judge identity and request.")


def redact_secrets(value: Any) -> tuple[Any, list[str]]:
    """``value`` (plain JSON) redacted (``redaction.redact``), and the names of the keys found.

    A reply that echoes a key (a hostile server, a proxy's error page) is stored without it
    rather than refused, so the call is neither lost nor paid for again."""
    text = json.dumps(value, ensure_ascii=False)
    clean = redact(text)
    return (json.loads(clean) if clean != text else value), found_secrets(text)


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Hit:
    """A stored ok call: its response (``cached`` True) and when the call was made."""

    response: Response
    created_at: str


class ResponseStore:
    """Append-only log of one judge's calls plus a rebuildable key -> offset index.

    Thread-safe for concurrent writers in one process (a lock), and appends take an exclusive
    ``flock`` so two processes sharing a judge directory never interleave lines.
    """

    def __init__(self, directory: str | Path, read_only: bool = False):
        self.directory = Path(directory)
        self.read_only = read_only
        self.log_path = self.directory / LOG_NAME
        self.index_path = self.directory / INDEX_NAME
        self._lock = threading.Lock()
        self._offsets: dict[str, int] = {}   # key -> offset of its first ok record
        self._failures: dict[str, int] = {}  # key -> offset of its last failure since opening
        self._scanned_to = 0                 # log bytes already folded into _offsets
        self._readable_to: int | None = None  # read-only: where a damaged last line begins
        self._unsaved = 0
        self.damaged: dict[str, Any] | None = None  # the damaged last line found on opening
        if not read_only:  # the folder and log are made by the first call stored, so a command
            # that fails before any call leaves no empty store behind
            for stale in (self.directory / LEASES_DIR).glob("*.lock"):
                remove_if_free(stale)  # left by a killed process: its flock died with it
        self._check_tail()
        self._opened_at = self._end()  # failures from here on are this run's (``failure``)
        self._load_index()

    # ---- opening ------------------------------------------------------------------------
    def _check_tail(self) -> None:
        """Find a truncated or corrupt last line (a crash mid-write). A writable store keeps its
        bytes in ``damaged/`` and cuts it off; a read-only one only stops reading before it.
        The log's flock is held, so a line another process is writing is never taken for torn."""
        if not self.log_path.exists():
            return
        with open(self.log_path, "rb") as f:  # read-only until a repair is needed
            fcntl.flock(f.fileno(), fcntl.LOCK_SH if self.read_only else fcntl.LOCK_EX)
            size = f.seek(0, os.SEEK_END)
            if size == 0:
                return
            f.seek(size - 1)
            ends_clean = f.read(1) == b"\n"
            start = self._last_line_start(f, size - (1 if ends_clean else 0))
            f.seek(start)
            data = f.read(size - start)
            if ends_clean and _record_or_none(data) is not None:
                return
            kept = None
            if self.read_only:
                self._readable_to = start
            else:
                kept = self._keep_aside(data, start)
                with open(self.log_path, "r+b") as w:
                    w.truncate(start)
                    os.fsync(w.fileno())
        key = _KEY_IN_LINE.search(data)
        self.damaged = {"path": str(self.log_path), "offset": start, "bytes": size - start,
                        "kept": str(kept) if kept else None,
                        "key": key.group(1).decode() if key else None}
        what = (f"kept aside in {kept}; that call will be made again" if kept else
                "left as it is (a replay writes nothing); that call is not in the store")
        warnings.warn(f"{self.log_path}: the last line is damaged ({size - start} bytes at "
                      f"offset {start}, an interrupted write or an edit): {what}",
                      RuntimeWarning, stacklevel=3)

    def _keep_aside(self, data: bytes, offset: int) -> Path:
        """Write a damaged line's bytes, unchanged, to ``damaged/``; returns the file."""
        folder = self.directory / DAMAGED_DIR
        folder.mkdir(exist_ok=True)
        path = folder / f"{LOG_NAME}.{offset}.{hashlib.sha256(data).hexdigest()[:12]}"
        write_atomically(path, data)
        return path

    def _end(self) -> int:
        """How far the log may be read: its size, or where a damaged last line begins."""
        if self._readable_to is not None:
            return self._readable_to
        return self.log_path.stat().st_size if self.log_path.exists() else 0

    @staticmethod
    def _last_line_start(f, end: int) -> int:
        """Offset just after the last b"\\n" before ``end`` (0 if none)."""
        pos, chunk = end, 1 << 16
        while pos > 0:
            lo = max(0, pos - chunk)
            f.seek(lo)
            buf = f.read(pos - lo)
            i = buf.rfind(b"\n")
            if i >= 0:
                return lo + i + 1
            pos = lo
        return 0

    def _load_index(self) -> None:
        size = self._end()
        try:
            saved = json.loads(self.index_path.read_text(encoding="utf-8"))
            offsets, scanned = dict(saved["offsets"]), int(saved["log_bytes"])
            if scanned > size:
                raise ValueError("index is ahead of the log")
            if not all(type(v) is int and 0 <= v < scanned for v in offsets.values()):
                raise ValueError("an offset that is no place in the log")
        except (OSError, ValueError, KeyError, TypeError):
            offsets, scanned = {}, 0  # rebuild from the log
        self._offsets, self._scanned_to = offsets, scanned
        if self._scan_tail(size) or scanned != size or not self.index_path.exists():
            self._save_index()

    def _scan_tail(self, end: int) -> int:
        """Fold log lines in [_scanned_to, end) into the index; returns how many were read."""
        if end < self._scanned_to:  # the log was compacted (``keep_only``) by another process
            self._offsets, self._failures, self._scanned_to = {}, {}, 0
            self._opened_at = end  # its failures are older than this run: call those again
        if end <= self._scanned_to:
            return 0
        n = 0
        with open(self.log_path, "rb") as f:
            f.seek(self._scanned_to)
            pos = self._scanned_to
            while pos < end:
                line = f.readline()
                if not line.endswith(b"\n"):
                    break  # a line another process is still writing; read it next time
                rec = self._record_at(line, pos)
                self._fold(rec["key"], rec["response"].get("status") == "ok", pos)
                pos += len(line)
                n += 1
        self._scanned_to = pos
        return n

    def _fold(self, key: str, ok: bool, offset: int) -> None:
        if ok:
            self._offsets.setdefault(key, offset)
        elif offset >= self._opened_at:
            self._failures[key] = offset

    def _record_at(self, line: bytes, offset: int) -> dict[str, Any]:
        rec = _record_or_none(line)
        if rec is None:
            with open(self.log_path, "rb") as f:
                number = f.read(offset).count(b"\n") + 1
            raise StoreError(
                f"{self.log_path} line {number}: not a call record ({_why_not(line)}). Only a "
                "damaged last line is set aside automatically: fix or delete that line, or "
                "restore the file.")
        return rec

    def _save_index(self) -> None:
        """Write the index; a failure (a full disk) is ignored, since the index is only a cache
        that the next open rebuilds from the log. A read-only store keeps it in memory, and a
        store with no call yet has none."""
        if self.read_only or not self.log_path.exists():
            return
        try:
            write_atomically(self.index_path, json.dumps(
                {"log_bytes": self._scanned_to, "offsets": self._offsets},
                separators=(",", ":")).encode("utf-8"))
        except OSError:
            return
        self._unsaved = 0

    # ---- reading ------------------------------------------------------------------------
    def __contains__(self, key: str) -> bool:
        with self._lock:
            return key in self._offsets

    def __len__(self) -> int:
        with self._lock:
            return len(self._offsets)

    def get(self, key: str) -> Hit | None:
        """The stored ok call for ``key``, or None: the one place a cache hit is made."""
        with self._lock:
            if key not in self._offsets:
                # another process may have appended since we last looked
                self._scan_tail(self._end())
            off = self._offsets.get(key)
            if off is None:
                return None
            rec = self._read_at(off)
            if rec is None or rec["key"] != key:  # the index was wrong: rebuild it from the log
                self._offsets, self._scanned_to = {}, 0
                self._scan_tail(self._end())
                self._save_index()
                off = self._offsets.get(key)
                if off is None:
                    return None
                rec = self._read_at(off)
        return _hit(rec)

    def failure(self, key: str) -> Hit | None:
        """The last failed call for ``key`` stored since this store was opened (by any process),
        or None. A caller that waited on the key's lease takes it instead of making the same
        failing attempts again; a later run calls it afresh."""
        with self._lock:
            self._scan_tail(self._end())
            off = self._failures.get(key)
        rec = None if off is None else self._read_at(off)
        return _hit(rec) if rec is not None and rec["key"] == key else None

    def _read_at(self, offset: int) -> dict[str, Any] | None:
        with open(self.log_path, "rb") as f:
            f.seek(offset)
            return _record_or_none(f.readline())

    def records(self) -> Iterator[dict[str, Any]]:
        """Every record in the log, failures included, in write order."""
        if not self.log_path.exists():
            return
        end = self._end()
        with open(self.log_path, "rb") as f:
            pos = 0
            for line in f:
                if pos >= end:
                    break
                if line.endswith(b"\n"):
                    yield self._record_at(line, pos)
                pos += len(line)

    # ---- writing ------------------------------------------------------------------------
    def check_room(self) -> None:
        """Refuse to let a call be made that the store may not have room to keep: ``OSError``
        (ENOSPC, naming the log) when the disk holding it has less than ``MIN_FREE_BYTES``
        free. A call paid for and then lost to a full disk would be paid again on the rerun."""
        folder = self.directory
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        try:
            st = os.statvfs(folder)
        except OSError:
            return  # nothing to measure: the append says what is wrong, if anything
        free = st.f_bavail * st.f_frsize
        if free < MIN_FREE_BYTES:
            raise OSError(errno.ENOSPC, f"No space left on device ({free:,} bytes free, "
                          f"{MIN_FREE_BYTES:,} kept for the next call's record): no call was "
                          "made that could not be stored", str(self.log_path))

    def lease(self, key: str) -> Any:
        """Hold ``key`` while its call is made: another thread or process that needs the same
        call waits here, then finds it stored (``with store.lease(key): ...``)."""
        return exclusive(self.directory / LEASES_DIR / f"{key}.lock")

    def put(self, key: str, identity: dict[str, Any], request: Request,
            response: Response) -> dict[str, Any]:
        """Append one call record durably, then index it if it is an ok response; returns the
        record, whose response is the one to use from here on (``Response.from_dict``).

        What is stored is what may be kept, and nothing else is written before it: a key in
        the identity or request is refused (``SecretLeakError``) before anything is written; a
        key the reply echoed is redacted (the names kept in the record); usage past what the
        request could use is held to it (``budget.bounded``, the reported figures kept)."""
        from tjb_lib.judges.budget import bounded

        if self.read_only:
            raise StoreError(f"{self.log_path}: opened read-only (a replay), so nothing is stored")
        sent = {"key": key, "judge": identity, "request": request.to_dict()}
        assert_no_secrets(json.dumps(sent, ensure_ascii=False), f"a call record to {self.log_path}")
        stored, redacted = redact_secrets(_capped(bounded(request, response)).to_dict())
        stored["cached"] = False  # what was stored is the original call, never a cache hit
        if redacted:
            stored["meta"] = {**stored.get("meta", {}), "redacted": redacted}
        rec = {**sent, "response": stored, "created_at": now_iso()}
        data = (json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
        with self._lock:
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                with self._open_log_locked("ab") as f:
                    try:
                        offset = f.seek(0, os.SEEK_END)
                        if offset != self._scanned_to:
                            self._scan_tail(offset)  # records another process appended
                        f.write(data)
                        f.flush()
                        os.fsync(f.fileno())
                    except OSError:
                        try:
                            f.truncate(offset)  # never leave half a line behind
                        except OSError:
                            pass  # a torn last line is repaired when the store is next opened
                        raise
                    finally:
                        fcntl.flock(f.fileno(), fcntl.LOCK_UN)
            except OSError as e:
                raise OSError(e.errno, f"{e.strerror} (storing call {key[:12]})",
                              str(self.log_path)) from None
            if self._scanned_to == offset:
                self._scanned_to = offset + len(data)
                self._fold(key, response.status == "ok", offset)
                self._unsaved += 1
                if self._unsaved >= INDEX_FLUSH_EVERY:
                    self._save_index()
        return rec

    def _open_log_locked(self, mode: str):
        """The log opened and held (``flock``, exclusive). A compaction replaces the file while
        holding the old one, so a writer that waited on the old file takes the new one."""
        while True:
            f = open(self.log_path, mode)
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            try:
                if os.path.samestat(os.fstat(f.fileno()), os.stat(self.log_path)):
                    return f
            except FileNotFoundError:
                pass
            f.close()

    def keep_only(self, keys: set[str]) -> tuple[int, int, Path | None]:
        """Rewrite the log with the records of ``keys`` only (their failures too), each line
        unchanged and in its order; move the others, unchanged, to ``superseded/`` (nothing is
        deleted). Returns (records kept, records moved, the file they went to). The shipped log
        then holds what the verdict rows name rather than every wording a pair ever had."""
        if self.read_only:
            raise StoreError(f"{self.log_path}: opened read-only (a replay), so nothing is moved")
        if not self.log_path.exists():
            return 0, 0, None
        with self._lock, self._open_log_locked("rb") as f:
            kept, moved, pos = [], [], 0
            for line in f:
                (kept if self._record_at(line, pos)["key"] in keys else moved).append(line)
                pos += len(line)
            if not moved:
                return len(kept), 0, None
            data = b"".join(moved)
            aside = (self.directory / SUPERSEDED_DIR /
                     f"{LOG_NAME}.{hashlib.sha256(data).hexdigest()[:12]}")
            aside.parent.mkdir(exist_ok=True)
            write_atomically(aside, data)  # durable before anything leaves the log
            write_atomically(self.log_path, b"".join(kept))
            self._offsets, self._failures, self._scanned_to = {}, {}, 0
            self._opened_at = self._end()
            self._scan_tail(self._opened_at)
            self._save_index()
        return len(kept), len(moved), aside

    def flush(self) -> None:
        """Write the index now (the log itself is always durable)."""
        with self._lock:
            self._save_index()

    def close(self) -> None:
        self.flush()

    def __enter__(self) -> "ResponseStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _capped(response: Response) -> Response:
    """``response`` with a reply past the parser's cap cut to it, its true length kept in
    ``meta["text_chars"]`` (the cut reply is unparsed, as the whole one would be)."""
    text = response.text
    if not isinstance(text, str) or len(text) <= MAX_REPLY_CHARS:
        return response
    return dataclasses.replace(response, text=text[:MAX_REPLY_CHARS],
                               meta={**response.meta, "text_chars": len(text)})


#: the call key a damaged line may still show, so a refusal can name the call
_KEY_IN_LINE = re.compile(rb'"key":\s*"([0-9a-f]{16,64})"')


def _hit(rec: dict[str, Any]) -> Hit:
    response = Response.from_dict(rec["response"])
    response.cached = True
    return Hit(response, str(rec.get("created_at") or ""))


def _why_not(line: bytes) -> str:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"byte 0x{line[e.start]:02x} at column {e.start + 1} is not UTF-8"
    try:
        json.loads(text)
    except ValueError as e:
        return f"not JSON: {e}"
    return "not an object with a key string and a response object"


def _record_or_none(line: bytes) -> dict[str, Any] | None:
    """A log line as a call record, or None when it is not one (torn, not JSON, not UTF-8,
    fields missing)."""
    try:
        rec = json.loads(line)
    except ValueError:  # JSONDecodeError and UnicodeDecodeError alike
        return None
    ok = (isinstance(rec, dict) and isinstance(rec.get("key"), str)
          and isinstance(rec.get("response"), dict))
    return rec if ok else None
