"""Every catalog judge runs every protocol against its provider's documented rules, enforced by
the contract emulator (``fault_server`` + ``contract_rules``); a broken rule fails with the
provider's own 400, and a request the provider will never accept stops the run."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tjb_lib.judges.anthropic_api as anthropic_api
from tjb_lib.cost import call_cost
from tjb_lib.judges.anthropic_api import AnthropicJudge
from tjb_lib.judges.base import FatalJudgeError
from tjb_lib.judges.catalog import JUDGES, get_judge
from tjb_lib.judges.openai_api import OpenAIJudge
from tjb_lib.judges.retry import ProviderRejected, RetryPolicy
from tjb_lib.pairs import load_split
from tjb_lib.protocols import Spec, build_request
from tjb_lib.records import Request
from tjb_lib.runner import run

from fault_server import FAKE_KEY, SNAPSHOT_SUFFIX, FaultServer  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
SPLIT = "moderate_hotpotqa"
PROTOCOLS = {"ladder": 5, "paraphrases": 15, "trace_v1": 1, "trace_v2": 1, "trace_lite": 1}
NO_RETRY = RetryPolicy(max_attempts=1, sleep=lambda s: None)


@pytest.fixture
def emulator(monkeypatch):
    """A started contract emulator, and the key for it (the emulator is not a provider host)."""
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", FAKE_KEY)
    with FaultServer() as server:
        yield server


def judge_at(name: str, server: FaultServer, **overrides):
    """A catalog judge, its provider's rules kept, pointed at the emulator."""
    spec = JUDGES[name]
    url = server.anthropic_url if spec.backend == "anthropic" else server.openai_url
    return get_judge(name, base_url=url, retry=NO_RETRY, **overrides)


@pytest.mark.parametrize("name", list(JUDGES))
def test_every_catalog_judge_runs_every_protocol_within_its_providers_rules(emulator, name,
                                                                            tmp_path):
    judge = judge_at(name, emulator)
    for protocol, settings in PROTOCOLS.items():
        df = run(SPLIT, protocol, judge, limit=1, out_dir=tmp_path, progress=False)
        assert len(df) == 2 * settings, protocol  # one pair, both orders
        assert set(df["decision"]) <= {"cited", "plain", "tie"}, df["raw_text"].tolist()
        assert (df["calls"] == (2 if protocol in ("trace_v1", "trace_v2") else 1)).all()
        assert (df["model_returned"] == judge.model + SNAPSHOT_SUFFIX).all()
    assert emulator.violations == []
    bodies = [r.json for r in emulator.requests if r.json]
    stored = (tmp_path / judge.name / "calls.jsonl").read_text().splitlines()
    distinct = {json.dumps(b, sort_keys=True) for b in bodies}
    assert len(bodies) == len(stored) == len(distinct)  # every call made once, and stored
    first = bodies[0]
    if name == "gpt-5.5":
        assert first["max_completion_tokens"] and first["reasoning_effort"] == "none"
        assert first["temperature"] == 0 and first["logprobs"] is True and "max_tokens" not in first
    elif name == "claude-sonnet-4-6":
        assert isinstance(first["system"], str) and first["max_tokens"] and "top_p" not in first
        assert first["messages"][0]["content"][0]["cache_control"] == {"type": "ephemeral"}
    elif name == "deepseek-v4-flash":
        assert first["thinking"] == {"type": "disabled"} and first["max_tokens"]
        assert first["response_format"] == {"type": "json_object"}
    else:  # an open-weight or embedded judge served by vLLM
        assert first["max_tokens"] and first["logprobs"] is True
    if name != "claude-sonnet-4-6":
        assert df["p_a"].notna().all()  # label probabilities from the logprobs


BROKEN = [
    # (judge, how the body is broken, provider status, words of the provider's message)
    ("gpt-5.5", {"max_tokens_param": "max_tokens"}, 400, "param: max_tokens"),
    ("gpt-5.5", {"reasoning_effort": None}, 400, "param: temperature"),
    ("gpt-5.5", {"reasoning_effort": "minimal"}, 400, "param: reasoning_effort"),
    ("deepseek-v4-flash", {"thinking": None}, 400, "not supported in thinking mode"),
    ("claude-sonnet-4-6", {"top_p": 0.9}, 400, "cannot both be specified"),
]


@pytest.mark.parametrize("name,change,status,words", BROKEN,
                         ids=[f"{b[0]}-{next(iter(b[1]))}" for b in BROKEN])
def test_a_broken_provider_rule_fails_with_the_providers_own_error(emulator, name, change,
                                                                   status, words):
    judge = judge_at(name, emulator)
    judge.params.update(change)  # past the judge's own checks: what a wrong catalog entry sends
    request = build_request(load_split(SPLIT)[0], "cited_first", Spec("ladder", "L2"))
    with pytest.raises(ProviderRejected) as err:
        judge.complete(request)
    assert err.value.status_code == status and words in str(err.value)
    (refused,) = emulator.violations
    if name == "claude-sonnet-4-6":
        assert refused["body"]["type"] == "error"
        assert refused["body"]["error"]["type"] == "invalid_request_error"
    else:
        assert refused["body"]["error"]["type"] == "invalid_request_error"


