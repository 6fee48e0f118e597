"""The set-up every section notebook shares, in one call.

``nb = notebook.setup("04_resolution_loss", judge=judge, scale=scale, seed=seed,
replay_only=replay_only, outputs_dir=outputs_dir)`` checks the parameters by type, says which
judge is reading (the paragraph on the weak embedded judge lives here and nowhere else), runs or
replays exactly the runs the notebook's floats and claims need (``tjb_lib.paper.floats``), and says
first what the position-only controls show about that judge. ``nb.show("table_a11")`` then
computes one float, writes it (table and figure) if this notebook owns it, draws its figure
inside the notebook and returns the table as a reader should see it; ``nb.claims()`` does the
same for the paper's in-text numbers.
"""
from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Sequence

import pandas as pd

from tjb_lib.paper import compare, floats, sections
from tjb_lib import paths
from tjb_lib.analysis import stats
from tjb_lib.judges.provider import JudgeSpec
from tjb_lib.paper.paper_match import RULE
from tjb_lib.paper.position import (DRIVEN_COLUMN, caveat, driven_mark, position_levels,
                              position_reading, slot_picking)
from tjb_lib.run.results import results_dir
from tjb_lib.run.sample import SCALES
from tjb_lib.protocols.specs import setting_name
from tjb_lib.paper.report import present, save_figure, write_table

#: what a reader of a comparison table needs, in this order, after the row's own keys; every other
#: column (n_unparsed, n_failed, interval kind, the judge, notes) is in the CSV a link away
READER_COLUMNS = ("setting", "metric", "quantity", "paper", "unit", "ours", "ours 95% CI", "n",
                  "unparsed", "agrees", "status")
#: the columns that identify a row of a comparison or claims table (kept before the others)
ROW_KEYS = ("paper_judge", "claim_id")
#: papermill parameters and the types they must have (a string "False" is not False)
PARAMETERS = {"judge": (str,), "scale": (str,), "seed": (int,), "replay_only": (bool,),
              "outputs_dir": (str, Path), "base_url": (str,), "model": (str,)}
SCRATCH = Path(".cache") / "splits"  # other seeds build here (gitignored), never in data/splits


class ParameterError(ValueError):
    """A papermill parameter set wrong. IPython shows this error as its one line, without the
    frames that raised it (``_render_traceback_``), so the set-up cell fails with the message
    alone."""

    def _render_traceback_(self) -> list[str]:
        return [f"ParameterError: {self}"]


def _bad_input_errors() -> tuple[type[BaseException], ...]:
    """The errors whose message names the file and item to fix (or the key, the budget, the
    folder): a damaged split, store or rows line, a missing manifest or key, a budget reached,
    a batch that failed, a file that cannot be read or written."""
    from tjb_lib.data import DataError
    from tjb_lib.judges.base import FatalJudgeError
    from tjb_lib.judges.batch import BatchError
    from tjb_lib.runner.comparisons import RunError
    from tjb_lib.store import SecretLeakError, StoreError
    from tjb_lib.validation.annotate import WorkbookError

    return (RunError, StoreError, SecretLeakError, FatalJudgeError, BatchError, DataError,
            WorkbookError, OSError)


def _one_line(shell, etype, value, tb, tb_offset=None) -> list[str]:
    """Show a bad-input error as its type and message on one line (a file error as the file,
    then what went wrong), redacted like everything the kernel prints: given to IPython as the
    error's own rendering (``_render_traceback_``, as ``ParameterError`` has), so the error the
    kernel reports (papermill's, the executed copy's) holds that line alone."""
    from tjb_lib.redaction import redact

    if isinstance(value, OSError) and value.filename and value.strerror:
        message = f"{value.filename}: {value.strerror}"
    else:
        message = str(value)
    line = [redact(f"{etype.__name__}: {' '.join(message.split())}")]
    value._render_traceback_ = lambda: line
    shell.showtraceback((etype, value, tb))
    return line


def one_line_errors() -> None:
    """In a notebook kernel, show a bad-input error (``_bad_input_errors``) as its one line, as
    the command line does, instead of under the library frames that raised it; the cell still
    fails, so papermill and ``reproduce`` stop there with a non-zero exit. Elsewhere nothing."""
    import sys

    ipython = sys.modules.get("IPython")  # not imported: no shell to tell
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        shell.set_custom_exc(_bad_input_errors(), _one_line)


