"""The verdict parser reads a label only when the reply names exactly one, never invents Tie, and
takes time linear in the reply's length."""
import signal
import time

import pytest

from tjb_lib.parse import (MAX_DEPTH, MAX_REPLY_CHARS, TRACE_V1_FIELDS, TRACE_V2_FIELDS,
                           Verdict, normalize_label, parse_normalized, parse_verdict)

from _hostile import HOSTILE_MB_UNITS


@pytest.mark.parametrize("text, label", [
    ('{"winner": "A", "reason": "more complete support"}', "A"),
    ('{"winner": "tie", "reason": "same answer"}', "Tie"),
    ('{"winner": " B ", "reason": "x"}', "B"),
    ('{"Winner": "Response B", "reason": "x"}', "B"),
    ('```json\n{"winner": "B", "reason": "the chain is complete"}\n```', "B"),
    ('Looking at both candidates, B is better.\n{"winner": "B", "reason": "x"}\nThat is all.', "B"),
    ('{"winner": "Tie", "reason": "nested {\\"not\\": \\"json\\"}", "extra": {"k": [1, 2]}}', "Tie"),
    ('{"winner": "A", "winner": "A"}', "A"),
])
def test_one_json_object_with_a_valid_winner_is_read_as_json(text, label):
    verdict = parse_verdict(text)
    assert verdict == Verdict(label, "json", verdict.reason)


def test_json_reason_is_kept_and_non_text_reason_dropped():
    assert parse_verdict('{"winner": "A", "reason": "complete chain"}').reason == "complete chain"
    assert parse_verdict('{"winner": "A", "reason": 3}').reason is None


@pytest.mark.parametrize("text, label", [
    ("A", "A"), ("B", "B"), ("Tie", "Tie"), ("tie", "Tie"), (" B \n", "B"), ("TIE.", "Tie"),
    ("**B**", "B"), ('"A"', "A"), ("Response A", "A"),
    ("Winner: B", "B"), ("winner: tie", "Tie"), ("Verdict: A", "A"), ("**Winner:** B", "B"),
    ("Final verdict = Tie", "Tie"),
])
def test_a_reply_that_is_only_a_label_line_is_a_strict_fallback(text, label):
    assert parse_verdict(text) == Verdict(label, "fallback", None)


@pytest.mark.parametrize("text", [
    '{"winner": "A", "reason": "the first candidate gives',          # truncated JSON
    '```json\n{"winner": "B", "reason": "complete',                   # truncated inside a fence
    "Both candidates are fine, but A is slightly better overall.",   # prose
    "I think the answer is A because B lacks support.",              # prose naming two labels
    '{"winner": "C", "reason": "x"}',                                 # unknown label
    '{"winner": "both", "reason": "x"}',                              # unknown label
    '{"winner": "equal", "reason": "x"}',                             # not a label, not "tie"
    '{"winner": "A|B|Tie", "reason": "<brief explanation>"}',        # echoed schema
    '{"winner": null}',
    '{"winner": "A", "winner": "B"}',                                 # duplicate key, conflicting
    '{"winner": "A", "reason": "x"}\n{"winner": "B", "reason": "y"}',  # two conflicting objects
    '{"winner": "A"} {"winner": "A"}',                                # two objects, even agreeing
    '{"verdict": {"winner": "A"}}',                                   # winner not at top level
    '{"reason": "no winner key"}',
    "Winner: B\nReason: B is better",                                 # more than one line
    "Winner: A or B",
    "C", "both", "none", "", "   ", None,
])
def test_anything_else_is_unparsed_and_has_no_label(text):
    assert parse_verdict(text) == Verdict(None, "unparsed", None)


@pytest.mark.parametrize("text", ["A", "B", "Winner: A", '{"winner": "B"}', "both", "equal",
                                  "neither", "same", "draw?", "no preference"])
def test_tie_is_never_produced_from_a_reply_that_does_not_say_tie(text):
    assert parse_verdict(text).label != "Tie"


def test_label_probabilities_without_text_are_scored_by_argmax():
    assert parse_verdict(None, {"A": 0.2, "B": 0.7, "Tie": 0.1}) == Verdict("B", "scored")


def test_an_empty_generated_reply_is_unparsed_even_with_token_probabilities():
    # an API reply with empty content is a reply that said nothing: stored raw, never scored
    assert parse_verdict("", {"A": 0.2, "B": 0.1, "Tie": 0.7}) == Verdict(None, "unparsed")


