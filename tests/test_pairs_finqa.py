"""FinQA candidates read as answers: gold lines without dataset residue, reasoning steps that say
what their numbers are, a moderate tier whose cited side gives the last step without its
working (a denominator, base or conversion never shown), and conflicts whose wrong side carries a
wrong reading through arithmetic that holds. Checked on every FinQA pair of a fresh build."""
from __future__ import annotations

import collections
import dataclasses
import re

import pytest
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from tjb_lib.pairs.audit import sentences
from tjb_lib.data import load_finqa
from tjb_lib.pairs import load_split
from tjb_lib.pairs.registry import SPLITS
from tjb_lib.pairs.candidates import finqa_check, with_unit
from tjb_lib.pairs.filing import NUMBER, clean_line, figures, residue
from tjb_lib.pairs.finqa_units import rate_unit
from tjb_lib.pairs.finqa_voice import (answer_text, dollars, equation, op_name, rescaled_tail,
                                       result_text)
from tjb_lib.pairs.graded import finqa_omission, skip_rank, unshown_kind, unshown_reasoning
from tjb_lib.seeds import SEED
from tjb_lib.pairs.render import split_answer
from tjb_lib.pairs.strip import strip_artifacts

FINQA_SPLITS = ("mechanical_finqa", "moderate_finqa", "conflict")
# "5829 - 5735 = 94", "104% - 78% = 26%", "8.5 × 1000 = 8500"; comparisons are "a > b" / "a ≤ b"
EQUATION = re.compile(r"(?<![\w.])(-?[\d.,]*\d%?) ([-+×/^]) \(?(-?[\d.,]*\d%?)\)? = (-?[\d.,]*\d%?)")
COMPARISON = re.compile(r"(?<![\w.])(-?[\d.,]*\d%?) ([>≤]) (-?[\d.,]*\d%?)")
SIZES = {name: info.size for name, info in SPLITS.items()}
CONTENT_FREE_BUDGET = 0.25     # the audit's budget is 40% of reasoning sentences per split


@pytest.fixture(scope="session")
def splits(fresh_build):
    root, manifest = fresh_build
    pairs = {name: [p for p in load_split(name, root) if p.source == "finqa"]
             for name in FINQA_SPLITS}
    return manifest, pairs


@pytest.fixture(scope="session")
def fin():
    return {i.id: i for i in load_finqa()}


def reasoning(text: str) -> list[str]:
    """The sentences of a structured candidate's Reasoning line, display stripped."""
    line = re.search(r"(?m)^Reasoning: (.*)$", strip_artifacts(text)).group(1)
    return sentences(line)


def evidence(text: str) -> list[str]:
    return [line[2:] for line in strip_artifacts(text).splitlines() if line.startswith("- ")]


def num(text: str) -> float:
    return float(text.rstrip("%").replace(",", ""))


def _decimals(x: str) -> int:
    return len(x.rstrip("%").split(".")[1]) if "." in x else 0


def reached(answer: str, printed: str, said: list[str]) -> bool:
    """Does the last equation's result, ``printed``, give the answer: as FinQA prints it, a
    difference of two percentages in percentage points ("= 21.3 percentage points" for
    "21.3%"), or a whole percent to one decimal ("5.4%" for "5%")?"""
    if printed == answer:
        return True
    if answer.endswith("%") and said[-1].endswith(f"= {printed} percentage points."):
        return printed == answer[:-1]
    whole, refined = re.fullmatch(r"-?\d+%", answer), re.fullmatch(r"-?\d+\.\d%", printed)
    return bool(whole and refined) and abs(float(printed[:-1]) - int(answer[:-1])) <= .5


def holds(a: str, op: str, b: str, r: str) -> bool:
    """Does "a op b = r" hold to the printed precision (an operand printed rounded may stand
    for anything within half a unit of its last decimal; a ratio may print as a percentage)?"""
    def spread(x: str) -> list[float]:
        scale = 100 if x.endswith("%") else 1
        half = 0.5 * 10 ** -_decimals(x)
        return [(num(x) - half) / scale, num(x) / scale, (num(x) + half) / scale]
    values = []
    for x in spread(a):
        for y in spread(b):
            try:
                v = {"+": lambda: x + y, "-": lambda: x - y, "×": lambda: x * y,
                     "/": lambda: x / y, "^": lambda: x ** y}[op]()
            except (OverflowError, ZeroDivisionError):
                return False
            if isinstance(v, complex):
                return False
            values.append(v)
    tol = 10 ** -_decimals(r) * 1.001 + 1e-9
    return any(min(values) * k - tol <= num(r) <= max(values) * k + tol for k in (1, 100))


