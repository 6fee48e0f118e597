"""FinQA gold lines as a reader sees them: cleaned of dataset residue, and read as figures.

A FinQA gold line is a linearised table row ("the net revenue of 2015 is $ 5829 ; ...") or a
sentence of the filing. ``clean_line`` removes what the dataset's extraction left behind (a
figure printed twice, "% ( % )", empty brackets, escaped apostrophes and quotes, spaces inside
"$ 5829" and before punctuation) and changes no figure. ``figures`` reads every number of the
cleaned lines together with what it is: a table cell's row and column ("net revenue", "2015"),
or the clause of the sentence it sits in, so that a reasoning step can say what its numbers are.
"""
from __future__ import annotations

import collections
import functools
import re
from dataclasses import dataclass

NUMBER = re.compile(r"(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d])|(?<![\w.])-?\.\d+")
_DOUBLED = re.compile(r"(?P<first>-?\$?\s?-?(?P<n>\d[\d,]*(?:\.\d+)?)\s?%?)\s\(\s?(?P<m>\d[\d,]*"
                      r"(?:\.\d+)?)\s?%?\s?\)")
_REPEAT = re.compile(r"\b([a-z][\w'&-]*(?:\s[\w'&-]+){1,}),?\s?\1\b")   # "net sales net sales"
_HEADER_FIGURE = re.compile(r"(?P<text>.*?)\s*\$?(?P<n>-?\d[\d,]*(?:\.\d+)?)")
_PARENS = re.compile(r"\s*\([^()]*\)")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
QUOTE_WORDS = 7          # at most this many words of a sentence on each side of a figure
GENERIC_HEADERS = frozenset({"amount", "amounts", "value", "total amount", "in millions",
                             "in thousands", "dollars", "millions", "thousands"})
#: place names a header keeps in capitals ("Arkansas", not "arkansas")
PLACE_WORDS = frozenset(("alabama alaska arizona arkansas california colorado connecticut "
                         "delaware florida georgia hawaii idaho illinois indiana iowa kansas "
                         "kentucky louisiana maine maryland massachusetts michigan minnesota "
                         "mississippi missouri montana nebraska nevada ohio oklahoma oregon "
                         "pennsylvania tennessee texas utah vermont virginia washington wisconsin "
                         "wyoming america american europe european asia canada canadian mexico "
                         "china japan germany brazil india australia latin caribbean").split())
#: row headers that say what a figure is only with the table's title, which FinQA does not keep
VAGUE_ROWS = frozenset({"total", "thereafter", "other", "totals", "subtotal", "balance",
                        "net", "amount", "later years"})
#: a column of a maturity table ("less than 1 year", "1-3 years", "thereafter")
MATURITY = re.compile(r"(?:(?:less than|more than|after|within|over)\s)?\d+(?:\s?[-–]\s?\d+)?\s"
                      r"years?|thereafter|\d{4}\sand\sthereafter")
MONTHS = ("january february march april may june july august september october november "
          "december").split()
_PERIOD = re.compile(r"(?:(?:fiscal|years?|ended|ending|as|of|at|in|to|through|quarters?|first|"
                     r"jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|and|thereafter|"
                     r"second|third|fourth|q[1-4]|months?|three|six|nine|twelve|%s)\b\.?"
                     r"|(?<!\d)\d{1,4}(?!\d)|[/,\-–]|\s)+" % "|".join(MONTHS))


def is_period(text: str | None) -> bool:
    """A header that names a date or a period ("2015", "december 31, 2017", "12/31/06")."""
    if not text or not re.search(r"\d", text) or not _PERIOD.fullmatch(text.lower()):
        return False
    return bool(_YEAR.search(text) or re.search(r"\d/\d|%s|jan|feb|mar|apr|jun|jul|aug|sep|oct|"
                                               r"nov|dec|quarter|q[1-4]" % "|".join(MONTHS),
                                               text.lower()))


