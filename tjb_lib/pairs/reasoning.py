"""Reasoning that says what the evidence says: one step per hop, in words taken from it.

A HotpotQA candidate's reasoning walks its hops in order. A bridge hop's step is the clause of its
evidence that names the next hop's entity ("The Hard Easy guest stars Brian Doyle-Murray"); the
answer hop's step is the clause that states the answer ("Brian Doyle-Murray is the older brother
of actor/comedian Bill Murray"); a compared entity's step is the clause that carries the compared
value (a year for "which came first", a number for "which has more", else the clause closest to
the question's words). The last step ends with the conclusion. Steps are self-contained
sentences, so a candidate that omits a hop (the moderate tier) omits exactly one step and keeps
every other sentence word for word.
"""
from __future__ import annotations

import re

from tjb_lib.data import HotpotItem
from tjb_lib.pairs import capitals
from tjb_lib.pairs.phrasing import mutual, repaired_source, without_asides
from tjb_lib.pairs.standalone import VERB, entity_of, pieces, short_name
from tjb_lib.text import MONTHS, YEAR, folded, words
from tjb_lib.text import sentences as split_sentences

_STOP = frozenset("""a an and the of in on at to for by with from as is was were are be been
    which what who whom whose where when how did does do that this these those it its his her
    their both same than more most or not also first one two has have had name""".split())
_NUMBER = re.compile(r"\b\d[\d,.]*\b")
# Question words that make the compared value a date, or a quantity.
_DATE_CUES = re.compile(r"\b(first|earlier|older|oldest|younger|youngest|born|founded|established"
                        r"|formed|released|created|opened|began|started|built|published|"
                        r"debuted|died|later|recent|newer|newest|before|after|year)\b", re.I)
_QUANTITY_CUES = re.compile(r"\b(more|most|larger|largest|bigger|biggest|higher|highest|longer|"
                            r"longest|taller|tallest|fewer|less|smaller|population|many|much)\b",
                            re.I)
_SEGMENT = re.compile(r"[,;] (?![^()]*\))")


def content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP and len(w) > 1}


def _drop_asides(text: str, *keep: str | None) -> str:
    """Parenthetical asides removed (pronunciations, dates, alternative names), except those
    that hold one of ``keep``; what the removal leaves broken ('meaning " mouth"') repaired."""
    wanted = [k for k in keep if k]
    prev = None
    while prev != text:
        prev = text
        text = re.sub(r"\s*\(([^()]*)\)", lambda m: _holding_part(m.group(0), wanted) if any(
            k in m.group(1) for k in wanted) else "", text)
    text = re.sub(r"^([^,]+), (is|was|are|were) ", r"\1 \2 ", text)   # "X (aside), is" -> "X is"
    return repaired_source(re.sub(r"\s+([,.;:])(?!\d)", r"\1", text))   # not before ".300"


def _holding_part(aside: str, wanted: list[str]) -> str:
    """A kept aside cut to its parts (at semicolons) that hold one of ``wanted``: "(Arabic: ...;
    also rendered ...; 2 February 1940 – 31 October 1999)" -> "(2 February 1940 – 31 October
    1999)", so the deciding date does not hide among names a reader cannot read."""
    inner = aside.strip()[1:-1]
    parts = [x for x in inner.split("; ") if any(k in x for k in wanted)]
    return aside if len(parts) == len(inner.split("; ")) else f" ({'; '.join(parts)})"


# An opening participle phrase: "Dubbed the ...", "Written by ...", "Born in ..." (not a name
# such as "Warren Edward Buffett").
_PARTICIPLE = re.compile(r"^(?:[A-Z][a-z]+(?:ed|en)|Born|Led|Known|Built|Made|Held|Set|Run|Also|"
                         r"Often|Formerly|Originally|Commonly|Better|Best|"
                         r"[A-Z][a-z]+ing(?=\s+(?:as|in|for|with|under|alongside)\b))\s+(?![A-Z])")
_RELATIVE = re.compile(r"^(?:which|who|that)\s+")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _be(verb: str) -> str:
    """"was"/"were" beside a past main verb, else "is"/"are"."""
    plural = verb in ("are", "were", "have")
    past = verb in ("was", "were", "had") or verb.endswith("ed")
    return ("were" if plural else "was") if past else ("are" if plural else "is")


# What may follow a cut: a relative or participle clause, or a clause of its own, which the
# sentence reads whole without ("..., which ...", "..., making it ...", "; it ...").
_CONTINUATION = re.compile(r"(?:which|who|whom|whose|where|when|while|whereas|although|though|"
                           r"including|as well as|but|[a-z]+ing)\b")
# A clause cut short: it ends on a word that needs what came after it.
_DANGLING = re.compile(r"(?:\b(?:and|or|but|of|the|a|an|with|to|in|on|at|for|by|from|as|that|"
                       r"which|who|whose|where|when|while|including|between|its|his|her|their|"
                       r"than|into|is|was|are|were)|[,;:–-])$", re.I)


def _cut(text: str, at: int) -> str:
    """``text`` up to the end of the comma-delimited segment that holds position ``at``, cut
    only where what follows is a clause the rest reads whole without (``_CONTINUATION``),
    never inside a list, a coordination or a name."""
    for m in _SEGMENT.finditer(text):
        if m.start() >= at and _CONTINUATION.match(text[m.end():]):
            return text[:m.start()].rstrip(" ,;")
    return text.rstrip(" ,;")


def whole(text: str) -> bool:
    """Does ``text`` read as a whole sentence: it opens on a capital, a digit or a quote, has
    a verb, balanced brackets and quotes, and does not end on a word that needs more?"""
    t = text.rstrip(" .")
    return (bool(re.match(r"[\"“A-Z0-9]", t)) and _verb(t) is not None
            and not _DANGLING.search(t) and t.count("(") == t.count(")")
            and t.count('"') % 2 == 0 and t.count("“") == t.count("”"))


# An opening phrase before the subject: "In 1990, ...", "During the war, ..." (not "On My Mind").
_OPENING = re.compile(r"^(?:In|On|At|After|Before|During|From|Since|By|As|Following|With|Upon|"
                      rf"Under|Until|Although|While|When|Once|Despite|For|Throughout|Over)\s+"
                      rf"(?:[a-z0-9]|(?:{MONTHS})\b)", re.I)


def _protect(text: str) -> str:
    """Commas inside brackets and lists hidden (as NUL), so that splitting at commas keeps an
    aside or a list ("confectionery, food, and beverage company") whole."""
    text = re.sub(r"\([^()]*\)", lambda m: m.group(0).replace(",", "\0"), text)
    text = re.sub(rf"\b(?:{MONTHS}) \d{{1,2}}, \d{{4}}", lambda m: m.group(0).replace(",", "\0"), text)
    return re.sub(r"(?:\b[\w-]+(?: [\w-]+)?, )+[\w-]+(?: [\w-]+)?,? (?:and|or) ",
                  lambda m: m.group(0).replace(",", "\0"), text)


