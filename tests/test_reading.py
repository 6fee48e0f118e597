"""A blind reading (``tjb_lib.pairs.reading``): the same seed draws the same packet, the packet
tells the reader nothing of the construction but shows both sides verbatim in a mixed order, and
the tally reads X and Y through the key, counts the grades and refuses a malformed line by file
and line."""
from __future__ import annotations

import json
import re

import pytest

from tjb_lib import cli
from tjb_lib.pairs import SPLIT_NAMES, load_split
from tjb_lib.pairs import reading

#: one split of each kind of gold: plain, cited and plain, tie, none
SPLITS = ("moderate_hotpotqa", "conflict", "mechanical_finqa", "ranking_hotpotqa")


def _pairs(split):
    return {p.pair_id: p for p in load_split(split)}


def test_the_same_seed_draws_the_same_packet(tmp_path):
    a = reading.draw("conflict", 4242, 8, tmp_path / "a")
    b = reading.draw("conflict", 4242, 8, tmp_path / "b")
    assert a[0].read_bytes() == b[0].read_bytes()
    ka, kb = (json.loads(p.read_text(encoding="utf-8")) for p in (a[1], b[1]))
    assert ka["items"] == kb["items"] and ka["split"] == "conflict" and ka["seed"] == 4242
    other = json.loads(reading.draw("conflict", 4243, 8, tmp_path / "c")[1].read_text())
    assert [i["pair_id"] for i in other["items"]] != [i["pair_id"] for i in ka["items"]]
    assert a[0].name == "packet-4242.md" and a[1].name == "key-4242.json"


@pytest.mark.parametrize("split", SPLITS)
def test_the_packet_shows_both_sides_verbatim_and_nothing_of_the_construction(split, tmp_path):
    packet, key = reading.draw(split, 777, 6, tmp_path)
    text = packet.read_text(encoding="utf-8")
    items = json.loads(key.read_text(encoding="utf-8"))["items"]
    pairs = _pairs(split)
    rest = text
    for item in items:
        p = pairs[item["pair_id"]]
        x, y = getattr(p, item["X"]), getattr(p, item["Y"])
        block = (f"## Item {item['k']}\n\n### Question\n\n{p.task}\n\n### X\n\n{x}\n\n"
                 f"### Y\n\n{y}\n")
        assert block in text  # the question and both sides in full, as the split has them
        rest = rest.replace(block, "")
    assert not any(name in rest for name in SPLIT_NAMES)
    assert not any(name in text for name in SPLIT_NAMES if "_" in name)  # "conflict" is a word
    assert split not in packet.name and "pair_id" not in text
    # the packet's own words (the sides may say "the cited sources"; their words are the pairs')
    assert not re.search(r"cited|plain|gold", rest, re.IGNORECASE), rest
    assert "grades-777.txt" in rest and reading.REPLY in rest


def test_sides_are_mixed_over_a_draw(tmp_path):
    items = json.loads(reading.draw("moderate_hotpotqa", 31, 20, tmp_path)[1].read_text())["items"]
    sides = [i["X"] for i in items]
    assert 5 <= sides.count("cited") <= 15, sides
    assert all({i["X"], i["Y"]} == {"cited", "plain"} for i in items)
    assert {i["gold"] for i in items} == {"plain"}


def test_a_split_without_gold_keys_none_and_a_drawn_seed_is_not_redrawn(tmp_path):
    _, key = reading.draw("ranking_hotpotqa", 5, 3, tmp_path)
    assert [i["gold"] for i in json.loads(key.read_text())["items"]] == [None] * 3
    with pytest.raises(reading.ReadingError, match="key-5.json exists|packet-5.md exists"):
        reading.draw("ranking_hotpotqa", 5, 3, tmp_path)
    with pytest.raises(reading.ReadingError, match="fewer than the 999 asked for"):
        reading.draw("moderate_finqa", 6, 999, tmp_path)


