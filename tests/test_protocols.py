"""Protocols turn (pair, order, protocol setting) into the right judge calls and verdict rows."""
import json
import re

import pytest

from tjb_lib.pairs.registry import PARAPHRASE_COVERAGES, SPLIT_NAMES
from tjb_lib.pairs.registry import get as get_split
from tjb_lib.parse import TRACE_V2_FIELDS
from tjb_lib.protocols import (CLI_NAMES, ORDERS, Spec, available_templates, build_request,
                               expand, load_template, ordered_comparisons, request_key,
                               run_comparison, template_names)
from tjb_lib.protocols.requests import mask_markers, stage1_request, stage2_request
from tjb_lib.protocols.templates import parse_template
from tjb_lib.records import VERDICT_COLUMNS, Pair, Response

#: the splits whose paraphrase coverage is each kind, as the split registry declares them
COVERAGE = {kind: [s for s in SPLIT_NAMES if get_split(s).paraphrases == kind]
            for kind in PARAPHRASE_COVERAGES}
MARKER = re.compile(r"\[\s*\d+\s*\]")
TASK = "Were Scott Derrickson and Ed Wood of the same nationality?"
PLAIN = ("Yes. Scott Derrickson is an American director, screenwriter and producer. "
         "Edward Davis Wood Jr. was an American filmmaker, actor and author. "
         "Both are American, so they share a nationality.")
CITED = ("Yes. Scott Derrickson is an American director, screenwriter and producer [1]. "
         "Edward Davis Wood Jr. was an American filmmaker, actor and author [2]. "
         "Both are American, so they share a nationality.\n\n"
         "Sources:\n[1] “Scott Derrickson (Wikipedia)”, sentence 0\n"
         "[2] “Ed Wood (Wikipedia)”, sentence 0")
IDENTITY = {"backend": "scripted", "model": "test", "params": {"temperature": 0.0}}


def make_pair(**kw):
    fields = dict(pair_id="mech-hp-0001", split="mechanical_hotpotqa", source="hotpotqa",
                  source_id="5a8b57f25542995d1e6f1371", target_relation="equivalent", gold="tie",
                  task=TASK, plain=PLAIN, cited=CITED, variant="full_citation",
                  artifact="markers+sources_footer")
    fields.update(kw)
    return Pair(**fields)


def scripted(*texts, **response_fields):
    """A judge that returns the given replies in turn and remembers every request."""
    replies = list(texts)

    def call(request):
        call.requests.append(request)
        return Response(status="ok", text=replies.pop(0), input_tokens=100, output_tokens=20,
                        latency_s=0.5, **response_fields)

    call.requests = []
    return call


def user_text(request):
    return "\n".join(c for _, c in request.messages)


def all_specs():
    return {spec for name in CLI_NAMES for split in SPLIT_NAMES for spec in expand(name, split)}


# ---------------------------------------------------------------- expand and ordered comparisons

def test_single_levels_and_ladder_expand_to_the_original_wording():
    assert expand("L3", "moderate_hotpotqa") == [Spec("ladder", "L3", "p0")]
    assert [s.level for s in expand("ladder", "soft_hotpotqa")] == ["L0", "L1", "L2", "L3", "L4"]
    assert {s.paraphrase for s in expand("ladder", "moderate_finqa")} == {"p0"}


@pytest.mark.parametrize("split", COVERAGE["three_per_level"])
def test_paraphrases_give_three_per_level_on_hotpotqa_equivalence_and_correctness_splits(split):
    specs = expand("paraphrases", split)
    assert len(specs) == 15 and len(set(specs)) == 15
    assert {(s.level, s.paraphrase) for s in specs} == {
        (lv, p) for lv in ("L0", "L1", "L2", "L3", "L4") for p in ("p0", "p1", "p2")}


@pytest.mark.parametrize("split", COVERAGE["finqa_wording_check"])
def test_paraphrases_on_finqa_moderate_are_the_finqa_wording_check_set(split):
    assert expand("paraphrases", split) == [
        Spec("ladder", "L2", "finqa_a"), Spec("ladder", "L2", "finqa_b"),
        Spec("ladder", "L3", "finqa_a"), Spec("ladder", "L4", "finqa_boundary")]


