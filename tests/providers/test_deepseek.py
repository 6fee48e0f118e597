"""The DeepSeek provider against the contract emulator speaking DeepSeek's rules
(``deepseek_rules``): what V4-Flash sends, its own 400s, thinking tokens and cache hits, no batch
API."""
from __future__ import annotations

import pytest

from tjb_lib.judges.prices import rates
from tjb_lib.judges.batch import batch_api
from tjb_lib.judges.provider import get
from tjb_lib.judges.retry import ProviderRejected
from tjb_lib.pairs import load_split
from tjb_lib.protocols import Spec, build_request
from tjb_lib.records import Request
from tjb_lib.runner import run

from _emulated import SPLIT, judge_at

PROVIDER = get("deepseek")


def test_the_provider_declares_its_host_key_and_no_batch_api(emulator):
    assert (PROVIDER.hosts, PROVIDER.key_env, PROVIDER.batch) == \
        (("api.deepseek.com",), "DEEPSEEK_API_KEY", False)
    assert rates("deepseek-v4-flash").batch_discount is None
    with pytest.raises(TypeError, match="no batch API"):
        batch_api(judge_at("deepseek-v4-flash", emulator))


def test_v4_flash_sends_thinking_disabled_json_output_and_max_tokens(emulator, tmp_path):
    df = run(SPLIT, "L2", judge_at("deepseek-v4-flash", emulator), limit=1, out_dir=tmp_path,
             progress=False)
    first = emulator.requests[0].json
    assert first["thinking"] == {"type": "disabled"} and first["max_tokens"]
    assert first["response_format"] == {"type": "json_object"} and first["logprobs"] is True
    assert df["p_a"].notna().all() and emulator.violations == []


def test_logprobs_while_thinking_fail_with_deepseeks_own_400(emulator):
    judge = judge_at("deepseek-v4-flash", emulator)
    judge.params.update(thinking=None)  # thinking is on by default
    request = build_request(load_split(SPLIT)[0], "cited_first", Spec("ladder", "L2"))
    with pytest.raises(ProviderRejected, match="not supported in thinking mode") as err:
        judge.complete(request)
    assert err.value.status_code == 400
    (refused,) = emulator.violations
    assert refused["body"]["error"]["type"] == "invalid_request_error"


def test_json_output_without_the_word_json_is_refused(emulator):
    bare = Request(messages=(("user", "Which answer is better, A or B?"),), template="t",
                   template_version="1")
    with pytest.raises(ProviderRejected, match="must contain the word 'json'"):
        judge_at("deepseek-v4-flash", emulator).complete(bare)


def test_thinking_tokens_and_cache_hits_are_recorded(emulator, tmp_path):
    judge = judge_at("deepseek-v4-flash", emulator,
                     params={"thinking": "enabled", "logprobs": False})
    del judge.params["top_logprobs"]
    df = run(SPLIT, "L2", judge, limit=2, concurrency=1, out_dir=tmp_path, progress=False)
    assert (df["reasoning_tokens"] == 128).all()
    assert (df["output_tokens"] > 128).all()
    assert df["cached_input_tokens"].iloc[1:].gt(0).all()  # the shared instructions hit