def test_json_mode_without_the_word_json_is_refused_by_openai_and_deepseek(emulator):
    bare = Request(messages=(("user", "Which answer is better, A or B?"),), template="t",
                   template_version="1")
    for name in ("gpt-5.5", "deepseek-v4-flash"):
        with pytest.raises(ProviderRejected, match="must contain the word 'json'"):
            judge_at(name, emulator).complete(bare)


def test_the_run_stops_at_the_first_refused_request_and_records_no_failed_row(emulator,
                                                                              tmp_path):
    judge = judge_at("gpt-5.5", emulator)
    judge.params["max_tokens_param"] = "max_tokens"
    with pytest.raises(ProviderRejected):
        run(SPLIT, "ladder", judge, limit=3, concurrency=1, out_dir=tmp_path, progress=False)
    assert emulator.count("/v1/chat/completions") == 1
    rows = tmp_path / judge.name / f"{SPLIT}.ladder.jsonl"
    assert not rows.exists() or rows.read_text() == ""
    calls = tmp_path / judge.name / "calls.jsonl"
    assert not calls.exists() or calls.read_text() == ""  # nothing stored as a failed call


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return subprocess.run([sys.executable, "-m", "tjb_lib", *args],
                          env={**clean, "PYTHONPATH": str(REPO), **env},
                          capture_output=True, text=True, timeout=300)


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (root / "data").symlink_to(REPO / "data")
    return root


@pytest.mark.parametrize("case", ["missing_model", "missing_key", "bad_url"])
def test_the_judge_command_stops_with_one_line_and_a_non_zero_exit(emulator, tmp_path, case):
    root = _root(tmp_path)
    emulator.missing_models.add("gpt-5.5")
    env = {"TJB_ROOT": str(root)}
    base = ["judge", "--split", SPLIT, "--protocol", "L0", "--judge", "gpt-5.5", "--limit", "2",
            "--concurrency", "1"]
    if case == "missing_model":
        done = _cli(*base, "--base-url", emulator.openai_url,
                    env={**env, "OPENAI_COMPATIBLE_API_KEY": FAKE_KEY})
        expected = "HTTP 404"
    elif case == "missing_key":
        done = _cli(*base, env=env)
        expected = "needs an API key in the environment variable OPENAI_API_KEY"
    else:
        done = _cli(*base, "--base-url", "not a url", env=env)
        expected = "cannot be called"
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()  # the progress bar, then the one error line
    errors = [line for line in lines if line.startswith("error")]
    assert errors == [lines[-1]] and expected in lines[-1], lines
    assert "Traceback" not in done.stderr
    assert emulator.count("/v1/chat/completions") == (1 if case == "missing_model" else 0)
    assert not list((root / "outputs").rglob("*.jsonl")) or all(
        p.read_text() == "" for p in (root / "outputs").rglob("*.jsonl"))


# ---- usage: cached input, reasoning tokens, the served model in every row -----------------------

def test_openai_caching_of_a_long_shared_prefix_is_recorded_and_priced_cheaper(emulator):
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


def test_anthropic_cache_control_marks_the_shared_instructions_and_records_reads(emulator,
                                                                               monkeypatch):
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


def test_deepseek_thinking_tokens_and_cache_hits_are_recorded(emulator, tmp_path):
    judge = judge_at("deepseek-v4-flash", emulator,
                     params={"thinking": "enabled", "logprobs": False})
    del judge.params["top_logprobs"]
    df = run(SPLIT, "L2", judge, limit=2, concurrency=1, out_dir=tmp_path, progress=False)
    assert (df["reasoning_tokens"] == 128).all()
    assert (df["output_tokens"] > 128).all()
    assert df["cached_input_tokens"].iloc[1:].gt(0).all()  # the shared instructions hit


def test_every_row_names_the_model_that_answered_so_a_name_cannot_hide_another_model(emulator,
                                                                                     tmp_path):
    judge = get_judge("Qwen2.5-14B-Instruct-AWQ", base_url=emulator.openai_url, model="smollm2")
    df = run(SPLIT, "L0", judge, limit=2, out_dir=tmp_path, progress=False)
    assert judge.name == "Qwen2.5-14B-Instruct-AWQ" and judge.identity()["model"] == "smollm2"
    assert set(df["model_returned"]) == {"smollm2" + SNAPSHOT_SUFFIX}
    stored = [json.loads(x) for x in (tmp_path / judge.name / f"{SPLIT}.L0.jsonl").read_text()
              .splitlines()]
    assert {row["model_returned"] for row in stored} == {"smollm2" + SNAPSHOT_SUFFIX}


def test_a_fatal_judge_error_is_what_missing_keys_and_refusals_are():
    from tjb_lib.judges.endpoints import MissingAPIKey, UnusableEndpoint

    assert issubclass(MissingAPIKey, FatalJudgeError) and issubclass(UnusableEndpoint,
                                                                     FatalJudgeError)
    assert issubclass(ProviderRejected, FatalJudgeError)
    with pytest.raises(UnusableEndpoint):
        OpenAIJudge("x", "gpt-5.5", base_url="http://localhost:notaport/v1")
    with pytest.raises(UnusableEndpoint):
        AnthropicJudge("x", "claude-sonnet-4-6", base_url="file:///etc")
