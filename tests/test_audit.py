"""The artifact audit finds construction tells, and the shipped splits pass its budgets: no
non-display n-gram on one side in more than 20% of a split's pairs, no sentence repeated inside
a candidate, no dangling reference; the figures in data/DATASHEET.md are the audit's."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tjb_lib.pairs import audit, coherence
from tjb_lib import paths
from tjb_lib.data import load_hotpotqa
from tjb_lib.pairs.chain_rules import as_read
from tjb_lib.pairs import load_split
from tjb_lib.pairs.build import verify


@pytest.fixture(scope="module")
def items():
    return {i.id: as_read(i) for i in load_hotpotqa()}    # as the builders read them


def test_the_shipped_splits_are_what_the_build_makes(session_build):
    _, problems = verify(built=session_build)
    assert problems == []


def test_the_shipped_splits_pass_every_budget(shipped_audit):
    audits, tiers = shipped_audit
    assert [(a.split, a.breaches) for a in audits if a.breaches] == []
    by = {a.split: a for a in audits}
    assert by["natural_hotpotqa"].differ >= 0.9
    for name in ("mechanical_hotpotqa", "mechanical_finqa", "ablation_full_citation"):
        assert by[name].side_accuracy is None                    # identical once stripped
    assert 0.4 <= by["natural_hotpotqa"].side_accuracy <= 0.6    # no side is recognisable
    # the tampered side is not recognisable either, pooled or within a domain (pooled over three
    # domains, folds grouped by item can put the figure below chance with no tell to find)
    assert by["conflict"].side_accuracy <= 0.6
    conflict = load_split("conflict")
    for source in ("hotpotqa", "finqa", "humaneval"):
        acc = audit.side_classifier([p for p in conflict if p.source == source])[0]
        assert 0.4 <= acc <= 0.6, (source, acc)
    assert tiers["balanced_accuracy"] > tiers["chance"]


def test_the_datasheet_carries_the_audit_figures(shipped_audit):
    text = audit.DATASHEET.read_text(encoding="utf-8")
    assert audit.datasheet_block(text) == audit.markdown(*shipped_audit)


def test_the_moderate_finqa_figure_counts_the_kind_of_step_left_unshown(shipped_audit):
    """The datasheet states which kind of step the FinQA moderate tier leaves unshown."""
    by = {a.split: a for a in shipped_audit[0]}
    note = by["moderate_finqa"].notes[0]
    assert note.startswith("step left unshown: denominator ")
    counts = dict(part.rsplit(" ", 1) for part in note.split(": ", 1)[1].split(", "))
    assert list(counts) == ["denominator", "base", "conversion", "other"]
    assert sum(map(int, counts.values())) == 50 and counts["other"] == "0"


def test_a_fixed_sentence_on_one_side_is_a_breach(items):
    soft = load_split("soft_hotpotqa")
    tell = [dataclasses.replace(p, cited=p.cited.replace(
        "Reasoning: ", "Reasoning: Together, these facts support the answer. ")) for p in soft]
    a = audit.audit_split("soft_hotpotqa", tell, items)
    assert a.top_ngram_share == 1.0 and a.top_ngram_side == "cited"
    assert any("on the cited side only in 100% of pairs" in b for b in a.breaches)
    assert a.side_accuracy == 1.0


def test_repeated_sentences_and_dangling_references_are_found(items):
    pad = "Answer: x\n\nThe wording is plain on purpose. It is kept short. The wording is plain on purpose."
    assert audit.repeated_sentences(pad) == ["the wording is plain on purpose"]
    assert audit.repeated_sentences("Answer: Hey Pa! There's a Goat on the Roof. "
                                    "There's a Goat on the Roof.",
                                    ("Hey Pa! There's a Goat on the Roof",)) == []
    moderate = load_split("moderate_hotpotqa")
    p = next(p for p in moderate if p.meta["omission"] == "dropped")
    name = p.meta["dropped_hop"].split(" (")[0]
    bad = dataclasses.replace(p, cited=p.cited.replace(
        "Reasoning: ", f"Reasoning: Comparing the evidence on {name} settles it. "))
    assert audit.dangling_references(p, items) == []
    assert audit.dangling_references(bad, items) == [f"cited: names {name!r} without its evidence"]


def _with(p, side, old, new):
    return dataclasses.replace(p, **{side: getattr(p, side).replace(old, new, 1)})


def test_a_line_that_leans_on_the_display_is_counted(items):
    mech = load_split("mechanical_hotpotqa")
    p = mech[0]
    first = p.plain.split("Evidence:\n- ", 1)[1].split("\n", 1)[0]
    leaning = _with(_with(p, "plain", f"- {first}", "- It lies on the banks of a river."),
                    "cited", f"- {first}", "- It lies on the banks of a river.")
    assert coherence.leaning_lines(p, "plain") == []
    assert coherence.leaning_lines(leaning, "plain")[0].startswith("It ")
    a = audit.audit_split("mechanical_hotpotqa", [leaning] + mech[1:], items)
    assert a.leaning >= 2 and any("open with a pronoun" in b for b in a.breaches)


def test_reasoning_that_says_nothing_the_evidence_says_is_counted(items):
    mech = load_split("mechanical_hotpotqa")
    empty_steps = "Reasoning: Via the first entity, the trail goes on. Everything asked holds true. "
    empty = [_with(_with(p, "plain", "Reasoning: ", empty_steps), "cited", "Reasoning: ", empty_steps)
             for p in mech]
    said, free = coherence.reasoning_sentences(empty[0], "plain")
    assert "Everything asked holds true." in free and len(said) > len(free)
    a = audit.audit_split("mechanical_hotpotqa", empty, items)
    assert any("share no content word with the evidence" in b for b in a.breaches)


def test_filler_padding_and_one_sided_sentences_are_counted(items):
    lc = load_split("ablation_length_control")
    p = lc[0]
    name = p.meta["supporting_facts"][0][0].split(" (")[0]
    filler = dataclasses.replace(p, cited=f"{p.cited} Some people will recognise {name}.")
    assert coherence.padding_problems(p, items) == []
    assert coherence.padding_problems(filler, items) == [f"Some people will recognise {name}."]
    moderate = load_split("moderate_hotpotqa")
    m = moderate[0]
    extra = _with(m, "cited", "Reasoning: ", "Reasoning: The answer was checked twice. ")
    assert coherence.one_sided_sentences(m, items) == []
    assert coherence.one_sided_sentences(extra, items) == ["the answer was checked twice"]


@pytest.mark.slow
def test_audit_cli_exits_nonzero_on_a_breach(tmp_path):
    import json
    import shutil
    import subprocess
    import sys

    for f in paths.SPLITS.iterdir():
        shutil.copy(f, tmp_path / f.name)
    lines = []
    for line in (tmp_path / "soft_hotpotqa.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        d["cited"] = d["cited"].replace("Reasoning: ", "Reasoning: This response is kept short. ")
        lines.append(json.dumps(d))
    (tmp_path / "soft_hotpotqa.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "tjb_lib", "audit", "--splits", str(tmp_path)],
                         capture_output=True, text=True, cwd=paths.ROOT, timeout=600)
    assert out.returncode == 1 and "BUDGET soft_hotpotqa" in out.stdout


@pytest.mark.parametrize("noise", [1e-12, -1e-12])
def test_words_of_one_weight_are_ranked_by_the_word_whatever_the_last_bits(noise):
    """Two n-grams that always occur together get one weight, up to the processor's last bits:
    the datasheet's word lists must not depend on which way those bits fall."""
    vocab = np.array(["reasoning written", "evidence written", "by", "oz"])
    weights = np.array([0.7 + noise, 0.7, -0.2, 0.9])
    assert [vocab[i] for i in audit._ranked(weights, vocab)] == [
        "oz", "evidence written", "reasoning written", "by"]
    assert [vocab[i] for i in audit._ranked(-weights, vocab)][0] == "by"
