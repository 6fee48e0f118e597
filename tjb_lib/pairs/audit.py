"""Artifact audit of the built splits: can the tier or the tampered side be found without
reading for quality?

Everything here looks at the text with the citation display stripped (``strip_artifacts``),
because the display is the intended difference. Per split it measures the most one-sided word
n-grams (the share of pairs in which an n-gram appears on the cited side only, or on the plain
side only), length ratios, sentences repeated inside one candidate, dangling references (a
supporting hop named by a candidate that shows none of that hop's sentences), and how well a
bag-of-words classifier tells the cited side from the plain side. A classifier also tries to
tell the HotpotQA tier of a pair from its one-sided words. Budgets (``BUDGETS``) are checked on
every split; ``python -m tjb_lib audit`` prints the figures and exits non-zero on a breach.
"""
from __future__ import annotations

import collections
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from tjb_lib.pairs import coherence, finqa_rules, readable
from tjb_lib import paths
from tjb_lib.pairs.coherence import sentences, words
from tjb_lib.data import load_hotpotqa
from tjb_lib.pairs.chain_rules import as_read
from tjb_lib.pairs.graded import UNSHOWN_KINDS
from tjb_lib.pairs import SPLIT_NAMES, load_split, registry
from tjb_lib.pairs.standalone import short_name
from tjb_lib.pairs.strip import strip_artifacts
from tjb_lib.records import Pair
from tjb_lib.seeds import SEED
from tjb_lib.text import WORD

NGRAMS = (1, 2, 3)
MAX_ONE_SIDED = 0.20          # no non-display n-gram on one side only in more than 20% of pairs
#: what sides differ in (``registry.DIFFERENCES``) when they differ by definition of the split,
#: not by construction tells: no n-gram budget, no side classifier
NGRAM_EXEMPT = {"systems": "system comparison: the sides are different systems"}
#: the HotpotQA tiers a classifier tries to tell apart from a pair's one-sided words
TIER_SPLITS = registry.tier_probe_splits()
MAX_CONTENT_FREE = 0.40       # reasoning sentences that share no content word with the evidence


def ngram_set(text: str, ns: tuple[int, ...] = NGRAMS) -> set[str]:
    """Word n-grams with at least one content word ("to", "of the" say nothing alone)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    w = words(text)
    grams = (w[i:i + n] for n in ns for i in range(len(w) - n + 1))
    return {" ".join(g) for g in grams if not set(g) <= ENGLISH_STOP_WORDS}


def repeated_sentences(text: str, answers: tuple[str, ...] = (), min_words: int = 5) -> list[str]:
    """Sentences of at least ``min_words`` words that occur more than once in one candidate.
    Code blocks are not prose and are left out, and so is a restatement of (part of) an answer."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    said = [" ".join(words(a)) for a in answers]
    counts = collections.Counter(" ".join(words(s)) for s in sentences(text)
                                 if len(words(s)) >= min_words
                                 and not any(" ".join(words(s)) in a for a in said))
    return sorted(s for s, n in counts.items() if n > 1)


def _answers(p: Pair) -> tuple[str, ...]:
    return tuple(str(p.meta[k]) for k in ("gold_answer", "correct_answer", "wrong_answer")
                 if k in p.meta)


def one_sided(pairs: list[Pair]) -> pd.DataFrame:
    """Per n-gram: the share of pairs where it appears on the cited side only / plain side only."""
    cited_only: collections.Counter = collections.Counter()
    plain_only: collections.Counter = collections.Counter()
    for p in pairs:
        c, q = ngram_set(strip_artifacts(p.cited)), ngram_set(strip_artifacts(p.plain))
        cited_only.update(c - q)
        plain_only.update(q - c)
    n = max(len(pairs), 1)
    grams = set(cited_only) | set(plain_only)
    df = pd.DataFrame({"ngram": sorted(grams)})
    df["cited_only"] = [cited_only[g] / n for g in df["ngram"]]
    df["plain_only"] = [plain_only[g] / n for g in df["ngram"]]
    df["one_sided"] = df[["cited_only", "plain_only"]].max(axis=1)
    df["side"] = np.where(df["cited_only"] >= df["plain_only"], "cited", "plain")
    return df.sort_values(["one_sided", "ngram"], ascending=[False, True]).reset_index(drop=True)


