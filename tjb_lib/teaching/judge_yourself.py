"""A person as the judge (notebook 11): real pairs shown blind, A / B / Tie answers kept in an
annotator workbook, and those answers read back as verdict rows beside any judge's.

The student judges the same pairs twice, first under the L0 instruction and then under L4, in
the words of the project's own prompts (``ladder_L0_p0``, ``ladder_L4_p0``). Each round is a
graded workbook written by :mod:`tjb_lib.validation.annotate`: the item order and the side shown as A are
drawn from the seed, the split, tier and gold stay in the key, and a filled workbook re-imports
like any annotator's. Only the final preference (Q5) is asked; the other questions stay blank,
so a round is read back as a partial workbook.

In a class (:class:`Class`) each student's code draws its own pairs (unless the teacher fixes
one shared draw), each code's workbooks live in a folder of their own, and the keys are written
into a hidden folder, which JupyterLab's file browser neither lists nor opens (its server refuses
hidden paths), so no student reads a key, their own or another's.
"""
from __future__ import annotations

import dataclasses
import hashlib
import re
import shutil
import tempfile
from pathlib import Path
from typing import Mapping

import numpy as np
import pandas as pd

from tjb_lib.validation import annotate
from tjb_lib.teaching import explore
from tjb_lib import paths
from tjb_lib.run import sample
from tjb_lib.pairs import load_split
from tjb_lib.pairs.render import final_answer
from tjb_lib.pairs.strip import strip_artifacts
from tjb_lib.protocols.templates import load_template
from tjb_lib.records import Pair
from tjb_lib.seeds import SEED

LEVELS = ("L0", "L4")
TIERS = ("equivalent", "soft", "moderate")
KIND = "graded"
ANSWER_COLUMN = "q5_preference"  # the workbook column the A / B / Tie buttons fill
ANSWERS = ("A", "B", "Tie")
EXAMPLE_DIR = paths.DATA / "judge_yourself" / "example"
EXAMPLE_ANNOTATOR = "EXAMPLE"
EXAMPLE_COMMENT = "example label written by judge_yourself.example_answer, not by a person"
#: the draw behind the shipped example, from the same pairs a student draws from; a student's
#: draw leaves these pairs out (:func:`draw_pairs`)
EXAMPLE_DRAW = {"n_per_tier": 4, "seed": SEED, "scale": "default"}
#: a careful reader's pace in words a minute (silent reading of non-fiction runs near 240;
#: weighing two answers against each other is slower)
READING_WPM = 200


def instruction(level: str) -> str:
    """The instruction a judge reads at this level: the first paragraph of the level's first
    prompt paraphrase (``tjb_lib/prompts/ladder_<level>_p0.txt``), without the JSON format."""
    return load_template(f"ladder_{level}_p0").user.split("\n\n", 1)[0].strip()


def draw_pairs(n_per_tier: int, seed: int, scale: str = "default",
               code: str | None = None) -> list[Pair]:
    """``n_per_tier`` pairs from each of the equivalence, soft and moderate tiers, drawn with the
    seed (and the student's ``code``, when given: two codes draw apart) from the pairs judged at
    this scale (the first N of each split of the tier, ``tjb_lib.run.sample``), so a judge's stored
    verdicts cover the pairs the student sees; never a pair of the shipped example
    (:func:`example_pair_ids`), so the example a notebook shows before the student has judged
    can never give the student's key away."""
    return _draw(n_per_tier, seed, scale, exclude=set(example_pair_ids()), code=code)


def code_entropy(code: str) -> list[int]:
    """A student's code as seed material (sha256, so it never depends on Python's hash salt)."""
    digest = hashlib.sha256(code.encode("utf-8")).digest()
    return [int.from_bytes(digest[i:i + 4], "big") for i in range(0, 16, 4)]


def _draw(n_per_tier: int, seed: int, scale: str, exclude: set[str] = frozenset(),
          code: str | None = None) -> list[Pair]:
    if n_per_tier < 1:
        raise ValueError(f"n_per_tier must be >= 1, got {n_per_tier}")
    out: list[Pair] = []
    for t, tier in enumerate(TIERS):
        splits = explore.TIE_MEANINGS[explore.MEANING_OF_TIER[tier]].splits
        pool = [p for s in splits for p in load_split(s)[:sample.limit_for(s, LEVELS[0], scale)]
                if p.pair_id not in exclude]
        if len(pool) < n_per_tier:
            raise ValueError(f"tier {tier!r} has {len(pool)} pairs at scale {scale!r} besides "
                             f"the example's, fewer than n_per_tier={n_per_tier}")
        entropy = [seed, t] + (code_entropy(code) if code is not None else [])
        pick = np.random.default_rng(entropy).choice(len(pool), n_per_tier, replace=False)
        out.extend(pool[i] for i in sorted(pick))
    return out


