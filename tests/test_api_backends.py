"""The API judges with the real openai/anthropic SDKs over HTTP against the local contract
emulator (``fault_server``): the shared reply reading, retry policy, keys and endpoints (what one
provider sends is tested in ``tests/providers/``).

Every fault must end in a correct verdict, a recorded failure, or (for a request the provider will
never accept) a ``FatalJudgeError`` with the provider's message, with the expected number of
attempts; the retry sleeps are recorded instead of slept, so the suite stays fast.
"""
from __future__ import annotations

import json
import math
import random
import threading
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import pytest

from tjb_lib.judges.anthropic_api import AnthropicJudge
from tjb_lib.judges.catalog import get_judge
from tjb_lib.judges.endpoints import MissingAPIKey, UnusableEndpoint, endpoint_id, kind
from tjb_lib.judges.openai_api import OpenAIJudge, label_probs_from_logprobs
from tjb_lib.judges.retry import ProviderRejected, RetryPolicy, classify, parse_retry_after
from tjb_lib.parse import parse_verdict
from tjb_lib.records import Request

from fault_server import FAKE_KEY, tokenize  # noqa: E402
SYSTEM = "You are an impartial judge of two answers."
LOCAL = "http://localhost:9/v1"  # never called


def verdict_request(winner: str = "B", **kw) -> Request:
    user = f"Question ... Answer A ... Answer B ... Reply in JSON. [[winner:{winner}]]"
    return Request(messages=(("system", SYSTEM), ("user", user)),
                   template="test_l0", template_version="1", **kw)


@pytest.fixture
def keys(monkeypatch):
    """The key for a non-provider endpoint (the emulator); the providers' own keys are set to
    something else, which must never reach it."""
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", FAKE_KEY)
    monkeypatch.setenv("OPENAI_API_KEY", "provider-openai-key-must-stay-home")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "provider-anthropic-key-must-stay-home")


@pytest.fixture
def sleeps():
    return []


def openai_judge(server, sleeps, **kw) -> OpenAIJudge:
    policy = RetryPolicy(max_attempts=kw.pop("max_attempts", 5), sleep=sleeps.append,
                         retry_after_cap_s=kw.pop("cap", 120.0))
    return OpenAIJudge("gpt-test", "gpt-4o-mini", base_url=server.openai_url, retry=policy, **kw)


# ---- OpenAI: the happy path ------------------------------------------------------------------

def test_openai_reply_carries_verdict_usage_snapshot_and_metadata(fault_server, keys, sleeps):
    judge = openai_judge(fault_server, sleeps)
    r = judge.complete(verdict_request("B", max_tokens=77))
    assert r.status == "ok" and r.attempts == 1 and not sleeps
    assert json.loads(r.text)["winner"] == "B"
    assert r.model_returned == "gpt-4o-mini-2025-01-01"
    sent = fault_server.requests[-1]
    prompt = SYSTEM + "\n" + sent.json["messages"][1]["content"]
    assert r.input_tokens == len(tokenize(prompt)) and r.output_tokens > 0
    assert r.cached_input_tokens == 0 and r.reasoning_tokens == 0
    assert r.meta["system_fingerprint"] == "fp_faultserver"
    assert r.meta["finish_reason"] == "stop" and r.meta["id"].startswith("chatcmpl-")
    assert sent.path == "/v1/chat/completions"
    assert sent.json["temperature"] == 0 and sent.json["max_tokens"] == 77
    assert sent.json["messages"][0] == {"role": "system", "content": SYSTEM}
    assert sent.headers["authorization"] == f"Bearer {FAKE_KEY}"
    assert r.label_probs is None and "logprobs" not in sent.json


def test_openai_sends_json_mode_only_when_the_request_asks(fault_server, keys, sleeps):
    judge = openai_judge(fault_server, sleeps)
    judge.complete(verdict_request(json_mode=True))
    judge.complete(verdict_request(json_mode=False, kind="text"))
    first, second = fault_server.requests
    assert first.json["response_format"] == {"type": "json_object"}
    assert "response_format" not in second.json


def test_openai_logprobs_become_label_probs(fault_server, keys, sleeps):
    judge = openai_judge(fault_server, sleeps, params={"logprobs": True, "top_logprobs": 5})
    r = judge.complete(verdict_request("Tie"))
    sent = fault_server.requests[-1].json
    assert sent["logprobs"] is True and sent["top_logprobs"] == 5
    assert r.label_probs == pytest.approx({"Tie": 0.8, "A": 0.15, "B": 0.04})
    assert r.meta["label_token_index"] == 6  # {  "  winner  "  :  ␣"  Tie