def check_parameters(judge: str, scale: str = "default", seed: int = 0,
                     replay_only: bool = False, outputs_dir: str | Path = "",
                     base_url: str = "", model: str = "") -> JudgeSpec:
    """Fail early, in one line (``ParameterError``), on a parameter of the wrong type or a name
    the library does not know: ``replay_only="False"`` and ``seed="abc"`` are errors, not True
    and a seed. Returns the judge the name resolves to (with ``base_url`` and ``model``, as
    ``judge --base-url --model`` resolves it), for the rest of the notebook. Every notebook
    calls it first, so from here on its kernel shows bad input in one line
    (``one_line_errors``)."""
    from tjb_lib.judges.catalog import resolve

    one_line_errors()
    values = {"judge": judge, "scale": scale, "seed": seed, "replay_only": replay_only,
              "outputs_dir": outputs_dir, "base_url": base_url, "model": model}
    for name, value in values.items():
        types = PARAMETERS[name]
        if isinstance(value, bool) and bool not in types or not isinstance(value, types):
            want = " or ".join("True or False" if t is bool else t.__name__ for t in types)
            raise ParameterError(f"parameter {name} must be {want}, got {value!r} "
                                 f"({type(value).__name__})")
    if not judge:
        raise ParameterError("parameter judge must name a judge, got ''")
    try:
        spec = resolve(judge, base_url or None, model or None)
    except (KeyError, ValueError) as e:
        raise ParameterError(f"parameter judge: {e.args[0] if e.args else e}") from None
    if scale not in SCALES:
        raise ParameterError(f"unknown scale {scale!r}; known scales: {', '.join(SCALES)}")
    return spec


def claim_columns() -> tuple[str, ...]:
    """The columns of a claims table (``tjb_lib.paper.claims``)."""
    from tjb_lib.paper.claims import COLUMNS

    return COLUMNS


def output_dirs(judge: str, outputs_dir: str | Path | None = None) -> tuple[Path, Path]:
    """(tables, figures) folders of the results of ``judge`` (its catalog name;
    ``results.results_dir``)."""
    root = results_dir(judge, outputs_dir)
    return root / "tables", root / "figures"


def about_judge(spec: JudgeSpec, returned: Sequence[str] = ()) -> str:
    """Who our judge is, beside the paper's five: the one paragraph every notebook shows. It opens
    with the judge as it ran (``tjb_lib.paper.judge_identity``: endpoint, the ids it answered as), so a
    catalog name served by another model is never read as the paper's judge."""
    from tjb_lib.paper.judge_identity import identity

    who = identity(spec, returned)
    if spec.role == "embedded":
        return (f"**Our judge: `{spec.name}`** ({spec.model}), a 135M-parameter model that runs "
                "on a laptop CPU, not one of the paper's judges (GPT-5.5, Claude Sonnet 4.6, "
                "DeepSeek V4-Flash, Qwen2.5-14B, Gemma-3-12B). It answers the first slot almost "
                "regardless of content, so its numbers are **not expected to match the "
                "paper's**: it is here so that every step runs end to end offline, and it shows "
                "exactly the failure the position-only controls are built to catch. Every "
                "table names our judge in its `judge` column, with our n, the unparsed share "
                "and a 95% interval beside the paper's value. Run a paper judge by name "
                "(`judge = \"gpt-5.5\"`, ...) to compare like with like.")
    return (f"{who.describe()} {spec.notes} Every table names it in its `judge` column, with our "
            "n, the unparsed share and a 95% interval beside the paper's value.").replace(
                "  ", " ")


def show_every_column() -> None:
    """Show every column, row and all of each cell of the tables a notebook displays: pandas
    would hide the middle of a wide or long table, and the end of a long note, behind "..."."""
    pd.set_option("display.max_columns", None)
    pd.set_option("display.max_rows", None)
    pd.set_option("display.max_colwidth", None)
    pd.set_option("display.width", None)


def _display(obj) -> None:
    from IPython.display import Markdown, display

    display(Markdown(obj) if isinstance(obj, str) else obj)


