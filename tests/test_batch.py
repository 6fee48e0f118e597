"""Batch mode over HTTP: the real SDKs submit, poll and collect against the local fault server."""
from __future__ import annotations

import json

import pytest

from tjb_lib.judges.anthropic_api import AnthropicJudge
from tjb_lib.judges.base import Judge
from tjb_lib.judges.batch import (BatchError, collect, custom_id_for, poll, submit_batch, wait)
from tjb_lib.judges.openai_api import OpenAIJudge
from tjb_lib.judges.provider import registered
from tjb_lib.judges.retry import RetryPolicy
from tjb_lib.records import Request, Response, request_key

from fault_server import FAKE_KEY  # noqa: E402


#: the providers with a batch API, as the registry declares them (each needs a judge below)
BATCH = [name for name, provider in registered().items() if provider.batch]


def req(winner: str, extra: str = "") -> Request:
    return Request(messages=(("system", "Judge fairly."),
                             ("user", f"Pair text {extra} [[winner:{winner}]] Reply in JSON.")),
                   template="test_l2", template_version="1")


@pytest.fixture
def judges(fault_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    policy = RetryPolicy(max_attempts=3, sleep=lambda s: None)
    return {
        "openai": OpenAIJudge("gpt-test", "gpt-4o-mini", base_url=fault_server.openai_url,
                              retry=policy),
        "anthropic": AnthropicJudge("claude-test", "claude-sonnet-4-6",
                                    base_url=fault_server.anthropic_url, retry=policy),
    }


@pytest.mark.parametrize("provider", BATCH)
def test_batch_round_trip_gives_verdicts_and_failed_lines(fault_server, judges, provider):
    judge = judges[provider]
    requests = [req("A"), req("B"), req("Tie", "[[fault:500]]")]
    batch_id = submit_batch(judge, requests)
    first = poll(judge, batch_id)
    assert not first.done
    slept = []
    final = wait(judge, batch_id, interval_s=5, sleep=slept.append)
    assert final.done and slept == []  # the server finishes on the second poll
    results = collect(judge, batch_id)
    ids = [custom_id_for(judge, r) for r in requests]
    assert set(results) == set(ids)
    for cid, winner in zip(ids[:2], ("A", "B")):
        r = results[cid]
        assert r.status == "ok" and json.loads(r.text)["winner"] == winner
        assert r.model_returned == judge.model + "-2025-01-01"
        assert r.input_tokens > 0 and r.output_tokens > 0
        assert r.meta["batch_id"] == batch_id
    failed = results[ids[2]]
    assert failed.status == "failed" and failed.text is None
    assert "Internal server error" in failed.error


@pytest.mark.parametrize("provider", BATCH)
def test_damaged_result_lines_are_stored_failed_with_their_bytes_and_the_rest_kept(
        fault_server, judges, provider):
    """Line 1 cut in half (its custom id still readable), line 3 not JSON at all: the three
    other paid results are kept (one damaged line once discarded all five)."""
    judge = judges[provider]
    requests = [req(w, str(i)) for i, w in enumerate("ABABA")]
    damage = {1: lambda x: x[: len(x) // 2], 3: lambda x: "garbage \x00 from a proxy"}
    fault_server.damage_result_line = lambda i, x: damage.get(i, lambda y: y)(x)
    batch_id = submit_batch(judge, requests)
    wait(judge, batch_id, interval_s=1, sleep=lambda s: None)
    ids = [custom_id_for(judge, r) for r in requests]
    results = collect(judge, batch_id, ids)
    statuses = {cid: results[cid].status for cid in ids}
    assert list(statuses.values()).count("ok") == 3, statuses
    cut = next(r for r in results.values() if r.meta.get("damaged_line") == 2)
    assert cut.status == "failed" and cut.text and '"custom_id"' in cut.text
    lost = [r for r in results.values() if r.text and "garbage" in r.text]
    assert len(lost) == 1 and lost[0].status == "failed" and "named no request" in lost[0].error


@pytest.mark.parametrize("provider", BATCH)
def test_collect_before_the_batch_is_done_is_an_error(fault_server, judges, provider):
    fault_server.batch_polls_to_complete = 100
    judge = judges[provider]
    batch_id = submit_batch(judge, [req("A")])
    with pytest.raises(BatchError, match="not done"):
        collect(judge, batch_id)
    with pytest.raises(BatchError, match="still"):
        wait(judge, batch_id, interval_s=10, timeout_s=30, sleep=lambda s: None)


def test_batch_calls_retry_a_rate_limit_and_give_up_with_a_clear_error(fault_server, judges):
    slept = []
    judge = AnthropicJudge("claude-test", "claude-sonnet-4-6", base_url=fault_server.anthropic_url,
                           retry=RetryPolicy(max_attempts=2, sleep=slept.append))
    fault_server.script([{"kind": "429", "retry_after": "4", "path": "/v1/messages/batches"}])
    batch_id = submit_batch(judge, [req("A")])
    assert batch_id.startswith("msgbatch_") and slept == [4.0]
    assert fault_server.counts_by_path()["/v1/messages/batches"] == 2
    openai_judge = judges["openai"]
    fault_server.script([{"kind": "500", "path": "/v1/batches"}] * 3)
    with pytest.raises(BatchError, match="batch create failed after 3 attempt"):
        submit_batch(openai_judge, [req("A")])


def test_custom_id_is_the_response_store_key(judges):
    judge = judges["openai"]
    r = req("A")
    assert len(custom_id_for(judge, r)) == 64
    assert custom_id_for(judge, r) == request_key(judge.identity(), r)


def test_batch_refuses_judges_without_a_batch_api():
    class Local(Judge):
        backend = "local_hf"

        def complete(self, request: Request) -> Response:
            return Response(status="ok", text="A")

    with pytest.raises(TypeError, match="no batch API"):
        submit_batch(Local("smol", "smollm2"), [req("A")])
