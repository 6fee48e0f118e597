"""Correctness conflicts: the final answer changes (and, for FinQA, the figures that lead to it),
the correct side carries the gold answer, every wrong answer passes the answer-type rule, no
HotpotQA item's own evidence contradicts its gold answer, and every HumanEval wrong answer fails
the problem's own tests (re-run here)."""
from __future__ import annotations

import collections
import re

import pytest

from tjb_lib.data import load_finqa, load_hotpotqa, load_humaneval
from tjb_lib.pairs import SPLIT_NAMES, load_split
from tjb_lib.pairs.candidates import finqa_check, with_unit
from tjb_lib.pairs.conflicts import (_polarity_directions, finqa_answer_problems,
                                     gold_contradiction, hotpot_answer_problems,
                                     question_options)
from tjb_lib.pairs.execute import run_tests
from tjb_lib.pairs.finqa_units import rate_unit
from tjb_lib.pairs.finqa_voice import answer_text, dollars
from tjb_lib.pairs.render import split_answer
from tjb_lib.pairs.strip import detect_artifacts, strip_artifacts
from tests.test_pairs_finqa import reached

MECH_KINDS = {"marker", "source_label", "sentence_id", "evidence_block", "sources_footer",
              "verification"}


@pytest.fixture(scope="session")
def built_root(fresh_build):
    return fresh_build[0]


@pytest.fixture(scope="session")
def conflicts(built_root):
    return load_split("conflict", built_root)


@pytest.fixture(scope="session")
def gold():
    out = {i.id: i.answer.strip() for i in load_hotpotqa()}
    out.update({i.id: i.answer.strip() for i in load_finqa()})
    out.update({p.task_id: "\n".join(line.rstrip() for line in p.canonical_solution.splitlines())
                .strip("\n") for p in load_humaneval()})
    return out


FINQA = {i.id: i for i in load_finqa()}


def shown(p, answer: str, program: str) -> str:
    """An answer as the candidate states it: a FinQA answer with the unit its question asks
    for (``answer_text``), by the last operation of the pair's ``program``, and a sum or
    difference of money with the unit its figures state (``with_unit``), money with its "$"
    and separators (``dollars``), a rate, return or index move with its unit (``rate_unit``); a difference of two percentages in percentage points, a whole
    percent to one decimal, as the side's last equation gives it (``reached``)."""
    if p.source != "finqa":
        return answer
    ops = re.findall(r"([a-z_]+)(?:\d+-\d+)?\(", p.meta[program])     # "divide1-2(" too
    side = p.meta["correct_reasoning" if program == "program" else "wrong_reasoning"]
    last = re.findall(r"= (-?[\d.,]*\d%?)", side[-1])
    if last and last[-1] != answer and reached(answer, last[-1], side):
        points = side[-1].endswith(f"= {last[-1]} percentage points.")
        answer = f"{last[-1]} percentage points" if points else last[-1]
    question = p.task.split("\n")[0]
    return rate_unit(question, dollars(question, with_unit(
        FINQA[p.source_id], answer_text(question, answer, ops[-1] if ops else ""))))


def sides(p):
    correct, wrong = (p.plain, p.cited) if p.gold == "plain" else (p.cited, p.plain)
    return correct, wrong


def test_balance(conflicts):
    counts = collections.Counter((p.source, p.meta["direction"], p.gold) for p in conflicts)
    for source in ("hotpotqa", "finqa", "humaneval"):
        assert counts[(source, "clear", "plain")] == 25
        assert counts[(source, "reverse", "cited")] == 25
    assert all(p.target_relation == "correctness_conflict" for p in conflicts)
    # a yes/no item's cited side says "no" as often as "yes" (within one), so the answer word is
    # no tell of the side (before: 8 of 9 cited sides said "no", a side classifier at 0.62)
    said = collections.Counter(split_answer(strip_artifacts(p.cited))[0].lower() for p in conflicts
                               if p.source == "hotpotqa" and p.meta["correct_answer"].lower()
                               in ("yes", "no"))
    assert said["yes"] + said["no"] >= 4 and abs(said["yes"] - said["no"]) <= 1, said


def test_polarity_directions_balance_the_cited_answer_word_and_keep_the_clear_count():
    answers = ["yes", "Paris", "no", "no", "yes", "1922", "no", "no"]
    directions = _polarity_directions(answers, clear=4)
    cited = [a if d == "reverse" else {"yes": "no", "no": "yes"}[a.lower()]
             for a, d in zip(answers, directions) if a.lower() in ("yes", "no")]
    assert sorted(cited) == ["no", "no", "no", "yes", "yes", "yes"]
    assert directions.count("clear") == 4
    assert [d for a, d in zip(answers, directions) if a in ("Paris", "1922")] == ["clear", "reverse"]