def clean_line(text: str) -> str:
    """A gold line without dataset residue; every figure and word of the filing is kept."""
    def undouble(m: re.Match) -> str:
        same = m.group("n").replace(",", "") == m.group("m").replace(",", "")
        return m.group("first") if same else m.group(0)
    text = _DOUBLED.sub(undouble, text)
    text = re.sub(r"(^|[:;]\s?|\sand\s)2022\s(?=[a-z])", r"\1", text)   # an escaped bullet
    text = re.sub(r"^\s*\(\s?\d\s?\)\s(?=[a-z])", "", text)         # a leading footnote mark
    text = re.sub(r"(?<=[a-z])- (?=[a-z])", "-", text)                # "weighted- average"
    text = re.sub(r"^notes to (?:the )?consolidated financial statements(?: 2014)?"
                  r"(?: \( continued \)| \(continued\))?\s*", "", text)   # a page header
    text = re.sub(r"\s?\.\s?\.$", ".", text.strip())                  # "granted . ."
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
    if re.match(r"\$?[\d.,]+\s\(\d\)\s", line):
        return "a table cell run into a sentence"
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
    name: str | None = None   # sentence: what the figure is, from the clause ("total revenues")
    year: int | None = None   # sentence: the one year the clause gives the figure
    scale: str = ""           # "thousand", "million", "billion": as its clause or table says

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
        return re.sub(r"^(?:as of|as at|at|of)\s+", "", other or "", flags=re.I)

    @property
    def years(self) -> set[int]:
        """The years the figure belongs to, as its headers or its clause give them."""
        if self.quote is not None:
            return {self.year} if self.year else set()
        return period_years(self.period)

    def label(self) -> str | None:
        """What the figure is, in words taken from its line ("net revenue in 2015",
        "total revenues in 2001"), cased as one phrase; None where the line gives it no name."""
        said = self._label()
        return label_case(said) if said else said

    def _label(self) -> str | None:
        if self.quote is not None:
            if self.name is None:
                return None
            name = plain_label(self.name)
            if self.year and str(self.year) not in name:
                return f"{name} in {self.year}"
            return name
        if self.measure and self.period and not is_period(self.measure):
            if undated(self.measure) != self.measure and " to " not in self.period:
                return f"{mid(undated(self.measure))} {when(self.period)}"
            if self.measure.lower() in VAGUE_ROWS or " to " in self.period:
                return None
            return f"{mid(self.measure)} {when(self.period)}"
        if self.period or is_period(self.measure):
            return None
        row, col = mid(self.row), mid(self.col)
        dated = re.fullmatch(r"balance,?\s+(?:at\s+|as of\s+)?(.+)", row or "", re.I)
        if dated and col and is_period(dated.group(1)):   # "options at January 1, 2000"
            return f"{col} {when(dated.group(1))}"
        if row and row.lower() == "total" and col and MATURITY.fullmatch(col.lower()):
            return f"total due {_maturity(col)}"          # "total due in less than 1 year"
        if col and col.lower() == "total":            # the row's total: "total debt"
            col, row = None, (row if not row or row.lower().startswith("total")
                              else f"total {row}")
        if row and row.lower() == "total" and col:    # a column's total: "total mainline ..."
            row, col = f"total {col}", None
        if not row or row.lower() in VAGUE_ROWS:      # "Total", "Thereafter": of what?
            return None
        if col and re.fullmatch(r"(?:net )?change in (?:the )?period", row, re.I):
            return f"the change in {mid(col)} over the period"    # not "... of change in period"
        if col and MATURITY.fullmatch(col.lower()):   # "long-term debt due in 1-3 years"
            return f"{row} due {_maturity(col)}"
        return column_of(row, col) if col else row


def _maturity(col: str) -> str:
    """A maturity column after "due": "in 1-3 years", "after 5 years", "in later years" for
    "thereafter" (which, without the table, reads as a label, not as a time)."""
    low = col.lower()
    if low == "thereafter":
        return "in later years"
    return low if low.startswith(("after", "within", "thereafter")) else f"in {low}"