def content(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in ENGLISH_STOP_WORDS}


# ----------------------------------------------------------------------------- gold lines

def test_clean_line_removes_dataset_residue_and_keeps_every_figure():
    assert clean_line("the rate of 2017 is 35.0% ( 35.0 % ) ;") == "the rate of 2017 is 35.0%;"
    assert clean_line("the total of 2010 is $ -1833 ( 1833 ) ;") == "the total of 2010 is $-1833;"
    assert clean_line("net revenue of % ( % ) change is 22% ( 22 % )") == \
        "net revenue of % change is 22%"
    assert clean_line("the company 2019s sales ( ) rose") == "the company's sales rose"
    assert clean_line("the plan ( 201cthe plan 201d ) of 10/01/04 2013 10/31/04") == \
        "the plan (“the plan”) of 10/01/04–10/31/04"
    assert clean_line("advertising costs advertising costs are expensed .") == \
        "advertising costs are expensed."
    assert clean_line("years ended 2017 ( 1 ) is 1279 ;") == "years ended 2017 (1) is 1279;"
    used = 0
    for item in load_finqa():
        lines = [clean_line(raw) for _, raw in item.gold_inds]
        for (_, raw), line in zip(item.gold_inds, lines):      # no figure invented
            raw = re.sub(r"201[cd]", " ", raw)                 # escaped quotes, not figures
            assert not +collections.Counter(NUMBER.findall(line.replace("$", ""))) \
                - collections.Counter(NUMBER.findall(raw.replace("$ ", ""))), (item.id, line)
        if finqa_check(item) is not None:
            continue
        used += 1
        for line in lines:
            assert residue(line) is None, (item.id, line)
        read = {x.rstrip("%").lstrip("-") for s in item.steps for x in (s.arg1, s.arg2)
                if not x.startswith(("#", "const_"))}
        found = {m.lstrip("-") for line in lines for m in NUMBER.findall(line.replace("$", ""))}
        raw_found = {m.lstrip("-") for _, raw in item.gold_inds
                     for m in NUMBER.findall(raw.replace("$ ", ""))}
        assert read & raw_found <= found, (item.id, read & raw_found - found)   # none lost
    assert used >= SIZES["mechanical_finqa"] + SIZES["moderate_finqa"]   # what they need


def test_every_finqa_evidence_line_is_clean(splits):
    for name, pairs in splits[1].items():
        for p in pairs:
            for side in (p.plain, p.cited):
                for line in evidence(side):
                    assert residue(line) is None, (p.pair_id, line)
                    assert not re.search(r"\(\s*\)|\s[,;.](?:\s|$)|\b2019s\b|\$\s\d", line), \
                        (p.pair_id, line)


# ----------------------------------------------------------------------------- reasoning

def test_every_step_says_what_its_numbers_are(splits, fin):
    """Each step sentence carries its equation and, where the gold lines name its figures, the
    words that name them; reasoning sentences sharing no content word with the evidence (the
    answer and the source title aside) stay far under the audit's budget."""
    for name, pairs in splits[1].items():
        steps = named = total = free = 0
        for p in pairs:
            for side in (p.plain, p.cited):
                ev = evidence(side)
                have = content(" ".join(ev))
                aside = content(split_answer(strip_artifacts(side))[0]) | {"annual", "report",
                                                                           "page"}
                words = {w for w in have if not re.fullmatch(r"[\d.]+", w)}
                for s in reasoning(side):
                    total += 1
                    free += not (content(s) - aside) & (have - aside)
                    if EQUATION.search(s) or COMPARISON.search(s):
                        steps += 1
                        named += bool(content(s) & words)
        assert free / total <= CONTENT_FREE_BUDGET, (name, free, total)
        assert named / steps >= 0.8, (name, named, steps)
    for p in splits[1]["mechanical_finqa"]:
        item = fin[p.source_id]
        said = reasoning(p.plain)
        figs = figures(item.gold_inds, item.table)
        k = 0
        for i in range(len(item.steps)):
            tail = rescaled_tail(i, item.steps, figs)       # "= 29889860, or $29.9 million."
            if tail:
                assert said[k - 1].endswith(tail), (p.pair_id, i, said)
                continue
            assert any(equation(i, item.steps, percent=pc) in said[k]      # "14% ≤ 19%"
                       for pc in (False, True)), (p.pair_id, i, said)
            k += 1
        assert k == len(said), (p.pair_id, said)


