"""The A / B / Tie buttons of notebook 11, clicked through ipywidgets' own API on real pairs:
every click saved, Back and resume, both rounds handed on as verdict rows, nothing of the key
on screen, each code its own draw and the last code's results off the screen."""
from __future__ import annotations

import html

import pandas as pd
import pytest

from tjb_lib.teaching import judge_yourself as jy
from tjb_lib.teaching.judge_yourself_ui import JudgeYourself


@pytest.fixture
def klass(tmp_path):
    return jy.Class(tmp_path, n_per_tier=2, seed=3)  # 6 pairs per code, two rounds: 12 items


@pytest.fixture
def folder(klass):
    """The workbooks of code "stu"."""
    return klass.workbooks("stu")


def _screen(app: JudgeYourself) -> str:
    return "".join(w.value for w in (app.heading, app.task, app.candidate_a, app.candidate_b))


def _click_all(app, pattern=("A", "B", "Tie")):
    clicked = []
    while not app.done:
        r, i = app.position
        label = pattern[len(clicked) % len(pattern)]
        clicked.append((app.rounds[r][0], app.rounds[r][1]["item_id"].iloc[i], label))
        app.buttons[label].click()
    return clicked


def test_clicking_through_both_rounds_saves_every_answer_and_hands_on_the_verdicts(klass, folder):
    done = []
    app = JudgeYourself(klass, "stu", on_done=done.append)
    assert app.position == (0, 0) and "Round 1 of 2" in app.heading.value
    assert html.escape(jy.instruction("L0")) in app.heading.value
    app.buttons["B"].click()
    saved = jy.read_answers(folder, "L0", "stu")  # on disk after the first click
    assert saved == {app.rounds[0][1]["item_id"].iloc[0]: "B"}
    clicked = [("L0", next(iter(saved)), "B")] + _click_all(app)
    assert len(clicked) == 12 and done and len(done) == 1
    assert all(b.disabled for b in app.buttons.values())
    verdicts = done[0]
    keys = {lv: pd.read_csv(klass.keys("stu") / f"{jy.stem(lv)}.key.csv").set_index("item_id")
            for lv in jy.LEVELS}
    got = verdicts.set_index(["level", "item_id"])["decision"]
    for level, item, label in clicked:
        a_side = keys[level].loc[item, "a_side"]
        want = {"A": a_side, "B": "plain" if a_side == "cited" else "cited", "Tie": "tie"}
        assert got[(level, item)] == want[label], (level, item)
    assert set(verdicts["pair_id"]) == set(keys["L0"]["pair_id"])


def test_round_two_says_the_instruction_changed(klass, folder):
    app = JudgeYourself(klass, "stu")
    for _ in range(6):
        app.buttons["Tie"].click()
    assert app.position == (1, 0)
    assert "Round 2 of 2" in app.heading.value and "instruction has changed" in app.heading.value
    assert html.escape(jy.instruction("L4")) in app.heading.value


def test_back_shows_the_previous_item_and_a_new_click_replaces_its_answer(klass, folder):
    app = JudgeYourself(klass, "stu")
    assert app.back.disabled
    first = app.rounds[0][1]["item_id"].iloc[0]
    app.buttons["A"].click()
    app.back.click()
    assert app.position == (0, 0) and "Your answer so far: <b>A</b>" in app.heading.value
    app.buttons["Tie"].click()
    assert jy.read_answers(folder, "L0", "stu") == {first: "Tie"} and app.position == (0, 1)


def test_a_new_session_resumes_at_the_first_unanswered_item(klass, folder):
    app = JudgeYourself(klass, "stu")
    for _ in range(8):
        app.buttons["A"].click()
    again = JudgeYourself(klass, "stu")
    assert again.position == (1, 2) and again.answers == app.answers
    other = JudgeYourself(klass, "someone_else")
    assert other.position == (0, 0)
    done = []
    _click_all(again)
    assert JudgeYourself(klass, "stu", on_done=done.append).done and len(done) == 1