#: a quarter column ("3rd Qtr", "4th quarter")
QUARTER = re.compile(r"([1-4])(?:st|nd|rd|th) (?:qtr|quarter)\.?", re.I)
_ORDINALS = ("first", "second", "third", "fourth")


#: a row that is the state of a share award ("Non-vested at May 31, 2009", "Granted"), the
#: date it may end on apart
_AWARD_STATE = re.compile(r"((?:non-?|un)?vested|granted|exercised|forfeited|cancell?ed|expired|"
                          r"outstanding|exercisable)((?:,?\s+(?:at|as of)\s+.+)?)", re.I)
#: a column that counts the awards ("Shares", "Number of shares")
_AWARD_COUNT = re.compile(r"(?:(?:the )?(number) of )?(shares|options|units|awards)", re.I)


def award_cell(row: str, col: str) -> str | None:
    """A cell of a share-award table named by what it is ("non-vested shares at May 31,
    2009", "the number of granted shares", "the weighted average grant-date fair value of
    vested awards"), never the state as a noun ("the shares of non-vested at ..."); None
    where the row is no award state."""
    state = _AWARD_STATE.fullmatch(row.strip())
    if state is None:
        return None
    what, on = state.group(1).lower(), state.group(2)
    count = _AWARD_COUNT.fullmatch(col.strip())
    if count:
        things = f"{what} {count.group(2).lower()}{on}"
        return f"the number of {things}" if count.group(1) else things
    kind = "shares" if re.search(r"\bshares?\b", col, re.I) else "awards"
    return f"the {col} of {what} {kind}{on}"          # cased as one phrase by ``label``


def column_of(row: str, col: str) -> str:
    """A row's cell in a column that is no period, in words ("the fair value of interest rate
    collar", "2016 benefit payments for the United States", "net earnings in the third
    quarter"), not as "row (column)", which reads as label soup, nor a quarter as a part of
    its measure ("the 3rd Qtr of net earnings")."""
    first = row.split()[0]
    if first.lower() in common_words() and re.fullmatch(r"[A-Z][a-z-]+", first):
        row = first.lower() + row[len(first):]                  # "Acquisition of ..."
    place = col.split()[0].lower().strip(".") in PLACE_WORDS | {"united", "international",
                                                                "domestic", "foreign", "u.s"}
    award = award_cell(row, col)
    if award:
        return award
    quarter = QUARTER.fullmatch(col.strip())
    if quarter:
        return f"{row} in the {_ORDINALS[int(quarter.group(1)) - 1]} quarter"
    if re.fullmatch(r"[a-z]+ed", col):                # "revised goodwill"
        return f"{col} {row}"
    if place or col[:1].isupper():                    # a segment or a name: the row's part
        return f"{row} for {'the ' if col.startswith('United') else ''}{col}"
    dated = _DATED_COLUMN.fullmatch(col)              # "the liability of employee separations
    if dated:                                         # as of December 31, 2004", the date last
        return f"the {dated.group(1)} of {row} {dated.group(2)}"
    return f"the {col} of {row}"


#: a column that is a measure on a date ("liability as of December 31, 2004")
_DATED_COLUMN = re.compile(r"(.+?) ((?:as of|as at|at) [A-Z][a-z]+ \d{1,2},? (?:19|20)\d\d)")


def period_years(period: str | None) -> set[int]:
    """The years a period names: "2015", "december 31, 2017", "12/31/06" (2006)."""
    if not period:
        return set()
    out = {int(y) for y in _YEAR.findall(period)}
    out |= {2000 + int(y) if int(y) < 50 else 1900 + int(y)
            for y in re.findall(r"\d{1,2}/\d{1,2}/(\d\d)(?!\d)", period)}
    return out


def undated(measure: str) -> str:
    """A row label without the date it ends on, where it has one ("Balance at December 27,
    2008" -> "Balance"): in a column of another date, the column's date is the figure's, and
    both would make label soup ("balance at December 27, 2008 at December 29, 2007")."""
    m = re.fullmatch(r"(.+?),?\s+(?:at|as of|as at)\s+(.+)", measure, re.I)
    return m.group(1) if m and is_period(m.group(2)) and period_years(m.group(2)) else measure


