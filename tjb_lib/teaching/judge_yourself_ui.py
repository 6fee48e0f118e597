"""The A / B / Tie buttons of notebook 11: one blind item at a time, every click saved to the
student's workbook at once, and the student's verdicts handed on when both rounds are done.

The screen shows only what an annotator's workbook shows (the round's instruction, the task and
candidates A and B); the key stays on disk until the verdicts are read back. Text is shown in
``<pre>`` blocks, HTML-escaped, so FinQA's "$" amounts are never typeset as math, and wrapped
between words only (JupyterLab's own style for ``<pre>`` breaks words anywhere: "Liber al").
A student types a code of their own to start afresh on the pairs that code draws (the last
student's workbook is kept, and their results leave the screen) or to come back to their own.
"""
from __future__ import annotations

import html
from typing import Callable

import ipywidgets as widgets
import pandas as pd

from tjb_lib.teaching import judge_yourself as jy

_PRE = ('<pre style="white-space: pre-wrap; word-break: normal; overflow-wrap: break-word; '
        'font-size: 0.85em; margin: 0; max-height: 28em; overflow-y: auto">{}</pre>')


class JudgeYourself:
    """Both rounds of one student's session in a class (``jy.Class``: each code's own draw and
    workbooks, the keys apart).

    Answers already saved for ``annotator`` are read back first, so reopening the notebook
    resumes where the student stopped. ``on_done(verdicts)`` runs (its output shown under the
    buttons) once every item of both rounds has an answer.
    """

    def __init__(self, klass: jy.Class, annotator: str = "you",
                 on_done: Callable[[pd.DataFrame], None] | None = None):
        self.klass, self.on_done = klass, on_done
        self.code = widgets.Text(value=annotator, description="your code",
                                 tooltip="letters, digits, - or _")
        self.start = widgets.Button(description="Start with this code",
                                    tooltip="a new code starts afresh; a code used before resumes",
                                    layout=widgets.Layout(width="auto"))
        self.start.on_click(lambda _: self.begin(self.code.value.strip()))
        self.code_note = widgets.HTML()
        self.code.observe(lambda _: self._say_code(), names="value")
        self.heading = widgets.HTML()
        self.task = widgets.HTML()
        self.candidate_a = widgets.HTML(layout=widgets.Layout(width="50%"))
        self.candidate_b = widgets.HTML(layout=widgets.Layout(width="50%"))
        self.buttons = {label: widgets.Button(description=label, tooltip=f"answer {label}")
                        for label in jy.ANSWERS}
        for label, button in self.buttons.items():
            button.on_click(lambda _, label=label: self.answer(label))
        self.back = widgets.Button(description="Back", tooltip="change the previous answer")
        self.back.on_click(lambda _: self.go_back())
        self.status = widgets.HTML()
        self.output = widgets.Output()
        self.widget = widgets.VBox([
            widgets.HBox([self.code, self.start, self.code_note]), self.heading, self.task,
            widgets.HBox([self.candidate_a, self.candidate_b]),
            widgets.HBox([*self.buttons.values(), self.back]), self.status, self.output])
        self.begin(annotator)

    def begin(self, annotator: str) -> None:
        """Judge as ``annotator``: resume that code's saved answers, or start afresh with a new
        code (every other code's workbook stays as it is)."""
        try:
            jy.check_code(annotator)
        except ValueError as e:
            if not hasattr(self, "annotator"):
                raise  # the notebook's own parameter: say so where it is set
            self.status.value = f"<b>{html.escape(str(e))}</b>"
            return
        self.output.outputs = ()  # the last student's results go first (their workbook stays)
        self.folder = self.klass.prepare(annotator)
        self.rounds = [(level, jy.items(self.folder, level)) for level in jy.LEVELS]
        self.annotator = self.code.value = annotator
        self._say_code()
        self.answers = {level: jy.read_answers(self.folder, level, annotator)
                        for level in jy.LEVELS}
        self.position = self._first_open()
        self._show()
        if self.position is None:
            self._finish()

    # ------------------------------------------------------------------ state

    def _first_open(self) -> tuple[int, int] | None:
        for r, (level, shown) in enumerate(self.rounds):
            for i, item in enumerate(shown["item_id"]):
                if item not in self.answers[level]:
                    return r, i
        return None

    @property
    def done(self) -> bool:
        return self._first_open() is None

    def answer(self, label: str) -> None:
        """Record ``label`` (A, B or Tie) for the item on screen, save the round, move on."""
        if self.position is None:
            return
        r, i = self.position
        level, shown = self.rounds[r]
        self.answers[level][shown["item_id"].iloc[i]] = label
        jy.write_answers(self.folder, level, self.annotator, self.answers[level])
        if i + 1 < len(shown):
            self.position = (r, i + 1)
        elif r + 1 < len(self.rounds):
            self.position = (r + 1, 0)
        else:
            self.position = self._first_open()
        self._show()
        if self.position is None:
            self._finish()

    def go_back(self) -> None:
        """Show the previous item again (its answer stays until a new one is clicked)."""
        if self.position is None:
            r, i = len(self.rounds) - 1, len(self.rounds[-1][1])
        else:
            r, i = self.position
        if i > 0:
            self.position = (r, i - 1)
        elif r > 0:
            self.position = (r - 1, len(self.rounds[r - 1][1]) - 1)
        self._show()

    # ------------------------------------------------------------------ screen

    def _say_code(self) -> None:
        """Say beside the field what Start does with the code as the kernel holds it: the
        browser sends typed letters behind a click while the kernel is busy, so the note is
        what to read (and what a test waits for) before Start."""
        code = self.code.value.strip()
        try:
            folder = self.klass.workbooks(code)
        except ValueError:
            self.code_note.value = "<i>a code is letters, digits, - or _</i>"
            return
        if code == self.annotator:
            self.code_note.value = f"<i>judging as <code>{html.escape(code)}</code></i>"
        elif folder.exists():
            self.code_note.value = f"<i>Start resumes <code>{html.escape(code)}</code></i>"
        else:
            self.code_note.value = f"<i>Start begins afresh as <code>{html.escape(code)}</code></i>"

    def _show(self) -> None:
        total = sum(len(shown) for _, shown in self.rounds)
        given = sum(len(a) for a in self.answers.values())
        self.status.value = (f"{given} of {total} answers saved under "
                             f"<code>{html.escape(str(self.folder / 'labels'))}</code>")
        for button in self.buttons.values():
            button.disabled = self.position is None
        self.back.disabled = self.position == (0, 0)
        if self.position is None:
            self.heading.value = "<b>Both rounds done.</b> Your verdicts are below."
            self.task.value = self.candidate_a.value = self.candidate_b.value = ""
            return
        r, i = self.position
        level, shown = self.rounds[r]
        item = shown.iloc[i]
        note = (" <b>The instruction has changed:</b> read it before you answer."
                if r > 0 and i == 0 else "")
        previous = self.answers[level].get(item["item_id"])
        self.heading.value = (
            f"<b>Round {r + 1} of {len(self.rounds)}</b> · item {i + 1} of {len(shown)} "
            f"(<code>{html.escape(item['item_id'])}</code>){note}<br>"
            f"<i>Instruction:</i> {html.escape(jy.instruction(level))}"
            + (f"<br>Your answer so far: <b>{previous}</b>" if previous else ""))
        self.task.value = "<b>Task</b>" + _PRE.format(html.escape(item["task"]))
        for box, column in ((self.candidate_a, "candidate_A"), (self.candidate_b, "candidate_B")):
            box.value = f"<b>Candidate {column[-1]}</b>" + _PRE.format(html.escape(item[column]))

    def _finish(self) -> None:
        verdicts = jy.read_verdicts(self.folder, self.annotator,
                                    keys=self.klass.keys(self.annotator))
        self.output.clear_output()
        if self.on_done is not None:
            with self.output:
                self.on_done(verdicts)

    def _repr_mimebundle_(self, **kwargs):
        """The widget in a live front end; a short line where none runs (papermill, a viewer)."""
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        total = sum(len(shown) for _, shown in self.rounds)
        bundle["text/plain"] = (f"Judge it yourself: {total} items in {len(self.rounds)} rounds "
                                f"for {self.annotator!r}; the buttons need a running kernel "
                                "(open the notebook in JupyterLab).")
        return bundle
