"""Crash-safe store of judge calls: the append-only log that runs resume from and replay reads.

Every call (failures included, for audit) is one JSON line in
``outputs/raw_outputs/<judge>/calls.jsonl``, written, flushed and fsync'ed before the index
(``calls.index.json``: key -> byte offset of the line) learns of it, so a crash loses at most
the call in flight. The index is a cache of the log: it is rebuilt from the log whenever it is
missing, unreadable or behind. Only ``ok`` responses are served from the store; a failed call
is called again on the next run.
"""
from __future__ import annotations

import fcntl
import json
import os
import threading
import warnings
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from tjb_lib.records import Request, Response

LOG_NAME = "calls.jsonl"
INDEX_NAME = "calls.index.json"
INDEX_FLUSH_EVERY = 64  # index writes are a cache refresh; the log is already durable


class SecretLeakError(ValueError):
    """A record about to be written contains the value of an ``*_API_KEY`` variable."""


def secret_values() -> dict[str, str]:
    """Environment variables that hold API keys (name -> value), skipping empty ones."""
    return {k: v for k, v in os.environ.items() if k.endswith("_API_KEY") and v.strip()}


def assert_no_secrets(text: str, where: str) -> None:
    """Refuse ``text`` if it contains any ``*_API_KEY`` value; the error names the variable only."""
    for name, value in secret_values().items():
        if value.strip() in text:
            raise SecretLeakError(
                f"refusing to write {where}: it contains the value of ${name}. "
                "Keys must never reach stored outputs; check the judge identity and request.")


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class ResponseStore:
    """Append-only log of one judge's calls plus a rebuildable key -> offset index.

    Thread-safe for concurrent writers in one process (a lock), and appends take an exclusive
    ``flock`` so two processes sharing a judge directory never interleave lines.
    """

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.log_path = self.directory / LOG_NAME
        self.index_path = self.directory / INDEX_NAME
        self._lock = threading.Lock()
        self._offsets: dict[str, int] = {}   # key -> offset of its first ok record
        self._scanned_to = 0                 # log bytes already folded into _offsets
        self._unsaved = 0
        self.recovered: dict[str, Any] | None = None  # what open() cut off, if anything
        self.log_path.touch(exist_ok=True)
        self._repair_tail()
        self._load_index()

    # ---- opening ------------------------------------------------------------------------
    def _repair_tail(self) -> None:
        """Cut off a truncated or corrupt last line (a crash mid-write) and report it."""
        size = self.log_path.stat().st_size
        if size == 0:
            return
        with open(self.log_path, "rb") as f:
            # find the start of the last line; a complete log ends with b"\n"
            f.seek(max(0, size - 1))
            ends_clean = f.read(1) == b"\n"
            start = self._last_line_start(f, size - (1 if ends_clean else 0))
            f.seek(start)
            last = f.read(size - start)
        if ends_clean and _parses(last):
            return
        with open(self.log_path, "r+b") as f:
            f.truncate(start)
            f.flush()
            os.fsync(f.fileno())
        self.recovered = {"path": str(self.log_path), "offset": start,
                          "dropped_bytes": size - start}
        warnings.warn(f"{self.log_path}: dropped a truncated or corrupt last line "
                      f"({size - start} bytes at offset {start}), left by an interrupted write; "
                      "that call will be made again", RuntimeWarning, stacklevel=3)

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
        size = self.log_path.stat().st_size
        try:
            saved = json.loads(self.index_path.read_text(encoding="utf-8"))
            offsets, scanned = dict(saved["offsets"]), int(saved["log_bytes"])
            if scanned > size:
                raise ValueError("index is ahead of the log")
        except (FileNotFoundError, ValueError, KeyError, TypeError):
            offsets, scanned = {}, 0  # rebuild from the log
        self._offsets, self._scanned_to = offsets, scanned
        if self._scan_tail(size) or scanned != size or not self.index_path.exists():
            self._save_index()

    def _scan_tail(self, end: int) -> int:
        """Fold log lines in [_scanned_to, end) into the index; returns how many were read."""
        if end <= self._scanned_to:
            return 0
        n = 0
        with open(self.log_path, "rb") as f:
            f.seek(self._scanned_to)
            pos = self._scanned_to
            while pos < end:
                line = f.readline()
                if not line:
                    break
                if not line.endswith(b"\n"):
                    break  # a line another process is still writing; read it next time
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as e:
                    raise ValueError(
                        f"{self.log_path}: corrupt record at byte {pos} ({e}); only a bad last "
                        "line is repaired automatically. Inspect the file by hand.") from e
                if rec.get("response", {}).get("status") == "ok":
                    self._offsets.setdefault(rec["key"], pos)
                pos += len(line)
                n += 1
        self._scanned_to = pos
        return n

    def _save_index(self) -> None:
        tmp = self.index_path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps({"log_bytes": self._scanned_to, "offsets": self._offsets},
                                  separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, self.index_path)
        self._unsaved = 0

    # ---- reading ------------------------------------------------------------------------
    def __contains__(self, key: str) -> bool:
        with self._lock:
            return key in self._offsets

    def __len__(self) -> int:
        with self._lock:
            return len(self._offsets)

    def get_record(self, key: str) -> dict[str, Any] | None:
        """The stored ok record for ``key`` (key, judge, request, response, created_at)."""
        with self._lock:
            if key not in self._offsets:
                # another process may have appended since we last looked
                self._scan_tail(self.log_path.stat().st_size)
            off = self._offsets.get(key)
            if off is None:
                return None
            with open(self.log_path, "rb") as f:
                f.seek(off)
                rec = json.loads(f.readline())
        if rec.get("key") != key:
            raise ValueError(f"{self.index_path}: offset {off} holds key {rec.get('key')!r}, "
                             f"not {key!r}; delete the index file to rebuild it from the log")
        return rec

    def get(self, key: str) -> Response | None:
        """The cached ok Response for ``key`` (marked cached=True), or None."""
        rec = self.get_record(key)
        if rec is None:
            return None
        resp = Response.from_dict(rec["response"])
        resp.cached = True
        return resp

    def records(self) -> Iterator[dict[str, Any]]:
        """Every record in the log, failures included, in write order."""
        with open(self.log_path, "rb") as f:
            for line in f:
                if line.endswith(b"\n"):
                    yield json.loads(line)

    # ---- writing ------------------------------------------------------------------------
    def put(self, key: str, identity: dict[str, Any], request: Request,
            response: Response) -> dict[str, Any]:
        """Append one call record durably, then index it if it is an ok response."""
        stored = response.to_dict()
        stored["cached"] = False  # what was stored is the original call, never a cache hit
        rec = {"key": key, "judge": identity, "request": request.to_dict(),
               "response": stored, "created_at": now_iso()}
        line = (json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n")
        assert_no_secrets(line, f"a call record to {self.log_path}")
        data = line.encode("utf-8")
        with self._lock:
            with open(self.log_path, "ab") as f:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX)
                try:
                    offset = f.seek(0, os.SEEK_END)
                    if offset > self._scanned_to:
                        self._scan_tail(offset)  # records another process appended
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                finally:
                    fcntl.flock(f.fileno(), fcntl.LOCK_UN)
            if self._scanned_to == offset:
                self._scanned_to = offset + len(data)
                if response.status == "ok":
                    self._offsets.setdefault(key, offset)
                self._unsaved += 1
                if self._unsaved >= INDEX_FLUSH_EVERY:
                    self._save_index()
        return rec

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


def _parses(line: bytes) -> bool:
    try:
        rec = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return False
    return isinstance(rec, dict) and "key" in rec and "response" in rec
