"""LLM-written natural pairs: both answers asked through the judge backends and the response
store, kept only when the final answers agree under the SQuAD normaliser (with the display on
the cited side only), every reject counted, raw outputs and prompts recorded, and a rerun served
from the store. End to end against a real vLLM server (peers) and the provider contract
emulator on 127.0.0.1."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tjb_lib import paths
from tjb_lib.data import load_hotpotqa
from tjb_lib.run.generate import final_answer, generate_natural, judge_pair, normalize_answer, request
from tjb_lib.judges.catalog import get_judge

from fault_server import FAKE_KEY  # noqa: E402


@pytest.fixture(scope="module")
def item():
    return load_hotpotqa()[0]


def test_the_squad_normaliser_ignores_case_punctuation_and_articles():
    assert normalize_answer("The  Beatles!") == normalize_answer("beatles") == "beatles"
    assert normalize_answer("Chief of Protocol.") == "chief of protocol"
    assert normalize_answer("yes") != normalize_answer("no")


def test_the_final_answer_is_the_last_final_answer_line():
    assert final_answer("Some reasoning.\nFinal answer: Paris [1]\n\nSources:\n[1] France") == "Paris"
    assert final_answer("**Final Answer:** the Beatles") == "the Beatles"
    assert final_answer("Answer: Rome\n\nEvidence:\n- x") == "Rome"       # the offline renderer's
    assert final_answer("I do not know.") is None


def test_a_pair_is_kept_only_when_answers_agree_and_only_the_cited_side_cites(item):
    cited = f"It was {item.answer} [1].\n\nSources:\n[1] “{item.supporting_facts[0][0]}”\n\nFinal answer: {item.answer}"
    plain = f"The record says so.\nFinal answer: {item.answer.upper()}."
    pair, why = judge_pair(item, {"cited": cited, "plain": plain})
    assert why is None and pair.cited == cited.strip() and pair.meta["matches_gold"]
    assert judge_pair(item, {"cited": cited, "plain": "Final answer: something else"})[1] == \
        "final answers differ"
    assert judge_pair(item, {"cited": plain, "plain": plain})[1] == \
        "the cited answer shows no citation display"
    assert judge_pair(item, {"cited": cited, "plain": cited})[1] == \
        "the plain answer shows a citation display"
    assert judge_pair(item, {"cited": "no line", "plain": plain})[1] == "no final answer line"


def test_the_two_prompts_share_the_passages_and_differ_in_the_citation_instruction(item):
    cited, plain = request(item, "cited"), request(item, "plain")
    assert cited.kind == plain.kind == "text" and cited.temperature == 0.0
    c, p = cited.messages[1][1], plain.messages[1][1]
    assert c.split("Question:")[0] == p.split("Question:")[0]
    assert "Cite the passages" in c and "Do not cite" in p and "Final answer:" in c and "Final answer:" in p


def test_generation_through_the_contract_emulator_stores_every_call_and_resumes(
        fault_server, monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", FAKE_KEY)
    judge = get_judge("gen-test", base_url=fault_server.openai_url, model="served-model")
    record = generate_natural(judge, limit=3, out_dir=tmp_path)
    assert fault_server.count("/v1/chat/completions") == 6 == record["calls_made"]
    assert record["items"] == 3 and record["kept"] + sum(record["rejected"].values()) == 3
    store = (tmp_path / judge.name / "store" / "calls.jsonl").read_text().splitlines()
    assert len(store) == 6
    templates = sorted(json.loads(line)["request"]["template"] for line in store)
    assert templates == ["generate_natural_cited"] * 3 + ["generate_natural_plain"] * 3
    again = generate_natural(judge, limit=3, out_dir=tmp_path)
    assert again["calls_made"] == 0 and again["calls_from_store"] == 6
    assert fault_server.count("/v1/chat/completions") == 6
    run = json.loads((tmp_path / judge.name / "generation.json").read_text())
    assert run["prompts"]["cited"]["template"] == "generate_natural_cited"
    assert run["generator"]["model"] == "served-model"


def test_generate_without_a_generator_is_one_line_and_exit_2(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tjb_lib", "generate", "natural", "--out",
                          str(tmp_path)], capture_output=True, text=True, cwd=paths.ROOT)
    assert out.returncode == 2 and out.stderr.startswith("error: generate: give --generator")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", [["--limit", "0"], ["--concurrency", "0"],
                                    ["--concurrency", "-3"]])
def test_generate_with_a_count_below_one_writes_nothing_and_says_so(fault_server, tmp_path,
                                                                    option):
    out = subprocess.run([sys.executable, "-m", "tjb_lib", "generate", "natural", "--base-url",
                          fault_server.openai_url, "--model", "served-model", "--out",
                          str(tmp_path), *option], capture_output=True, text=True, cwd=paths.ROOT,
                         env={**os.environ, "OPENAI_COMPATIBLE_API_KEY": FAKE_KEY}, timeout=300)
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 2 and lines == [f"error: {option[0]} must be at least 1, got "
                                             f"{option[1]}"]
    assert list(tmp_path.iterdir()) == [] and fault_server.count() == 0


@pytest.mark.peers
def test_the_embedded_model_served_by_vllm_writes_natural_pairs(vllm_server, tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "tjb_lib", "generate", "natural", "--base-url",
         vllm_server.base_url, "--model", vllm_server.served_model_name, "--limit", "12",
         "--out", str(tmp_path)], capture_output=True, text=True, cwd=paths.ROOT, timeout=1200)
    assert out.returncode == 0, out.stderr
    folder = tmp_path / vllm_server.served_model_name
    run = json.loads((folder / "generation.json").read_text())
    assert run["items"] == 12 and run["calls_made"] == 24
    assert run["kept"] + sum(run["rejected"].values()) == 12
    store = (folder / "store" / "calls.jsonl").read_text().splitlines()
    assert len(store) == 24 and all(json.loads(line)["response"]["text"] for line in store)
    pairs = [json.loads(line) for line in (folder / "natural_llm.jsonl").read_text().splitlines()]
    assert len(pairs) == run["kept"]
    for p in pairs:
        answers = p["meta"]["final_answers"]
        assert normalize_answer(answers["cited"]) == normalize_answer(answers["plain"])
        assert p["meta"]["raw_outputs"]["cited"].strip() == p["cited"]
    again = subprocess.run(out.args, capture_output=True, text=True, cwd=paths.ROOT, timeout=600)
    assert again.returncode == 0 and "0 calls made, 24 from the store" in again.stdout
    print(f"embedded model via vLLM: {run['kept']} of 12 items kept; rejected {run['rejected']}")
