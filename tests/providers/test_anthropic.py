"""The Anthropic provider against the contract emulator speaking the Messages API's rules
(``anthropic_rules``): what Claude sends, the provider's own 400 for a broken rule, prompt caching
with cache_control, retries, and message batches."""
from __future__ import annotations

import json

import pytest

import tjb_lib.judges.anthropic_api as anthropic_api
from tjb_lib.judges.prices import call_cost
from tjb_lib.judges.anthropic_api import AnthropicJudge
from tjb_lib.judges.batch import collect, submit_batch, wait
from tjb_lib.judges.provider import get
from tjb_lib.judges.retry import ProviderRejected, RetryPolicy
from tjb_lib.pairs import load_split
from tjb_lib.protocols import Spec, build_request
from tjb_lib.records import Request
from tjb_lib.runner import run

from _emulated import SPLIT, batch_with, judge_at
from fault_server import FAKE_KEY, Fault

PROVIDER = get("anthropic")
SYSTEM = "You are an impartial judge of two answers."


def verdict_request(winner: str = "B", **kw) -> Request:
    user = f"Question ... Answer A ... Answer B ... Reply in JSON. [[winner:{winner}]]"
    return Request(messages=(("system", SYSTEM), ("user", user)),
                   template="test_l0", template_version="1", **kw)


@pytest.fixture
def sleeps():
    return []


def claude(server, sleeps, max_attempts: int = 5) -> AnthropicJudge:
    return AnthropicJudge("claude-test", "claude-sonnet-4-6", server.url_for(PROVIDER),
                          retry=RetryPolicy(max_attempts=max_attempts, sleep=sleeps.append))


def test_the_provider_declares_its_host_key_and_batch_api():
    assert (PROVIDER.hosts, PROVIDER.key_env, PROVIDER.batch, PROVIDER.sdk) == \
        (("api.anthropic.com",), "ANTHROPIC_API_KEY", True, "anthropic")


def test_claude_sends_system_at_top_level_max_tokens_and_cache_control(emulator, tmp_path):
    judge = judge_at("claude-sonnet-4-6", emulator)
    run(SPLIT, "L2", judge, limit=1, out_dir=tmp_path, progress=False)
    first = emulator.requests[0].json
    assert isinstance(first["system"], str) and first["max_tokens"] and "top_p" not in first
    assert first["messages"][0]["content"][0]["cache_control"] == {"type": "ephemeral"}
    assert emulator.violations == []


def test_temperature_with_top_p_fails_with_anthropics_own_400(emulator):
    judge = judge_at("claude-sonnet-4-6", emulator)
    judge.params.update(top_p=0.9)  # past the judge's own check: what a wrong entry sends
    request = build_request(load_split(SPLIT)[0], "cited_first", Spec("ladder", "L2"))
    with pytest.raises(ProviderRejected) as err:
        judge.complete(request)
    assert err.value.status_code == 400 and "cannot both be specified" in str(err.value)
    (refused,) = emulator.violations
    assert refused["body"]["type"] == "error"
    assert refused["body"]["error"]["type"] == "invalid_request_error"