def clause(text: str, target: str | None = None,
           keep: str | tuple[str, ...] | None = None) -> str:
    """The part of an evidence sentence that carries ``target``, as a sentence of its own: an
    opening phrase or an aside around the subject that does not carry it is left out, one that
    does becomes the clause ("Dubbed X, Corelli possessed ..." -> "Corelli was dubbed X";
    "S, which succeeded X, was ..." -> "S succeeded X"); the main clause runs to the end of the
    segment that names ``target`` (the whole main clause when the sentence does not name it).
    Asides in brackets are removed unless they hold ``target`` or ``keep`` (a string or several);
    no final stop."""
    kept = _drop_asides(text, target, *(keep if isinstance(keep, tuple) else (keep,))).rstrip(" .")
    out = _cap(_clause(_protect(kept), target).replace("\0", ","))
    if not whole(out) or not _taken_whole(out, kept) or (
            target and target.lower() in kept.lower() and target.lower() not in out.lower()):
        out = _cap(kept) if whole(kept) else text.rstrip(" .")
    return out


def _taken_whole(part: str, sentence: str) -> bool:
    """Is ``part`` a run of ``sentence``'s own words that a reader takes as a sentence: its
    start, or what follows an opening phrase and its comma when that opens on a capital (the
    subject: "In 1990, Smith ..." -> "Smith ..."; not "..., this was ...")? A clause pieced
    together from parts of the sentence may drop its subject ("A Democrat was ...")."""
    at = sentence.lower().find(part.lower())
    if at >= 0:
        return at == 0 or (sentence[:at].endswith(", ") and sentence[at].isupper()
                           and sentence[at:].split(" ", 1)[0] not in _COMMON_OPENERS)
    v = _verb(part)                  # a clause rebuilt around the sentence's own subject
    subject = part[:v[0]].strip(" ,") if v else ""
    if not subject or _OPENING.match(subject) or subject.split()[0] in _LEADS:
        return False
    if sentence.startswith(subject):   # "S, which succeeded X, was" -> "S succeeded X"
        if re.match(r"(?:An?|One) [a-z]", subject) and sentence[len(subject):][:1] == ",":
            return False                 # "A winner of one Golden Globe, ..., X is": an opener
        second = re.match(r", ([A-Z0-9\"“][^,]*)", sentence[len(subject):])
        return not (second and _verb(second.group(1)))   # not "A Democrat, Marion Greene was"
    lowered = subject[:1].lower() + subject[1:]      # "Playing as X, the team was ..."
    return bool(_PARTICIPLE.match(sentence)) and any(f", {s} " in sentence   # "Dubbed X, S"
                                                     for s in (subject, lowered))


# Opening words after which no subject has begun yet ("Along with X, this was ...").
_LEADS = frozenset("Along Like Unlike Despite Besides Including Except Among Alongside".split())


def _clause(text: str, target: str | None) -> str:
    find = (lambda t: t.lower().find(target.lower())) if target else (lambda t: -1)
    while True:                                      # opening phrases: "From 1940, during X, S ..."
        m = re.match(r"^([^,;]{3,90}?), ", text)
        if not (m and (_PARTICIPLE.match(text) or _OPENING.match(text))):
            break
        intro, body = m.group(1), text[m.end():]
        v = _verb(body)
        if 0 <= find(intro) and v:
            if _PARTICIPLE.match(intro):             # "Dubbed X, S verb" -> "S was dubbed X"
                subject = body[:v[0]].strip(" ,")
                past = re.match(r"(?:Originally|Formerly|Born)\b", intro)   # "was born in Venice"
                be = _be("had" if past else v[2])
                return f"{subject} {be} {intro[0].lower()}{intro[1:]}"   # "was originally sold"
            return _cut(text, max(find(text) + len(target), m.end() + v[1]))
        if re.match(r"(?:he|she|it|they|his|her|its|their)\b", body):
            break                                    # the opening names whom "he" means
        text = _cap(body)
    v = _verb(text)
    if not v:
        at = find(text)
        return _cut(text, at + len(target)) if at >= 0 else text
    subject, rest = text[:v[0]].rstrip(), text[v[0]:]
    held = re.search(r"\([^()]*\)", subject)
    if held and 0 <= find(held.group(0)):            # "S, OBE (born 7 January 1936) is ..."
        subject = f"{subject.split(', ', 1)[0].split(' (', 1)[0]} {held.group(0)}"
        text = f"{subject} {rest}"
        v = _verb(text)
    s = re.match(r"^(.+?), (.+?),?$", subject)
    if s and s.group(2) in ("which", "who", "that", "whom"):
        s = None      # the verb found is the relative clause's: "S, which has been called X, provided"
    if s and re.match(r"^(?:An?|The) [a-z]", s.group(1)) and s.group(2)[:1].isupper():
        s = None                                     # "A former mill town, Bolton has ..."
        text = subject.split(", ", 1)[1] + " " + rest
        v = _verb(text)
    if s and (_PEERAGE.match(s.group(2)) or s.group(2).startswith(("also known as ", "also called "))
              and ", " not in s.group(2) and subject.endswith(",")):
        s = None               # "Prince Andrew, Duke of York, is": one name; ``pruned`` cuts an idle alias
    if s and not _OPENING.match(subject) and re.search(r"(?<!^)\b[A-Z0-9]", s.group(1)):
        # "S, aside, verb ...": S names something ("The Philadelphia crime family, also
        # known as ...", not "The iconic, avant-garde score")
        head, aside = s.group(1), s.group(2)
        if 0 <= find(aside):
            if _RELATIVE.match(aside):               # "S, which succeeded X," -> "S succeeded X"
                return _RELATIVE.sub(f"{head} ", aside)
            past = re.match(r"^(?:[a-z]+ed|[a-z]+en|first|originally|formerly|born)\b", aside)
            if _STATE.match(aside):                  # "located in X" holds now: "is located"
                past = None
            return f"{head} {'was' if past else _be(v[2])} {aside}"
        text = f"{head} {rest}"
        v = _verb(text)
    at = find(text)
    return _cut(text, max(at + len(target), v[1] if v else 0)) if at >= 0 else text


# A participle that says where or how a thing is, not what once happened to it ("S, located in
# Addis Ababa, is ..." -> "S is located", never "was located": readers stopped at the tense).
_STATE = re.compile(r"(?:located|situated|based|headquartered|known|called|named)\b")
# A title of rank given beside a name ("Prince Andrew, Duke of York"): the name another page
# uses for the same person ("The Duke of York"), so readers stopped where it was dropped.
_PEERAGE = re.compile(r"(?:Duke|Duchess|Earl|Countess|Count|Marquess|Marchioness|Viscount|Baron|"
                      r"Baroness|Prince|Princess) of [A-Z]")
_AFTER_NAME = re.compile(r"\b[A-Z0-9\"”)][\w.'’\"”)]*\s([a-z]+(?:ed|s))\b")


def _verb(text: str) -> tuple[int, int, str] | None:
    """The main verb (start, end, word): the first form of be/have, common finite verb, or -ed/-s
    word that follows a capitalised word or a closing quote (the subject's end)."""
    found = []
    if m := VERB.search(text):
        found.append((m.start(), m.end(), m.group(0)))
    if m := _AFTER_NAME.search(text):
        found.append((m.start(1), m.end(1), m.group(1)))
    return min(found) if found else None


