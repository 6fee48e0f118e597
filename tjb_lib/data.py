"""Load and validate the real source records: HotpotQA, FinQA and HumanEval.

Every split is built from these records, so a record that is malformed must stop the build
with one clear error naming the file, the item (index and id) and the field, never be skipped
silently or half-used.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tjb_lib import paths

HOTPOTQA_FILE = paths.RAW / "hotpotqa" / "hotpot_dev_distractor_v1_first500.json"
# Unbiased samples first: the extra-409 file holds FinQANet error cases (see its PROVENANCE.md).
FINQA_FILES = (
    paths.RAW / "finqa" / "finqa_test_sample100_seed3916.json",
    paths.RAW / "finqa" / "finqa_dev_sample200.json",
    paths.RAW / "finqa" / "finqa_test_extra409_from_finqanet_error_files.json",
)
FINQA_UNBIASED = frozenset({"finqa_test_sample100_seed3916.json", "finqa_dev_sample200.json"})
HUMANEVAL_FILE = paths.RAW / "humaneval" / "HumanEval.jsonl"


class DataError(ValueError):
    """A source record that cannot be used; names the file, the item and the field."""

    def __init__(self, file: Path | str, message: str, index: int | None = None,
                 item_id: str | None = None, field: str | None = None):
        self.file, self.index, self.item_id, self.field = str(file), index, item_id, field
        where = [f"file {Path(file).name}"]
        if index is not None:
            where.append(f"item {index}")
        if item_id is not None:
            where.append(f"id {item_id!r}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__(f"{', '.join(where)}: {message}")


@dataclass(frozen=True)
class HotpotItem:
    id: str
    question: str
    answer: str
    type: str
    level: str
    supporting_facts: tuple[tuple[str, int], ...]
    context: tuple[tuple[str, tuple[str, ...]], ...]

    def paragraph_index(self, title: str) -> int:
        return [t for t, _ in self.context].index(title)

    def sentence(self, title: str, sent_id: int) -> str:
        return self.context[self.paragraph_index(title)][1][sent_id].strip()


@dataclass(frozen=True)
class FinQAStep:
    op: str
    arg1: str
    arg2: str
    res: str


@dataclass(frozen=True)
class FinQAItem:
    id: str
    file: str           # which of the raw files (bias matters: see FINQA_UNBIASED)
    filename: str       # the filing page the record comes from
    question: str
    answer: str
    exe_ans: float | str
    program: str
    steps: tuple[FinQAStep, ...]
    gold_inds: tuple[tuple[str, str], ...]   # (key such as "table_4", text) in file order
    # The filing's table as printed (case, commas, units), row for row with the linearised
    # one; empty where the record's two tables do not line up cell for cell.
    table: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class HumanEvalProblem:
    task_id: str
    prompt: str
    canonical_solution: str
    test: str
    entry_point: str


# ----------------------------------------------------------------------------- helpers

def _read_json(path: Path) -> Any:
    path = Path(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as e:
        raise DataError(path, "file not found") from e
    except json.JSONDecodeError as e:
        raise DataError(path, f"malformed JSON at line {e.lineno} column {e.colno}: {e.msg}") from e


def _require(rec: Any, key: str, kind: type | tuple[type, ...], file: Path, index: int,
             item_id: str | None, prefix: str = "") -> Any:
    name = f"{prefix}{key}"
    if not isinstance(rec, dict):
        raise DataError(file, f"expected an object, got {type(rec).__name__}", index, item_id,
                        prefix.rstrip(".") or None)
    if key not in rec:
        raise DataError(file, "missing field", index, item_id, name)
    value = rec[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) or not isinstance(value, kinds):
        want = " or ".join(k.__name__ for k in kinds)
        raise DataError(file, f"expected {want}, got {type(value).__name__}", index, item_id, name)
    return value


def _records(data: Any, file: Path) -> list:
    if not isinstance(data, list):
        raise DataError(file, f"expected a JSON array of records, got {type(data).__name__}")
    if not data:
        raise DataError(file, "no records")
    return data


def _item_id(rec: Any, key: str) -> str | None:
    return rec.get(key) if isinstance(rec, dict) and isinstance(rec.get(key), str) else None


# ----------------------------------------------------------------------------- HotpotQA

def load_hotpotqa(path: Path | None = None) -> list[HotpotItem]:
    """The HotpotQA dev (distractor) records, checked against the official schema."""
    path = Path(path or HOTPOTQA_FILE)
    items, seen = [], set()
    for i, rec in enumerate(_records(_read_json(path), path)):
        rid = _item_id(rec, "_id")
        req = lambda k, t: _require(rec, k, t, path, i, rid)  # noqa: E731
        rid = req("_id", str)
        if rid in seen:
            raise DataError(path, "duplicate id", i, rid, "_id")
        seen.add(rid)
        context = []
        for j, para in enumerate(req("context", list)):
            if (not isinstance(para, list) or len(para) != 2 or not isinstance(para[0], str)
                    or not isinstance(para[1], list)
                    or not all(isinstance(s, str) for s in para[1])):
                raise DataError(path, "expected [title, [sentence, ...]]", i, rid, f"context[{j}]")
            context.append((para[0], tuple(para[1])))
        titles = {t: s for t, s in context}
        facts = []
        for j, fact in enumerate(req("supporting_facts", list)):
            ok = (isinstance(fact, list) and len(fact) == 2 and isinstance(fact[0], str)
                  and isinstance(fact[1], int) and not isinstance(fact[1], bool))
            if not ok:
                raise DataError(path, "expected [title, sentence_index]", i, rid,
                                f"supporting_facts[{j}]")
            title, sid = fact
            if title not in titles or not 0 <= sid < len(titles[title]):
                raise DataError(path, f"points to no context sentence ({title!r}, {sid})", i, rid,
                                f"supporting_facts[{j}]")
            facts.append((title, sid))
        if not facts:
            raise DataError(path, "empty", i, rid, "supporting_facts")
        items.append(HotpotItem(
            id=rid, question=req("question", str), answer=req("answer", str),
            type=req("type", str), level=req("level", str),
            supporting_facts=tuple(facts), context=tuple(context)))
    return items


# ----------------------------------------------------------------------------- FinQA

def load_finqa(files: tuple[Path, ...] | list[Path] | None = None) -> list[FinQAItem]:
    """FinQA records from every raw file, in file order (unbiased samples first)."""
    items, seen = [], set()
    for path in (files or FINQA_FILES):
        path = Path(path)
        for i, rec in enumerate(_records(_read_json(path), path)):
            rid = _item_id(rec, "id")
            rid = _require(rec, "id", str, path, i, rid)
            if rid in seen:
                raise DataError(path, "duplicate id across FinQA files", i, rid, "id")
            seen.add(rid)
            qa = _require(rec, "qa", dict, path, i, rid)
            q = lambda k, t: _require(qa, k, t, path, i, rid, "qa.")  # noqa: E731
            steps = []
            for j, st in enumerate(q("steps", list)):
                vals = [_require(st, k, str, path, i, rid, f"qa.steps[{j}].")
                        for k in ("op", "arg1", "arg2", "res")]
                steps.append(FinQAStep(*vals))
            gold = q("gold_inds", dict)
            for k, v in gold.items():
                if not isinstance(v, str):
                    raise DataError(path, f"expected str, got {type(v).__name__}", i, rid,
                                    f"qa.gold_inds.{k}")
            items.append(FinQAItem(
                id=rid, file=path.name, filename=_require(rec, "filename", str, path, i, rid),
                question=q("question", str), answer=q("answer", str),
                exe_ans=q("exe_ans", (int, float, str)), program=q("program", str),
                steps=tuple(steps), gold_inds=tuple(gold.items()),
                table=_printed_table(rec)))
    return items


def _printed_table(rec: dict) -> tuple[tuple[str, ...], ...]:
    """``table_ori`` row for row with the linearised ``table``: where the printed table has
    header rows the linearisation merged into one, the last of them is the header and the
    corner keeps a unit an earlier one states ("(in millions)"), or else the unit the sentence
    that leads into the table states ("the following table reconciles ... ( in thousands ) :");
    a row whose cells do not line up is left empty; () where the two cannot be lined up."""
    ori, flat = rec.get("table_ori"), rec.get("table")
    if not (isinstance(ori, list) and isinstance(flat, list) and flat and ori):
        return ()
    if any(not isinstance(a, list) or not all(isinstance(c, str) for c in a) for a in ori):
        return ()
    extra = len(ori) - len(flat)
    if not 0 <= extra <= 2 or not isinstance(flat[0], list) or len(ori[extra]) != len(flat[0]):
        return ()
    head = list(ori[extra])
    units = [c for row in ori[:extra] for c in row if re.search(r"\bin\s(?:millions|thousands|billions)", c, re.I)]
    pre = rec.get("pre_text")
    lead = pre[-1] if isinstance(pre, list) and pre and isinstance(pre[-1], str) else ""
    said = re.search(r"\(\s*(in (?:millions|thousands|billions))\s*\)", lead, re.I)
    if not any(re.search(r"\bin\s(?:millions|thousands|billions)", c, re.I) for c in head):
        units += [f"({said.group(1).lower()})"] if said else []
    if units and not head[0].strip():
        head[0] = units[0]
    rows = [tuple(head)] + [tuple(a) if isinstance(b, list) and len(a) == len(b) else ()
                            for a, b in zip(ori[extra + 1:], flat[1:])]
    return tuple(rows)


# ----------------------------------------------------------------------------- HumanEval

def load_humaneval(path: Path | None = None) -> list[HumanEvalProblem]:
    """The HumanEval problems shipped in data/raw/humaneval (JSON Lines, one problem a line)."""
    path = Path(path or HUMANEVAL_FILE)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError as e:
        raise DataError(path, "file not found") from e
    problems = []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise DataError(path, f"malformed JSON on line {i + 1}: {e.msg}", i) from e
        rid = _item_id(rec, "task_id")
        vals = {k: _require(rec, k, str, path, i, rid)
                for k in ("task_id", "prompt", "canonical_solution", "test", "entry_point")}
        problems.append(HumanEvalProblem(**vals))
    if not problems:
        raise DataError(path, "no records")
    return problems
