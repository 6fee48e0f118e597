"""The slips of ``slips`` counted on a pair, as the audit reads it: the reader rules held at
zero. Apart from ``slips`` because counting reads the candidate's sentences (``coherence``) and
the repairs (``standalone``), which import the builders that ``slips`` serves."""
from __future__ import annotations

import re

from tjb_lib.pairs import capitals, chain_rules, phrasing, registry
from tjb_lib.pairs.candidates import hops
from tjb_lib.pairs.coherence import parts, sentences
from tjb_lib.pairs.slips import (ALSO, CONCLUSION, GLUED, LISTED_SOURCES, ODD_LABEL, SOURCE_GRAMMAR,
                                 SOURCE_LIST, STRAY_ARTICLE, answer_not_a_noun_phrase, unbalanced)
from tjb_lib.pairs.closing import (CENSUS_FIGURE, ECHO_WORDS, POST_NOMINALS, QUOTED_KIND,
                                   UNTIL_SPAN, article_dropped, articled, before_verb,
                                   common_cased, lowered_the, named_with_noun,
                                   whole_name_uses, kind_without_article)
from tjb_lib.pairs.reasoning import aliased, long_lists, pruned, spelt_out_beside
from tjb_lib.pairs.standalone import (BROKEN_CLAUSE, DECIMAL_COMMA, bare_description,
                                      bare_surnames, entity_of, leans_back,
                                      kindless_series, sentence_groups, short_name, unglued,
                                      unnamed_things, with_owner)
from tjb_lib.records import Pair


def garbled(sentence: str, text: str) -> bool:
    """HotpotQA's text left garbled: a word missing ("it typically of wheat"), a bracket closing
    on a word that needs more ("and the)."), a decimal comma ("5,2 billion"), a glued word
    ("plantsin the mint family")."""
    return bool(BROKEN_CLAUSE.search(sentence) or DECIMAL_COMMA.search(sentence)
                or unglued(sentence, text) != sentence)


def bare_also(reasoning: str) -> bool:
    """A reasoning whose first sentence says "also" with nothing before it to be also to."""
    said = sentences(reasoning)
    return bool(said) and bool(ALSO.search(CONCLUSION.sub("", said[0].split(";")[0])))


def problems(p: Pair, item) -> list[tuple[str, str]]:
    """(rule, sentence) for each slip on either side of a HotpotQA pair."""
    text = capitals.item_text(item)
    out = []
    if answer_not_a_noun_phrase(p.meta.get("gold_answer") or item.answer):
        out.append(("answer not a noun phrase", item.answer))
    for side in ("plain", "cited"):
        raw = getattr(p, side)
        out += [("odd answer label", m.group(0)) for m in ODD_LABEL.finditer(raw)]
        if LISTED_SOURCES.search(raw) and not SOURCE_LIST.search(raw):
            out.append(("verification without listed sources", LISTED_SOURCES.search(raw).group(0)))
        part = parts(p, side)
        for s in sentences(part["reasoning"]):
            out += [("capital after a semicolon", s) for _ in
                    capitals.capitals_after_semicolons(s, text)]
            out += [("title lowered after a join", s) for _ in capitals.lowered_titles(s, text)]
            end = CONCLUSION.search(s)
            if end and GLUED.search(end.group(0)):
                out.append(("question's typo echoed", s))
        for line in [*part["evidence"], part["reasoning"], *part["after"]]:
            if unbalanced(line):
                out.append(("unpaired quote or bracket", line))
        for s in sentences("\n".join([*part["evidence"], part["reasoning"], *part["after"]])):
            if garbled(s, text):
                out.append(("garbled clause", s))
            if STRAY_ARTICLE.search(s):
                out.append(("stray article", s))
        if bare_also(part["reasoning"]):
            out.append(("bare also", sentences(part["reasoning"])[0]))
    return out + chain_problems(p, item) + phrasing_problems(p, item)


def phrasing_problems(p: Pair, item) -> list[tuple[str, str]]:
    """(rule, text) for the phrasing rules (``phrasing``) on either side of a HotpotQA pair: a
    conclusion worded from the question, a trailing aside, broken source text, a relation
    stated each way."""
    text = capitals.item_text(item)
    keep = [item.answer.strip(), *(n for h in hops(item)
                                   for n in (short_name(h), entity_of(item, h).name) if n)]
    out = []
    for side in ("plain", "cited"):
        part = parts(p, side)
        said = sentences(part["reasoning"])
        end = phrasing.CLAIM.search(said[-1]) if said else None
        if end and phrasing.echoed_claim(end.group("claim"), text):
            out.append(("conclusion worded from the question", end.group("claim")))
        out += [("trailing aside", a) for s in said for a in phrasing.asides(s, keep)]
        out += [("relation stated each way", s) for s in phrasing.mutual(said)]
        if end and item.answer.strip().lower() not in ("yes", "no"):
            out += [(why, end.group("claim")) for why in closing_slips(end.group("claim"), item, text)]
        for s in sentences("\n".join([*part["evidence"], part["reasoning"], *part["after"]])):
            out += [("broken source text", b) for b in phrasing.broken_source(s)]
    return out


