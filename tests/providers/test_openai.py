"""The OpenAI provider against the contract emulator speaking OpenAI's rules (``openai_rules``):
what gpt-5.5 sends, the provider's own 400 for a broken rule, reasoning tokens, prompt caching,
and the batch API."""
from __future__ import annotations

import json

import pytest

from tjb_lib.judges.prices import call_cost, rates
from tjb_lib.judges.batch import custom_id_for, submit_batch
from tjb_lib.judges.openai_api import OpenAIJudge
from tjb_lib.judges.provider import get
from tjb_lib.judges.retry import ProviderRejected
from tjb_lib.pairs import load_split
from tjb_lib.parse import parse_verdict
from tjb_lib.protocols import Spec, build_request
from tjb_lib.records import Request
from tjb_lib.runner import run

from _emulated import SPLIT, batch_with, judge_at

PROVIDER = get("openai")

def json_ask(max_tokens: int = 256) -> Request:
    return Request(messages=(("system", "Judge fairly."),
                             ("user", "Which is better? Reply in JSON. [[winner:B]]")),
                   template="t", template_version="1", max_tokens=max_tokens)


def test_the_provider_declares_its_host_key_batch_api_and_cached_price_steps():
    assert (PROVIDER.hosts, PROVIDER.key_env, PROVIDER.batch) == \
        (("api.openai.com",), "OPENAI_API_KEY", True)
    price = rates("gpt-5.5")
    assert (price.batch_discount, price.cache_min_tokens, price.cache_step_tokens) == \
        (0.5, 1024, 128)


def test_gpt_5_5_sends_max_completion_tokens_no_reasoning_temperature_0_and_logprobs(
        emulator, tmp_path):
    judge = judge_at("gpt-5.5", emulator)
    df = run(SPLIT, "L2", judge, limit=1, out_dir=tmp_path, progress=False)
    first = emulator.requests[0].json
    assert first["max_completion_tokens"] and first["reasoning_effort"] == "none"
    assert first["temperature"] == 0 and first["logprobs"] is True and "max_tokens" not in first
    assert first["response_format"] == {"type": "json_object"}
    assert df["p_a"].notna().all() and emulator.violations == []


BROKEN = [
    # (how the body is broken, words of OpenAI's message)
    ({"max_tokens_param": "max_tokens"}, "param: max_tokens"),
    ({"reasoning_effort": None}, "param: temperature"),
    ({"reasoning_effort": "minimal"}, "param: reasoning_effort"),
]


@pytest.mark.parametrize("change,words", BROKEN, ids=[next(iter(b[0])) for b in BROKEN])
def test_a_broken_rule_fails_with_openais_own_400(emulator, change, words):
    judge = judge_at("gpt-5.5", emulator)
    judge.params.update(change)  # past the judge's own checks: what a wrong catalog entry sends
    request = build_request(load_split(SPLIT)[0], "cited_first", Spec("ladder", "L2"))
    with pytest.raises(ProviderRejected) as err:
        judge.complete(request)
    assert err.value.status_code == 400 and words in str(err.value)
    (refused,) = emulator.violations
    assert refused["body"]["error"]["type"] == "invalid_request_error"


def test_json_mode_without_the_word_json_is_refused(emulator):
    bare = Request(messages=(("user", "Which answer is better, A or B?"),), template="t",
                   template_version="1")
    with pytest.raises(ProviderRejected, match="must contain the word 'json'"):
        judge_at("gpt-5.5", emulator).complete(bare)


def test_reasoning_settings_drop_temperature_and_count_reasoning_tokens(emulator):
    judge = OpenAIJudge("gpt", "gpt-5.5", emulator.url_for(PROVIDER),
                        params={"temperature": None, "max_tokens_param": "max_completion_tokens",
                                "reasoning_effort": "low"})
    r = judge.complete(json_ask(300))
    sent = emulator.requests[-1].json
    assert "temperature" not in sent and "max_tokens" not in sent
    assert sent["max_completion_tokens"] == 300 and sent["reasoning_effort"] == "low"
    assert r.status == "ok" and r.reasoning_tokens == 64 and r.output_tokens > 64


def test_a_small_cap_spent_on_reasoning_returns_no_answer_and_is_counted_unparsed(emulator):
    judge = OpenAIJudge("gpt", "gpt-5.5", emulator.url_for(PROVIDER),
                        params={"temperature": None, "max_tokens_param": "max_completion_tokens",
                                "reasoning_effort": "medium"})
    r = judge.complete(json_ask(256))
    assert r.status == "ok" and r.text == "" and r.meta["finish_reason"] == "length"
    assert r.reasoning_tokens == r.output_tokens == 256
    assert parse_verdict(r.text).status == "unparsed"