def test_an_exact_probability_tie_names_no_label():
    assert parse_verdict(None, {"A": 0.4, "B": 0.4, "Tie": 0.2}).status == "unparsed"


def test_text_wins_over_probabilities_when_both_are_present():
    assert parse_verdict("A", {"A": 0.1, "B": 0.8, "Tie": 0.1}) == Verdict("A", "fallback")


def test_partial_or_non_finite_label_probabilities_are_unparsed_not_an_exception():
    # e.g. an API's top-logprobs list that lacks a label: counted as unparsed, run goes on
    assert parse_verdict(None, {"A": 0.5, "B": 0.4}) == Verdict(None, "unparsed")
    assert parse_verdict(None, {"A": float("nan"), "B": 0.5, "Tie": 0.1}) == Verdict(None, "unparsed")


def test_normalize_label_accepts_case_and_spacing_variants_only():
    assert [normalize_label(v) for v in ("a", " B ", "TIE", "Candidate b")] == ["A", "B", "Tie", "B"]
    assert [normalize_label(v) for v in ("AB", "tied", "A and B", 1, None)] == [None] * 5


def _v2_record(answer):
    return ('{"final_answer": "%s", "support_facts": ["f"], "reasoning_links": ["l"], '
            '"missing_or_weakened_support": [], "unsupported_claims": [], '
            '"residual_uncertainty": "none"}' % answer)


def test_normalized_records_parse_when_both_candidates_have_every_field():
    text = 'Here:\n```json\n{"A": %s, "B": %s}\n```' % (_v2_record("yes"), _v2_record("no"))
    records = parse_normalized(text)
    assert set(records) == {"A", "B"}
    assert records["A"]["final_answer"] == "yes" and records["B"]["final_answer"] == "no"
    assert list(records["A"]) == list(TRACE_V2_FIELDS)


def test_normalized_records_drop_keys_outside_the_fixed_fields():
    text = '{"A": {"final_answer": "7%%", "answer_supported": true, "source": "Doc 1"}, ' \
           '"B": {"final_answer": "7%%", "answer_supported": false}}'.replace("%%", "%")
    records = parse_normalized(text, TRACE_V1_FIELDS)
    assert records == {"A": {"final_answer": "7%", "answer_supported": True},
                       "B": {"final_answer": "7%", "answer_supported": False}}


@pytest.mark.parametrize("text", [
    None, "", "no json here",
    '{"A": %s}' % _v2_record("yes"),                                            # B missing
    '{"A": %s, "B": {"final_answer": "no"}}' % _v2_record("yes"),              # fields missing
    '{"A": %s, "B": %s' % (_v2_record("yes"), _v2_record("no")),               # truncated
    '{"A": %s, "B": "no"}' % _v2_record("yes"),                                 # B not a record
    '{"A": %s, "B": %s}\n{"A": %s, "B": %s}' % ((_v2_record("y"), _v2_record("n")) * 2),
    '{"A": %s, "B": %s}' % (_v2_record("yes"), _v2_record("no").replace(
        '"support_facts": ["f"]', '"support_facts": {"nested": 1}')),          # not plain
])
def test_incomplete_or_ambiguous_stage1_replies_give_none(text):
    assert parse_normalized(text) is None


@pytest.mark.parametrize("text", [
    '{"winner": "A"}\nFinal answer: B',                           # a JSON verdict, then another
    '{"result": {"winner": "A"}, "winner": "B"}',                  # a nested winner disagrees
    '{"winner": "B"} {"verdict": "A"}',                            # a second object's label
    '{"winner": "A", "verdict": "B"}',                             # another label key, same object
    '{"winner": "A", "final_decision": "Tie"}',
    '{"winner": "A", "scores": [{"winner": "B"}]}',                # nested in a list
    '{"winner": "A", "detail": {"winner": null}}',                 # a nested winner with no label
    'Winner: B\n```json\n{"winner": "A"}\n```',                    # a keyed line before the JSON
    '{"winner": "Tie", "reason": "x"}\n**Verdict:** A',
    '{"winner": "A"}\nThe winner is B.',
    '{"winner": "B", "reason": "x"}\nDecision = A',
    '{"winner": "A"}\nFinal answer - Tie',
    '{"winner": "A"}\nFinal answer: b',                            # lower case after a key sign
    '{"winner": "A"}\nWinner → B',                                 # an arrow
    '{"winner": "A"} Winner -> b.',
    '{"winner": "A", "reason": "x"}\n\nB',                        # a bare label line
    '**Tie**\n```json\n{"winner": "A"}\n```',
])
def test_a_reply_naming_conflicting_labels_is_unparsed(text):
    assert parse_verdict(text) == Verdict(None, "unparsed", None)