# ----------------------------------------------------------------------------- dangling references

def shows(evidence: list[str], paragraph: list[str]) -> bool:
    """Does one of the evidence texts come from ``paragraph`` (most of its content words are
    the paragraph's)? Evidence lines may name their entity where the paragraph said "it"."""
    have = coherence.content_words(" ".join(paragraph))
    for line in evidence:
        for sent in sentences(line):
            mine = coherence.content_words(sent)
            if mine and len(mine & have) >= 0.6 * len(mine):
                return True
    return False


def dangling_references(p: Pair, items: dict) -> list[str]:
    """Supporting hops a candidate's reasoning names while its evidence neither names them nor
    shows any of their paragraph (a step that refers to support the candidate does not have)."""
    item = items.get(p.source_id) if p.source == "hotpotqa" else None
    if item is None:
        return []
    out = []
    for side in ("plain", "cited"):
        part = coherence.parts(p, side)
        mine = part["reasoning"].lower()
        paragraphs = collections.defaultdict(list)      # hops that share a name share it
        for title, sents in item.context:
            if title in {t for t, _ in item.supporting_facts}:
                paragraphs[short_name(title)] += [s.strip() for s in sents if s.strip()]
        for name, sents in paragraphs.items():
            low = name.lower()
            if (re.search(rf"(?<!\w){re.escape(low)}(?!\w)", mine)
                    and low not in " ".join(part["evidence"]).lower()
                    and not shows(part["evidence"], sents)
                    and low not in item.answer.strip().lower()):
                out.append(f"{side}: names {name!r} without its evidence")
    return out


# ----------------------------------------------------------------------------- classifiers

def side_classifier(pairs: list[Pair], seed: int = SEED, folds: int = 5,
                    top: int = 5) -> tuple[float, list[str], list[str]]:
    """Cross-validated accuracy of a paired bag-of-words logistic regression that tells which of
    two sides is the cited one (features: one side's words minus the other's, each pair shown
    in a seeded order; folds grouped by source item, so no item is in training and test), and
    the words that carry it (top cited-side and plain-side features of a fit on every pair)."""
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold, cross_val_score

    cited = [strip_artifacts(p.cited) for p in pairs]
    plain = [strip_artifacts(p.plain) for p in pairs]
    vec = CountVectorizer(binary=True, ngram_range=(1, 2), token_pattern=WORD.pattern)
    vec.fit(cited + plain)
    diff = vec.transform(cited) - vec.transform(plain)
    flip = np.random.default_rng(seed).random(len(pairs)) < 0.5
    x = diff.multiply(np.where(flip, -1, 1)[:, None]).tocsr()
    y = (~flip).astype(int)                           # 1: the first side shown is the cited one
    groups = [p.source_id for p in pairs]
    model = LogisticRegression(solver="liblinear", random_state=seed)
    n_groups = len(set(groups))
    cv = GroupKFold(n_splits=min(folds, n_groups), shuffle=True, random_state=seed)
    acc = float(np.mean(cross_val_score(model, x, y, groups=groups, cv=cv)))
    model.fit(x, y)
    vocab = vec.get_feature_names_out()
    coef = model.coef_[0]
    cited_words = [vocab[i] for i in _ranked(coef, vocab)[:top] if coef[i] > 0]
    plain_words = [vocab[i] for i in _ranked(-coef, vocab)[:top] if coef[i] < 0]
    return acc, cited_words, plain_words


def _ranked(weights: np.ndarray, vocab: np.ndarray) -> np.ndarray:
    """Indices of ``vocab`` by weight, largest first; words whose weights agree to 8 decimals
    (n-grams that always occur together) by the word, since processors differ in the last bits
    of such a tie and the datasheet's block must be the same on every machine."""
    return np.lexsort((vocab, -np.round(weights, 8)))