def example_pair_ids() -> list[str]:
    """The pairs of the shipped example (from its keys); none before it is written."""
    return sorted({pid for key in EXAMPLE_DIR.glob("*.key.csv")
                   for pid in pd.read_csv(key, dtype=str)["pair_id"]})


# --------------------------------------------------------------------------- a class's time


def reading_load(folder: Path | str) -> pd.DataFrame:
    """Per round: its items, the words a student reads (the instruction, then each item's task
    and both candidates) and the minutes they take at :data:`READING_WPM`."""
    rows = []
    for level in LEVELS:
        shown = items(folder, level)
        words = len(instruction(level).split()) + sum(
            len(text.split()) for col in ("task", "candidate_A", "candidate_B")
            for text in shown[col])
        rows.append({"round": level, "items": len(shown), "words": words,
                     "minutes": words / READING_WPM})
    return pd.DataFrame(rows)


def reading_note(folder: Path | str) -> str:
    """One sentence on how long the rounds in ``folder`` take to read."""
    load = reading_load(folder)
    rounds = " and ".join(f"{r.words:,} in round {r.round}" for r in load.itertuples())
    return (f"{int(load['items'].sum())} answers in {len(load)} rounds: {rounds} (the "
            "instruction, then each task and both candidates), about "
            f"{round(load['minutes'].sum())} minutes of reading at {READING_WPM} words a minute.")


# --------------------------------------------------------------------------- workbooks


def stem(level: str) -> str:
    """The workbook name of one round."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
    return f"judge_yourself_{level}"


def answers_path(folder: Path | str, level: str, annotator: str) -> Path:
    """Where a filled round goes: the layout :func:`tjb_lib.validation.annotate.label_sets` reads."""
    return Path(folder) / "labels" / stem(level) / f"{check_code(annotator)}.csv"


def export_rounds(pairs: list[Pair], folder: Path | str, seed: int,
                  keys: Path | str | None = None) -> None:
    """One blind graded workbook (xlsx, csv) per level under ``folder`` and its key in ``keys``
    (default: beside it); round i draws its item order and sides from ``seed + i``, so the second
    round is shuffled afresh."""
    for i, level in enumerate(LEVELS):
        annotate.export_workbooks(pairs, KIND, folder, seed=seed + i, name=stem(level),
                                  key_dir=keys)


def check_code(code: str) -> str:
    """A student's code, as a folder and a workbook name take it (ValueError otherwise)."""
    if not isinstance(code, str) or not re.fullmatch(r"[A-Za-z0-9_-]+", code):
        raise ValueError(f"annotator code must be letters, digits, '-' or '_', got {code!r}")
    return code


#: the hidden folder (under a class's root) that holds every code's keys
KEYS = ".keys"


@dataclasses.dataclass(frozen=True)
class Class:
    """Every student's rounds under ``root`` (outputs/judge_yourself): code C judges the pairs
    its code draws (all codes the same pairs with ``shared_draw``), from blank workbooks in
    ``root/C/``; the keys go to ``root/.keys/C/``, where the file browser does not reach."""

    root: Path
    n_per_tier: int
    seed: int
    scale: str = "default"
    shared_draw: bool = False

    def draw(self, code: str) -> list[Pair]:
        return draw_pairs(self.n_per_tier, self.seed, self.scale,
                          None if self.shared_draw else check_code(code))

    def workbooks(self, code: str) -> Path:
        return Path(self.root) / check_code(code)

    def keys(self, code: str) -> Path:
        return Path(self.root) / KEYS / check_code(code)

    def prepare(self, code: str) -> Path:
        """Write the rounds of ``code`` (the same files again on a rerun) and return the folder
        of its workbooks."""
        export_rounds(self.draw(code), self.workbooks(code), self.seed, keys=self.keys(code))
        return self.workbooks(code)


def items(folder: Path | str, level: str) -> pd.DataFrame:
    """The items of one round as the student sees them: item_id, task, candidate_A,
    candidate_B (from the blank workbook; nothing of the key)."""
    path = Path(folder) / f"{stem(level)}.csv"
    if not path.exists():
        raise FileNotFoundError(f"no workbook for round {level} at {path}: export the rounds "
                                "first (judge_yourself.export_rounds)")
    return pd.read_csv(path, dtype=str, keep_default_na=False)[list(annotate.SHOWN_COLUMNS)]