def test_wrong_side_differs_only_where_it_states_the_answer(conflicts, gold):
    """Evidence is shared; a HotpotQA or HumanEval wrong side differs only where it states its
    answer (a HotpotQA side states it in its closing, the question answered: "so no, X and Y
    are not both P"); a FinQA wrong side has as many reasoning steps, shares every step without figures,
    and concludes its own answer (its derivation: tests/test_pairs_finqa.py)."""
    for p in conflicts:
        assert detect_artifacts(p.cited) == MECH_KINDS and detect_artifacts(p.plain) == set()
        correct, wrong = sides(p)
        a_ok, rest_ok = split_answer(strip_artifacts(correct))
        a_bad, rest_bad = split_answer(strip_artifacts(wrong))
        assert a_ok == shown(p, gold[p.source_id], "program"), p.pair_id
        assert a_bad != a_ok and a_bad.strip()
        assert a_bad == shown(p, p.meta["wrong_answer"], "wrong_program")
        assert a_ok == shown(p, p.meta["correct_answer"], "program")
        ok_parts, bad_parts = rest_ok.split("\n\n"), rest_bad.split("\n\n")
        assert ok_parts[:-1] == bad_parts[:-1], p.pair_id          # evidence: identical
        if p.source == "humaneval":
            assert ok_parts[-1] == bad_parts[-1]
            continue
        ok_steps, bad_steps = p.meta["correct_reasoning"], p.meta["wrong_reasoning"]
        assert ok_parts[-1] == "Reasoning: " + " ".join(ok_steps), p.pair_id
        assert bad_parts[-1] == "Reasoning: " + " ".join(bad_steps), p.pair_id
        assert len(ok_steps) == len(bad_steps), p.pair_id
        if p.source == "finqa":                  # a FinQA step may show other figures
            assert all(ok == bad for ok, bad in zip(ok_steps, bad_steps)       # but the closing
                       if not re.search(r"\d", ok) and p.meta["correct_answer"] not in ok), p.pair_id
        else:                                    # the steps are the same; the closing differs
            assert ok_steps[:-1] == bad_steps[:-1], p.pair_id
            assert ok_steps[-1].rsplit(", so ", 1)[0] == bad_steps[-1].rsplit(", so ", 1)[0], p.pair_id
        last = re.findall(r"= (-?[\d.,]*\d%?)", bad_steps[-1])          # the wrong side concludes it
        assert p.meta["wrong_answer"] in bad_steps[-1] or \
            reached(p.meta["wrong_answer"], last[-1], bad_steps), p.pair_id


def test_every_wrong_answer_passes_the_answer_type_rule(conflicts):
    """The rule, on every pair: yes/no for yes/no, the other option the question offers (never a
    third entity), a date or number of the gold's form, an entity paragraph of the gold's kind
    (never a list page); FinQA figures printed like the gold answer, same sign, not a unit
    change."""
    hot = {i.id: i for i in load_hotpotqa()}
    fin = {i.id: i for i in load_finqa()}
    kinds = collections.Counter()
    for p in conflicts:
        wrong, right = p.meta["wrong_answer"], p.meta["correct_answer"]
        kinds[p.meta["wrong_answer_kind"].split(":")[0]] += 1
        if p.source == "hotpotqa":
            item = hot[p.source_id]
            assert hotpot_answer_problems(item, wrong) == [], (p.pair_id, wrong)
            assert not re.match(r"(?i)lists? of", wrong)
            if p.meta["wrong_answer_kind"] == "compared_entity":
                assert wrong.lower() in item.question.lower(), (p.pair_id, wrong)
        elif p.source == "finqa":
            assert finqa_answer_problems(right, wrong) == [], (p.pair_id, right, wrong)
            assert finqa_check(fin[p.source_id]) is None
    assert kinds["yes_no"] >= 5 and kinds["entity"] >= 10 and kinds["compared_entity"] >= 5


def test_answer_type_rule_refuses_a_third_entity_and_list_pages():
    hot = {i.id: i for i in load_hotpotqa()}
    mall = hot["5ab45a0b5542991779162c7e"]       # Which mall, Wilton Mall or Viaport Rotterdam, ...?
    assert question_options(mall.question) == ["Wilton Mall", "Viaport Rotterdam"]
    assert hotpot_answer_problems(mall, "Birchwood Mall") == ["not the other option offered"]
    assert hotpot_answer_problems(mall, "Wilton Mall") == []
    older = hot["5a7bbb64554299042af8f7cc"]       # Who is older, Annie Morton or Terry Richardson?
    assert hotpot_answer_problems(older, "Kenton Richardson")
    assert hotpot_answer_problems(older, "Annie Morton") == []
    assert question_options("who is younger Keith Bostic or Jerry Glanville ?") == \
        ["Keith Bostic", "Jerry Glanville"]
    darkroom = hot["5a8099935542996402f6a58b"]   # a series; "List of awards ... Lost" is a list page
    assert hotpot_answer_problems(darkroom, "List of awards and nominations received by Lost")
    assert finqa_answer_problems("94", "9400") == ["off by more than a factor of five",
                                                  "the gold answer in another unit"]
    assert finqa_answer_problems("26%", "0.3") == ["printed unlike the gold answer"]
    assert finqa_answer_problems("yes", "no") == [] and finqa_answer_problems("94", "-94")


def test_no_kept_item_contradicts_its_gold_answer(built_root):
    """The Star and Dagger bass player is Sean Yseult, so she cannot be whom the bass player
    married; Craig v. Boren (1976) did not come before a case of 1948: the rule flags both
    items, and no split keeps a flagged item."""
    hot = {i.id: i for i in load_hotpotqa()}
    flagged = gold_contradiction(hot["5ab7f0015542992aa3b8c88b"])
    assert flagged and "Sean Yseult" in flagged
    assert "Paramount" in gold_contradiction(hot["5ab9b29c554299743d22ebae"])
    kept = {p.source_id for name in SPLIT_NAMES for p in load_split(name, built_root)
            if p.source == "hotpotqa"}
    assert not {"5ab7f0015542992aa3b8c88b", "5ab9b29c554299743d22ebae"} & kept
    assert all(gold_contradiction(hot[i]) is None for i in kept)
    flagged_all = [i.id for i in hot.values() if gold_contradiction(i)]
    assert len(flagged_all) <= 5, flagged_all                       # a rule, not a sieve


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
    from tjb_lib.run.sample import limit_for

    cells = {(p.source, p.meta["direction"]) for p in conflicts}
    assert len(cells) == 6
    for protocol in ("L4", "trace_v1"):
        first = conflicts[:limit_for("conflict", protocol, "default")]
        assert {(p.source, p.meta["direction"]) for p in first} == cells
