"""The blind-reading tables in data/DATASHEET.md are the tally of the readings shipped in
data/readings: every split row of a round's table gives the seeds, F, F + B and N that
``reading tally`` computes from the packets' keys and the readers' grades."""
from __future__ import annotations

import re

import pytest

from tjb_lib import paths
from tjb_lib.pairs import reading

ROUNDS = sorted(p for p in paths.READINGS.iterdir() if p.is_dir())
DATASHEET = (paths.DATA / "DATASHEET.md").read_text(encoding="utf-8")


def _numbers(cell: str) -> list[int]:
    """The counts of a table cell, without its bold and its comparison in parentheses."""
    return [int(n) for n in re.findall(r"\d+", re.sub(r"\(.*?\)", "", cell))]


def _row(split: str, seeds: list[int]) -> list[str]:
    """The datasheet's table row of ``split`` whose seeds cell is ``seeds``."""
    for line in DATASHEET.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and cells[0] == split and _numbers(cells[1]) == seeds:
            return cells
    raise AssertionError(f"data/DATASHEET.md has no row for {split} with seeds {seeds}")


def test_every_round_is_in_the_readme():
    readme = (paths.READINGS / "README.md").read_text(encoding="utf-8")
    assert ROUNDS and all(f"`{p.name}`" in readme for p in ROUNDS)


@pytest.mark.parametrize("folder", ROUNDS, ids=lambda p: p.name)
def test_the_datasheet_table_is_the_tally_of_the_shipped_grades(folder):
    table = reading.tally(folder, show=False)
    for split, row in table.items():
        cells = _row(split, row["seeds"])
        assert [_numbers(c) for c in cells[2:5]] == [row["F"], row["F+B"], row["N"]], split
        packets = [folder / reading.packet_name(s) for s in row["seeds"]]
        assert all(p.is_file() for p in packets), packets  # what the reader read is kept too