def test_the_screen_shows_only_what_the_workbook_shows(klass, folder):
    app = JudgeYourself(klass, "stu")
    keys = pd.concat(pd.read_csv(klass.keys("stu") / f"{jy.stem(lv)}.key.csv")
                     for lv in jy.LEVELS)
    secrets = set(keys["pair_id"]) | set(keys["split"]) | set(keys["target_relation"])
    while not app.done:
        r, i = app.position
        item = app.rounds[r][1].iloc[i]
        screen = _screen(app)
        assert not [s for s in secrets if s in screen]
        for column in ("task", "candidate_A", "candidate_B"):  # whole, escaped, in <pre>
            assert "<pre" in screen and html.escape(item[column]) in screen
        app.buttons["Tie"].click()


def test_without_a_front_end_the_session_is_one_plain_line(klass, folder):
    bundle = JudgeYourself(klass, "stu")._repr_mimebundle_()
    assert bundle["text/plain"].startswith("Judge it yourself: 12 items in 2 rounds for 'stu'")
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_a_second_student_types_a_code_and_starts_afresh_and_the_first_keeps_theirs(klass, folder):
    app = JudgeYourself(klass, "stu")
    app.buttons["A"].click()
    app.buttons["B"].click()
    first = {lv: jy.read_answers(folder, lv, "stu") for lv in jy.LEVELS}
    app.code.value = "stu-2"
    app.start.click()
    assert app.annotator == "stu-2" and app.position == (0, 0)
    assert "0 of 12 answers saved" in app.status.value
    app.buttons["Tie"].click()
    assert {lv: jy.read_answers(folder, lv, "stu") for lv in jy.LEVELS} == first  # kept
    assert len(jy.read_answers(klass.workbooks("stu-2"), "L0", "stu-2")) == 1
    app.code.value = "stu"
    app.start.click()  # the first student comes back where they left off
    assert app.annotator == "stu" and app.position == (0, 2)
    app.code.value = "not a code!"
    app.start.click()
    assert app.annotator == "stu" and "annotator code" in app.status.value


def test_the_note_beside_the_code_says_what_start_will_do_with_the_code_typed(klass, folder):
    app = JudgeYourself(klass, "stu")
    assert "judging as <code>stu</code>" in app.code_note.value
    app.code.value = "stu-2"  # typed, not started: nothing written yet
    assert "Start begins afresh as <code>stu-2</code>" in app.code_note.value
    assert not klass.workbooks("stu-2").exists()
    app.code.value = "no good!"
    assert "letters, digits" in app.code_note.value and app.annotator == "stu"
    app.code.value = "stu-2"
    app.start.click()
    assert "judging as <code>stu-2</code>" in app.code_note.value
    app.code.value = "stu"  # a code with rounds of its own
    assert "Start resumes <code>stu</code>" in app.code_note.value


def test_candidates_wrap_between_words_only(klass, folder):
    app = JudgeYourself(klass, "stu")
    style = app.candidate_a.value.split("<pre style=\"", 1)[1].split("\"", 1)[0]
    assert "word-break: normal" in style and "overflow-wrap: break-word" in style


def test_two_codes_draw_apart_and_the_next_code_never_sees_the_last_ones_results(klass):
    shown = []
    app = JudgeYourself(klass, "stu", on_done=shown.append)
    _click_all(app)
    assert len(shown) == 1
    mine = {lv: set(pd.read_csv(klass.keys("stu") / f"{jy.stem(lv)}.key.csv")["pair_id"])
            for lv in jy.LEVELS}
    theirs = {p.pair_id for p in klass.draw("stu-2")}
    assert theirs != mine["L0"]  # another code, other pairs
    app.output.outputs = ({"output_type": "stream", "name": "stdout",
                           "text": "the results of stu"},)  # as on_done's display leaves them
    app.code.value = "stu-2"
    app.start.click()
    assert app.output.outputs == ()  # stu's results left the screen
    assert set(jy.items(klass.workbooks("stu-2"), "L0")["item_id"])  # stu-2's own rounds
    keys = {p.name for p in (klass.root / jy.KEYS).rglob("*.key.csv")}
    assert keys == {f"{jy.stem(lv)}.key.csv" for lv in jy.LEVELS}  # one key per round, hidden
    assert not list(klass.workbooks("stu").glob("*.key.csv"))  # none beside the workbooks
    shared = jy.Class(klass.root, 2, 3, shared_draw=True)
    assert [p.pair_id for p in shared.draw("a")] == [p.pair_id for p in shared.draw("b")]
