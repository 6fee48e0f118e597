"""A split is its registry entry: no library module outside ``tjb_lib.pairs`` compares, matches
or prefixes a split's name, keys a table by it or lists splits by name; what a split is (its
audit budgets, what its sides differ in, its roles in our tables, its pooling in the explorer)
is read from its entry. The float and claim registries declare which split a paper row uses:
that is data, and they are the two modules allowed to name splits."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tjb_lib import paths
from tjb_lib.pairs import registry

LIBRARY = Path(paths.ROOT) / "tjb_lib"
#: the declarations of which split a paper float or claim uses
DECLARATIONS = {"floats.py", "claim_registry.py"}
NAMES = set(registry.SPLIT_NAMES)


def _name(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in NAMES


def _prefix(node: ast.AST) -> bool:
    """A string a split's name starts or ends with ("natural", "ablation_", "_hotpotqa")."""
    return (isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) > 2
            and any(n.startswith(node.value) or n.endswith(node.value) for n in NAMES))


def _names(node: ast.AST) -> bool:
    return (isinstance(node, (ast.Tuple, ast.List, ast.Set)) and bool(node.elts)
            and all(map(_name, node.elts)))


def branches(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) of every place a module branches on, keys by or lists a split's name."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if _name(side) or _names(side):
                    out.append((node.lineno, "compares a split's name"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("startswith", "endswith", "match", "search", "fullmatch") \
                and any(_prefix(a) or _name(a) for a in node.args):
            out.append((node.lineno, f"{node.func.attr} on a split's name"))
        elif isinstance(node, ast.Dict) and any(k is not None and _name(k) for k in node.keys):
            out.append((node.lineno, "keys a table by split name"))
        elif _names(node):
            out.append((node.lineno, "lists splits by name"))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) \
                and any(_name(d) for d in (*node.args.defaults, *node.args.kw_defaults) if d):
            out.append((node.lineno, "defaults to a split's name"))
    return out


def _modules() -> list[Path]:
    return sorted(p for p in LIBRARY.rglob("*.py")
                  if "pairs" not in p.relative_to(LIBRARY).parts[:-1]
                  and p.name not in DECLARATIONS)


def test_no_module_outside_pairs_branches_on_a_split_name():
    found = [f"{p.relative_to(LIBRARY)}:{line}: {what}" for p in _modules()
             for line, what in branches(ast.parse(p.read_text(encoding="utf-8")))]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("source, what", [
    ('if split == "moderate_hotpotqa": pass', "compares"),
    ('x = p.split in ("soft_hotpotqa", "conflict")', "compares"),
    ('x = name.startswith("natural")', "startswith"),
    ('x = name.endswith("_hotpotqa")', "endswith"),
    ('EXEMPT = {"ranking_hotpotqa": "why"}', "keys"),
    ('TIERS = ("mechanical_hotpotqa", "natural_hotpotqa")', "lists"),
    ('def f(split="moderate_hotpotqa"): pass', "defaults"),
])
def test_the_check_finds_each_kind_of_branch(source, what):
    assert [w for _, w in branches(ast.parse(source)) if w.startswith(what)]


def test_the_check_leaves_other_strings_alone():
    assert branches(ast.parse('x = tier == "moderate"; y = {"split": s}; z = ("equivalent",)')) \
        == []


def test_roles_and_tier_probes_are_read_from_the_entries():
    for role in registry.ROLES:
        assert role in registry.get(registry.with_role(role)).roles
    with pytest.raises(ValueError, match="unknown role 'nope'"):
        registry.with_role("nope")
    assert all(registry.get(n).tier_probe for n in registry.tier_probe_splits())
    assert len(registry.tier_probe_splits()) >= 2
