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
        """A pair from its JSON record, checked against the schema (``TypeError`` naming the
        field otherwise): a null or a number is never judged as the text "None" or "123"."""
        if not isinstance(d, dict):
            raise TypeError(f"a pair is a JSON object, not {_json_type(d)}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        required = [n for n, f in fields.items()
                    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
        problems = [f"unknown field {k!r}" for k in sorted(set(d) - set(fields))]
        problems += [f"no {k!r}" for k in required if k not in d]
        problems += [f"{k!r} is {_json_type(v)}, not text" for k, v in d.items()
                     if k in fields and k != "meta" and not isinstance(v, str)]
        problems += [f"{k!r} is empty" for k in required
                     if isinstance(d.get(k), str) and not d[k].strip()]
        for k, allowed in (("source", SOURCES), ("target_relation", TARGET_RELATIONS),
                           ("gold", GOLDS)):
            if isinstance(d.get(k), str) and d[k] not in allowed:
                problems.append(f"{k!r} is {d[k]!r}, not one of {', '.join(allowed)}")
        if not isinstance(d.get("meta", {}), dict):
            problems.append(f"'meta' is {_json_type(d['meta'])}, not an object")
        if problems:
            raise TypeError("; ".join(problems))
        return cls(**d)


def _json_type(value: Any) -> str:
    names = {type(None): "null", bool: "a boolean", int: "a number", float: "a number",
             str: "text", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


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
    # usage details where the provider reports them (input_tokens and output_tokens include them)
    cached_input_tokens: int | None = None  # input read from the provider's prompt cache
    cache_write_tokens: int | None = None   # input written to it (billed above the input rate)
    reasoning_tokens: int | None = None     # output spent on reasoning / thinking
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Response":
        """A stored response of any version: unknown fields are dropped and counts that are not
        counts become None, so an old or hand-edited record never crashes a replay. ``text`` is
        kept exactly as stored: the parser reads only text."""
        def count(v: Any) -> int | None:
            return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None

        known = {f.name for f in dataclasses.fields(cls)}
        r = cls(**{k: v for k, v in d.items() if k in known and k != "status"},
                status=str(d.get("status")))
        for name in ("input_tokens", "output_tokens", "cached_input_tokens", "cache_write_tokens",
                     "reasoning_tokens"):
            setattr(r, name, count(getattr(r, name)))
        r.attempts = count(r.attempts) or 1
        if not isinstance(r.latency_s, (int, float)) or isinstance(r.latency_s, bool):
            r.latency_s = 0.0
        if not isinstance(r.model_returned, str):
            r.model_returned = None
        if not isinstance(r.meta, dict):
            r.meta = {"stored_meta": r.meta}
        if r.label_probs is not None and not _probabilities(r.label_probs):
            r.meta = {**r.meta, "stored_label_probs": r.label_probs}  # for audit, never a p_a
            r.label_probs = None
        return r


def _probabilities(value: Any) -> bool:
    """True for label probabilities as a judge returns them: labels (some may be absent) to
    numbers in [0, 1] (a sum of token probabilities may pass 1 by a rounding error). Anything
    else in a stored record (an edit, an old format) is not one."""
    return isinstance(value, dict) and all(
        k in LABELS and isinstance(v, (int, float)) and not isinstance(v, bool)
        and 0 <= v <= 1 + 1e-9 for k, v in value.items())


def stable_hash(obj: Any) -> str:
    """sha256 of the canonical JSON of ``obj``: the key of splits, pairs and cached calls."""
    blob = json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def request_key(identity: dict[str, Any], request: Request) -> str:
    """The key of one judge call: a hash of the judge's ``identity()`` and the whole request. It
    keys the response store and is the custom id of a provider batch line (one formula, here)."""
    return stable_hash({"judge": identity, "request": request.to_dict()})


# One verdict row per ordered comparison (pair x order x protocol x level x paraphrase x judge).
# Written by the runner to outputs/raw_outputs/<judge>/<split>.<protocol>.jsonl, read by metrics.
VERDICT_COLUMNS = (
    "pair_id", "split", "source", "target_relation", "gold", "variant",
    "system_plain", "system_cited",          # ranking probe only: which system sits on each side
    "order", "protocol", "level", "paraphrase", "judge",
    "model_returned",                        # the model id(s) the endpoint said answered
    "raw_text", "parsed", "parse_status", "decision",  # parsed: A|B|Tie|None; decision: DECISIONS
    "p_a", "p_b", "p_tie",                   # label probabilities where the backend has logits
    "calls", "input_tokens", "output_tokens",
    "cached_input_tokens", "cache_write_tokens", "reasoning_tokens",  # where the provider says
    "latency_s", "attempts",
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
