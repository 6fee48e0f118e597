"""A blind reading of a split, as data/DATASHEET.md describes it, run from the project.

The rules and the audit catch what someone once stopped at; only a reader told nothing of the
construction finds what is left. So a reading is a method, not a memory: ``draw`` picks pairs
of a split with a seed and writes the packet the reader sees (neutral names X and Y in a random
order, nothing that names the split, the sides or the gold) beside a key the reader never sees;
``tally`` reads the readers' grades with their keys and gives the datasheet's table (F, F + B,
N and verdict = gold per split) and the quoted defects. The same seed draws the same packet.
"""
from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tjb_lib import paths
from tjb_lib.pairs import load_split
from tjb_lib.pairs.registry import SPLIT_NAMES

GRADES = ("F", "B", "N")
#: one reply line; a line without the verdict's reason, as the first rounds replied, is read too
REPLY = "k | F|B|N | X|Y|Tie | why that verdict, or - | quoted writing defect, or -"
VERDICTS = {"x": "X", "y": "Y", "tie": "Tie"}
#: golds a verdict can be held against; a pair of a split without one ("none") has no gold
JUDGEABLE = ("cited", "plain", "tie")

RUBRIC = """\
For each item, read the question and the two answers, X and Y, in full. Then:

1. Decide your own verdict from the content: which answer is better, **X** or **Y**, or
   **Tie** when neither is, and say why in a few words (for example a wrong figure or name, or
   a missing step). Content goes here and only here.
2. Grade the writing of the pair (both answers together) strictly, as an editor would who
   takes the content as given: do the sentences read whole, clear and on topic? A wrong answer
   or a skipped step, well written, is not a writing defect. Nor is an answer's citation format
   (reference markers such as [1], source titles, sentence or table ids, a block quoting the
   evidence again, a list of sources, a line saying the statements were checked): it is an
   accepted house style.
   - **F**: both answers would pass as an answer a capable model or a careful person wrote;
   - **B**: a minor slip in one or both;
   - **N**: a clear defect in one or both: a garbled or truncated sentence, a referent never
     given, a non-name inserted as a name, off-topic padding, a quoted fragment or a list of
     labels for a figure, a number written oddly.
"""


class ReadingError(ValueError):
    """A reading that cannot be drawn or tallied; names the file (and line) to fix."""


def packet_name(seed: int) -> str:
    return f"packet-{seed}.md"


def key_name(seed: int) -> str:
    return f"key-{seed}.json"


def grades_name(seed: int) -> str:
    return f"grades-{seed}.txt"


def _header(seed: int, n: int) -> str:
    return (f"# Reading packet {seed}\n\n{n} items follow, each a question and two candidate "
            f"answers.\n\n{RUBRIC}\nReply in a text file `{grades_name(seed)}`, one line per "
            f"item, in this format:\n\n```\n{REPLY}\n```\n\nfor example "
            f"`3 | B | Tie | neither names the year | X: \"which settles it as\"`, or "
            f"`4 | F | X | Y adds 2011 to 2012 figures | -`. Quote the words you stopped at for a "
            f"B or an N, and say which side.\n")


def _item(k: int, question: str, x: str, y: str) -> str:
    return (f"\n---\n\n## Item {k}\n\n### Question\n\n{question}\n\n### X\n\n{x}\n\n"
            f"### Y\n\n{y}\n")


