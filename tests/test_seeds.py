"""The seed is a fact declared once: every library module that seeds imports tjb_lib.seeds."""
from __future__ import annotations

from tjb_lib import paths
from tjb_lib.seeds import SEED


def test_the_library_writes_the_seed_in_one_place_only():
    library = paths.CHECKOUT / "tjb_lib"
    written = sorted(str(f.relative_to(paths.CHECKOUT)) for f in library.rglob("*.py")
                     if str(SEED) in f.read_text(encoding="utf-8"))
    assert written == ["tjb_lib/seeds.py"]
