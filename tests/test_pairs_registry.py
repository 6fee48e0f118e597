"""The split registry is the one declaration of a split: the build, the loader, the plan, the
paraphrase sets and Table 1 read it; a build can be checked against a shipped manifest without
writing anything."""
from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from tjb_lib import paths
from tjb_lib.run import sample
from tjb_lib.pairs import build as build_mod
from tjb_lib.pairs import registry
from tjb_lib.paper.table1 import COMPONENTS
from tjb_lib.protocols.specs import paraphrase_specs
from tjb_lib.records import TARGET_RELATIONS


@pytest.fixture(scope="module")
def shipped(fresh_build):
    """A fresh build in a tmp folder, standing in for a shipped split folder."""
    return fresh_build


def test_every_entry_is_complete_and_named_once(shipped):
    assert list(shipped[1]["splits"]) == list(registry.SPLIT_NAMES)  # built, in registry order
    assert [registry.SPLITS[n].name for n in registry.SPLIT_NAMES] == list(registry.SPLIT_NAMES)
    assert sorted(f.stem for f in paths.SPLITS.glob("*.jsonl")) == sorted(registry.SPLIT_NAMES)
    for info in registry.SPLITS.values():
        assert info.target_relation in TARGET_RELATIONS
        assert 0 < info.default_pairs <= info.size and 0 < info.default_trace_pairs <= info.size
        assert set(info.source.split("+")) <= {"hotpotqa", "finqa", "humaneval"}


def test_plan_default_sample_sizes_come_from_the_registry():
    for name, info in registry.SPLITS.items():
        assert sample.limit_for(name, "L0", "default") == info.default_pairs
        assert sample.limit_for(name, "trace_v2", "default") == info.default_trace_pairs
        assert sample.limit_for(name, "L0", "paper") is None
    assert sample.limit_for("ranking_hotpotqa", "L0", "default") % 6 == 0   # whole queries


def test_paraphrase_sets_follow_each_entry_coverage():
    for name, info in registry.SPLITS.items():
        specs = paraphrase_specs(name)
        if info.paraphrases == "finqa_wording_check":
            assert {s.paraphrase for s in specs} == {"finqa_a", "finqa_b", "finqa_boundary"}
        else:
            assert len(specs) == 15
    with pytest.raises(ValueError, match="no paraphrase set for split 'nope'.*moderate_finqa"):
        paraphrase_specs("nope")


def test_table_1_components_cover_every_split_once():
    covered = [s for component, _ in COMPONENTS for s in registry.component_splits(component)]
    assert sorted(covered) == sorted(registry.SPLIT_NAMES)
    assert {info.component for info in registry.SPLITS.values()} == {c for c, _ in COMPONENTS}


def _only(monkeypatch, entries: dict) -> None:
    """The build sees a registry of just these entries (the others cost a minute to build and
    are not what the test is about)."""
    monkeypatch.setattr(build_mod, "SPLITS", entries)


def test_a_new_split_is_one_registry_entry(monkeypatch):
    base = registry.SPLITS["position_control"]
    toy = dataclasses.replace(base, name="toy_control", size=3,
                              build=lambda n, p: [dataclasses.replace(x, split=n)
                                               for x in base.build(base.name, p)[:3]])
    _only(monkeypatch, {base.name: base, "toy_control": toy})
    splits = build_mod.build_pairs()
    assert len(splits["toy_control"]) == 3 and list(splits)[-1] == "toy_control"
    assert all(p.split == "toy_control" for p in splits["toy_control"])


def test_a_builder_that_misses_its_size_stops_the_build(monkeypatch):
    bad = dataclasses.replace(registry.SPLITS["soft_hotpotqa"], size=99)
    _only(monkeypatch, {"soft_hotpotqa": bad})
    with pytest.raises(ValueError, match="soft_hotpotqa: built 100 pairs, the registry says 99"):
        build_mod.build_pairs()


def test_verify_accepts_the_same_build_and_writes_nothing(shipped, session_build):
    root, manifest = shipped
    before = {p.name: p.stat().st_mtime_ns for p in root.iterdir()}
    fresh, problems = build_mod.verify(splits_dir=root, built=session_build)
    assert problems == [] and fresh == manifest
    assert {p.name: p.stat().st_mtime_ns for p in root.iterdir()} == before


def test_verify_names_a_tampered_file_and_a_changed_manifest(shipped, session_build, tmp_path):
    root, _ = shipped
    for p in root.iterdir():
        (tmp_path / p.name).write_bytes(p.read_bytes())
    f = tmp_path / "soft_hotpotqa.jsonl"
    f.write_bytes(f.read_bytes().replace(b"Tie", b"Tye", 1) + b"\n")
    m = json.loads((tmp_path / "manifest.json").read_text())
    m["splits"]["conflict"]["count"] = 149
    del m["splits"]["ranking_hotpotqa"]
    (tmp_path / "manifest.json").write_text(json.dumps(m))
    _, problems = build_mod.verify(splits_dir=tmp_path, built=session_build)
    assert problems == [
        "conflict: count 149 shipped, 150 built",
        "ranking_hotpotqa: not in the shipped manifest",
        "soft_hotpotqa: soft_hotpotqa.jsonl does not match its manifest sha256"]


@pytest.mark.slow  # a build in a subprocess
def test_build_check_cli_exits_nonzero_on_a_difference(shipped, tmp_path):
    root, _ = shipped
    ok = subprocess.run([sys.executable, "-m", "tjb_lib", "build", "--check", "--out", str(root)],
                        capture_output=True, text=True, cwd=paths.ROOT)
    assert ok.returncode == 0 and "byte for byte" in ok.stdout
    empty = subprocess.run([sys.executable, "-m", "tjb_lib", "build", "--check", "--out",
                            str(tmp_path)], capture_output=True, text=True, cwd=paths.ROOT)
    assert empty.returncode == 1 and "no shipped manifest" in empty.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_check_that_passed_is_read_back_until_a_byte_it_read_changes(shipped, session_build,
                                                                        tmp_path, monkeypatch):
    root, manifest = shipped
    folder = tmp_path / "splits"
    folder.mkdir()
    for p in root.iterdir():
        (folder / p.name).write_bytes(p.read_bytes())
    monkeypatch.setattr(build_mod.paths, "ROOT", tmp_path)  # where remembered checks go
    assert build_mod.verify_once(splits_dir=folder, built=session_build) == (manifest, [])
    stamps = list((tmp_path / build_mod.VERIFIED).iterdir())
    assert len(stamps) == 1 and json.loads(stamps[0].read_text()) == manifest
    # read back: a build that differs from the folder is never consulted while the digest holds
    other = ({}, {**manifest, "seed": -1})
    assert build_mod.verify_once(splits_dir=folder, built=other) == (manifest, [])
    f = folder / "soft_hotpotqa.jsonl"
    f.write_bytes(f.read_bytes().replace(b"Tie", b"Tye", 1))
    fresh, problems = build_mod.verify_once(splits_dir=folder, built=session_build)
    assert problems == ["soft_hotpotqa: soft_hotpotqa.jsonl does not match its manifest sha256"]
    assert len(list((tmp_path / build_mod.VERIFIED).iterdir())) == 1  # a failed check is not kept
