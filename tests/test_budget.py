"""``--budget USD``: a run stops cleanly before the call that could take its spend past the limit;
what was judged stays stored, and a rerun with a larger budget goes on from there. The spend is
what the replies' usage costs, held to what each call could use, and calls in flight do not
stop the run early."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tjb_lib.run.estimate import count_request, count_text
from tjb_lib.judges.batch import collect, custom_id_for, submit_batch, wait
from tjb_lib.judges.budget import (BUDGET_ENV, LEDGER_ENV, Budget, BudgetExceeded, _cost,
                                   bounded, call_usd, counted, response_cost, set_budget,
                                   shared_budget, worst_case_tokens)
from tjb_lib.judges.catalog import get_judge
from tjb_lib.judges.retry import RetryPolicy
from tjb_lib.pairs import load_split
from tjb_lib.protocols import Spec, build_request, expand
from tjb_lib.protocols.requests import stage1_request
from tjb_lib.records import Request, Response
from tjb_lib.runner import run

from fault_server import FAKE_KEY, Fault, FaultServer  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
SPLIT = "moderate_hotpotqa"


@pytest.fixture
def gpt(fault_server, monkeypatch):
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", FAKE_KEY)
    return lambda budget: get_judge("gpt-5.5", base_url=fault_server.openai_url, budget=budget,
                                    retry=RetryPolicy(max_attempts=1, sleep=lambda s: None))


def test_a_reservation_is_never_below_the_tokens_a_real_tokenizer_counts():
    for split in ("moderate_hotpotqa", "moderate_finqa", "ranking_hotpotqa", "conflict"):
        for pair in load_split(split)[:5]:
            for spec in expand("L4", split) + [Spec("trace_v2")]:
                request = (stage1_request(pair, "cited_first", spec) if spec.protocol ==
                           "trace_v2" else build_request(pair, "plain_first", spec))
                n_in, n_out = worst_case_tokens(request)
                assert n_in >= count_request(request) and n_out == request.max_tokens


def test_a_run_stops_before_the_call_that_could_pass_the_budget_and_goes_on_later(
        fault_server, gpt, tmp_path):
    request = build_request(load_split(SPLIT)[0], "cited_first", Spec("ladder", "L0"))
    worst = _cost("gpt-5.5", *worst_case_tokens(request), batch=False)
    budget = Budget(1.5 * worst)  # a reply costs far less than the most it could
    with pytest.raises(BudgetExceeded, match=r"budget: the next call to gpt-5.5 could cost"):
        run(SPLIT, "L0", gpt(budget), limit=5, concurrency=1, out_dir=tmp_path, progress=False)
    made = fault_server.count("/v1/chat/completions")
    assert 1 <= made < 10 and budget.spent() <= budget.limit_usd
    store = (tmp_path / "gpt-5.5" / "calls.jsonl").read_text().splitlines()
    assert len(store) == made and all('"status": "ok"' in line for line in store)
    df = run(SPLIT, "L0", gpt(Budget(1.0)), limit=5, concurrency=1, out_dir=tmp_path,
             progress=False)
    assert len(df) == 10 and set(df["decision"]) <= {"cited", "plain", "tie"}
    assert fault_server.count("/v1/chat/completions") == 10  # nothing asked twice


def test_spend_is_what_the_replies_cost_not_the_reservations(fault_server, gpt):
    budget = Budget(1.0)
    judge = gpt(budget)
    request = build_request(load_split(SPLIT)[0], "cited_first", Spec("ladder", "L0"))
    response = judge.complete(request)
    assert response_cost("gpt-5.5", response) > 0
    assert budget.spent() == pytest.approx(response_cost("gpt-5.5", counted(request, response)))
    assert budget.spent() < _cost("gpt-5.5", *worst_case_tokens(request), batch=False)


def _l0_request() -> Request:
    return build_request(load_split(SPLIT)[0], "cited_first", Spec("ladder", "L0"))


def test_usage_past_what_a_call_could_use_is_held_to_it_and_kept_as_reported():
    request = _l0_request()
    n_in, n_out = worst_case_tokens(request)
    said = Response(status="ok", text="{}", input_tokens=10 * n_in, output_tokens=1_000_000,
                    cached_input_tokens=2_000_000, reasoning_tokens=5_000_000)
    held = bounded(request, said)
    assert (held.input_tokens, held.output_tokens, held.cached_input_tokens,
            held.reasoning_tokens) == (n_in, n_out, 0, n_out)
    assert held.meta["reported_usage"]["cached_input_tokens"] == 2_000_000
    plain = Response(status="ok", text="{}", input_tokens=300, output_tokens=20,
                     cached_input_tokens=128)
    assert bounded(request, plain) is plain  # usage within bounds is kept as it is


def test_a_server_that_reports_cached_tokens_past_the_prompt_cannot_make_calls_free(
        fault_server, gpt, tmp_path):
    """cached_tokens 2,000,000 against a prompt of a few hundred tokens made every call cost
    less than nothing, so a budget never stopped; held to the prompt, it stops."""
    fault_server.script([Fault("ok", usage={"prompt_tokens_details": {"cached_tokens": 2_000_000}})
                         for _ in range(40)])
    budget = Budget(3 * _cost("gpt-5.5", *worst_case_tokens(_l0_request()), batch=False))
    with pytest.raises(BudgetExceeded):
        run(SPLIT, "L0", gpt(budget), limit=20, concurrency=1, out_dir=tmp_path, progress=False)
    assert 0 < fault_server.count("/v1/chat/completions") < 40
    assert 0 < budget.spent() <= budget.limit_usd
    stored = [json.loads(x)["response"] for x in
              (tmp_path / "gpt-5.5" / "calls.jsonl").read_text().splitlines()]
    assert all(r["cached_input_tokens"] == 0 for r in stored)
    assert all(r["meta"]["reported_usage"]["cached_input_tokens"] == 2_000_000 for r in stored)


def test_a_reply_reporting_less_than_our_count_is_stored_as_said_and_counted_at_the_floor():
    request = _l0_request()
    said = Response(status="ok", text='{"winner": "A", "reason": "it cites"}', input_tokens=0,
                    output_tokens=0)
    floor = counted(request, said)
    assert (floor.input_tokens, floor.output_tokens) == (
        count_request(request), count_text(said.text))
    assert bounded(request, said) is said  # the store keeps what the server said
    more = count_request(request) + 50
    honest = Response(status="ok", text=said.text, input_tokens=more, output_tokens=40)
    assert counted(request, honest).input_tokens == more  # more than ours: taken as said
    worst = _cost("gpt-5.5", *worst_case_tokens(request), batch=False)
    assert call_usd("gpt-5.5", request, said) == worst  # read no prompt: no count at all
    low = dataclasses.replace(said, input_tokens=1)
    assert call_usd("gpt-5.5", request, low) == response_cost("gpt-5.5", counted(request, low))
    assert call_usd("gpt-5.5", request, low) < worst


def test_a_server_reporting_zero_usage_stops_no_later_than_an_honest_one(fault_server, gpt,
                                                                          tmp_path):
    """Zero usage made every call free: 200 calls on $0.05 where honest usage stopped at 11;
    settled at our own count it still ran a call past Claude's honest run (our tokenizer is
    not the provider's); a reply that read no prompt now costs its reservation."""
    limit = 4 * _cost("gpt-5.5", *worst_case_tokens(_l0_request()), batch=False)
    made = []
    for name, usage in (("honest", None), ("zero", {"prompt_tokens": 0, "completion_tokens": 0,
                                                    "total_tokens": 0})):
        fault_server.reset()
        if usage:
            fault_server.script([Fault("ok", usage=usage) for _ in range(60)])
        with pytest.raises(BudgetExceeded):
            run(SPLIT, "L0", gpt(Budget(limit)), limit=30, concurrency=1,
                out_dir=tmp_path / name, progress=False)
        made.append(fault_server.count("/v1/chat/completions"))
    assert 1 < made[0] < 60 and 1 <= made[1] <= min(made[0], 4), made  # 4 worst cases fit