def _one_sided_words(p: Pair) -> str:
    c, q = set(words(strip_artifacts(p.cited))), set(words(strip_artifacts(p.plain)))
    return " ".join([f"c_{w}" for w in sorted(c - q)] + [f"p_{w}" for w in sorted(q - c)])


def tier_classifier(splits: dict[str, list[Pair]], seed: int = SEED, folds: int = 5,
                    per_tier: int = 100) -> dict:
    """Balanced cross-validated accuracy of telling a HotpotQA pair's tier from its one-sided
    words (words on one side only, marked by side), ``per_tier`` pairs of each tier."""
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.metrics import balanced_accuracy_score, recall_score
    from sklearn.pipeline import make_pipeline

    rng = np.random.default_rng(seed)
    texts, labels = [], []
    for name in TIER_SPLITS:
        pairs = splits[name]
        take = rng.choice(len(pairs), size=min(per_tier, len(pairs)), replace=False)
        texts += [_one_sided_words(pairs[i]) or "none" for i in sorted(take)]
        labels += [name] * len(take)
    y = np.array(labels)
    model = make_pipeline(CountVectorizer(binary=True, token_pattern=r"\S+"),
                          LogisticRegression(max_iter=2000, random_state=seed))
    pred = cross_val_predict(model, texts, y, cv=StratifiedKFold(folds, shuffle=True,
                                                                random_state=seed))
    recall = recall_score(y, pred, labels=list(TIER_SPLITS), average=None)
    model.fit(texts, y)
    vocab = model[0].get_feature_names_out()
    features = {}
    for k, name in enumerate(model[1].classes_):
        coef = model[1].coef_[k]
        features[name] = [vocab[i] for i in _ranked(coef, vocab)[:5]]
    return {"balanced_accuracy": float(balanced_accuracy_score(y, pred)),
            "chance": 1 / len(TIER_SPLITS),
            "recall": dict(zip(TIER_SPLITS, map(float, recall))), "features": features}


# ----------------------------------------------------------------------------- the audit

@dataclass
class SplitAudit:
    split: str
    pairs: int
    top_ngram: str
    top_ngram_side: str
    top_ngram_share: float
    length_ratio: float               # median len(cited) / len(plain), display included
    stripped_length_ratio: float      # the same with the display stripped
    repeated: int                     # candidates with a sentence repeated inside them
    dangling: int                     # candidates naming a hop without its evidence
    side_accuracy: float | None       # paired cited-vs-plain accuracy (None: identical)
    leaning: int = 0                  # sentences opening with a pronoun or bare description
    reasoning: int = 0                # reasoning sentences read (soft: the plain side only)
    content_free: int = 0             # ... that share no content word with the evidence
    padding: int = 0                  # length-control sentences that are pronoun-led or filler
    one_sided: int = 0                # pairs with a sentence on one side outside the intended difference
    unreadable: int = 0               # what a careful reader stops at (``readable``): budget 0
    examples: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)      # construction figures worth stating
    cited_features: list[str] = field(default_factory=list)
    plain_features: list[str] = field(default_factory=list)
    differ: float | None = None       # natural: share of pairs whose stripped sides differ
    breaches: list[str] = field(default_factory=list)