def test_trace_names_and_paper_aliases_expand_to_one_setting():
    assert expand("trace_v2", "moderate_hotpotqa") == [Spec("trace_v2")]
    assert expand("decoupled_quality_v2", "moderate_hotpotqa") == [Spec("trace_v2")]
    assert expand("decoupled_v1", "conflict") == [Spec("trace_v1")]
    assert expand("trace_lite", "conflict") == [Spec("trace_lite")]


def test_unknown_protocol_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="L0.*ladder.*paraphrases.*trace_v1.*trace_v2.*trace_lite"):
        expand("L5", "moderate_hotpotqa")


def test_paraphrases_on_an_unknown_split_is_a_clear_error():
    with pytest.raises(ValueError, match="no paraphrase set for split 'humaneval_extra'"):
        expand("paraphrases", "humaneval_extra")


def test_invalid_specs_are_rejected():
    with pytest.raises(ValueError, match="protocol"):
        Spec("ladder_v9")
    with pytest.raises(ValueError, match="level"):
        Spec("ladder", "L7")
    with pytest.raises(ValueError, match="takes no level"):
        Spec("trace_v2", "L3")


def test_every_pair_is_compared_in_both_orders_in_a_fixed_sequence():
    pairs = [make_pair(pair_id=f"p{i}") for i in range(3)]
    specs = expand("ladder", "mechanical_hotpotqa")
    plan = ordered_comparisons(pairs, specs)
    assert len(plan) == 3 * 5 * 2
    assert plan == ordered_comparisons(pairs, specs)
    for pair in pairs:
        for spec in specs:
            assert sorted(o for p, o, s in plan if p is pair and s == spec) == sorted(ORDERS)
    assert [(p.pair_id, o) for p, o, _ in plan[:4]] == [
        ("p0", "cited_first"), ("p0", "plain_first"), ("p1", "cited_first"), ("p1", "plain_first")]


def test_duplicate_pair_ids_are_refused_before_any_call():
    with pytest.raises(ValueError, match="p0.*twice"):
        ordered_comparisons([make_pair(pair_id="p0"), make_pair(pair_id="p0")], [Spec("trace_v2")])


# ---------------------------------------------------------------- templates

def test_every_template_file_has_a_header_with_its_own_name_and_a_version():
    names = available_templates()
    assert names, "no prompt templates found"
    for name in names:
        tpl = load_template(name)
        assert tpl.name == name and tpl.version


def test_a_template_file_without_a_header_is_rejected_with_its_path():
    with pytest.raises(ValueError, match="prompts/bad.txt.*first line"):
        parse_template("=== system ===\nx\n=== user ===\n$task", "prompts/bad.txt")


def test_every_expandable_spec_has_its_templates():
    for spec in all_specs():
        for name in template_names(spec):
            assert load_template(name).name == name


@pytest.mark.parametrize("order", ORDERS)
def test_single_call_prompts_show_task_both_candidates_and_ask_for_the_json_schema(order):
    pair = make_pair()
    for spec in (s for s in all_specs() if s.protocol == "ladder"):
        request = build_request(pair, order, spec)
        text = user_text(request)
        assert TASK in text and PLAIN in text and CITED in text
        assert '"winner"' in text and '"reason"' in text and '"Tie"' in text
        assert request.kind == "verdict" and request.json_mode and request.temperature == 0.0
        assert request.template == f"ladder_{spec.level}_{spec.paraphrase}"
        assert request.template_version == load_template(request.template).version


def instruction(spec):
    """The level instruction of a ladder template: the text before the output format (the
    instructions come first so that their key/value cache is shared across comparisons)."""
    user = load_template(template_names(spec)[0]).user
    assert user.index("Reply with one JSON object") < user.index("BEGIN TASK")
    return user.split("Reply with one JSON object", 1)[0].lower()


def ladder_specs(level):
    return [s for s in all_specs() if s.protocol == "ladder" and s.level == level]


def test_paraphrases_of_a_level_are_worded_differently():
    for level in ("L0", "L1", "L2", "L3", "L4"):
        texts = [instruction(s) for s in ladder_specs(level)]
        assert len(set(texts)) == len(texts)