def _key(folder, seed, split, items):
    (folder / f"key-{seed}.json").write_text(json.dumps({
        "split": split, "seed": seed,
        "items": [{"k": k, "pair_id": f"p{k}", "X": x, "Y": "plain" if x == "cited" else "cited",
                   "gold": gold} for k, (x, gold) in enumerate(items, 1)]}))


def test_the_tally_counts_grades_and_reads_verdicts_through_the_key(tmp_path, capsys):
    # conflict: item 1 has the plain side at X, item 2 the cited side at X; gold plain for both
    _key(tmp_path, 11, "conflict", [("plain", "plain"), ("cited", "plain"), ("cited", "cited"),
                                    ("plain", "cited")])
    (tmp_path / "grades-11.txt").write_text(
        "k | grade | verdict | defect\n"
        "1 | F | X | -\n"
        "  2|B|  X |  \"one fact decides it:\"  \n"
        "\n"
        "3 | N | y | \"Kellogg's's brands\"\n"
        "4 | f | Y | -\n")
    _key(tmp_path, 12, "mechanical_hotpotqa", [("cited", "tie"), ("plain", "tie")])
    (tmp_path / "grades-12.txt").write_text("1 | F | Tie | -\n2 | B | X | -\n")
    _key(tmp_path, 13, "ranking_hotpotqa", [("cited", None)])
    (tmp_path / "grades-13.txt").write_text("1 | N | X | \"padding\"\n")
    table = reading.tally(tmp_path)
    c = table["conflict"]
    assert (c["seeds"], c["F"], c["F+B"], c["N"]) == ([11], [2], [3], [1])
    # X on item 1 is the plain side (= gold), X on item 2 the cited side (not gold); y on item 3
    # is plain (gold cited), Y on item 4 is cited (= gold): 2 of 4 agree
    assert (c["verdict_gold"], c["with_gold"]) == ([2], [4])
    assert [(d["k"], d["grade"], d["verdict"], d["defect"]) for d in c["defects"]] == \
        [(2, "B", "cited", '"one fact decides it:"'), (3, "N", "plain", '"Kellogg\'s\'s brands"')]
    m = table["mechanical_hotpotqa"]
    assert (m["F"], m["F+B"], m["N"], m["verdict_gold"], m["with_gold"]) == \
        ([1], [2], [0], [1], [2])  # a Tie verdict matches a tie gold
    r = table["ranking_hotpotqa"]
    assert (r["N"], r["with_gold"], r["verdict_gold"]) == ([1], [0], [0])
    assert list(table) == [s for s in SPLIT_NAMES if s in table]  # in registry order
    out = capsys.readouterr().out
    assert "| conflict | 11 | 2 | 3 | 1 | 2 of 4 |" in out
    assert "| ranking_hotpotqa | 13 | 0 | 0 | 1 | no gold |" in out
    assert "- N (seed 11, item 3): \"Kellogg's's brands\"" in out


def test_a_reply_with_the_verdicts_reason_keeps_reason_and_defect_apart(tmp_path):
    """The packet asks for the verdict's reason (content) before the writing defect; a reply in
    the earlier four fields still reads, with no reason."""
    _key(tmp_path, 31, "moderate_hotpotqa", [("cited", "cited"), ("plain", "cited")])
    (tmp_path / "grades-31.txt").write_text(
        "1 | F | X | Y never ties the film to the actor | -\n"
        "2 | B | Y | X skips the bridge | Y: \"so the answer is\" | twice\n")
    first, second = reading.read_grades(tmp_path / "grades-31.txt", 2)
    assert (first["reason"], first["defect"]) == ("Y never ties the film to the actor", "")
    assert (second["reason"], second["defect"]) == ("X skips the bridge",
                                                    'Y: "so the answer is" | twice')
    d = reading.tally(tmp_path, show=False)["moderate_hotpotqa"]["defects"]
    assert [(x["k"], x["reason"], x["verdict"]) for x in d] == [(2, "X skips the bridge", "cited")]
    (tmp_path / "grades-31.txt").write_text("1 | F | X | -\n2 | N | X | \"garble\"\n")
    assert [g["reason"] for g in reading.read_grades(tmp_path / "grades-31.txt", 2)] == ["", ""]


