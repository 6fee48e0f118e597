"""Hostile 200 replies for the fault server: content of every shape, bodies that are not JSON or
are cut off, and texts naming conflicting labels. None may crash anything or become a verdict.

Each entry is (id, OpenAI fault, Anthropic fault); the prompt asks for winner A, so a reply read
as any label at all was coerced.
"""
from __future__ import annotations

from fault_server import Fault

CONFLICTING_TEXTS = [
    '{"winner": "A"}\nFinal answer: B',
    '{"result": {"winner": "A"}, "winner": "B"}',
    '{"winner": "B"} {"verdict": "A"}',
    '{"winner": "A", "verdict": "Tie"}',
    '{"winner": "A", "scores": [{"winner": "B"}]}',
    'Winner: B\n{"winner": "A"}',
    '{"winner": "A"}\nFinal answer: b',   # a lower-case label after an explicit key
    '{"winner": "A"}\nWinner → B',        # an arrow for the key-value sign
    '{"winner": "A", "reason": "close"}\n\nB',  # a bare label line after the JSON
    '**B**\n```json\n{"winner": "A"}\n```',
]


def _both(content):
    """The same content in both dialects: OpenAI's content field, Anthropic's text block."""
    return (Fault("content", content=content),
            Fault("content", content=[{"type": "text", "text": content}]))


HOSTILE: list[tuple[str, Fault, Fault]] = [
    ("content_number", Fault("content", content=5), Fault("content", content=5)),
    ("content_float", Fault("content", content=0.5), Fault("content", content=0.5)),
    ("content_bool", Fault("content", content=True), Fault("content", content=True)),
    ("content_null", Fault("content", content=None), Fault("content", content=None)),
    ("content_object", Fault("content", content={"winner": "A"}),
     Fault("content", content={"type": "text", "text": "A"})),
    ("content_bare_label", Fault("content", content=["A"]), Fault("content", content="A")),
    ("parts_text_number", Fault("content", content=[{"type": "text", "text": 5}]),
     Fault("content", content=[{"type": "text", "text": 5}])),
    ("parts_without_text", Fault("content", content=[{"type": "image_url", "image_url": {}}]),
     Fault("content", content=[{"type": "thinking", "thinking": "A"}])),
    ("parts_conflicting", Fault("content", content=[{"type": "text", "text": '{"winner": "A"}'},
                                                    {"type": "text", "text": "\nVerdict: B"}]),
     Fault("content", content=[{"type": "text", "text": '{"winner": "A"}'},
                               {"type": "text", "text": "\nVerdict: B"}])),
    ("body_html", Fault("body", body="<html><body>502 Bad Gateway</body></html>"),
     Fault("body", body="<html><body>502 Bad Gateway</body></html>")),
    ("body_cut_off", Fault("body", body='{"id": "x", "choices": [{"message": {"content": "{\\"w'),
     Fault("body", body='{"id": "x", "content": [{"type": "text", "text": "{\\"winner\\": \\"A')),
    ("body_label_string", Fault("body", body='"A"'), Fault("body", body='"A"')),
    ("body_list", Fault("body", body='[{"winner": "A"}]'), Fault("body", body='[{"winner": "A"}]')),
    ("body_empty", Fault("body", body=""), Fault("body", body="")),
    ("choices_not_a_list", Fault("body", body='{"choices": "A"}'),
     Fault("body", body='{"content": {"text": "A"}}')),
    *[(f"conflict_{i}", *_both(text)) for i, text in enumerate(CONFLICTING_TEXTS)],
]

#: Units of 1 MB replies built to make a JSON scan re-read the text from every "{": one byte,
#: unclosed nesting, keys whose values open the next object, thousands of objects side by side.
HOSTILE_MB_UNITS = ["{", '{"a":', '{"a":[', '{"":{', '{ "', '{"a":"{', "{\n", '[{"a":',
                    '{"winner": "A"} ', '{"reason": "x", "winner": "A", "s": [1, {"k": true}]} x {']


def megabyte_of(unit: str) -> str:
    return (unit * (1_000_000 // len(unit) + 1))[:1_000_000]
