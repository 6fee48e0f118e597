"""Natural pairs written by an LLM: ``python -m tjb_lib generate natural``.

For each HotpotQA item the generator answers twice from the same retrieved passages (the
item's supporting paragraphs): once told to cite its sources, once told to answer plainly. The
calls go through the judge backends and the crash-safe response store, so a run that stops is
resumed by running it again and nothing answered is asked twice. A pair is kept only when both
final answers agree under a SQuAD-style normaliser, the cited answer shows a citation display
and the plain one shows none; every reject is counted by reason. The kept pairs
(``natural_llm.jsonl``, Pair records with the generator's raw outputs in ``meta``) and a record
of the run (``generation.json``: generator, prompts, counts) go to the output folder.
"""
from __future__ import annotations

import collections
import json
import os
import re
import string
from pathlib import Path

from tjb_lib import paths
from tjb_lib.data import HotpotItem, load_hotpotqa
from tjb_lib.pairs.candidates import hops
from tjb_lib.pairs.common import hotpot_meta, make_pair, rng
from tjb_lib.pairs.render import final_answer as stated_answer
from tjb_lib.pairs.strip import detect_artifacts
from tjb_lib.records import Pair, Request
from tjb_lib.seeds import SEED

OUT = paths.OUTPUTS / "generated" / "natural"
SYSTEM = "You answer questions using the retrieved passages you are given."
ASK = {
    "cited": ("Answer the question from the passages. Cite the passages you use with markers "
              "such as [1] after the sentences they support, and end with a 'Sources:' list of "
              "the passage titles you cited."),
    "plain": ("Answer the question from the passages, in plain prose. Do not cite: no markers, "
              "no source titles, no list of sources."),
}
LAST_LINE = "Explain briefly, then give your final line as: Final answer: <short answer>"
TEMPLATE_VERSION = "1"
MAX_TOKENS = 256
_FINAL = re.compile(r"(?im)^\W*final answer\W*:?\**\s*(.+?)\s*$")


def normalize_answer(text: str) -> str:
    """SQuAD's answer normaliser: lower case, no punctuation, no articles, single spaces."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def final_answer(text: str) -> str | None:
    """The answer a generated text ends on: its last "Final answer:" line, else a statement
    the offline renderer would write."""
    found = _FINAL.findall(text)
    if found:
        return re.sub(r"\s*(\[\d+\])+\s*$", "", found[-1]).strip().strip("*").strip()
    return stated_answer(text)


def passages(item: HotpotItem) -> str:
    return "\n\n".join(f"[{n}] {title}\n{' '.join(s.strip() for s in dict(item.context)[title])}"
                       for n, title in enumerate(hops(item), start=1))


def request(item: HotpotItem, style: str) -> Request:
    user = f"Passages:\n\n{passages(item)}\n\nQuestion: {item.question}\n\n{ASK[style]} {LAST_LINE}"
    return Request(messages=(("system", SYSTEM), ("user", user)),
                   template=f"generate_natural_{style}", template_version=TEMPLATE_VERSION,
                   kind="text", max_tokens=MAX_TOKENS, temperature=0.0, json_mode=False)


def judge_pair(item: HotpotItem, texts: dict[str, str]) -> tuple[Pair | None, str | None]:
    """The pair two generated answers make, or (None, why it is rejected)."""
    answers = {s: final_answer(t) for s, t in texts.items()}
    if not all(answers.values()):
        return None, "no final answer line"
    if normalize_answer(answers["cited"]) != normalize_answer(answers["plain"]):
        return None, "final answers differ"
    if not detect_artifacts(texts["cited"]):
        return None, "the cited answer shows no citation display"
    if detect_artifacts(texts["plain"]):
        return None, "the plain answer shows a citation display"
    pair = make_pair("natural_hotpotqa", "hotpotqa", item.id, "llm", target_relation="equivalent",
                     gold="tie", task=item.question, plain=texts["plain"].strip(),
                     cited=texts["cited"].strip(), variant="natural:llm",
                     artifact="+".join(sorted(detect_artifacts(texts["cited"]))),
                     meta={**hotpot_meta(item), "generator": None, "final_answers": answers,
                           "matches_gold": normalize_answer(answers["plain"])
                           == normalize_answer(item.answer)})
    return pair, None


def generate_natural(judge, limit: int | None = None, out_dir: Path | str | None = None,
                     seed: int = SEED, concurrency: int = 1) -> dict:
    """Ask ``judge`` (a Judge object) for both answers to each of the first ``limit`` items
    (seeded order); write the kept pairs and the run record; return the run record."""
    from concurrent.futures import ThreadPoolExecutor

    from tjb_lib.runner.calls import RunTally, make_call
    from tjb_lib.runner.comparisons import RunError, at_least_one
    from tjb_lib.store import ResponseStore

    at_least_one("--limit", limit)  # before anything is written: --limit 0 wrote three files
    at_least_one("--concurrency", concurrency)
    try:
        out_dir = paths.judge_dir(judge.name, Path(out_dir or OUT))
    except ValueError as e:
        raise RunError(str(e)) from e
    out_dir.mkdir(parents=True, exist_ok=True)
    items = load_hotpotqa()
    rng(seed, "generate", "natural").shuffle(items)
    items = items[:limit] if limit is not None else items
    tally = RunTally()
    rejects: collections.Counter = collections.Counter()
    kept: list[Pair] = []
    with ResponseStore(out_dir / "store") as store:
        call = make_call(judge, store, tally)

        def answer(item: HotpotItem) -> dict[str, object]:
            return {s: call(request(item, s)) for s in ("cited", "plain")}

        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            for item, replies in zip(items, pool.map(answer, items)):
                if any(r.status != "ok" or not r.text for r in replies.values()):
                    rejects["a call failed or returned no text"] += 1
                    continue
                pair, why = judge_pair(item, {s: r.text for s, r in replies.items()})
                if pair is None:
                    rejects[why] += 1
                    continue
                pair.meta["generator"] = judge.identity()
                pair.meta["raw_outputs"] = {s: r.text for s, r in replies.items()}
                kept.append(pair)
    record = {"generator": judge.identity(), "seed": seed, "items": len(items),
              "kept": len(kept), "rejected": dict(sorted(rejects.items())),
              "matches_gold": sum(p.meta["matches_gold"] for p in kept),
              "calls_made": tally.calls, "calls_from_store": tally.hits,
              "prompts": {s: {"system": SYSTEM, "instruction": f"{ASK[s]} {LAST_LINE}",
                              "template": f"generate_natural_{s}",
                              "template_version": TEMPLATE_VERSION} for s in ASK},
              "store": str((out_dir / "store").relative_to(out_dir.parent))}
    _write(out_dir / "natural_llm.jsonl",
           "".join(json.dumps(p.to_dict(), sort_keys=True, ensure_ascii=False) + "\n" for p in kept))
    _write(out_dir / "generation.json", json.dumps(record, indent=2, sort_keys=True) + "\n")
    return record


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
