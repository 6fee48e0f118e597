"""Any 200 reply shape ends as a verdict, unparsed or failed, is stored with its raw body, and
never crashes a later read, rerun or replay: real SDKs over HTTP against the fault server."""
from __future__ import annotations

import json

import pytest

import tjb_lib.pairs
from tjb_lib.judges.anthropic_api import AnthropicJudge
from tjb_lib.judges.openai_api import OpenAIJudge
from tjb_lib.judges.retry import RetryPolicy
from tjb_lib.parse import parse_verdict
from tjb_lib.records import Request, Response
from tjb_lib.runner import run
from tjb_lib.store import ResponseStore

from _hostile import HOSTILE
from _runner_helpers import SPLIT, ScriptedJudge, make_pairs
from fault_server import FAKE_KEY, Fault

REQUEST = Request(messages=(("system", "Judge."),
                             ("user", "Which is better? Reply in JSON. [[winner:A]]")),
                  template="test_l0", template_version="1")


def _judges(server):
    once = RetryPolicy(max_attempts=1, sleep=lambda s: None)
    return {"openai": OpenAIJudge("o", "gpt-test", base_url=server.openai_url, retry=once,
                                  params={"logprobs": True}),
            "anthropic": AnthropicJudge("a", "claude-test", base_url=server.anthropic_url,
                                        retry=once)}


@pytest.mark.parametrize("dialect", ["openai", "anthropic"])
@pytest.mark.parametrize("case", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_reply_is_no_verdict_and_keeps_its_body(fault_server, monkeypatch, case,
                                                           dialect):
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    _, openai_fault, anthropic_fault = case
    fault = openai_fault if dialect == "openai" else anthropic_fault
    fault_server.script([fault])
    response = _judges(fault_server)[dialect].complete(REQUEST)
    assert response.status in ("ok", "failed")
    assert parse_verdict(response.text, response.label_probs).label is None
    if response.text is None:  # nothing read as text: the body as the server sent it is kept
        kept = response.meta["raw_body"]
        assert kept == fault.body if fault.kind == "body" else json.loads(kept)["id"]
    json.dumps(response.to_dict())  # storable as it is


@pytest.mark.parametrize("dialect", ["openai", "anthropic"])
def test_text_parts_and_plain_text_are_read_as_the_reply(fault_server, monkeypatch, dialect):
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    judge = _judges(fault_server)[dialect]
    fault_server.script([Fault("content", content=[{"type": "text", "text": '{"winner": '},
                                                   {"type": "text", "text": '"B"}'}])])
    assert parse_verdict(judge.complete(REQUEST).text).label == "B"
    assert parse_verdict(judge.complete(REQUEST).text).label == "A"  # the server's own reply


@pytest.fixture
def pairs(monkeypatch):
    ps = make_pairs(len(HOSTILE))
    monkeypatch.setattr(tjb_lib.pairs, "load_split", lambda name: list(ps), raising=False)
    return ps


def test_hostile_replies_become_unparsed_rows_that_rerun_and_replay_without_a_call(
        fault_server, pairs, tmp_path):
    judge = _judges(fault_server)["openai"]
    fault_server.script([openai for _, openai, _ in HOSTILE])  # the first call of each pair
    df = run(SPLIT, "L0", judge, out_dir=tmp_path, progress=False, concurrency=1)
    hostile = df.iloc[: len(HOSTILE)]
    assert set(hostile["decision"]) <= {"unparsed", "failed"} and hostile["parsed"].isna().all()
    assert (df.iloc[len(HOSTILE):]["parse_status"] == "json").all()
    stored = {r["key"]: r["response"] for r in ResponseStore(tmp_path / "o").records()}
    for hashes, raw in zip(hostile["request_hashes"], hostile["raw_text"]):
        response = stored[hashes[0]]
        assert response["text"] is not None or response["meta"]["raw_body"] == raw
    n_failed = int((df["decision"] == "failed").sum())
    sent = fault_server.count("/v1/chat/completions")
    again = run(SPLIT, "L0", judge, out_dir=tmp_path, progress=False, concurrency=1)
    assert fault_server.count("/v1/chat/completions") == sent + n_failed  # failures only
    replay = run(SPLIT, "L0", judge, out_dir=tmp_path, progress=False, replay_only=True)
    assert list(replay["decision"]) == list(again["decision"])


class OldStoreJudge(ScriptedJudge):
    """Answers as an older adapter stored replies: whatever content came, as the text."""

    SHAPES = [5, 0.5, ["A"], [{"type": "text", "text": "A"}], {"winner": "A"}, None, True]

    def complete(self, request: Request) -> Response:
        text = self.SHAPES[self.n_calls % len(self.SHAPES)]
        self.n_calls += 1
        return Response(status="ok", text=text)


def test_records_already_in_an_old_store_replay_as_unparsed_rows(pairs, tmp_path):
    run(SPLIT, "L1", OldStoreJudge(), out_dir=tmp_path, progress=False, limit=4)
    log = tmp_path / "scripted" / "calls.jsonl"
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    for rec in lines:  # fields of other shapes and a field this version does not know
        rec["response"].update(finish_detail={"kind": "stop"}, input_tokens="12",
                               label_probs="A" if rec["response"]["text"] is None else [0.9],
                               meta=None, latency_s="1 s")
    log.write_text("".join(json.dumps(r) + "\n" for r in lines))
    (tmp_path / "scripted" / "calls.index.json").unlink()
    judge = ScriptedJudge()
    df = run(SPLIT, "L1", judge, out_dir=tmp_path, progress=False, limit=4, replay_only=True)
    assert judge.n_calls == 0 and len(df) == 8
    assert set(df["decision"]) == {"unparsed"} and df["parsed"].isna().all()


def test_a_ten_megabyte_reply_is_stored_cut_to_the_cap_and_its_row_keeps_an_excerpt(
        fault_server, pairs, tmp_path):
    """The store keeps the reply up to the parser's cap and its true length (it once kept all
    of it); the rows file keeps the first ``ROW_TEXT_CHARS`` and says where the rest is."""
    from tjb_lib.parse import MAX_REPLY_CHARS
    from tjb_lib.protocols.run import ROW_TEXT_CHARS

    reply = "y" * 10_000_000  # 10 MB, no verdict in it (one token: the server stays quick)
    fault_server.script([Fault("content", content=[{"type": "text", "text": reply}])])
    judge = _judges(fault_server)["anthropic"]  # no logprobs: the body is the reply, 10 MB
    df = run(SPLIT, "L0", judge, limit=1, out_dir=tmp_path, progress=False, concurrency=1)
    assert df["decision"].iloc[0] == "unparsed"
    stored = {r["key"]: r["response"] for r in ResponseStore(tmp_path / "a").records()}
    kept = stored[df["request_hashes"].iloc[0][0]]
    assert kept["text"] == reply[:MAX_REPLY_CHARS] and kept["meta"]["text_chars"] == len(reply)
    row_text = df["raw_text"].iloc[0]
    assert row_text.startswith(reply[:ROW_TEXT_CHARS]) and "whole reply is in the store" in row_text
    rows_file = tmp_path / "a" / f"{SPLIT}.L0.jsonl"
    assert rows_file.stat().st_size < 2 * ROW_TEXT_CHARS + 10_000
    total = sum(p.stat().st_size for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert total < MAX_REPLY_CHARS + 100_000  # the reply is on disk once, cut to the cap