def test_phrasings_vary_and_closings_are_rare_and_shared(splits):
    openings = collections.Counter()
    closings = 0
    for p in splits[1]["mechanical_finqa"]:
        said = reasoning(p.plain)
        assert said == reasoning(p.cited)
        openings[" ".join(said[0].split()[:2])] += 1
        closings += not (EQUATION.search(said[-1]) or COMPARISON.search(said[-1]))
    assert max(openings.values()) <= 0.15 * len(splits[1]["mechanical_finqa"]), openings
    assert closings <= 0.35 * len(splits[1]["mechanical_finqa"])


# ----------------------------------------------------------------------------- moderate

def test_moderate_finqa_gives_the_last_step_without_its_working(splits, fin):
    """Every pair: the same answer, evidence and sentences, but for the last sentence, which the
    cited side gives without the last step's working ("As a share of the 2008 level, the change
    ... is -6.1%."): its result stands as a claim, the denominator (or base, or conversion)
    that gives it never shown in the reasoning, and every equation the cited side shows holds."""
    manifest, pairs = splits
    pairs = pairs["moderate_finqa"]
    assert len(pairs) == 50
    for p in pairs:
        item = fin[p.source_id]
        last = len(item.steps) - 1
        assert p.meta["omitted_step"] == last + 1 and p.meta["omitted_kind"] == unshown_kind(item)
        assert split_answer(strip_artifacts(p.plain))[0] == \
            split_answer(strip_artifacts(p.cited))[0] == \
            rate_unit(item.question, dollars(item.question, with_unit(item, answer_text(
                item.question, result_text(last, item.steps), op_name(item.steps[-1])))))
        assert evidence(p.plain) == evidence(p.cited)
        plain, cited = reasoning(p.plain), reasoning(p.cited)
        assert plain[:-1] == cited[:-1] and len(plain) == len(cited), p.pair_id
        working = equation(last, item.steps)
        lhs = working[:working.index(" = ") + 3]
        assert lhs in plain[-1] and cited[-1] == plain[-1].replace(lhs, "", 1), p.pair_id
        result = working[len(lhs):]
        shown = [m.groups() for s in cited for m in EQUATION.finditer(s)]
        assert all(holds(*eq) for eq in shown), (p.pair_id, shown)     # no miscalculation
        assert not any(r == result for _, _, _, r in shown), p.pair_id   # never derived
        base = re.escape(item.steps[-1].arg2)
        assert not re.search(rf"(?<![\d.]){base}(?![\d])", cited[-1]), p.pair_id
    by_file = collections.Counter(p.meta["finqa_file"] for p in pairs)
    assert by_file == collections.Counter(manifest["rejects"]["finqa"]["moderate_by_file"])


def test_unshown_kind_names_the_denominator_base_or_conversion(fin):
    """A change over where it starts leaves its base unshown, a share its denominator, a
    scaling by 100 its conversion; a sum, a difference and an average (whose count its
    sentence names) leave nothing a reader misses."""
    assert unshown_kind(fin["ALXN/2007/page_104.pdf-2"]) == "base"       # 2007 less 2006, / 2006
    assert unshown_kind(fin["GPN/2009/page_70.pdf-3"]) == "denominator"   # sums, / total assets
    assert unshown_kind(fin["JPM/2018/page_90.pdf-5"]) == "conversion"    # 0.11 × 100 basis points
    assert unshown_kind(fin["LMT/2014/page_91.pdf-2"]) is None           # 1148 / 3: an average
    single = [i for i in fin.values() if len(i.steps) == 1 and finqa_check(i) is None]
    assert all(unshown_kind(i) == "denominator" for i in single
               if op_name(i.steps[0]) == "divide" and not i.steps[0].arg2.startswith("const_"))
    assert all(unshown_kind(i) is None for i in single if op_name(i.steps[0]) != "divide")