def test_a_server_that_reports_output_past_the_cap_is_charged_the_cap(fault_server, gpt,
                                                                      tmp_path):
    request = _l0_request()
    worst = _cost("gpt-5.5", *worst_case_tokens(request), batch=False)
    fault_server.script([Fault("ok", usage={"completion_tokens": 1_000_000})] * 3)
    budget = Budget(1.0)
    gpt(budget).complete(request)
    assert 0 < budget.spent() <= worst  # not $30 for one call
    df = run(SPLIT, "L0", gpt(Budget(1.0)), limit=1, concurrency=1, out_dir=tmp_path,
             progress=False)
    assert list(df["output_tokens"]) == [request.max_tokens] * 2


def test_calls_in_flight_do_not_stop_a_budget_short(tmp_path, monkeypatch):
    """At concurrency 8 the reservations of calls in flight stopped the run after 3 calls where
    one worker made 15; they are released as calls finish, and the run goes on while the next
    call fits."""
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", FAKE_KEY)
    limit = 8 * _cost("gpt-5.5", *worst_case_tokens(_l0_request()), batch=False)
    made = {}
    for workers in (1, 8):
        with FaultServer(latency_s=0.05) as server:
            judge = get_judge("gpt-5.5", base_url=server.openai_url, budget=Budget(limit),
                              retry=RetryPolicy(max_attempts=1, sleep=lambda s: None))
            with pytest.raises(BudgetExceeded):
                run(SPLIT, "L0", judge, limit=30, concurrency=workers,
                    out_dir=tmp_path / str(workers), progress=False)
            made[workers] = server.count("/v1/chat/completions")
    assert made[1] > 8 and made[8] >= made[1] - 2, made