def audit_split(name: str, pairs: list[Pair], items: dict, seed: int = SEED) -> SplitAudit:
    grams = one_sided(pairs)
    top = grams.iloc[0] if len(grams) else None
    stripped = [(strip_artifacts(p.cited), strip_artifacts(p.plain)) for p in pairs]
    ratio = float(np.median([len(p.cited) / len(p.plain) for p in pairs]))
    s_ratio = float(np.median([len(c) / len(q) for c, q in stripped]))
    repeated = sum(bool(repeated_sentences(t, _answers(p)))
                   for p, (c, q) in zip(pairs, stripped) for t in (c, q))
    dangling = sum(bool(dangling_references(p, items)) for p in pairs)
    identical = all(c == q for c, q in stripped)
    entry = registry.get(name)
    exempt = entry.differs in NGRAM_EXEMPT
    acc, cf, pf = ((None, [], []) if identical or exempt
                   else side_classifier(pairs, seed))
    a = SplitAudit(name, len(pairs), top["ngram"] if top is not None else "",
                   top["side"] if top is not None else "",
                   float(top["one_sided"]) if top is not None else 0.0, ratio, s_ratio,
                   repeated, dangling, acc, cited_features=cf, plain_features=pf)
    _coherence(a, pairs, items)
    a.notes = _construction(entry.differs, pairs)
    if entry.min_differ is not None:
        a.differ = float(np.mean([c != q for c, q in stripped]))
        if a.differ < entry.min_differ:
            a.breaches.append(f"stripped sides differ in {a.differ:.0%} of pairs "
                              f"(budget >= {entry.min_differ:.0%})")
    if not exempt and a.top_ngram_share > MAX_ONE_SIDED:
        a.breaches.append(f"n-gram {a.top_ngram!r} on the {a.top_ngram_side} side only in "
                          f"{a.top_ngram_share:.0%} of pairs (budget {MAX_ONE_SIDED:.0%})")
    if repeated:
        a.breaches.append(f"{repeated} candidates repeat a sentence (budget 0)")
    if a.leaning:
        a.breaches.append(f"{a.leaning} sentences open with a pronoun or a bare description "
                          f"(budget 0)")
    if a.reasoning and a.content_free / a.reasoning > MAX_CONTENT_FREE:
        a.breaches.append(f"{a.content_free / a.reasoning:.0%} of reasoning sentences share no "
                          f"content word with the evidence (budget {MAX_CONTENT_FREE:.0%})")
    if a.padding:
        a.breaches.append(f"{a.padding} padding sentences are pronoun-led or filler (budget 0)")
    if a.one_sided:
        a.breaches.append(f"{a.one_sided} pairs have a one-sided sentence outside the intended "
                          f"difference (budget 0)")
    budget = entry.max_side_accuracy
    if budget is not None and acc is not None and acc > budget:
        a.breaches.append(f"the paired classifier finds the cited side in {acc:.0%} of pairs "
                          f"(budget {budget:.0%})")
    if dangling:
        a.breaches.append(f"{dangling} pairs name a hop without its evidence (budget 0)")
    a.breaches += finqa_rules.breaches(pairs)
    stock = readable.stock_support(pairs)
    a.unreadable += len(stock)
    if stock:
        a.examples.append(f"stock support: {stock[0][0]}: {stock[0][1]!r}")
    if a.unreadable:
        a.breaches.append(f"{a.unreadable} sentences break a reader's rule (budget 0)")
    return a


def _construction(differs: str, pairs: list[Pair]) -> list[str]:
    """Figures of how a split was made that its datasheet states, by what its sides differ in:
    how closely the length control matches the full-citation side, how often natural pairs
    reuse an item, which hop the moderate tier omits and how, which kind of step the FinQA
    moderate tier leaves unshown (``graded.UNSHOWN_KINDS``)."""
    if differs == "padding":
        gaps = np.array([abs(p.meta["length_cited"] - p.meta["length_target"]) for p in pairs])
        return [f"length of the padded side against the full-citation side: median gap "
                f"{np.median(gaps):.0f} characters, 95th percentile {np.percentile(gaps, 95):.0f}, "
                f"largest {gaps.max()}; {np.mean(gaps <= 40):.1%} of pairs within 40"]
    if differs == "written_apart":
        uses = collections.Counter(collections.Counter(p.source_id for p in pairs).values())
        return [f"{sum(uses.values())} HotpotQA items: " + ", ".join(
            f"{n} used {k} times" for k, n in sorted(uses.items()))]
    if differs == "dropped_hop":
        kinds = collections.Counter((p.meta["dropped_role"], p.meta["omission"]) for p in pairs)
        return ["omitted hop: " + ", ".join(f"{role} {how} {n}" for (role, how), n
                                             in sorted(kinds.items()))]
    if differs == "omitted_sentences":
        kinds = collections.Counter(p.meta["omitted_kind"] if p.meta["omitted_kind"]
                                    in UNSHOWN_KINDS else "other" for p in pairs)
        return ["step left unshown: " + ", ".join(f"{k} {kinds[k]}"
                                                  for k in (*UNSHOWN_KINDS, "other"))]
    return []