def test_cache_control_marks_the_shared_instructions_and_records_reads(emulator, monkeypatch):
    judge = judge_at("claude-sonnet-4-6", emulator)
    pairs = load_split(SPLIT)[:2]
    request = build_request(pairs[0], "cited_first", Spec("ladder", "L2"))
    body = judge.request_body(request)
    first, rest = body["messages"][0]["content"]
    assert first["cache_control"] == {"type": "ephemeral"} and "cache_control" not in rest
    assert first["text"] + rest["text"] == request.messages[-1][1]  # the same prompt, split
    assert first["text"].endswith("BEGIN TASK\n") and pairs[0].task not in first["text"]
    # the paper's instructions are far below the 1,024-token minimum: nothing is cached
    r = judge.complete(request)
    assert (r.cached_input_tokens, r.cache_write_tokens) == (0, 0)
    # with instructions long enough, the first call writes the cache and the next reads it
    long = "Reply in JSON. " + " ".join(f"rule{i}." for i in range(1200)) + "\n"
    monkeypatch.setattr(anthropic_api, "instruction_prefix", lambda name: long)
    asks = [Request(messages=(("system", "Judge."), ("user", f"{long}pair {i}")),
                    template="t", template_version="1") for i in range(2)]
    wrote, read = (judge.complete(a) for a in asks)
    assert wrote.cache_write_tokens > 1024 and wrote.cached_input_tokens == 0
    assert read.cached_input_tokens == wrote.cache_write_tokens and read.cache_write_tokens == 0
    assert read.input_tokens == wrote.input_tokens  # the total sent, cached part included
    assert call_cost(judge.model, read.input_tokens, read.output_tokens, read.cached_input_tokens,
                     read.cache_write_tokens) < call_cost(
        judge.model, wrote.input_tokens, wrote.output_tokens, wrote.cached_input_tokens,
        wrote.cache_write_tokens)


def test_the_system_prompt_is_lifted_and_usage_read(emulator, sleeps):
    judge = claude(emulator, sleeps)
    r = judge.complete(verdict_request("A", max_tokens=64))
    sent = emulator.requests[-1]
    assert sent.path == "/v1/messages"
    assert sent.json["system"] == SYSTEM
    assert [m["role"] for m in sent.json["messages"]] == ["user"]
    assert sent.json["max_tokens"] == 64 and sent.json["temperature"] == 0
    assert sent.json["model"] == "claude-sonnet-4-6"
    assert r.status == "ok" and json.loads(r.text)["winner"] == "A"
    assert r.model_returned == "claude-sonnet-4-6-2025-01-01"
    assert r.input_tokens > 0 and r.output_tokens > 0 and r.meta["stop_reason"] == "end_turn"
    assert FAKE_KEY in (sent.headers.get("x-api-key", "") + sent.headers.get("authorization", ""))


def test_overloaded_and_rate_limited_then_ok(emulator, sleeps):
    judge = claude(emulator, sleeps)
    emulator.script(["529", {"kind": "429", "retry_after": "3"}])
    r = judge.complete(verdict_request("B"))
    assert r.status == "ok" and r.attempts == 3 and sleeps[1] == 3.0
    assert [e["status_code"] for e in r.meta["retry_log"]] == [529, 429]


def test_gives_up_after_max_attempts(emulator, sleeps):
    judge = claude(emulator, sleeps, max_attempts=2)
    emulator.script(["500", "500", "500"])
    r = judge.complete(verdict_request())
    assert r.status == "failed" and r.attempts == 2 and emulator.count() == 2
    assert emulator.pending_faults() == 1


def test_roles_the_messages_api_lacks_are_refused_before_a_call(emulator, sleeps):
    bad = Request(messages=(("tool", "x"),), template="t", template_version="1")
    with pytest.raises(ValueError, match="roles \\['tool'\\]"):
        claude(emulator, sleeps).complete(bad)
    assert emulator.count() == 0


def test_a_message_batch_keeps_the_system_prompt_apart(emulator, sleeps):
    judge = claude(emulator, sleeps)
    submit_batch(judge, {"item-1": verdict_request("A")})
    created = next(r for r in emulator.requests if r.path == "/v1/messages/batches")
    (entry,) = created.json["requests"]
    assert entry["custom_id"] == "item-1"
    assert entry["params"]["system"] == SYSTEM
    assert [m["role"] for m in entry["params"]["messages"]] == ["user"]
    assert entry["params"]["temperature"] == 0