def test_processes_that_share_a_ledger_share_the_budget(tmp_path):
    ledger = tmp_path / "spend.ledger"
    first, second = Budget(0.05, ledger), Budget(0.05, ledger)  # as two notebook kernels
    request = Request(messages=(("user", "x" * 2000),), template="t", template_version="1",
                      max_tokens=100)
    with first.hold("gpt-5.5", request) as settle:
        settle(Response(status="ok", text="{}", input_tokens=700, output_tokens=50))
    assert second.spent() == pytest.approx(first.spent()) == pytest.approx(
        _cost("gpt-5.5", 700, 50, batch=False))
    big = Request(messages=(("user", "y" * 40_000),), template="t", template_version="1",
                  max_tokens=1000)
    with pytest.raises(BudgetExceeded, match="past the budget of \\$0.05"):
        with second.hold("gpt-5.5", big):
            pass


def test_the_command_line_budget_reaches_the_judge_and_a_bad_value_is_refused(monkeypatch,
                                                                             tmp_path):
    monkeypatch.delenv(BUDGET_ENV, raising=False)  # restored as unset after the test
    monkeypatch.delenv(LEDGER_ENV, raising=False)
    set_budget(2.5)
    assert os.environ[BUDGET_ENV] == "2.5" and LEDGER_ENV not in os.environ
    assert Budget.from_env().limit_usd == 2.5
    set_budget(1.25, tmp_path / "spend.ledger")
    assert Budget.from_env().ledger == tmp_path / "spend.ledger"
    with pytest.raises(ValueError, match="non-negative"):
        set_budget(-1)
    del os.environ[BUDGET_ENV], os.environ[LEDGER_ENV]
    assert Budget.from_env() is None
    with shared_budget(3.0):  # what reproduce --budget does around its notebooks
        ledger = Path(os.environ[LEDGER_ENV])
        assert Budget.from_env().limit_usd == 3.0 and ledger.parent.is_dir()
    assert BUDGET_ENV not in os.environ and not ledger.parent.exists()  # nothing left behind


def test_judge_command_with_a_tiny_budget_stops_before_any_call_with_one_line(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "data").symlink_to(REPO / "data")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    with FaultServer() as server:
        done = subprocess.run(
            [sys.executable, "-m", "tjb_lib", "judge", "--split", SPLIT, "--protocol", "L0",
             "--judge", "gpt-5.5", "--base-url", server.openai_url, "--limit", "2",
             "--budget", "0.0001"], capture_output=True, text=True, timeout=300,
            env={**env, "PYTHONPATH": str(REPO), "TJB_ROOT": str(root),
                 "OPENAI_COMPATIBLE_API_KEY": FAKE_KEY})
        assert server.count("/v1/chat/completions") == 0
    assert done.returncode == 1
    errors = [x for x in done.stderr.splitlines() if x.startswith("error")]
    assert len(errors) == 1 and "budget" in errors[0] and "$0.00" in errors[0]
    assert "Traceback" not in done.stderr


def test_a_batch_is_charged_its_worst_case_first_and_settled_when_collected(fault_server, gpt):
    pairs = load_split(SPLIT)[:3]
    requests = [build_request(p, "cited_first", Spec("ladder", "L1")) for p in pairs]
    with pytest.raises(BudgetExceeded, match="a batch of requests"):
        submit_batch(gpt(Budget(0.0001)), requests)
    assert fault_server.count() == 0  # nothing uploaded
    budget = Budget(1.0)
    judge = gpt(budget)
    batch_id = submit_batch(judge, requests)
    charged = budget.spent()
    wait(judge, batch_id, interval_s=1, sleep=lambda s: None)
    results = collect(judge, batch_id)
    actual = sum(response_cost("gpt-5.5", counted(r, results[custom_id_for(judge, r)]),
                               batch=True) for r in requests)  # as a real-time call is counted
    assert 0 < actual < charged and budget.spent() == pytest.approx(actual)


