"""One run per judge's results at a time, published by one atomic exchange of folders, and what
killed runs left removed by the next run (two ``--only`` runs at once once lost 8 of 14
tables; a kill mid-publish left a folder without ``tables/``; staging folders piled up)."""
from __future__ import annotations

import pytest

from tjb_lib.run import results

from faults_figures import concurrent_reproduce


@pytest.mark.slow
def test_two_reproduce_runs_on_one_judge_lose_no_table(tmp_path):
    got = concurrent_reproduce(tmp_path)
    assert sorted(got["exits"]) == [0, 1], got  # the second exits with one line, not waits
    refused = [lines for code, lines in zip(got["exits"], got["stderr"]) if code == 1][0]
    assert len(refused) == 1 and "another run is writing these results" in refused[0]
    assert got["tables_before"] > 0 and got["tables_lost"] == 0
    assert got["kernel_interrupt_lines"] == 0 and not [
        x for code, lines in zip(got["exits"], got["stderr"]) if code == 0 for x in lines]
    assert not got["stale_left"] and got["staging_left"] == []


def test_publish_exchanges_the_folders_and_keeps_what_is_not_a_result(tmp_path):
    final = tmp_path / "judge"
    (final / "tables").mkdir(parents=True)
    (final / "tables" / "old.csv").write_text("old")
    (final / "notes.txt").write_text("mine")
    staging = results.stage(final, keep=False)
    (staging / "tables").mkdir()
    (staging / "tables" / "new.csv").write_text("new")
    inode = staging.stat().st_ino
    results.publish(staging, final)
    assert final.stat().st_ino == inode  # the staged folder itself, moved by one rename
    assert [p.name for p in (final / "tables").iterdir()] == ["new.csv"]
    assert (final / "notes.txt").read_text() == "mine" and not staging.exists()


def test_the_next_run_puts_back_a_folder_a_kill_took_mid_publish_and_clears_staging(tmp_path):
    final = tmp_path / "judge"
    old = tmp_path / ".judge.old-123"
    (old / "tables").mkdir(parents=True)
    (tmp_path / ".judge.run-abc" / "tables").mkdir(parents=True)
    with results.hold(final):
        assert (final / "tables").is_dir()
        with pytest.raises(results.RunUnderWay, match="another run"):
            with results.hold(final):
                pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["judge"]  # the lock goes with the run
