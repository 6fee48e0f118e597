"""A person as the judge: pairs drawn by tier, blind rounds as annotator workbooks, answers read
back through the key, the example rule and the readings of Tie, on the real splits."""
from __future__ import annotations

import filecmp

import numpy as np
import pandas as pd
import pytest

from tjb_lib.validation import annotate
from tjb_lib.teaching import explore
from tjb_lib.analysis import frontier
from tjb_lib.run import sample
from tjb_lib.teaching import judge_yourself as jy
from tjb_lib.pairs import load_split
from tjb_lib.protocols.templates import load_template
from tjb_lib.records import Pair


@pytest.fixture(scope="module")
def pairs():
    return jy.draw_pairs(3, seed=7)


@pytest.fixture
def rounds(tmp_path, pairs):
    jy.export_rounds(pairs, tmp_path, seed=11)
    return tmp_path


def _keys(folder):
    return {lv: pd.read_csv(folder / f"{jy.stem(lv)}.key.csv", dtype=str) for lv in jy.LEVELS}


def test_instruction_is_the_first_paragraph_of_the_levels_own_prompt():
    for level in jy.LEVELS:
        text = jy.instruction(level)
        user = load_template(f"ladder_{level}_p0").user
        assert user.startswith(text) and "JSON" not in text and "\n" not in text
    assert "answer Tie" in jy.instruction("L4") and "same correct final answer" in \
        jy.instruction("L4")


def test_pairs_are_drawn_per_tier_from_the_planned_sample_and_repeat_with_the_seed(pairs):
    tiers = explore.tier_of([p.target_relation for p in pairs])
    assert list(tiers) == ["equivalent"] * 3 + ["soft"] * 3 + ["moderate"] * 3
    for p in pairs:  # within the first N pairs judged, so stored verdicts cover them
        judged = load_split(p.split)[:sample.limit_for(p.split, "L0", "default")]
        assert p.pair_id in {q.pair_id for q in judged}
    assert [p.pair_id for p in jy.draw_pairs(3, seed=7)] == [p.pair_id for p in pairs]
    assert [p.pair_id for p in jy.draw_pairs(3, seed=8)] != [p.pair_id for p in pairs]
    with pytest.raises(ValueError, match="fewer than n_per_tier"):
        jy.draw_pairs(10_000, seed=7)


def test_each_code_draws_its_own_pairs_again_and_again_and_a_class_keeps_keys_hidden(tmp_path):
    draws = {code: [p.pair_id for p in jy.draw_pairs(1, 7, code=code)]
             for code in ("ana", "ben", "chloe", "dev")}
    assert len({tuple(d) for d in draws.values()}) == len(draws)  # four codes, four draws
    assert [p.pair_id for p in jy.draw_pairs(1, 7, code="ana")] == draws["ana"]
    klass = jy.Class(tmp_path / "class", 1, 7)
    folder = klass.prepare("ana")
    assert folder == tmp_path / "class" / "ana" and not list(folder.rglob("*.key.csv"))
    key = pd.read_csv(tmp_path / "class" / jy.KEYS / "ana" / "judge_yourself_L0.key.csv")
    assert sorted(key["pair_id"]) == sorted(draws["ana"])
    with pytest.raises(ValueError, match="annotator code"):
        klass.prepare("../ben")


def test_a_students_draw_never_holds_a_pair_of_the_shipped_example():
    example = set(jy.example_pair_ids())
    assert len(example) == 3 * jy.EXAMPLE_DRAW["n_per_tier"]
    for seed in (jy.EXAMPLE_DRAW["seed"], 1, 2, 3):
        for n in (1, jy.EXAMPLE_DRAW["n_per_tier"]):
            for code in (None, "you", "x-1"):
                assert not {p.pair_id for p in jy.draw_pairs(n, seed, code=code)} & example, \
                    (seed, n, code)


def test_the_reading_load_counts_the_words_a_student_reads(rounds):
    load = jy.reading_load(rounds).set_index("round")
    shown = jy.items(rounds, "L4")
    words = len(jy.instruction("L4").split()) + sum(
        len(t.split()) for c in ("task", "candidate_A", "candidate_B") for t in shown[c])
    assert load.loc["L4", "words"] == words and load.loc["L4", "items"] == len(shown)
    assert load.loc["L4", "minutes"] == pytest.approx(words / jy.READING_WPM)
    note = jy.reading_note(rounds)
    assert f"{len(shown) * 2} answers in 2 rounds" in note and f"{words:,} in round L4" in note