def _zero_usage(_: int, line: str) -> str:
    """A batch result line as a server that reports no tokens at all writes it."""
    row = json.loads(line)
    reply = (row.get("response") or {}).get("body") or (row.get("result") or {}).get("message")
    reply["usage"] = ({"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
                      if "choices" in reply else {"input_tokens": 0, "output_tokens": 0})
    return json.dumps(row)


def _floor(model: str, requests: dict[str, Request], results: dict[str, Response]) -> float:
    """Our own count of every line's prompt and reply, at batch price."""
    return sum(_cost(model, count_request(r), min(count_text(results[cid].text), r.max_tokens),
                     batch=True) for cid, r in requests.items())


@pytest.fixture
def batch_judges(fault_server, monkeypatch):
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", FAKE_KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    urls = {"gpt-5.5": fault_server.openai_url, "claude-sonnet-4-6": fault_server.anthropic_url}
    policy = RetryPolicy(max_attempts=1, sleep=lambda s: None)
    return lambda name, budget: get_judge(name, base_url=urls[name], budget=budget, retry=policy)


@pytest.mark.parametrize("name", ["gpt-5.5", "claude-sonnet-4-6"])
def test_batch_lines_reporting_zero_usage_are_charged_their_worst_case_and_the_next_batch_stops(
        fault_server, batch_judges, name):
    """Batch results were charged what their lines reported, so zero usage made a batch free
    and the next one was accepted; each line now costs its worst case, as a real-time call."""
    fault_server.damage_result_line = _zero_usage
    pairs = load_split(SPLIT)[:4]
    requests = {custom_id_for(batch_judges(name, None), r): r for r in
                (build_request(p, "cited_first", Spec("ladder", "L1")) for p in pairs)}
    worst = sum(_cost(name, *worst_case_tokens(r), batch=True) for r in requests.values())
    first = batch_judges(name, Budget(1.0))
    batch_id = submit_batch(first, requests)
    wait(first, batch_id, interval_s=1, sleep=lambda s: None)
    results = collect(first, batch_id, list(requests))
    assert all(r.status == "ok" and r.input_tokens == 0 == r.output_tokens
               for r in results.values())  # stored as the server said
    assert 0 < _floor(name, requests, results) < worst
    assert first.budget.spent() == pytest.approx(worst)  # not our count: a floor, not a bill
    # a budget that fits one batch's worst case but not a second one
    budget = Budget(1.5 * worst)
    judge = batch_judges(name, budget)
    batch_id = submit_batch(judge, requests)
    wait(judge, batch_id, interval_s=1, sleep=lambda s: None)
    collect(judge, batch_id, list(requests))
    assert budget.spent() == pytest.approx(worst)
    submitted = fault_server.count()
    with pytest.raises(BudgetExceeded, match="a batch of requests"):
        submit_batch(judge, requests)  # at zero usage it fitted (0 + worst <= limit)
    assert fault_server.count() == submitted  # nothing uploaded


def test_a_batch_submitted_by_a_killed_run_is_charged_when_collected(fault_server,
                                                                     batch_judges):
    """A batch submitted by an earlier process (no charge here) is charged what its results
    cost when this process collects it against its requests, as the batch rounds do: lines
    that report zero usage at their worst case."""
    fault_server.damage_result_line = _zero_usage
    requests = {custom_id_for(batch_judges("gpt-5.5", None), r): r for r in
                (build_request(p, "cited_first", Spec("ladder", "L1"))
                 for p in load_split(SPLIT)[:3])}
    earlier = batch_judges("gpt-5.5", None)
    batch_id = submit_batch(earlier, requests)
    wait(earlier, batch_id, interval_s=1, sleep=lambda s: None)
    budget = Budget(1.0)
    results = collect(batch_judges("gpt-5.5", budget), batch_id, requests)
    worst = sum(_cost("gpt-5.5", *worst_case_tokens(r), batch=True) for r in requests.values())
    assert 0 < _floor("gpt-5.5", requests, results) < budget.spent() == pytest.approx(worst)


@pytest.mark.slow
def test_reproduce_with_a_budget_stops_in_the_first_notebook_that_would_pass_it(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    for name in ("data", "notebooks"):
        (root / name).symlink_to(REPO / name)
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    with FaultServer() as server:
        done = subprocess.run(
            [sys.executable, "-m", "tjb_lib", "reproduce", "--only", "04_resolution_loss",
             "--judge", "gpt-5.5", "--budget", "0.001", "--outputs-dir", str(tmp_path / "out")],
            capture_output=True, text=True, timeout=600,
            env={**env, "PYTHONPATH": str(REPO), "TJB_ROOT": str(root),
                 "TJB_BASE_URL_GPT_5_5": server.openai_url,
                 "OPENAI_COMPATIBLE_API_KEY": FAKE_KEY})
        made = server.count("/v1/chat/completions")
    assert done.returncode == 1
    assert "04_resolution_loss.py failed in cell" in done.stderr
    assert "BudgetExceeded: budget:" in done.stderr and "$0.00" in done.stderr
    calls = list((root / "outputs" / "raw_outputs").rglob("calls.jsonl"))
    stored = sum(len(p.read_text().splitlines()) for p in calls)
    assert stored == made  # every call made was stored, none beyond the budget
