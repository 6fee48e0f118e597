"""What the HTTP transport of every API judge refuses, against the fault server: a status line
and headers trickled a byte at a time past the call's deadline (once 72 s with a 2 s timeout),
100 MB of reply sent as 100 KB of gzip (once stored whole), and a redirect to another host
(once followed silently, with the key)."""
from __future__ import annotations

import pytest

from tjb_lib.judges.openai_api import OpenAIJudge
from tjb_lib.judges.retry import ProviderRejected, RetryPolicy
from tjb_lib.records import Request

from fault_server import FAKE_KEY, Fault  # noqa: E402

REQ = Request(messages=(("user", "pair text [[winner:A]] reply in JSON"),), template="t",
              template_version="1")


@pytest.fixture
def judge(fault_server, monkeypatch):
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", FAKE_KEY)
    j = OpenAIJudge("g", "gpt-4o-mini", base_url=fault_server.openai_url, timeout_s=2.0,
                    retry=RetryPolicy(max_attempts=1, sleep=lambda s: None))
    assert j.complete(REQ).status == "ok"  # the client is up; what follows is the fault alone
    return j


def test_a_status_line_trickled_a_byte_a_second_ends_at_the_deadline(fault_server, judge):
    fault_server.script([Fault("trickle_head", delay_s=1.0)])
    got = judge.complete(REQ)
    # a byte every second never trips a 2 s read timeout: only the call's own deadline ends it
    # (without one this call would wait the 42 minutes the 2,550 bytes take)
    assert got.status == "failed" and "timed out" in got.error


def test_a_gzip_bomb_is_refused_not_inflated(fault_server, judge):
    fault_server.script([Fault("gzip_bomb")])
    got = judge.complete(REQ)
    assert got.status == "failed" and got.text is None


def test_a_redirect_is_not_followed(fault_server, judge):
    fault_server.script([Fault("redirect")])
    with pytest.raises(ProviderRejected, match="HTTP 302"):
        judge.complete(REQ)
    assert [r.fault for r in fault_server.requests][-1] == "redirect"  # one request, no second


ERROR_BODY = '{"error": {"message": "The server had an error", "type": "server_error"}}'


def test_a_200_carrying_an_error_body_is_retried_as_a_5xx_is(fault_server, judge):
    """It was stored failed after one attempt, though the README says it is retried."""
    judge.retry = RetryPolicy(max_attempts=3, sleep=lambda s: None)
    fault_server.script([Fault("body", body=ERROR_BODY)] * 2)
    got = judge.complete(REQ)
    assert got.status == "ok" and got.attempts == 3
    fault_server.script([Fault("body", body=ERROR_BODY)] * 3)
    got = judge.complete(REQ)
    assert got.status == "failed" and got.attempts == 3 and "server had an error" in got.error