def test_caching_of_a_long_shared_prefix_is_recorded_and_priced_cheaper(emulator):
    judge = judge_at("gpt-5.5", emulator)
    prefix = "Judge carefully and reply in JSON. " + " ".join(f"rule{i}" for i in range(1500))
    first, second = (judge.complete(Request(messages=(("user", f"{prefix} pair {i}"),),
                                            template="t", template_version="1"))
                     for i in range(2))
    assert first.cached_input_tokens == 0
    assert second.cached_input_tokens >= 1024 and second.cached_input_tokens % 128 == 0
    full = call_cost("gpt-5.5", second.input_tokens, second.output_tokens)
    cached = call_cost("gpt-5.5", second.input_tokens, second.output_tokens,
                       second.cached_input_tokens)
    assert cached < full


def test_a_batch_uploads_the_same_bodies_complete_would_send(emulator):
    judge = judge_at("gpt-5.5", emulator)
    requests = [build_request(p, "cited_first", Spec("ladder", "L0"))
                for p in load_split(SPLIT)[:2]]
    submit_batch(judge, requests + [requests[0]])  # a duplicate is sent once
    upload = next(r for r in emulator.requests if r.path == "/v1/files")
    assert b'name="purpose"' in upload.body and b"batch" in upload.body
    (file_bytes,) = emulator.files.values()
    lines = [json.loads(x) for x in file_bytes.decode().splitlines()]
    assert len(lines) == 2
    for line, r in zip(lines, requests):
        assert line["custom_id"] == custom_id_for(judge, r)
        assert line["method"] == "POST" and line["url"] == "/v1/chat/completions"
        assert line["body"] == judge.request_body(r)
        assert line["body"]["response_format"] == {"type": "json_object"}
    created = next(r for r in emulator.requests if r.path == "/v1/batches")
    assert created.json["endpoint"] == "/v1/chat/completions"
    assert created.json["completion_window"] == "24h"


def test_a_batch_that_fails_validation_stores_its_errors_as_each_requests_cause(emulator,
                                                                               tmp_path):
    emulator.batch_token_limit = 10  # the organization's enqueued-token limit: the file is over
    emulator.batch_polls_to_complete = 1
    judge = judge_at("gpt-5.5", emulator)
    df = run(SPLIT, "L0", judge, limit=2, batch=True, out_dir=tmp_path, progress=False)
    assert df.attrs["run"]["batched"] == 4 and (df["decision"] == "failed").all()
    stored = [json.loads(x)["response"] for x in
              (tmp_path / "gpt-5.5" / "calls.jsonl").read_text().splitlines()]
    assert len(stored) == 4 and all(
        r["status"] == "failed" and "failed validation" in r["error"]
        and "token_limit_exceeded" in r["error"] and "Enqueued token limit reached" in r["error"]
        for r in stored)
    emulator.batch_token_limit = None  # once the organization's queue has room
    again = run(SPLIT, "L0", judge, limit=2, batch=True, out_dir=tmp_path, progress=False)
    assert again.attrs["run"]["batched"] == 4 and (again["decision"] != "failed").all()


def test_a_batch_run_reports_what_its_batch_results_cost_at_the_batch_price(emulator, tmp_path):
    """The results a run collects from a batch are paid by that run: its summary once said
    "$0.0000 spent by this run" after a batch of four calls."""
    emulator.batch_polls_to_complete = 1
    df = run(SPLIT, "L0", judge_at("gpt-5.5", emulator), limit=2, batch=True, out_dir=tmp_path,
             progress=False)
    stored = [json.loads(x)["response"] for x in
              (tmp_path / "gpt-5.5" / "calls.jsonl").read_text().splitlines()]
    tokens = [(r["input_tokens"], r["output_tokens"]) for r in stored]
    r = df.attrs["run"]
    assert r["batched"] == 4 and r["calls"] == 0 and all(n > 0 for t in tokens for n in t)
    assert (r["input_tokens"], r["output_tokens"]) == tuple(map(sum, zip(*tokens)))
    assert r["usd"] == pytest.approx(sum(call_cost("gpt-5.5", i, o, batch=True) for i, o in tokens))
    assert 0 < r["usd"] < sum(call_cost("gpt-5.5", i, o) for i, o in tokens)  # the discount


def test_one_refused_line_keeps_the_good_results_and_collecting_again_raises_nothing(emulator):
    refused = Request(messages=(("user", "Which answer is better, A or B?"),), template="t",
                      template_version="1")  # JSON mode without the word: OpenAI's 400
    for good, line in batch_with(judge_at("gpt-5.5", emulator), refused):
        assert [r.status for r in good] == ["ok", "ok"]
        assert line.status == "failed" and line.meta["status_code"] == 400
        assert "HTTP 400" in line.error and "must contain the word 'json'" in line.error
