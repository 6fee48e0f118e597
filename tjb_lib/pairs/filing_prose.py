"""FinQA's filing text as an analyst writes it.

FinQA lowercases the filing's sentences ("as of december 31, 2015 we had ...") and linearises
its tables ("the net revenue of 2015 is $ 5829 ; ..."). A candidate that quotes a sentence
writes it in sentence case, with month names, "U.S.", common acronyms and the company's ticker
in capitals; a table row becomes one sentence built from the printed table's own headers, with
its unit ("Net revenue was $5,829 in 2015 and $5,735 in 2014 (in millions)."). A row that
cannot be written so (no column headers, a header that is a figure) is no sentence (None), and
the record is not used.
"""
from __future__ import annotations

import re

from tjb_lib.pairs.filing import (MONTHS, PLACE_WORDS, clean_line, header, is_period, mid,
                                  table_scale, total_named, when)

ACRONYMS = ("u.s. u.k. gaap sec eps ebitda ebit llc lp inc. corp. s&p nyse nasdaq libor oci aoci "
            "fdic irs r&d alll tdr tdrs ceo cfo vie vies otti mbs cmbs rmbs abs cdo ferc nrc epa "
            "ipo erisa asc fasb sfas fin eitf usd ppa pbo abo nol nols ftc dow jones nyse").split()
_SPECIAL = {"u.s.": "U.S.", "u.k.": "U.K.", "s&p": "S&P", "inc.": "Inc.", "corp.": "Corp.",
            "dow": "Dow", "jones": "Jones", "tdrs": "TDRs", "vies": "VIEs", "nols": "NOLs"}


def _word(w: str, ticker: str) -> str:
    low = w.lower()
    if low in _SPECIAL:
        return _SPECIAL[low]
    if low in ACRONYMS or (ticker and low == ticker.lower()):
        return low.upper()
    if low in MONTHS or low in PLACE_WORDS:
        return low.capitalize()
    return w


def name_case(text: str) -> str:
    """A figure's name taken from lowercased text with its acronyms, months and places in
    capitals ("specific reserves in the ALLL"), the rest as it is."""
    return re.sub(r"[a-z][a-z.&']*", lambda m: _lead(m.group(0), ""), text)


def sentence_case(text: str, ticker: str = "") -> str:
    """Lowercased filing text in sentence case: the first letter, months, places, acronyms,
    "U.S." and the ticker in capitals; text that has capitals already is left as printed."""
    if re.search(r"[A-Z]", text):
        return text[:1].upper() + text[1:]
    out = re.sub(r"[a-z][a-z.&']*", lambda m: _lead(m.group(0), ticker), text)
    out = re.sub(r"\bunited (states|kingdom)\b", lambda m: f"United {m.group(1).capitalize()}", out)
    out = re.sub(r"(^|(?<![A-Z]\.[A-Z])(?<!Inc)(?<!Corp)[.!?]\s+)([a-z])",
                 lambda m: m.group(1) + m.group(2).upper(), out)
    return out


def _lead(token: str, ticker: str) -> str:
    core = token.rstrip(".'")          # "dec." and "u.s." keep their stop
    if token.lower() in _SPECIAL or token.lower() in ACRONYMS:
        return _word(token, ticker)
    return _word(core, ticker) + token[len(core):]


def unit(table: tuple[tuple[str, ...], ...]) -> str:
    """The unit a table's header row states ("in millions"), or ""."""
    scale = table_scale(table)
    return f"in {scale}s" if scale else ""


def _value(cell: str) -> str:
    return " ".join(cell.replace("$ ", "$").split())


def _percent(table: tuple[tuple[str, ...], ...], j: int, value: str) -> str:
    """A cell of a percentage column with its sign ("% change 126.5%", "Strike Rate 4.010%"):
    the column's header, or another of its cells, prints "%" where this cell does not."""
    if "%" in value or not re.fullmatch(r"\(?-?[\d.,]*\d\)?", value):
        return value
    column = [r[j] for r in table if j < len(r)]
    return f"{value}%" if any("%" in c for c in column) else value