def when(period: str) -> str:
    """A period with the preposition an analyst puts before it: "in 2015", "at December 31,
    2015", "for the year ended ...", "for fiscal 2015"."""
    low = period.lower()
    if re.match(r"(?:the\s)?(?:fiscal|years?|three|six|nine|twelve|quarters?|first|second|third|"
                r"fourth|q[1-4])\b", low):
        period = re.sub(r"\b(Year|Years|Ended|Ending|Fiscal|Months)\b",       # "Year Ended ..."
                        lambda m: m.group(1).lower(), period)
        the = "the " if re.match(r"(?:years?|three|six|nine|twelve) (?:months )?end", low) else ""
        return f"for {the}{period}"                   # "for the year ended ...", never "for year"
    if re.search(r"/|\b(?:%s|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b" % "|".join(MONTHS),
                 low):
        return f"at {period}"
    return f"in {period}"


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


_CONNECT = re.compile(
    r"(?P<np>[a-z](?:[^,;:()$]|,\s(?=(?:19|20)\d\d))*?)\s(?P<verb>increased|decreased|rose|fell|"
    r"grew|declined|was|were|is|are|totaled|totalled|totaling|totalling|of|"
    r"amounted to|amounting to|reached|increased to|decreased to|rose to|fell to|grew to|"
    r"declined to|equaled|aggregating|aggregated|approximated)"
    r"(?:\s(?:approximately|about|nearly|over|an aggregate of|a total of))?\s?$")
_LIST = re.compile(r"\$?-?[\d,.]+\s?(?:million|billion|thousand|%)?(?:\s(?:for|in)\s(?:19|20)\d\d)?"
                   r"\s?(?:,\s?and|,|and)\s?$")
_LIST_AFTER = re.compile(r"\s?(?:,\s?and|,|and)\s\$?-?[\d,.]+(?:\s(?:million|billion|thousand)|%)?"
                         r"(?=[\s,])")
_COUNTED = re.compile(r"\s(shares|employees|square feet|units|customers|stores|facilities|"
                      r"locations|vessels|aircraft|restaurants|properties|ships|berths|acres)\b")
_DATED = re.compile(r"\s(?:at|as of|in|for|during)\s(?:(?:fiscal|the year ended|year-end)\s)?"
                    r"(?:(?:%s)\s\d{1,2},\s)?(?:19|20)\d\d$" % "|".join(MONTHS))
_OF_WHAT = re.compile(r"^\s(?:of|in)\s(?P<np>[a-z][a-z'&/ -]*)")
# Words that end a noun phrase read forward, or mark the start of the one read backward.
_NP_STOP = frozenset("consisting which that and or for in at on to from as during compared due "
                     "primarily respectively were was is are related associated with by under "
                     "over through each per the a an".split())
_CLAUSE = frozenset("we our it they he she which that who had has have held recorded recognized "
                    "paid reported incurred received made issued purchased repurchased sold "
                    "generated spent invested expect expects expected estimate estimated "
                    "anticipate include includes included be been being there also would will "
                    "may could did does approximately about realized incurred totaled became become remained "
                    "becomes fixed effectively".split())
_PARTICIPLES = frozenset("included recorded reported reflected sold held issued paid received "
                         "acquired purchased made recognized".split())
_DETS = ("the", "a", "an", "these", "this", "those", "our", "its", "their", "such", "total of")
_VAGUE = frozenset("total amount amounts balance increase decrease change figure sum expense "
                   "expenses cost costs income revenue revenues payment payments net "
                   "approximately rate value investment".split())


def _noun_phrase(words: list[str]) -> str | None:
    """``words`` as a name: 1 to 8 words, no figure, not only a vague noun ("the total")."""
    while words and (words[0] in _DETS or words[0] in _LOOSE_ENDS):
        words = words[1:]
    while words and words[-1] in _LOOSE_ENDS:
        words = words[:-1]
    if not 1 <= len(words) <= 8 or any(re.search(r"\d", w) for w in words):
        return None
    if {"million", "billion", "thousand"} & set(words):
        return None                                  # "million net": a unit, not a name
    if " at a " in f" {' '.join(words)} " or " at an " in f" {' '.join(words)} " \
            or words[:2] == ["net", "of"]:
        return None                                  # "common stock at an exercise price"
    if all(w in _VAGUE or w in _LOOSE_ENDS for w in words):
        return None
    return " ".join(words)


