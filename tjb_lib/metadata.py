"""Run metadata per judge (the paper's reproducibility checklist): what was called, when, with
what software.

``outputs/metadata/<judge>.json`` is merged run by run: the judge's model id, endpoint alias, the
endpoint actually called and its kind, the model/snapshot ids the endpoint returned, the call-date
window, decoding parameters, library versions and the git commit. It never holds a key (checked
before writing).
"""
from __future__ import annotations

import json
import subprocess
from collections import Counter
from datetime import datetime
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any, Iterable

import pandas as pd

from tjb_lib import paths
from tjb_lib.files import write_atomically
from tjb_lib.judges.provider import registered
from tjb_lib.store import assert_no_secrets


def libraries() -> tuple[str, ...]:
    """This package, torch, and every registered provider's SDK."""
    return ("tjb-lib", "torch", *sorted({p.sdk for p in registered().values() if p.sdk}))


def library_versions() -> dict[str, str]:
    out = {}
    for name in libraries():
        try:
            out[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def git_commit(root: Path = paths.ROOT) -> str:
    try:
        res = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return res.stdout.strip() if res.returncode == 0 and res.stdout.strip() else "unknown"


def _iso(t: datetime | str | None) -> str | None:
    return t.isoformat() if isinstance(t, datetime) else t


def _templates(rows: pd.DataFrame) -> list[str]:
    """The prompt templates the rows used (the column holds a list or a string per row)."""
    seen: set[str] = set()
    for ts in rows["templates"] if "templates" in rows.columns else []:
        if isinstance(ts, str):
            seen.add(ts)
        elif ts is not None:
            seen.update(str(t) for t in ts)
    return sorted(seen)


def read_run_metadata(path: Path) -> dict[str, Any]:
    """The merged metadata of a judge's earlier runs ({} when there is none). ``ValueError``
    naming the file when it is not what ``write_run_metadata`` writes, so a run can check it
    before its first call instead of failing after the calls were paid for."""
    if not path.exists():
        return {}
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: not valid JSON ({e}); fix it, or delete it to start the "
                         "judge's run record afresh") from None
    shapes = {"runs": dict, "call_window": dict, "returned_models": list}
    problems = ([] if isinstance(meta, dict) else ["not a JSON object"]) or [
        f"{k!r} is not a JSON {'object' if t is dict else 'list'}"
        for k, t in shapes.items() if k in meta and not isinstance(meta[k], t)]
    if not problems and not all(isinstance(m, str) for m in meta.get("returned_models", [])):
        problems = ["'returned_models' holds something other than model ids"]
    window = meta.get("call_window", {}) if not problems else {}
    if not all(isinstance(window.get(k), (str, type(None))) for k in ("first", "last")):
        problems = ["'call_window' holds something other than call dates"]
    if problems:
        raise ValueError(f"{path}: {problems[0]}, not a run record; fix it, or delete it to "
                         "start the judge's run record afresh")
    return meta


def write_run_metadata(judge, split: str, protocol: str, rows: pd.DataFrame,
                       started: datetime | str, finished: datetime | str,
                       returned_models: Iterable[str] = (), call_dates: Iterable[str] = (),
                       out_dir: str | Path | None = None) -> Path:
    """Merge one run into ``<out_dir>/<judge.name>.json`` and return its path.

    ``returned_models`` are the model/snapshot ids the endpoint reported; ``call_dates`` are the
    ``created_at`` stamps of the calls the rows rest on (cached ones included), which set the
    call-date window.
    """
    out_dir = Path(out_dir or paths.METADATA)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{judge.name}.json"
    meta = read_run_metadata(path)

    jm = dict(judge.metadata())
    meta["judge"] = judge.name
    meta["model"] = judge.model
    meta["backend"] = jm.get("backend", judge.backend)
    meta["endpoint_alias"] = jm.get("endpoint_alias", judge.model)
    meta.pop("base_url_kind", None)  # older runs' name for endpoint_kind
    meta["endpoint"] = judge.identity().get("endpoint")  # the URL actually called; None in-process
    meta["endpoint_kind"] = jm.get("endpoint_kind", "in-process")
    meta["parameters"] = jm.get("params", judge.params)
    meta["judge_metadata"] = jm
    seen = set(meta.get("returned_models", [])) | {m for m in returned_models if m}
    meta["returned_models"] = sorted(seen)
    dates = sorted(d for d in call_dates if d)
    window = meta.get("call_window") or {}
    if dates:
        lo = [dates[0]] + ([window["first"]] if window.get("first") else [])
        hi = [dates[-1]] + ([window["last"]] if window.get("last") else [])
        window = {"first": min(lo), "last": max(hi)}
    meta["call_window"] = window
    meta["libraries"] = library_versions()
    meta["git_commit"] = git_commit()

    decisions = Counter(rows["decision"]) if "decision" in rows.columns else Counter()
    runs = meta.setdefault("runs", {})
    runs[f"{split}.{protocol}"] = {
        "split": split, "protocol": protocol, "rows": int(len(rows)),
        "decisions": {k: int(v) for k, v in sorted(decisions.items())},
        "calls": int(rows["calls"].sum()) if "calls" in rows.columns else None,
        "started": _iso(started), "finished": _iso(finished),
        "templates": _templates(rows),
    }
    meta["runs"] = dict(sorted(runs.items()))

    text = json.dumps(meta, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert_no_secrets(text, f"run metadata {path}")
    write_atomically(path, text.encode("utf-8"))
    return path