def _best(sentences: list[str], want: set[str], target: str | None) -> str:
    """The sentence naming ``target``, else the one sharing most words with ``want``."""
    named = [s for s in sentences if target and target.lower() in s.lower()]
    pool = named or sentences
    return max(pool, key=lambda s: len(content_words(s) & want))


def compared_value(sentence: str, question: str) -> str | None:
    if _DATE_CUES.search(question):
        m = YEAR.search(sentence)
        if m:
            return m.group(0)
    if _QUANTITY_CUES.search(question):
        m = _NUMBER.search(YEAR.sub(" ", sentence)) or _COUNT_WORD.search(sentence)
        if m:
            return m.group(0)
    return None


# A count or a frequency written in words ("a genus of two species", "a biweekly magazine").
_COUNT_WORD = re.compile(r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                         r"twenty|thirty|forty|fifty|hundred|thousand|million|dozen|single|(?<!-)only|"
                         r"(?:bi|semi)?(?:weekly|monthly|daily|annual|yearly|quarterly))\b", re.I)


def _names(item: HotpotItem, hops: tuple[str, ...]) -> set[str]:
    return {w for h in hops for w in content_words(entity_of(item, h).name or short_name(h))}


def steps(item: HotpotItem, evidence: dict[str, list[str]], hops: tuple[str, ...],
          answer_hop: str, answer: str) -> dict[str, str]:
    """One step (a clause, no final stop) per hop, keyed by hop: the compared entities in the
    question's order, or the bridge hops first and the hop that gives the answer last.

    ``evidence`` maps each hop to the standalone sentences a candidate shows for it; ``answer``
    is the gold answer (a conflict's wrong side substitutes its own afterwards).
    """
    question = item.question
    want = content_words(question) - _names(item, hops)
    # an aside that holds the answer or a year the question asks about ("the actress born in
    # 1956": "Paige O'Hara (born May 10, 1956)") is the deciding fact, not residue
    keep = (answer, *YEAR.findall(question), *named_asides(item, evidence, hops))
    compared = comparative(item, hops)
    if not compared:
        hops = tuple(h for h in hops if h != answer_hop) + (answer_hop,)
    out, used = {}, set()            # a sentence two hops share is restated once
    others_of = lambda h: [entity_of(item, o).name or short_name(o)  # noqa: E731
                           for o in hops if o != h] + [answer]
    for h in hops:
        sents = list(dict.fromkeys(p for line in evidence[h] for p in _pieces(line)))
        if compared:
            pick, value = _best(sents, want, None), None
            for s in sorted(sents, key=lambda s: -len(content_words(s) & want)):
                value = compared_value(s, question)
                if value:
                    pick = s
                    break
            out[h] = clause(pick, value or _first_shared(pick, want), keep=keep)
        elif h == answer_hop:
            # the sentence that states the answer as a fact, not the one that opens on it as
            # its subject ("Colonel Charles Hastings Judd (1835 – 1890) was ...")
            stating = [s for s in sents if answer.lower() in s.lower()
                       and not s.lower().startswith(answer.lower())]
            target = answer if stating else None
            others = [entity_of(item, o).name or short_name(o) for o in hops if o != h]
            linking = lambda s: any(n.lower() in s.lower() for n in others)  # noqa: E731
            pick = max(stating or sents, key=lambda s: (len(content_words(s) & want)
                                                        + 2 * linking(s)))
            out[h] = clause(pick, _last(pick, [target, *others]) or _first_shared(pick, want),
                            keep=keep)
        else:
            nxt = [entity_of(item, o).name or short_name(o) for o in hops if o != h]
            target = next((n for n in nxt for s in sents if n.lower() in s.lower()), None)
            pick = _best(sents, want, target)
            out[h] = clause(pick, target or _first_shared(pick, want), keep=keep)
        out[h] = without_asides(shortened(_with_deciding(
            out[h], pick, [s for s in sents if s == pick or s not in used], want,
            [n for n in others_of(h)
             if compared or not _same(n, entity_of(item, h).name or short_name(h), out[h])], keep),
            others_of(h), question), others_of(h))
        said = split_sentences(out[h])
        if any(pruned(x, item) != x or aliased(x, item, h) != x for x in said):
            out[h] = " ".join(pruned(aliased(x, item, h), item) for x in said).rstrip(" .")
        if h == answer_hop and not compared:
            out[h] = answer_last(out[h], answer)
        used.update(sents)
    return once_each_way(out)


def answer_last(step: str, answer: str) -> str:
    """The answer hop's step with its sentence that states the answer (after its verb) last, so that the
    conclusion joins on to it: blind readers of 7 December stopped at "Current Mood includes
    the singles ..., which have both reached number one on the Country Airplay chart, so the
    answer is September 8, 2017" (the release date said a sentence before)."""
    said = split_sentences(step)
    stating = [x for x in said if answered(answer, x)]      # not as its subject ("Reggie Jackson")
    if len(said) < 2 or not stating or answer.lower() in said[-1].lower():
        return step
    rest = [x for x in said if x is not stating[-1]]
    return " ".join(re.sub(r"([^.!?])$", r"\1.", x) for x in rest) + " " + stating[-1].rstrip(" .")


def named_asides(item: HotpotItem, evidence: dict[str, list[str]], hops: tuple[str, ...]) -> list[str]:
    """The bracketed asides of the evidence that are a hop's name ("the total of the net cash
    flows (owner earnings)" on Warren Buffett's line): the tie between two names, kept where
    other asides go. Readers stopped where "owner earnings" was dropped."""
    names = [entity_of(item, h).name or short_name(h) for h in hops]
    lines = " ".join(x for h in hops for x in evidence[h])
    return [m.group(1) for n in names
            for m in re.finditer(rf"\(({re.escape(n)})\)", lines, re.I)]


def _same(name: str, own: str, step: str) -> bool:
    """Is ``name`` (an answer or another hop's) the hop's ``own`` entity ("Yellowcraig" for
    "Yellowcraig"), which the hop's ``step`` already names? Another sentence that names it links
    nothing: readers quoted "Yellowcraig is partly within the Firth of Forth Site of Special
    Scientific Interest." as padding. (A compared entity's other sentence may carry its value.)"""
    a, b = name.strip().lower(), own.strip().lower()
    return bool(a and b) and (a in b or b in a) and a in step.lower()


def once_each_way(out: dict[str, str]) -> dict[str, str]:
    """The steps with a sentence left out that states, the other way round, a relation an
    earlier step states ("Boss Bailey is the brother of ... Champ Bailey" after "Champ Bailey
    is the brother of ... Boss Bailey"), where its step keeps a sentence of its own."""
    said: list[str] = []
    for h, step in out.items():
        mine = split_sentences(step)
        twice = set(mutual(said + mine)) & set(mine)
        if twice and len(twice) < len(mine):
            out[h] = " ".join(x for x in mine if x not in twice).rstrip(" .")
        said += split_sentences(out[h])
    return out


