"""Turn (pair, order, protocol setting) into judge requests.

Candidates are always shown under the neutral labels A and B; A is the first-shown candidate,
i.e. the cited side when ``order == "cited_first"``. Every request records its template's name
and version so a stored reply can be traced to the exact prompt wording.
"""
from __future__ import annotations

import json
import re
from typing import Any

from tjb_lib.parse import TRACE_V1_FIELDS, TRACE_V2_FIELDS
from tjb_lib.protocols.specs import Spec, template_names
from tjb_lib.protocols.templates import load_template
from tjb_lib.records import ORDERS, Pair, Request

VERDICT_MAX_TOKENS = 256
STAGE1_MAX_TOKENS = {"trace_v1": 512, "trace_v2": 1536}
STAGE1_FIELDS = {"trace_v1": TRACE_V1_FIELDS, "trace_v2": TRACE_V2_FIELDS}

# Guard between TRACE stage 1 and stage 2: reference markers a stage-1 record may have let
# through ([3], [1, 2], [S4], [doc1:s2], [table:3], superscript digits, 【...】) are masked so
# stage 2 never sees one. Years such as [2019] are not markers (at most three digits).
_ID = r"(?:[A-Za-z]{1,8}\s*:?\s*)?[A-Za-z]?\d{1,3}(?:\s*:\s*[A-Za-z]{0,8}\d{1,3})?"
_MARKER_RE = re.compile(rf"[ \t]*(?:\[\s*{_ID}(?:\s*[,;–-]\s*{_ID})*\s*\]|[⁰¹²³⁴⁵⁶⁷⁸⁹]+|【[^】\n]*】)")


def shown_sides(order: str) -> tuple[str, str]:
    """("cited", "plain") or ("plain", "cited"): which side is shown as A, which as B."""
    if order not in ORDERS:
        raise ValueError(f"order {order!r} is not one of {ORDERS}")
    return ("cited", "plain") if order == "cited_first" else ("plain", "cited")


def shown_texts(pair: Pair, order: str) -> tuple[str, str]:
    """The candidate texts as A and B for ``order``."""
    first, second = shown_sides(order)
    return getattr(pair, first), getattr(pair, second)


def _request(template: str, kind: str, max_tokens: int, **fields: str) -> Request:
    tpl = load_template(template)
    return Request(messages=tpl.render(**fields), template=tpl.name,
                   template_version=tpl.version, kind=kind, max_tokens=max_tokens,
                   temperature=0.0, json_mode=True)


def ladder_request(pair: Pair, order: str, spec: Spec) -> Request:
    a, b = shown_texts(pair, order)
    (template,) = template_names(spec)
    return _request(template, "verdict", VERDICT_MAX_TOKENS,
                    task=pair.task, candidate_a=a, candidate_b=b)


def lite_texts(pair: Pair, order: str) -> tuple[str, str]:
    """TRACE-lite: both candidates with citation-like display removed deterministically."""
    from tjb_lib.pairs.strip import strip_artifacts  # another module's job; only this path needs it

    return tuple(strip_artifacts(t) for t in shown_texts(pair, order))  # type: ignore[return-value]


def lite_request(pair: Pair, order: str, texts: tuple[str, str] | None = None) -> Request:
    a, b = texts if texts is not None else lite_texts(pair, order)
    return _request("trace_lite_judge", "verdict", VERDICT_MAX_TOKENS,
                    task=pair.task, candidate_a=a, candidate_b=b)


def build_request(pair: Pair, order: str, spec: Spec) -> Request:
    """The one request of a single-call protocol (ladder level/paraphrase, or TRACE-lite)."""
    if spec.protocol == "ladder":
        return ladder_request(pair, order, spec)
    if spec.protocol == "trace_lite":
        return lite_request(pair, order)
    raise ValueError(f"{spec.protocol} takes two dependent calls; use run_comparison "
                     f"(stage-2 requests depend on the stage-1 reply)")


def stage1_request(pair: Pair, order: str, spec: Spec) -> Request:
    """TRACE stage 1: one joint normalization call over both candidates (free JSON text)."""
    a, b = shown_texts(pair, order)
    return _request(f"{spec.protocol}_stage1", "text", STAGE1_MAX_TOKENS[spec.protocol],
                    task=pair.task, candidate_a=a, candidate_b=b)


def mask_markers(value: Any) -> Any:
    """Remove reference markers from every string in a stage-1 record value."""
    if isinstance(value, str):
        return re.sub(r"[ \t]{2,}", " ", _MARKER_RE.sub("", value)).strip()
    if isinstance(value, list):
        return [mask_markers(v) for v in value]
    return value


def render_record(record: dict[str, Any]) -> str:
    """A stage-1 record as stage 2 sees it: its fixed fields in order, as indented JSON."""
    return json.dumps(record, ensure_ascii=False, indent=2)


def stage2_request(pair: Pair, records: dict[str, dict[str, Any]]) -> Request:
    """TRACE stage 2: masked judging over the two records only (plus the task)."""
    return _request("trace_stage2", "verdict", VERDICT_MAX_TOKENS, task=pair.task,
                    record_a=render_record(records["A"]), record_b=render_record(records["B"]))
