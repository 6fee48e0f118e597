"""The library's wings are layered: every import (also one inside a function) points down.

A module's room is found from its job; a wing that imported a wing above it would make the
two one room again."""
import ast
from pathlib import Path

from tjb_lib import paths

#: the wings from the bottom up; a wing may import its own modules and any wing below it
WINGS = ("analysis", "validation", "paper", "run", "teaching")
LIB = paths.CHECKOUT / "tjb_lib"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return found


def _wing(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "tjb_lib" and parts[1] in WINGS else None


def upward_imports(lib: Path = LIB) -> list[str]:
    """Every import of a higher wing from a module of a lower wing, or from below every wing."""
    rank = {w: i for i, w in enumerate(WINGS)}
    found = []
    for path in sorted(lib.rglob("*.py")):
        rel = path.relative_to(lib.parent).with_suffix("")
        here = _wing(".".join(rel.parts))
        if ".".join(rel.parts) in ("tjb_lib.cli", "tjb_lib.__main__"):
            continue  # the CLI sits above every wing
        for name in sorted(_imports(path)):
            there = _wing(name)
            if there and there != here and (here is None or rank[there] > rank[here]):
                found.append(f"{rel}: imports {name}")
    return found


def test_every_import_points_down_the_wings():
    assert upward_imports() == []


def test_an_upward_import_is_found(tmp_path):
    lib = tmp_path / "tjb_lib"
    (lib / "analysis").mkdir(parents=True)
    (lib / "analysis" / "metrics.py").write_text("def f():\n    from tjb_lib.paper import floats\n")
    (lib / "store.py").write_text("from tjb_lib.run import sample\n")
    assert upward_imports(lib) == ["tjb_lib/analysis/metrics: imports tjb_lib.paper",
                                   "tjb_lib/analysis/metrics: imports tjb_lib.paper.floats",
                                   "tjb_lib/store: imports tjb_lib.run",
                                   "tjb_lib/store: imports tjb_lib.run.sample"]


def test_the_top_of_the_library_holds_what_every_wing_stands_on():
    top = sorted(p.stem for p in LIB.glob("*.py") if not p.stem.startswith("__"))
    assert len(top) <= 12, top