def _name(line: str, start: int, end: int) -> str | None:
    """What a figure of a sentence is: the noun after it ("$8.5 million of intangible
    assets"), else the subject it is stated of ("total revenues were $5.2 billion"), read past
    a list of figures ("revenues of $1, $2 and $3"); a one-word subject by what it relates to
    ("the use related to the change in accounting", not "use"); None where neither reads
    cleanly."""
    if re.search(r"\ba (?:cost|price) of\s?\$?$", line[:start]):
        return re.search(r"(cost|price) of\s?\$?$", line[:start]).group(1)   # "at a cost of $92"
    rest = line[end:]
    while _LIST_AFTER.match(rest):                  # "4.6 million, 5.5 million and 2.0 million of"
        rest = rest[_LIST_AFTER.match(rest).end():]
    counted = _COUNTED.match(rest)
    if counted:
        of = _OF_WHAT.match(rest[counted.end():])
        tail = _noun_phrase([w for w in of.group("np").split()[:4]]) if of and \
            of.group(0).lstrip().startswith("of") else None
        return f"{counted.group(1)} of {tail}" if tail else counted.group(1)
    after = _OF_WHAT.match(rest)
    moved = re.search(r"\b(increase|decrease|reduction|rise|decline|growth)\sof\s?$", line[:start])
    if after and not after.group("np").startswith(("the ", "which", "fiscal")):
        words = []
        for w in after.group("np").split():
            if w in _NP_STOP:
                break
            words.append(w)
        if words and (words[0] not in _DETS) and len(words) <= 5:
            found = _noun_phrase(words)
            if found and moved and after.group(0).lstrip().startswith("in"):
                return f"the {moved.group(1)} in {found}"
            if found and not after.group(0).lstrip().startswith("in"):
                return found
    left = line[:start]
    dollar = line[start:start + 1] == "$"
    while _LIST.search(left) and ("$" in _LIST.search(left).group(0)) == dollar:
        left = left[:_LIST.search(left).start()]
    m = _CONNECT.search(left)
    if not m:
        return None
    words = _DATED.sub("", m.group("np")).split()
    tail = [k for k, w in enumerate(words[:-1]) if k and w in _PARTICIPLES and words[k + 1] in
            ("in", "as", "to", "by", "on", "under", "at", "through", "from", "for")]
    words = words[:tail[0]] if tail else words      # "loans sold as a participant ..." -> "loans"
    cut = [k for k, w in enumerate(words) if w in _CLAUSE]
    found = _noun_phrase(words[cut[-1] + 1:] if cut else words)
    if found and m.group("verb") in ("increased", "decreased", "rose", "fell", "grew", "declined"):
        change = "increase" if m.group("verb") in ("increased", "rose", "grew") else "decrease"
        return f"the {change} in {found}"
    what = re.match(r"\s*(?:thousand|million|billion)?\s*related to (?:an? |the )?"
                    r"([a-z][a-z ]{4,40}?)(?= for |[,.;]|$)", rest)
    if found and " " not in found and what:           # "a use of $250 million related to a
        return f"the {found} related to the {what.group(1)}"    # change in accounting", not "use"
    return found