def test_l0_is_plain_preference_without_any_citation_talk():
    for spec in ladder_specs("L0"):
        text = instruction(spec)
        assert "tie" in text and re.search(r"better|stronger", text)
        assert not re.search(r"cit|source|polish|length", text)


def test_l1_warns_against_rewarding_a_cited_look():
    for spec in ladder_specs("L1"):
        text = instruction(spec)
        assert re.search(r"\bcite|cited", text) and re.search(r"\bnot\b", text)
        assert re.search(r"merely|just because|by itself|superficial", text)


def test_l2_sets_presentation_aside_unless_it_changes_correctness_or_needed_information():
    for spec in ladder_specs("L2"):
        text = instruction(spec)
        assert all(w in text for w in ("citation", "source", "label", "length", "polish"))
        assert "correct" in text and re.search(r"need|require", text)


def test_l3_lets_only_a_genuine_support_gap_break_a_correctness_tie():
    for spec in ladder_specs("L3"):
        text = instruction(spec)
        assert text.index("correct") < text.index("break the tie")
        assert re.search(r"genuine|real gap", text) and "support" in text
        assert re.search(r"not advantages|never advantages|not count|earn nothing", text)


def test_l4_demands_tie_when_the_final_answers_agree():
    for spec in ladder_specs("L4"):
        text = instruction(spec)
        assert "tie" in text and "break" not in text
        if spec.paraphrase == "finqa_boundary":
            assert "final answers match" in text
        else:
            assert "same correct final answer" in text
            assert "support" in text and "reasoning" in text  # even support gaps end in Tie


def test_candidate_a_is_the_cited_side_when_cited_is_shown_first():
    pair = make_pair()
    for order, first, second in (("cited_first", CITED, PLAIN), ("plain_first", PLAIN, CITED)):
        text = user_text(build_request(pair, order, Spec("ladder", "L0")))
        a = text.split("BEGIN CANDIDATE A\n", 1)[1].split("\nEND CANDIDATE A", 1)[0]
        b = text.split("BEGIN CANDIDATE B\n", 1)[1].split("\nEND CANDIDATE B", 1)[0]
        assert (a, b) == (first, second)


def test_build_request_refuses_two_call_protocols():
    with pytest.raises(ValueError, match="run_comparison"):
        build_request(make_pair(), "cited_first", Spec("trace_v2"))


def test_request_key_depends_on_judge_and_request():
    request = build_request(make_pair(), "cited_first", Spec("ladder", "L2"))
    other = build_request(make_pair(), "plain_first", Spec("ladder", "L2"))
    assert request_key(IDENTITY, request) == request_key(dict(IDENTITY), request)
    assert request_key(IDENTITY, request) != request_key(IDENTITY, other)
    assert request_key(IDENTITY, request) != request_key({**IDENTITY, "model": "m2"}, request)


# ---------------------------------------------------------------- single-call rows

@pytest.mark.parametrize("order, label, decision", [
    ("cited_first", "A", "cited"), ("cited_first", "B", "plain"),
    ("plain_first", "A", "plain"), ("plain_first", "B", "cited"), ("plain_first", "Tie", "tie")])
def test_ladder_row_maps_the_label_back_to_a_side(order, label, decision):
    call = scripted(json.dumps({"winner": label, "reason": "r"}), cached=True)
    row = run_comparison(make_pair(), order, Spec("ladder", "L3", "p1"), call, IDENTITY)
    assert (row["parsed"], row["parse_status"], row["decision"]) == (label, "json", decision)
    assert row["calls"] == 1 and len(call.requests) == 1
    assert row["request_hashes"] == [request_key(IDENTITY, call.requests[0])]
    assert row["templates"] == ["ladder_L3_p1"] and row["level"] == "L3"
    assert row["cached"] is True and row["normalized"] is None
    assert set(row) == set(VERDICT_COLUMNS) - {"judge", "created_at"}


def test_unparsed_reply_is_kept_raw_and_not_turned_into_a_verdict():
    call = scripted("Both look fine to me.")
    row = run_comparison(make_pair(), "cited_first", Spec("ladder", "L4"), call, IDENTITY)
    assert (row["parsed"], row["parse_status"], row["decision"]) == (None, "unparsed", "unparsed")
    assert row["raw_text"] == "Both look fine to me."


