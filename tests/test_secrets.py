"""An API key reaches the provider and nothing else: not the judge's repr, identity or metadata,
not a Response, not any file written under outputs (store log, index, run metadata)."""
from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from tjb_lib.judges.anthropic_api import AnthropicJudge
from tjb_lib.judges.batch import collect, submit_batch, wait
from tjb_lib.judges.openai_api import OpenAIJudge
from tjb_lib.judges.retry import ProviderRejected, RetryPolicy, redact
from tjb_lib.metadata import write_run_metadata
from tjb_lib.records import Request, request_key
from tjb_lib.store import ResponseStore

from fault_server import FAKE_KEY  # noqa: E402
FRAGMENT = "FAKEKEY1234567890"  # a masked-but-partial leak would still show this

FAULTS = ["ok", {"kind": "429", "retry_after": "1"}, "auth_echo", "500", "truncated_json"]


def req(i: int) -> Request:
    return Request(messages=(("system", "Judge."), ("user", f"pair {i}, in JSON [[winner:A]]")),
                   template="test_l0", template_version="1")


def leaks(text: str) -> bool:
    return FAKE_KEY in text or FRAGMENT in text


@pytest.fixture
def judges(fault_server, monkeypatch):
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", FAKE_KEY)  # the emulator is no provider host
    policy = RetryPolicy(max_attempts=2, sleep=lambda s: None)
    return [OpenAIJudge("gpt-test", "gpt-4o-mini", base_url=fault_server.openai_url,
                        retry=policy, params={"logprobs": True}),
            AnthropicJudge("claude-test", "claude-sonnet-4-6",
                           base_url=fault_server.anthropic_url, retry=policy)]


def run_calls(judge, fault_server):
    """Every fault once (the 500 is scripted twice so it gives up), then a batch round trip. The
    echoed key comes back in a 401, which stops a run: its message is what the run prints."""
    calls = []
    for i, fault in enumerate(FAULTS):
        fault_server.script([fault, fault] if fault == "500" else [fault])
        try:
            calls.append((req(i), judge.complete(req(i))))
        except ProviderRejected as e:
            assert e.status_code == 401 and not leaks(str(e)), e
    batch_id = submit_batch(judge, [req(10), req(11)])
    wait(judge, batch_id, interval_s=1, sleep=lambda s: None)
    results = collect(judge, batch_id)
    calls += [(req(i), results[k]) for i, k in zip((10, 11), sorted(results))]
    return calls


def test_the_key_reaches_the_server_and_nothing_the_judge_exposes(fault_server, judges):
    for judge in judges:
        calls = run_calls(judge, fault_server)
        statuses = [r.status for _, r in calls]
        assert statuses.count("failed") == 1 and statuses.count("ok") == len(calls) - 1
        for text in (repr(judge), str(judge), repr(vars(judge)),
                     json.dumps(judge.identity()), json.dumps(judge.metadata())):
            assert not leaks(text), text
        for _, response in calls:
            assert not leaks(json.dumps(response.to_dict())), response
    # not vacuous: the key did travel to the provider, and the server echoed it back once each
    sent = [r.headers.get("authorization", "") + r.headers.get("x-api-key", "")
            for r in fault_server.requests]
    assert all(FAKE_KEY in s for s in sent)
    assert sum(r.fault == "auth_echo" for r in fault_server.requests) == 2


def test_no_file_written_under_outputs_contains_the_key(fault_server, judges, tmp_path):
    import pandas as pd

    outputs = tmp_path / "outputs"
    for judge in judges:
        calls = run_calls(judge, fault_server)
        with ResponseStore(outputs / "raw_outputs" / judge.name) as store:
            for request, response in calls:
                store.put(request_key(judge.identity(), request), judge.identity(), request,
                          response)
        rows = pd.DataFrame({"decision": ["cited"] * len(calls), "calls": [1] * len(calls)})
        now = datetime.now(timezone.utc)
        write_run_metadata(judge, "test_split", "L0", rows, now, now,
                           returned_models=[r.model_returned for _, r in calls],
                           out_dir=outputs / "metadata")
    files = [p for p in outputs.rglob("*") if p.is_file()]
    logs = [p for p in files if p.name == "calls.jsonl"]
    metadata = [p for p in files if p.parent.name == "metadata" and p.suffix == ".json"]
    assert len(logs) == 2 and len(metadata) == 2  # not vacuous: both judges wrote both
    for path in files:
        data = path.read_bytes()
        assert FAKE_KEY.encode() not in data and FRAGMENT.encode() not in data, path


def test_redact_masks_key_shaped_strings_and_given_secrets(monkeypatch):
    assert redact(f"bad key {FAKE_KEY} given") == "bad key sk-[redacted] given"
    assert redact("Bearer abcdef123456", ("abcdef123456",)) == "Bearer [redacted]"
    key = "-".join(("sk", "ant", "api03", "ZZZZZZZZZZ"))  # no key-shaped literal in the repo
    assert redact(f"{key} rejected") == "sk-ant-[redacted] rejected"
    monkeypatch.setenv("DEEPSEEK_API_KEY", "d" * 32)  # no key shape: found by its value
    assert redact("task-force " + "d" * 32) == "task-force [redacted $DEEPSEEK_API_KEY]"


def test_a_key_a_reply_echoes_reaches_no_file_rows_included(fault_server, tmp_path,
                                                             monkeypatch, capsys):
    """A 200 whose reply quotes the Authorization header it was sent: the store held it redacted
    but the rows file held it in full. It is redacted once, before anything is written, and
    every file of the run (store, rows, metadata) is free of it."""
    from tjb_lib import cli, paths

    from _bad_inputs import judge_argv, make_root

    root = make_root(tmp_path)
    monkeypatch.setattr(paths, "SPLITS", root / "data" / "splits")
    monkeypatch.setattr(paths, "RAW_OUTPUTS", root / "outputs" / "raw_outputs")
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", FAKE_KEY)
    fault_server.script(["echo", "echo"])
    assert cli.main(judge_argv(fault_server.url, limit="1")) == 0
    assert not leaks(capsys.readouterr().out)
    assert [r.fault for r in fault_server.requests] == ["echo", "echo"]
    files = [p for p in (root / "outputs").rglob("*") if p.is_file()]
    rows = [p for p in files if p.name.endswith(".L0.jsonl")]
    assert len(rows) == 1 and "[redacted $OPENAI_COMPATIBLE_API_KEY]" in rows[0].read_text()
    for path in files:
        assert FAKE_KEY.encode() not in path.read_bytes(), path
