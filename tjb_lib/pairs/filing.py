"""FinQA gold lines as a reader sees them: cleaned of dataset residue, and read as figures.

A FinQA gold line is a linearised table row ("the net revenue of 2015 is $ 5829 ; ...") or a
sentence of the filing. ``clean_line`` removes what the dataset's extraction left behind (a
figure printed twice, "% ( % )", empty brackets, escaped apostrophes and quotes, spaces inside
"$ 5829" and before punctuation) and changes no figure. ``figures`` reads every number of the
cleaned lines together with what it is: a table cell's row and column ("net revenue", "2015"),
or the clause of the sentence it sits in, so that a reasoning step can say what its numbers are.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

NUMBER = re.compile(r"(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d])|(?<![\w.])-?\.\d+")
_DOUBLED = re.compile(r"(?P<first>-?\$?\s?-?(?P<n>\d[\d,]*(?:\.\d+)?)\s?%?)\s\(\s?(?P<m>\d[\d,]*"
                      r"(?:\.\d+)?)\s?%?\s?\)")
_REPEAT = re.compile(r"\b([a-z][\w'&-]*(?:\s[\w'&-]+){1,}),?\s?\1\b")   # "net sales net sales"
_HEADER_FIGURE = re.compile(r"(?P<text>.*?)\s*\$?(?P<n>-?\d[\d,]*(?:\.\d+)?)")
_PARENS = re.compile(r"\s*\([^()]*\)")
_YEAR = re.compile(r"(?:19|20)\d\d")
QUOTE_WORDS = 7          # at most this many words of a sentence on each side of a figure
GENERIC_HEADERS = frozenset({"amount", "amounts", "value", "total amount", "in millions",
                             "in thousands", "dollars", "millions", "thousands"})
MONTHS = ("january february march april may june july august september october november "
          "december").split()
_PERIOD = re.compile(r"(?:(?:fiscal|years?|ended|ending|as|of|at|in|to|through|quarters?|first|"
                     r"second|third|fourth|q[1-4]|months?|three|six|nine|twelve|%s)\b\.?"
                     r"|(?<!\d)\d{1,4}(?!\d)|[/,\-–]|\s)+" % "|".join(MONTHS))


def is_period(text: str | None) -> bool:
    """A header that names a date or a period ("2015", "december 31, 2017", "12/31/06")."""
    return bool(text) and bool(re.search(r"\d", text)) and bool(_PERIOD.fullmatch(text))


def clean_line(text: str) -> str:
    """A gold line without dataset residue; every figure and word of the filing is kept."""
    def undouble(m: re.Match) -> str:
        same = m.group("n").replace(",", "") == m.group("m").replace(",", "")
        return m.group("first") if same else m.group(0)
    text = _DOUBLED.sub(undouble, text)
    text = re.sub(r"%\s\(\s?%\s?\)", "%", text)                 # "% ( % )"
    text = re.sub(r"\(\s*\)", " ", text)                        # empty brackets
    text = _REPEAT.sub(r"\1", text)                             # "net sales net sales"
    text = re.sub(r"\s2019s\b", "'s", text)                     # escaped apostrophe: "firm 2019s"
    text = re.sub(r"\b201c(?=\w)", "“", text)                   # escaped quotes: "201cx 201d"
    text = re.sub(r"\s?\b201d\b", "”", text)
    text = re.sub(r"(\d/\d\d) 2013 (?=\d{1,2}/)", r"\1–", text)  # escaped dash between two dates
    text = re.sub(r"\$\s(?=[-\d.])", "$", text)                 # "$ 5829" -> "$5829"
    text = re.sub(r"(?<=\d)\s%", "%", text)                     # "22 %" -> "22%"
    text = re.sub(r"\(\s", "(", text)
    text = re.sub(r"\s([,;:.)])(?=\s|$)", r"\1", text)          # "1 , 2", "oci .", "x )"
    text = re.sub(r":\.$", ":", text.strip())                   # "as follows: ." -> "as follows:"
    return " ".join(text.split())


def residue(line: str) -> str | None:
    """What dataset residue a cleaned line still carries (None: none)."""
    if re.search(r"[{}]|\(\s*\)|\[\s*\]", line):
        return "braces or empty brackets"
    if line.count("(") != line.count(")"):
        return "unbalanced brackets"
    if any(m.group("n").replace(",", "") == m.group("m").replace(",", "")
           for m in _DOUBLED.finditer(line)):
        return "a figure printed twice"
    if _REPEAT.search(line):
        return "doubled text"
    return None


def value(text: str) -> float | None:
    """The number a printed figure or operand states, sign kept, "%" and "$" ignored."""
    m = NUMBER.search(text.replace("$", ""))
    return float(m.group(0).replace(",", "")) if m else None


@dataclass(frozen=True)
class Figure:
    """One number of a gold line, and what it is."""

    number: float
    printed: str              # the figure as the line prints it ("5829", "3.0")
    line: int                 # index of its gold line
    row: str | None = None    # table cell: the row ("net revenue") ...
    col: str | None = None    # ... and the column ("2015"); None when the header is no label
    quote: str | None = None  # sentence: the clause around the figure, as printed
    unit: str = ""            # "$" or "%" where the line prints one with the figure

    @property
    def measure(self) -> str | None:
        """What a table cell measures: the header that is not a date (the row if both are)."""
        if is_period(self.row) and self.col and not is_period(self.col):
            return self.col
        return self.row

    @property
    def period(self) -> str | None:
        """The date or period of a table cell, if one of its headers names one."""
        other = self.row if self.measure == self.col else self.col
        if not is_period(other) or other == self.measure:
            return None
        return re.sub(r"^(?:as of|as at|at|of)\s+", "", other or "")

    def label(self) -> str | None:
        """What the figure is, in words taken from its line ("net revenue for 2015")."""
        if self.quote is not None:
            return None
        if self.measure and self.period:
            return f"{self.measure} for {self.period}"
        if self.period or is_period(self.measure):
            return f"the {self.period or self.measure} figure"
        parts = [p for p in (self.row, self.col) if p]
        return ", ".join(parts) or None


def _label(text: str) -> str | None:
    """A row or column header as a label: no parentheses, no leading article, no bare amount."""
    text = re.sub(r"/\s", " ", _PARENS.sub("", text)).strip(" .;:,/")
    text = re.sub(r"^(?:the|a|an)\s+", "", text)
    if not re.search(r"[a-z]", text) and not is_period(text):
        return None
    if text.startswith("$") or re.fullmatch(r"-?[\d,]+\.\d+", text) or not text:
        return None
    if text in GENERIC_HEADERS:
        return None
    return text


def _split_cells(line: str) -> tuple[str, list[tuple[str, str]]]:
    """The corner header and the (row-and-column, value) of each cell of a linearised table
    row."""
    cells, corner = [], ""
    for k, cell in enumerate(c.strip() for c in line.split(";")):
        m = re.search(r"(?:^|\s)the\s(?P<rc>.+)\sis\s(?P<v>\S+)$", cell) if k == 0 else \
            re.fullmatch(r"the\s(?P<rc>.+)\sis\s(?P<v>\S+)", cell)
        if m:
            if k == 0:
                corner = cell[:m.start("rc")].strip()
                corner = re.sub(r"\s*the$", "", corner)
            cells.append((m.group("rc"), m.group("v")))
    if len(cells) > 1:              # a corner header that starts with "the" is cut too soon
        first, other = cells[0][0].split(), cells[1][0].split()[0]
        at = [i for i, w in enumerate(first) if w == other]
        if at and at[0]:
            corner = " ".join([corner, "the", *first[:at[0]]]).strip()
            cells[0] = (" ".join(first[at[0]:]), cells[0][1])
    return corner, cells


def _outside_parens_of(words: list[str]) -> list[int]:
    """Where "of" may join a row to its column: outside brackets, and not "as of"."""
    depth, out = 0, []
    for i, w in enumerate(words):
        depth += w.count("(") - w.count(")")
        if w == "of" and depth == 0 and (i == 0 or words[i - 1] != "as"):
            out.append(i)
    return out


def _table_figures(line: str, index: int) -> list[Figure]:
    """Every cell's figure with its row and column; where the table's first data row became
    its header ("balance 2006 the balance 2007 of $476915 is 404436"), the figure printed in a
    column header too, labelled by the corner header."""
    corner, cells = _split_cells(line)
    words = [rc.split() for rc, _ in cells]
    common: list[str] = []
    if len(cells) > 1:
        for column in zip(*words):
            if len(set(column)) > 1:
                break
            common.append(column[0])
    out = []
    for (rc, v), w in zip(cells, words):
        cut = _outside_parens_of(common) if len(cells) > 1 else []
        cut = cut or _outside_parens_of(w)
        if cut:
            row, col = " ".join(w[:cut[-1]]), " ".join(w[cut[-1] + 1:])
        else:
            row, col = rc, ""
        header = _HEADER_FIGURE.fullmatch(_PARENS.sub("", col).strip())
        if header and not _YEAR.fullmatch(header.group("n")) and _label(corner):
            col = header.group("text")
            out.append(Figure(float(header.group("n").replace(",", "")), header.group("n"), index,
                              row=_label(corner), col=_label(col)))
        m = NUMBER.search(v.replace("$", ""))
        if m:
            out.append(Figure(float(m.group(0).replace(",", "")), m.group(0), index,
                              row=_label(row), col=_label(col)))
    return out


_BOUNDARY = re.compile(r"[;:()]|,(?!\s(?:19|20)\d\d\b)|\s(?:and|or|but|while|whereas)\s")
_LOOSE_ENDS = ("and", "or", "of", "the", "a", "an", "to", "in", "for", "at", "by", "with", "which",
               "from", "as", "on", "was", "were", "is", "are")


def _quote(sentence: str, start: int, end: int) -> str:
    """The clause around sentence[start:end]: back to a clause boundary (a comma before a year
    is a date's), forward to one or to the next figure that is not a year, at most QUOTE_WORDS
    words each way, without loose function words at either end. Where the sentence pairs figures
    with dates by position ("respectively", or several years after one figure), no date is
    quoted with the figure, since it would attach the figure to the wrong year."""
    left = sentence[:start]
    cuts = [m.end() for m in _BOUNDARY.finditer(left)]
    before = left[cuts[-1] if cuts else 0:].split()[-QUOTE_WORDS:]
    while before and before[0] in _LOOSE_ENDS:
        before = before[1:]
    right = sentence[end:]
    stop = _BOUNDARY.search(right)
    right = right[:stop.start()] if stop else right
    after: list[str] = []
    for word in right.split()[:QUOTE_WORDS]:
        day = bool(after) and after[-1] in MONTHS
        if NUMBER.search(word) and not _YEAR.fullmatch(word.strip(".,")) and not day:
            break
        after.append(word)
    while after and after[-1] in _LOOSE_ENDS:
        after = after[:-1]
    if "respectively" in sentence:          # figures and dates paired by position: none is its own
        dated = [k for k, w in enumerate(before)
                 if _YEAR.fullmatch(w.strip(".,")) or w.strip(".,") in MONTHS]
        before = before[dated[-1] + 1:] if dated else before
        while before and (before[0] in _LOOSE_ENDS or NUMBER.search(before[0])):
            before = before[1:]
        return " ".join(before + [sentence[start:end]]).rstrip(" .,")
    years = [k for k, w in enumerate(after) if _YEAR.fullmatch(w.strip(".,"))]
    if len(years) > 1:                      # "$2.6 billion in 2014, 2013 and 2012": no one year
        after = after[:years[0]]
        while after and after[-1] in _LOOSE_ENDS:
            after = after[:-1]
    return " ".join(before + [sentence[start:end]] + after).rstrip(" .,")


def _text_figures(line: str, index: int) -> list[Figure]:
    """Every figure of a sentence with its clause; the day of a date ("june 30") is none."""
    out = []
    for m in NUMBER.finditer(line):
        start, end = m.start(), m.end()
        if line[:start].split()[-1:] in ([mo] for mo in MONTHS):
            continue
        unit = ""
        if start and line[start - 1] == "$":
            start, unit = start - 1, "$"
        tail = re.match(r"%|\s(?:million|billion|thousand|percent)\b", line[end:])
        if tail:
            end += tail.end()
            unit = unit or ("%" if tail.group(0) in ("%", " percent") else "")
        out.append(Figure(float(m.group(0).replace(",", "")), m.group(0), index,
                          quote=_quote(line, start, end), unit=unit))
    return out


def figures(gold_inds: tuple[tuple[str, str], ...]) -> list[Figure]:
    """Every number of the cleaned gold lines, with its table labels or its clause."""
    out = []
    for index, (key, text) in enumerate(gold_inds):
        line = clean_line(text)
        out.extend(_table_figures(line, index) if key.startswith("table") else
                   _text_figures(line, index))
    return out


def locate(operand: str, figs: list[Figure], near: Figure | None = None) -> Figure | None:
    """The figure an operand ("5829", "26.8%") reads: in ``near``'s row, else in its period,
    else in its line, else the first. A figure printed like the operand is preferred; a
    negative figure printed as its magnitude ("a decrease of $ 26") also counts. A small whole
    number printed nowhere as such ("3" against "3.0") is a count, not a figure."""
    number = value(operand)
    if number is None:
        return None
    printed = NUMBER.search(operand.replace("$", ""))
    found = [f for f in figs if f.number == number] or \
        [f for f in figs if abs(f.number) == abs(number)]
    same = [f for f in found if printed and f.printed.lstrip("-") == printed.group(0).lstrip("-")]
    if same:
        found = same
    elif printed and re.fullmatch(r"-?\d{1,2}", printed.group(0)):
        return None
    if near is not None:
        for close in (lambda f: f.line == near.line and f.row == near.row and f.quote is None,
                      lambda f: near.period is not None and f.period == near.period,
                      lambda f: f.line == near.line):
            if any(close(f) for f in found):
                return next(f for f in found if close(f))
    return found[0] if found else None