def test_failed_call_gives_a_failed_row():
    def call(request):
        return Response(status="failed", error="HTTP 500", attempts=3)

    row = run_comparison(make_pair(), "cited_first", Spec("ladder", "L0"), call, IDENTITY)
    assert (row["decision"], row["parse_status"], row["attempts"]) == ("failed", "call_failed", 3)
    assert row["input_tokens"] is None


def test_logit_scoring_fills_label_probabilities():
    call = scripted(None, label_probs={"A": 0.1, "B": 0.6, "Tie": 0.3})
    row = run_comparison(make_pair(), "plain_first", Spec("ladder", "L0"), call, IDENTITY)
    assert (row["parsed"], row["parse_status"], row["decision"]) == ("B", "scored", "cited")
    assert (row["p_a"], row["p_b"], row["p_tie"]) == (0.1, 0.6, 0.3)


def test_ranking_rows_name_the_systems_and_missing_systems_are_an_error():
    pair = make_pair(split="ranking_hotpotqa", target_relation="system", gold="none",
                     meta={"system_plain": "plain_full", "system_cited": "cited_full"})
    row = run_comparison(pair, "cited_first", Spec("ladder", "L0"), scripted("A"), IDENTITY)
    assert (row["system_plain"], row["system_cited"]) == ("plain_full", "cited_full")
    assert run_comparison(make_pair(), "cited_first", Spec("ladder", "L0"),
                          scripted("A"))["system_cited"] is None
    with pytest.raises(ValueError, match="mech-hp-0001.*system_cited"):
        run_comparison(make_pair(target_relation="system", meta={"system_plain": "x"}),
                       "cited_first", Spec("ladder", "L0"), scripted("A"))


# ---------------------------------------------------------------- TRACE

def stage1_reply(leak=""):
    rec_a = {"final_answer": "yes",
             "support_facts": ["Derrickson is American" + leak, "Wood was American"],
             "reasoning_links": ["both American, so same nationality"],
             "missing_or_weakened_support": [], "unsupported_claims": [],
             "residual_uncertainty": "none"}
    rec_b = dict(rec_a, support_facts=["Derrickson is American", "Wood was American"])
    return "```json\n" + json.dumps({"A": rec_a, "B": rec_b}) + "\n```"


@pytest.mark.parametrize("order", ORDERS)
def test_trace_makes_a_normalization_call_then_a_masked_verdict_call(order):
    call = scripted(stage1_reply(leak=" [1] [doc1:s2]"), '{"winner": "Tie", "reason": "equal"}')
    row = run_comparison(make_pair(), order, Spec("trace_v2"), call, IDENTITY)
    first, second = call.requests
    assert (first.kind, second.kind) == ("text", "verdict")
    assert row["templates"] == ["trace_v2_stage1", "trace_stage2"] == [first.template,
                                                                      second.template]
    assert PLAIN in user_text(first) and CITED in user_text(first)
    seen = user_text(second)
    assert TASK in seen
    for original in (PLAIN, CITED, "Edward Davis Wood Jr. was an American filmmaker"):
        assert original not in seen
    for artifact in ("Wikipedia", "Sources", "sentence 0", "cited", "plain", "doc1"):
        assert artifact not in seen
    assert not MARKER.search(seen)
    assert (row["calls"], row["decision"], row["parse_status"]) == (2, "tie", "json")
    assert (row["input_tokens"], row["output_tokens"], row["latency_s"]) == (200, 40, 1.0)
    assert row["request_hashes"] == [request_key(IDENTITY, r) for r in call.requests]
    norm = row["normalized"]
    assert norm["originals"] == {"cited": CITED, "plain": PLAIN}
    assert norm["records"]["A"]["support_facts"][0] == "Derrickson is American"
    assert list(norm["records"]["A"]) == list(TRACE_V2_FIELDS)
    assert norm["shown_as"]["A"] == ("cited" if order == "cited_first" else "plain")