def test_the_readme_says_how_long_the_class_size_takes(tmp_path):
    """The default draw of notebook 11 (one pair per tier), measured as the notebook does."""
    import ast
    import re

    import jupytext

    from tjb_lib import paths

    nb = jupytext.read(paths.NOTEBOOKS / "11_judge_yourself.py")
    params = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    defaults = {t.id: ast.literal_eval(n.value) for n in ast.parse(params.source).body
                if isinstance(n, ast.Assign) for t in n.targets}
    jy.export_rounds(jy.draw_pairs(defaults["n_per_tier"], defaults["seed"]), tmp_path,
                     defaults["seed"])
    readme = (paths.ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"notebook 11 at its class size[^.]*?: (.+? minutes of reading at \d+ "
                     r"words a minute)", readme, re.S)
    assert said, "the README does not say how long notebook 11 takes"
    assert " ".join(said.group(1).split()) in jy.reading_note(tmp_path)


def test_rounds_are_blind_and_shuffled_afresh(rounds, pairs):
    keys = _keys(rounds)
    for level in jy.LEVELS:
        shown = jy.items(rounds, level)
        assert list(shown.columns) == list(annotate.SHOWN_COLUMNS)
        workbook = pd.read_csv(rounds / f"{jy.stem(level)}.csv", dtype=str)
        assert not {"pair_id", "split", "target_relation", "gold", "a_side"} & set(workbook)
        assert set(keys[level]["pair_id"]) == {p.pair_id for p in pairs}
    by_pair = [k.set_index("pair_id")[["item_id", "a_side"]] for k in keys.values()]
    joined = by_pair[0].join(by_pair[1], rsuffix="_L4")
    assert (joined["item_id"] != joined["item_id_L4"]).any()  # another item order
    assert (joined["a_side"] != joined["a_side_L4"]).any()  # other sides shown as A


def test_answers_are_saved_as_a_workbook_that_reimports_through_the_key(rounds):
    shown = jy.items(rounds, "L0")
    answers = dict(zip(shown["item_id"][:4], ["A", "B", "Tie", "A"]))
    path = jy.write_answers(rounds, "L0", "R9", answers)
    assert path == rounds / "labels" / "judge_yourself_L0" / "R9.csv"
    assert jy.read_answers(rounds, "L0", "R9") == answers
    back = annotate.import_workbook(path, rounds / "judge_yourself_L0.key.csv", annotator="R9",
                                    partial=True)
    assert list(back["item_id"]) == list(shown["item_id"][:4])  # unanswered items left out
    key = _keys(rounds)["L0"].set_index("item_id")
    for item, label in answers.items():
        a_side = key.loc[item, "a_side"]
        want = {"A": a_side, "B": "plain" if a_side == "cited" else "cited", "Tie": "tie"}[label]
        assert back.set_index("item_id").loc[item, "preference"] == want
    assert [s["stem"] for s in annotate.label_sets(rounds)] == ["judge_yourself_L0"]


def test_bad_answers_and_answers_from_another_draw_are_refused(rounds, tmp_path_factory):
    item = jy.items(rounds, "L0")["item_id"].iloc[0]
    with pytest.raises(ValueError, match="must be one of"):
        jy.write_answers(rounds, "L0", "R1", {item: "C"})
    with pytest.raises(ValueError, match="not in the workbook"):
        jy.write_answers(rounds, "L0", "R1", {"G999": "A"})
    with pytest.raises(ValueError, match="annotator code"):
        jy.answers_path(rounds, "L0", "../R1")
    path = jy.write_answers(rounds, "L0", "R1", {item: "A"})
    filled = pd.read_csv(path, dtype=str, keep_default_na=False)
    filled.loc[0, "candidate_A"] += " (edited)"
    filled.to_csv(path, index=False)
    with pytest.raises(ValueError, match="R1.csv: its items differ"):
        jy.read_answers(rounds, "L0", "R1")


def test_verdicts_name_the_side_the_key_gives_in_both_rounds(rounds):
    for i, level in enumerate(jy.LEVELS):
        shown = jy.items(rounds, level)
        jy.write_answers(rounds, level, "R2", {item: jy.ANSWERS[(j + i) % 3]
                                               for j, item in enumerate(shown["item_id"])})
    v = jy.read_verdicts(rounds, "R2")
    assert len(v) == 18 and set(v["level"]) == set(jy.LEVELS) and set(v["judge"]) == {"R2"}
    # the positional label and the order give back the side, as for any judge's verdict rows
    assert (frontier.decisions_from_labels(v["parsed"], v["order"]) == v["decision"]).all()
    keys = pd.concat([k.assign(level=lv) for lv, k in _keys(rounds).items()])
    merged = v.merge(keys, on=["level", "item_id", "pair_id"])
    assert ((merged["a_side"] == "cited") == (merged["order"] == "cited_first")).all()
    with pytest.raises(FileNotFoundError, match="no answers of 'nobody'"):
        jy.read_verdicts(rounds, "nobody")