def test_a_swapped_side_changes_the_tally(tmp_path):
    """The same verdicts read through a key with X and Y swapped agree where they disagreed:
    a tally that took X to be the cited side would give the same count twice."""
    grades = "1 | F | X | -\n2 | F | X | -\n3 | F | Y | -\n"
    for seed, xs in ((21, ("cited", "cited", "plain")), (22, ("plain", "plain", "cited"))):
        folder = tmp_path / str(seed)
        folder.mkdir()
        _key(folder, seed, "conflict", [(x, "cited") for x in xs])
        (folder / f"grades-{seed}.txt").write_text(grades)
    assert reading.tally(tmp_path / "21", show=False)["conflict"]["verdict_gold"] == [3]
    assert reading.tally(tmp_path / "22", show=False)["conflict"]["verdict_gold"] == [0]


def test_a_drawn_packet_tallies_end_to_end(tmp_path, capsys):
    _, key = reading.draw("conflict", 99, 5, tmp_path)
    items = json.loads(key.read_text())["items"]
    # a reader who always picks the side holding the gold
    (tmp_path / "grades-99.txt").write_text("".join(
        f"{i['k']} | F | {'X' if i['X'] == i['gold'] else 'Y'} | -\n" for i in items))
    assert cli.main(["reading", "tally", str(tmp_path), "--json", str(tmp_path / "t.json")]) == 0
    saved = json.loads((tmp_path / "t.json").read_text())
    assert saved["conflict"]["verdict_gold"] == [5] and saved["conflict"]["F"] == [5]


@pytest.mark.parametrize("line, why", [
    ("2 | F | X", "expected 'k | F|B|N"),
    ("2 | A | X | -", "grade 'A' is not F, B or N"),
    ("2 | F | cited | -", "verdict 'cited' is not X, Y or Tie"),
    ("9 | F | X | -", "item '9' is not a number from 1 to 3"),
    ("1 | F | X | -", "item 1 is graded twice"),
])
def test_a_malformed_line_is_one_error_naming_file_and_line(line, why, tmp_path, capsys):
    _key(tmp_path, 7, "conflict", [("cited", "cited")] * 3)
    path = tmp_path / "grades-7.txt"
    path.write_text(f"k | grade | verdict | defect\n1 | F | X | -\n{line}\n3 | B | Y | \"x\"\n")
    assert cli.main(["reading", "tally", str(tmp_path)]) != 0
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert f"{path} line 3: {why}" in err, err


def test_a_missing_item_or_key_is_named(tmp_path, capsys):
    _key(tmp_path, 8, "conflict", [("cited", "cited")] * 3)
    (tmp_path / "grades-8.txt").write_text("1 | F | X | -\n3 | F | X | -\n")
    (tmp_path / "grades-9.txt").write_text("1 | F | X | -\n")
    assert cli.main(["reading", "tally", str(tmp_path)]) == 2
    assert "grades-8.txt: no grade for item 2 of 3" in capsys.readouterr().err
    (tmp_path / "grades-8.txt").write_text("1 | F | X | -\n2 | F | X | -\n3 | F | X | -\n")
    assert cli.main(["reading", "tally", str(tmp_path)]) == 2
    assert "grades-9.txt: no key" in capsys.readouterr().err


def test_draw_from_the_command_line_prints_a_fresh_seed(tmp_path, capsys):
    assert cli.main(["reading", "draw", "--split", "moderate_finqa", "--pairs", "2",
                     "--out", str(tmp_path)]) == 0
    seed = int(re.match(r"seed (\d+):", capsys.readouterr().out).group(1))
    assert 0 <= seed < 2 ** 24
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"key-{seed}.json",
                                                          f"packet-{seed}.md"]
    assert cli.main(["reading", "draw", "--split", "no_such", "--out", str(tmp_path)]) == 2
    assert "unknown split 'no_such'" in capsys.readouterr().err