def _years(line: str, spans: list[tuple[int, int]]) -> list[int | None]:
    """The year each figure of a sentence belongs to: the year right after it ("$385 million
    in 2014"), the only year of a sentence with one figure, or by position where the sentence
    pairs figures with the years that follow them ("$5 and $6 at december 31, 2012 and 2011,
    respectively"), or, where each year has a count and an amount in a row, by those groups
    ("1 million shares at a cost of $92 million, 10.2 million shares at a cost of $858 million
    ... in 2012, 2011 and 2010, respectively"); None where the sentence does not say."""
    own = [re.match(r"\s(?:in|for|during)\s(?:fiscal\s)?((?:19|20)\d\d)\b", line[e:]) for _, e in spans]
    if spans and all(own):
        return [int(m.group(1)) for m in own]
    years = [int(m.group(0)) for m in _YEAR.finditer(line)]
    if len(spans) == 1 and len(set(years)) == 1:
        return [years[0]]
    first = min(s for s, _ in spans) if spans else 0
    if "respectively" in line:
        years = [int(m.group(0)) for m in _YEAR.finditer(line) if m.start() > first] or years
        paired = True
    else:
        paired = all(m.start() < first for m in _YEAR.finditer(line))
    if len(years) >= 2 and len(set(years)) == len(years) and paired \
            and len(spans) % len(years) == 0:
        per = max(len(spans) // len(years), 1)
        money = [line[start] == "$" for start, _ in spans]
        groups = {tuple(money[k:k + per]) for k in range(0, len(spans), per)}
        if per > 1 and len(groups) == 1 and len(set(money)) > 1:       # "1 million shares at a cost of $92
            return [years[k // per] for k in range(len(spans))]      # million, ...": by year
        return [years[k % len(years)] for k in range(len(spans))]
    return [None] * len(spans)


def _text_figures(line: str, index: int) -> list[Figure]:
    """Every figure of a sentence with its clause, its name and its year; the day of a date
    ("june 30") and a year are none."""
    found = []
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
        found.append((m, start, end, unit, tail.group(0).strip() if tail and
                      tail.group(0).strip() in _SCALE_WORDS else ""))
    amounts = [(s, e) for m, s, e, _, _ in found if not _YEAR.fullmatch(m.group(0))]
    years = iter(_years(line, amounts))
    out = []
    for m, start, end, unit, scale in found:
        year = None if _YEAR.fullmatch(m.group(0)) else next(years)
        out.append(Figure(float(m.group(0).replace(",", "")), m.group(0), index,
                          quote=_quote(line, start, end), unit=unit,
                          name=_name(line, start, end), year=year, scale=scale))
    return out


def _printed_figures(table: tuple[tuple[str, ...], ...], row: int, index: int) -> list[Figure]:
    """Every cell of a printed table row with its row and column headers as printed."""
    out = []
    head = table[0]
    scale = table_scale(table)
    for j, cell in enumerate(table[row][1:], start=1):
        m = NUMBER.search(cell.replace("$", "").replace(" ", ""))
        if not m:
            continue
        number = float(m.group(0).replace(",", ""))
        if re.match(r"\s*\$?\s*\(", cell):
            number = -abs(number)
        out.append(Figure(number, m.group(0).replace(",", ""), index,
                          row=header(table[row][0]), col=header(head[j]),
                          unit="$" if "$" in cell else ("%" if "%" in cell else ""),
                          scale="" if "%" in cell else scale))
    return out


#: a table's unit note in its header row ("(in millions)", "( $ in thousands )")
TABLE_UNIT = re.compile(r"\(?\s*(?:\$\s*)?in\s+(millions|thousands|billions)[^)]*\)?", re.I)
_SCALE_WORDS = ("thousand", "million", "billion")


def table_scale(table: tuple[tuple[str, ...], ...]) -> str:
    """The scale a table's header row states ("million" for "(in millions)"), or ""."""
    for cell in table[0] if table else ():
        m = TABLE_UNIT.search(cell)
        if m:
            return m.group(1).lower().removesuffix("s")
    return ""


@functools.lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """Words the filings of at least two companies use in running text (so "Inventories" is a
    word, "Masco" a name); months and places are left out."""
    from tjb_lib.data import load_finqa
    seen: dict[str, set[str]] = collections.defaultdict(set)
    for item in load_finqa():
        company = item.filename.split("/")[0]
        text = " ".join([item.question, *(t for k, t in item.gold_inds if k.startswith("text"))])
        for w in set(re.findall(r"[a-z][a-z-]+", text.lower())):
            seen[w].add(company)
    return frozenset(w for w, c in seen.items()
                     if len(c) >= 2 and w not in MONTHS and w not in PLACE_WORDS)


# A word set apart from a name: what a stray capital may follow ("the Company" stays).
_FUNCTION = r"(?:of|at|in|the|and|for|by|to|from|on|with|as|than|ended|a|an|or|per)"
#: a capitalised word inside lower-case words ("interest rate Collar", "total Pilots")
STRAY_CAPITAL = re.compile(rf"(?<![\w&.-])((?!{_FUNCTION}\b)[a-z][a-z-]* )"
                           rf"(?!(?:{'|'.join(m.capitalize() for m in MONTHS)})\b)"
                           r"([A-Z][a-z]+(?:-[A-Z][a-z]+)*)(?![\w&-]| [A-Z&\d])")
#: a lower-case word inside a name ("Dow jones Transportation Average")
LOWER_IN_NAME = re.compile(rf"(?<=\b[A-Z][a-z]{{2}} )(?!{_FUNCTION}\b)([a-z]+)(?= [A-Z][a-z]+)")


#: what a label carries that reads as the table's heading, not as a noun: a qualifier after a
#: dash ("investments — short and long-term"), "incurred during the period", a pointer back to
#: a sentence the line does not keep ("under these programs"); and a date span opened by "at"
_HEADING_TAIL = re.compile(r"\s+—\s+[^—]+$|\s+(?:incurred\s+)?during the period$"
                           r"|\s+(?:under|for|in|from) (?:these|those) [a-z]+$")
_AT_SPAN = re.compile(r"\bat ([A-Z][a-z]+ \d{1,2}) through\b")


#: a table's qualifier after a comma, which inside a sentence splits the clause ("Losses on
#: undesignated foreign exchange derivatives, net went from ...", "Fair value, per share")
_NET_TAIL = re.compile(r"^(?P<head>[A-Za-z][^,]*), net$")
_COMMA_QUALIFIER = re.compile(r", (?=(?:per share|per unit|including|excluding)\b)")


def plain_label(text: str) -> str:
    """A label as a noun phrase ("development costs", "reserve for losses", "shares
    repurchased from December 1 through December 31", "net losses on undesignated foreign
    exchange derivatives", "fair value per share"), never with the heading's qualifier,
    "during the period" or "these programs", which no sentence of the reasoning explains,
    nor with a comma before its own qualifier."""
    text = _AT_SPAN.sub(r"from \1 through", _HEADING_TAIL.sub("", text))
    net = _NET_TAIL.fullmatch(text)
    if net:
        head = net.group("head")
        text = f"Net {head[:1].lower()}{head[1:]}" if re.match(r"[A-Z][a-z]", head) \
            else f"net {head}"
    return _COMMA_QUALIFIER.sub(" ", text)


def label_case(text: str) -> str:
    """A label's words cased as one phrase: a capital a table printed inside lower-case words
    lowered ("interest rate collar", "total pilots"), a lower-case word inside a name raised
    ("Dow Jones Transportation Average"); its heading's qualifiers dropped (``plain_label``)."""
    text = plain_label(text)
    text = STRAY_CAPITAL.sub(lambda m: m.group(1) + m.group(2).lower(), text)
    return LOWER_IN_NAME.sub(lambda m: m.group(1).capitalize(), text)


def total_named(text: str) -> str:
    """A table's "Total, net of cash collateral" as a noun phrase: "the total net of cash
    collateral", never "Total, ..." inside a sentence."""
    return re.sub(r"^Total, (?=[a-z])", "the total ", text)


def mid(text: str | None) -> str | None:
    """A printed header as it reads inside a sentence: "Net revenue" -> "net revenue", a name
    ("Ball Corporation", "Arkansas", "HPL") kept."""
    if not text:
        return text
    text = total_named(label_case(text))
    first, *rest = text.split()
    if first in ("TOTAL", "NET", "OTHER", "BALANCE"):                    # "TOTAL"
        return first.lower() + text[len(first):]
    if (re.fullmatch(r"[A-Z][a-z]+(?:-[A-Za-z][a-z]+)*", first)
            and first.lower().split("-")[0] not in PLACE_WORDS                 # "Asia-Pacific"
            and first not in PEOPLES and first.lower() not in MONTHS
            and (rest or first.lower() in common_words())
            and (not any(re.fullmatch(r"[A-Z][a-z]+\W*", w) and w.lower().strip(",.") not in MONTHS
                         for w in rest) or rest[0] in ("of", "for", "on"))):   # "value of Metavante
        return first.lower() + text[len(first):]                             # stock awards"
    return text


#: a people's or a region's adjective, which keeps its capital at a label's head ("European
#: cruise guests", never "european")
PEOPLES = frozenset("European American Asian African Canadian Chinese Japanese British German "
                    "French Mexican Latin Brazilian Indian Australian Korean".split())


def header(text: str) -> str | None:
    """A printed header as a label: footnote marks, units and brackets removed."""
    text = re.sub(r"<[^>]*>", "", text).replace("\u2019", "'")
    text = _PARENS.sub("", text)
    text = re.sub(r"(?<=[a-z])(?=\d)|(?<=,)(?=\d{4})", " ", text)      # "than1 year", "28,2013"
    text = re.sub(r"\s*\[\w+\]|\*+", "", text).strip(" .;:,")
    text = " ".join(text.split())
    if not re.search(r"[A-Za-z]", text) and not is_period(text):
        return None
    if text.lower() in GENERIC_HEADERS or not text:
        return None
    text = re.sub(r"(?<!\bMc)(?<!\bi)(?<=[a-z])(?=[A-Z])|(?<=[A-Z\d])(?=[A-Z][a-z]{2})", " ",
                  text)                                 # "AmericanCruiseGuests", "500Index"
    text = re.sub(r"\b(%s)\b" % "|".join(MONTHS), lambda m: m.group(1).capitalize(), text)
    if len(text.split()) > 12:
        return None                      # a note, not a header
    text = re.sub(r"\s-(?=\d)", "–", text)                              # "2021 -22"
    return _title_down(text)


def _title_down(text: str) -> str:
    """A Title Case header in sentence case after its first word ("Gross Goodwill At" ->
    "Gross goodwill at"), a name kept ("JP Morgan Chase", "Ralph Lauren", "December")."""
    words = text.split(" ")
    if words[0] == "The" or re.search(r"\b(?:Inc|Corp|Corporation|Incorporated|Group|Company|Ltd|"
                                      r"PLC|LLC|Index)\b", text):
        return text                                  # a company's or an index's name
    for k in range(1, len(words)):
        w, before = words[k], words[k - 1]
        name_before = bool(re.fullmatch(r"[A-Z][\w&.-]*", before)) and \
            before.lower() not in common_words()
        if re.fullmatch(r"[A-Z][a-z]+(?:-[a-z]+)*", w) and w.lower() in common_words() \
                and not name_before and before != "United":
            words[k] = w.lower()
    return " ".join(words)


def figures(gold_inds: tuple[tuple[str, str], ...],
            table: tuple[tuple[str, ...], ...] = ()) -> list[Figure]:
    """Every number of the cleaned gold lines, with its table labels (from the printed
    ``table`` where there is one) or its clause."""
    return list(_figures(gold_inds, table))


@functools.lru_cache(maxsize=1024)  # a record's figures are read by every check and sentence
def _figures(gold_inds: tuple[tuple[str, str], ...],
             table: tuple[tuple[str, ...], ...]) -> tuple[Figure, ...]:
    out = []
    for index, (key, text) in enumerate(gold_inds):
        line = clean_line(text)
        row = key.partition("_")[2]
        if key.startswith("table") and table and row.isdigit() and int(row) < len(table) \
                and table[int(row)]:
            out.extend(_printed_figures(table, int(row), index))
        else:
            out.extend(_table_figures(line, index) if key.startswith("table") else
                       _text_figures(line, index))
    return tuple(out)


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
