"""Blind human-validation workbooks out, labels in (paper §4, App. B; Table A3); the agreement
between annotators (Table 2 / A4) is ``tjb_lib.validation.agreement``.

Annotators see a task and two candidates named only A and B. Which side carries the citation
display is randomised per item by the seed and written to a separate key file, never to the
workbook; the gold and the split's target relation stay in the key too. On import every
positional answer is mapped back through the key to the side it names (cited or plain), so the
agreement statistics speak the paper's language ("both better plain").

Two workbook kinds follow the paper's protocol:

* ``natural``: one primary label (the four labels of Table A3) plus three side checks;
* ``graded``: five questions, ending in a final preference A | B | Tie.

Blind wording: the first natural side check ("does the cited side add new facts?") cannot name
the cited side without unblinding, so the workbook asks which candidate, if any, states facts the
other lacks (A | B | both | neither); import turns that into ``new_facts_side`` and the yes/no
``cited_adds_new_facts``. Likewise the primary label is asked as A_more_correct / B_more_correct
and comes back as base_more_correct / citation_more_correct.
"""
from __future__ import annotations

import datetime
import re

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np
import pandas as pd

from tjb_lib import paths
from tjb_lib.records import Pair

KINDS = ("natural", "graded")
ITEMS_SHEET = "items"
GUIDELINES_SHEET = "guidelines"
SHOWN_COLUMNS = ("item_id", "task", "candidate_A", "candidate_B")
COMMENT_COLUMN = "comment"
KEY_COLUMNS = ("item_id", "kind", "pair_id", "split", "source", "target_relation", "gold",
               "a_side")
NATURAL_LABELS = ("equivalent", "base_more_correct", "citation_more_correct", "unclear")
EXCEL_CELL_LIMIT = 32767


@dataclass(frozen=True)
class Question:
    """One workbook column: what the annotator reads, what they may answer, and the name of the
    field it becomes after import (mapped from A/B to cited/plain where it names a side)."""

    column: str
    text: str
    choices: tuple[str, ...]
    field: str


QUESTIONS: dict[str, tuple[Question, ...]] = {
    "natural": (
        Question("primary_label",
                 "Primary label: are the candidates equally correct (equivalent), is one more "
                 "correct, more faithful to the evidence or less misleading (A_more_correct / "
                 "B_more_correct), or can the item not be judged from the traces (unclear)?",
                 ("equivalent", "A_more_correct", "B_more_correct", "unclear"), "label"),
        Question("new_facts",
                 "Side check 1: does one candidate state facts that the other lacks?",
                 ("A", "B", "both", "neither"), "new_facts_side"),
        Question("display_could_sway",
                 "Side check 2: could the source/citation display sway a reader's preference "
                 "without changing correctness?", ("yes", "no"), "display_could_sway"),
        Question("answer_mismatch",
                 "Side check 3: is there any mismatch in final answer, number, named entity, "
                 "date, or yes/no polarity?", ("yes", "no"), "answer_mismatch"),
    ),
    "graded": (
        Question("q1_answers_equivalent", "Q1: are the final answers equivalent?",
                 ("yes", "no"), "answers_equivalent"),
        Question("q2_more_complete_support", "Q2: does one side have more complete support?",
                 ("A", "B", "neither"), "more_complete_support"),
        Question("q3_more_specific_reasoning",
                 "Q3: does one side have more specific reasoning?",
                 ("A", "B", "neither"), "more_specific_reasoning"),
        Question("q4_display_adds_substance",
                 "Q4: does the citation/source display add substance?",
                 ("yes", "no"), "display_adds_substance"),
        Question("q5_preference", "Q5: final preference.", ("A", "B", "Tie"), "preference"),
    ),
}

class WorkbookError(ValueError):
    """A filled workbook that cannot be read back; the message lists every problem found."""