def _series(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def be(name: str) -> str:
    """"were" after a plural head noun ("Lease obligations were"), else "was"; a participle
    after the head is no head ("Additions based on tax positions ... were", "Shares
    repurchased were", "Total shares outstanding were")."""
    head = re.split(r"\s(?:as|of|on|in|for|from|under|to|related|at|by|with|incurred|during|due|"
                    r"issued|held|paid|available)\s", name.lower())[0].split()
    while len(head) > 1 and (head[-1].endswith("ed") or head[-1] in ("outstanding", "remaining")):
        head.pop()
    last = head[-1] if head else ""
    return "were" if re.search(r"[^su]s$", last) and not last.endswith("ss") else "was"


def _figure(text: str | None) -> bool:
    """A header that is itself a figure ("$20,963", "(1,743)")."""
    return (bool(text) and not is_period(text)
            and bool(re.fullmatch(r"[\s$()%,.\d—–-]*\d[\s$()%,.\d—–-]*", text)))


def row_sentence(table: tuple[tuple[str, ...], ...], row: int) -> str | None:
    """A printed table row as one sentence: "Net revenue was $5,829 in 2015 and $5,735 in
    2014 (in millions).", "In 2020, operating leases were 378 and capital leases 155.",
    "Arkansas: residential 390,668 and total customers 438,701."; None where its headers do
    not name its cells."""
    if not table or row <= 0 or row >= len(table) or not table[row]:
        return None                         # no printed row lines up with this one
    name = header(table[row][0])
    name = name and total_named(name)[:1].upper() + total_named(name)[1:]    # "The total net ..."
    cells = [(mid(header(table[0][j])), _percent(table, j, _value(c)))
             for j, c in enumerate(table[row][1:], start=1) if re.search(r"\d", c)]
    if not name or not cells:
        return None
    if any(_figure(h) for h, _ in cells) or _figure(name):
        return None                         # a header that is a figure: the header row is lost
    heads = [h for h, _ in cells]
    percent = all("%" in v for _, v in cells)
    tail = f" ({unit(table)})" if unit(table) and not percent else ""
    verb = be(name)
    if len(cells) == 1 and (heads[0] is None or heads[0].lower() == "total"):
        verb = "totalled" if heads[0] else verb
        return f"{name} {verb} {cells[0][1]}{tail}."
    if None in heads or len(set(heads)) < len(heads):
        return None
    dated = [(h, v) for h, v in cells if is_period(h)]
    if dated and not is_period(name):
        said = f"{name} {verb} {_series([f'{v} {when(h)}' for h, v in dated])}"
        other = [f"{h} {v}" for h, v in cells if not is_period(h)]
        return f"{said}{'; ' + _series(other) if other else ''}{tail}."
    if is_period(name):
        said = _series([f"{h} {v}" for h, v in cells])
        opening = when(name)
        return f"{opening[0].upper()}{opening[1:]}, {said}{tail}."
    return f"{name}: {_series([f'{h} {v}' for h, v in cells])}{tail}."


def evidence_line(key: str, text: str, table: tuple[tuple[str, ...], ...],
                  ticker: str) -> str | None:
    """A gold line as a candidate shows it: a table row as its sentence (None where it cannot
    be written), a sentence of the filing in sentence case."""
    kind, _, idx = key.partition("_")
    if kind == "table":
        return row_sentence(table, int(idx)) if idx.isdigit() else None
    said = sentence_case(clean_line(text), ticker)
    said = re.sub(r"^(?:The company|We)\b", ticker, said)          # the company by its name
    said = re.sub(r"^(?:The company's|Our)\b", f"{ticker}'s", said)
    if re.match(r"(?:This|These|That|Those|It|Its|They|Their|Such|He|She)\b"
                r"|(?!Included|Based|Compared|Related)[A-Z][a-z]+ed (?:with|the|a|an|to|by|on)\b",
                said):
        return None                                 # it leans on a sentence the line lacks
    if re.search(r"\b(?:no|nos|inc|corp|co|fin|sfas)\.$", said, re.I):
        return None                                 # cut off ("related to adopting FIN no.")
    return said
