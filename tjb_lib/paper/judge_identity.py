"""Who the judge that ran is: its name, the endpoint it called, the model ids that endpoint
answered as, and whether those ids are the model its catalog name stands for.

A catalog name can be pointed at any server (``--base-url``), so a name alone never says whose
numbers a report holds: a rule server answering as ``citebias-rule-v1`` under the name
``Qwen2.5-14B-Instruct-AWQ`` is not the paper's Qwen. REPORT.md and every notebook open with
:meth:`Identity.describe`, computed from the run metadata or the verdict rows, never from the
name.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Iterable

from tjb_lib import paths
from tjb_lib.judges.provider import JudgeSpec

#: catalog roles of the paper's own judges (the embedded default is not one of them)
PAPER_ROLES = ("commercial", "open-weight")


def _base(model_id: str) -> str:
    """A model id without its organisation or packaging (``Org/Model@pkg`` -> ``model``)."""
    return model_id.split("@")[0].rsplit("/", 1)[-1].lower()


def same_model(named: str, returned: str, snapshot: str | None = None) -> bool:
    """Whether an endpoint answering as ``returned`` is the model ``named`` (or the snapshot the
    paper's endpoint returned): the same id, or the same id with a dated snapshot after it."""
    if returned in (named, snapshot):
        return True
    want, got = _base(named), _base(returned)
    return got == want or got.startswith(want + "-")


@dataclasses.dataclass(frozen=True)
class Identity:
    """One judge as it ran (see the module docstring)."""

    name: str
    model: str                      # the model id the calls asked for
    endpoint: str | None            # the endpoint called (``endpoint_id``); None: in this process
    returned: tuple[str, ...]       # the model ids the endpoint answered as
    named_model: str | None = None  # what the catalog name stands for; None: not in the catalog
    paper_role: bool = False        # the catalog name is one of the paper's judges
    embedded: bool = False
    snapshot: str | None = None     # what the paper's endpoint returned (Table A7)

    @property
    def stand_ins(self) -> tuple[str, ...]:
        """Returned ids that are not the model the catalog name stands for."""
        if self.named_model is None:
            return ()
        return tuple(m for m in self.returned
                     if not same_model(self.named_model, m, self.snapshot))

    @property
    def is_papers(self) -> bool:
        """One of the paper's judges, and the endpoint answered as that model."""
        return self.paper_role and bool(self.returned) and not self.stand_ins

    @property
    def not_papers(self) -> str:
        """'' for the paper's own judge, else a short reason a comparison column can carry."""
        if self.is_papers:
            return ""
        if self.stand_ins:
            return f"served as {', '.join(self.stand_ins)}: not the paper's {self.name}"
        return "not one of the paper's judges"

    def describe(self) -> str:
        """The first paragraph of a report or notebook: which judge ran, where, answering as
        what."""
        where = f"at `{self.endpoint}`" if self.endpoint else "in this process"
        answered = (f"the endpoint answered as {_ids(self.returned)}" if self.returned else
                    "no returned model id is recorded")
        if self.stand_ins:
            return (f"**`{self.name}` was served by another model.** The endpoint "
                    f"`{self.endpoint}` answered as {_ids(self.stand_ins)}, not "
                    f"`{self.named_model}`, which the name `{self.name}` stands for: these are "
                    f"**not the paper's {self.name}**'s numbers, and the paper's columns beside "
                    f"ours are the paper's judges, not this one. Judge `{self.name}`, model "
                    f"`{self.model}` {where}; {answered}.")
        if self.embedded:
            return (f"**Judge `{self.name}`**: the embedded 135M-parameter model "
                    f"(`{self.model}`), {where}; not one of the paper's judges, so the comparison "
                    "shows which effects a judge of that size shows, not a replication of the "
                    f"paper's judges; {answered}.")
        if self.paper_role:
            paper = (f" (the paper's endpoint returned `{self.snapshot}`)" if self.snapshot
                     else "")
            return (f"**Judge `{self.name}`**, one of the paper's judges, model `{self.model}` "
                    f"{where}; {answered}{paper}.")
        return (f"**Judge `{self.name}`**: model `{self.model}` {where}, not one of the paper's "
                f"judges, so its numbers are set beside theirs, not offered as theirs; "
                f"{answered}.")


def _ids(models: Iterable[str]) -> str:
    return ", ".join(f"`{m}`" for m in models)


def identity(spec: JudgeSpec, returned: Iterable[str] = (),
             endpoint: str | None = None) -> Identity:
    """The identity of the judge ``spec`` describes, answering as ``returned``."""
    from tjb_lib.judges.catalog import find_spec

    try:
        entry: JudgeSpec | None = find_spec(spec.name)
    except ValueError:
        entry = None
    if endpoint is None and spec.base_url:
        endpoint = spec.base_url
    if endpoint is None and not (entry is not None and entry.role == "embedded"):
        from tjb_lib.judges.provider import get

        endpoint = get(spec.provider).base_url
    if endpoint:
        from tjb_lib.judges.endpoints import endpoint_id

        endpoint = endpoint_id(endpoint)  # no port of a local server, no credentials
    return Identity(name=spec.name, model=spec.model, endpoint=endpoint,
                    returned=tuple(sorted({m for m in returned if m})),
                    named_model=entry.model if entry else None,
                    paper_role=bool(entry) and entry.role in PAPER_ROLES,
                    embedded=bool(entry) and entry.role == "embedded" and spec.base_url is None,
                    snapshot=entry.reported_snapshot if entry else None)


def _metadata(name: str, metadata_dir: str | Path | None) -> dict:
    path = Path(metadata_dir or paths.METADATA) / f"{name}.json"
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        meta = {}
    return meta if isinstance(meta, dict) else {}


def from_metadata(spec: JudgeSpec, metadata_dir: str | Path | None = None) -> Identity:
    """The identity of ``spec`` as its run metadata (outputs/metadata/<judge>.json) records it:
    the endpoint last called and every model id the endpoint answered as."""
    meta = _metadata(spec.name, metadata_dir)
    returned = [m for m in meta.get("returned_models", []) if isinstance(m, str)]
    endpoint = meta.get("endpoint") if isinstance(meta.get("endpoint"), str) else None
    return identity(spec, returned, endpoint)


def of_judge(name: str, metadata_dir: str | Path | None = None) -> Identity:
    """The identity of the judge whose results carry ``name``, from its run metadata alone (a
    served name the catalog lacks is described by the model and endpoint recorded there)."""
    from tjb_lib.judges.catalog import SERVED, find_spec

    try:
        spec = find_spec(name)
    except ValueError:
        meta = _metadata(name, metadata_dir)
        spec = JudgeSpec(name, SERVED, str(meta.get("model") or "not recorded"), "served",
                         base_url=meta.get("endpoint") if isinstance(meta.get("endpoint"), str)
                         else None)
    return from_metadata(spec, metadata_dir)


def from_rows(spec: JudgeSpec, rows) -> Identity:
    """The identity of ``spec`` as its verdict rows record it (column ``model_returned``)."""
    returned: list[str] = []
    if len(rows) and "model_returned" in rows.columns:
        mine = rows[rows["judge"] == spec.name] if "judge" in rows.columns else rows
        returned = [m for joined in mine["model_returned"].dropna().unique()
                    if isinstance(joined, str) for m in joined.split(",")]  # TRACE: two calls
    return identity(spec, returned)
