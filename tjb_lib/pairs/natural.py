"""Natural citation-looking pairs (offline): two independently written answers that agree.

Each side is written on its own from the same HotpotQA item, the way two RAG answers would be:
its own prose style and answer wording, its own reasoning phrasings, the gold evidence in gold
or reversed order, and now and then a relevant non-supporting sentence from a supporting
paragraph. The cited side also carries a display (inline markers with a sources footer,
"According to “Title”," framings, quoted-passage blocks, footnotes, 【n†Title】 tags, sentence
ids with an evidence block, source labels, verification lines). Final answers always agree;
wording, evidence selection, order and display differ. Only 500 HotpotQA items exist here (and
the ones whose supporting sentences all stand alone are fewer), so each item is used twice and
a seeded few a third time to reach SIZE pairs (``meta.item_use``, each use a different display);
200 pairs (the first use of 200 seeded items) form the validated subset. ``tjb_lib.run.generate`` writes such pairs
with an LLM instead.
"""
from __future__ import annotations

import collections
import random
import re

from tjb_lib.data import HotpotItem
from tjb_lib.pairs.candidates import hops, hotpot_candidate
from tjb_lib.text import content_words
from tjb_lib.pairs.common import cue_label, hotpot_meta, make_pair, rng
from tjb_lib.pairs.render import ANSWER_FORMS, STYLES, VERIFICATION_LINES, Candidate, render
from tjb_lib.pairs.standalone import DESCRIPTORS, entity_of, short_name, standalone
from tjb_lib.pairs.strip import detect_artifacts
from tjb_lib.records import Pair

SPLIT = "natural_hotpotqa"
CUE_SETS = (
    ("markers", "sources_footer"),
    ("according_to",),
    ("according_to", "verification"),
    ("quoted_block",),
    ("footnotes",),
    ("tags",),
    ("sentence_ids", "evidence_block"),
    ("markers", "sources_footer", "verification"),
    ("source_labels",),
    ("tags", "verification"),
    ("markers", "quoted_block"),
)
SIZE = 1000
VALIDATED = 200
USES = 2
P_EXTRA = 0.15        # a side adds a relevant non-supporting sentence
P_REVERSED = 0.5      # a side lists its evidence in reverse order


MIN_TOPIC_WORDS = 2    # content words an extra sentence shares with the question, names aside
# A bare description with no antecedent in a sentence shown alone ("explored in the film").
_BARE_DESCRIPTION = re.compile(rf"\bthe (?:{'|'.join(sorted(DESCRIPTORS))})\b(?! [A-Z\"“(])")


def on_topic(item: HotpotItem, sentence: str, least: int = MIN_TOPIC_WORDS) -> bool:
    """Does ``sentence`` speak to the question: two of its content words, the hops' names
    aside, are the question's, and it describes nothing it leaves unnamed? Blind readers
    stopped at a paragraph's other sentences ("Ravedeath, 1972's central theme is ..." for a
    question on Tim Hecker's latest album)."""
    names = content_words(" ".join(f"{short_name(h)} {entity_of(item, h).name or ''}"
                                   for h in hops(item)))
    shared = content_words(sentence) & content_words(item.question) - names
    return len(shared) >= least and not _BARE_DESCRIPTION.search(sentence)


def extra_sentences(item: HotpotItem) -> list[tuple[str, int]]:
    """Non-supporting sentences of the supporting paragraphs that do not state the answer and
    are on the question's topic (``on_topic``)."""
    gold = set(item.supporting_facts)
    out = []
    for title in hops(item):
        for sid in range(len(dict(item.context)[title])):
            sent = standalone(item, title, sid)
            if (sent is not None and (title, sid) not in gold and len(sent.split()) >= 6
                    and item.answer.strip().lower() not in sent.lower()
                    and not detect_artifacts(sent) and sent[-1] in ".!?"
                    and on_topic(item, sent)):
                out.append((title, sid))
    return out


def write_side(item: HotpotItem, r: random.Random) -> tuple[Candidate, dict]:
    """One independently written answer: its candidate and its writing choices."""
    extras = extra_sentences(item)
    extra = r.choice(extras) if extras and r.random() < P_EXTRA else None
    reverse = r.random() < P_REVERSED
    style = r.choice(STYLES)
    form = r.randrange(len(ANSWER_FORMS[style]))
    c = hotpot_candidate(item, random.Random(r.getrandbits(64)), extra=extra, reverse=reverse)
    return c, {"style": style, "form": form, "evidence_order": "reversed" if reverse else "gold",
               "extra_sentence": list(extra) if extra else None}


def _cues(item: HotpotItem, c: Candidate, style: str, form: int, r: random.Random,
          taken: set[tuple[str, ...]]) -> tuple[str, ...]:
    """A display the cited side can carry (footnotes need sentence-final punctuation)."""
    for cues in r.sample(CUE_SETS, len(CUE_SETS)):
        if cues in taken:
            continue
        try:
            render(c, cues, style, form=form)
        except ValueError:
            continue
        return cues
    raise ValueError(f"{item.id}: no usable natural display")


def natural_hotpotqa(items: list[HotpotItem], seed: int) -> list[Pair]:
    validated = set(rng(seed, SPLIT, "validated").sample(sorted(i.id for i in items), VALIDATED))
    more = SIZE - USES * len(items)
    if more < 0 or more > len(items):
        raise ValueError(f"{len(items)} HotpotQA items cannot make {SIZE} natural pairs with "
                         f"{USES} or {USES + 1} uses each")
    third = rng(seed, SPLIT, "third use").sample(items, more)
    uses = collections.Counter([i.id for i in items] * USES + [i.id for i in third])
    out = []
    taken: dict[str, set[tuple[str, ...]]] = {i.id: set() for i in items}
    for use, batch in enumerate([items] * USES + [third]):
        for item in batch:
            plain, plain_how = write_side(item, rng(seed, SPLIT, item.id, use, "plain"))
            r = rng(seed, SPLIT, item.id, use, "cited")
            cited, cited_how = write_side(item, r)
            cues = _cues(item, cited, cited_how["style"], cited_how["form"], r, taken[item.id])
            taken[item.id].add(cues)
            verif = r.randrange(len(VERIFICATION_LINES))
            out.append(make_pair(
                SPLIT, "hotpotqa", item.id, use, target_relation="equivalent", gold="tie",
                task=item.question,
                plain=render(plain, (), plain_how["style"], form=plain_how["form"]),
                cited=render(cited, cues, cited_how["style"], verification=verif,
                             form=cited_how["form"]),
                variant=f"natural:{plain_how['style']}/{cited_how['style']}",
                artifact=cue_label(cues),
                meta={**hotpot_meta(item), "generator": "offline", "plain_writing": plain_how,
                      "cited_writing": cited_how, "cues": list(cues), "item_use": use + 1,
                      "uses_per_item": uses[item.id],
                      "validated_subset": use == 0 and item.id in validated}))
    return out
