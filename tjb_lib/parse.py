"""Conservative verdict extraction: JSON first, then a strict fallback, else ``unparsed``.

A judge reply becomes a label only when it says one label unambiguously. Anything else is
``unparsed`` and stays visible in the tables; it is never coerced into Tie (or into anything).

Statuses:
  * ``json``     exactly one JSON object carries a ``winner`` key, its value is a valid label
                 (the object may sit in a code fence or between prose), and no other label
                 statement in the reply disagrees with it;
  * ``fallback`` the whole reply is one line that is just a label (``B``, ``tie``) or
                 ``<key>: <label>`` (``Winner: B``, ``Verdict: Tie``);
  * ``scored``   no text, but label probabilities from local logit scoring: their argmax;
  * ``unparsed`` everything else: prose, truncated JSON, unknown labels (``C``, ``both``),
                 several or conflicting labels, an empty reply, a reply that is not text.

Label statements, all of which must name the JSON verdict's label: every ``winner`` value at any
depth of any JSON object in the reply; every label-valued ``verdict``, ``decision``,
``answer``, ``label`` ... key (a ``final_`` prefix allowed) at any depth; and, in the prose
around the JSON, every keyed statement (``The winner is B``; with ``:``, ``=`` or an arrow and
ending its line, in any case: ``Final answer: b``, ``Winner → B``) and every line that is only a
label (``B``). Labels inside JSON strings (a reason quoting one) are not statements.

A reply is refused, not suffered: one longer than ``MAX_REPLY_CHARS`` (the store keeps that
much of it and its true length) or whose brackets nest deeper than ``MAX_DEPTH`` is unparsed
at once, and reading the rest takes time linear in the reply's length (``_json_spans``): a reply
whose JSON would take more is unparsed. No verdict or TRACE reply comes near any of these.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from tjb_lib.records import LABELS

# A valid label, optionally named as "Response B" / "Candidate A"; matched case-insensitively
# after surrounding quotes, backticks, asterisks and a final period are trimmed.
_LABEL = r"(?:(?:response|candidate|record|option)\s+)?(a|b|tie)"
_LABEL_RE = re.compile(rf"^{_LABEL}$", re.IGNORECASE)
_TRIM = " \t\"'`*."
_KEYED_LINE_RE = re.compile(
    r"^(?:final\s+)?(?:winner|verdict|decision|answer|choice|preference|label|judgement|judgment)"
    rf"[\s*]*[:=][\s\"'`*]*{_LABEL}[\"'`*]*\.?$",
    re.IGNORECASE,
)
_CANONICAL = {"a": "A", "b": "B", "tie": "Tie"}
#: the reply length from which a reply is not read (256 K characters; a verdict is a few hundred,
#: a TRACE stage-1 reply a few thousand): it is unparsed and stored cut to this length
MAX_REPLY_CHARS = 256 * 1024
#: the deepest nesting of brackets read (a verdict nests 1 deep, a stage-1 reply 3)
MAX_DEPTH = 64
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STATEMENT_KEYS = ("winner|verdict|decision|answer|choice|preference|label|judgement|judgment|"
               "result|preferred|better")
_STATEMENT_KEY_RE = re.compile(rf"^(?:final[\s_-]*)?(?:{_STATEMENT_KEYS})$", re.IGNORECASE)
# A keyed label statement inside prose: "Final answer: B", "the winner is Tie", "Decision = A".
# A and B must be capitals here (prose is full of the article "a"); tie in any case.
_PROSE_STATEMENT_RE = re.compile(
    rf"\b(?:final\s+)?(?:{_STATEMENT_KEYS})\b[\s*\"'`]*(?:is|:|=|-|–|—)[\s*\"'`]*"
    r"(?:(?:response|candidate|record|option)\s+)?((?-i:A|B)|tie)\b",
    re.IGNORECASE,
)

# A keyed statement with an explicit key-value sign ("Final answer: b", "Winner → B") that ends
# its line: the label in any case (a line cannot end on the article "a" and mean a verdict).
_PROSE_KEYED_RE = re.compile(
    rf"\b(?:final\s+)?(?:{_STATEMENT_KEYS})\b[\s*\"'`]*(?::|=|->|=>|→|⇒)[\s*\"'`]*"
    r"(?:(?:response|candidate|record|option)\s+)?(a|b|tie)[\s*\"'`.!]*$",
    re.IGNORECASE | re.MULTILINE,
)
# A line of prose that is only a label ("B", "**Tie**", "Response A.").
_PROSE_BARE_RE = re.compile(
    r"^[\s*\"'`>#-]*(?:(?:response|candidate|record|option)\s+)?(a|b|tie)[\s*\"'`.!]*$",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True)
class Verdict:
    """One parsed judge reply: ``label`` is None unless ``status`` says how it was read."""

    label: str | None
    status: str
    reason: str | None = None


class _JsonObject(dict):
    """A decoded JSON object that remembers every value given under a ``winner`` key and every
    label statement at any depth below it, so duplicate keys (which ``json`` silently collapses)
    and nested objects cannot hide a conflicting label."""

    winner_values: list[Any]
    statements: list[Any]  # winner values (any value) and label-valued statement keys, any depth


def _object_hook(pairs: list[tuple[str, Any]]) -> _JsonObject:
    obj = _JsonObject(pairs)
    obj.winner_values = [v for k, v in pairs if k.strip().casefold() == "winner"]
    obj.statements = list(obj.winner_values)
    for k, v in pairs:
        if k.strip().casefold() != "winner" and _STATEMENT_KEY_RE.match(k.strip()) \
                and normalize_label(v) is not None:
            obj.statements.append(v)
        obj.statements.extend(_nested_statements(v))
    return obj


def _nested_statements(value: Any) -> list[Any]:
    if isinstance(value, _JsonObject):
        return value.statements
    if isinstance(value, list):
        return [c for v in value for c in _nested_statements(v)]
    return []


def normalize_label(value: Any) -> str | None:
    """``"A"``, ``" b "``, ``"TIE"``, ``"Response B"`` → canonical label; anything else → None."""
    if not isinstance(value, str):
        return None
    m = _LABEL_RE.match(value.strip().strip(_TRIM).strip())
    return _CANONICAL[m.group(1).casefold()] if m else None


#: Where a JSON object may start: "{" then a key or "}" (JSON's four whitespace characters
#: between). Any other "{" fails at once, so it is never handed to the decoder.
_OBJECT_START = re.compile(r'\{(?=[ \t\n\r]*["}])')
#: The decoder reads a window from the start, grown fourfold while it runs off the window's end:
#: a failed attempt then costs what it read, not the whole reply (a ``JSONDecodeError`` counts
#: the lines before its position, so an attempt on the whole text costs the text's length).
_FIRST_WINDOW = 512
#: The work the objects of one reply may take, in characters read by the decoder (each attempt
#: also costs ``_ATTEMPT_COST``): ``_WORK_PER_CHAR`` per character of the reply plus
#: ``_WORK_BASE``. A reply that needs more (nested, unclosed objects read again from each of
#: their starts; thousands of objects side by side) is unparsed: no verdict reply comes near it.
_WORK_PER_CHAR, _WORK_BASE, _ATTEMPT_COST = 4, 1 << 18, 512


class _TooCostly(Exception):
    """Reading every JSON object of the reply would take more than linear work."""


def refused(text: str) -> bool:
    """Whether ``text`` is past what is read at all: as long as ``MAX_REPLY_CHARS`` or nested
    deeper than ``MAX_DEPTH`` (brackets inside JSON strings aside). Linear, at C speed but for
    one step per bracket."""
    if len(text) >= MAX_REPLY_CHARS:  # a stored reply cut to the cap is as long as the cap
        return True
    open_ = []  # a closer ends every bracket opened since its own kind (prose leaves some open)
    for c in _NOT_BRACKET.sub("", _JSON_STRING.sub("", text)):
        if c in "[{":
            open_.append(c)
            if len(open_) > MAX_DEPTH:
                return True
            continue
        want = "{" if c == "}" else "["
        while open_ and open_.pop() != want:
            pass
    return False


def _decode_at(decoder: json.JSONDecoder, text: str, start: int) -> tuple[Any, int, int]:
    """(object or None, end, characters read) of the JSON value starting at ``start``."""
    size = _FIRST_WINDOW
    while True:
        window = text[start:start + size]
        try:
            obj, end = decoder.raw_decode(window)
            return obj, start + end, end
        except RecursionError:
            return None, start, len(window)
        except json.JSONDecodeError as e:
            cut = start + size < len(text) and (
                e.pos >= len(window) - 16 or e.msg.startswith("Unterminated string"))
            if not cut:
                return None, start, e.pos + 1
        size *= 4


def _json_spans(text: str) -> list[tuple[_JsonObject, int, int]]:
    """(object, start, end) of every complete top-level JSON object in ``text``, in order.

    Linear in the reply's length: raises ``_TooCostly`` rather than take more work than
    ``_WORK_PER_CHAR`` per character of it."""
    decoder = json.JSONDecoder(object_pairs_hook=_object_hook)
    found, i, budget = [], 0, _WORK_PER_CHAR * len(text) + _WORK_BASE
    while (m := _OBJECT_START.search(text, i)) is not None:
        start = m.start()
        obj, end, read = _decode_at(decoder, text, start)
        budget -= read + _ATTEMPT_COST
        if budget < 0:
            raise _TooCostly
        if isinstance(obj, _JsonObject):
            found.append((obj, start, end))
            i = end
        else:
            i = start + 1
    return found


def json_objects(text: str) -> list[_JsonObject]:
    """Every complete top-level JSON object in ``text`` (inside fences or prose), in order.

    A truncated object yields nothing; nested objects of a decoded object are not listed again.
    """
    return [obj for obj, _, _ in _json_spans(text)]


def _from_json(text: str) -> Verdict | None:
    """The JSON reading, or None when no object carries a winner key at all."""
    try:
        spans = _json_spans(text)
    except _TooCostly:
        return Verdict(None, "unparsed")
    carriers = [o for o, _, _ in spans if o.winner_values]
    if not carriers:
        return None
    if len(carriers) > 1:
        return Verdict(None, "unparsed")
    labels = {normalize_label(v) for v in carriers[0].winner_values}
    if len(labels) != 1 or None in labels:
        return Verdict(None, "unparsed")
    label = labels.pop()
    statements = [normalize_label(c) for o, _, _ in spans for c in o.statements]
    prose, at = [], 0
    for _, start, end in spans:
        prose.append(text[at:start])
        at = end
    prose.append(text[at:])
    outside = "\n".join(prose)
    statements += [_CANONICAL[m.group(1).casefold()] for pattern in _PROSE_PATTERNS
                   for m in pattern.finditer(outside)]
    if any(c != label for c in statements):
        return Verdict(None, "unparsed")  # the reply names more than one label
    reason = next((v for k, v in carriers[0].items() if k.strip().casefold() == "reason"), None)
    return Verdict(label, "json", reason if isinstance(reason, str) else None)


_PROSE_PATTERNS = (_PROSE_STATEMENT_RE, _PROSE_KEYED_RE, _PROSE_BARE_RE)


def _from_fallback(text: str) -> str | None:
    """A label from a reply that is a single line holding only that label (or ``key: label``)."""
    line = text.strip()
    if "\n" in line:
        return None
    label = normalize_label(line)
    if label is not None:
        return label
    m = _KEYED_LINE_RE.match(line.strip(" \t*`"))
    return _CANONICAL[m.group(1).casefold()] if m else None


def _from_probs(label_probs: Any) -> Verdict:
    if not isinstance(label_probs, dict):
        return Verdict(None, "unparsed")
    missing = [k for k in LABELS if k not in label_probs]
    bad = [k for k in LABELS if k in label_probs and not (
        isinstance(label_probs[k], (int, float)) and not isinstance(label_probs[k], bool)
        and math.isfinite(label_probs[k]))]
    if missing or bad:
        return Verdict(None, "unparsed")  # a partial distribution names no label
    ranked = sorted(LABELS, key=lambda k: label_probs[k], reverse=True)
    if label_probs[ranked[0]] == label_probs[ranked[1]]:
        return Verdict(None, "unparsed")  # an exact tie between labels names no label
    return Verdict(ranked[0], "scored")


def parse_verdict(text: Any, label_probs: Any = None) -> Verdict:
    """Read one judge reply conservatively (see the module docstring for the statuses).

    Any value is accepted, since a stored reply may hold whatever a server sent: only text (or,
    without text, a mapping of label probabilities) can give a label."""
    if text is None and label_probs is not None:
        return _from_probs(label_probs)  # logit scoring: no text was generated
    if not isinstance(text, str) or not text.strip() or refused(text):
        return Verdict(None, "unparsed")
    from_json = _from_json(text)
    if from_json is not None:
        return from_json
    label = _from_fallback(text)
    return Verdict(label, "fallback") if label else Verdict(None, "unparsed")


# TRACE stage 1: the fixed fields of each candidate's normalized record.
TRACE_V2_FIELDS = ("final_answer", "support_facts", "reasoning_links",
                   "missing_or_weakened_support", "unsupported_claims", "residual_uncertainty")
TRACE_V1_FIELDS = ("final_answer", "answer_supported")
_SCALAR = (str, int, float, bool, type(None))


def _field_ok(name: str, value: Any) -> bool:
    if name == "final_answer":
        return isinstance(value, (str, int, float)) and not isinstance(value, bool)
    if isinstance(value, list):
        return all(isinstance(v, _SCALAR) for v in value)
    return isinstance(value, _SCALAR)


def parse_normalized(text: Any,
                     fields: tuple[str, ...] = TRACE_V2_FIELDS) -> dict[str, dict[str, Any]] | None:
    """TRACE stage-1 reply → ``{"A": record, "B": record}`` holding exactly ``fields``.

    None unless there is exactly one JSON object with both candidates, every field present and
    of a plain type (text, number, boolean, null, or a list of those; the final answer is text or
    a number). Extra keys are dropped so nothing but the fixed fields can reach stage 2.
    """
    if not isinstance(text, str) or not text.strip() or refused(text):
        return None
    try:
        carriers = [o for o in json_objects(text) if "A" in o or "B" in o]
    except _TooCostly:
        return None
    if len(carriers) != 1:
        return None
    obj = carriers[0]
    records = {}
    for side in ("A", "B"):
        rec = obj.get(side)
        if not isinstance(rec, dict):
            return None
        if any(f not in rec or not _field_ok(f, rec[f]) for f in fields):
            return None
        records[side] = {f: rec[f] for f in fields}
    return records
