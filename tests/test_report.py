"""What a reader sees of a table: rounded numbers, one interval column, statuses instead of
empty rates, no empty or repeated columns; the CSV keeps everything."""
from __future__ import annotations

import numpy as np
import pandas as pd

from tjb_lib.paper.report import present, write_table


def _comparison() -> pd.DataFrame:
    return pd.DataFrame({
        "paper_judge": ["GPT-5.5", "GPT-5.5", "GPT-5.5"], "level": ["L0", "L4", "TRACE"],
        "setting": ["L0", "L4", "trace_v2"], "metric": ["tie", "tie", "tie"],
        "paper": [0.0, 98.0, 1.0], "ours": [25.25, 100.0, np.nan],
        "ours_low": [10.04, 91.24, np.nan], "ours_high": [46.77, 100.0, np.nan],
        "n": [20, 40, 0], "n_unparsed": [0.0, 0.0, 6.0], "n_failed": [0.0, 0.0, 0.0],
        "unparsed": [0.0, 0.0, 100.0], "status": ["ok", "ok", "no parsed verdict"],
        "paper_n": [np.nan] * 3, "judge": ["smollm2"] * 3})


def test_present_rounds_merges_intervals_and_names_empty_cells():
    shown = present(_comparison())
    assert list(shown["ours"]) == ["25.2", "100.0", "no parsed verdict"]
    assert list(shown["ours 95% CI"]) == ["[10.0, 46.8]", "[91.2, 100.0]", ""]
    assert list(shown["n_unparsed"]) == ["0", "0", "6"] and "n_failed" in shown
    assert "ours_low" not in shown and "status" not in shown
    assert "paper_n" not in shown  # empty everywhere
    # setting equals level except for TRACE, so it stays; a copy of a text column would go
    assert "setting" in shown
    same = _comparison().assign(setting=["L0", "L4", "TRACE"])
    assert "setting" not in present(same)


def test_coefficients_keep_three_digits_and_metric_tables_flag_rows_without_verdicts():
    t2 = pd.DataFrame({"metric": ["raw_agreement_pct", "pabak"], "paper": [92.0, 0.84],
                       "ours": [91.5, 0.8312], "n": [200, 200], "status": ["ok", "ok"]})
    assert list(present(t2)["ours"]) == ["91.5", "0.831"]
    rates = pd.DataFrame({"split": ["a", "b"], "n": [10, 0], "tie": [50.0, np.nan],
                          "tie_low": [23.7, np.nan], "tie_high": [76.3, np.nan],
                          "n_unparsed": [0, 4], "n_failed": [0, 0], "mcnemar_p": [0.0004, 1.0]})
    shown = present(rates)
    assert list(shown["status"]) == ["", "no parsed verdict"]
    assert list(shown["mcnemar_p"]) == ["0.0004", "1"]


def test_the_markdown_file_is_the_presented_table_and_the_csv_keeps_every_digit(tmp_path):
    csv, md = write_table(_comparison(), "t", tmp_path)
    assert pd.read_csv(csv)["ours_low"].iloc[0] == 10.04
    text = md.read_text()
    assert "| 100.0 " in text and "[91.2, 100.0]" in text and "no parsed verdict" in text
    assert "ours_low" not in text
