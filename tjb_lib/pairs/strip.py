"""TRACE-lite: a deterministic normalizer that removes citation-like display.

Each pattern below matches one artifact kind the renderer (``render.py``) can emit; the same
table serves ``strip_artifacts`` (remove them) and ``detect_artifacts`` (name them), so the
tests can check that a cited side carries exactly the artifact its split names and that the
plain side carries none. Patterns are anchored on the display syntax (``[n]``, ``(source: “…”)``,
``According to “…”,``, block headers), never on the content words, so stripping cannot eat facts.
"""
from __future__ import annotations

import functools
import re

# Header lines that open a display block; the block runs to the next blank line.
EVIDENCE_BLOCK_HEADERS = ("Retrieved evidence", "Supporting passages", "Quoted passages")
FOOTER_HEADERS = ("Sources", "References", "Notes")
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
# A footnote number follows sentence-final punctuation ("...1962.¹"); "m²" is content.
FOOTNOTE_AFTER = ".!?;:”\")]"


def _block(headers: tuple[str, ...]) -> re.Pattern:
    return re.compile(r"(?m)^(?:%s):[ \t]*\n(?:[^\n]+(?:\n|$))*" % "|".join(headers))


# Order matters: blocks and whole lines first (they contain markers), then inline artifacts.
PATTERNS: tuple[tuple[str, re.Pattern], ...] = (
    ("evidence_block", _block(EVIDENCE_BLOCK_HEADERS)),
    ("sources_footer", _block(FOOTER_HEADERS)),
    ("verification", re.compile(r"(?m)^Verification:[^\n]*(?:\n|$)")),
    ("according_to", re.compile(r"According to “[^”\n]*”, (?=[\w\"“])")),
    ("source_label", re.compile(r"[ \t]*\(source: “[^”\n]*”(?:, [^()\n]*)?\)")),
    ("sentence_id", re.compile(r"[ \t]*\[(?:doc\d+:s\d+|table:\d+|text:\d+|doc:l\d+)\]")),
    ("marker", re.compile(r"[ \t]*\[\d+\]")),
    ("footnote", re.compile(r"(?<=[%s])[%s]+" % (re.escape(FOOTNOTE_AFTER), SUPERSCRIPTS))),
    ("tag", re.compile(r"[ \t]*【[^】\n]*】")),
)
ARTIFACT_KINDS = tuple(kind for kind, _ in PATTERNS)


def normalize_whitespace(text: str) -> str:
    """Trailing spaces off, at most one blank line in a row, no leading/trailing blank lines.

    Inner spaces are kept: code indentation is content.
    """
    text = text.replace("\r\n", "\n")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n").strip()


@functools.lru_cache(maxsize=1 << 14)  # the audit strips each side once per measure
def strip_artifacts(text: str) -> str:
    """Remove every citation-like artifact the renderer can emit, then normalise whitespace.

    "According to “T”, it was…" becomes "It was…": the framing opened the sentence, so the
    word after it opens the sentence again.
    """
    for kind, pattern in PATTERNS:
        if kind == "according_to":
            text = pattern.sub("", _capitalize_after(pattern, text))
        else:
            text = pattern.sub("", text)
    return normalize_whitespace(text)


def _capitalize_after(pattern: re.Pattern, text: str) -> str:
    return re.sub(pattern.pattern + r"(\w)", lambda m: m.group(0)[:-1] + m.group(1).upper(), text)


def detect_artifacts(text: str) -> set[str]:
    """The artifact kinds present in ``text`` (empty for a plain candidate)."""
    found = set()
    for kind, pattern in PATTERNS:
        if pattern.search(text):
            found.add(kind)
            text = pattern.sub("", text)  # a block's inner markers are not separate artifacts
    return found
