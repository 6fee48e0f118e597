"""The rows file of one run: earlier rows kept, new rows appended as they complete, and the
whole file rewritten atomically, in comparison order, at the end. A replay only reads it."""
from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from tjb_lib.records import ORDERS, VERDICT_COLUMNS
from tjb_lib.runner.comparisons import RunError
from tjb_lib.files import write_atomically
from tjb_lib.store import ResponseStore, now_iso

COMPARISON_ID = ("pair_id", "order", "protocol", "level", "paraphrase")


def comparison_id(row: dict[str, Any]) -> tuple:
    return tuple(row.get(k) for k in COMPARISON_ID)


def _why_not_a_row(row: object) -> str | None:
    """What keeps a decoded line from being a verdict row (None when it is one): it must at
    least say which comparison it is, or rewriting the file would keep a row of nothing."""
    if not isinstance(row, dict):
        return "not a JSON object"
    for k in ("pair_id", "protocol", "paraphrase"):
        if not isinstance(row.get(k), str) or not row[k]:
            return f"no {k}"
    if not isinstance(row.get("level"), str):  # "" for a protocol without levels (TRACE)
        return "no level"
    if row.get("order") not in ORDERS:
        return f"order is {row.get('order')!r}, not one of {', '.join(ORDERS)}"
    return None


def read_rows(path: Path) -> dict[tuple, dict]:
    """The rows on disk by comparison. A torn last line (a killed run; its call is in the
    store) is skipped; any other line that is not a verdict row is a ``RunError`` naming it,
    since rewriting the file would lose or keep it."""
    rows: dict[tuple, dict] = {}
    if not path.exists():
        return rows
    lines = path.read_bytes().splitlines(keepends=True)
    for i, line in enumerate(lines):
        try:
            row = json.loads(line)
            why = _why_not_a_row(row)
            if why:
                raise ValueError(why)
        except ValueError as e:  # JSONDecodeError and UnicodeDecodeError alike
            if i == len(lines) - 1 and not line.endswith(b"\n"):
                continue
            raise RunError(f"{path} line {i + 1}: not a verdict row ({e}); fix or delete "
                           "that line (rows are rebuilt from the store without a call)") from e
        rows[comparison_id(row)] = row
    return rows


def write_rows(path: Path, rows: list[dict]) -> None:
    write_atomically(path, "".join(json.dumps(r, ensure_ascii=False) + "\n"
                                   for r in rows).encode("utf-8"))


class RowLog:
    """The rows file: earlier rows kept, new rows appended as they complete."""

    def __init__(self, path: Path, read_only: bool = False):
        self.path = path
        self.read_only = read_only  # a replay: the file is read, never written
        self.lock = threading.Lock()
        self.previous = read_rows(path)
        self._fh = None  # opened at the first new row: a run that adds none writes nothing

    def append(self, row: dict) -> None:
        with self.lock:
            if self.read_only or comparison_id(row) in self.previous:
                return  # already on disk from an earlier run; the final rewrite refreshes it
            if self._fh is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                write_rows(self.path, list(self.previous.values()))  # drop a torn line
                self._fh = open(self.path, "a", encoding="utf-8")
            self._fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            self._fh.flush()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()

    def finish(self, results: list[dict]) -> int:
        """Rewrite the file as ``results`` then the earlier rows this run did not redo; a replay
        that changes nothing writes nothing. Returns how many earlier rows were kept."""
        new_ids = {comparison_id(r) for r in results}
        kept = [r for cid, r in self.previous.items() if cid not in new_ids]
        if not self.read_only and not _same_rows(results, self.previous):
            write_rows(self.path, [*results, *kept])
        return len(kept)


def _same_rows(results: list[dict], previous: dict[tuple, dict]) -> bool:
    """True when every row is already on disk with the same content (``cached`` aside: a
    replayed row is cached, the shipped one was not)."""
    def content(r: dict) -> dict:
        return {k: v for k, v in r.items() if k != "cached"}
    return all((p := previous.get(comparison_id(r))) is not None and content(p) == content(r)
               for r in results)


def verdict_time(row: dict, store: ResponseStore) -> str:
    """When the verdict was made: its latest stored call, so a replay reproduces the row."""
    times = [hit.created_at for k in row.get("request_hashes") or ()
             if (hit := store.get(k)) is not None]
    return max(times) if times else now_iso()


def complete_row(row: dict, judge_name: str, created_at: str) -> dict:
    row = dict(row, judge=judge_name, created_at=created_at)
    missing = [c for c in VERDICT_COLUMNS if c not in row]
    if missing:
        raise ValueError(f"run_comparison returned a row without {missing} "
                         f"(pair {row.get('pair_id')!r}, order {row.get('order')!r})")
    extra = sorted(k for k in row if k not in VERDICT_COLUMNS)
    return {c: row[c] for c in (*VERDICT_COLUMNS, *extra)}