def interval_notes(table: pd.DataFrame) -> list[str]:
    """What each kind of interval in a table's ``interval`` column is, and, where a bootstrap
    is among them, the paper's two sentences that name its units (§3 and App. E.5 differ)."""
    if "interval" not in table.columns:
        return []
    kinds = [k for k in stats.INTERVALS if k in set(table["interval"].dropna())]
    out = [f"`interval` {k}: {stats.INTERVALS[k]}." for k in kinds]
    if any("bootstrap" in k for k in kinds):
        out.append(f"The paper: \"{stats.PAPER_PAIR_LEVEL}\" and \"{stats.PAPER_PAIR_BY_ORDER}\"")
    return out


class Notebook:
    """One section notebook's context: its parameters, output folders and verdict rows."""

    def __init__(self, name: str, judge: str | JudgeSpec, scale: str, seed: int,
                 replay_only: bool, outputs_dir: str | Path, also: Sequence[str] = ()):
        from tjb_lib.judges.catalog import resolve

        self.name = sections.check(name)
        self.spec = judge if isinstance(judge, JudgeSpec) else resolve(judge)
        self.judge, self.scale, self.seed = self.spec.name, scale, seed
        self.replay_only = replay_only
        self.tables, self.figures = output_dirs(self.judge, outputs_dir)
        self.also = tuple(also)
        self.rows = pd.DataFrame()
        self.not_stored: list = []
        self._manifest: dict | None = None
        self._cache: dict[str, pd.DataFrame] = {}

    # ------------------------------------------------------------------ verdicts

    def load(self, progress: bool = False) -> None:
        """Run or replay every run this notebook needs (``sample.notebook_jobs``)."""
        from tjb_lib.run import sample

        jobs = sample.notebook_jobs(self.name, self.scale, self.also)
        if not jobs:
            return
        self.rows = sample.run_jobs(jobs, self.spec, replay_only=self.replay_only,
                                    progress=progress)
        self.not_stored = self.rows.attrs.get("not_stored", [])

    def runs(self) -> pd.DataFrame:
        """Per run: ordered comparisons, parsed verdicts, unparsed and failed replies."""
        if self.rows.empty:
            return pd.DataFrame(columns=["split", "setting", "paraphrases", "comparisons",
                                         "parsed", "unparsed", "failed"])
        r = self.rows.assign(setting=[setting_name(p, lv) for p, lv in zip(
            self.rows["protocol"], self.rows["level"].fillna(""))])
        d = r["decision"]
        return (r.assign(parsed=d.isin(("cited", "plain", "tie")), unparsed=d.eq("unparsed"),
                         failed=d.eq("failed"))
                .groupby(["split", "setting"], sort=False)
                .agg(paraphrases=("paraphrase", "nunique"), comparisons=("decision", "size"),
                     parsed=("parsed", "sum"), unparsed=("unparsed", "sum"),
                     failed=("failed", "sum")).reset_index())

    @property
    def returned(self) -> list[str]:
        """The model ids the judge's endpoint answered as, from its verdict rows."""
        from tjb_lib.paper.judge_identity import from_rows

        return list(from_rows(self.spec, self.rows).returned)

    @cached_property
    def position(self) -> list[dict]:
        return position_levels(self.rows, self.judge)

    @property
    def position_driven(self) -> bool:
        return slot_picking(self.position) is not None

    def caution(self) -> str:
        """The position-control reading, as the first thing said about this judge."""
        text = position_reading(self.judge, self.position)
        return ("**Position-driven judge.** " if self.position_driven else
                "**Position-only controls.** ") + text

    # ------------------------------------------------------------------ floats

    def comparison(self, name: str) -> pd.DataFrame:
        """The full table of one float (every column, every digit), computed once."""
        if name not in self._cache:
            f = floats.get(name)
            ran = {s for s, _ in f.runs}
            if f.comparison is not None:
                table = compare.compare_float(name, self.rows, self.judge, self.seed)
            elif f.table is not None and ran and (self.rows.empty or not ran & set(
                    self.rows.loc[self.rows["judge"] == self.judge, "split"])):
                table = pd.DataFrame({"status": ["not run"], "judge": [self.judge],
                                      "note": [f"no verdict rows of {self.judge} for "
                                               f"{', '.join(sorted(ran))}"]})
            elif f.table is not None:
                table = f.table(self)
            else:
                raise ValueError(f"{name} is built by its notebook ({f.notebook}), not here")
            self._cache[name] = table
        return self._cache[name]

    def show(self, name: str) -> pd.DataFrame:
        """Compute float ``name``, write it (and save its figure) if this notebook owns it, draw
        its figure here, and return the table as the reader sees it (``report.present``)."""
        import matplotlib.pyplot as plt

        f = floats.get(name)
        table = self.comparison(name)
        notes = self.notes(table, controls=f.name == "table_a16")
        if f.notebook == self.name:
            write_table(self.marked(table), name, self.tables, notes)
        if self.position_driven and f.name != "table_a16":
            _display(f"*{caveat(self.judge, 'figure and its table' if f.figure else 'table')}*")
        if f.figure is not None:
            fig = f.figure(table)
            if f.notebook == self.name:
                save_figure(fig, name, self.figures)
            _display(fig)
            plt.close(fig)
            _display(f.caption)
        return self.reader(table, name)

    def claims(self) -> pd.DataFrame:
        """The paper's in-text numbers this notebook computes, ours beside each
        (``claims_<notebook>``), written and returned as the reader sees them."""
        from tjb_lib.paper import claims

        table = self.marked(claims.table(self))
        write_table(table, f"claims_{self.name}", self.tables, self.notes(table))
        if self.position_driven:  # the caveat REPORT.md puts above its claims, here too
            _display(f"*{caveat(self.judge)}*")
        return self.reader(table, f"claims_{self.name}")

    def reader(self, table: pd.DataFrame, name: str) -> pd.DataFrame:
        """A table as the notebook shows it (``report.present``): for a table with the paper's
        values beside ours, only the row's keys and :data:`READER_COLUMNS`, so it fits the
        notebook's width, with a link to the CSV that holds every column (the judge is named
        above it)."""
        shown = present(table)
        if {"paper", "ours"} <= set(table.columns):
            if "status" in table.columns:
                shown["status"] = table["status"].fillna("").to_numpy()
            claims = "claim_id" in table.columns  # its quantity says what the setting is
            keys = [c for c in shown.columns if c in ROW_KEYS] + [
                c for c in shown.columns if c in table.columns and c not in ROW_KEYS
                and c not in READER_COLUMNS and c not in compare.OUT_COLUMNS
                and c not in claim_columns()]
            lead = keys + [c for c in READER_COLUMNS if c in shown.columns
                           and not (claims and c == "setting")]
        else:  # a table of ours: without the counts behind its rates and the judge's name
            lead = [c for c in shown.columns if not (
                (c.startswith("n_") and c[2:] in shown.columns) or c == "unparsed 95% CI"
                or (c == "judge" and shown[c].nunique() <= 1))]
        if lead == list(shown.columns):
            return shown
        from tjb_lib.paper.judge_identity import from_rows

        who = from_rows(self.spec, self.rows)
        stand_in = f" ({who.not_papers})" if who.stand_ins else ""
        _display(f"Ours: `{self.judge}`{stand_in}. The columns a reader needs; every column and "
                 f"digit: [{name}.csv]({self._link(name)}).")
        return shown[lead]

    def _link(self, name: str) -> str:
        """The table's CSV as a link from where this notebook is read: beside the executed copy
        (``../tables/``) in a judge's results, else relative to the running notebook."""
        import os

        from tjb_lib.run.results import STAGING_ENV

        if os.environ.get(STAGING_ENV):
            return f"../tables/{name}.csv"
        return Path(os.path.relpath(self.tables / f"{name}.csv", Path.cwd())).as_posix()

    def marked(self, table: pd.DataFrame) -> pd.DataFrame:
        """A table with an ``agrees`` column, plus :data:`DRIVEN_COLUMN` beside it: whether this
        judge's position-only controls show it answering one slot, so a CSV read alone still
        says how to read its ``agrees``."""
        if "agrees" not in table.columns:
            return table
        out = table.copy()
        out.insert(out.columns.get_loc("agrees") + 1, DRIVEN_COLUMN, driven_mark(self.position))
        return out

    def notes(self, table: pd.DataFrame, controls: bool = False) -> list[str]:
        """What a written table says under it: the position-driven caveat (not on the controls
        themselves), then the rule of its ``agrees`` column."""
        from tjb_lib.paper.judge_identity import from_rows

        who = from_rows(self.spec, self.rows)
        out = [f"*Ours: {self.judge} {who.not_papers}.*"] if who.stand_ins else []
        out += [f"*{caveat(self.judge)}*"] if self.position_driven and not controls else []
        return out + ([RULE] if "agrees" in table.columns else []) + interval_notes(table)

    # ------------------------------------------------------------------ splits (notebook 00)

    @property
    def manifest(self) -> dict:
        """The manifest of the splits this notebook reads: the shipped one unless
        :meth:`check_splits` built another seed."""
        if self._manifest is None:
            import json

            self._manifest = json.loads((paths.SPLITS / "manifest.json").read_text("utf-8"))
        return self._manifest

    def check_splits(self) -> pd.DataFrame:
        """Build the splits of this seed without ever writing data/splits: the shipped seed is
        built in memory and must match the shipped files byte for byte (else ValueError);
        another seed is built into .cache/splits/seed<seed>/ and compared with the shipped
        manifest. Returns one row per split: shipped and built pairs and sha256, same or not."""
        import json

        from tjb_lib.pairs import build

        shipped = json.loads((paths.SPLITS / "manifest.json").read_text("utf-8"))
        if self.seed == shipped.get("seed"):
            built, problems = build.verify_once(self.seed)
            if problems:
                raise ValueError(f"data/splits is not the build of seed {self.seed}: "
                                 f"{problems[0]} ({len(problems)} difference(s)); rebuild with "
                                 "`python -m tjb_lib build`")
            where = "in memory (data/splits left as shipped)"
        else:
            out = paths.ROOT / SCRATCH / f"seed{self.seed}"
            built = build.build_all(self.seed, out_dir=out)
            where = f"into {out.relative_to(paths.ROOT).as_posix()}/ (data/splits left as shipped)"
        self._manifest = built
        _display(f"Seed {self.seed} built {where}; the shipped splits were built with seed "
                 f"{shipped.get('seed')}.")
        rows = []
        for split in dict.fromkeys([*shipped["splits"], *built["splits"]]):
            s, b = shipped["splits"].get(split, {}), built["splits"].get(split, {})
            rows.append({"split": split, "shipped_pairs": s.get("count"),
                         "built_pairs": b.get("count"),
                         "shipped_sha256": str(s.get("sha256", ""))[:12],
                         "built_sha256": str(b.get("sha256", ""))[:12],
                         "same": bool(s) and s.get("sha256") == b.get("sha256")})
        return pd.DataFrame(rows)