def draw(split: str, seed: int, n: int = 20, out_dir: str | Path = ".",
         splits_dir: str | Path | None = None) -> tuple[Path, Path]:
    """Draw ``n`` pairs of ``split`` with ``seed``; write the reader's packet and the key.

    The pairs are sorted by id, then ``random.Random(seed).sample`` picks them and the same
    generator puts each pair's cited side at X or Y, so a seed always draws the same packet.
    Returns (packet path, key path); an ``out_dir`` that already holds this seed's packet or key
    is refused (a reader may be grading it)."""
    if n < 1:
        raise ReadingError(f"a reading needs at least 1 pair, not {n}")
    pairs = sorted(load_split(split, Path(splits_dir) if splits_dir else None),
                   key=lambda p: p.pair_id)
    if n > len(pairs):
        raise ReadingError(f"{split} has {len(pairs)} pairs, fewer than the {n} asked for")
    out = Path(out_dir)
    packet, key = out / packet_name(seed), out / key_name(seed)
    for path in (packet, key):
        if path.exists():
            raise ReadingError(f"{path} exists: this seed is drawn there already; "
                               "give another seed or folder")
    rng = random.Random(seed)
    chosen = rng.sample(pairs, n)
    items, text = [], [_header(seed, n)]
    for k, pair in enumerate(chosen, 1):
        cited_is_x = rng.random() < 0.5
        x, y = (pair.cited, pair.plain) if cited_is_x else (pair.plain, pair.cited)
        text.append(_item(k, pair.task, x, y))
        items.append({"k": k, "pair_id": pair.pair_id,
                      "X": "cited" if cited_is_x else "plain",
                      "Y": "plain" if cited_is_x else "cited",
                      "gold": pair.gold if pair.gold in JUDGEABLE else None})
    split_file = Path(splits_dir or paths.SPLITS) / f"{split}.jsonl"
    record = {"not_for_the_reader": "the key of " + packet_name(seed),
              "packet": packet_name(seed), "split": split, "seed": seed, "pairs": n,
              "date": datetime.now(timezone.utc).date().isoformat(),
              "split_sha256": hashlib.sha256(split_file.read_bytes()).hexdigest(),
              "items": items}
    out.mkdir(parents=True, exist_ok=True)
    packet.write_text("".join(text), encoding="utf-8")
    key.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return packet, key


_GRADES_FILE = re.compile(r"grades-(\d+)\.txt")


def read_grades(path: Path, items: int) -> list[dict[str, Any]]:
    """The lines of one grades file, by item: ``k | grade | verdict | reason | defect`` (or
    without the reason, as the earlier rounds replied). Blank lines and
    one header line (the first, when its first field is not a number) are skipped; any other
    line that is not an item, an item out of range or twice, or an item missing stops the tally
    with one error naming the file (and the line)."""
    found: dict[int, dict[str, Any]] = {}
    seen_line = False
    for i, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split("|", 4)]
        first, seen_line = not seen_line, True
        if first and not fields[0].isdigit() \
                and (len(fields) < 2 or fields[1].upper() not in GRADES):
            continue  # a header line ("k | grade | verdict | defect")
        where = f"{path} line {i}"
        if len(fields) not in (4, 5):
            raise ReadingError(f"{where}: expected '{REPLY}', got {raw!r}")
        k, grade, verdict, *notes = fields
        reason, defect = notes if len(notes) == 2 else ("-", notes[0])
        if not k.isdigit() or not 1 <= int(k) <= items:
            raise ReadingError(f"{where}: item {k!r} is not a number from 1 to {items}")
        if grade.upper() not in GRADES:
            raise ReadingError(f"{where}: grade {grade!r} is not F, B or N")
        if verdict.lower() not in VERDICTS:
            raise ReadingError(f"{where}: verdict {verdict!r} is not X, Y or Tie")
        if int(k) in found:
            raise ReadingError(f"{where}: item {k} is graded twice")
        found[int(k)] = {"k": int(k), "grade": grade.upper(),
                         "verdict": VERDICTS[verdict.lower()],
                         "reason": "" if reason in ("", "-") else reason,
                         "defect": "" if defect in ("", "-") else defect}
    missing = [k for k in range(1, items + 1) if k not in found]
    if missing:
        raise ReadingError(f"{path}: no grade for item {', '.join(map(str, missing))} "
                           f"of {items}")
    return [found[k] for k in sorted(found)]


def _key(out: Path, seed: int, grades: Path) -> dict[str, Any]:
    path = out / key_name(seed)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ReadingError(f"{grades}: no key {path} beside it") from None
    except json.JSONDecodeError as e:
        raise ReadingError(f"{path}: not a reading key ({e})") from None