def check_kind(kind: str) -> None:
    """ValueError unless ``kind`` is a workbook kind (natural or graded)."""
    if kind not in KINDS:
        raise ValueError(f"workbook kind must be one of {KINDS}, got {kind!r}")


def fields(kind: str) -> tuple[str, ...]:
    """The label fields an imported workbook of this kind carries (cited/plain form)."""
    check_kind(kind)
    out = [q.field for q in QUESTIONS[kind]]
    if kind == "natural":
        out.append("cited_adds_new_facts")
    return tuple(out)


def label_columns(kind: str) -> tuple[str, ...]:
    """Every column of the items sheet and the CSV, in order."""
    check_kind(kind)
    return SHOWN_COLUMNS + tuple(q.column for q in QUESTIONS[kind]) + (COMMENT_COLUMN,)


# --------------------------------------------------------------------------- export


def _as_pairs(pairs: Iterable[Pair | dict]) -> list[Pair]:
    out = [p if isinstance(p, Pair) else Pair.from_dict(p) for p in pairs]
    if not out:
        raise ValueError("no pairs to export")
    seen: set[str] = set()
    for p in out:
        if p.pair_id in seen:
            raise ValueError(f"pair {p.pair_id!r} appears twice in the export list")
        seen.add(p.pair_id)
        for name in ("task", "plain", "cited"):
            if len(getattr(p, name)) > EXCEL_CELL_LIMIT:
                raise ValueError(f"pair {p.pair_id!r}: field {name!r} is longer than an Excel "
                                 f"cell holds ({EXCEL_CELL_LIMIT} characters)")
    return out


