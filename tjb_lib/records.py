"""The flat records that flow between the modules: pair, judge request, judge response.

They are the contract between the split builders, the protocols, the judges and the metrics,
so every field is a plain JSON value and every record round-trips through ``to_dict``.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

SOURCES = ("hotpotqa", "finqa", "humaneval")
TARGET_RELATIONS = (
    "equivalent",            # mechanical, natural and ablation pairs: gold Tie
    "correctness_conflict",  # clear (plain correct) and reverse (cited correct) conflicts
    "quality_soft",          # graded soft tier: human boundary, Tie possibly calibrated
    "quality_moderate",      # graded moderate tier: better-plain, Tie is resolution loss
    "identical",             # position-only controls
    "system",                # workflow-ranking probe
)
GOLDS = ("tie", "plain", "cited", "none")
ORDERS = ("cited_first", "plain_first")
LABELS = ("A", "B", "Tie")
DECISIONS = ("cited", "plain", "tie", "unparsed", "failed")


@dataclass(frozen=True)
class Pair:
    """One benchmark item: a task and two candidates, one of which carries the artifact.

    ``cited`` is the side with the citation-like artifact (or, for conflicts, the side the
    construction perturbed); ``plain`` is the base side. ``artifact`` names what the cited side
    carries; ``meta`` keeps the construction facts (dropped support, wrong-answer source, ...).
    """

    pair_id: str
    split: str
    source: str
    source_id: str
    target_relation: str
    gold: str
    task: str
    plain: str
    cited: str
    variant: str = ""
    artifact: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Pair":
        return cls(**d)


@dataclass(frozen=True)
class Request:
    """One call to a judge. ``kind`` is "verdict" (answer A/B/Tie) or "text" (free generation,
    e.g. TRACE stage 1). The key of the response store is a hash of the request plus the judge."""

    messages: tuple[tuple[str, str], ...]  # ((role, content), ...)
    template: str
    template_version: str
    kind: str = "verdict"
    max_tokens: int = 256
    temperature: float = 0.0
    json_mode: bool = True

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["messages"] = [{"role": r, "content": c} for r, c in self.messages]
        return d

    def chat(self) -> list[dict[str, str]]:
        """Messages in the OpenAI chat shape."""
        return [{"role": r, "content": c} for r, c in self.messages]


@dataclass
class Response:
    """What a judge returned for one request, failures included (``status`` = "failed")."""

    status: str  # "ok" | "failed"
    text: str | None = None
    error: str | None = None
    label_probs: dict[str, float] | None = None  # P(A), P(B), P(Tie) where logits exist
    input_tokens: int | None = None
    output_tokens: int | None = None
    model_returned: str | None = None
    latency_s: float = 0.0
    attempts: int = 1
    cached: bool = False
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Response":
        return cls(**d)


def stable_hash(obj: Any) -> str:
    """sha256 of the canonical JSON of ``obj``: the key of splits, pairs and cached calls."""
    blob = json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


# One verdict row per ordered comparison (pair x order x protocol x level x paraphrase x judge).
# Written by the runner to outputs/raw_outputs/<judge>/<split>.<protocol>.jsonl, read by metrics.
VERDICT_COLUMNS = (
    "pair_id", "split", "source", "target_relation", "gold", "variant",
    "system_plain", "system_cited",          # ranking probe only: which system sits on each side
    "order", "protocol", "level", "paraphrase", "judge",
    "raw_text", "parsed", "parse_status", "decision",  # parsed: A|B|Tie|None; decision: DECISIONS
    "p_a", "p_b", "p_tie",                   # label probabilities where the backend has logits
    "calls", "input_tokens", "output_tokens", "latency_s", "attempts",
    "request_hashes", "templates", "normalized", "cached", "created_at",
)


def decision_from_label(label: str | None, order: str) -> str:
    """Map a positional label back to the side it names: A is the first-shown candidate."""
    if label is None:
        return "unparsed"
    if label == "Tie":
        return "tie"
    if order not in ORDERS or label not in ("A", "B"):
        raise ValueError(f"bad label/order: {label!r}/{order!r}")
    first = "cited" if order == "cited_first" else "plain"
    second = "plain" if first == "cited" else "cited"
    return first if label == "A" else second
