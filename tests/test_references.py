"""Every ``tjb_lib.<module>[.<name>]`` a tracked file names is a module or name that exists: the
project's files cite only what is in it (moving modules into subpackages once left the example
set's README naming ``tjb_lib.judge_yourself`` and the human-validation README
``tjb_lib.stats``, neither of which existed any more)."""
from __future__ import annotations

import importlib
import re
import subprocess
from pathlib import PurePosixPath

from tjb_lib import paths

_REFERENCE = re.compile(r"\btjb_lib(?:\.[A-Za-z_]\w*)+")
_TEXT = (".md", ".py", ".txt", ".toml", ".yml", ".cfg")


def _resolves(reference: str) -> bool:
    parts = reference.split(".")
    for i in range(len(parts), 0, -1):  # the longest importable module, then its attributes
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for name in parts[i:]:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True
    return False


def test_every_dotted_reference_to_the_package_resolves():
    files = subprocess.run(["git", "ls-files"], cwd=paths.CHECKOUT, capture_output=True, text=True,
                           check=True).stdout.split()
    here = "tests/test_references.py"  # names wrong references on purpose
    refs = {(m.group(0), f) for f in files if f.endswith(_TEXT) and f != here
            for m in _REFERENCE.finditer((paths.CHECKOUT / f).read_text(encoding="utf-8"))
            if "__main__" not in m.group(0)}
    assert len(refs) > 20  # the README and docstrings name many
    assert sorted(r for r in refs if not _resolves(r[0])) == []


def test_a_reference_to_a_module_that_moved_is_caught():
    assert _resolves("tjb_lib.teaching.judge_yourself.example_answer")
    assert not _resolves("tjb_lib.judge_yourself.example_answer")
    assert not _resolves("tjb_lib.analysis.stats.no_such_name")


_PATH = re.compile(r"`((?:tjb_lib|tests|bench|notebooks|data|outputs|\.ci)/[\w./-]*\w)`")


def test_every_project_path_a_document_names_exists():
    """A path in backticks under one of the project's folders names a tracked file or folder
    (the datasheet once cited tjb_lib/readable.py after it moved into tjb_lib/pairs/)."""
    files = subprocess.run(["git", "ls-files"], cwd=paths.CHECKOUT, capture_output=True,
                           text=True, check=True).stdout.split()
    folders = {str(p) for f in files for p in PurePosixPath(f).parents}
    named = {(m.group(1), f) for f in files if f.endswith(".md") and "PROVENANCE" not in f
             for m in _PATH.finditer((paths.CHECKOUT / f).read_text(encoding="utf-8"))}
    assert len(named) > 20
    missing = sorted((p, f) for p, f in named if p not in files and p not in folders
                     and not p.startswith("outputs/"))  # outputs are made by runs
    assert missing == []
