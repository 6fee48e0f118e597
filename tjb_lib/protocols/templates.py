"""Prompt templates: plain-text files in ``tjb_lib/prompts``, one per level/paraphrase/stage.

File layout (the header names the template and its version, so every request can record both)::

    # template: ladder_L2_p0 | version: 1
    # ...free comment lines...
    === system ===
    <system message>
    === user ===
    <user message with $placeholders>

Placeholders use ``string.Template`` syntax, so the JSON braces in the output instructions need
no escaping; rendering demands exactly the template's placeholders, no more and no fewer.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from string import Template as _StringTemplate

PROMPTS = Path(__file__).resolve().parent.parent / "prompts"
_HEADER_RE = re.compile(r"^# template: (?P<name>[\w.-]+) \| version: (?P<version>[\w.-]+)\s*$")
_SECTION_RE = re.compile(r"^=== (system|user) ===$", re.MULTILINE)


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    version: str
    system: str
    user: str
    path: str

    def placeholders(self) -> set[str]:
        return set(_StringTemplate(self.system).get_identifiers()) | set(
            _StringTemplate(self.user).get_identifiers())

    def render(self, **fields: str) -> tuple[tuple[str, str], ...]:
        """((role, content), ...) with every placeholder filled; a missing or unknown field is a bug."""
        expected = self.placeholders()
        if set(fields) != expected:
            raise ValueError(f"{self.path}: template {self.name!r} takes placeholders "
                             f"{sorted(expected)}, got {sorted(fields)}")
        messages = []
        for role, text in (("system", self.system), ("user", self.user)):
            if text:
                messages.append((role, _StringTemplate(text).substitute(fields)))
        return tuple(messages)


def parse_template(text: str, path: str) -> PromptTemplate:
    """Parse one template file's text; errors name the file and what is wrong."""
    lines = text.split("\n")
    m = _HEADER_RE.match(lines[0]) if lines else None
    if not m:
        raise ValueError(f"{path}: first line must be '# template: <name> | version: <v>', "
                         f"got {lines[0]!r}")
    parts = _SECTION_RE.split(text)
    # parts = [header, "system", body, "user", body]
    if len(parts) != 5 or parts[1] != "system" or parts[3] != "user":
        raise ValueError(f"{path}: needs exactly one '=== system ===' then one '=== user ===' "
                         f"section")
    stray = [ln for ln in parts[0].split("\n") if ln.strip() and not ln.startswith("#")]
    if stray:
        raise ValueError(f"{path}: only '#' comment lines may precede '=== system ===', "
                         f"found {stray[0]!r}")
    system, user = parts[2].strip("\n"), parts[4].strip("\n")
    if not user:
        raise ValueError(f"{path}: the user section is empty")
    return PromptTemplate(m["name"], m["version"], system, user, path)


@lru_cache(maxsize=None)
def load_template(name: str) -> PromptTemplate:
    """The template ``name`` from ``prompts/<name>.txt`` (its header must carry the same name)."""
    path = PROMPTS / f"{name}.txt"
    if not path.is_file():
        raise ValueError(f"no prompt template {name!r}: {path.name} is not in {PROMPTS.name}/ "
                         f"(known: {', '.join(available_templates())})")
    tpl = parse_template(path.read_text(encoding="utf-8"), f"prompts/{path.name}")
    if tpl.name != name:
        raise ValueError(f"prompts/{path.name}: header names template {tpl.name!r}, "
                         f"expected {name!r}")
    return tpl


def available_templates() -> list[str]:
    return sorted(p.stem for p in PROMPTS.glob("*.txt"))


def instruction_prefix(name: str) -> str | None:
    """The start of template ``name``'s user message that every comparison shares: its
    instructions, up to the first placeholder. Providers can cache it across calls (the templates
    put instructions first for that reason). None for a name that is not a template."""
    try:
        tpl = load_template(name)
    except ValueError:
        return None
    first = _StringTemplate.pattern.search(tpl.user)
    return tpl.user[:first.start()] if first else tpl.user