def _pair(plain, cited, relation="equivalent"):
    return Pair(pair_id="p", split="mechanical_hotpotqa", source="hotpotqa", source_id="s",
                target_relation=relation, gold="tie", task="q?", plain=plain, cited=cited)


def test_example_rule_reads_only_the_shown_candidates():
    plain = "Answer: Paris\n\nEvidence:\n- Paris is the capital of France."
    cited = "Answer: Paris [1]\n\nEvidence:\n- Paris is the capital of France. [1]\n\n" \
            "Sources:\n[1] “France”"
    longer = plain + "\n- France is in Europe."
    assert jy.example_answer("L0", plain, plain) == "Tie"
    assert jy.example_answer("L0", plain, cited) == "B"  # same substance: the display sways it
    assert jy.example_answer("L0", longer, cited) == "A"  # more substance wins
    assert jy.example_answer("L4", longer, cited) == "Tie"  # same final answer under L4
    other = "Answer: Lyon\n\nEvidence:\n- Paris is the capital of France."
    assert jy.example_answer("L4", other, longer) == "B"  # answers differ: the L0 rule
    brief = "Answer in brief: Paris [1].\n\nParis is the capital of France."  # another form
    assert jy.example_answer("L4", brief, longer) == "Tie"
    assert jy.final_answer("no answer here") is None


def test_shipped_example_is_what_the_rule_writes_from_the_current_splits(tmp_path):
    written = jy.write_example(tmp_path)
    shipped = sorted(p.relative_to(jy.EXAMPLE_DIR) for p in jy.EXAMPLE_DIR.rglob("*.csv"))
    assert sorted(p.relative_to(tmp_path) for p in written) == shipped
    stale = [str(p) for p in shipped
             if not filecmp.cmp(tmp_path / p, jy.EXAMPLE_DIR / p, shallow=False)]
    assert not stale, (f"data/judge_yourself/example is stale ({stale}); rewrite it with "
                       "`python -m tjb_lib.teaching.judge_yourself`")
    for level in jy.LEVELS:
        filled = pd.read_csv(jy.answers_path(jy.EXAMPLE_DIR, level, jy.EXAMPLE_ANNOTATOR),
                             dtype=str, keep_default_na=False)
        assert (filled["comment"] == jy.EXAMPLE_COMMENT).all()
        assert [jy.example_answer(level, a, b) for a, b in
                zip(filled["candidate_A"], filled["candidate_B"])] == list(filled["q5_preference"])


def _verdicts(rows):
    return pd.DataFrame([{"judge": "me", "level": lv, "pair_id": pid, "target_relation": rel,
                          "decision": d, "order": "cited_first", "split": "s", "item_id": pid}
                         for lv, pid, rel, d in rows])


def test_tie_readings_count_each_meaning_and_the_gaps_lost():
    v = _verdicts([("L0", "e1", "equivalent", "cited"), ("L4", "e1", "equivalent", "tie"),
                   ("L0", "s1", "quality_soft", "plain"), ("L4", "s1", "quality_soft", "tie"),
                   ("L0", "m1", "quality_moderate", "plain"),
                   ("L4", "m1", "quality_moderate", "tie"),
                   ("L0", "m2", "quality_moderate", "plain"),
                   ("L4", "m2", "quality_moderate", "plain")])
    text = jy.tie_readings(v)
    eq, soft, moderate = text.split("\n\n")
    assert eq.startswith("**equivalent: Tie is correct.**")
    assert "under L0, Tie 0 of 1 and cited wins 1; under L4, Tie 1 of 1 and cited wins 0" in eq
    assert soft.startswith("**soft: Tie is calibrated.**")
    assert moderate.startswith("**moderate: Tie is costly.**")
    assert "under L4, Tie 1 of 2 and better-plain wins 1" in moderate
    assert "1 of the 2 gaps resolved under L0 became a Tie under L4" in moderate


def test_reveal_puts_the_key_beside_both_answers_per_pair():
    v = _verdicts([("L0", "m1", "quality_moderate", "plain"),
                   ("L4", "m1", "quality_moderate", "tie"),
                   ("L0", "e1", "equivalent", "cited"), ("L4", "e1", "equivalent", "tie")])
    v.loc[1, "order"] = "plain_first"
    got = jy.reveal(v)
    assert list(got["tier"]) == ["equivalent", "moderate"]
    m = got.set_index("pair_id").loc["m1"]
    assert (m["L0_shown_as_A"], m["L4_shown_as_A"]) == ("cited", "plain")
    assert (m["L0_decision"], m["L4_decision"]) == ("plain", "tie")
    assert not np.any(got.isna().to_numpy())