# An item of a list of names ("Esther Rolle", "Brooks and Dunn", "and June Lockhart").
_NAME = r"[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*){0,3}"
_NAME_ITEM = re.compile(rf"(?:and )?{_NAME}(?: and {_NAME})?")
# A list's item that carries a few words around its name ("with Derek Jacobi as the evil Duke",
# "Google founders Larry Page and Sergey Brin", "Katharine Graham of "The Washington Post"").
_ROLE_ITEM = re.compile(rf"(?:and |with )?(?:[\w.'’!/-]+ ){{0,3}}{_NAME}(?: and {_NAME})?"
                        r"(?: (?:as|of|from) [^,;]{1,50})?")


def _listed(segment: str) -> bool:
    """Is ``segment`` one item of a list of names: a name, or a name with its role, no verb?"""
    return bool(_NAME_ITEM.fullmatch(segment) or (
        _ROLE_ITEM.fullmatch(segment) and not VERB.search(segment) and len(segment.split()) <= 12))


# The last item of a list, running on into the clause ("and Jankidas in lead roles", "and many
# more", "Lady Antebellum and others", "and Yves Saint Laurent among others").
_LAST_ITEM = re.compile(rf"(?:and )?(?P<name>{_NAME}(?: and {_NAME})?|many (?:more|others))"
                        r"(?: and (?:many )?(?:others|more)| among others)?(?P<tail>(?: [a-z].*)?)$")
#: a list of more names than this in a row is a full cast or roster list
LONGEST_LIST = 4
_STOP_AT = re.compile(r"(?<=[a-z])[.!?](?: |$)")


def long_lists(step: str) -> list[tuple[int, int]]:
    """The runs (first, last segment at ", ") of more than ``LONGEST_LIST`` names in a row in
    ``step``: a full cast list or roster, which a reader takes for padding. A run ends at a
    sentence's end ("and Seth Rogen. Set in ...") and takes the list's last item with it ("and
    Jankidas in lead roles")."""
    segs = step.split(", ")
    runs, start = [], None
    for i, seg in enumerate(segs + [""]):
        head = _STOP_AT.split(seg, maxsplit=1)[0]
        if _listed(head):
            start = i if start is None else start
            if head == seg and not (seg.startswith("and ") and not _listed(segs[i + 1] if i + 1 < len(segs) else "")):
                continue
            i += 1
        elif start is not None and _LAST_ITEM.match(seg):
            i += 1
        if start is not None and i - start > LONGEST_LIST:
            runs.append((start, i - 1))
        start = None
    return runs


def shortened(step: str, keep: list[str], question: str = "") -> str:
    """``step`` with each full list of names (``long_lists``) cut to the names in ``keep`` (the
    link to another hop or the answer) or in the question, said as some of many: "among the
    performers who appeared on the series were Steve Allen and Brian Dennehy, among others, in
    guest roles"; "many notable artists, including Lady Antebellum". A list that keeps no name
    after a clause of its own is left out ("crossed paths with Bill Clinton, among them Monica
    Lewinsky"). Blind readers stopped at a clipped "X and others" and at a lost "including"."""
    segs = step.split(", ")
    for first, last in reversed(long_lists(step)):
        items = segs[first:last + 1]
        final = _STOP_AT.split(items[-1], maxsplit=1)[0]
        end = None if _ROLE_ITEM.fullmatch(final) and not _NAME_ITEM.fullmatch(final) else _LAST_ITEM.match(final)
        stop = _STOP_AT.search(items[-1])
        tail, rest = (end.group("tail") if end else ""), (items[-1][stop.start():] if stop else "")
        tail = "" if re.match(r" (?:and|or) ", tail) else tail   # "... and the ABC islands": an item
        if end:
            items[-1] = end.group("name")
        held = [x.removeprefix("and ") for x in items
                if any(k and k.lower() in x.lower() for k in keep)
                or x.removeprefix("and ").lower() in question.lower()]
        lead = _LIST_LEAD.match(items[0])
        if held and lead and not held[0].startswith(lead.group(0)):
            held[0] = lead.group(0) + held[0]
        if len(held) == 1 and " and " not in held[0] and first and not lead and re.search(
                rf"\b{_NAME}$", segs[first - 1]):
            held.insert(0, segs[first - 1])           # "were Steve Allen" opens the list
            first -= 1
        if held:
            said = " and ".join([", ".join(held[:-1]), held[-1]] if len(held) > 1 else held)
            segs[first:last + 1] = [said + ("" if lead else ", among others" + ("," if tail else "")) + tail + rest]
        elif first and re.search(r": (?=[A-Z][^:]*$)", segs[first - 1]):
            head, _, name = segs[first - 1].rpartition(": ")
            segs[first - 1:last + 1] = [f"{head}, among them {name}{tail}{rest}"]
        elif first:                                   # "Planet Terror stars Rose McGowan, among others"
            some = ", among others" + ("," if tail else "") if re.search(rf"\b{_NAME}$", segs[first - 1]) \
                and not re.search(r"\bother\b", segs[first - 1]) else ""    # not "other parts of Mexico"
            segs[first - 1:last + 1] = [segs[first - 1] + some + tail + rest]
        else:
            segs[first:last + 1] = ["and others" + tail + rest]
    return ", ".join(segs).replace(", and others", " and others")


# Words that open a list as some of many ("including Brooks and Dunn, ..."), after a few words
# that say what the list is ("with athlete hosts including Michael Jordan, ...": readers of 7
# December stopped where the cut list lost them).
_LIST_LEAD = re.compile(r"(?:and |with )?(?:[\w'’-]+ ){0,3}?(?:including|such as|among them|like) ")


# Where a sentence runs on past its link into a part a reader takes for padding: a relative or
# participle clause, a clause of its own coordinated on, a "with which" tail ("..., where he
# earned consensus All-American honors"; "..., released in 1991 by ABKCO as #7118-2"; "..., and
# another fast bowler, South African Charl Langeveldt, signed as ..."; "... in 1963 and moved to
# its current stadium ..."; "..., after Usher was told by Arista Records ...").
_TAIL = re.compile(r"(?:which|who|whom|whose|where|while|whereas|although|though|including|after|"
                   r"before|as many|that [a-z]{3,}ed|"
                   r"and for|and (?:then |later |also )?[a-z]{3,}ed (?:to|in|on|at|by|for|from|into|with|as|the|a|an|his|her|its|their)|"
                   r"as well as|(?:with|in|for|by) which|[a-z]{3,}ing|[a-z]+ed (?:by|in|on|at|for|as|from|to)|"
                   r"and (?:another|other|is|was|are|were|has|had|also|its|his|her|their|the|a|an)|"
                   r"and (?!others\b)[a-z]{3,}s|that [a-z]+s|(?:commonly|also|often|sometimes|formerly|widely|generally) "
                   r"(?:called|known|named|cited|considered|regarded|described|credited)|(?:best|better|well|widely|mostly) (?:known|remembered)|\d[\d.,]* (?:mi|km|miles|kilometres|kilometers)|between|"
                   r"in contrast|native to|with)\b")


def _linking_words(item: HotpotItem, question: bool = True) -> set[str]:
    """The words a reasoning's link is said in: the question's, the answer's and the hops'
    names (without the question's where ``question`` is False)."""
    names = " ".join(f"{short_name(h)} {entity_of(item, h).name or ''}"
                     for h in dict.fromkeys(t for t, _ in item.supporting_facts))
    return content_words(f"{item.question if question else ''} {item.answer} {names}")