def test_label_probs_take_the_first_token_when_reply_is_not_json():
    content = [{"token": " B", "logprob": -0.1,
                "top_logprobs": [{"token": " B", "logprob": -0.1},
                                 {"token": "A", "logprob": -2.5},
                                 {"token": "Both", "logprob": -4.0}]}]
    probs, index = label_probs_from_logprobs(content)
    assert index == 0
    assert probs == pytest.approx({"B": 0.904837, "A": 0.082085}, rel=1e-5)
    assert label_probs_from_logprobs([]) == (None, None)


def test_a_tie_split_over_tokens_is_read_from_its_first_token():
    content = [{"token": t, "logprob": -0.01} for t in ('{"', "winner", '":', ' "')] + [
        {"token": "A", "logprob": -0.2, "top_logprobs": [{"token": "A", "logprob": -0.2},
                                                          {"token": "T", "logprob": -2.0},
                                                          {"token": "B", "logprob": -3.0},
                                                          {"token": "The", "logprob": -4.0}]}]
    probs, index = label_probs_from_logprobs(content)
    assert index == 4 and set(probs) == {"A", "B", "Tie"}
    assert probs["Tie"] == pytest.approx(math.exp(-2.0))  # "T" starts only "Tie"; "The" no label


# ---- faults ----------------------------------------------------------------------------------

def test_one_429_then_ok_takes_two_attempts_and_honours_retry_after(fault_server, keys, sleeps):
    judge = openai_judge(fault_server, sleeps)
    fault_server.script([{"kind": "429", "retry_after": "7"}])
    r = judge.complete(verdict_request("A"))
    assert r.status == "ok" and r.attempts == 2 and json.loads(r.text)["winner"] == "A"
    assert sleeps == [7.0]
    assert r.meta["retry_log"][0]["kind"] == "rate_limit"
    # the retry resent the very same body
    assert list(fault_server.counts_by_body().values()) == [2]


def test_retry_after_as_http_date_is_capped(fault_server, keys, sleeps):
    judge = openai_judge(fault_server, sleeps, cap=30.0)
    in_an_hour = format_datetime(datetime.now(timezone.utc) + timedelta(hours=1), usegmt=True)
    fault_server.script([{"kind": "429", "retry_after": in_an_hour}])
    r = judge.complete(verdict_request())
    assert r.status == "ok" and r.attempts == 2 and sleeps == [30.0]


def test_429_without_retry_after_falls_back_to_jittered_backoff(fault_server, keys, sleeps):
    judge = openai_judge(fault_server, sleeps)
    fault_server.script([{"kind": "429", "retry_after": None}] * 2)
    r = judge.complete(verdict_request())
    assert r.status == "ok" and r.attempts == 3
    assert 0 <= sleeps[0] <= 1.0 and 0 <= sleeps[1] <= 2.0


def test_500_every_time_fails_after_max_attempts(fault_server, keys, sleeps):
    judge = openai_judge(fault_server, sleeps, max_attempts=4)
    fault_server.script(["500"] * 4)
    r = judge.complete(verdict_request())
    assert r.status == "failed" and r.attempts == 4 and r.text is None
    assert "500" in r.error and r.meta["error_kind"] == "server"
    assert fault_server.count("/v1/chat/completions") == 4
    assert len(sleeps) == 3  # no sleep after the last attempt
    assert all(0 <= s <= 2 ** i for i, s in enumerate(sleeps))


def test_slow_reply_times_out_and_is_retried(fault_server, keys, sleeps):
    judge = openai_judge(fault_server, sleeps, timeout_s=0.3)
    fault_server.script([{"kind": "slow", "delay_s": 1.5}])
    r = judge.complete(verdict_request("Tie"))
    # a second attempt, the first ended by the timeout: it did not wait for the slow reply
    assert r.status == "ok" and r.attempts == 2 and json.loads(r.text)["winner"] == "Tie"
    assert r.meta["retry_log"][0]["kind"] == "transport"
    assert "Timeout" in r.meta["retry_log"][0]["error"]


