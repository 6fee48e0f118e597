"""Correctness conflicts: exactly the final answer changes, the correct side carries the gold
answer, and every HumanEval wrong answer fails the problem's own tests (re-run here)."""
from __future__ import annotations

import collections

import pytest

from tjb_lib.data import load_finqa, load_hotpotqa, load_humaneval
from tjb_lib.pairs import load_split
from tjb_lib.pairs.build import build_all
from tjb_lib.pairs.execute import run_tests
from tjb_lib.pairs.render import split_answer
from tjb_lib.pairs.strip import detect_artifacts, strip_artifacts

MECH_KINDS = {"marker", "source_label", "sentence_id", "evidence_block", "sources_footer",
              "verification"}


@pytest.fixture(scope="session")
def conflicts(tmp_path_factory):
    root = tmp_path_factory.mktemp("splits")
    build_all(out_dir=root)
    return load_split("conflict", root)


@pytest.fixture(scope="session")
def gold():
    out = {i.id: i.answer.strip() for i in load_hotpotqa()}
    out.update({i.id: i.answer.strip() for i in load_finqa()})
    out.update({p.task_id: "\n".join(line.rstrip() for line in p.canonical_solution.splitlines())
                .strip("\n") for p in load_humaneval()})
    return out


def sides(p):
    correct, wrong = (p.plain, p.cited) if p.gold == "plain" else (p.cited, p.plain)
    return correct, wrong


def test_balance(conflicts):
    counts = collections.Counter((p.source, p.meta["direction"], p.gold) for p in conflicts)
    for source in ("hotpotqa", "finqa", "humaneval"):
        assert counts[(source, "clear", "plain")] == 25
        assert counts[(source, "reverse", "cited")] == 25
    assert all(p.target_relation == "correctness_conflict" for p in conflicts)


def test_conflict_changes_exactly_the_final_answer(conflicts, gold):
    for p in conflicts:
        assert detect_artifacts(p.cited) == MECH_KINDS and detect_artifacts(p.plain) == set()
        correct, wrong = sides(p)
        a_ok, rest_ok = split_answer(strip_artifacts(correct))
        a_bad, rest_bad = split_answer(strip_artifacts(wrong))
        assert rest_ok == rest_bad, p.pair_id
        assert a_ok == gold[p.source_id], p.pair_id
        assert a_bad != a_ok and a_bad.strip()
        assert a_bad == p.meta["wrong_answer"] and a_ok == p.meta["correct_answer"]


def test_wrong_answers_are_plausible(conflicts, gold):
    hot = {i.id: i for i in load_hotpotqa()}
    fin = {i.id: i for i in load_finqa()}
    for p in conflicts:
        wrong = p.meta["wrong_answer"]
        if p.source == "hotpotqa":
            item = hot[p.source_id]
            if item.answer.lower() in ("yes", "no"):
                assert {wrong, item.answer.lower()} == {"yes", "no"}
            else:   # drawn from the item's own context (titles or distractor sentences)
                assert any(wrong in t or any(wrong in s for s in sents) for t, sents in item.context)
        elif p.source == "finqa":
            assert wrong in [s.res.strip() for s in fin[p.source_id].steps[:-1]]


def test_humaneval_wrong_fails_and_canonical_passes(conflicts):
    problems = {p.task_id: p for p in load_humaneval()}
    code = [p for p in conflicts if p.source == "humaneval"]
    assert len(code) == 50
    for p in code:
        prob = problems[p.source_id]
        correct, wrong = sides(p)
        assert run_tests(prob, split_answer(strip_artifacts(correct))[0] + "\n").passed
        bad = run_tests(prob, split_answer(strip_artifacts(wrong))[0] + "\n")
        assert not bad.passed and bad.returncode not in (None, 0)
        assert p.meta["canonical_run"]["passed"] and not p.meta["mutant_run"]["passed"]
        assert p.meta["mutant_run"]["output"] and p.meta["mutation"]
