"""Correctness conflicts: exactly the final answer changes, the correct side carries the gold
answer, and every HumanEval wrong answer fails the problem's own tests (re-run here)."""
from __future__ import annotations

import collections
import re

import pytest

from tjb_lib.data import load_finqa, load_hotpotqa, load_humaneval
from tjb_lib.pairs import load_split
from tjb_lib.pairs.build import build_all
from tjb_lib.pairs.candidates import finqa_check, number, short_name
from tjb_lib.pairs.conflicts import _DATE_FORMS, _QUANTITY, _YEAR, _norm, entity_kind
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


def test_wrong_side_differs_only_where_it_states_the_answer(conflicts, gold):
    for p in conflicts:
        assert detect_artifacts(p.cited) == MECH_KINDS and detect_artifacts(p.plain) == set()
        correct, wrong = sides(p)
        a_ok, rest_ok = split_answer(strip_artifacts(correct))
        a_bad, rest_bad = split_answer(strip_artifacts(wrong))
        assert a_ok == gold[p.source_id], p.pair_id
        assert a_bad != a_ok and a_bad.strip()
        assert a_bad == p.meta["wrong_answer"] and a_ok == p.meta["correct_answer"]
        ok_parts, bad_parts = rest_ok.split("\n\n"), rest_bad.split("\n\n")
        assert ok_parts[:-1] == bad_parts[:-1], p.pair_id          # evidence: identical
        if p.source == "humaneval":
            assert ok_parts[-1] == bad_parts[-1]
            continue
        ok_steps, bad_steps = p.meta["correct_reasoning"], p.meta["wrong_reasoning"]
        assert ok_parts[-1] == "Reasoning: " + " ".join(ok_steps), p.pair_id
        assert bad_parts[-1] == "Reasoning: " + " ".join(bad_steps), p.pair_id
        assert len(ok_steps) == len(bad_steps), p.pair_id
        for ok, bad in zip(ok_steps, bad_steps):                    # a step changes only its answer
            if ok != bad:
                head, _, tail = ok.rpartition(a_ok)
                assert (head + a_bad + tail).rstrip(".") == bad.rstrip("."), (p.pair_id, ok, bad)
        assert a_bad in bad_steps[-1]                                # the wrong side concludes it


def _printed_like(wrong: str, right: str) -> bool:
    def decimals(x):
        m = re.search(r"\.(\d+)", x)
        return len(m.group(1)) if m else 0
    return wrong.endswith("%") == right.endswith("%") and decimals(wrong) == decimals(right)


def test_wrong_answers_have_the_gold_answers_type(conflicts):
    hot = {i.id: i for i in load_hotpotqa()}
    fin = {i.id: i for i in load_finqa()}
    kinds = collections.Counter()
    for p in conflicts:
        wrong, right, kind = p.meta["wrong_answer"], p.meta["correct_answer"], p.meta["wrong_answer_kind"]
        kinds[kind.split(":")[0]] += 1
        if kind == "yes_no":
            assert {wrong.lower(), right.lower()} == {"yes", "no"}
        elif p.source == "hotpotqa":
            item = hot[p.source_id]
            if kind == "compared_entity":
                assert item.type == "comparison" and wrong.lower() in item.question.lower()
            elif kind == "date":
                assert any(f.fullmatch(wrong) and f.fullmatch(right) for f in _DATE_FORMS)
            elif kind == "year":
                assert _YEAR.fullmatch(wrong) and _YEAR.fullmatch(right)
            elif kind == "quantity":
                w, r = _QUANTITY.fullmatch(wrong), _QUANTITY.fullmatch(right)
                assert w and r and (w.group(2) or "").strip() == (r.group(2) or "").strip()
                digits = lambda m: len(m.group(1).split(".")[0].replace(",", ""))  # noqa: E731
                assert digits(w) == digits(r), p.pair_id
            else:                                     # an entity of the same kind
                assert kind.startswith("entity:")
                kinds_of = {short_name(t): entity_kind(s[0]) for t, s in item.context if s}
                assert kinds_of[wrong] == kind.split(":")[1] == entity_kind(
                    next(s[0] for t, s in item.context if short_name(t).lower() == right.lower()
                         or _norm(short_name(t)) == _norm(right)))
        elif p.source == "finqa":
            assert _printed_like(wrong, right), p.pair_id
            w, r = number(wrong), number(right)
            ratio = abs(w / r)
            assert 0.2 <= ratio <= 5 and (w > 0) == (r > 0), p.pair_id
            assert all(abs(ratio - k) > 0.01 * k for k in (1, 100, 0.01, 1000, 0.001)), p.pair_id
            assert finqa_check(fin[p.source_id]) is None
    assert kinds["yes_no"] >= 5 and kinds["entity"] >= 10 and kinds["compared_entity"] >= 5


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


def test_every_default_sample_of_the_conflict_split_covers_every_cell(conflicts):
    """Table A15 reports each domain x direction: the first N pairs a default run takes (single
    call, paraphrases, TRACE) hold every one of the six cells."""
    from tjb_lib.plan import limit_for

    cells = {(p.source, p.meta["direction"]) for p in conflicts}
    assert len(cells) == 6
    for protocol in ("L4", "trace_v1"):
        first = conflicts[:limit_for("conflict", protocol, "default")]
        assert {(p.source, p.meta["direction"]) for p in first} == cells