def singular(found: set[str]) -> set[str]:
    """Words with a plural -s taken off, so that "operas" says the question's "opera"."""
    return {w[:-1] if w.endswith("s") and not w.endswith("ss") and len(w) > 3 else w for w in found}


def answered(answer: str, head: str) -> bool:
    """Does ``head`` already state ``answer`` after its verb (not as its subject)? After it, a
    tail that only echoes a question word ("and for guest starring as Princess Aurora" for "the
    film starring Sarah Bolger") is a side fact, not the link."""
    v = _verb(head)
    return bool(v) and answer.strip().lower() not in ("yes", "no", "") and (
        answer.strip().lower() in head[v[1]:].lower())


# Where a tail may start: at a comma, or with no comma before a relative clause, a clause
# coordinated on ("and moved to ...", "and for his work in television ..."), or a participle
# after the main clause ("... a 348 ft tower at 64-66 Broadway completed in 1894 to the designs
# of ...": blind readers of 7 December quoted such side facts before the conclusion).
_TAIL_START = re.compile(r", (?![^()]*\))| (?=(?:which|where|that [a-z]+s|and (?:its|his|her|their|is|"
                         r"was|are|were|has|had)|"
                         r"and for|and (?:then |later |also )?[a-z]{3,}ed|[a-z]{3,}ed "
                         r"(?:in|by|on|at|for|from|to|as)) )")
_UNCOMMAED = re.compile(r"which|where|that|and|[a-z]{3,}ed (?:in|by|on|at|for|from|to|as) "
                        r"(?:\d|the|a|an|[A-Z])")
# A head before a tail with no comma that ends on a helper, an adverb or a conjunction, or
# holds an aside its verb may belong to: what follows is its own verb ("was founded in"; "The
# film, which Lee wrote, starred in ...").
_HELPER = re.compile(r"\b(?:is|was|are|were|be|been|being|has|have|had|not|and|or|first|then|later|"
                     r"also|since|now|still|once|him|her|it|them|[a-z]+self|[a-z]+selves|"
                     r"[a-z]+ly|[a-z]+ed|[a-z]+en|[a-z]+wn)$|, (?:which|who|whose|where|that)\b")
# A subordinate clause or a pronoun subject before a participle with no comma: the participle
# may be that clause's own verb ("since Flemish weavers settled in the area").
_SUBORDINATE = re.compile(r"\b(?:since|after|before|when|while|because|although|though|if|until|"
                          r"he|she|they|we|who|which|that)\b(?!.*[,;] )")


# A list's last item after the items before it ("..., World War II, and the Cold War"): no tail.
_LIST_END = re.compile(r"and (?!(?:is|was|are|were|has|had|also|for|then|later)\b|[a-z]{3,}ed\b)")


def idle_tail(sentence: str, item: HotpotItem) -> int | None:
    """Where ``sentence`` (one clause, no final stop) runs on into padding (``_TAIL``) that
    says no word of the question, the answer or a hop's name the part before it does not
    already say (once the part before states the answer and a question word, no word of the
    answer or a hop's name; nor, where the question compares dates or amounts, a figure), the part before still a
    whole sentence of four content words or more; None where every part counts."""
    figures = comparative(item, tuple(dict.fromkeys(t for t, _ in item.supporting_facts))) and bool(
        _DATE_CUES.search(item.question) or _QUANTITY_CUES.search(item.question))
    link, names = _linking_words(item), _linking_words(item, question=False)
    body = _protect(sentence)
    for m in _TAIL_START.finditer(body):
        head, tail = body[:m.start()].replace("\0", ","), body[m.end():].replace("\0", ",")
        if not _TAIL.match(tail) or head.count('"') % 2 or head.count("“") != head.count("”"):
            continue
        if m.group(0) == " " and (not _UNCOMMAED.match(tail) or _HELPER.search(head) or (
                re.match(r"[a-z]+ed ", tail) and _SUBORDINATE.search(head))):
            continue                                  # "was founded in": no tail of its own
        if tail.startswith("and ") and re.search(r"\bbetween\b(?!.*\band\b)[^,;]*$", head):
            continue                                  # "between 1895 and his death in 1896"
        if _LIST_END.match(tail) and re.search(r"(?::|, )[^,;:]+, [^,;:]+$", head):
            continue                                  # "four conflicts: A, B, C, and the Cold War"
        settled = answered(item.answer, head) and singular(content_words(head)) & singular(link - names)
        if (singular(content_words(tail)) & singular(names if settled else link)) - singular(
                content_words(head)) or (
                figures and re.search(r"\d", tail) and not re.search(r"\d", head)):
            continue
        if whole(head) and len(content_words(head)) >= 4 and _verb(head):
            return m.start()
    return None


def _idle_aside(sentence: str, item: HotpotItem) -> tuple[int, int] | None:
    """A "where/which/who" clause or an "also known as" aside between commas in mid-sentence
    ("Champ Bailey played college football for Georgia, where he earned consensus All-American
    honors, and was drafted ..."; "Ajuga, also known as bugleweed, ..., is a genus") that says
    no linking word the rest does not say, its accents aside ("also known as Jimena Benìtez"
    for a question's "Jimena Benitez" is the link): its span, else None."""
    link = _linking_words(item)
    body = _protect(sentence)
    for m in re.finditer(r", ((?:which|who|where|whose|also known as|also called) [^,;]+), (?=and |[a-z])",
                         body):
        end = m.end() - (2 if body[m.end():].startswith("and ") else 1)   # "X, aside, is" -> "X is"
        rest = body[:m.start()] + body[end:]
        if not (content_words(folded(m.group(1))) & link) - content_words(rest) and not re.search(r"\d", m.group(1)):
            return m.start(), end
    return None


def tidied(sentence: str) -> str:
    """A source's odd span put right where the reasoning restates it: "between 1984 to 1991" ->
    "from 1984 to 1991"; "from 1997-1998" -> "from 1997 to 1998"; "May, 30th, 1977" -> "May 30,
    1977"; "was 3rd Marquess of Salisbury" -> "was the 3rd Marquess of Salisbury" (each quoted
    by blind readers)."""
    sentence = re.sub(r"\bbetween (\d{4}) to (\d{4})\b", r"from \1 to \2", sentence)
    sentence = re.sub(r"\bfrom (\d{4}) ?[-–] ?(\d{4})\b", r"from \1 to \2", sentence)
    sentence = re.sub(r"\b(is|was|became) (\d+(?:st|nd|rd|th) [A-Z])", r"\1 the \2", sentence)
    return re.sub(rf"\b({MONTHS}), (\d{{1,2}})(?:st|nd|rd|th), (\d{{4}})\b", r"\1 \2, \3", sentence)


# A clause opened by a description of its subject: "the daughter of detective novelist C. W.
# Grafton, Sue Grafton has said ...", "A former mill town, Bolton has been ...".
_LEAD = re.compile(r"^((?:[Tt]he|[Aa]n?) [a-z][^,;()]{3,80}?), ((?:[A-Z][\w'’-]*\.? ){0,3}[A-Z][\w'’-]*) "
                   r"((?:is|was|are|were|has|have|had)\b.*)$")