def _coherence(a: SplitAudit, pairs: list[Pair], items: dict) -> None:
    """Fill in the coherence counts (``tjb_lib.pairs.coherence``), with an example of each kind."""
    seen: dict[str, str] = {}
    for p in pairs:
        for side in ("plain", "cited"):
            leaning = coherence.leaning_lines(p, side)
            a.leaning += len(leaning)
            if leaning:
                seen.setdefault("leaning", f"{p.pair_id} ({side}): {leaning[0]}")
            if side == registry.get(p.split).generic_side:
                continue                              # generic by design
            said, free = coherence.reasoning_sentences(p, side)
            a.reasoning += len(said)
            a.content_free += len(free)
        bad = coherence.padding_problems(p, items)
        a.padding += len(bad)
        if bad:
            seen.setdefault("padding", f"{p.pair_id}: {bad[0]}")
        stops = readable.problems(p, items)
        a.unreadable += len(stops)
        if stops:
            seen.setdefault("unreadable", f"{p.pair_id}: {stops[0][0]}: {stops[0][1][:120]}")
        odd = coherence.one_sided_sentences(p, items)
        a.one_sided += bool(odd)
        if odd:
            seen.setdefault("one-sided", f"{p.pair_id}: {odd[0]}")
    a.examples = [f"{k}: {v}" for k, v in seen.items()]


def run_audit(splits_dir: Path | str | None = None, seed: int = SEED,
              names: tuple[str, ...] = SPLIT_NAMES) -> tuple[list[SplitAudit], dict]:
    """Audit every split in ``splits_dir`` (default data/splits); also the tier classifier."""
    items = {i.id: as_read(i) for i in load_hotpotqa()}     # as the builders read them
    splits = {n: load_split(n, splits_dir) for n in names}
    audits = [audit_split(n, splits[n], items, seed) for n in names]
    tiers = tier_classifier(splits, seed) if set(TIER_SPLITS) <= set(names) else {}
    return audits, tiers


def _exempt(split: str) -> bool:
    return registry.get(split).differs in NGRAM_EXEMPT


def table(audits: list[SplitAudit]) -> pd.DataFrame:
    rows = []
    for a in audits:
        rows.append({
            "split": a.split, "pairs": a.pairs,
            "top one-sided n-gram": f"{a.top_ngram} ({a.top_ngram_side})" if a.top_ngram else "—",
            "share": f"{a.top_ngram_share:.1%}",
            "length ratio": f"{a.length_ratio:.2f}",
            "stripped ratio": f"{a.stripped_length_ratio:.2f}",
            "repeated": a.repeated, "dangling": a.dangling, "leaning": a.leaning,
            "content-free reasoning": (f"{a.content_free / a.reasoning:.1%}" if a.reasoning
                                       else "—"),
            "bad padding": a.padding, "one-sided": a.one_sided, "reader rules": a.unreadable,
            "side accuracy": ("exempt" if _exempt(a.split) else "identical")
            if a.side_accuracy is None else f"{a.side_accuracy:.1%}",
            "differ": "—" if a.differ is None else f"{a.differ:.1%}",
            "budget": "exempt" if _exempt(a.split) and not a.breaches
            else ("pass" if not a.breaches else "FAIL")})
    return pd.DataFrame(rows)