def test_trace_stage2_label_maps_back_through_the_order():
    call = scripted(stage1_reply(), '{"winner": "B", "reason": "more complete"}')
    row = run_comparison(make_pair(), "cited_first", Spec("trace_v2"), call, IDENTITY)
    assert row["decision"] == "plain"


@pytest.mark.parametrize("reply", ['{"A": {"final_answer": "yes", "support_facts": ["Derr',
                                   "I cannot normalize these.", '{"A": {"final_answer": "yes"}}'])
def test_unparsed_stage1_stops_before_stage2_without_a_verdict(reply):
    call = scripted(reply, '{"winner": "A", "reason": "must never be asked"}')
    row = run_comparison(make_pair(), "plain_first", Spec("trace_v2"), call, IDENTITY)
    assert len(call.requests) == 1 and row["calls"] == 1
    assert (row["parsed"], row["parse_status"], row["decision"]) == (
        None, "stage1_unparsed", "unparsed")
    assert row["raw_text"] == reply and row["normalized"]["records"] is None


def test_failed_stage1_stops_before_stage2():
    requests = []

    def call(request):
        requests.append(request)
        return Response(status="failed", error="timeout")

    row = run_comparison(make_pair(), "cited_first", Spec("trace_v1"), call, IDENTITY)
    assert len(requests) == 1
    assert (row["decision"], row["parse_status"]) == ("failed", "stage1_failed")


def test_trace_v1_keeps_only_the_answer_and_whether_it_is_supported():
    reply = json.dumps({"A": {"final_answer": "yes", "answer_supported": True},
                        "B": {"final_answer": "yes", "answer_supported": True,
                              "support_facts": ["Derrickson is American"]}})
    call = scripted(reply, '{"winner": "Tie", "reason": "same"}')
    row = run_comparison(make_pair(), "cited_first", Spec("trace_v1"), call, IDENTITY)
    assert row["templates"] == ["trace_v1_stage1", "trace_stage2"]
    assert "support_facts" not in user_text(call.requests[0]).split("Reply with", 1)[1]
    assert "Derrickson is American" not in user_text(call.requests[1])
    assert row["normalized"]["records"]["B"] == {"final_answer": "yes", "answer_supported": True}


def test_stage1_prompt_asks_for_every_fixed_field():
    text = user_text(stage1_request(make_pair(), "cited_first", Spec("trace_v2")))
    assert all(f'"{field}"' in text for field in TRACE_V2_FIELDS)


def test_marker_mask_removes_reference_ids_but_keeps_years_and_numbers():
    assert mask_markers("rose 12% [1] in [2019] [S3] [doc1:s2] [1, 2]¹ 【3†source】") == \
        "rose 12% in [2019]"
    assert mask_markers(["a [4]", True]) == ["a", True]


def test_stage2_prompt_holds_only_the_task_and_the_records():
    records = {"A": {"final_answer": "42"}, "B": {"final_answer": "41"}}
    request = stage2_request(make_pair(), records)
    text = user_text(request)
    assert '"final_answer": "42"' in text and '"final_answer": "41"' in text
    assert request.template == "trace_stage2" and request.kind == "verdict"


# ---------------------------------------------------------------- TRACE-lite

def test_trace_lite_makes_one_call_on_stripped_candidates():
    pytest.importorskip("tjb_lib.pairs.strip", reason="TRACE-lite needs tjb_lib.pairs.strip")
    call = scripted('{"winner": "Tie", "reason": "same"}')
    row = run_comparison(make_pair(), "cited_first", Spec("trace_lite"), call, IDENTITY)
    assert len(call.requests) == 1 and row["calls"] == 1
    request = call.requests[0]
    assert request.template == "trace_lite_judge" and request.kind == "verdict"
    text = user_text(request)
    assert TASK in text and "Edward Davis Wood Jr. was an American filmmaker" in text
    assert not MARKER.search(text) and "Sources:" not in text and "Wikipedia" not in text
    assert row["decision"] == "tie"
    assert set(row["normalized"]["stripped"]) == {"A", "B"}
    assert not MARKER.search(row["normalized"]["stripped"]["A"])
    assert build_request(make_pair(), "cited_first", Spec("trace_lite")) == request