def _lead_stated(part: str, item: HotpotItem) -> str:
    """A clause whose opening description carries the link while its main clause says no
    word of the answer or a hop's name and fewer of the question's (``_linking_words``) than
    the description does, as that
    description stated of the subject: "the daughter of detective novelist C. W. Grafton, Sue
    Grafton has said the strongest influence on her crime novels is author Ross Macdonald" ->
    "Sue Grafton is the daughter of detective novelist C. W. Grafton" (blind readers of 7
    December: the conclusion hung on the off-topic main clause). Else ``part`` as it is."""
    m = _LEAD.match(part)
    if not m:
        return part
    lead, subject, rest = m.groups()
    link, names = singular(_linking_words(item)), singular(_linking_words(item, question=False))
    said, main = singular(content_words(f"{lead} {subject}")), singular(content_words(rest))
    if main & names - said or len(main & link - said) >= len(said & link - singular(content_words(subject))):
        return part
    return f"{subject} {_be(rest.split()[0])} {lead[0].lower()}{lead[1:]}"


# Two predicates of one subject ("Mamie Gummer starred in the title role of The CW series
# "Emily Owens, M.D.", and played the recurring role of Nancy Crozier on "The Good Wife"").
_TWO_PREDICATES = re.compile(r"^(?P<first>.+?), and (?P<second>(?:[a-z]+ed|was|is|has|had|became|"
                             r"won|wrote|made|led|ran|held|went) .+)$")


def _idle_first(part: str, item: HotpotItem) -> str:
    """A clause whose first of two predicates names no answer, hop or question name while the
    second names one the first does not, said with the second alone: "Mamie Gummer played the
    recurring role of Nancy Crozier on "The Good Wife"" (blind readers of 7 December quoted "starred
    in the title role of The CW series "Emily Owens, M.D."" as padding). Else ``part``."""
    m = _TWO_PREDICATES.match(_protect(part))
    v = m and _verb(m.group("first"))
    if not m or not v or m.group("first").count('"') % 2:
        return part
    subject, first = m.group("first")[:v[0]].strip(), m.group("first")[v[0]:]
    second = m.group("second").replace("\0", ",")
    names = singular(_linking_words(item, question=False)) - singular(content_words(subject))
    mine = singular(content_words(first.replace("\0", ",")))
    if not subject or mine & names or not (singular(content_words(second)) & names) - mine:
        return part
    return f"{subject} {second}"


# A credit: a role or a work and the work it is in ("Prince Andrew Alcott in "Mirror Mirror"",
# "the title character in the adventure film "The Lone Ranger"").
_CREDIT = re.compile(r"(?:and )?[^,;\"“]{1,60}? in (?:[\w'’-]+ ){0,4}[\"“][^\"”]+[\"”](?: \(\d{4}\))?")


# The first credit of a run, after the words that open it ("known for his portrayal of ...").
_OPENS_CREDITS = re.compile(rf"\b(?:for|as) (?:(?:his|her|their) (?:portrayal|roles?) (?:of|as|in) )?"
                            rf"{_CREDIT.pattern}$")


def credits_cut(part: str, keep: set[str], names: set[str]) -> str:
    """``part`` with a run of three credits or more (a filmography: "known for his portrayal of
    the Winklevoss twins in the film "The Social Network", Prince Andrew Alcott in "Mirror Mirror",
    ..., and the voice role of Jackson Storm in ... "Cars 3"") cut to the credits that say a
    word of ``names`` (the answer's and the hops'), else of ``keep`` (the question's too), after
    the words that open the run ("known for"); blind readers of 7 December quoted such lists as padding."""
    segs = _protect(part).split(", ")
    runs, start = [], None
    for i, seg in enumerate(segs + [""]):
        if _CREDIT.fullmatch(seg) and start is not None:
            continue
        if i - (start if start is not None else i) >= 3:
            runs.append((start, i))
        start = i if _OPENS_CREDITS.search(seg) else None
    for first, end in reversed(runs):
        lead = re.match(r"^(.+?\b(?:for|as)) ", segs[first])
        items = [re.sub(r"^and ", "", x) for x in ([segs[first][lead.end():]] if lead else []) + segs[first + 1:end]]
        said_of = lambda words: [x for x in items if singular(content_words(x.replace("\0", ","))) & words]  # noqa: E731
        held = said_of(names) or said_of(keep)
        if not lead or not held or len(held) == len(items):
            continue
        said = " and ".join([", ".join(held[:-1]), held[-1]] if len(held) > 1 else held)
        segs[first:end] = [f"{lead.group(1)} {said}"]
    return ", ".join(segs).replace("\0", ",")


def pruned(sentence: str, item: HotpotItem) -> str:
    """A reasoning sentence without its padding: an idle first predicate (``_idle_first``), a
    filmography (``credits_cut``), an idle mid-sentence aside (``_idle_aside``)
    and an idle tail (``idle_tail``) cut, an odd span ``tidied``, each clause of a joined sentence on its own; blind
    readers quoted such tails as the largest kind of padding."""
    stop = "." if sentence.endswith(".") else ""
    out = []
    link = singular(_linking_words(item))
    for part in tidied(sentence).rstrip(" .").split("; "):
        part = credits_cut(_idle_first(_lead_stated(part, item), item), link,
                           singular(_linking_words(item, question=False)))
        while (span := _idle_aside(part, item)) is not None:
            part = part[:span[0]] + part[span[1]:]
        at = idle_tail(part, item)
        out.append(part[:at] if at is not None else part)
    return "; ".join(out) + stop


# A person's other name as a clause's subject ("Onika Tanya Maraj (born ...) is a rapper").
_OTHER_NAME = re.compile(r"^((?:[A-ZÀ-ÖØ-ÞĀ-Ž][\w'’.-]* ){1,4}[A-ZÀ-ÖØ-ÞĀ-Ž][\w'’.-]*)"
                         r"(?: \(([^()]*)\))? "
                         r"(?=(?:is|was|are|were|has|had)\b)")


def aliased(sentence: str, item: HotpotItem, hop: str) -> str:
    """``sentence`` with each clause that opens on another name of ``hop``'s person (a birth
    or full name, every word of it in the hop's opening sentence) opened on the name the
    question and the titles use, the other in brackets: "Nicki Minaj (born Onika Tanya Maraj)
    is ..."; "Jacques Sernas (born Jokūbas Bernardas Šernas) was ..." (a page that says
    "commonly known as"). Blind readers stopped where the two names were never tied. A full
    name that only spells out the initial of the name used ("Michael Carlyle Hall" for
    Michael C. Hall) gives way to it without brackets: readers stopped at "Michael C. Hall
    (Michael Carlyle Hall) is"."""
    entity = entity_of(item, hop)
    name = entity.name or short_name(hop)
    mine = set(words(name.lower()))
    if not entity.person:
        return sentence
    out = []
    for part in sentence.split("; "):
        m = _OTHER_NAME.match(part)
        other = m and set(words(m.group(1).lower()))
        if (m and other and not (mine <= other or other <= mine) and other <= set(entity.kinds) | mine
                and name.lower() not in part.lower()):
            born = ({"known", "professionally"} <= entity.kinds or "better" in entity.kinds
                    or {"commonly", "known"} <= entity.kinds)
            aside = (m.group(2) or "").removeprefix("born ") if born else (m.group(2) or "")
            inside = f"{'born ' if born else ''}{m.group(1)}{', ' + aside if aside else ''}"
            spelt = _spelt_out(m.group(1), name) and not aside
            part = f"{name} {part[m.end():]}" if spelt else f"{name} ({inside}) {part[m.end():]}"
        out.append(part)
    return "; ".join(out)


