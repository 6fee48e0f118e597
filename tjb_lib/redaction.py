"""One redaction for every text that leaves a process: the store's records, error lines, what
``check`` and progress print, and executed notebooks.

A key can come back from anywhere a server writes (a reply, a model id, an error page), so what
is printed or written is redacted by the same function, ``redact``: the value of every
``*_API_KEY`` variable in the environment becomes ``[redacted $NAME]``, any secret given
explicitly becomes ``[redacted]``, and anything shaped like a provider key (``sk-...``,
``sk-ant-...``) keeps only its prefix. ``guard_output`` puts it in front of this process's
stdout and stderr.
"""
from __future__ import annotations

import io
import os
import re
import sys
from typing import Iterable, TextIO

#: Shorter values of an ``*_API_KEY`` variable are placeholders ("EMPTY", "x", "none") that local
#: servers accept; they cannot be told apart from ordinary text, so they are not checked for.
#: Every provider key is far longer (OpenAI, Anthropic and DeepSeek keys run to 35-110 chars).
MIN_SECRET_CHARS = 8
#: a provider key's shape: its prefix is kept so a reader sees what kind of key was removed
KEY_SHAPE = re.compile(r"\b(sk-(?:ant-)?)[A-Za-z0-9_\-]{6,}")


def secret_values() -> dict[str, str]:
    """Environment variables that hold API keys (name -> value), placeholders skipped."""
    return {k: v.strip() for k, v in os.environ.items()
            if k.endswith("_API_KEY") and len(v.strip()) >= MIN_SECRET_CHARS}


def found_secrets(text: str) -> list[str]:
    """The names of the ``*_API_KEY`` variables whose value ``text`` holds."""
    return [name for name, value in secret_values().items() if value in text]


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every key removed: environment keys by name, ``secrets`` and key shapes."""
    for name, value in secret_values().items():
        text = text.replace(value, f"[redacted ${name}]")
    for value in secrets:
        if value and len(value) >= 6:
            text = text.replace(value, "[redacted]")
    return KEY_SHAPE.sub(r"\1[redacted]", text)


class RedactingStream(io.TextIOBase):
    """A text stream that redacts each line before it reaches ``target``: writes are held to
    the end of their line, so a key split over two writes is still one line when redacted."""

    def __init__(self, target: TextIO):
        self.target = target
        self._pending = ""

    def write(self, text: str) -> int:
        head, newline, self._pending = (self._pending + text).rpartition("\n")
        if newline:
            self.target.write(redact(head + newline))
        if len(self._pending) > 65536:  # a very long line without end is written as it comes
            self.target.write(redact(self._pending))
            self._pending = ""
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self.target.write(redact(self._pending))
            self._pending = ""
        self.target.flush()

    def isatty(self) -> bool:
        return self.target.isatty()

    def fileno(self) -> int:
        return self.target.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.target.encoding


def guard_output() -> None:
    """Redact everything this process prints from now on (stdout and stderr)."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if not isinstance(stream, RedactingStream):
            setattr(sys, name, RedactingStream(stream))