def _blind_order(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Item order and which side is shown as A: both drawn from the seed. Exactly half of the
    items (rounded up) show the cited side as A, so position cannot hint at the side."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    a_cited = rng.permutation(np.arange(n) < (n + 1) // 2)
    return order, a_cited


def guidelines_text(path: Path | None = None) -> str:
    """The annotator guidelines shipped in data/human_validation/guidelines.md."""
    path = Path(path or paths.HUMAN_VALIDATION / "guidelines.md")
    if not path.exists():
        raise FileNotFoundError(f"annotator guidelines not found at {path}")
    return path.read_text(encoding="utf-8")


def export_workbooks(pairs: Iterable[Pair | dict], kind: str, out_dir: Path | str, seed: int,
                     name: str | None = None,
                     guidelines_path: Path | None = None,
                     key_dir: Path | str | None = None) -> dict[str, Path]:
    """Write a blind workbook (.xlsx and .csv with the same columns) and its key (.key.csv,
    in ``key_dir`` when given: somewhere the annotators do not look).

    Items are shuffled and each item's A/B order is drawn from ``seed``; item ids are opaque
    (N001 / G001 ...). Returns {"xlsx": ..., "csv": ..., "key": ...}. Hand annotators the .xlsx
    (or the .csv); keep the key away from them.
    """
    check_kind(kind)
    pairs = _as_pairs(pairs)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = name or f"{kind}_workbook"
    order, a_cited = _blind_order(len(pairs), seed)
    prefix = "N" if kind == "natural" else "G"
    width = max(3, len(str(len(pairs))))
    items, keys = [], []
    for i, (j, cited_first) in enumerate(zip(order, a_cited)):
        p = pairs[int(j)]
        item_id = f"{prefix}{i + 1:0{width}d}"
        a, b = (p.cited, p.plain) if cited_first else (p.plain, p.cited)
        items.append({"item_id": item_id, "task": p.task, "candidate_A": a, "candidate_B": b})
        keys.append({"item_id": item_id, "kind": kind, "pair_id": p.pair_id, "split": p.split,
                     "source": p.source, "target_relation": p.target_relation, "gold": p.gold,
                     "a_side": "cited" if cited_first else "plain"})
    columns = label_columns(kind)
    text = guidelines_text(guidelines_path)
    key_dir = Path(key_dir) if key_dir is not None else out_dir
    key_dir.mkdir(parents=True, exist_ok=True)
    out = {"xlsx": out_dir / f"{stem}.xlsx", "csv": out_dir / f"{stem}.csv",
           "key": key_dir / f"{stem}.key.csv"}
    _write_xlsx(out["xlsx"], items, columns, kind, text)
    _write_csv(out["csv"], items, columns)
    _write_csv(out["key"], keys, KEY_COLUMNS)
    return out


def _write_csv(path: Path, rows: list[dict], columns: tuple[str, ...]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(columns), lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({c: r.get(c, "") for c in columns})


def _write_xlsx(path: Path, items: list[dict], columns: tuple[str, ...], kind: str,
                guidelines: str) -> None:
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.datavalidation import DataValidation

    wb = Workbook()
    ws = wb.active
    ws.title = ITEMS_SHEET
    ws.append(list(columns))
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for it in items:
        ws.append([it.get(c, "") for c in columns])
    last = len(items) + 1
    wrap = Alignment(wrap_text=True, vertical="top")
    for idx, col in enumerate(columns, start=1):
        letter = get_column_letter(idx)
        ws.column_dimensions[letter].width = 60 if col in ("task", "candidate_A",
                                                           "candidate_B") else 20
        for row in ws.iter_rows(min_row=2, max_row=last, min_col=idx, max_col=idx):
            row[0].alignment = wrap
    for q in QUESTIONS[kind]:
        letter = get_column_letter(columns.index(q.column) + 1)
        dv = DataValidation(type="list", formula1='"' + ",".join(q.choices) + '"',
                            allow_blank=True, showErrorMessage=True,
                            errorTitle="Unknown answer",
                            error=f"{q.column}: choose one of {', '.join(q.choices)}")
        dv.add(f"{letter}2:{letter}{last}")
        ws.add_data_validation(dv)
    ws.freeze_panes = "B2"

    gs = wb.create_sheet(GUIDELINES_SHEET)
    gs.column_dimensions["A"].width = 28
    gs.column_dimensions["B"].width = 100
    gs.append(["column", "question and allowed answers"])
    for cell in gs[1]:
        cell.font = Font(bold=True)
    for q in QUESTIONS[kind]:
        gs.append([q.column, f"{q.text} Allowed: {' | '.join(q.choices)}"])
    gs.append([COMMENT_COLUMN, "Optional free text (e.g. why an item is unclear)."])
    gs.append([])
    for line in guidelines.splitlines():
        gs.append(["", line])
    wb.properties.created = wb.properties.modified = _FIXED_TIME
    wb.save(path)
    _fix_zip_times(path)


# a workbook written twice from the same pairs and seed is the same file, byte for byte
_FIXED_TIME = datetime.datetime(2026, 1, 1)


def _fix_zip_times(path: Path) -> None:
    """Rewrite the xlsx archive with a fixed timestamp on every member."""
    import zipfile

    with zipfile.ZipFile(path) as src:
        members = [(info, src.read(info)) for info in src.infolist()]
    tmp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for info, data in members:
            if info.filename == "docProps/core.xml":  # openpyxl stamps "modified" at save time
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>2026-01-01T00:00:00Z", data)
            fixed = zipfile.ZipInfo(info.filename, date_time=_FIXED_TIME.timetuple()[:6])
            fixed.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(fixed, data)
    tmp.replace(path)


# --------------------------------------------------------------------------- import


def _read_key(key_path: Path) -> pd.DataFrame:
    key_path = Path(key_path)
    if not key_path.exists():
        raise FileNotFoundError(f"answer key not found: {key_path}")
    key = pd.read_csv(key_path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    missing = [c for c in KEY_COLUMNS if c not in key.columns]
    if missing:
        raise WorkbookError(f"{key_path}: key file lacks columns {missing}")
    dup = key["item_id"][key["item_id"].duplicated()].tolist()
    if dup:
        raise WorkbookError(f"{key_path}: key lists items more than once: {dup}")
    bad_side = key.loc[~key["a_side"].isin(("cited", "plain")), "item_id"].tolist()
    if bad_side:
        raise WorkbookError(f"{key_path}: field 'a_side' must be cited|plain (items {bad_side})")
    kinds = set(key["kind"])
    if len(kinds) != 1 or not kinds <= set(KINDS):
        raise WorkbookError(f"{key_path}: field 'kind' must be one of {KINDS} and the same "
                            f"for every item, found {sorted(kinds)}")
    return key


def _read_rows(path: Path) -> tuple[str, list[str], list[tuple[int, dict[str, str]]]]:
    """(sheet name, header, [(row number as the annotator sees it, {column: text})])."""
    def text(v) -> str:
        if v is None or (isinstance(v, float) and np.isnan(v)):
            return ""
        return str(v).strip()

    if path.suffix.lower() in (".xlsx", ".xlsm"):
        from openpyxl import load_workbook

        wb = load_workbook(path, read_only=True, data_only=True)
        if ITEMS_SHEET not in wb.sheetnames:
            raise WorkbookError(f"{path}: no sheet named {ITEMS_SHEET!r} "
                                f"(sheets: {wb.sheetnames})")
        rows_iter = wb[ITEMS_SHEET].iter_rows(values_only=True)
        sheet = ITEMS_SHEET
        header = [text(v) for v in next(rows_iter, ())]
        raw = [(i, [text(v) for v in r]) for i, r in enumerate(rows_iter, start=2)]
        wb.close()
    elif path.suffix.lower() == ".csv":
        sheet = "csv"
        with open(path, encoding="utf-8-sig", newline="") as f:
            reader = csv.reader(f)
            header = [text(v) for v in next(reader, [])]
            raw = [(i, [text(v) for v in r]) for i, r in enumerate(reader, start=2)]
    else:
        raise WorkbookError(f"{path}: expected an .xlsx or .csv workbook")
    while header and header[-1] == "":
        header.pop()
    rows = []
    for i, values in raw:
        if not any(values):
            continue  # blank spreadsheet rows carry nothing
        rows.append((i, {h: (values[k] if k < len(values) else "") for k, h in enumerate(header)}))
    return sheet, header, rows


def _to_sided(q: Question, answer: str, a_side: str) -> str:
    """Map one canonical workbook answer to its cited/plain form through the item's A side."""
    b_side = "plain" if a_side == "cited" else "cited"
    side = {"A": a_side, "B": b_side}
    if q.column == "primary_label":
        if answer in ("A_more_correct", "B_more_correct"):
            return "citation_more_correct" if side[answer[0]] == "cited" else "base_more_correct"
        return answer
    if answer in side:
        return side[answer]
    return "tie" if answer == "Tie" else answer


def import_workbook(path: Path | str, key_path: Path | str, annotator: str,
                    partial: bool = False) -> pd.DataFrame:
    """Read a filled workbook (.xlsx sheet "items", or the .csv) back into cited/plain labels.

    One row per item: annotator, item_id, the key's pair facts, a_side, the label fields of
    :func:`fields` and the comment. Every problem (unknown answer, blank answer, missing,
    duplicated or unknown item, missing column) is collected and raised as one
    :class:`WorkbookError` naming file, sheet and row. ``partial=True`` reads an adjudicator's
    file: items may be absent and blank answers become missing values.
    """
    path, key_path = Path(path), Path(key_path)
    if not path.exists():
        raise FileNotFoundError(f"workbook not found: {path}")
    key = _read_key(key_path)
    kind = key["kind"].iloc[0]
    questions = QUESTIONS[kind]
    sheet, header, rows = _read_rows(path)
    where = f"{path.name}, sheet {sheet!r}"
    need = ["item_id"] + [q.column for q in questions]
    missing_cols = [c for c in need if c not in header]
    if missing_cols:
        raise WorkbookError(f"{where}: missing columns {missing_cols} (found {header})")

    key_by_item = key.set_index("item_id")
    problems: list[str] = []
    seen: dict[str, int] = {}
    records = []
    for rownum, row in rows:
        item = row["item_id"]
        at = f"{where}, row {rownum}"
        if item not in key_by_item.index:
            problems.append(f"{at}: item {item!r} is not in the key {key_path.name}")
            continue
        if item in seen:
            problems.append(f"{at}: item {item!r} duplicated (first at row {seen[item]})")
            continue
        seen[item] = rownum
        facts = key_by_item.loc[item]
        rec = {"annotator": annotator, "item_id": item,
               **{c: facts[c] for c in KEY_COLUMNS if c not in ("item_id", "kind")}}
        answers = [row.get(q.column, "") for q in questions]
        if partial and not any(answers):
            del seen[item]
            continue
        for q, ans in zip(questions, answers):
            if ans == "":
                if not partial:
                    problems.append(f"{at}, item {item!r}: field {q.column!r} is blank")
                rec[q.field] = pd.NA
                continue
            canon = {c.lower(): c for c in q.choices}.get(ans.lower())
            if canon is None:
                problems.append(f"{at}, item {item!r}: field {q.column!r} has unknown label "
                                f"{ans!r} (allowed: {' | '.join(q.choices)})")
                rec[q.field] = pd.NA
                continue
            rec[q.field] = _to_sided(q, canon, facts["a_side"])
        if kind == "natural":
            side = rec["new_facts_side"]
            rec["cited_adds_new_facts"] = (pd.NA if pd.isna(side) else
                                          "yes" if side in ("cited", "both") else "no")
        rec[COMMENT_COLUMN] = row.get(COMMENT_COLUMN, "")
        records.append(rec)
    if not partial:
        absent = [i for i in key["item_id"] if i not in seen]
        if absent:
            problems.append(f"{where}: {len(absent)} item(s) of the key have no row: "
                            f"{absent[:20]}{' ...' if len(absent) > 20 else ''}")
    if problems:
        raise WorkbookError(f"{len(problems)} problem(s) reading {path}:\n  "
                            + "\n  ".join(problems))
    cols = (["annotator", "item_id"] + [c for c in KEY_COLUMNS if c not in ("item_id", "kind")]
            + list(fields(kind)) + [COMMENT_COLUMN])
    df = pd.DataFrame.from_records(records, columns=cols)
    df.attrs["kind"] = kind
    return df


# ------------------------------------------------------------ finding filled workbooks

WORKBOOK_SUFFIXES = (".xlsx", ".csv")


def label_sets(root: Path | str | None = None) -> list[dict]:
    """Filled workbooks waiting to be imported: for each key ``<root>/<stem>.key.csv`` the
    annotators' files ``<root>/labels/<stem>/<annotator>.xlsx|csv``. The adjudicator's file is
    named ADJ. Returns [{"stem", "key", "annotators": {code: path}, "adjudicator": path|None}],
    only for keys with at least one filled workbook."""
    root = Path(root or paths.HUMAN_VALIDATION)
    out = []
    for key in sorted(root.glob("*.key.csv")):
        stem = key.name[: -len(".key.csv")]
        folder = root / "labels" / stem
        files = {}
        for f in sorted(folder.glob("*")) if folder.is_dir() else []:
            if f.suffix.lower() in WORKBOOK_SUFFIXES and not f.name.startswith(("~$", ".")):
                if f.stem in files:
                    raise ValueError(f"{folder}: annotator {f.stem!r} has two files "
                                     f"({files[f.stem].name}, {f.name}); keep one")
                files[f.stem] = f
        if files:
            adj = files.pop("ADJ", None)
            out.append({"stem": stem, "key": key, "annotators": files, "adjudicator": adj})
    return out
