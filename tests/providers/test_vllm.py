"""The OpenAI-compatible server provider (vLLM) against the contract emulator speaking vLLM's
rules (``vllm_rules``): a served open-weight or embedded judge, the verdict as a JSON schema, the
served model named in every row, no batch API and no provider key."""
from __future__ import annotations

import json

import pytest

from tjb_lib.judges.batch import batch_api
from tjb_lib.judges.catalog import get_judge
from tjb_lib.judges.endpoints import COMPATIBLE_KEY_ENV
from tjb_lib.judges.provider import get
from tjb_lib.runner import run

from _emulated import SPLIT, judge_at
from fault_server import SNAPSHOT_SUFFIX

PROVIDER = get("vllm")


def test_a_served_judge_reads_the_compatible_key_and_has_no_batch_api(emulator):
    judge = judge_at("gemma-3-12b-it", emulator)
    assert (judge.backend, judge.api_key_env, PROVIDER.key_env, PROVIDER.hosts) == \
        ("openai_compatible", COMPATIBLE_KEY_ENV, None, ())
    with pytest.raises(TypeError, match="no batch API"):
        batch_api(judge)


@pytest.mark.parametrize("name", ["gemma-3-12b-it", "smollm2"])
def test_a_served_judge_sends_max_tokens_temperature_0_and_logprobs(emulator, tmp_path, name):
    df = run(SPLIT, "L0", judge_at(name, emulator), limit=1, out_dir=tmp_path, progress=False)
    first = emulator.requests[0].json
    assert first["max_tokens"] and first["temperature"] == 0 and first["logprobs"] is True
    assert df["p_a"].notna().all() and emulator.violations == []


def test_the_label_schema_constrains_the_verdict_and_is_accepted(emulator, tmp_path):
    judge = judge_at("gemma-3-12b-it", emulator, params={"label_schema": True})
    df = run(SPLIT, "L0", judge, limit=1, out_dir=tmp_path, progress=False)
    fmt = emulator.requests[0].json["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["schema"]["properties"]["winner"]["enum"] == ["A", "B", "Tie"]
    assert emulator.violations == [] and set(df["decision"]) <= {"cited", "plain", "tie"}


def test_every_row_names_the_model_that_answered_so_a_name_cannot_hide_another_model(emulator,
                                                                                     tmp_path):
    judge = get_judge("Qwen2.5-14B-Instruct-AWQ", base_url=emulator.url_for(PROVIDER),
                      model="smollm2")
    df = run(SPLIT, "L0", judge, limit=2, out_dir=tmp_path, progress=False)
    assert judge.name == "Qwen2.5-14B-Instruct-AWQ" and judge.identity()["model"] == "smollm2"
    assert set(df["model_returned"]) == {"smollm2" + SNAPSHOT_SUFFIX}
    stored = [json.loads(x) for x in (tmp_path / judge.name / f"{SPLIT}.L0.jsonl").read_text()
              .splitlines()]
    assert {row["model_returned"] for row in stored} == {"smollm2" + SNAPSHOT_SUFFIX}