def setup(name: str, judge: str, scale: str, seed: int, replay_only: bool,
          outputs_dir: str | Path = "", also: Sequence[str] = (), base_url: str = "",
          model: str = "") -> Notebook:
    """Check the parameters, load the notebook's verdict rows and say who is judging.

    ``also`` names floats of other notebooks this one shows (drawn here, written by their own
    notebook). Under ``replay_only`` a run with no stored verdicts is listed, not judged, and
    its cells say "not run". ``base_url`` and ``model`` point the judge at a served model, as
    ``judge --base-url --model`` does.
    """
    from tjb_lib.redaction import guard_output

    guard_output()  # what the kernel prints is redacted like the store (the executed copy too)
    spec = check_parameters(judge, scale, seed, replay_only, outputs_dir, base_url, model)
    show_every_column()
    nb = Notebook(name, spec, scale, seed, replay_only, outputs_dir, also)
    nb.load()
    if nb.rows.empty and not nb.not_stored:
        return nb  # a notebook that reads no verdicts (00, 01)
    _display(about_judge(nb.spec, nb.returned))
    _display(nb.caution())
    _display(nb.runs())
    if nb.not_stored:
        _display("**Not stored, so not run** (replay only): " + "; ".join(
            f"{j.split} {j.protocol} ({why})" for j, why in nb.not_stored)
            + ". Their cells say *not run*; run without `replay_only` to judge them.")
    return nb