def test_no_record_whose_question_states_the_answer_is_used(fin):
    two = fin["MRK/2013/page_3.pdf-1"]                            # 44033 - 47267, / 47267
    said, kind = unshown_reasoning(two, SEED)
    assert kind == "base" and said[-1].endswith("as a share of the 2012 level is -6.8%.")
    told = dataclasses.replace(two, question=f"{two.question} (a change of {two.steps[-1].res})")
    assert unshown_reasoning(told, SEED) is None


def test_an_intermediate_denominator_base_or_conversion_comes_first(splits, fin):
    """Readers called a pair a tie where the skipped step was a sum or difference of two
    filing figures ("subtraction is trivial"): the tier takes every record whose last step is
    an intermediate denominator, base or conversion (49), then one-step shares; no sum or
    difference is left unshown."""
    pairs = splits[1]["moderate_finqa"]
    usable = [i for i in fin.values() if finqa_check(i) is None]
    first = {i.id for i in usable if finqa_omission(i, SEED) is not None and not skip_rank(i)}
    assert len(first) == 49
    assert first <= {p.source_id for p in pairs}
    kinds = collections.Counter(p.meta["omitted_kind"] for p in pairs)
    assert kinds == {"base": 31, "conversion": 10, "denominator": 9}, kinds


# ----------------------------------------------------------------------------- conflicts

def test_finqa_wrong_side_carries_a_wrong_reading_through(splits, fin):
    """The wrong side shows the same steps, each an equation that holds, and reaches the wrong
    answer from a figure read wrongly (or a change over the wrong base), never by stating an
    answer its own arithmetic contradicts."""
    pairs = splits[1]["conflict"]
    assert len(pairs) == 50
    kinds = collections.Counter()
    for p in pairs:
        correct, wrong = (p.plain, p.cited) if p.gold == "plain" else (p.cited, p.plain)
        ok, bad = reasoning(correct), reasoning(wrong)
        assert len(ok) == len(bad), p.pair_id
        shown = [m.groups() for s in bad for m in EQUATION.finditer(s)]
        compared = [m.groups() for s in bad for m in COMPARISON.finditer(s)]
        assert shown or compared, p.pair_id
        assert all(holds(*eq) for eq in shown), (p.pair_id, shown)
        if p.meta["wrong_answer"].lower() in ("yes", "no"):
            assert p.meta["wrong_answer"] in [s for s in bad if COMPARISON.search(s)][-1]
        else:
            assert reached(p.meta["wrong_answer"], shown[-1][3], bad), (p.pair_id, shown[-1])
        for a, b in zip(ok, bad):                      # a sentence without figures is shared
            if not NUMBER.search(a) and p.meta["correct_answer"] not in a:    # but the closing
                assert a == b, p.pair_id
        assert ok != bad and fin[p.source_id].answer.strip() == p.meta["correct_answer"]
        kinds[p.meta["wrong_answer_kind"]] += 1
    assert set(kinds) <= {"misread_figure", "wrong_base"} and kinds["misread_figure"] >= 20


def test_misread_figures_come_from_the_same_row_or_sentence(splits, fin):
    for p in splits[1]["conflict"]:
        if p.meta["wrong_answer_kind"] != "misread_figure":
            continue
        item = fin[p.source_id]
        read, instead = re.match(r"(\S+) read as (\S+),", p.meta["wrong_answer_source"]).groups()
        figs = figures(item.gold_inds, item.table)
        was = [f for f in figs if f.printed.lstrip("-") == read.rstrip("%").lstrip("-")]
        now = [f for f in figs if f.printed.lstrip("-") == instead.rstrip("%").lstrip("-")]
        assert was and now and any(w.line == n.line for w in was for n in now), p.pair_id