def _spelt_out(full: str, name: str) -> bool:
    """Is ``full`` ("Henry John Kaiser") ``name`` ("Henry J. Kaiser") with its initials spelt
    out: the same first and last word, each initial the first letter of the word it stands for?"""
    a, b = full.split(), name.split()
    return (len(a) == len(b) > 2 and a[0] == b[0] and a[-1] == b[-1]
            and all(x == y or (re.fullmatch(r"[A-Z]\.?", y) and x[0] == y[0])
                    for x, y in zip(a[1:-1], b[1:-1])))


# A name and, in brackets, another form of it: "Michael C. Hall (Michael Carlyle Hall)".
_BRACKETED_NAME = re.compile(r"((?:[A-Z][\w'’.-]* ){2,4}[A-Z][\w'’.-]*) \(((?:[A-Z][\w'’.-]* ){2,4}"
                             r"[A-Z][\w'’.-]*)\)")


def spelt_out_beside(sentence: str) -> bool:
    """Does ``sentence`` give a name and its initials spelt out in brackets ("Henry J. Kaiser
    (Henry John Kaiser) was ...")? The reader rule for ``_spelt_out``."""
    return any(_spelt_out(m.group(2), m.group(1)) for m in _BRACKETED_NAME.finditer(sentence))


def _holding(part: str, sentence: str, want: set[str]) -> str:
    """``part``, the clause taken from ``sentence``, unless it lost every question word the
    sentence holds ("Founded in 1855, Berea College ..." for "what college founded in 1855"):
    then the sentence whole."""
    held = content_words(sentence) & want
    return sentence.rstrip(" .") if held and not held & content_words(part) else part


def _with_deciding(step: str, pick: str, sents: list[str], want: set[str], others: list[str],
                   keep: tuple[str, ...]) -> str:
    """The hop's step with its other supporting sentences that carry the question's relation
    (they share a question word, or name another hop's entity or the answer) restated too, in
    the evidence's order; one that adds no question word to the hop's main sentence is padding
    ("Interstate 81 is an 855 mi highway.") and left out. Readers stopped where the deciding fact ("Shusett was executive
    producer", "Friedman is a three time Pulitzer Prize winner") was left to the evidence."""
    said, covered = [], content_words(_holding(step, pick, want)) & want
    for s in sents:
        if s == pick:
            said.append(_holding(step, s, want))
        elif (content_words(s) & want) - covered or any(n.lower() in s.lower() for n in others):
            said.append(_holding(clause(s, _first_shared(s, want), keep=keep), s, want))
    return " ".join(re.sub(r"([^.!?])$", r"\1.", x) for x in said[:-1]) + (
        " " if len(said) > 1 else "") + said[-1]


def unused_hops(item: HotpotItem, evidence: dict[str, list[str]],
                said: dict[str, str]) -> list[str]:
    """Hops no step uses: the steps together neither name the hop's entity nor restate four
    words of its evidence (other hops' names and the answer aside; a reader's check, in
    ``tjb_lib.pairs.readable``, asks for three). Not for yes/no items."""
    if item.answer.strip().lower() in ("yes", "no"):
        return []
    text = " ".join(said.values())
    out = []
    for h in evidence:
        name = entity_of(item, h).name or short_name(h)
        others = content_words(" ".join(short_name(o) for o in evidence if o != h) + " "
                               + item.answer)
        words_said = content_words(text) - others
        if not (name.lower() in text.lower() or short_name(h).lower() in text.lower()
                or any(len(content_words(s) & words_said) >= 4 for s in evidence[h])):
            out.append(h)
    return out


def comparative(item: HotpotItem, hops: tuple[str, ...]) -> bool:
    """A comparison: labelled so, or a question that offers its hops' entities ("who is
    younger, X or Y?"), which HotpotQA sometimes labels a bridge."""
    q = item.question.lower()
    return item.type == "comparison" or (" or " in q and len(hops) == 2 and all(
        short_name(h).lower() in q or short_name(h).split()[-1].lower() in q.split() for h in hops))


def _pieces(line: str) -> list[str]:
    """An evidence line's sentences, where each reads whole; else the line as one."""
    parts = pieces(line)
    return parts if len(parts) > 1 and all(map(whole, parts)) else [line]


def missing_values(item: HotpotItem, evidence: dict[str, list[str]]) -> list[str]:
    """The compared entities of a comparison whose evidence gives no value of the kind the
    question compares (a year for "which came first", a number for "which has more"): their
    reasoning could not state both values, so the item is not used."""
    q = item.question
    if not comparative(item, tuple(evidence)) or item.answer.strip().lower() in ("yes", "no") or not (
            _DATE_CUES.search(q) or _QUANTITY_CUES.search(q)):
        return []
    return [h for h, lines in evidence.items()
            if not any(compared_value(s, q) for line in lines for s in _pieces(line))]


def _last(sentence: str, names: list[str | None]) -> str | None:
    """Of ``names``, the one the sentence names last (its clause runs at least that far)."""
    found = [(sentence.lower().rfind(n.lower()), n) for n in names if n]
    found = [f for f in found if f[0] >= 0]
    return max(found)[1] if found else None


def _first_shared(sentence: str, want: set[str]) -> str | None:
    """The last question word the sentence uses, so the clause runs at least that far."""
    found = [w for w in re.findall(r"[A-Za-z0-9]+", sentence) if w.lower() in want]
    return found[-1] if found else None


# Opening words that are no name, lowered after a lead-in ("Note that most long hunts ...").
_COMMON_OPENERS = frozenset("The A An Most Many Some Several All Both Each Every In On At After "
                            "Before During Since As For With By From Its His Her Their This These "
                            "There It Games Players Members".split())


