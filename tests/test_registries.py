"""A registry refuses a name declared twice with one clear error: a second ``table_a11`` float,
a second claim id or a second split entry stops the import, where a dict built from the entries
would keep the last one without a word. (A second provider of one name: tests/test_catalog.py.)"""
from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from tjb_lib.paper import claim_registry, floats
from tjb_lib import names
from tjb_lib.pairs import registry


def _load_with(module: types.ModuleType, after: str, entry: str, monkeypatch) -> None:
    """Run ``module``'s own source with ``entry`` declared right after ``after``."""
    source = Path(module.__file__).read_text(encoding="utf-8")
    assert source.count(after) == 1, after
    copy = types.ModuleType(f"{module.__name__}_with_a_duplicate")
    copy.__file__ = module.__file__
    monkeypatch.setitem(sys.modules, copy.__name__, copy)  # dataclasses look their module up
    exec(compile(source.replace(after, f"{after}\n    {entry}", 1), module.__file__, "exec"),
         copy.__dict__)


@pytest.mark.parametrize("module, after, entry, message", [
    (floats, "_ENTRIES = (",
     'Float("table_a11", "§5.3", "A second A11", "04_resolution_loss", paper=False),',
     "float 'table_a11' is declared twice"),
    (claim_registry, "_ENTRIES: tuple[tuple[str, str, Cell | FromRows | Absent], ...] = (",
     '("C004", "00_benchmark", _LABELS),', "claim 'C004' is declared twice"),
    (registry, "_ENTRIES = (", '_ablation("length_control"),',
     "split 'ablation_length_control' is declared twice"),
])
def test_a_name_declared_twice_stops_the_import_with_one_line(module, after, entry, message,
                                                             monkeypatch):
    with pytest.raises(ValueError, match=message):
        _load_with(module, after, entry, monkeypatch)


@pytest.mark.parametrize("module, after", [
    (floats, "_ENTRIES = ("),
    (claim_registry, "_ENTRIES: tuple[tuple[str, str, Cell | FromRows | Absent], ...] = ("),
    (registry, "_ENTRIES = ("),
])
def test_the_source_as_shipped_loads_the_same_way(module, after, monkeypatch):
    _load_with(module, after, "", monkeypatch)


def test_the_shipped_registries_keep_every_entry():
    assert [f.name for f in floats._ENTRIES] == list(floats.FLOATS)
    assert [cid for cid, _, _ in claim_registry._ENTRIES] == list(claim_registry.CLAIMS)
    assert [s.name for s in registry._ENTRIES] == list(registry.SPLIT_NAMES)


def test_by_name_keeps_declaration_order_and_names_the_duplicate():
    assert list(names.by_name([("b", 1), ("a", 2)], "thing")) == ["b", "a"]
    with pytest.raises(ValueError, match=r"^thing 'a' is declared twice"):
        names.by_name([("a", 1), ("a", 2)], "thing")