def tally(out_dir: str | Path, show: bool = True) -> dict[str, dict[str, Any]]:
    """Every ``grades-<seed>.txt`` in ``out_dir`` read with its key: per split, the seeds and,
    per seed, F, F + B, N, verdict = gold of the pairs that have a gold, and the quoted defects
    of the B and N items. Printed as the datasheet's table when ``show``."""
    out = Path(out_dir)
    files = sorted((p for p in out.glob("grades-*.txt") if _GRADES_FILE.fullmatch(p.name)),
                   key=lambda p: int(_GRADES_FILE.fullmatch(p.name).group(1)))
    if not files:
        raise ReadingError(f"{out}: no grades-<seed>.txt to tally")
    table: dict[str, dict[str, Any]] = {}
    for path in files:
        seed = int(_GRADES_FILE.fullmatch(path.name).group(1))
        key = _key(out, seed, path)
        grades = read_grades(path, len(key["items"]))
        row = table.setdefault(key["split"], {"seeds": [], "pairs": [], "F": [], "F+B": [],
                                              "N": [], "with_gold": [], "verdict_gold": [],
                                              "defects": []})
        row["seeds"].append(seed)
        row["pairs"].append(len(grades))
        row["F"].append(sum(g["grade"] == "F" for g in grades))
        row["F+B"].append(sum(g["grade"] in ("F", "B") for g in grades))
        row["N"].append(sum(g["grade"] == "N" for g in grades))
        with_gold = agree = 0
        for g, item in zip(grades, key["items"]):
            decided = item[g["verdict"]] if g["verdict"] in ("X", "Y") else "tie"
            if item["gold"]:
                with_gold += 1
                agree += decided == item["gold"]
            if g["grade"] != "F":
                row["defects"].append({"seed": seed, "k": g["k"], "pair_id": item["pair_id"],
                                       "grade": g["grade"], "verdict": decided,
                                       "reason": g["reason"], "defect": g["defect"]})
        row["with_gold"].append(with_gold)
        row["verdict_gold"].append(agree)
    order = {name: i for i, name in enumerate(SPLIT_NAMES)}
    table = dict(sorted(table.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))
    if show:
        print(markdown(table))
    return table


def markdown(table: dict[str, dict[str, Any]]) -> str:
    """The tally as the datasheet writes it: one row per split, then its B and N quotes."""
    def cells(values: list[int]) -> str:
        return ", ".join(map(str, values))

    lines = ["| split | seeds | F (strict) | F + B | N | verdict = gold |",
             "|---|---|---|---|---|---|"]
    for split, row in table.items():
        gold = (", ".join(f"{a} of {w}" for a, w in zip(row["verdict_gold"], row["with_gold"]))
                if any(row["with_gold"]) else "no gold")
        lines.append(f"| {split} | {cells(row['seeds'])} | {cells(row['F'])} | "
                     f"{cells(row['F+B'])} | {cells(row['N'])} | {gold} |")
    for split, row in table.items():
        if row["defects"]:
            lines += ["", f"{split}, B and N:"]
            lines += [f"- {d['grade']} (seed {d['seed']}, item {d['k']}): "
                      f"{d['defect'] or '(no quote)'}" for d in row["defects"]]
    return "\n".join(lines)


def main_draw(split: str, seed: int | None, n: int, out_dir: str) -> int:
    """``reading draw``: a seed not given is drawn fresh and printed."""
    if seed is None:
        import secrets
        seed = secrets.randbelow(2 ** 24)
    packet, key = draw(split, seed, n, out_dir)
    print(f"seed {seed}: give the reader {packet}; keep {key} from them; their grades go in "
          f"{packet.parent / grades_name(seed)}")
    return 0


def main_tally(out_dir: str, json_path: str | None = None) -> int:
    table = tally(out_dir)
    if json_path:
        Path(json_path).write_text(json.dumps(table, indent=1, ensure_ascii=False) + "\n",
                                   encoding="utf-8")
        print(f"wrote {json_path}", file=sys.stderr)
    return 0