def markdown(audits: list[SplitAudit], tiers: dict) -> str:
    """The audit figures as Markdown (the block data/DATASHEET.md carries)."""
    lines = [table(audits).to_markdown(index=False), ""]
    lines.append("Columns: `leaning` counts sentences (evidence, reasoning, padding) that open with a "
                 "pronoun or a bare description (\"It lies ...\", \"The film stars ...\"); "
                 "`content-free reasoning` is the share of reasoning sentences that share no content "
                 "word with the candidate's own evidence once the answer and source titles are set "
                 "aside (the soft tier's generic cited side is not counted); `bad padding` counts "
                 "length-control sentences that are pronoun-led or filler; `one-sided` counts pairs "
                 "with a sentence on one side only outside the difference the split varies; "
                 "`reader rules` counts what a careful reader stops at (`tjb_lib/pairs/readable.py`: a "
                 "non-name title inserted as a name, a cut sentence, a comparison without both "
                 "values or, for a yes/no comparison, without both facts, a hop the reasoning never "
                 "uses, a closing that joins the answer alone with a stock connective, an opening "
                 "leaning on an unshown sentence, a gold answer its evidence does not support, a "
                 "soft generic support that names nothing of the item, shares a six-word run "
                 "with more than 5% of the split's generic sides, or gives a role that states "
                 "nothing: a quoted fragment as a detail, a clue, what is asked, agreement with "
                 "nothing stated, a comparison naming nothing compared); `side "
                 "accuracy` is a paired classifier (one side's words minus the other's, folds grouped "
                 "by source item) telling the cited side.")
    lines.append("")
    for a in audits:
        lines += [f"- `{a.split}`: {note}" for note in a.notes]
    if any(a.notes for a in audits):
        lines.append("")
    feats = [a for a in audits if a.side_accuracy is not None and a.side_accuracy >= 0.6]
    if feats:
        lines.append("Words that carry the cited-vs-plain signal where the classifier beats 60%:")
        lines.append("")
        for a in feats:
            lines.append(f"- `{a.split}` ({a.side_accuracy:.1%}): cited side "
                         f"{', '.join(a.cited_features) or '—'}; plain side "
                         f"{', '.join(a.plain_features) or '—'}")
        lines.append("")
    if tiers:
        lines.append(f"Tier classifier (one-sided words of a pair, {len(TIER_SPLITS)} HotpotQA "
                     f"tiers, 100 pairs each, 5-fold): balanced accuracy "
                     f"{tiers['balanced_accuracy']:.1%} (chance {tiers['chance']:.0%}).")
        lines.append("")
        for name in TIER_SPLITS:
            lines.append(f"- `{name}`: recall {tiers['recall'][name]:.0%}; strongest words "
                         f"{', '.join(tiers['features'][name])}")
    return "\n".join(lines).rstrip() + "\n"


DATASHEET = paths.DATA / "DATASHEET.md"
BLOCK = ("<!-- audit:begin (python -m tjb_lib audit --write-datasheet) -->", "<!-- audit:end -->")


def datasheet_block(text: str) -> str:
    """The audit figures block of a datasheet (between the BLOCK markers)."""
    start, end = text.index(BLOCK[0]) + len(BLOCK[0]), text.index(BLOCK[1])
    return text[start:end].strip("\n") + "\n"


def main(splits_dir: str | None = None, write_datasheet: bool = False) -> int:
    audits, tiers = run_audit(splits_dir)
    figures = markdown(audits, tiers)
    print(figures)
    bad = [(a.split, b) for a in audits for b in a.breaches]
    for split, b in bad:
        print(f"BUDGET {split}: {b}")
    if write_datasheet:
        text = DATASHEET.read_text(encoding="utf-8")
        start, end = text.index(BLOCK[0]) + len(BLOCK[0]), text.index(BLOCK[1])
        DATASHEET.write_text(f"{text[:start]}\n{figures}{text[end:]}", encoding="utf-8")
        print(f"wrote the audit figures into {DATASHEET}")
    return 1 if bad else 0