@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_a_200_whose_body_is_an_error_is_a_failed_call_that_a_rerun_tries_again(emulator,
                                                                                tmp_path, api):
    """Both APIs alike: an error body sent with HTTP 200 (a proxy's habit) is no reply at all."""
    name = "claude-sonnet-4-6" if api == "anthropic" else "gpt-5.5"
    error = ({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
             if api == "anthropic" else
             {"error": {"message": "Overloaded", "type": "server_error", "code": None}})
    emulator.script([Fault("body", body=json.dumps(error))])
    judge = judge_at(name, emulator)
    first = run(SPLIT, "L0", judge, limit=1, concurrency=1, out_dir=tmp_path, progress=False)
    assert first["decision"].iloc[0] == "failed" and (first["decision"].iloc[1:] != "failed").all()
    stored = [json.loads(x)["response"] for x in
              (tmp_path / name / "calls.jsonl").read_text().splitlines()]
    (failed,) = [r for r in stored if r["status"] == "failed"]
    assert "Overloaded" in failed["error"]  # the provider's own words, not a parse failure
    again = run(SPLIT, "L0", judge, limit=1, concurrency=1, out_dir=tmp_path, progress=False)
    assert (again["decision"] != "failed").all()
    assert again.attrs["run"]["calls"] == 1  # the failed call only


def test_claude_pins_the_api_version_that_takes_the_papers_temperature_0(emulator, tmp_path):
    judge = judge_at("claude-sonnet-4-6", emulator)
    df = run(SPLIT, "L0", judge, limit=1, out_dir=tmp_path, progress=False)
    sent = emulator.requests[0]
    assert sent.headers["anthropic-version"] == "2023-06-01" and sent.json["temperature"] == 0
    assert emulator.violations == [] and (df["decision"] != "failed").all()
    assert judge.metadata()["api_version"] == "2023-06-01"


def test_a_message_batch_under_the_pinned_version_keeps_temperature_0(emulator):
    judge = judge_at("claude-sonnet-4-6", emulator)
    requests = [build_request(p, "cited_first", Spec("ladder", "L0"))
                for p in load_split(SPLIT)[:2]]
    batch_id = submit_batch(judge, requests)
    wait(judge, batch_id, interval_s=0, sleep=lambda s: None)
    results = collect(judge, batch_id)
    assert len(results) == 2 and all(r.status == "ok" for r in results.values())
    created = next(r for r in emulator.requests if r.path == "/v1/messages/batches")
    assert created.headers["anthropic-version"] == "2023-06-01"
    assert emulator.violations == []


def test_the_sdks_own_api_version_refuses_every_sampling_parameter(emulator):
    """What the emulator enforces: the pinned SDK's default version (2026-10-21) removed them."""
    import anthropic

    client = anthropic.Anthropic(api_key=FAKE_KEY, base_url=emulator.url_for(PROVIDER),
                                 max_retries=0)
    ask = {"model": "claude-sonnet-4-6", "max_tokens": 16,
           "messages": [{"role": "user", "content": "Reply in JSON."}]}
    for param in ("temperature", "top_p", "top_k"):
        with pytest.raises(anthropic.BadRequestError, match=f"{param}: Extra inputs are not"):
            client.messages.create(**ask, extra_body={param: 0})
    assert client.messages.create(**ask).content  # no sampling parameter: answered
    assert {r.headers["anthropic-version"] for r in emulator.requests} == {"2026-10-21"}


def test_one_refused_entry_keeps_the_good_results_and_collecting_again_raises_nothing(emulator):
    refused = Request(messages=(("user", "Which is better? Reply in JSON."),
                                ("assistant", '{"winner": "')),  # a prefill: Claude 4.6's 400
                      template="t", template_version="1")
    for good, entry in batch_with(judge_at("claude-sonnet-4-6", emulator), refused):
        assert [r.status for r in good] == ["ok", "ok"]
        assert entry.status == "failed" and "invalid_request_error" in entry.error
        assert "prefill" in entry.error


def test_the_key_goes_as_x_api_key_as_api_version_2023_06_01_documents_it(emulator, sleeps):
    """Not as the SDK 2.x's bearer token: the emulator refuses a 2023-06-01 call without
    ``x-api-key``, and the judge's calls carry no Authorization header at all."""
    assert claude(emulator, sleeps).complete(verdict_request()).status == "ok"
    sent = emulator.requests[-1].headers
    assert sent["x-api-key"] == FAKE_KEY and "authorization" not in sent
    assert sent["anthropic-version"] == "2023-06-01"