def joined(steps: list[tuple[str, str]], shown: list[str],
           apart: frozenset[str] = frozenset(), text: str = "",
           item: HotpotItem | None = None) -> tuple[str, ...]:
    """The reasoning's sentences from its (hop, step) pairs in chain order, a sentence that
    restates a shown evidence line word for word joined to the next by a semicolon ("The score
    ... was composed by Jerry Goldsmith; Dan O'Bannon wrote ..."): it reasons on from the fact
    instead of repeating the line. A hop in ``apart`` (one the other side of the pair drops) is
    joined within itself alone, so that the sentences both sides share are joined alike; its
    last restated line is restated without a part the ``item``'s question does not ask about
    (``trimmed``) or with a person's surname for the full name (``surnamed``), and a line that
    neither changes is joined by a semicolon to the sentence that follows it in the chain, which
    takes the link on ("Antonio Vivaldi wrote a set of sonatas, Op. 5, in 1716; Antonio Lucio
    Vivaldi was an Italian Baroque composer ..."): a colon lead-in ("One fact decides it: ...")
    read as a template to the blind readers of 6 December (``readable.COLON_LEAD_IN``). ``text``
    (the item's own, ``capitals.item_text``) decides whether a joined sentence's first word is a
    name that keeps its capital."""
    want = content_words(item.question) if item else set()
    restated = {tuple(words(x)) for line in shown for x in (line, *split_sentences(line))}
    verbatim = lambda s: tuple(words(s)) in restated and s.endswith(".")  # noqa: E731
    lanes: dict[str, list[tuple[int, str]]] = {}
    for at, (hop, s) in enumerate((h, x) for h, step in steps for x in split_sentences(step)):
        lane = lanes.setdefault(hop if hop in apart else "", [])
        if lane and verbatim(lane[-1][1]):
            lane[-1] = (at, f"{lane[-1][1][:-1]}{join_word(lane[-1][1], s)}{_lowered(s, text)}")
        else:
            lane.append((at, s))
    figures = bool(item and (_DATE_CUES.search(item.question) or _QUANTITY_CUES.search(item.question)))
    out: list[str] = []
    held = False                    # the last sentence is a dropped hop's line still verbatim
    for at, hop, s in sorted((at, hop, s) for hop, lane in lanes.items() for at, s in lane):
        if verbatim(s):
            s = trimmed(s, want, figures)
        if verbatim(s) and item and hop:
            s = surnamed(s, item, hop)
        if verbatim(s) and item and hop:
            s = linked(s, item, hop, want, figures)
        if item:
            s = pruned(s, item)     # what a cut above leaves may still run on into padding
        if held:
            out[-1] = f"{out[-1][:-1]}{join_word(out[-1], s)}{_lowered(s, text)}"
        else:
            out.append(s)
        held = bool(hop) and not held and verbatim(s)
    return tuple(out)


def join_word(first: str, second: str) -> str:
    """What joins a sentence to the one after it: a semicolon, or ", and" where either already
    holds one, so that no sentence runs on through two ("... first franchisee; Tim Hortons is
    Canada's largest ...; as of December 31, 2016, it had ...": a run-on to the blind readers
    of 7 December; ``clause_semicolons``)."""
    return ", and " if ";" in first or ";" in second else "; "


def clause_semicolons(sentence: str) -> int:
    """How many semicolons in ``sentence`` join on a clause with a verb of its own (not a
    list's item: "Vim Fuego, vocals; Den Dennis, rhythm guitar; ...; and Spider Webb, drums")."""
    return sum(1 for part in sentence.split("; ")[1:]
               if _verb(part) and not part.startswith("and "))


def trimmed(s: str, want: set[str], figures: bool) -> str:
    """A restated line without an aside, a relative or participle clause after its main clause
    (``_CONTINUATION``) or an opening phrase that holds no word of ``want`` (the question's) and, where the question compares
    ``figures``, no figure, so that it does not repeat its evidence line word for word; the
    line as it is where every part counts."""
    body = s[:-1]
    idle = lambda part: not (figures and re.search(r"\d", part)) and not content_words(part) & want  # noqa: E731
    for m in re.finditer(r" \([^()]*\)", body):
        if idle(m.group(0)):
            return body[:m.start()] + body[m.end():] + "."
    segs = _protect(body).split(", ")
    for i in range(len(segs) - 1, 0, -1):
        out = ", ".join(segs[:i] + segs[i + 1:]).replace("\0", ",")
        if idle(segs[i]) and _CONTINUATION.match(segs[i]) and whole(out) and _verb(segs[0]):
            return out + "."
    if len(segs) > 1 and (_OPENING.match(body) or _PARTICIPLE.match(body)) and idle(segs[0]):
        out = _cap(", ".join(segs[1:]).replace("\0", ","))
        if whole(out):
            return out + "."
    return s


# Where a restated line may end once its link is said: a phrase or clause after it ("...
# Richard Ford, published in 1987 and ...", "... Jerry Goldsmith and is considered ...", "...
# Gerry Adams during the Northern Ireland peace process").
_AFTER_LINK = re.compile(r",? (?:and (?:again|is|was|are|were|has|had|[a-z]+ed)|while|which|where|"
                         r"then|as|with|in|near|published|released|during|about|starring|"
                         r"based on|directed by|produced by)\b")


def linked(s: str, item: HotpotItem, hop: str, want: set[str], figures: bool) -> str:
    """A restated line of ``hop`` cut after the clause that carries its link: the last that
    names another hop's entity, the answer or a word of the question (or, in a comparison of
    ``figures``, a figure), at the next phrase or clause that says none of them
    (``_AFTER_LINK``), never inside quotes or brackets nor right after its verb; the line as it
    is where none follows."""
    names = [item.answer.strip(), *(n for h in dict.fromkeys(t for t, _ in item.supporting_facts)
                                    if h != hop for n in (entity_of(item, h).name, short_name(h)) if n)]
    ends = [m.end() for n in names for m in re.finditer(re.escape(n), s, re.I)]
    ends += [m.end() for m in re.finditer(r"[A-Za-z0-9]+", s)
             if m.group(0).lower() in want and not _AFTER_LINK.fullmatch(f" {m.group(0)}")
             or (figures and item.type == "comparison" and m.group(0)[0].isdigit())]
    at = max(ends, default=len(s))
    for m in _AFTER_LINK.finditer(s, at):
        head = s[:m.start()]
        if head.count('"') % 2 or head.count("(") != head.count(")") or head.count("“") != head.count("”"):
            continue
        v = _verb(head)
        if whole(head) and len(content_words(head)) >= 4 and v and len(head[v[1]:].split()) >= 2:
            return head + "."
        break
    return s


def surnamed(s: str, item: HotpotItem, hop: str) -> str:
    """A line that opens on a person's full name, with the surname alone ("Antonio Vivaldi
    wrote ..." -> "Vivaldi wrote ..."), where the rest says enough to show which hop it uses
    (four content words: a reader's check in ``readable.undecided`` asks for three)."""
    entity = entity_of(item, hop)
    for name in (entity.name, short_name(hop)):
        if entity.person and name and re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z.]*){0,2} [A-Z][a-z]+", name) \
                and s.startswith(name + " ") and len(content_words(s[len(name):])) >= 4:
            return name.split()[-1] + s[len(name):]
    return s


def _lowered(s: str, text: str = "") -> str:
    """A sentence's first word lowered after a semicolon where it is no name ("; the English
    Electric Canberra is ..."; not "; The Spiderwick Chronicles follows ..."): decided by the
    item's ``text`` where given (``capitals``), else by a list of common openers."""
    if text:
        return capitals.lowered(s, text)
    head = s.split(" ", 2)
    return (s[0].lower() + s[1:] if len(head) > 1 and head[0] in _COMMON_OPENERS
            and head[1][:1].islower() else s)


def unstopped(step: str) -> str:
    """A step without the stop its last quotation carries ('... "To Know Him Was To Love
    Him."' before a conclusion joins on)."""
    return re.sub(r'[.!?]+(["”])$', r"\1", step)