@pytest.mark.parametrize("api", ["openai", "anthropic"])
def test_a_body_trickled_past_the_timeout_fails_the_attempt_and_is_retried(fault_server, keys,
                                                                          sleeps, api):
    """The timeout bounds the whole call, not each read: every piece of this body comes sooner
    than the timeout, but all of it comes later."""
    policy = RetryPolicy(sleep=sleeps.append)
    judge = (openai_judge(fault_server, sleeps, timeout_s=1.0) if api == "openai" else
             AnthropicJudge("c", "claude-sonnet-4-6", fault_server.anthropic_url, timeout_s=1.0,
                            retry=policy))
    fault_server.script([{"kind": "trickle", "delay_s": 4.0}])
    r = judge.complete(verdict_request("Tie"))
    # the first attempt failed in transport although each piece came within the timeout: the
    # timeout bounded the whole call (a per-read timeout would have taken the trickled body)
    assert r.status == "ok" and r.attempts == 2 and json.loads(r.text)["winner"] == "Tie"
    assert r.meta["retry_log"][0]["kind"] == "transport"


def test_dropped_connection_is_retried(fault_server, keys, sleeps):
    judge = openai_judge(fault_server, sleeps)
    fault_server.script(["drop", "503"])
    r = judge.complete(verdict_request())
    assert r.status == "ok" and r.attempts == 3
    assert [e["kind"] for e in r.meta["retry_log"]] == ["transport", "server"]


def test_a_refused_key_stops_with_the_providers_message_after_one_call(fault_server, keys,
                                                                        sleeps):
    judge = openai_judge(fault_server, sleeps)
    fault_server.script(["auth_echo"])
    with pytest.raises(ProviderRejected) as err:
        judge.complete(verdict_request())
    assert err.value.status_code == 401 and not sleeps and fault_server.count() == 1
    assert "HTTP 401" in str(err.value) and "Incorrect API key provided" in str(err.value)
    assert FAKE_KEY not in str(err.value)  # the server echoed the key; the message must not


@pytest.mark.parametrize("fault", ["truncated_json", "prose", "unknown_label"])
def test_unparseable_reply_is_ok_with_raw_text_and_parses_as_unparsed(fault_server, keys, sleeps,
                                                                      fault):
    judge = openai_judge(fault_server, sleeps)
    fault_server.script([fault])
    r = judge.complete(verdict_request("A"))
    assert r.status == "ok" and r.attempts == 1 and r.text
    assert r.text != json.dumps({"winner": "A"})
    v = parse_verdict(r.text)
    assert v.status == "unparsed" and v.label is None


# ---- configuration and keys -------------------------------------------------------------------

def test_missing_key_names_the_variable(fault_server, monkeypatch, sleeps):
    monkeypatch.delenv("MY_JUDGE_KEY", raising=False)
    judge = OpenAIJudge("gpt-test", "gpt-4o-mini", api_key_env="MY_JUDGE_KEY",
                        base_url="https://api.deepseek.com/v1")
    with pytest.raises(MissingAPIKey, match="MY_JUDGE_KEY"):
        judge.complete(verdict_request())
    anth = AnthropicJudge("c", "claude-sonnet-4-6", "https://api.anthropic.com",
                          api_key_env="MY_JUDGE_KEY")
    with pytest.raises(MissingAPIKey, match="MY_JUDGE_KEY"):
        anth.complete(verdict_request())
    assert fault_server.count() == 0


def test_localhost_endpoint_runs_without_a_key(fault_server, monkeypatch, sleeps):
    monkeypatch.delenv("VLLM_KEY", raising=False)
    judge = openai_judge(fault_server, sleeps, api_key_env="VLLM_KEY")
    r = judge.complete(verdict_request())
    assert r.status == "ok"
    assert fault_server.requests[-1].headers["authorization"] == "Bearer EMPTY"


def test_the_endpoint_called_is_in_the_identity_and_the_metadata(fault_server, keys, sleeps):
    local = openai_judge(fault_server, sleeps)
    port = fault_server.url.rsplit(":", 1)[1]
    assert local.identity() == {"backend": "openai", "model": "gpt-4o-mini",
                                "params": {"temperature": 0},
                                "endpoint": f"http://localhost:{port}/v1"}
    assert local.metadata()["endpoint_host"] == "127.0.0.1"
    assert local.metadata()["endpoint_kind"] == "localhost"
    plain = OpenAIJudge("gpt", "gpt-4o-mini", "https://api.openai.com/v1")
    assert plain.identity()["endpoint"] == "https://api.openai.com/v1"
    proxy = OpenAIJudge("gpt", "gpt-4o-mini", base_url="https://proxy.example.org:8443/v1/")
    assert proxy.identity()["endpoint"] == "https://proxy.example.org:8443/v1"
    assert proxy.api_key_env == "OPENAI_COMPATIBLE_API_KEY"
    assert kind("https://api.deepseek.com/v1") == "deepseek"
    assert kind("https://api.openai.com/v1") == "openai"
    assert kind("https://api.anthropic.com") == "anthropic"
    assert kind("http://localhost:8000/v1") == "localhost"
    assert kind("https://llm.example.org/v1") == "other"
    assert endpoint_id("http://127.0.0.1:8123/v1") == "http://localhost:8123/v1"  # the port too


