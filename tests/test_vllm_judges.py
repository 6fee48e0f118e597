"""The OpenAI-compatible judge path against a real vLLM server (CPU build, 127.0.0.1), as the
paper served its open-weight judges: verdict rows through the runner with JSON mode, P(A), P(B),
P(Tie) from the logprobs at the label position, vLLM's structured outputs constraining the label,
TRACE's two calls, the served model id in every row, and ``check``.

The server is the session fixture ``vllm_server`` (tests/conftest.py), serving the embedded
judge's weights under the name ``smollm2``; run these with ``make test-peers``.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tjb_lib.judges.catalog import get_judge
from tjb_lib.records import LABELS
from tjb_lib.runner import run

REPO = Path(__file__).resolve().parent.parent
SPLIT = "moderate_hotpotqa"
pytestmark = pytest.mark.peers


def served(server, name: str = "smollm2", **params):
    return get_judge(name, base_url=server.base_url, model=server.served_model_name,
                     params=params)


def finish_reasons(df, out_dir: Path):
    """Each row's finish reason as the server gave it, read back from the call store."""
    finish = {json.loads(line)["response"]["text"]: json.loads(line)["response"]["meta"].get(
        "finish_reason") for store in out_dir.glob("*/calls.jsonl")
        for line in store.read_text().splitlines()}
    return df["raw_text"].map(finish)


def assert_cut_replies_unparsed(df, finish):
    """A reply cut at the token cap (SmolLM2 repeating a digit in its reason) is stored as it came
    and counted unparsed, never read for its label."""
    cut = df.loc[finish != "stop"]
    assert (finish[finish != "stop"] == "length").all(), finish.tolist()
    assert (cut["parse_status"] == "unparsed").all() and cut["parsed"].isna().all()


def test_a_served_judge_gives_json_verdicts_label_probabilities_and_its_model_id(vllm_server,
                                                                                tmp_path):
    judge = served(vllm_server)
    port = urlsplit(vllm_server.base_url).port  # the port is part of the endpoint's identity
    assert judge.params["logprobs"] is True
    assert judge.identity()["endpoint"] == f"http://localhost:{port}/v1"
    df = run(SPLIT, "L2", judge, limit=3, out_dir=tmp_path, progress=False)
    assert len(df) == 6 and (df["calls"] == 1).all()
    assert (df["model_returned"] == vllm_server.served_model_name).all()
    assert not (df["decision"] == "failed").any()
    finish = finish_reasons(df, tmp_path)
    assert (finish == "stop").sum() >= 3, finish.tolist()
    for text in df.loc[finish == "stop", "raw_text"]:  # JSON mode: a finished reply is one object
        assert isinstance(json.loads(text), dict), text
    assert_cut_replies_unparsed(df, finish)
    probs = df[["p_a", "p_b", "p_tie"]]
    assert probs.notna().sum(axis=1).ge(2).all(), probs  # the label position was found
    assert (probs.fillna(0).sum(axis=1) <= 1 + 1e-6).all()
    assert probs.notna().all().all(), probs  # "T", the first token of "Tie", counts for Tie
    parsed = df[df["parse_status"] == "json"]
    assert len(parsed) and all(
        row[f"p_{row['parsed'].lower()}"] == max(row["p_a"], row["p_b"], row["p_tie"])
        for _, row in parsed.iterrows())  # greedy decoding wrote the most probable label


def test_structured_outputs_constrain_every_verdict_to_the_paper_schema(vllm_server, tmp_path):
    """Every reply the model finished is the paper's object with a label; a grammar cannot end a
    string the model keeps writing, so a reply cut at the token cap is stored as it came. The
    schema carries no length limit: strict providers refuse one."""
    judge = served(vllm_server, label_schema=True)
    df = run(SPLIT, "L4", judge, limit=3, out_dir=tmp_path, progress=False)
    finish = finish_reasons(df, tmp_path)
    finished = finish == "stop"
    assert finished.sum() >= 3, finish.tolist()
    for text in df.loc[finished, "raw_text"]:
        reply = json.loads(text)
        assert set(reply) == {"winner", "reason"} and reply["winner"] in LABELS, text
    assert (df.loc[finished, "parse_status"] == "json").all()
    assert df.loc[finished, "parsed"].isin(LABELS).all()
    assert_cut_replies_unparsed(df, finish)


def test_trace_makes_its_two_calls_through_vllm(vllm_server, tmp_path):
    df = run(SPLIT, "trace_v1", served(vllm_server), limit=1, out_dir=tmp_path, progress=False)
    assert len(df) == 2 and not (df["decision"] == "failed").any()
    for _, row in df.iterrows():  # stage 2 only when the stage-1 records parse
        assert row["calls"] == (2 if row["normalized"]["records"] else 1)
        assert row["model_returned"] == vllm_server.served_model_name


def test_a_catalog_name_serving_another_model_files_rows_that_say_so(vllm_server, tmp_path):
    judge = served(vllm_server, name="Qwen2.5-14B-Instruct-AWQ")
    df = run(SPLIT, "L0", judge, limit=1, out_dir=tmp_path, progress=False)
    assert judge.name == "Qwen2.5-14B-Instruct-AWQ" and judge.identity()["model"] == "smollm2"
    rows = (tmp_path / judge.name / f"{SPLIT}.L0.jsonl").read_text().splitlines()
    assert {json.loads(r)["model_returned"] for r in rows} == {"smollm2"}
    assert set(df["judge"]) == {"Qwen2.5-14B-Instruct-AWQ"}


def test_check_reports_the_served_model_json_and_logprobs(vllm_server):
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    done = subprocess.run([sys.executable, "-m", "tjb_lib", "check", "--judge", "smollm2",
                           "--base-url", vllm_server.base_url, "--model", "smollm2",
                           "--pairs", "1"], capture_output=True, text=True, timeout=600,
                          env={**env, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "endpoint answered as 'smollm2'" in done.stdout
    assert "JSON verdict: yes" in done.stdout and "P(A)=" in done.stdout