def write_answers(folder: Path | str, level: str, annotator: str,
                  answers: Mapping[str, str], comment: str = "") -> Path:
    """Write the round's workbook with the answers given so far in its Q5 column (others blank)
    and return its path. The file is replaced whole, so an interrupted write leaves the previous
    answers, never half a file."""
    shown = items(folder, level)
    unknown = sorted(set(answers) - set(shown["item_id"]))
    if unknown:
        raise ValueError(f"round {level}: answers for items not in the workbook: {unknown}")
    bad = {k: v for k, v in answers.items() if v not in ANSWERS}
    if bad:
        raise ValueError(f"round {level}: answers must be one of {ANSWERS}, got {bad}")
    filled = shown.reindex(columns=list(annotate.label_columns(KIND)), fill_value="")
    filled[ANSWER_COLUMN] = filled["item_id"].map(answers).fillna("")
    filled.loc[filled[ANSWER_COLUMN] != "", annotate.COMMENT_COLUMN] = comment
    path = answers_path(folder, level, annotator)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    filled.to_csv(tmp, index=False, lineterminator="\n")
    tmp.replace(path)
    return path


def read_answers(folder: Path | str, level: str, annotator: str) -> dict[str, str]:
    """The answers already saved for one round ({item_id: A | B | Tie}; empty when none), after
    checking that the saved file shows the same items as the round's workbook."""
    path = answers_path(folder, level, annotator)
    if not path.exists():
        return {}
    filled = pd.read_csv(path, dtype=str, keep_default_na=False)
    shown = items(folder, level)
    cols = list(annotate.SHOWN_COLUMNS)
    if ANSWER_COLUMN not in filled.columns or not all(c in filled.columns for c in cols):
        raise ValueError(f"{path}: not a filled {KIND} workbook (columns {list(filled.columns)})")
    same = filled[cols].reset_index(drop=True).equals(shown.reset_index(drop=True))
    if not same:
        raise ValueError(f"{path}: its items differ from the workbook {stem(level)}.csv beside "
                         "it (another draw or another build of the splits); move it away to "
                         "start afresh")
    given = filled[filled[ANSWER_COLUMN] != ""]
    return dict(zip(given["item_id"], given[ANSWER_COLUMN]))


def read_verdicts(folder: Path | str, annotator: str,
                  keys: Path | str | None = None) -> pd.DataFrame:
    """Both rounds of one annotator as verdict rows: one per answered item, with judge (the
    annotator code), protocol "ladder", level, pair_id, split, target_relation, gold, order
    (cited_first when the cited side was shown as A), parsed (A | B | Tie) and decision
    (cited | plain | tie), read back through the key (in ``keys``; default beside the workbooks)
    by :func:`tjb_lib.validation.annotate.import_workbook`. Unanswered items are left out."""
    folder = Path(folder)
    keys = Path(keys) if keys is not None else folder
    frames = []
    for level in LEVELS:
        path = answers_path(folder, level, annotator)
        if not path.exists():
            continue
        read_answers(folder, level, annotator)  # the saved items are the round's items
        labels = annotate.import_workbook(path, keys / f"{stem(level)}.key.csv",
                                          annotator=annotator, partial=True)
        labels = labels[labels["preference"].notna()]
        frames.append(pd.DataFrame({
            "judge": annotator, "protocol": "ladder", "level": level, "paraphrase": "",
            "item_id": labels["item_id"], "pair_id": labels["pair_id"],
            "split": labels["split"], "source": labels["source"],
            "target_relation": labels["target_relation"], "gold": labels["gold"],
            "order": np.where(labels["a_side"] == "cited", "cited_first", "plain_first"),
            "parsed": ["Tie" if pref == "tie" else "A" if pref == side else "B"
                       for side, pref in zip(labels["a_side"], labels["preference"])],
            "decision": labels["preference"].astype(str)}))
    if not frames:
        raise FileNotFoundError(f"no answers of {annotator!r} under {folder / 'labels'}")
    return pd.concat(frames, ignore_index=True)


# --------------------------------------------------------------------------- the example