def closing_slips(claim: str, item, text: str) -> list[str]:
    """What a reader stops at in a closing's claim (``closing``): a kind answer without its
    article ("the type of movie is South Korean horror film"), a common word capitalised after
    "the answer is" ("the answer is Anabolic steroids"), the question read back as the claim's
    subject, longer than ``closing.ECHO_WORDS`` words before the answer; "the" before a name
    the item's text never writes with it as a whole name ("the answer is the Marvel" from "the
    Marvel Comics character"; "the nationality is the British"), and a capital "The" the text
    writes in lower case inside a sentence ("the major truck road is The A41"); the question's
    verb left in the subject ("the songwriting duo composed music is Pasek & Paul"); a span of
    years without "from" ("the years are 1969 until 1974"); a census figure as the bare answer
    ("the answer is 8,211 at the 2010 census"); a quoted title's kind without "the" ('the answer
    is "Teach the Controversy" campaign'); a name without the article the text always gives it
    ("the answer is French Open"); "the other <noun>" ("so the other device is ..."), other
    than a thing the reasoning never named as one."""
    out = []
    subject = re.match(r"the (?P<noun>[^,\"“]+?) (?:is|are) ", claim)
    if subject and not set(subject.group("noun").lower().split()) & capitals.function_words() \
            and before_verb(subject.group("noun")) != subject.group("noun"):
        out.append("question's verb left in the closing's subject")
    span = re.search(r" (?:is|are) (?P<span>.+)$", claim)
    if span and UNTIL_SPAN.match(span.group("span")):
        out.append("span without its from")
    if re.fullmatch(rf"the answer is {CENSUS_FIGURE.pattern}", claim):
        out.append("census figure without its population")
    bare = re.search(r" (?:is|are) (?P<name>[\"“].*)$", claim)
    if bare and QUOTED_KIND.fullmatch(bare.group("name")):
        out.append("quoted title's kind without its article")
    with_the = re.search(r" (?:is|are|was|were) the (?P<name>[A-Z][^.]*)$", claim)
    if with_the and not any(whole_name_uses(with_the.group("name"), text)):
        out.append("article before a name that takes none")
    capital = re.search(r" (?:is|are|was|were) (?P<name>The [^.]*)$", claim)
    if capital and lowered_the(capital.group("name"), text) != capital.group("name"):
        out.append("capital The inside the closing")
    if kind_without_article(claim):
        out.append("kind answer without its article")
    if claim.startswith("the other "):
        out.append("other than a thing never named")
    if article_dropped(claim, text):
        out.append("name without the article its text gives")
    plain = re.match(r"the answer is (.+)$", claim)
    if plain and common_cased(plain.group(1), text) != plain.group(1):
        out.append("common word capitalised in the closing")
    unnamed = re.fullmatch(r"the (?P<noun>[a-z ]+) is (?P<name>[A-Z].*)", claim)
    if unnamed and named_with_noun(unnamed["noun"], unnamed["name"], text):
        out.append("name without the noun its text gives it")
    if POST_NOMINALS.search(claim):
        out.append("post-nominals in the closing")
    if opens_unarticled(claim, item.answer.strip(), text):
        out.append("closing opens on a name without its article")
    answer = item.answer.strip()
    at = claim.lower().find(answer.lower())
    subject = claim[:at] if at > 0 else ""
    if len(re.sub(r" (?:is|was|are|were)(?: [a-z]+)*(?: (?:in|on))? $", " ", subject).split()) > ECHO_WORDS:
        out.append("question read back in the closing")
    return out


def the_before_name(sentence: str, item, text: str) -> bool:
    """A hop's name after "the" and before a verb or a stop, where ``text`` (the item's) never
    writes it so ("the Halliburton has operations" from "The Halliburton Company ... it has
    operations"; not "the Front Row media program"):
    blind readers of 7 December stopped at it."""
    for h in hops(item):
        name = entity_of(item, h).name
        if name and name[:1].isupper() and re.search(rf"\bthe {re.escape(name)}(?=[.,;]| (?:is|was|are|were|has|had|have)\b)", sentence) \
                and not any(whole_name_uses(name, text)):
            return True
    return False


