"""``python -m tjb_lib check``: one tiny real call against the contract emulator, reported."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tjb_lib.run.check import probe, probe_request
from tjb_lib.judges.catalog import get_judge, judges
from tjb_lib.judges.provider import get

from fault_server import FAKE_KEY, SNAPSHOT_SUFFIX, FaultServer  # noqa: E402

JUDGES = judges()
REPO = Path(__file__).resolve().parent.parent


def _check(server: FaultServer, name: str) -> subprocess.CompletedProcess:
    url = server.url_for(get(JUDGES[name].provider))
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return subprocess.run([sys.executable, "-m", "tjb_lib", "check", "--judge", name,
                           "--base-url", url, "--pairs", "2"], capture_output=True, text=True,
                          timeout=300, env={**env, "PYTHONPATH": str(REPO),
                                            "OPENAI_COMPATIBLE_API_KEY": FAKE_KEY})


def test_the_probe_is_a_real_protocol_request_and_reports_what_came_back(fault_server,
                                                                         monkeypatch):
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", FAKE_KEY)
    request = probe_request()
    assert request.template == "ladder_L0_p0" and "JSON" in request.messages[-1][1]
    found = probe(get_judge("gpt-5.5", base_url=fault_server.openai_url))
    assert found["status"] == "ok" and found["json_verdict"] and found["label"] in ("A", "B", "Tie")
    assert found["model_returned"] == "gpt-5.5" + SNAPSHOT_SUFFIX
    assert found["label_probs"] and found["reasoning_tokens"] == 0
    assert fault_server.count("/v1/chat/completions") == 1


@pytest.mark.parametrize("name", ["gpt-5.5", "claude-sonnet-4-6", "deepseek-v4-flash"])
def test_check_command_reports_the_endpoint_and_the_price_per_1000_comparisons(name):
    with FaultServer() as server:
        done = _check(server, name)
        assert server.violations == []
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"endpoint answered as '{JUDGES[name].model}{SNAPSHOT_SUFFIX}'" in out
    assert "JSON verdict: yes" in out
    if name == "claude-sonnet-4-6":
        assert "label probabilities: not asked" in out
    else:
        assert "P(" in out
    assert "estimated dollars per 1,000 ordered comparisons" in out
    assert "trace_v2" in out and "usd_per_1000_list" in out


def test_check_of_a_model_the_endpoint_lacks_is_one_error_line():
    with FaultServer() as server:
        server.missing_models.add("gpt-5.5")
        done = _check(server, "gpt-5.5")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("error: ") and "HTTP 404" in done.stderr


def _check_args(server: FaultServer, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return subprocess.run([sys.executable, "-m", "tjb_lib", "check", *args], capture_output=True,
                          text=True, timeout=300, env={**env, "PYTHONPATH": str(REPO),
                                                       "OPENAI_COMPATIBLE_API_KEY": FAKE_KEY})


def test_a_check_that_got_no_answer_says_so_instead_of_reporting_a_reply():
    with FaultServer() as server:
        server.script([{"kind": "429", "retry_after": "0"}] * 5)  # every attempt refused
        done = _check_args(server, "--judge", "gpt-5.5", "--base-url", server.openai_url,
                           "--pairs", "2")
    assert done.returncode == 1
    out = done.stdout
    assert "no answer came" in out and "5 attempt" in out and "RateLimitError" in out
    for claim in ("answered as", "JSON verdict", "tokens:", "label probabilities"):
        assert claim not in out, claim


def test_check_refuses_zero_pairs_in_one_line_before_any_call():
    with FaultServer() as server:
        done = _check_args(server, "--judge", "gpt-5.5", "--base-url", server.openai_url,
                           "--pairs", "0")
        assert server.count() == 0
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == ["error: --pairs must be at least 1, got 0"]


#: four keys in the environment, as a person with every provider's key has them
KEYS = {"OPENAI_COMPATIBLE_API_KEY": FAKE_KEY, "OPENAI_API_KEY": "sk-proj-" + "o" * 40,
        "ANTHROPIC_API_KEY": "sk-ant-api03-" + "a" * 40, "DEEPSEEK_API_KEY": "d" * 32}


@pytest.mark.parametrize("how", ["echo", "all four"])
def test_check_prints_no_key_an_endpoint_echoes_in_its_model_id_or_reply(how):
    """The header the call sent (``echo``), or every key of the environment, quoted in the
    model id and in the reply: ``check`` prints the reply, but redacted as the store is."""
    quoted = " ".join(KEYS.values())
    body = json.dumps({"id": "c1", "object": "chat.completion", "created": 0,
                       "model": "gpt-5.5 " + quoted,
                       "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                                    "message": {"role": "assistant", "content": json.dumps(
                                        {"winner": "A", "reason": quoted})}}],
                       "usage": {"prompt_tokens": 10, "completion_tokens": 5}})
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    with FaultServer() as server:
        server.script(["echo"] if how == "echo" else [{"kind": "body", "body": body}])
        done = subprocess.run(
            [sys.executable, "-m", "tjb_lib", "check", "--judge", "gpt-5.5", "--base-url",
             server.openai_url, "--pairs", "2"], capture_output=True, text=True, timeout=300,
            env={**env, **KEYS, "PYTHONPATH": str(REPO)})
        assert server.requests[0].fault == how.split()[0] if how == "echo" else True
    printed = done.stdout + done.stderr
    assert "redacted" in printed, printed  # not vacuous: the reply was shown, without its keys
    assert "JSON verdict: yes" in printed
    for name, value in KEYS.items():
        assert value not in printed, name