def test_sdk_base_url_variables_cannot_send_a_provider_key_elsewhere(fault_server, keys,
                                                                    monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", fault_server.openai_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fault_server.anthropic_url)
    gpt, claude = get_judge("gpt-5.5"), get_judge("claude-sonnet-4-6")
    assert str(gpt.client.base_url).startswith("https://api.openai.com/v1")
    assert str(claude.client.base_url).startswith("https://api.anthropic.com")
    assert gpt.identity()["endpoint"] == "https://api.openai.com/v1"
    with pytest.raises(UnusableEndpoint, match=r"refusing to send \$OPENAI_API_KEY to 127.0.0.1"):
        OpenAIJudge("gpt", "gpt-5.5", base_url=fault_server.openai_url,
                    api_key_env="OPENAI_API_KEY")
    with pytest.raises(UnusableEndpoint, match="ANTHROPIC_API_KEY"):
        AnthropicJudge("c", "claude-sonnet-4-6", base_url="https://proxy.example.org",
                       api_key_env="ANTHROPIC_API_KEY")
    assert fault_server.count() == 0


@pytest.mark.parametrize("url", ["not a url", "ftp://host/v1", "http://", "localhost:8000/v1",
                                 "http://host:port/v1"])
def test_an_unusable_base_url_is_refused_before_any_call(url):
    with pytest.raises(UnusableEndpoint, match="cannot be called|port"):
        OpenAIJudge("vllm", "served", base_url=url)


def test_unknown_param_is_a_clear_error():
    with pytest.raises(ValueError, match="judge 'gpt'.*'temprature'"):
        OpenAIJudge("gpt", "gpt-4o-mini", LOCAL, params={"temprature": 0})
    with pytest.raises(ValueError, match="judge 'c'.*'logprobs'"):
        AnthropicJudge("c", "claude-sonnet-4-6", LOCAL, params={"logprobs": True})
    with pytest.raises(ValueError, match="temperature or top_p, not both"):
        AnthropicJudge("c", "claude-sonnet-4-6", LOCAL, params={"temperature": 0, "top_p": 0.9})


def test_concurrent_calls_share_one_client(fault_server, keys, sleeps):
    # each pair of calls is answered only once both are in flight: one at a time would never be
    fault_server.meet = threading.Barrier(2, timeout=120)  # (the timeout: a guard, not a measure)
    judge = openai_judge(fault_server, sleeps)
    results = [None] * 16

    def work(i):
        results[i] = judge.complete(verdict_request(("A", "B", "Tie")[i % 3], max_tokens=100 + i))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not fault_server.meet.broken  # every call met another in flight: they overlapped
    assert all(r.status == "ok" for r in results)
    assert [json.loads(r.text)["winner"] for r in results] == [("A", "B", "Tie")[i % 3]
                                                              for i in range(16)]
    assert len(fault_server.counts_by_body()) == 16  # no call sent twice


# ---- the retry policy on its own ------------------------------------------------------------

def test_retry_after_parsing():
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=timezone.utc)
    assert parse_retry_after("12", now) == 12.0
    assert parse_retry_after("Wed, 01 Jan 2025 12:00:30 GMT", now) == 30.0
    assert parse_retry_after("Wed, 01 Jan 2025 11:00:00 GMT", now) == 0.0
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after(None, now) is None


def test_backoff_is_full_jitter_and_seeded():
    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=8.0)
    rng_a, rng_b, rng_c = random.Random("0:k"), random.Random("0:k"), random.Random("0:other")
    a = [policy.backoff_s(n, rng_a) for n in range(1, 7)]
    b = [policy.backoff_s(n, rng_b) for n in range(1, 7)]
    c = [policy.backoff_s(n, rng_c) for n in range(1, 7)]
    assert a == b and a != c
    assert all(0 <= d <= min(8.0, 2 ** (n - 1)) for n, d in zip(range(1, 7), a))
    assert len(set(a)) == len(a)


def test_classify_sorts_plain_exceptions():
    assert classify(ValueError("x")).retry is False
    assert classify(TimeoutError("x")).kind == "transport"