@pytest.mark.parametrize("text, label", [
    ('{"winner": "A", "reason": "x"}\nFinal answer: A', "A"),     # the same label, said twice
    ('The answer is B.\n{"winner": "B"}', "B"),
    ('{"winner": "A", "reason": "its final answer: B is unsupported"}', "A"),  # inside a string
    ('{"winner": "A", "answer": "Paris"}', "A"),                  # a key whose value is no label
    ('Answer A: cites two sources.\nAnswer B: plain.\n{"winner": "B"}', "B"),
    ('{"winner": "Tie", "verdict": "tie"}', "Tie"),
    ('{"winner": "A"}\nThe answer: a good one, well cited.', "A"),  # the article, mid-line
    ('{"winner": "B"}\nFinal answer: b', "B"),
])
def test_labels_that_agree_or_are_not_label_statements_still_parse(text, label):
    assert parse_verdict(text).label == label


@pytest.mark.parametrize("reply", [5, 0.5, True, ["A"], [{"type": "text", "text": "A"}],
                                   {"winner": "A"}, b'{"winner": "A"}'])
def test_a_reply_that_is_not_text_is_unparsed_not_an_exception(reply):
    assert parse_verdict(reply) == Verdict(None, "unparsed", None)
    assert parse_normalized(reply) is None


@pytest.mark.parametrize("probs", ["A", ["A", "B", "Tie"], {"A": "0.9", "B": 0.1, "Tie": 0.0}])
def test_label_probabilities_of_another_shape_are_unparsed(probs):
    assert parse_verdict(None, probs) == Verdict(None, "unparsed", None)


@pytest.mark.parametrize("unit", HOSTILE_MB_UNITS)
def test_a_reply_just_under_the_cap_parses_within_a_second_of_cpu_and_names_no_label(unit):
    text = (unit * (MAX_REPLY_CHARS // len(unit) + 1))[:MAX_REPLY_CHARS - 1]

    def too_slow(*_):
        raise TimeoutError("parsing 256 KB took more than 20 s of wall time")

    previous = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(20)  # bounded even where the parse is quadratic (160 s for the first unit)
    try:
        cpu = [time.thread_time()]
        verdict = parse_verdict(text)
        cpu.append(time.thread_time())
        records = parse_normalized(text)
        cpu.append(time.thread_time())
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert cpu[1] - cpu[0] <= 1.0 and cpu[2] - cpu[1] <= 1.0
    assert verdict.label is None and records is None


@pytest.mark.parametrize("megabytes", [1, 10, 100])
def test_a_reply_past_the_cap_is_unparsed_whatever_it_holds(megabytes):
    """A verdict at the start and 1, 10 or 100 MB after it: refused, not read."""
    text = '{"winner": "A"}' + " " * (megabytes << 20)
    assert parse_verdict(text) == Verdict(None, "unparsed", None)
    assert parse_normalized('{"A": {}, "B": {}}' + " " * (megabytes << 20)) is None


def test_nesting_past_the_depth_cap_is_unparsed_and_ordinary_nesting_is_read():
    deep = '{"winner": "A", "x": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1)
    assert parse_verdict(deep) == Verdict(None, "unparsed", None)
    quoted = '{"winner": "A", "reason": "' + "{[" * 500 + '"}'  # brackets inside a string
    assert parse_verdict(quoted).label == "A"
    shallow = '{"winner": "B", "x": ' * 3 + "1" + "}" * 3
    assert parse_verdict(shallow).label == "B"


def test_a_verdict_after_ordinary_amounts_of_braces_and_prose_still_parses():
    prose = "Candidate A writes {x} and {\"y\": [1, 2} twice. " * 200  # 10 KB, 200 tries
    assert parse_verdict(prose + '{"winner": "B", "reason": "x"}') == Verdict("B", "json", "x")
    assert parse_verdict("{" * 50 + '{"winner": "A"}').label == "A"
    assert parse_verdict("{" * 5000 + '{"winner": "A"}').label is None  # past the depth cap