def opens_unarticled(claim: str, answer: str, text: str) -> bool:
    """A claim that opens on the answer, a name ``text`` always gives with "the" ("so Battle
    of Guam occurred first", where every use says "the Battle of Guam")."""
    return bool(answer) and claim.startswith(answer + " ") and articled(answer, text) != answer


def chain_problems(p: Pair, item) -> list[tuple[str, str]]:
    """(rule, text) for the chain rules (``chain_rules``) on either side of a HotpotQA pair: the
    item's own (an unlinked bridge, a cut name, a comparison against its values), a page title
    used as a name, the source's broken grammar, an opening that leans on a sentence not shown
    ("Ian Harland then went ...", "In this episode, ..."), a name beside its initials spelt out
    ("Michael C. Hall (Michael Carlyle Hall)"), and padding in the reasoning (a clause that adds
    nothing, a full list of names)."""
    out = [(why, item.answer) for why in chain_rules.item_problems(item)]
    text = capitals.item_text(item)
    for side in ("plain", "cited"):
        part = parts(p, side)
        for s in sentences("\n".join([*part["evidence"], part["reasoning"], *part["after"]])):
            out += [("title as a name", s) for _ in chain_rules.nameless_titles(s, item)]
            out += [("series without its kind", s) for h in hops(item)
                    if kindless_series(s, h)]
            if SOURCE_GRAMMAR.search(s):
                out.append(("source grammar", s))
        out += [("surname before the name", s) for s in surnames_unnamed(part, item)]
        out += [("pronoun for a person never named", s) for s in unowned(part, item)]
        out += [("description never named", s) for s in described_unnamed(part, item)]
        shown = sentences("\n".join([*part["evidence"], part["reasoning"], *part["after"]]))
        out += [("thing never named", s) for s in shown if unnamed_things(s)]
        out += [("opening leans on a sentence not shown", s) for s in shown if leans_back(s)]
        out += [("name beside its initials spelt out", s) for s in shown if spelt_out_beside(s)]
        out += [("the before a name that takes none", s) for s in shown if the_before_name(s, item, text)]
        said = sentences(CONCLUSION.sub("", part["reasoning"]))
        out += [("full list of names", s) for s in said if long_lists(s)]
        if side != registry.get(p.split).generic_side:  # generic support names no hop
            out += [("padded tail", s) for s in said if pruned(s, item) != s]
        out += [("other name never tied", s) for s in said for h in hops(item)
                if aliased(s, item, h) != s]
        out += [("off-topic padding", c)
                for c in chain_rules.padding(
                    [c for s in said for c in chain_rules.clauses(s)], item)]
    return out


def surnames_unnamed(part: dict, item) -> list[str]:
    """The sentences of a side that call a person of the item's paragraphs by the surname alone
    before the side has given the full name ("Shusett was executive producer")."""
    names = " ".join(f"{h}. " + " ".join(dict(item.context)[h]) for h in hops(item))
    shown, out = "", []
    for s in sentences("\n".join([*part["evidence"], part["reasoning"], *part["after"]])):
        if any(full not in shown for _, full in bare_surnames(s, names)):
            out.append(s)
        shown += " " + s
    return out


def _runs(text: str, n: int = 5) -> set[tuple[str, ...]]:
    """The runs of ``n`` words in ``text``: what a shown sentence keeps of its source."""
    w = re.findall(r"[\w'’-]+", text)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def described_unnamed(part: dict, item) -> list[str]:
    """The sentences of a side that keep a later sentence of a hop's paragraph with "the
    <noun>" for the paragraph's entity, never named in it (``standalone.bare_description``:
    "The Ogallala Aquifer was named after the city.")."""
    out = []
    for s in sentences("\n".join([*part["evidence"], part["reasoning"], *part["after"]])):
        runs = _runs(s)
        if any(runs & _runs(raw) and bare_description(s, entity_of(item, h))
               for h in hops(item) for raw in dict(item.context)[h][1:]):
            out.append(s)
    return out


def unowned(part: dict, item) -> list[str]:
    """The sentences of a side about a work that say "his"/"her" for the person its paragraph
    credits, never named ("Chattahoochee was released ... from his album")."""
    out = []
    for h in hops(item):
        entity, first = entity_of(item, h), sentence_groups(tuple(dict(item.context)[h]))[0]
        out += [s for s in sentences("\n".join([*part["evidence"], part["reasoning"], *part["after"]]))
                if entity.name and s.startswith(entity.called(True))
                and with_owner(s, entity, first) != s]
    return out