def example_answer(level: str, candidate_a: str, candidate_b: str) -> str:
    """The deterministic rule that wrote the shipped example labels (not a person). It reads
    only the two candidates as shown. Under L0 the candidate with more substance wins (text left
    once citation-like display is removed by :func:`tjb_lib.pairs.strip.strip_artifacts`); equal
    substance goes to the one that shows more display; identical candidates are a Tie. Under L4
    it answers Tie whenever both state the same final answer (read by
    :func:`tjb_lib.pairs.render.final_answer`), as the L4 instruction asks, and otherwise follows
    the L0 rule."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
    if level == "L4":
        a_answer, b_answer = (final_answer(strip_artifacts(c)) for c in (candidate_a, candidate_b))
        # a form's sentence end ("Answer in brief: X.") is not part of the answer
        if a_answer is not None and b_answer is not None and \
                a_answer.rstrip(".") == b_answer.rstrip("."):
            return "Tie"
    a = (len(strip_artifacts(candidate_a)), len(candidate_a))
    b = (len(strip_artifacts(candidate_b)), len(candidate_b))
    return "A" if a > b else "B" if b > a else "Tie"


def write_example(folder: Path | str = EXAMPLE_DIR) -> list[Path]:
    """Write the example label set: for each round its blank workbook (csv), its key and the
    labels of :func:`example_answer` under ``labels/<round>/EXAMPLE.csv``, from the draw in
    ``EXAMPLE_DRAW``. Returns the files written."""
    folder = Path(folder)
    pairs = _draw(**EXAMPLE_DRAW)
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        export_rounds(pairs, tmp, EXAMPLE_DRAW["seed"])
        for level in LEVELS:
            shown = items(tmp, level)
            answers = {r.item_id: example_answer(level, r.candidate_A, r.candidate_B)
                       for r in shown.itertuples()}
            labels = write_answers(tmp, level, EXAMPLE_ANNOTATOR, answers, EXAMPLE_COMMENT)
            for src in (Path(tmp) / f"{stem(level)}.csv", Path(tmp) / f"{stem(level)}.key.csv",
                        labels):
                dst = folder / src.relative_to(tmp)
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dst)
                written.append(dst)
    return written


# --------------------------------------------------------------------------- reading the verdicts

#: per tier: the decision that is a preference there, its name, and what it shows
PREFERENCE = {
    "equivalent": ("cited", "cited wins", "A cited win here is a preference for citation-like "
                                          "display: the content is the same."),
    "soft": ("cited", "worse-cited wins", "A worse-cited win here goes against the side whose "
                                          "reasoning is more specific."),
    "moderate": ("plain", "better-plain wins", "A better-plain win here is a quality gap "
                                               "resolved."),
}


def tie_readings(verdicts: pd.DataFrame) -> str:
    """Markdown naming the three meanings of Tie on one person's verdicts: per tier, the Ties
    and the tier's preference under each level, what a Tie means there, and, on the moderate
    tier, how many gaps resolved under the first level became Ties under the last."""
    who = ", ".join(sorted(set(verdicts["judge"])))
    tier = explore.tier_of(verdicts["target_relation"])
    out = []
    for name in TIERS:
        meaning = explore.MEANING_OF_TIER[name]
        sub = verdicts[(tier == name).to_numpy()]
        pref, pref_name, what = PREFERENCE[name]
        counts = []
        for level in LEVELS:
            d = sub.loc[sub["level"] == level, "decision"]
            counts.append(f"under {level}, Tie {int((d == 'tie').sum())} of {len(d)} and "
                          f"{pref_name} {int((d == pref).sum())}")
        line = (f"**{name}: Tie is {meaning}.** {explore.TIE_MEANINGS[meaning].why} "
                f"{who}: " + "; ".join(counts) + f". {what}")
        if name == "moderate":
            first, last = (sub[sub["level"] == lv].set_index("pair_id")["decision"]
                           for lv in LEVELS)
            both = first.index.intersection(last.index)
            lost = int(((first[both] == "plain") & (last[both] == "tie")).sum())
            line += (f" {lost} of the {int((first[both] == 'plain').sum())} gaps resolved under "
                     f"{LEVELS[0]} became a Tie under {LEVELS[-1]}: that is resolution loss.")
        out.append(line)
    return "\n\n".join(out)


def reveal(verdicts: pd.DataFrame) -> pd.DataFrame:
    """The key beside each answer, once judging is over: per pair, its tier and split, and per
    level which side was shown as A and the verdict given (in the paper's terms)."""
    v = verdicts.assign(tier=explore.tier_of(verdicts["target_relation"]).to_numpy(),
                        shown_as_A=np.where(verdicts["order"] == "cited_first", "cited",
                                            "plain"))
    wide = v.pivot_table(index=["tier", "split", "pair_id"], columns="level",
                         values=["item_id", "shown_as_A", "decision"], aggfunc="first")
    wide.columns = [f"{level}_{field}" for field, level in wide.columns]
    cols = [f"{lv}_{f}" for lv in LEVELS for f in ("item_id", "shown_as_A", "decision")]
    wide = wide.reindex(columns=cols).reset_index()
    wide["_t"] = wide["tier"].map({t: i for i, t in enumerate(TIERS)})
    return wide.sort_values(["_t", "split", "pair_id"]).drop(columns="_t").reset_index(drop=True)


if __name__ == "__main__":  # python -m tjb_lib.teaching.judge_yourself: rewrite the shipped example
    for path in write_example():
        print(path.relative_to(paths.ROOT))
